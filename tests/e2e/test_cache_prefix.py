"""Every request of a conversation extends the one before it (issue 25, item 5): the
prompt cache's prefix is never rewritten by a turn, a tool round, a notice or a resume."""

from __future__ import annotations

from tests.cache_prefix import breaks
from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use


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


def test_the_check_sees_a_rewritten_prefix() -> None:
    from tests.fakeapi import Recorded

    def request(messages: list[dict], system: str = "s") -> Recorded:
        return Recorded("/v1/messages", {"x-claude-code-session-id": "a"},
                        {"model": "m", "tools": [{"name": "Read"}], "system": system,
                         "messages": messages})

    one = {"role": "user", "content": [{"type": "text", "text": "hi",
                                        "cache_control": {"type": "ephemeral"}}]}
    two = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    reply = {"role": "assistant", "content": "ok"}
    assert breaks([request([one]), request([two, reply, two])]) == []  # breakpoints move
    assert breaks([request([one]), request([reply, reply, two])]) == [
        "request 1: message 0 of the request before changed"]
    assert breaks([request([one]), request([two, reply, two], system="t")]) == [
        "request 1: its system differs from the request before"]
