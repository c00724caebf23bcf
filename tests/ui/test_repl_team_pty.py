"""A team in the REPL, in a real pseudo-terminal: the members' status lines, their
letters above the prompt, the leader's turns that start by themselves, /team, Esc and
/exit with members at work."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from tests.fakeapi import Dynamic, FakeAPI, Reply, text, tool_use
from tests.ui.conftest import Setup
from tests.ui.terminal import Terminal


class TeamSetup(Setup):
    def __init__(self, tmp_path: Path, api: FakeAPI) -> None:
        super().__init__(tmp_path, api)
        self.tmp = tmp_path / "tmp"  # the shells' temporary folders go here
        self.tmp.mkdir()

    def start(self, *args: str, **env: str) -> Terminal:
        return super().start(*args, CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS="1",
                             TMPDIR=str(self.tmp), **env)

    def statuses(self, team: str) -> dict[str, str]:
        config = json.loads((self.config / "teams" / team / "config.json").read_text())
        return {m["name"]: m["status"] for m in config["members"]}

    def shells_left(self) -> list[str]:
        return sorted(p.name for p in self.tmp.glob("cc-shell-*"))


SETUP = TeamSetup


def call(tool: str, **inp: Any) -> dict[str, Any]:
    return tool_use(tool, inp)


def spawn(name: str, marker: str) -> dict[str, Any]:
    return call("Agent", description=f"{name} part", prompt=f"{marker}: do your part",
                team_name="crew", name=name)


def last_text(body: dict[str, Any]) -> str:
    return json.dumps(body["messages"][-1])


def line_below(screen: str, line: str) -> str | None:
    lines = [ln.rstrip() for ln in screen.splitlines()]
    return lines[lines.index(line) + 1] if line in lines[:-1] else None


def member_line(screen: str, name: str) -> str:
    """The status line of `@name` in the live area ("" if none is on screen)."""
    lines = [ln.strip() for ln in screen.splitlines() if ln.strip().startswith(f"@{name} · ")]
    return lines[-1] if lines else ""


def test_the_team_on_screen_from_spawn_to_exit(setup: TeamSetup) -> None:
    for name in ("a.txt", "b.txt"):
        (setup.root / name).write_text("one\ntwo\n")
    seen_working = threading.Event()  # the members report only once the test saw them work
    auto: list[str] = []  # what the leader's turns that nobody typed were started by

    def leader(body: dict[str, Any]) -> Reply:
        last = last_text(body)
        if '<agent-message from=\\"alpha\\"' in last:
            auto.append("letter")
            return Reply("Got alpha's report.")
        auto.append("other")
        return Reply("Noted.")

    setup.api.script(
        Reply([call("TeamCreate", team_name="crew", description="read the files")]),
        Reply([spawn("alpha", "ALPHA-TASK"), spawn("beta", "BETA-TASK")]),
        Reply("The team is at work."),
        *[Dynamic(leader) for _ in range(8)],
    )
    for name, marker, file in (("alpha", "ALPHA-TASK", "a.txt"), ("beta", "BETA-TASK", "b.txt")):
        setup.api.route(
            marker,
            Reply([call("Read", file_path=str(setup.root / file))]),
            Reply([text("Reporting."), call("SendMessage", to="team-lead",
                                             summary=f"{name} read {file}",
                                             message=f"{file} has two lines")],
                  hold_after_block={0: seen_working.is_set}),
            Reply(f"{name} finished."),
        )
    term = setup.start()
    term.enter("read the files with a team")
    term.wait_until(lambda s: "● The team is at work." in s
                    and member_line(s, "alpha") == "@alpha · working · Read(a.txt)"
                    and line_below(s, "  @alpha · working · Read(a.txt)")
                    == "  @beta · working · Read(b.txt)"
                    and line_below(s, "  @beta · working · Read(b.txt)") == ">")
    seen_working.set()
    # The letters show as they arrive, and the leader's next turn starts by itself.
    term.wait_for("✉ alpha: alpha read a.txt", "✉ beta: beta read b.txt")
    term.wait_for("● Got alpha's report.")
    assert "letter" in auto
    screen = term.wait_until(lambda s: member_line(s, "alpha").startswith("@alpha · idle")
                             and member_line(s, "beta").startswith("@beta · idle"))
    assert member_line(screen, "alpha") == "@alpha · idle · SendMessage(team-lead)"
    term.wait_idle()
    assert term.raw.count("✉ alpha:".encode()) == 1  # printed once, not with each redraw

    term.enter("/team")
    term.wait_for("Team crew: read the files", "@alpha · idle · last: SendMessage",
                  "@beta · idle")
    term.enter("/team alpha")
    screen = term.wait_for("Transcript of @alpha (idle):", "End of @alpha's transcript.")
    start = screen.index("Transcript of @alpha")
    shown = screen[start:]
    assert "ALPHA-TASK: do your part" in shown and "● Read(a.txt)" in shown
    assert "alpha finished." in shown and "BETA-TASK" not in shown

    term.enter("/exit")
    assert term.wait_exit() == 0
    statuses = setup.statuses("crew")
    assert statuses["alpha"] == "idle" and statuses["beta"] == "idle"
    assert setup.shells_left() == []
    setup.api.assert_clean()


def test_escape_stops_the_leader_and_exit_stops_a_member_at_work(setup: TeamSetup) -> None:
    (setup.root / "a.txt").write_text("one\n")
    release = threading.Event()  # alpha reports once the leader was interrupted
    over = threading.Event()  # set at the end: what the fake still holds lets go

    def leader(body: dict[str, Any]) -> Reply:
        if '<agent-message from=\\"alpha\\"' in last_text(body):
            return Reply("Heard alpha after the interrupt.")
        return Reply("Noted.")

    setup.api.script(
        Reply([call("TeamCreate", team_name="crew")]),
        Reply([spawn("alpha", "ALPHA-TASK")]),
        Reply([text("Planning " * 40), text("never shown")], hold_after_block={0: over.is_set}),
        *[Dynamic(leader) for _ in range(4)],
    )
    alpha = setup.api.route(
        "ALPHA-TASK",
        Reply([call("Read", file_path=str(setup.root / "a.txt"))]),
        Reply([text("Reporting."), call("SendMessage", to="team-lead", summary="alpha halfway",
                                         message="halfway there")],
              hold_after_block={0: release.is_set}),
        Reply([text("Still at it.")], hold_after_block={0: over.is_set}),  # works till /exit
    )
    term = setup.start()
    try:
        term.enter("start alpha")
        term.wait_until(lambda s: "● Planning Planning" in s and "esc to interrupt)" in s
                        and member_line(s, "alpha") == "@alpha · working · Read(a.txt)")
        term.type("\x1b")
        term.wait_for("Interrupted by user")
        screen = term.wait_idle()
        assert member_line(screen, "alpha") == "@alpha · working · Read(a.txt)"  # untouched
        release.set()
        term.wait_for("✉ alpha: alpha halfway", "● Heard alpha after the interrupt.")
        term.wait_until(
            lambda s: member_line(s, "alpha") == "@alpha · working · SendMessage(team-lead)"
            and "esc to interrupt)" not in s and len(alpha.requests) == 3)
        assert setup.statuses("crew")["alpha"] == "active"  # at work when the session ends
        term.enter("/exit")
        assert term.wait_exit() == 0
    finally:
        over.set()
    assert setup.statuses("crew")["alpha"] == "stopped"
    assert setup.shells_left() == []
    setup.api.assert_clean()
