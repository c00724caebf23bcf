"""cc's stream-json and json records carry Claude Code's keys: the same conversation as the
reference samples (Claude Code 2.1.328, /work/shared/reference/samples), key by key, and,
opt-in (CC_CLAUDE_BIN), Claude Code itself on the same scripted conversation.

What Claude Code has and cc leaves out is listed below with the reason; nothing else may
differ either way.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

SAMPLES = Path("/work/shared/reference/samples")
CLAUDE = os.environ.get("CC_CLAUDE_BIN")

#: Claude Code's keys that cc does not write, by record (or nested object), and why.
NOT_IN_CC: dict[str, dict[str, str]] = {
    "init": {
        "fast_mode_disabled_reason": "cc has no fast mode, so no check blocks it",
        "messaging_socket_path": "cc opens no messaging socket",
        "per_turn_effort_active": "cc has no per-turn effort control",
        "terminal_slash_commands": "only when some command needs the terminal; cc has none",
        "ultrathink_available": "cc has no ultrathink",
        "ultrathink_typed_raises": "cc has no ultrathink",
        "view_mode": "cc has no view modes",
    },
    "result": {
        "fast_mode_disabled_reason": "cc has no fast mode, so no check blocks it",
        "subagent_stats": "cc does not count its agents' spawns, refusals and kills yet",
    },
    "usage": {"fallback_credit": "cc knows no fallback credit to report"},
    "modelUsage": {},
    "assistant": {
        "request_id": "cc does not keep the API's request id (2.1.332 writes it)",
    },
    "user": {
        "tool_result_meta": "cc does not report each call's permission decision yet",
    },
}
#: cc's keys that the 2.1.328 sample lacks: Claude Code 2.1.332 writes them too.
NEWER_THAN_SAMPLE = {"init": {"sandbox_enabled", "served_by_anthropic"}}


def key_sets(records: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Keys per record kind (init, assistant, user, result) and of the result's nested
    usage objects; the union over records of a kind."""
    out: dict[str, set[str]] = {}

    def add(kind: str, keys: Any) -> None:
        out.setdefault(kind, set()).update(keys)

    for record in records:
        kind = record.get("subtype") if record.get("type") == "system" else record.get("type")
        if kind not in ("init", "assistant", "user", "result"):
            continue
        add(kind, record)
        if kind == "result":
            add("usage", record["usage"])
            for name in ("modelUsage", "model_usage_since_last_result"):
                for entry in record.get(name, {}).values():
                    add("modelUsage", entry)
    return out


STREAM_KINDS = {"init", "assistant", "user", "result", "usage", "modelUsage"}


def assert_same_keys(theirs: dict[str, set[str]], ours: dict[str, set[str]],
                     newer: dict[str, set[str]] | None = None,
                     kinds: set[str] = STREAM_KINDS) -> None:
    assert set(theirs) == set(ours) == kinds
    for kind, keys in theirs.items():
        missing = keys - ours.get(kind, set()) - set(NOT_IN_CC[kind])
        extra = ours.get(kind, set()) - keys - (newer or {}).get(kind, set())
        assert not missing, f"{kind}: cc lacks {sorted(missing)}"
        assert not extra, f"{kind}: only cc has {sorted(extra)}"


def read_then_answer(project: Project) -> Path:
    readme = project.root / "README.md"
    readme.write_text("# Demo\nThis project computes primes.\n")
    project.api.script(Reply([text("Reading it."), tool_use("Read", {"file_path": str(readme)})]),
                       Reply([text("The README says the project computes primes.")]))
    return readme


needs_samples = pytest.mark.skipif(
    not SAMPLES.is_dir(), reason=f"the reference samples are not here ({SAMPLES})")


@needs_samples
def test_stream_json_records_have_the_sample_s_keys(project: Project) -> None:
    sample = [json.loads(line) for line in
              (SAMPLES / "print-stream-json.jsonl").read_text().splitlines() if line.strip()]
    read_then_answer(project)
    run = project.run("-p", "what does README.md say?", "--output-format", "stream-json",
                      "--verbose")
    assert run.returncode == 0, run.stderr
    assert_same_keys(key_sets(sample), key_sets(run.records()), NEWER_THAN_SAMPLE)


