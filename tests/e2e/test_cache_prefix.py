"""Every request of a conversation extends the one before it (issue 25, item 5): the
prompt cache's prefix is never rewritten by a turn, a tool round, a notice or a resume
(the `fake_api` fixture checks every test's requests so; this one says it outright), and
the json result carries the cache's figures, from which its hit rate is read."""

from __future__ import annotations

from tests.cache_prefix import breaks
from tests.conftest import Project
from tests.fakeapi import Reply, server_tool_use, text, tool_use, web_search_result


def test_turns_tool_rounds_and_a_resume_extend_the_prefix(project: Project) -> None:
    notes = project.root / "notes.txt"
    notes.write_text("one\ntwo\n")
    project.api.script(
        Reply([text("Reading."), tool_use("Read", {"file_path": str(notes)})]),
        Reply([tool_use("Grep", {"pattern": "two", "path": str(project.root)})]),
        Reply([text("It has two lines.")]),
        Reply([tool_use("Glob", {"pattern": "*.txt"})]),
        Reply([text("One text file.")]),
    )
    first = project.run("-p", "what is in notes.txt?", "--output-format", "json")
    assert first.returncode == 0, first.stderr
    again = project.run("-c", "-p", "and which files are text?", "--output-format", "json")
    assert again.returncode == 0, again.stderr
    requests = project.api.requests
    assert len(requests) == 5
    assert breaks(requests) == []
    project.api.assert_clean()


def test_the_json_result_sums_the_cache_figures_of_every_request(project: Project) -> None:
    # The main loop's requests, a side request (WebSearch's) and a sub-agent's, each with
    # its own figures: the result's usage and modelUsage carry their sums, from which a
    # script reads the cache's hit rate (Claude Code's fields; it sums only the main
    # loop's requests into `usage`, every request into `modelUsage`).
    figures = iter(range(1, 10))

    def usage() -> dict[str, int]:
        n = next(figures)
        return {"input_tokens": n, "output_tokens": 10 * n,
                "cache_read_input_tokens": 1000 * n, "cache_creation_input_tokens": 100 * n}

    call = server_tool_use("widgets")
    project.api.route(lambda body: not any("input_schema" in t for t in body.get("tools") or []),
                      Reply([call, web_search_result(call["id"]), text("Found.")],
                            usage=usage()), name="side")
    project.api.route("AGENT-TASK", Reply([text("Looked.")], usage=usage()))
    project.api.script(
        Reply([tool_use("WebSearch", {"query": "widgets"})], usage=usage()),
        Reply([tool_use("Agent", {"description": "Look", "prompt": "AGENT-TASK: look"})],
              usage=usage()),
        Reply([text("Done.")], usage=usage()),
    )
    run = project.run("-p", "look things up", "--output-format", "json",
                      "--allowedTools", "WebSearch,Agent")
    assert run.returncode == 0, run.stderr
    assert len(project.api.bodies) == 5 and project.api.turns_left == 0
    record = run.json()
    used = record["usage"]
    assert (used["input_tokens"], used["cache_read_input_tokens"],
            used["cache_creation_input_tokens"], used["output_tokens"]) == (15, 15000, 1500, 150)
    [(model, by_model)] = record["modelUsage"].items()
    assert model == project.api.bodies[0]["model"]
    assert (by_model["inputTokens"], by_model["cacheReadInputTokens"],
            by_model["cacheCreationInputTokens"]) == (15, 15000, 1500)
    rate = used["cache_read_input_tokens"] / (
        used["input_tokens"] + used["cache_read_input_tokens"]
        + used["cache_creation_input_tokens"])
    assert round(100 * rate) == 91
    project.api.assert_clean()
