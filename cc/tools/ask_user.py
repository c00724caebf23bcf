"""AskUserQuestion: one to four multiple-choice questions for the person at the terminal.

The channel shows them (`QuestionChannel.ask_questions`); the answers, per question
text, go back to the model and into `tool_use_result {questions, answers}`. Answers a
host already gave (`answers` in the input) are used as they are. Nobody to answer, or
the person declines: an error result saying so.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from pydantic import Field

from cc.tools.base import ReadOnlyTool, ToolContext, ToolInput, ToolResult
from cc.tools.questions import Question


class Option(ToolInput):
    label: str = Field(description="What the user picks: one to five words.")
    description: str = Field(description="What choosing it means.")
    preview: str | None = Field(default=None, description="Optional text shown with it.")


class QuestionInput(ToolInput):
    question: str = Field(description="The question, ending with a question mark.")
    header: str = Field(description="A short tag for the question (a few words).")
    options: list[Option] = Field(min_length=2, max_length=4,
                                  description="Two to four choices.")
    multiSelect: bool = Field(  # noqa: N815 - Claude Code's field name
        default=False, description="Several options may be chosen together.")


class Annotation(ToolInput):
    preview: str | None = None
    notes: str | None = None


class Metadata(ToolInput):
    source: str | None = None


class AskUserQuestionInput(ToolInput):
    questions: list[QuestionInput] = Field(min_length=1, max_length=4,
                                           description="One to four questions.")
    answers: dict[str, str] | None = Field(default=None,
                                           description="Answers already given, by question.")
    annotations: dict[str, Annotation] | None = None
    metadata: Metadata | None = None


class AskUserQuestionTool(ReadOnlyTool):
    name = "AskUserQuestion"
    input_model: ClassVar[type[ToolInput]] = AskUserQuestionInput

    def is_concurrency_safe(self, inp: ToolInput) -> bool:
        return False  # one dialog at a time

    def input_schema(self) -> dict[str, Any]:
        return schema()

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, AskUserQuestionInput)
        texts = [q.question for q in inp.questions]
        if len(set(texts)) != len(texts):
            return ToolResult.error("Each question must be different: the answers are "
                                    "keyed by question text.")
        answers = inp.answers
        if not answers:
            channel = ctx.services().channel
            if not channel.present:
                return ToolResult.error("Nobody can answer questions in this session; "
                                        "decide yourself and say what you assumed.")
            answers = await channel.ask_questions([_question(q) for q in inp.questions])
        if answers is None:
            return ToolResult("The user declined to answer the questions. Go on with what "
                              "you know, or ask what they would like instead.", is_error=True)
        return ToolResult(answered_text(answers), data={
            "questions": [q.model_dump(exclude_none=True) for q in inp.questions],
            "answers": answers,
        }, summary=f"{len(answers)} answered")


def answered_text(answers: dict[str, str]) -> str:
    pairs = ", ".join(f'"{q}"="{a}"' for q, a in answers.items())
    return (f"Your questions have been answered: {pairs}. Carry on with these answers "
            "in mind.")


def _question(q: QuestionInput) -> Question:
    return Question(q.question, q.header, tuple((o.label, o.description) for o in q.options),
                    q.multiSelect)


def schema() -> dict[str, Any]:
    """Claude Code 2.1.328's input schema, as it is (fresh each call: callers may change it)."""
    return copy.deepcopy(_SCHEMA)


_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "questions": {
            "minItems": 1,
            "maxItems": 4,
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "question": {
                        "type": "string"
                    },
                    "header": {
                        "type": "string"
                    },
                    "options": {
                        "minItems": 2,
                        "maxItems": 4,
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "label": {
                                    "type": "string"
                                },
                                "description": {
                                    "type": "string"
                                },
                                "preview": {
                                    "type": "string"
                                }
                            },
                            "required": [
                                "label",
                                "description"
                            ],
                            "additionalProperties": False
                        }
                    },
                    "multiSelect": {
                        "default": False,
                        "type": "boolean"
                    }
                },
                "required": [
                    "question",
                    "header",
                    "options",
                    "multiSelect"
                ],
                "additionalProperties": False
            }
        },
        "answers": {
            "type": "object",
            "propertyNames": {
                "type": "string"
            },
            "additionalProperties": {
                "type": "string"
            }
        },
        "annotations": {
            "type": "object",
            "propertyNames": {
                "type": "string"
            },
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "preview": {
                        "type": "string"
                    },
                    "notes": {
                        "type": "string"
                    }
                },
                "additionalProperties": False
            }
        },
        "metadata": {
            "type": "object",
            "properties": {
                "source": {
                    "type": "string"
                }
            },
            "additionalProperties": False
        }
    },
    "required": [
        "questions"
    ],
    "additionalProperties": False
}
