"""The REPL's parts without a terminal: paragraphs, the live area, dialogs, completion."""

from __future__ import annotations

import asyncio
from pathlib import Path

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout.utils import explode_text_fragments

from cc.commands.registry import CommandRegistry
from cc.mcp.approval import ServerAnswer
from cc.permissions.ask import AskAnswer, PermissionRequest
from cc.session.history import append_history
from cc.team.mailbox import Letter
from cc.team.roster import MemberView, state_of
from cc.tools.agent_tasks import AgentTask
from cc.ui.repl.completion import ReplCompleter, could_complete, split_at_newlines
from cc.ui.repl.dialogs import Dialogs, preview_hunks
from cc.ui.repl.header import header_text
from cc.ui.repl.live import Live, agent_lines, live_fragments
from cc.ui.repl.prompt_history import ProjectHistory
from cc.ui.repl.team_view import letter_line, member_line
from cc.ui.repl.turn_view import split_paragraphs
from tests.waiting import wait_for_async


def test_split_paragraphs_never_cuts_a_code_fence() -> None:
    assert split_paragraphs("one line, growing") == ("", "one line, growing")
    assert split_paragraphs("first para\n\nsecond") == ("first para", "second")
    assert split_paragraphs("a\n\nb\n\nc") == ("a\n\nb", "c")
    text = "intro\n\n```py\nx = 1\n\ny = 2\n"
    assert split_paragraphs(text) == ("intro", "```py\nx = 1\n\ny = 2\n")
    closed = "```py\nx = 1\n\ny = 2\n```\n\nafter"
    assert split_paragraphs(closed) == ("```py\nx = 1\n\ny = 2\n```", "after")
    assert split_paragraphs("\n\nleading blank") == ("", "\n\nleading blank")


def plain(fragments: list[tuple[str, str]]) -> str:
    return "".join(text for _, text in fragments)


def test_live_area_shows_stream_tools_spinner_and_queue() -> None:
    live = Live()
    live.begin()
    live.started -= 3.2
    live.stream = "The answer so far"
    live.streamed_chars = 400
    live.running["t1"] = "Bash(npm test)"
    live.progress["t1"] = "PASS a\nPASS b\n"
    live.queued.append("and then\nthis")
    out = plain(live_fragments(live, 60, 20, now=live.started + 3.2))
    lines = out.split("\n")
    assert lines[0] == "● The answer so far"
    assert lines[1:3] == ["● Bash(npm test)", "  ⎿  PASS b"]
    assert lines[3].endswith("Working… (3s · ↓ 100 tokens · esc to interrupt)")
    assert lines[4] == "  › queued: and then this"
    live.end()  # the text stays until the view prints it (an interrupted turn keeps it)
    assert plain(live_fragments(live, 60, 20)) == "● The answer so far\n  › queued: and then this\n"


def test_team_lines_sit_below_the_spinner_and_above_the_queue(tmp_path: Path) -> None:
    live = Live()
    live.begin()
    working = MemberView("alpha", "working", "a1", ("Read", {"file_path": str(tmp_path / "a.py")}))
    live.team = [member_line(working, tmp_path), member_line(MemberView("beta", "idle"), tmp_path)]
    live.queued.append("next")
    lines = plain(live_fragments(live, 60, 20, now=live.started)).split("\n")
    assert "Working…" in lines[0]
    assert lines[1:4] == ["  @alpha · working · Read(a.py)", "  @beta · idle", "  › queued: next"]
    live.end()  # the team stays when the turn ends, cut to the width
    assert plain(live_fragments(live, 24, 20)).split("\n")[:2] == ["  @alpha · working · R",
                                                                   "  @beta · idle"]


def test_a_letter_is_one_line_its_summary_or_first_line() -> None:
    assert letter_line(Letter("alpha", "long text", "found it")) == "✉ alpha: found it"
    assert letter_line(Letter("beta", "\n  first line\nsecond")) == "✉ beta: first line"
    long = letter_line(Letter("gamma", "x" * 500))
    assert len(long) == len("✉ gamma: ") + 120 and long.endswith("…")


