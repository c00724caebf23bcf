"""The REPL in a real pseudo-terminal: what a user types, and what the screen shows."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from tests.fakeapi import Dynamic, FakeAPI, Reply, text, tool_use
from tests.ui.conftest import Setup
from tests.ui.terminal import Terminal, cc_argv, cc_env


def user_texts(body: dict[str, Any]) -> list[str]:
    """The text blocks of the last user message of a request."""
    content = body["messages"][-1]["content"]
    return [b["text"] for b in content if b.get("type") == "text"]


def test_prompt_streams_answer_and_shows_tool_line(setup: Setup) -> None:
    (setup.root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    setup.api.script(
        Reply([text("Let me look."), tool_use("Read", {"file_path": str(setup.root / "calc.py")})]),
        Reply([text("It **subtracts** instead of adding.\n\n```python\nreturn a + b\n```\n\nFixed soon.")]),
    )
    term = setup.start()
    term.enter("what does calc.py do?")
    # the code block shows once the answer is printed whole, which may follow its last line
    screen = term.wait_for("Fixed soon.", "return a + b")
    assert "> what does calc.py do?" in screen
    assert "● Let me look." in screen
    assert "● Read(calc.py)" in screen
    assert "  ⎿  Read 3 lines" in screen
    assert "● It subtracts instead of adding." in screen
    assert "return a + b" in screen
    setup.api.assert_clean()
    term.ctrl("d")
    assert term.wait_exit() == 0


def test_prompt_given_on_the_command_line_runs_first(setup: Setup) -> None:
    setup.api.script(Reply("Answer to the argument."))
    term = setup.start("explain", "this repo")
    term.wait_for("> explain this repo", "● Answer to the argument.")
    assert user_texts(setup.api.bodies[-1]) == ["explain this repo"]
    lines = (setup.config / "history.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["display"] == "explain this repo"


def test_help_cost_and_clear(setup: Setup) -> None:
    setup.api.script(Reply("Hello!", usage={"input_tokens": 1000, "output_tokens": 100}), Reply("Again."))
    term = setup.start()
    term.enter("/help")
    screen = term.wait_for("/resume [session id]", "/exit", "ctrl+d to exit")
    assert "/release-notes" in screen and "/logout" in screen  # (the top scrolled away)
    term.enter("hi")
    term.wait_for("● Hello!")
    term.wait_idle()
    term.enter("/cost")
    screen = term.wait_for("Estimated cost:", "Usage by model:")
    assert "Estimated cost:        $0.00" in screen
    assert "claude-opus-5-5:  1.0k input, 100 output" in screen
    term.enter("/clear")
    screen = term.wait_until(lambda s: "Started a new conversation." in s and "Estimated cost:" not in s)
    assert "● Hello!" not in screen and "> hi" not in screen  # the screen is cleared too
    assert screen.splitlines()[1].startswith("│ ✻ cc ")  # the header on top again
    term.enter("again")
    term.wait_for("● Again.")
    assert len(setup.api.bodies[-1]["messages"]) == 1
    setup.api.assert_clean()


def test_custom_command_with_arguments_reaches_the_model(setup: Setup) -> None:
    commands = setup.root / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "greet.md").write_text(
        "---\ndescription: Greet someone\nargument-hint: <name> <city>\n---\nSay hello to $0 from $1.\n"
    )
    setup.api.script(Reply("Hello, Ada!"))
    term = setup.start()
    term.type("/gre")
    term.wait_for("Greet someone (project)")  # offered while typing
    term.enter('et "Ada Lovelace" London')
    term.wait_for("● Hello, Ada!")
    texts = user_texts(setup.api.bodies[-1])
    assert "Say hello to Ada Lovelace from London.\n" in texts
    assert any("<command-name>/greet</command-name>" in t for t in texts)
    setup.api.assert_clean()


def test_completion_shows_every_match_on_a_full_screen(setup: Setup) -> None:
    term = setup.start()
    term.enter("!seq 1 60")  # the prompt ends up on the last lines of the screen
    term.wait_for("     60")
    term.wait_idle()
    term.type("/co")
    screen = term.wait_for("/compact")
    lines = screen.splitlines()
    for name in ("/compact", "/cost", "/config", "/context"):
        assert any(line.lstrip().startswith(name + " ") for line in lines), f"{name} missing:\n{screen}"
    assert term.prompt_line() == "> /co"
    term.type("\x1b[B\r")  # the first match, run
    term.wait_for("Could not compact: too few exchanges to compact yet")


def test_compact_summarises_and_the_conversation_goes_on(setup: Setup) -> None:
    asks_for_summary = "the conversation above is about to be replaced by a summary"
    summary = setup.api.route(lambda body: asks_for_summary in json.dumps(body["messages"][-1]),
                              Reply("<summary>We talked about two numbers.</summary>"),
                              name="summary")
    setup.api.script(Reply("One."), Reply("Two."), Reply("Three, after the summary."))
    term = setup.start()
    term.enter("say one")
    term.wait_for("● One.")
    term.enter("say two")
    term.wait_for("● Two.")
    term.enter("/compact")
    term.wait_for("Compacted the conversation (")
    assert len(summary.requests) == 1
    term.enter("and three?")
    term.wait_for("● Three, after the summary.")
    first = json.dumps(setup.api.requests[-1].body["messages"][0])
    assert "We talked about two numbers." in first and "say one" not in first
    setup.api.assert_clean()


def test_a_saved_memory_gets_a_line(setup: Setup) -> None:
    from cc.session.paths import project_dir

    folder = project_dir(setup.root, setup.config) / "memory"
    memory = "---\nname: prefers-tabs\ndescription: tabs\ntype: feedback\n---\nTabs.\n"
    setup.api.script(
        Reply([tool_use("Write", {"file_path": str(folder / "prefers-tabs.md"), "content": memory})]),
        Reply("I will remember that."),
    )
    term = setup.start("--permission-mode", "default")
    term.enter("remember that I prefer tabs")
    screen = term.wait_for("Saved a memory: prefers-tabs", "● I will remember that.")
    assert "Do you want" not in screen  # no question for the memory folder
    assert (folder / "prefers-tabs.md").read_text() == memory


def test_leaving_looks_back_for_what_is_worth_remembering(setup: Setup) -> None:
    """A turn worth keeping waits for the session to sit idle; leaving first, the exit
    says so and waits for the memory keeper's look."""
    from cc.session.paths import project_dir

    folder = project_dir(setup.root, setup.config) / "memory"
    note = "---\nname: fridays\ndescription: deploys on Fridays\ntype: project\n---\nFridays.\n"
    keeper = setup.api.route(lambda body: "memory keeper" in json.dumps(body["messages"]), Reply([
        tool_use("Write", {"file_path": str(folder / "fridays.md"), "content": note}),
        tool_use("Write", {"file_path": str(folder / "MEMORY.md"),
                           "content": "- [fridays](fridays.md) - deploys on Fridays\n"})]),
        name="keeper")
    setup.api.script(Reply("Noted."))
    term = setup.start(CC_DISABLE_MEMORY_EXTRACTION="0")
    term.enter("we only deploy on Fridays")
    term.wait_for("● Noted.")
    assert keeper.requests == []  # not after the turn: the session is not idle yet
    term.ctrl("d")
    assert term.wait_exit() == 0
    assert b"Looking for anything worth remembering" in term.raw
    assert len(keeper.requests) == 1 and (folder / "fridays.md").read_text() == note
    setup.api.assert_clean()


