"""`-p --json-schema`: the answer as a StructuredOutput call, checked, retried, reported in
the result's `structured_output` (as Claude Code 2.1.332 does, observed on the fake API)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"answer": {"type": "integer"}},
                          "required": ["answer"]}
FLAG = ("--json-schema", json.dumps(SCHEMA))


def answer(value: Any, id: str | None = None) -> Reply:  # noqa: A002
    return Reply([tool_use("StructuredOutput", {"answer": value}, id=id)])


def results_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in body["messages"][-1]["content"] if b["type"] == "tool_result"]


def test_a_conforming_call_is_the_answer(project: Project) -> None:
    project.api.script(answer(42))
    run = project.run("-p", "what is 6*7?", "--output-format", "json", *FLAG)
    assert run.returncode == 0, run.stderr
    result = run.json()
    assert (result["subtype"], result["is_error"]) == ("success", False)
    assert result["structured_output"] == {"answer": 42}
    assert result["result"] == '{"answer":42}'
    assert (result["terminal_reason"], result["stop_reason"]) == ("completed", "tool_use")
    assert result["num_turns"] == 2  # Claude Code counts the results as a turn's start
    [body] = project.api.bodies  # the call ends the turn: no request after it
    [tool] = [t for t in body["tools"] if t["name"] == "StructuredOutput"]
    assert tool["input_schema"] == SCHEMA and tool["description"]
    project.api.assert_clean()


def test_a_call_that_does_not_conform_is_retried(project: Project) -> None:
    project.api.script(answer("forty-two", id="toolu_bad"), answer(42))
    run = project.run("-p", "what is 6*7?", "--output-format", "json", *FLAG)
    assert run.returncode == 0, run.stderr
    result = run.json()
    assert result["structured_output"] == {"answer": 42} and result["num_turns"] == 3
    [retry] = results_of(project.api.bodies[1])
    assert retry["tool_use_id"] == "toolu_bad" and retry["is_error"] is True
    assert "at /answer: 'forty-two' is not of type 'integer'" in retry["content"]
    assert len(project.api.bodies) == 2
    project.api.assert_clean()


def test_retries_run_out(project: Project) -> None:
    project.api.script(*[answer(f"wrong {i}") for i in range(5)])
    run = project.run("-p", "what is 6*7?", "--output-format", "json", *FLAG)
    assert run.returncode == 1
    result = run.json()
    assert (result["subtype"], result["is_error"]) == ("error_max_structured_output_retries", True)
    assert result["terminal_reason"] == "structured_output_retry_exhausted"
    assert "result" not in result and "structured_output" not in result
    [error] = result["errors"]
    assert "after 5 StructuredOutput calls" in error
    assert "at /answer: 'wrong 4' is not of type 'integer'" in error
    assert result["num_turns"] == 6 and len(project.api.bodies) == 5
    project.api.assert_clean()


def test_max_structured_output_retries_sets_the_bound_and_text_mode_says_why(
    project: Project,
) -> None:
    project.env["MAX_STRUCTURED_OUTPUT_RETRIES"] = "2"
    project.api.script(answer("no"), answer("still no"))
    run = project.run("-p", "what is 6*7?", *FLAG)
    assert run.returncode == 1
    assert run.stdout.startswith("Error: No answer conforming to the --json-schema after 2 ")
    assert len(project.api.bodies) == 2
    project.api.assert_clean()


def test_stream_json_asks_once_for_the_call_after_a_text_answer(project: Project) -> None:
    project.api.script(Reply("It is 42."), answer(42))
    run = project.run("-p", "what is 6*7?", "--output-format", "stream-json", "--verbose",
                      *FLAG)
    assert run.returncode == 0, run.stderr
    records = run.records()
    assert [(r["type"], r.get("isSynthetic")) for r in records] == [
        ("system", None), ("assistant", None), ("user", True), ("assistant", None),
        ("user", None), ("result", None)]
    assert "StructuredOutput" in records[0]["tools"]
    asked = records[2]["message"]["content"][0]["text"]
    assert "StructuredOutput" in asked
    assert not records[4]["message"]["content"][0].get("is_error")
    result = records[-1]
    assert result["structured_output"] == {"answer": 42} and result["num_turns"] == 3
    second = project.api.bodies[1]["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert [b["text"] for b in second[-1]["content"]] == [asked]
    project.api.assert_clean()


def test_a_second_text_answer_ends_the_turn_without_structured_output(project: Project) -> None:
    project.api.script(Reply("It is 42."), Reply("Really, 42."))
    run = project.run("-p", "what is 6*7?", "--output-format", "json", *FLAG)
    assert run.returncode == 0, run.stderr
    result = run.json()
    assert result["subtype"] == "success" and result["result"] == "Really, 42."
    assert "structured_output" not in result and result["num_turns"] == 2
    project.api.assert_clean()


def test_tools_flag_leaves_it_and_a_refused_call_counts_for_nothing(project: Project) -> None:
    project.env["MAX_STRUCTURED_OUTPUT_RETRIES"] = "1"
    project.api.script(answer(42), answer(42), Reply("I may not answer that way."),
                       Reply("Sorry."))
    run = project.run("-p", "what is 6*7?", "--output-format", "json", "--tools", "",
                      "--disallowedTools", "StructuredOutput", *FLAG)
    assert run.returncode == 0, run.stderr
    result = run.json()
    assert [t["name"] for t in project.api.bodies[0]["tools"]] == ["StructuredOutput"]
    assert [d["tool_name"] for d in result["permission_denials"]] == ["StructuredOutput"] * 2
    assert result["subtype"] == "success" and result["result"] == "Sorry."
    assert "structured_output" not in result
    project.api.assert_clean()


def test_it_works_beside_other_tools(project: Project) -> None:
    (project.root / "n.txt").write_text("42\n")
    project.api.script(
        Reply([tool_use("Read", {"file_path": str(project.root / "n.txt")})]),
        Reply([text("Found it."), tool_use("StructuredOutput", {"answer": 42}),
               tool_use("Read", {"file_path": str(project.root / "n.txt")})]),
    )
    run = project.run("-p", "read n.txt", "--output-format", "json", *FLAG)
    assert run.returncode == 0, run.stderr
    result = run.json()
    assert result["structured_output"] == {"answer": 42} and result["num_turns"] == 3
    assert len(project.api.bodies) == 2
    project.api.assert_clean()


@pytest.mark.parametrize(("schema", "said"), [
    ("{not json", "Error: --json-schema is not valid JSON: "),
    ("[1, 2]", "Error: --json-schema must be a JSON object"),
    ('{"type": 5}', "Error: --json-schema is not a valid JSON Schema: at /type: "),
])
def test_a_bad_schema_is_a_usage_error(project: Project, schema: str, said: str) -> None:
    run = project.run("-p", "hi", "--json-schema", schema)
    assert run.returncode == 1
    assert run.stderr.startswith(said)
    assert project.api.bodies == []


def test_an_empty_schema_flag_asks_for_nothing(project: Project) -> None:
    project.api.script(Reply("hi"))
    run = project.run("-p", "hi", "--output-format", "json", "--json-schema", "")
    assert run.returncode == 0, run.stderr
    assert run.json()["result"] == "hi"
    assert "StructuredOutput" not in [t["name"] for t in project.api.bodies[0]["tools"]]