def test_a_members_state_comes_from_its_run_then_its_config() -> None:
    entry = AgentTask("a1", "part", "toolu_1", None)
    assert state_of(entry, "active") == "working"
    entry.status = "completed"
    assert state_of(entry, "idle") == "idle"
    assert state_of(entry, "done") == "done"  # its shutdown was approved
    assert state_of(entry, "active") == "idle"  # the config not written yet
    entry.status = "killed"
    assert state_of(entry, "stopped") == "stopped"
    assert state_of(None, "active") == "working"  # not of this session: the config says
    assert state_of(None, "failed") == "failed"


def test_the_spinner_pauses_while_a_dialog_asks() -> None:
    live = Live()
    live.begin()
    start = live.started
    live.running["t1"] = "Bash(make)"
    live.pause(now=start + 2)
    assert plain(live_fragments(live, 60, 20, now=start + 30)) == "● Bash(make)\n"  # no spinner
    live.resume(now=start + 30)
    out = plain(live_fragments(live, 60, 20, now=start + 31))
    assert out.split("\n")[1].endswith("Working… (3s · esc to interrupt)")  # the 28 s asked do not count


def test_live_stream_keeps_the_tail_within_the_height() -> None:
    live = Live()
    live.begin()
    live.message_started = True
    live.stream = "\n".join(f"line {i}" for i in range(50))
    lines = plain(live_fragments(live, 80, 10)).split("\n")
    assert lines[0] == "  line 44" and lines[5] == "  line 49"


def test_agent_lines_are_the_latest_calls_and_a_count_of_the_rest() -> None:
    assert agent_lines([]) == [("class:dim", "Initializing…")]
    assert agent_lines(["Read(a.txt)"]) == [("", "Read(a.txt)")]
    calls = ["Read(a.txt)", "Grep(pattern: \"x\")", "Bash(ls)", "Read(b.txt)"]
    assert agent_lines(calls) == [("", "Grep(pattern: \"x\")"), ("", "Bash(ls)"), ("", "Read(b.txt)"),
                                  ("class:dim", "+1 more tool use")]
    assert agent_lines([*calls, "Read(c.txt)"], shown=1) == [("", "Read(c.txt)"),
                                                           ("class:dim", "+4 more tool uses")]


def test_each_running_sub_agent_has_its_own_block_under_its_agent_line() -> None:
    live = Live()
    live.begin()
    live.running["t1"] = "Agent(Count the lines)"
    live.agent_calls["t1"] = ["Read(a.txt)", "Read(b.txt)", "Bash(wc -l a.txt b.txt)", "Read(c.txt)",
                              "Read(d.txt)"]
    live.running["t2"] = "Agent(Look for b)"
    live.agent_calls["t2"] = []
    live.running["t3"] = "Bash(make)"
    live.progress["t3"] = "cc -c a.c\n"
    lines = plain(live_fragments(live, 60, 20, now=live.started)).split("\n")
    assert lines[:9] == [
        "● Agent(Count the lines)",
        "  ⎿  Bash(wc -l a.txt b.txt)",
        "     Read(c.txt)",
        "     Read(d.txt)",
        "     +2 more tool uses",
        "● Agent(Look for b)",
        "  ⎿  Initializing…",
        "● Bash(make)",
        "  ⎿  cc -c a.c",
    ]
    assert "Working…" in lines[9]
    live.end()
    assert live.agent_calls == {}


def test_sub_agent_blocks_count_against_the_streamed_texts_height() -> None:
    live = Live()
    live.begin()
    live.message_started = True
    live.stream = "\n".join(f"line {i}" for i in range(50))
    live.running["t1"] = "Agent(Count the lines)"
    live.agent_calls["t1"] = ["Read(a.txt)", "Read(b.txt)", "Read(c.txt)", "Read(d.txt)"]
    lines = plain(live_fragments(live, 80, 14)).split("\n")
    assert lines[0] == "  line 45" and lines[4] == "  line 49"  # 14 - 4 - 5 lines of the agent
    assert lines[5:10] == ["● Agent(Count the lines)", "  ⎿  Read(b.txt)", "     Read(c.txt)",
                           "     Read(d.txt)", "     +1 more tool use"]