@needs_samples
def test_the_json_result_has_the_sample_s_keys(project: Project) -> None:
    sample = json.loads((SAMPLES / "print-json-result.json").read_text())
    read_then_answer(project)
    run = project.run("-p", "what does README.md say?", "--output-format", "json")
    assert run.returncode == 0, run.stderr
    result = run.json()
    assert "model_usage_since_last_result" not in result  # stream-json's only, as in the sample
    assert_same_keys(key_sets([sample]), key_sets([result]),
                     kinds={"result", "usage", "modelUsage"})


@pytest.mark.skipif(not CLAUDE, reason="opt-in: set CC_CLAUDE_BIN to a Claude Code "
                    "`claude` executable to compare its records with cc's")
def test_the_same_keys_as_claude_code_itself(project: Project) -> None:
    records: dict[str, list[dict[str, Any]]] = {}
    for who in ("claude", "cc"):
        read_then_answer(project)
        project.api.script(*[Reply([text("spare")]) for _ in range(3)])  # its side requests
        args = ("-p", "what does README.md say?", "--output-format", "stream-json",
                "--verbose")
        if who == "cc":
            run = project.run(*args)
            assert run.returncode == 0, run.stderr
            records[who] = run.records()
        else:
            env = {**project.base_env(), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                   "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1"}
            proc = subprocess.run([str(CLAUDE), *args], cwd=project.root, env=env,
                                  capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                  timeout=120)
            assert proc.returncode == 0, proc.stderr
            records[who] = [json.loads(line) for line in proc.stdout.splitlines()
                            if line.startswith("{")]
        project.api._turns.clear()  # noqa: SLF001 - what one left unplayed is not the other's
    assert_same_keys(key_sets(records["claude"]), key_sets(records["cc"]))


def test_what_the_added_keys_say(project: Project) -> None:
    read_then_answer(project)
    other = project.root.parent / "other"
    other.mkdir()
    run = project.run("-p", "what does README.md say?", "--output-format", "stream-json",
                      "--verbose", "--add-dir", str(other), "--add-dir", ".")
    assert run.returncode == 0, run.stderr
    init, *_, result = run.records()
    assert init["capabilities"] == [] and init["fast_mode_state"] == "off"
    assert init["additional_directories"] == [str(other), str(project.root)]
    assert init["original_cwd"] == init["cwd"] and init["served_by_anthropic"] is False
    assert result["api_error_status"] is None and result["fast_mode_state"] == "off"
    assert (result["result_index"], result["queued_turn_count"]) == (0, 0)
    order = [result[k] for k in ("time_to_request_ms", "ttft_stream_ms",
                                 "first_content_frame_ms", "ttft_ms", "duration_ms")]
    assert order == sorted(order)
    [usage] = result["modelUsage"].values()
    assert (usage["canonicalModel"], usage["provider"], usage["costBasis"]) == (
        "claude-opus-5-5", "firstParty", "list")
    assert result["model_usage_since_last_result"] == result["modelUsage"]


def test_error_results_keep_errors_and_leave_out_the_answer_s_keys(project: Project) -> None:
    from tests.fakeapi import Fault

    project.api.script(Fault(400, message="bad request"))
    failed = project.run("-p", "hi", "--output-format", "json").json()
    assert (failed["api_error_status"], failed["api_error_type"]) == (400, "invalid_request_error")
    assert failed["is_error"] is True and "ttft_ms" not in failed
    project.api.script(Reply([tool_use("Read", {"file_path": "x"})]))
    stopped = project.run("-p", "hi", "--max-turns", "1", "--output-format", "json").json()
    assert stopped["subtype"] == "error_max_turns" and stopped["errors"]
    assert not {"result", "api_error_status", "ttft_ms"} & set(stopped)
