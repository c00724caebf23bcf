"""Notification hooks in the REPL: a permission dialog tells them (`permission_prompt`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fakeapi import FakeAPI, Reply, tool_use
from tests.ui.terminal import Terminal, cc_argv, cc_env, trust


def test_a_permission_dialog_fires_notification_hooks(tmp_path: Path, fake_api: FakeAPI) -> None:
    root, config, home = (tmp_path / n for n in ("project", "config", "home"))
    for d in (root, config, home):
        d.mkdir()
    trust(config, root)
    dump = tmp_path / "notified.json"
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"Notification": [
        {"matcher": "permission_prompt",
         "hooks": [{"type": "command", "command": f"cat > {dump}.part && mv {dump}.part {dump}"}]}
    ]}}))
    target = root / "a.txt"
    fake_api.script(Reply([tool_use("Write", {"file_path": str(target), "content": "A"})]),
                    Reply("Written."))
    term = Terminal(cc_argv("--permission-mode", "default"), root,
                    cc_env(fake_api.base_url, config, home))
    try:
        term.wait_until(lambda s: "cwd:" in s and term.prompt_line() == ">")
        term.enter("write a.txt")
        term.wait_for("1. Yes")
        term.wait_until(lambda _screen: dump.exists())  # while the dialog is still open
        got = json.loads(dump.read_text())
        assert (got["hook_event_name"], got["notification_type"]) == (
            "Notification", "permission_prompt")
        assert got["message"] == "Claude needs your permission to use Write"
        term.type("1")
        term.wait_for("● Written.")
        assert target.read_text() == "A"
    finally:
        term.close()
