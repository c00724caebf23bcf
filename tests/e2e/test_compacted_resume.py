"""`python -m cc -c` on compacted transcripts: Claude Code's form (kept messages named by
uuid on the boundary) and the form cc wrote before it did the same (kept messages
written again after the summary)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from cc.session.paths import project_dir
from tests.conftest import Project
from tests.fakeapi import Reply
from tests.session.test_preserved import CC_OLD_FORM, CLAUDE_CODE, u

SUMMARY = ("Earlier in this session (summary): the user asked for mul and div in calc.py; "
           "mul was added after reading the file.")
EDIT_DIV = {"file_path": "/home/user/calc/calc.py", "old_string": "    return a * b\n",
            "new_string": "    return a * b\n\n\ndef div(a, b):\n    return a / b\n"}
#: The first request's messages up to the new prompt: the summary, the kept round
#: verbatim, then what came after the compaction.
RESUMED = [
    {"role": "user", "content": [{"type": "text", "text": SUMMARY},
                                 {"type": "text", "text": "now add div"}]},
    {"role": "assistant", "content": [
        {"type": "text", "text": "Adding div after mul."},
        {"type": "tool_use", "id": "toolu_03", "name": "Edit", "input": EDIT_DIV}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_03",
         "content": "The file /home/user/calc/calc.py has been updated."}]},
    {"role": "assistant", "content": [
        {"type": "text", "text": "Added div; dividing by zero raises ZeroDivisionError."}]},
]
AFTER = [
    {"role": "user", "content": [
        {"type": "text", "text": "<local-command-caveat>A local command ran here; what "
                                 "follows is its record, for context.</local-command-caveat>"},
        {"type": "text", "text": "<command-name>/compact</command-name>\n            "
                                 "<command-message>compact</command-message>\n            "
                                 "<command-args></command-args>"},
        {"type": "text", "text": "<local-command-stdout>Compacted</local-command-stdout>"},
        {"type": "text", "text": "write a test for div"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Wrote test_div in test_calc.py."}]},
]


def plain(value: Any) -> Any:
    """`value` without cache_control marks (they move as the conversation grows)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def prompt(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def install(project: Project, fixture: Path, lines: int | None = None) -> Path:
    """The fixture as the project's session transcript (its first `lines` lines)."""
    first = next(json.loads(x) for x in fixture.read_text().splitlines() if '"sessionId"' in x)
    folder = project_dir(project.root, project.config)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{first['sessionId']}.jsonl"
    if lines is None:
        shutil.copy(fixture, path)
    else:
        path.write_text("".join(fixture.read_text().splitlines(keepends=True)[:lines]))
    return path


def test_claude_code_compacted_transcript_resumes_whole(project: Project) -> None:
    install(project, CLAUDE_CODE)
    project.api.script(Reply("Carrying on."))
    run = project.run("-c", "-p", "next")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "Carrying on."
    assert "Warning" not in run.stderr
    (request,) = project.api.requests  # no compaction: the kept usage figures were zeroed
    assert plain(request.body["messages"]) == [*RESUMED, *AFTER, prompt("next")]
    project.api.assert_clean()


def test_nothing_after_the_summary_resumes_after_the_kept_round(project: Project) -> None:
    """The kept round's last answer reported 990,000 tokens: zeroed, it does not set off
    a compaction. The new lines chain from it, and the next resume has them too."""
    path = install(project, CLAUDE_CODE, lines=17)  # up to the summary line
    assert json.loads(path.read_text().splitlines()[-1])["isCompactSummary"] is True
    project.api.script(Reply("Carrying on."), Reply("Still here."))
    assert project.run("-c", "-p", "next").returncode == 0
    assert project.run("-c", "-p", "and then?").returncode == 0
    first, second = (plain(r.body["messages"]) for r in project.api.requests)
    assert first == [*RESUMED, prompt("next")]
    answer = {"role": "assistant", "content": [{"type": "text", "text": "Carrying on."}]}
    assert second == [*RESUMED, prompt("next"), answer, prompt("and then?")]
    written = [json.loads(x) for x in path.read_text().splitlines()[17:]]
    assert written[0]["message"]["content"] == "next" and written[0]["parentUuid"] == u(13)
    project.api.assert_clean()


def test_a_transcript_cc_compacted_before_still_resumes(project: Project) -> None:
    """cc used to write the kept messages again after the summary, under new uuids."""
    install(project, CC_OLD_FORM)
    project.api.script(Reply("Yes."))
    run = project.run("-c", "-p", "all read?")
    assert run.returncode == 0, run.stderr
    assert "Warning" not in run.stderr
    sent = plain(project.api.requests[0].body["messages"])
    assert [m["role"] for m in sent] == ["user", "assistant", "user", "assistant", "user",
                                         "assistant", "user"]
    assert "This session continues an earlier conversation" in sent[0]["content"][0]["text"]
    assert [b.get("text") or b.get("id") for b in sent[1]["content"]] == [
        "Reading note 2.", "toolu_0002"]
    assert sent[2]["content"] == [{"type": "tool_result", "tool_use_id": "toolu_0002",
                                   "content": "1\tnote number 2\n2\t"}]
    assert [b.get("text") or b.get("id") for b in sent[3]["content"]] == [
        "Reading note 3.", "toolu_0003"]
    assert sent[4]["content"][0]["tool_use_id"] == "toolu_0003"
    assert "These files were read or edited" in sent[4]["content"][1]["text"]
    assert sent[5]["content"] == [{"type": "text", "text": "All three notes are read."}]
    assert sent[6] == prompt("all read?")
    assert "Reading note 1." not in json.dumps(sent)
    project.api.assert_clean()
