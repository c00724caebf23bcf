"""AskUserQuestion, EnterPlanMode and ExitPlanMode with a scripted person (a real
channel of the test's own) and the real permission checker as the mode's owner."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cc.permissions.ask import Answers, AskAnswer, PermissionRequest, PlanChoice, Question
from cc.permissions.checker import PermissionChecker
from cc.permissions.context import PermissionContext
from cc.tools.ask_user import AskUserQuestionTool
from cc.tools.base import EngineRef, ToolContext, ToolResult
from cc.tools.plan_mode import EnterPlanModeTool, ExitPlanModeTool
from cc.tools.services import AgentServices

SCHEMAS = Path("/work/shared/reference/phase2_tool_schemas.json")


class Person:
    """Answers from a script, and remembers what it was shown."""

    present = True

    def __init__(self, answers: Answers = None, plan: PlanChoice = "keep_planning") -> None:
        self.answers, self.plan = answers, plan
        self.asked: list[Question] = []
        self.plans: list[tuple[str, str]] = []

    async def ask_permission(self, request: PermissionRequest) -> AskAnswer:
        return AskAnswer("deny")

    async def choose(self, title: str, options: Sequence[str]) -> int | None:
        return None

    async def ask_questions(self, questions: Sequence[Question]) -> Answers:
        self.asked.extend(questions)
        return self.answers

    async def approve_plan(self, plan: str, path: str) -> PlanChoice:
        self.plans.append((plan, path))
        return self.plan


class Mode:
    """The mode service over a real checker (as `cc.core.services` builds it)."""

    def __init__(self, checker: PermissionChecker) -> None:
        self.checker = checker

    @property
    def mode(self) -> str:
        return self.checker.mode

    @property
    def plan_file(self) -> Path | None:
        return self.checker.context.plan_file

    def set_mode(self, mode: str) -> None:
        self.checker.mode = mode

    def on_mode_change(self, listener: Callable[[str], None]) -> None:
        self.checker.on_mode_change(listener)


def context(tmp_path: Path, person: Person, mode: str = "default") -> tuple[ToolContext, Mode]:
    checker = PermissionChecker(PermissionContext(
        cwd=tmp_path, config_dir=tmp_path / "config", mode=mode, home=tmp_path,
        plan_file=tmp_path / "config" / "plans" / "calm-tidy-river.md"))
    modes = Mode(checker)
    services = AgentServices(channel=person, mode=modes, side_query=None,  # type: ignore[arg-type]
                             toolset=None, agents=None, task_hooks=None,  # type: ignore[arg-type]
                             end_turn=lambda _: None)
    return ToolContext(cwd=tmp_path, engine_ref=EngineRef(services)), modes


QUESTION = {"question": "Which colour?", "header": "Colour", "multiSelect": False,
            "options": [{"label": "Red", "description": "warm"},
                        {"label": "Blue", "description": "cool"}]}


async def ask(tool: AskUserQuestionTool, raw: dict[str, Any], ctx: ToolContext
              ) -> ToolResult | str:
    inp = tool.validate(raw)
    return inp if isinstance(inp, str) else await tool.call(inp, ctx)


async def test_questions_are_answered_by_the_person(tmp_path: Path) -> None:
    person = Person({"Which colour?": "Blue"})
    ctx, _ = context(tmp_path, person)
    result = await ask(AskUserQuestionTool(), {"questions": [QUESTION]}, ctx)
    assert isinstance(result, ToolResult) and not result.is_error
    assert result.content == ('Your questions have been answered: "Which colour?"="Blue". '
                              "Carry on with these answers in mind.")
    assert result.data == {"questions": [QUESTION], "answers": {"Which colour?": "Blue"}}
    assert person.asked == [Question("Which colour?", "Colour",
                                     (("Red", "warm"), ("Blue", "cool")), False)]


async def test_answers_given_in_the_input_are_used_as_they_are(tmp_path: Path) -> None:
    person = Person()
    ctx, _ = context(tmp_path, person)
    result = await ask(AskUserQuestionTool(), {"questions": [QUESTION],
                                               "answers": {"Which colour?": "Red"}}, ctx)
    assert isinstance(result, ToolResult) and '"Which colour?"="Red"' in str(result.content)
    assert person.asked == []


async def test_a_declined_question_and_bad_input_are_errors(tmp_path: Path) -> None:
    ctx, _ = context(tmp_path, Person(None))
    tool = AskUserQuestionTool()
    declined = await ask(tool, {"questions": [QUESTION]}, ctx)
    assert isinstance(declined, ToolResult) and declined.is_error
    assert "declined" in str(declined.content)
    no_options = await ask(tool, {"questions": [{**QUESTION, "options": []}]}, ctx)
    assert isinstance(no_options, str) and "options" in no_options
    twice = await ask(tool, {"questions": [QUESTION, QUESTION]}, ctx)
    assert isinstance(twice, ToolResult) and twice.is_error and "different" in str(twice.content)


def test_schemas_are_claude_codes() -> None:
    reference = json.loads(SCHEMAS.read_text())
    for tool in (AskUserQuestionTool(), EnterPlanModeTool(), ExitPlanModeTool()):
        assert tool.input_schema() == reference[tool.name], tool.name


async def test_enter_then_exit_with_approval_accepts_edits(tmp_path: Path) -> None:
    person = Person(plan="acceptEdits")
    ctx, modes = context(tmp_path, person)
    heard: list[str] = []
    modes.on_mode_change(heard.append)
    plan_file = modes.plan_file
    assert plan_file is not None
    entered = await EnterPlanModeTool().call(EnterPlanModeTool.input_model(), ctx)
    assert not entered.is_error and str(plan_file) in str(entered.content)
    assert entered.data == {"message": entered.content}
    assert modes.mode == "plan" and plan_file.parent.is_dir()

    exit_tool = ExitPlanModeTool()
    inp = exit_tool.validate({})
    assert not isinstance(inp, str)
    missing = await exit_tool.call(inp, ctx)
    assert missing.is_error and "Write your plan" in str(missing.content)
    plan_file.write_text("# Plan\n1. Fix it.\n")
    approved = await exit_tool.call(inp, ctx)
    assert not approved.is_error and "approved the plan" in str(approved.content)
    assert approved.data == {"plan": "# Plan\n1. Fix it.\n", "isAgent": False,
                             "filePath": str(plan_file)}
    assert person.plans == [("# Plan\n1. Fix it.\n", str(plan_file))]
    assert heard == ["plan", "acceptEdits"]


async def test_rejection_keeps_planning_and_exit_outside_plan_mode_is_an_error(
        tmp_path: Path) -> None:
    ctx, modes = context(tmp_path, Person(plan="keep_planning"), mode="plan")
    assert modes.plan_file is not None
    modes.plan_file.parent.mkdir(parents=True)
    modes.plan_file.write_text("# Plan")
    inp = ExitPlanModeTool().validate({"allowedPrompts": [{"tool": "Bash",
                                                           "prompt": "run tests"}]})
    assert not isinstance(inp, str)
    rejected = await ExitPlanModeTool().call(inp, ctx)
    assert rejected.is_error and "keep planning" in str(rejected.content)
    assert modes.mode == "plan"
    modes.set_mode("default")
    outside = await ExitPlanModeTool().call(inp, ctx)
    assert outside.is_error and "not in plan mode" in str(outside.content)
