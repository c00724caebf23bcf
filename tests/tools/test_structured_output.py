"""StructuredOutput and the JSON Schema checks under it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cc.prompts import load_text
from cc.tools.base import ToolContext
from cc.tools.json_schema import MAX_PROBLEMS, mismatches, schema_problem
from cc.tools.structured_output import ACCEPTED, MISMATCH, StructuredOutputTool
from tests.golden import assert_golden

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "integer"}, "tags": {"type": "array",
                                                          "items": {"type": "string"}}},
    "required": ["answer"],
    "additionalProperties": False,
}


def test_a_schema_is_checked_against_its_draft() -> None:
    assert schema_problem(SCHEMA) is None
    assert schema_problem({}) is None  # anything goes
    assert schema_problem({"type": 5}) == "at /type: 5 is not valid under any of the given schemas"
    assert schema_problem({"properties": {"a": {"minimum": "zero"}}}) == (
        "at /properties/a/minimum: 'zero' is not of type 'number'")
    assert schema_problem({"$schema": 7}) == "at /$schema: it is not a string"
    # Draft 7 reads `items` as a list of schemas too; 2020-12 does not.
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "items": [{}]}
    assert schema_problem(draft7) is None
    assert schema_problem({"items": [{}]}) is not None


def test_mismatches_say_where_each_problem_is() -> None:
    assert mismatches(SCHEMA, {"answer": 42, "tags": ["a"]}) == []
    assert mismatches(SCHEMA, {"answer": "42", "tags": ["a", 1], "extra": True}) == [
        "at (root): Additional properties are not allowed ('extra' was unexpected)",
        "at /answer: '42' is not of type 'integer'",
        "at /tags/1: 1 is not of type 'string'",
    ]
    assert mismatches(SCHEMA, {}) == ["at (root): 'answer' is a required property"]
    assert mismatches({"type": "string"}, {"answer": 1}) == [
        "at (root): {'answer': 1} is not of type 'string'"]
    odd = {"type": "object", "properties": {"a/b~c": {"type": "null"}}}
    assert mismatches(odd, {"a/b~c": 0}) == ["at /a~1b~0c: 0 is not of type 'null'"]


def test_many_or_long_problems_are_cut() -> None:
    schema = {"type": "object", "additionalProperties": {"type": "integer"}}
    lines = mismatches(schema, {f"k{i:02}": "x" * 1000 for i in range(MAX_PROBLEMS + 3)})
    assert len(lines) == MAX_PROBLEMS + 1 and lines[-1] == "… and 3 more"
    assert all(len(line) <= 300 for line in lines)


def test_a_reference_that_cannot_be_resolved_is_a_mismatch_not_a_crash() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}
    [line] = mismatches(schema, {"a": 1})
    assert line.startswith("the schema cannot be applied: ")
    assert mismatches(schema, {}) == []  # nothing to resolve


async def test_the_tool_offers_the_schema_as_is_and_checks_its_input(tmp_path: Path) -> None:
    tool = StructuredOutputTool(SCHEMA)
    definition = tool.api_definition()
    assert definition["name"] == "StructuredOutput"
    assert definition["input_schema"] == SCHEMA and definition["description"]
    ctx = ToolContext(cwd=tmp_path)

    good = tool.validate({"answer": 42, "tags": ["x"]})
    assert not isinstance(good, str)
    result = await tool.call(good, ctx)
    assert not result.is_error and result.answer is not None
    assert result.answer.conforms and result.answer.value == {"answer": 42, "tags": ["x"]}
    assert result.data == result.content

    bad = tool.validate({"answer": "x", "model_config": None})
    assert not isinstance(bad, str)  # the schema, not pydantic, says what is wrong
    result = await tool.call(bad, ctx)
    assert result.is_error and result.answer is not None and not result.answer.conforms
    assert result.answer.problems == (
        "at (root): Additional properties are not allowed ('model_config' was unexpected)",
        "at /answer: 'x' is not of type 'integer'")
    assert isinstance(result.content, str)
    assert result.content.endswith("\n".join(result.answer.problems))
    assert result.data == f"Error: {result.content}"
    assert tool.is_read_only(bad) and tool.is_concurrency_safe(bad)


GOLDEN = Path(__file__).parent.parent / "prompts" / "golden" / "structured_output.txt"


def test_golden_structured_output_texts() -> None:
    """What the model reads of the tool: its description and its two kinds of result."""
    assert "{problems}" in load_text(MISMATCH)
    rendered = "".join(f"## {name}\n{load_text(name)}\n" for name in (
        "tools/StructuredOutput.md", ACCEPTED, MISMATCH))
    assert_golden(GOLDEN, rendered, "StructuredOutput texts")