def test_ctrl_c_cuts_the_exits_look_short(setup: Setup) -> None:
    """The look the exit waits for is not the user's errand: Ctrl-C ends it and cc."""
    release = threading.Event()
    keeper = setup.api.route(lambda body: "memory keeper" in json.dumps(body["messages"]),
                             Reply("Nothing to save.", hold_after_block={0: release.is_set}),
                             name="keeper")
    setup.api.script(Reply("Noted."))
    term = setup.start(CC_DISABLE_MEMORY_EXTRACTION="0")
    try:
        term.enter("remember that we deploy on Fridays")
        term.wait_for("● Noted.")
        term.ctrl("d")
        term.wait_for("Looking for anything worth remembering")
        term.wait_until(lambda _: len(keeper.requests) == 1)
        term.ctrl("c")
        assert term.wait_exit() == 130  # interrupted, as Ctrl-C outside a turn ends cc
        assert b"Traceback" not in term.raw
    finally:
        release.set()


def test_unknown_command_and_shell_escape(setup: Setup) -> None:
    setup.api.script(Reply("Seen it."))
    term = setup.start()
    term.enter("/hepl")
    term.wait_for("Unknown command: /hepl. Did you mean /help?")
    term.enter("!echo from-the-shell")
    term.wait_for("! echo from-the-shell", "⎿  from-the-shell")
    assert setup.api.bodies == []  # no model call for a shell line
    term.enter("what did it print?")
    term.wait_for("● Seen it.")
    sent = "\n".join(user_texts(setup.api.bodies[-1]))
    assert "<bash-input>echo from-the-shell</bash-input>" in sent
    assert "<bash-stdout>from-the-shell</bash-stdout>" in sent
    setup.api.assert_clean()


