"""Settings the REPL shows, on a real pty. `statusLine`: a real script gets the status JSON on
stdin, its first line shows under the prompt, it runs again after each turn, and a
failing command shows nothing and leaves the REPL working. `respectGitignore`:
@-completion leaves out what .gitignore ignores, unless it is false."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakeapi import FakeAPI, Reply
from tests.ui.test_repl_pty import Setup

SCRIPT = r'''
import json, pathlib, sys
data = json.load(sys.stdin)
runs = pathlib.Path(sys.argv[1])
n = len(list(runs.glob("run-*.json")))
(runs / f"run-{n}.json").write_text(json.dumps(data))
if sys.argv[2] == "fail-after-first" and n >= 1:
    print("BAD-LINE")
    sys.exit(1)
tokens = data["context_window"]["total_input_tokens"]
print(f"\x1b[32mSTATUS {data['model']['id']} in={tokens} run={n}\x1b[0m")
print("SECOND-LINE")
'''


@pytest.fixture
def setup(tmp_path: Path, fake_api: FakeAPI) -> Iterator[Setup]:
    s = Setup(tmp_path, fake_api)
    yield s
    for term in s.terminals:
        term.close()


def _configure(setup: Setup, mode: str) -> Path:
    runs = setup.root.parent / "runs"
    runs.mkdir()
    script = setup.root.parent / "statusline.py"
    script.write_text(SCRIPT)
    settings = {"statusLine": {"type": "command", "padding": 1,
                               "command": f"{sys.executable} {script} {runs} {mode}"}}
    (setup.root / ".claude").mkdir()
    (setup.root / ".claude" / "settings.json").write_text(json.dumps(settings))
    return runs


def test_the_status_line_shows_under_the_prompt_and_follows_turns(setup: Setup) -> None:
    runs = _configure(setup, "ok")
    setup.api.script(Reply("Hello!", usage={"input_tokens": 1234, "output_tokens": 5}))
    term = setup.start()
    screen = term.wait_for("STATUS claude-", "in=0 run=0")
    lines = screen.splitlines()
    prompt_at = max(i for i, ln in enumerate(lines) if ln.startswith(">"))
    status_at = next(i for i, ln in enumerate(lines) if "STATUS claude-" in ln)
    assert status_at > prompt_at  # under the prompt
    assert lines[status_at].startswith("   STATUS")  # two columns, then padding 1
    assert "SECOND-LINE" not in screen  # only the first line shows
    status = json.loads((runs / "run-0.json").read_text())
    assert status["hook_event_name"] == "Status"
    assert status["cwd"] == str(setup.root) == status["workspace"]["current_dir"]
    assert status["workspace"]["project_dir"] == str(setup.root)
    assert status["model"]["id"].startswith("claude-") and status["model"]["display_name"]
    assert status["output_style"] == {"name": "default"}
    assert set(status["cost"]) == {"total_cost_usd", "total_duration_ms",
                                   "total_api_duration_ms", "total_lines_added",
                                   "total_lines_removed"}
    window = status["context_window"]
    assert window["context_window_size"] > 0 and window["used_percentage"] == 0
    assert status["exceeds_200k_tokens"] is False
    assert len(status["session_id"]) == 36 and status["version"]

    term.enter("hi")
    term.wait_for("● Hello!", "in=1234 run=1")  # refreshed after the turn
    later = json.loads((runs / "run-1.json").read_text())
    assert later["session_id"] == status["session_id"]
    assert later["transcript_path"].endswith(f"{status['session_id']}.jsonl")
    assert later["cost"]["total_api_duration_ms"] >= 0
    setup.api.assert_clean()
    term.ctrl("d")
    assert term.wait_exit() == 0


def test_a_failing_command_shows_nothing_and_the_repl_goes_on(setup: Setup) -> None:
    runs = _configure(setup, "fail-after-first")
    setup.api.script(Reply("First."), Reply("Second."))
    term = setup.start()
    term.wait_for("STATUS claude-", "run=0")
    term.enter("one")
    # The run after the turn fails: the line goes, and what it printed never shows.
    screen = term.wait_until(lambda s: "● First." in s and "STATUS" not in s)
    assert "BAD-LINE" not in screen
    assert (runs / "run-1.json").exists()
    term.enter("two")
    screen = term.wait_for("● Second.")
    assert "BAD-LINE" not in screen and "STATUS" not in screen
    setup.api.assert_clean()
    term.ctrl("d")
    assert term.wait_exit() == 0


def test_a_malformed_status_line_setting_is_reported_once(setup: Setup) -> None:
    (setup.root / ".claude").mkdir()
    (setup.root / ".claude" / "settings.json").write_text(
        json.dumps({"statusLine": {"type": "command"}}))
    setup.api.script(Reply("Fine."))
    term = setup.start()
    term.wait_for("statusLine.command must be a shell command")
    term.enter("hi")
    term.wait_for("● Fine.")
    term.ctrl("d")
    assert term.wait_exit() == 0


@pytest.mark.parametrize("respect", [True, False])
def test_at_completion_follows_respect_gitignore(setup: Setup, respect: bool) -> None:
    (setup.root / ".gitignore").write_text("zz_ignored.txt\n")
    (setup.root / "zz_ignored.txt").write_text("x")
    (setup.root / "zz_kept.txt").write_text("x")
    (setup.root / ".claude").mkdir()
    (setup.root / ".claude" / "settings.json").write_text(
        json.dumps({"respectGitignore": respect}))
    term = setup.start()
    term.type("look at @zz_")
    screen = term.wait_for("zz_kept.txt")
    if respect:
        assert "zz_ignored.txt" not in screen
    else:
        assert "zz_ignored.txt" in screen


def test_output_style_applies_from_the_next_conversation(setup: Setup) -> None:
    setup.api.script(Reply("First."), Reply("Second."))
    term = setup.start()
    term.enter("/output-style Learning")
    term.wait_for("Set the output style to Learning")
    local = json.loads((setup.root / ".claude" / "settings.local.json").read_text())
    assert local == {"outputStyle": "Learning"}
    term.enter("one")
    term.wait_for("● First.")
    term.wait_idle()
    before = "\n".join(b["text"] for b in setup.api.bodies[-1]["system"])
    assert "# Output style" not in before  # the conversation under way keeps its prompt
    term.enter("/clear")
    term.wait_for("Started a new conversation.")
    term.enter("two")
    term.wait_for("● Second.")
    after = "\n".join(b["text"] for b in setup.api.bodies[-1]["system"])
    assert "# Output style: Learning" in after
    setup.api.assert_clean()