async def shown(dialogs: Dialogs) -> None:
    """Wait until `dialogs` shows a dialog (the asking task has had its turn)."""
    await wait_for_async(lambda: dialogs.current is not None, what="a dialog")


def request(tool: str = "Bash", **extra: object) -> PermissionRequest:
    return PermissionRequest(tool, {"command": "make"}, "toolu_1", "Bash command: make", **extra)  # type: ignore[arg-type]


async def test_permission_yes_always_and_no_with_feedback(tmp_path: Path) -> None:
    dialogs = Dialogs(tmp_path)
    asked = asyncio.create_task(dialogs.ask_permission(request(suggestions=["Bash(make:*)"])))
    await shown(dialogs)
    assert dialogs.current is not None and len(dialogs.current.options) == 3
    dialogs.move(1)
    assert dialogs.pick() is False
    assert await asked == AskAnswer("allow", always=True)

    asked = asyncio.create_task(dialogs.ask_permission(request()))
    await shown(dialogs)
    assert dialogs.current is not None and dialogs.current.options[-1].startswith("No")
    assert dialogs.pick(1) is True  # No: now the reason is typed
    assert dialogs.current.typing_feedback
    dialogs.give_feedback("  use make test instead ")
    assert await asked == AskAnswer("deny", feedback="use make test instead")

    asked = asyncio.create_task(dialogs.ask_permission(request()))
    await shown(dialogs)
    dialogs.cancel()  # Esc
    assert await asked == AskAnswer("deny")


async def test_allow_all_edits_switches_mode(tmp_path: Path) -> None:
    dialogs = Dialogs(tmp_path)
    switched: list[bool] = []
    dialogs.on_accept_edits = lambda: switched.append(True)
    edit = PermissionRequest("Edit", {"file_path": "x.py", "old_string": "", "new_string": "hi\n"}, "t", "Edit x.py")
    asked = asyncio.create_task(dialogs.ask_permission(edit))
    await shown(dialogs)
    assert dialogs.current is not None
    assert dialogs.current.options[1].startswith("Yes, allow all edits")
    dialogs.pick(1)
    assert await asked == AskAnswer("allow") and switched == [True]


async def test_requests_queue_and_cancelled_waiters_leave(tmp_path: Path) -> None:
    dialogs = Dialogs(tmp_path)
    first = asyncio.create_task(dialogs.ask_permission(request()))
    second = asyncio.create_task(dialogs.choose("Pick", ["a", "b"]))
    await shown(dialogs)
    assert dialogs.current is not None and dialogs.current.request is not None
    first.cancel()
    await wait_for_async(lambda: dialogs.current is not None and dialogs.current.title == "Pick")
    dialogs.move(-1)
    dialogs.pick()
    assert await second == 1
    assert dialogs.current is None