def test_escape_interrupts_and_the_next_prompt_works(setup: Setup) -> None:
    # the first block streams, then the answer stalls until the test ends
    slow = Reply([text("word " * 200), text("never shown")], hold_after_block={0: lambda: False})
    setup.api.script(slow, Reply("Second answer."))
    term = setup.start()
    term.enter("tell me a long story")
    term.wait_for("esc to interrupt)")
    term.wait_for("● word word")  # some text has streamed
    term.type("\x1b")
    term.wait_for("Interrupted by user")
    term.wait_idle()
    term.enter("second prompt")
    term.wait_for("● Second answer.")
    setup.api.assert_clean()
    messages = setup.api.bodies[-1]["messages"]
    joined = json.dumps(messages)
    assert "[Request interrupted by user]" in joined and "second prompt" in joined


def test_escape_keeps_the_text_streamed_so_far_on_screen(setup: Setup) -> None:
    words = " ".join(f"w{i:03d}" for i in range(120))  # sent in three parts, a second apart
    setup.api.script(Reply([text(words)], chunk_delay=1.0), Reply("Next."))
    term = setup.start()
    term.enter("tell me a long story")
    before = term.wait_for("● w000 w001", "esc to interrupt)")
    seen = max(re.findall(r"w\d{3}", before))
    term.type("\x1b")
    screen = term.wait_for("Interrupted by user")
    assert "● w000 w001" in screen and seen in screen  # nothing that was shown is taken away
    lines = screen.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("● w000"))
    assert first < next(i for i, line in enumerate(lines) if "Interrupted by user" in line)
    screen = term.wait_idle()
    assert "● w000 w001" in screen and "w119" not in screen  # stopped, not finished
    term.enter("go on")
    term.wait_for("● Next.")
    setup.api.assert_clean()


def test_escape_on_a_permission_dialog_stops_the_turn(setup: Setup) -> None:
    target = setup.root / "calc.py"
    target.write_text("def add(a, b):\n    return a - b\n")
    edit = {"file_path": str(target), "old_string": "a - b", "new_string": "a + b"}
    setup.api.script(Reply([text("Fixing it."), tool_use("Edit", edit)]), Reply("What instead?"))
    term = setup.start("--permission-mode", "default")
    term.enter("fix calc.py")
    term.wait_for("Do you want to make this edit to calc.py?", "3. No")
    assert len(setup.api.bodies) == 1
    term.type("\x1b")
    term.wait_for("Interrupted by user")
    screen = term.wait_idle()
    assert "Do you want" not in screen and "● Update(calc.py)" in screen
    assert len(setup.api.bodies) == 1 and setup.api.turns_left == 1  # the model was not asked again
    assert "a - b" in target.read_text()
    term.enter("use a helper instead")
    term.wait_for("● What instead?")
    assert len(setup.api.bodies) == 2
    sent = json.dumps(setup.api.bodies[-1]["messages"])
    assert "[Request interrupted by user" in sent and "use a helper instead" in sent
    setup.api.assert_clean()


