"""--resume-session-at and --resume-drops-turn end to end, with the uuids a stream-json
reader sees (an assistant record's uuid is its transcript line's), and the `=` forms
the Agent SDK writes (--resume=ID, --session-id=ID, --resume-session-at=ID)."""

from __future__ import annotations

import json
import uuid

from cc.session.resume_at import REFUSED
from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

STREAM = ("--output-format", "stream-json", "--verbose")


def texts(body: dict) -> list[str]:
    out = []
    for message in body["messages"]:
        content = message["content"]
        blocks = [content] if isinstance(content, str) else content
        out += [b if isinstance(b, str) else b.get("text", b["type"]) for b in blocks]
    return out


def two_turns(project: Project) -> tuple[str, str, str]:
    """A session of two turns (the second with a call); its id, the first answer's record
    uuid and the second prompt's line uuid."""
    sid = str(uuid.uuid4())
    project.api.script(Reply([text("one")]))
    first = project.run("-p", "first", f"--session-id={sid}", *STREAM)
    answer = next(r["uuid"] for r in first.records() if r["type"] == "assistant")
    (project.root / "f.txt").write_text("x")
    project.api.script(Reply([tool_use("Read", {"file_path": str(project.root / "f.txt")})]),
                       Reply([text("two")]))
    assert project.run("-p", "second", f"--resume={sid}", *STREAM).returncode == 0
    path = next(project.config.glob(f"projects/*/{sid}.jsonl"))
    lines = [json.loads(raw) for raw in path.read_text().splitlines()]
    assert answer in {line.get("uuid") for line in lines}
    prompt = next(line["uuid"] for line in lines if line.get("type") == "user"
                  and line["message"]["content"] == "second")
    return sid, answer, prompt


def test_resume_at_an_earlier_answer_branches_the_conversation(project: Project) -> None:
    sid, answer, _ = two_turns(project)
    project.api.script(Reply([text("three")]), Reply([text("four")]))
    run = project.run("-p", "third", f"--resume={sid}", f"--resume-session-at={answer}",
                      *STREAM)
    assert run.returncode == 0, run.stderr
    assert run.records()[-1]["session_id"] == sid
    assert texts(project.api.bodies[-1]) == ["first", "one", "third"]
    # The new turn hangs off the answer: resumed again, the branch is the conversation.
    assert project.run("-p", "fourth", "-r", sid, *STREAM).returncode == 0
    assert texts(project.api.bodies[-1]) == ["first", "one", "third", "three", "fourth"]
    project.api.assert_clean()


def test_drops_turn_lets_a_fork_drop_exactly_that_turn(project: Project) -> None:
    sid, answer, prompt = two_turns(project)
    project.api.script(Reply([text("three")]))
    run = project.run("-p", "third", "--resume", sid, "--fork-session",
                      "--resume-session-at", answer, "--resume-drops-turn", prompt, *STREAM)
    assert run.returncode == 0, run.stderr
    assert run.records()[-1]["session_id"] != sid
    assert texts(project.api.bodies[-1]) == ["first", "one", "third"]


def test_a_refused_resume_is_an_error_result_the_sdk_can_read(project: Project) -> None:
    sid, answer, _ = two_turns(project)
    sent = len(project.api.bodies)
    run = project.run("-p", "third", "--resume", sid, "--resume-session-at", answer,
                      f"--resume-drops-turn={answer}", *STREAM)
    assert run.returncode == 1
    [result] = run.records()
    assert result["type"] == "result" and result["subtype"] == "error_during_execution"
    assert result["is_error"] is True and "result" not in result
    assert result["errors"][0].startswith(REFUSED)
    assert REFUSED in run.stderr
    missing = project.run("-p", "x", "--resume", sid, "--resume-session-at", str(uuid.uuid4()),
                          "--output-format", "json")
    assert missing.returncode == 1 and "--resume-session-at" in missing.json()["errors"][0]
    assert len(project.api.bodies) == sent


def test_the_resume_flags_need_each_other(project: Project) -> None:
    for args in (("--resume-session-at", "x"), ("-c", "--resume-session-at", "x"),
                 ("--resume", "x", "--resume-drops-turn", "y"),
                 ("--resume", "x", "--resume-session-at", "y", "--resume-drops-turn=")):
        run = project.run("-p", "hi", *args)
        assert run.returncode == 1 and "--resume" in run.stderr, args
    assert project.api.bodies == []
