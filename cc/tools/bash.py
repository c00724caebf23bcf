"""Bash: run a shell command in the conversation's shell session, or start it in the background.

Output over the cap (`BASH_MAX_OUTPUT_LENGTH`) reaches the model as its head and tail,
plus the path of a file holding all of it: `<call id>.txt` in the session's
`tool-results/` folder (`ToolContext.results_dir`), else in the shell session's temp folder.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ConfigDict, Field

from cc.tools.base import (
    Tool,
    ToolContext,
    ToolInput,
    ToolResult,
    optional_without_null,
)
from cc.tools.shell.runner import DEFAULT_MAX_OUTPUT, RunResult, run_foreground

if TYPE_CHECKING:
    from cc.tools.shell.confinement import Confined, Confinement

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000

#: Exit codes that report a result rather than a failure, by command name.
_BENIGN_EXITS: dict[str, dict[int, str]] = {
    "grep": {1: "No matches found"},
    "egrep": {1: "No matches found"},
    "fgrep": {1: "No matches found"},
    "rg": {1: "No matches found"},
    "diff": {1: "Files differ"},
    "cmp": {1: "Files differ"},
    "test": {1: "Condition is false"},
    "[": {1: "Condition is false"},
    "[[": {1: "Condition is false"},
}


class BashInput(ToolInput):
    model_config = ConfigDict(json_schema_extra=optional_without_null)

    command: str
    timeout: float | None = Field(
        default=None, description=f"Milliseconds (default 120000, at most {MAX_TIMEOUT_MS})."
    )
    description: str | None = Field(
        default=None, description="What it does, in 5-10 words."
    )
    run_in_background: bool | None = Field(
        default=None,
        description="Run in the background (see above).",
    )
    dangerouslyDisableSandbox: bool | None = Field(  # noqa: N815 - Claude Code's spelling
        default=None,
        description="Run outside the sandbox, if the settings allow; the user must approve.",
    )


def env_int(name: str, default: int) -> int:
    """A positive integer from the environment, else `default`."""
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def timeout_ms(requested: float | None) -> int:
    default = env_int("BASH_DEFAULT_TIMEOUT_MS", DEFAULT_TIMEOUT_MS)
    maximum = max(env_int("BASH_MAX_TIMEOUT_MS", MAX_TIMEOUT_MS), default)
    if requested is None or requested <= 0:
        return default
    return min(int(requested), maximum)


def max_output() -> int:
    return env_int("BASH_MAX_OUTPUT_LENGTH", DEFAULT_MAX_OUTPUT)


def interpret_exit(command: str, code: int) -> str | None:
    """What a non-zero exit means when it is not a failure (`grep` finding nothing)."""
    if re.search(r"&&|\|\||[;&\n`]|\$\(", re.sub(r"[<>]&|&>", "", command)):
        return None  # a list: whose status it is can't be told from the text
    last = command.split("|")[-1].split()
    name = os.path.basename(last[0]) if last else ""
    return _BENIGN_EXITS.get(name, {}).get(code)


class BashTool(Tool):
    name = "Bash"
    input_model: ClassVar[type[ToolInput]] = BashInput

    async def call(self, inp: ToolInput, ctx: ToolContext) -> ToolResult:
        assert isinstance(inp, BashInput)
        if not inp.command.strip():
            return ToolResult.error("The command is empty.")
        sandbox = None
        note = None
        if ctx.sandbox is not None:
            place = await asyncio.to_thread(
                ctx.sandbox.placement, inp.command, bool(inp.dangerouslyDisableSandbox))
            if place.refused:
                return ToolResult.error(place.refused)
            sandbox = ctx.sandbox if place.sandboxed else None
            note = place.note
        if inp.run_in_background:
            return await self._background(inp, ctx, sandbox, note)
        limit = timeout_ms(inp.timeout)
        confined: list[Confined] = []
        result = await run_foreground(
            ctx.shell_session(),
            inp.command,
            timeout=limit / 1000,
            max_output=max_output(),
            progress=ctx.progress,
            abort=ctx.abort,
            spill=_spill_path(ctx),
            sandbox=sandbox,
            on_confined=confined.append,
        )
        out = _to_tool_result(inp.command, result, limit)
        extra = [note] if note else []
        if confined and out.is_error and not result.interrupted:
            hint = confined[0].hint(result.output, result.exit_code)
            extra += [hint] if hint else []
        if extra and isinstance(out.content, str):
            out.content = "\n".join([out.content, *extra])
        return out

    async def _background(
        self, inp: BashInput, ctx: ToolContext, sandbox: Confinement | None, note: str | None
    ) -> ToolResult:
        shell = ctx.shell_session()
        task = await ctx.background_tasks().start(shell, inp.command, inp.description, sandbox=sandbox)
        content = (
            f"Command running in background with ID: {task.id}. "
            f"Output is being written to: {task.output_path}"
        )
        if note:
            content += f"\n{note}"
        data = {
            "stdout": "",
            "stderr": "",
            "interrupted": False,
            "isImage": False,
            "backgroundTaskId": task.id,
        }
        return ToolResult(content, data=data, summary=f"background {task.id}")


def _spill_path(ctx: ToolContext) -> Callable[[], Path]:
    """Names the file for this call's full output (called only if the output is too long)."""

    def path() -> Path:
        folder = ctx.results_dir() if ctx.results_dir is not None else None
        if folder is None:
            folder = ctx.shell_session().state_dir / "tool-results"
        name = re.sub(r"[^A-Za-z0-9_-]", "_", ctx.tool_use_id or "")
        if not name or (folder / f"{name}.txt").exists():
            name = f"{name or 'bash'}-{secrets.token_hex(4)}"
        return folder / f"{name}.txt"

    return path


def _saved_output_note(result: RunResult) -> str | None:
    """The line that sends the model to the saved full output, if there is one."""
    if result.full_output_path is None:
        return None
    return (
        f"[The output was {result.full_length:,} characters, too long to show whole; the "
        f"part above is its beginning and end. The full output is saved at "
        f"{result.full_output_path} - use the Read tool with offset and limit to see the rest.]"
    )


def _to_tool_result(command: str, result: RunResult, limit_ms: int) -> ToolResult:
    data: dict[str, Any] = {
        "stdout": result.output,
        "stderr": result.notice or "",
        "interrupted": result.interrupted,
        "isImage": False,
        "noOutputExpected": False,
    }
    if result.full_output_path is not None:
        data["persistedOutputPath"] = str(result.full_output_path)
    parts: list[str] = []
    if result.interrupted:
        reason = (
            f"Command timed out after {limit_ms} ms" if result.timed_out else "Command was aborted"
        )
        parts += [result.output, f"{reason}; its process group was killed."]
        is_error, summary = True, "timed out" if result.timed_out else "interrupted"
    elif result.exit_code == 0:
        parts.append(result.output or "(No output)")
        is_error, summary = False, f"exit 0 · {_lines(result.line_count)}"
    else:
        code = result.exit_code if result.exit_code is not None else -1
        meaning = interpret_exit(command, code)
        if meaning is not None:
            data["returnCodeInterpretation"] = meaning
            parts.append(result.output or meaning)
            is_error, summary = False, f"exit {code} · {meaning}"
        else:
            parts += [f"Exit code {code}", result.output]
            is_error, summary = True, f"exit {code}"
    note = _saved_output_note(result)
    if note:
        parts.append(note)
    if result.notice:
        parts.append(result.notice)
    content = "\n".join(p for p in parts if p)
    return ToolResult(content, is_error=is_error, data=data, summary=summary)


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"