def test_typing_during_a_turn_queues_the_prompt(setup: Setup) -> None:
    queued = threading.Event()  # the first answer ends only once the prompt is queued
    setup.api.script(
        Reply([text("First " * 20), text("done.")], hold_after_block={0: queued.is_set}),
        Reply("Queued one answered."),
    )
    term = setup.start()
    term.enter("first")
    term.wait_for("esc to interrupt)")
    term.enter("and then this")
    term.wait_for("queued: and then this")
    queued.set()
    term.wait_for("● Queued one answered.")
    assert "and then this" in json.dumps(setup.api.bodies[-1]["messages"][-1])
    setup.api.assert_clean()


def agent_call(description: str, prompt: str) -> dict[str, Any]:
    return tool_use("Agent", {"description": description, "prompt": prompt})


def line_after(screen: str, line: str) -> str | None:
    """The screen line just below `line` (None if `line` is not on screen)."""
    lines = screen.splitlines()
    return lines[lines.index(line) + 1] if line in lines[:-1] else None


DONE = re.compile(r"^  ⎿  Done \(1 tool use · [\d,]+ tokens · \d+\.\ds\)$")


def test_a_sub_agent_shows_its_calls_under_its_agent_line_then_its_summary(setup: Setup) -> None:
    (setup.root / "a.txt").write_text("alpha\nbeta\n")
    seen = threading.Event()  # the sub-agent ends only once the test has seen it at work
    setup.api.script(
        Reply([text("Delegating."), agent_call("Count the lines", "SUBTASK-7: count the lines of a.txt")]),
        Reply("The file has 2 lines."),
    )
    sub = setup.api.route(
        "SUBTASK-7",
        Reply([tool_use("Read", {"file_path": str(setup.root / "a.txt")})]),
        Reply([text("SUBAGENT-WORDS: a.txt has 2 lines.")], hold_after_block={0: seen.is_set}),
    )
    term = setup.start()
    term.enter("how long is a.txt?")
    screen = term.wait_until(lambda s: line_after(s, "● Agent(Count the lines)") == "  ⎿  Read(a.txt)")
    assert "esc to interrupt)" in screen and "● Delegating." in screen
    seen.set()
    screen = term.wait_for("● The file has 2 lines.")
    done = line_after(screen, "● Agent(Count the lines)")
    assert done is not None and DONE.match(done), screen
    assert "Read(a.txt)" not in screen  # the sub-agent's calls leave with the live area
    term.wait_idle()
    assert b"SUBAGENT-WORDS" not in term.raw  # its text is never written to the terminal
    assert sub.turns_left == 0
    setup.api.assert_clean()


def test_a_foreground_sub_agent_asks_the_person_at_the_terminal(setup: Setup) -> None:
    target = setup.root / "note.txt"
    setup.api.script(Reply([agent_call("Write a note", "NOTE-TASK: write note.txt")]),
                     Reply("The agent wrote the note."))
    sub = setup.api.route(
        "NOTE-TASK",
        Reply([tool_use("Write", {"file_path": str(target), "content": "hello\n"})]),
        Reply("Wrote note.txt."),
    )
    term = setup.start("--permission-mode", "default")
    term.enter("have an agent write a note")
    term.wait_for("Do you want to write note.txt?", "1. Yes")
    term.type("1")
    term.wait_for("● The agent wrote the note.")
    assert target.read_text() == "hello\n"
    result = sub.requests[1].body["messages"][-1]["content"][0]
    assert not result.get("is_error"), result
    setup.api.assert_clean()