async def test_an_edit_dialog_is_shown_with_its_diff_from_the_first_draw(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    dialogs = Dialogs(tmp_path)
    drawn: list[object] = []  # the diff at each redraw while the dialog is up
    dialogs.on_change = lambda: dialogs.current is not None and drawn.append(dialogs.current.hunks)
    edit = PermissionRequest("Edit", {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}, "t", "")
    asked = asyncio.create_task(dialogs.ask_permission(edit))
    while dialogs.current is None:
        await asyncio.sleep(0.01)
    dialogs.pick(0)
    assert await asked == AskAnswer("allow")
    assert drawn and all(hunks for hunks in drawn)  # never drawn without its diff


async def test_the_question_about_new_mcp_servers(tmp_path: Path) -> None:
    dialogs = Dialogs(tmp_path)
    one = [("demo", "python server.py")]
    asked = asyncio.create_task(dialogs.approve_servers(one, ".mcp.json"))
    await shown(dialogs)
    assert dialogs.current is not None and dialogs.current.selected == 2  # refusing is first
    dialogs.pick()
    assert await asked == ServerAnswer(refused=("demo",))
    for index, expected in ((0, ServerAnswer(approved=("demo",))),
                            (1, ServerAnswer(approved=("demo",), all_later=True))):
        asked = asyncio.create_task(dialogs.approve_servers(one, ".mcp.json"))
        await shown(dialogs)
        dialogs.pick(index)
        assert await asked == expected
    asked = asyncio.create_task(dialogs.approve_servers(one, ".mcp.json"))
    await shown(dialogs)
    dialogs.cancel()  # Esc
    assert await asked == ServerAnswer(refused=("demo",))

    three = [("a", "x"), ("b", "y"), ("c", "z")]
    asked = asyncio.create_task(dialogs.approve_servers(three, ".mcp.json"))
    await shown(dialogs)
    assert dialogs.current is not None and dialogs.current.checked == {0, 1, 2}
    dialogs.pick(1)  # a number unticks
    dialogs.move(1)
    dialogs.toggle()  # so does Space, on the selected one
    dialogs.toggle()
    dialogs.pick()  # Enter: the ticked ones
    assert await asked == ServerAnswer(approved=("a", "c"), refused=("b",))
    asked = asyncio.create_task(dialogs.approve_servers(three, ".mcp.json"))
    await shown(dialogs)
    dialogs.cancel()
    assert await asked == ServerAnswer(refused=("a", "b", "c"))


def test_preview_hunks_from_the_file_on_disk(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\ny = 2\n")
    edit = PermissionRequest("Edit", {"file_path": "a.py", "old_string": "y = 2", "new_string": "y = 3"}, "t", "")
    (hunk,) = preview_hunks(edit, tmp_path) or []
    assert hunk["lines"] == [" x = 1", "-y = 2", "+y = 3"]
    write = PermissionRequest("Write", {"file_path": str(tmp_path / "a.py"), "content": "x = 1\n"}, "t", "")
    (hunk,) = preview_hunks(write, tmp_path) or []
    assert hunk["lines"] == [" x = 1", "-y = 2"]
    assert preview_hunks(PermissionRequest("Write", {"file_path": "new.py", "content": "z"}, "t", ""), tmp_path) is None


def completions(completer: ReplCompleter, text: str) -> list[str]:
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]


def test_completion_of_commands_and_paths(tmp_path: Path) -> None:
    (tmp_path / ".claude/commands").mkdir(parents=True)
    (tmp_path / ".claude/commands/deploy.md").write_text("Deploy it.")
    (tmp_path / "src").mkdir()
    (tmp_path / "src/calc.py").write_text("")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules/calc.js").write_text("")
    commands = CommandRegistry.default(tmp_path, tmp_path / "cfg")
    assert completions(ReplCompleter(lambda: None, tmp_path), "/co") == []  # still opening
    completer = ReplCompleter(lambda: commands, tmp_path)
    assert completions(completer, "/co") == ["/compact", "/cost", "/config", "/context"]
    assert completions(completer, "/dep") == ["/deploy"]
    assert completions(completer, "/cost now") == []
    assert completions(completer, "look at @src/c") == ["src/calc.py"]
    assert completions(completer, "look at @calc") == ["src/calc.py"]
    assert completions(completer, "mail a@b") == []


def test_the_prompt_is_split_at_its_newlines_only() -> None:
    frags: StyleAndTextTuples = [("a", "one\ntwo"), ("", "\n"), ("b", "three"), ("class:prompt", "> ")]
    split = split_at_newlines(frags)
    assert split == [("a", "one"), ("a", "\n"), ("a", "two"), ("", "\n"), ("b", "three"),
                     ("class:prompt", "> ")]
    assert explode_text_fragments(split) is split  # prompt_toolkit takes it as it is


def test_completion_while_typing_only_where_one_can_come() -> None:
    for text in ("/", "/co", "look at @", "look at @src/c"):
        assert could_complete(Document(text)), text
    for text in ("", "hello", "/cost now", "mail a@b", "@src/a.py and"):
        assert not could_complete(Document(text)), text


def test_history_recall_is_newest_first_and_stores_with_session(tmp_path: Path) -> None:
    append_history(tmp_path, "older", tmp_path / "p", "s0")
    append_history(tmp_path, "newer", tmp_path / "p", "s0")
    history = ProjectHistory(tmp_path, tmp_path / "p", lambda: "s1")
    assert list(history.load_history_strings()) == ["newer", "older"]
    history.store_string("typed now")
    assert list(ProjectHistory(tmp_path, tmp_path / "p", lambda: None).load_history_strings())[0] == "typed now"


def test_header_mentions_the_key_only_when_missing() -> None:
    with_key = header_text("0.1.0", "claude-opus-5-5", Path("/p"), True, 100, color=False)
    assert with_key.splitlines()[1] == "│ ✻ cc 0.1.0 · claude-opus-5-5                     │"
    assert "cwd: /p" in with_key and "API key" not in with_key
    without = header_text("0.1.0", "m", Path("/p"), False, 100, color=False)
    assert "No API key found" in without and "ANTHROPIC_API_KEY" in without and "apiKeyHelper" in without
    assert "\x1b[" not in without


def test_a_resumed_conversation_is_drawn_again(tmp_path: Path) -> None:
    from io import StringIO

    from rich.console import Console

    from cc.models.content_blocks import TextBlock, ToolResultBlock, ToolUseBlock
    from cc.models.messages import AssistantMessage, UserMessage
    from cc.ui.repl.replay import render_conversation

    messages = [
        UserMessage([TextBlock("fix @a.py"), TextBlock("<system-reminder>\nContents of a.py:…")]),
        AssistantMessage([TextBlock("Reading it."), ToolUseBlock("t1", "Read", {"file_path": str(tmp_path / "a.py")})]),
        UserMessage([ToolResultBlock("t1", "1\tx")]),
        UserMessage.text("[Request interrupted by user]", is_meta=True),
        UserMessage([TextBlock("<command-name>/review</command-name>\n<command-message>review</command-message>\n"
                               "<command-args>now</command-args>"), TextBlock("Review the code.")]),
        AssistantMessage([TextBlock("Looks **fine**.")]),
    ]
    c = Console(file=StringIO(), width=80, color_system=None)
    render_conversation(c, messages, tmp_path)
    shown = "\n".join(line.rstrip() for line in c.file.getvalue().splitlines())  # type: ignore[attr-defined]
    assert shown == "\n> fix @a.py\n\n● Reading it.\n\n● Read(a.py)\n\n> /review now\n\n● Looks fine."



def test_a_dialog_made_where_an_answered_one_was_is_drawn_as_itself(tmp_path: Path) -> None:
    """Two pickers in a row (/rewind's prompt, then what to restore): the second, made
    once the first was answered and freed, may take the first's place in memory (and so
    its id); it is drawn as itself all the same."""
    import gc

    from cc.core.credentials import Credentials
    from cc.ui.repl.dialogs import Pending
    from cc.ui.repl.screen import Screen
    from tests.sessions import make_session

    session = make_session(tmp_path, tmp_path / "config", argv=[],
                           credentials=Credentials(api_key="k", base_url="http://127.0.0.1:9"))
    dialogs = Dialogs(tmp_path)
    screen = Screen(session.facts, dialogs)
    loop = asyncio.new_event_loop()

    def drawn(pending: Pending) -> str:
        return "".join(text for _, text, *_ in screen._dialog_fragments(pending, 80))

    try:
        for round_ in range(10):  # (the allocator often puts the second where the first was)
            first = Pending(f"Which prompt, round {round_}?", ["a", "b"], loop.create_future())
            assert f"Which prompt, round {round_}?" in drawn(first)
            future = loop.create_future()
            del first
            gc.collect()
            second = Pending(f"What to restore, round {round_}?", ["code", "talk"], future)
            shown = drawn(second)
            assert f"What to restore, round {round_}?" in shown and "talk" in shown
            del second
    finally:
        loop.close()
