"""An interactive session leaves its MCP servers (and the SDK) alone until the REPL has
drawn its prompt and starts them; print mode starts them as it opens."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SERVER = str(Path(__file__).resolve().parent.parent / "servers" / "mcp_server.py")

CODE = """
import asyncio, dataclasses, sys
from pathlib import Path
from cc.config.settings import load_settings
from tests.sessions import make_session

async def main(cwd, interactive):
    import os
    from cc.config.trust import set_trusted

    os.environ["CLAUDE_CONFIG_DIR"] = str(cwd / "config")
    set_trusted(cwd / "config", cwd)  # approvals in the folder's settings count once trusted
    session = make_session(cwd, cwd / "config", settings=load_settings(cwd, cwd / "config"))
    session.facts = dataclasses.replace(session.facts, options=dataclasses.replace(
        session.options, interactive=interactive))
    await session.open()
    before = "mcp" in sys.modules, [s["status"] for s in session.mcp.statuses()]
    session.start_mcp()
    await session.mcp.settled(30)
    print(before[0], before[1], session.mcp.statuses()[0]["status"])
    await session.close()

asyncio.run(main(Path(sys.argv[1]), sys.argv[2] == "1"))
"""


def test_the_repl_starts_its_servers_once_asked(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"demo": {
        "command": sys.executable, "args": [SERVER]}}}))
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.local.json").write_text(
        json.dumps({"enabledMcpjsonServers": ["demo"]}))
    repo = str(Path(__file__).resolve().parents[2])

    def run(interactive: str) -> str:
        out = subprocess.run([sys.executable, "-c", CODE, str(tmp_path), interactive],
                             cwd=repo, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert run("1") == "False ['pending'] connected"
    assert run("0").endswith("connected")