def test_sub_agents_in_parallel_each_have_their_own_block(setup: Setup) -> None:
    for name in ("a.txt", "b.txt"):
        (setup.root / name).write_text("x\n")
    seen = threading.Event()
    setup.api.script(
        Reply([agent_call("Look at a", "TASK-A: read a.txt"), agent_call("Look at b", "TASK-B: read b.txt")]),
        Reply("Both looked."),
    )
    for marker, name in (("TASK-A", "a.txt"), ("TASK-B", "b.txt")):
        setup.api.route(marker, Reply([tool_use("Read", {"file_path": str(setup.root / name)})]),
                        Reply([text(f"{name} read.")], hold_after_block={0: seen.is_set}))
    term = setup.start()
    term.enter("look at both files")
    term.wait_until(lambda s: line_after(s, "● Agent(Look at a)") == "  ⎿  Read(a.txt)"
                    and line_after(s, "● Agent(Look at b)") == "  ⎿  Read(b.txt)")
    seen.set()
    screen = term.wait_for("● Both looked.")
    for label in ("● Agent(Look at a)", "● Agent(Look at b)"):
        done = line_after(screen, label)
        assert done is not None and DONE.match(done), screen
    setup.api.assert_clean()


def test_a_background_agent_that_ends_starts_the_next_turn_by_itself(setup: Setup) -> None:
    release = threading.Event()  # the agent ends only once the leader's turn is over

    def notified(body: dict[str, Any]) -> Reply:
        last = json.dumps(body["messages"][-1])
        return Reply("The count is in." if "<task-notification>" in last else "Unexpected.")

    background = tool_use("Agent", {"description": "Count lines", "prompt": "BG-TASK: count",
                                    "run_in_background": True})
    setup.api.script(Reply([text("Starting it."), background]), Reply("It runs on its own."),
                     Dynamic(notified))
    setup.api.route("BG-TASK", Reply("Counted 2 lines.", hold_after_block={0: release.is_set}))
    term = setup.start()
    term.enter("count in the background")
    term.wait_for("● It runs on its own.")
    term.wait_idle()
    release.set()
    term.wait_for('Background agent "Count lines" completed', "● The count is in.")
    term.wait_idle()
    assert len(setup.api.bodies) == 4 and setup.api.turns_left == 0
    setup.api.assert_clean()


def test_multiline_input_paste_and_file_mentions(setup: Setup) -> None:
    (setup.root / "notes.txt").write_text("the secret is 42\n")
    setup.api.script(Reply("Got it."))
    term = setup.start()
    term.type("line one\x1b\r")  # Meta+Enter
    term.type("line two\\")  # a trailing backslash continues too
    term.enter()
    term.type("\x1b[200~pasted a\npasted b\x1b[201~")  # bracketed paste stays whole
    term.enter(" and @notes.txt")
    term.wait_for("● Got it.")
    texts = user_texts(setup.api.bodies[-1])
    assert texts[0] == "line one\nline two\npasted a\npasted b and @notes.txt"
    assert "Contents of notes.txt:\n1\tthe secret is 42" in texts[1]
    setup.api.assert_clean()


def test_ctrl_c_interrupts_a_running_tool_then_the_conversation_goes_on(setup: Setup) -> None:
    setup.api.script(Reply([text("Running it."), tool_use("Bash", {"command": "sleep 30"})]), Reply("Stopped."))
    term = setup.start("--dangerously-skip-permissions")
    term.enter("run the slow thing")
    term.wait_for("● Bash(sleep 30)", "esc to interrupt)")
    term.ctrl("c")
    term.wait_for("Interrupted by user")
    term.wait_idle()
    assert not term.exited
    term.enter("what happened?")
    term.wait_for("● Stopped.")
    setup.api.assert_clean()
    body = json.dumps(setup.api.bodies[-1]["messages"])
    assert "tool_result" in body and "[Request interrupted by user]" in body


def test_memory_opens_claude_md_in_the_editor(setup: Setup) -> None:
    editor = "sh -c 'echo \"# Project notes\" >> \"$0\"'"
    term = setup.start(EDITOR=editor, VISUAL="")
    term.enter("/memory")
    term.wait_for("Which memory file?", "Project memory")
    term.enter()
    term.wait_for("Saved")
    assert (setup.root / "CLAUDE.md").read_text() == "# Project notes\n"


