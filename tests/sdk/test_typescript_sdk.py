"""cc driven by the TypeScript Agent SDK (`@anthropic-ai/claude-agent-sdk`, on which
editors' adapters are built), with `pathToClaudeCodeExecutable` pointing at cc.

Opt-in where npm is missing: `.ci/run` installs the package and sets CC_TS_SDK_DIR to the
folder holding its node_modules; without it the test skips and says why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.fakeapi import FakeAPI, Reply, text, tool_use

SDK_DIR = os.environ.get("CC_TS_SDK_DIR")
pytestmark = pytest.mark.skipif(
    not SDK_DIR or not shutil.which("node"),
    reason="opt-in: needs node and the TypeScript Agent SDK (npm i "
    "@anthropic-ai/claude-agent-sdk); set CC_TS_SDK_DIR to the folder of its node_modules",
)

SCRIPT = """
import { query } from "%(sdk)s";
const seen = [];
const answers = [];
for await (const m of query({ prompt: "make a file", options: {
    pathToClaudeCodeExecutable: process.argv[2], cwd: process.argv[3], env: { ...process.env },
    canUseTool: async (name, input) => {
      answers.push(name + ":" + input.command);
      return input.command.includes("ok.txt")
        ? { behavior: "allow", updatedInput: input }
        : { behavior: "deny", message: "not this one" };
    } } })) {
  seen.push(m.type + (m.subtype ? "/" + m.subtype : ""));
  if (m.type === "result") console.log(JSON.stringify({ result: m.result, answers, seen }));
}
"""


def test_the_typescript_sdk_drives_cc(tmp_path: Path, fake_api: FakeAPI) -> None:
    assert SDK_DIR is not None
    sdk = Path(SDK_DIR) / "node_modules" / "@anthropic-ai" / "claude-agent-sdk" / "sdk.mjs"
    script = tmp_path / "run.mjs"
    script.write_text(SCRIPT % {"sdk": sdk})
    cli = tmp_path / "cc-cli"
    cli.write_text(f"#!/bin/sh\nexec {sys.executable} -m cc \"$@\"\n")
    cli.chmod(0o755)
    project = tmp_path / "project"
    project.mkdir()
    fake_api.script(
        Reply([tool_use("Bash", {"command": "touch ok.txt"}, id="t1"),
               tool_use("Bash", {"command": "touch no.txt"}, id="t2")]),
        Reply([text("one made")]),
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(ANTHROPIC_BASE_URL=fake_api.base_url, ANTHROPIC_API_KEY="test-key",
               CLAUDE_CONFIG_DIR=str(tmp_path / "config"), HOME=str(tmp_path),
               PYTHONPATH=str(REPO_ROOT), CC_DISABLE_MEMORY_EXTRACTION="1")
    run = subprocess.run(["node", str(script), str(cli), str(project)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout.strip().splitlines()[-1])
    assert outcome["result"] == "one made"
    assert sorted(outcome["answers"]) == ["Bash:touch no.txt", "Bash:touch ok.txt"]
    assert outcome["seen"][0] == "system/init" and outcome["seen"][-1] == "result/success"
    assert (project / "ok.txt").exists() and not (project / "no.txt").exists()
    fake_api.assert_clean()