def test_history_is_recalled_after_a_restart(setup: Setup) -> None:
    setup.api.script(Reply("Noted."))
    term = setup.start()
    term.enter("remember this prompt")
    term.wait_for("● Noted.")
    term.wait_idle()
    term.ctrl("d")
    assert term.wait_exit() == 0
    lines = (setup.config / "history.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["display"] == "remember this prompt"
    again = setup.start()
    again.type("\x1b[A")  # up arrow
    again.wait_until(lambda s: again.prompt_line() == "> remember this prompt")
    again.type("\x1b[B")  # back down to the new, empty input
    again.wait_until(lambda s: again.prompt_line() == ">")
    again.ctrl("r")  # reverse search
    again.type("this pro")
    again.wait_for("(reverse-i-search)`this pro': remember this prompt")
    again.type("\r")  # takes the match into the input, does not send it
    again.wait_until(lambda s: again.prompt_line() == "> remember this prompt")
    assert len(setup.api.bodies) == 1


def test_continue_shows_the_earlier_conversation(setup: Setup) -> None:
    setup.api.script(Reply("Hi there."), Reply("Still here."))
    term = setup.start()
    term.enter("hello")
    term.wait_for("● Hi there.")
    term.wait_idle()
    term.ctrl("d")
    assert term.wait_exit() == 0
    again = setup.start("-c")
    again.wait_for("> hello", "● Hi there.")
    again.enter("and now?")
    again.wait_for("● Still here.")
    assert len(setup.api.bodies[-1]["messages"]) == 3
    setup.api.assert_clean()


def test_session_hooks_run_at_start_clear_and_exit(setup: Setup) -> None:
    log = setup.root / "hooks.log"
    record = [{"hooks": [{"type": "command", "command": f"cat >> {log}; echo >> {log}"}]}]
    settings = {"hooks": {"SessionStart": record, "SessionEnd": record}}
    (setup.root / ".claude").mkdir()
    (setup.root / ".claude" / "settings.json").write_text(json.dumps(settings))
    term = setup.start()
    term.wait_until(lambda s: log.exists() and '"startup"' in log.read_text())
    term.enter("/clear")
    term.wait_for("Started a new conversation.")
    term.wait_until(lambda s: log.read_text().count('"clear"') == 2)  # SessionEnd, then SessionStart
    term.ctrl("d")
    assert term.wait_exit() == 0
    events = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert [e["hook_event_name"] for e in events] == ["SessionStart", "SessionEnd", "SessionStart", "SessionEnd"]
    assert events[-1]["reason"] == "prompt_input_exit"


def test_ctrl_c_twice_exits(setup: Setup) -> None:
    term = setup.start()
    term.ctrl("c")
    term.wait_for("Press Ctrl-C again to exit")
    term.ctrl("c")
    assert term.wait_exit() == 0


def test_shift_tab_cycles_permission_modes(setup: Setup) -> None:
    term = setup.start()
    term.type("\x1b[Z")
    term.wait_for("accept edits on")
    term.type("\x1b[Z")
    term.wait_for("plan mode on")
    term.type("\x1b[Z")
    term.wait_until(lambda s: "plan mode on" not in s and "accept edits on" not in s)
    term.enter("/status")
    term.wait_for("Permission mode:  default")


def test_no_api_key_shows_how_to_set_one(setup: Setup) -> None:
    term = setup.start(ANTHROPIC_API_KEY="")
    screen = term.wait_for("No API key found")
    assert "ANTHROPIC_API_KEY" in screen and "apiKeyHelper" in screen
    term.enter("hello")
    term.wait_for("Not logged in")
    assert "Traceback" not in term.raw.decode(errors="replace")


def test_no_color_is_honoured(setup: Setup) -> None:
    (setup.root / "a.txt").write_text("x\n")
    setup.api.script(Reply([tool_use("Read", {"file_path": str(setup.root / "a.txt")})]), Reply("**Bold** answer."))
    term = setup.start(NO_COLOR="1")
    term.enter("go")
    term.wait_for("● Bold answer.", "● Read(a.txt)")
    colours = re.compile(rb"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")
    assert colours.findall(term.raw) == []


def test_permission_dialog_approve_and_deny(setup: Setup) -> None:
    target = setup.root / "calc.py"
    target.write_text("def add(a, b):\n    return a - b\n")
    edit = {"file_path": str(target), "old_string": "a - b", "new_string": "a + b"}
    setup.api.script(
        Reply([tool_use("Read", {"file_path": str(target)})]),
        Reply([tool_use("Edit", edit)]),
        Reply("Fixed.", chunk_delay=0.3),
        Reply([tool_use("Edit", {**edit, "old_string": "a + b", "new_string": "a * b"})]),
        Reply("Understood."),
    )
    term = setup.start("--permission-mode", "default")
    term.enter("fix calc.py")
    screen = term.wait_for("Do you want to make this edit to calc.py?", "1. Yes")
    assert "2 -     return a - b" in screen and "2 +     return a + b" in screen
    assert "esc to interrupt)" not in screen  # the spinner waits while the dialog does
    term.type("1")
    term.wait_until(lambda s: "esc to interrupt)" in s and "Do you want" not in s)  # and goes on after
    term.wait_for("● Fixed.")
    assert "a + b" in target.read_text()
    term.enter("now multiply")
    term.wait_for("Do you want to make this edit to calc.py?")
    term.type("3")
    term.wait_for("Tell Claude what to do differently")
    term.enter("use a helper instead")
    term.wait_for("● Understood.")
    assert "a + b" in target.read_text()
    assert "use a helper instead" in json.dumps(setup.api.bodies[-1]["messages"][-1])
    setup.api.assert_clean()


def test_resume_flag_without_id_opens_the_picker(setup: Setup) -> None:
    setup.api.script(Reply("First answer."), Reply("Back again."))
    term = setup.start()
    term.enter("remember the word walrus")
    term.wait_for("● First answer.")
    term.wait_idle()
    term.ctrl("d")
    assert term.wait_exit() == 0
    again = Terminal(cc_argv("-r"), setup.root, cc_env(setup.api.base_url, setup.config, setup.home))
    setup.terminals.append(again)
    again.wait_for("remember the word walrus")
    again.enter()  # the first (newest) session
    again.wait_for("● First answer.")
    again.enter("what was the word?")
    again.wait_for("● Back again.")
    assert "walrus" in json.dumps(setup.api.bodies[-1]["messages"])
    setup.api.assert_clean()


def test_first_visit_asks_for_trust_before_project_hooks(tmp_path: Path, fake_api: FakeAPI) -> None:
    root, config, home = tmp_path / "project", tmp_path / "config", tmp_path / "home"
    for d in (root, config, home):
        d.mkdir()
    marker = root / "hook-ran"
    hook = [{"hooks": [{"type": "command", "command": f"touch {marker}"}]}]
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": hook}}))
    env = cc_env(fake_api.base_url, config, home)
    no = Terminal(cc_argv(), root, env)
    try:
        no.wait_for("Do you trust the files in this folder?")
        no.enter("2")
        assert no.wait_exit() == 1
    finally:
        no.close()
    assert not marker.exists()
    yes = Terminal(cc_argv(), root, env)
    try:
        yes.wait_for("Do you trust the files in this folder?")
        yes.enter("1")
        yes.wait_until(lambda s: yes.prompt_line() == ">")
        yes.wait_until(lambda s: marker.exists())
        yes.ctrl("d")
        assert yes.wait_exit() == 0
    finally:
        yes.close()
    marker.unlink()
    again = Terminal(cc_argv(), root, env)
    try:
        again.wait_until(lambda s: again.prompt_line() == ">")
        assert "Do you trust" not in again.text()
        again.ctrl("d")
        assert again.wait_exit() == 0
    finally:
        again.close()
