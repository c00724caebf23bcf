"""The permission checker the executor consults before every tool call.

    verdict = deny rules → plan → ask rules → safety → hook → mode → allow rules (verdict.py)
              (a Bash command the sandbox confines may be approved: cc/sandbox/policy.py)
    "ask"   → dontAsk mode: denied at once
            → PermissionRequest hooks (`request_hooks`) may allow or deny it
            → nobody to ask (print mode, sub-agents): denied at once
            → otherwise the user answers: once, always (rules saved), or no (+ feedback)

Decision messages are what the model reads, so they say what was refused and why.
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Callable
from typing import Any, Protocol

from cc.config.settings import add_permission_rules
from cc.permissions.ask import NO_ONE, HookRuling, PermissionHooks, PermissionRequest, UserChannel
from cc.permissions.context import PermissionContext
from cc.permissions.gate import Decision, HookDecision
from cc.permissions.rules import BASH_TOOLS, param_matches
from cc.permissions.tool_rules import Described, assess_tool, describe, tool_path
from cc.permissions.verdict import MODES, Assessment, Verdict, decide, normalize_mode
from cc.tools.base import Tool, ToolInput
from cc.tools.plan_file import is_plan_file


class SandboxPolicy(Protocol):
    """What the checker asks of the Bash sandbox (`cc.sandbox.Sandbox`): may a command
    it confines run without asking?"""

    def assess(self, a: Assessment, command: str, disable: bool = False) -> None: ...


class PermissionChecker:
    def __init__(self, context: PermissionContext, channel: UserChannel = NO_ONE,
                 sandbox: SandboxPolicy | None = None) -> None:
        self.context = context
        #: Who answers when a call needs approval (NO_ONE: it is denied at once).
        self.channel = channel
        #: The Bash sandbox: sandboxed commands may be allowed without asking.
        self.sandbox = sandbox
        #: PermissionRequest hooks: asked before anyone else, when a call needs approval.
        self.request_hooks: PermissionHooks | None = None
        self._asking = asyncio.Lock()
        self._mode_listeners: list[Callable[[str], None]] = []

    @property
    def mode(self) -> str:
        """The permission mode. The checker is its one owner: the engine, the hooks, the
        REPL footer and the records read it here, and hear of changes (`on_mode_change`)."""
        return self.context.mode

    @mode.setter
    def mode(self, value: str) -> None:
        value = normalize_mode(value)
        if value not in MODES:
            raise ValueError(f"unknown permission mode: {value!r}")
        if value == "bypassPermissions" and self.context.bypass_disabled:
            raise ValueError("bypassPermissions mode is disabled by settings")
        if value == self.context.mode:
            return
        self.context.mode = value
        for listener in list(self._mode_listeners):
            listener(value)

    def on_mode_change(self, listener: Callable[[str], None]) -> None:
        """Call `listener(mode)` whenever the mode changes."""
        self._mode_listeners.append(listener)

    # --- the gate ------------------------------------------------------------------------

    async def check(self, tool: Tool, inp: ToolInput, tool_use_id: str, *,
                    hook_decision: HookDecision | None = None) -> Decision:
        data = inp.model_dump(exclude_none=True)
        verdict, said = await asyncio.to_thread(self.evaluate, tool, inp, hook_decision)
        if verdict.behavior != "ask":
            return self._decision(verdict, said)
        if self.mode == "dontAsk":
            return Decision("deny", f"Permission to {said.action} was denied: it needs "
                            f"approval ({verdict.reason}), and the permission mode is "
                            "dontAsk, which denies anything that would ask.")
        if self.request_hooks is not None:
            ruling = await self.request_hooks(PermissionRequest(
                tool.name, data, tool_use_id, said.description, list(verdict.suggestions),
                verdict.reason))
            if ruling is not None:
                return await self._ruled(ruling, said.action)
        if not self.channel.present:
            return Decision("deny", f"Permission to {said.action} was denied: it needs "
                            f"approval ({verdict.reason}), and no one can approve it in this "
                            "non-interactive session. The call did not run; continue "
                            "without it, or tell the user which permission rule would "
                            "allow it.")
        async with self._asking:
            # An earlier answer ("always", a mode change) may have settled it meanwhile.
            verdict, said = await asyncio.to_thread(self.evaluate, tool, inp, hook_decision)
            if verdict.behavior != "ask":
                return self._decision(verdict, said)
            request = PermissionRequest(tool.name, data, tool_use_id, said.description,
                                        list(verdict.suggestions), verdict.reason)
            answer = await self.channel.ask_permission(request)
            if answer.behavior == "allow":
                if answer.always and verdict.suggestions:
                    warnings = await asyncio.to_thread(
                        self.add_rules, "allow", list(verdict.suggestions), persist=True)
                    self.context.warnings.extend(warnings)
                return Decision("allow", updated_input=answer.updated_input)
        message = f"The user denied permission to {said.action}. The call did not run."
        if answer.feedback:
            message += f" The user said: {answer.feedback}"
        return Decision("deny", message)

    async def _ruled(self, ruling: HookRuling, action: str) -> Decision:
        """A PermissionRequest hook's answer as the decision (its rules and mode applied)."""
        if ruling.behavior == "deny":
            return Decision("deny", ruling.message or f"Permission to {action} was denied "
                            "by a PermissionRequest hook. The call did not run.")
        for behavior, rule, persist in ruling.rules:
            warnings = await asyncio.to_thread(self.add_rules, behavior, [rule], persist=persist)
            self.context.warnings.extend(warnings)
        if ruling.mode is not None:
            try:
                self.mode = ruling.mode
            except ValueError as exc:
                self.context.warnings.append(f"A PermissionRequest hook's setMode: {exc}")
        return Decision("allow", updated_input=ruling.updated_input)

    def evaluate(self, tool: Tool, inp: ToolInput,
                 hook_decision: HookDecision | None = None) -> tuple[Verdict, Described]:
        """The verdict without asking anyone (blocking: it may read the file system)."""
        ctx, mode = self.context, self.mode
        data = inp.model_dump(exclude_none=True)
        scope = ctx.scope()
        said = describe(tool.name, data, tool_path(tool.name, data, scope.cwd, scope.home))
        if tool.name in BASH_TOOLS:
            # The shell analysis (its grammar, command catalogues) loads with the first command.
            from cc.permissions.bash_rules import assess_bash

            shell_cwd = ctx.shell_cwd() if ctx.shell_cwd else None
            a = assess_bash(str(data.get("command", "")), ctx.rules, mode, scope,
                            shell_cwd=shell_cwd)
            _param_rules(a, tool.name, data, ctx)
            if tool.name == "Bash" and self.sandbox is not None:
                self.sandbox.assess(a, str(data.get("command", "")),
                                    bool(data.get("dangerouslyDisableSandbox")))
        else:
            a = assess_tool(tool.name, data, read_only=tool.is_read_only(inp), rules=ctx.rules,
                            mode=mode, scope=scope)
        if tool.name in ("Write", "Edit") and is_plan_file(
                tool_path(tool.name, data, scope.cwd, scope.home), ctx.plan_file):
            # The one file plan mode lets change: the plan itself.
            a.writes, a.safety = False, None
            a.approved = Verdict("allow", "it is the plan file", "mode")
        if tool.name == "AskUserQuestion" and mode == "dontAsk":
            a.deny_once("dontAsk mode does not ask the user questions")
        return decide(a, mode, hook_decision), said

    def _decision(self, verdict: Verdict, said: Described) -> Decision:
        if verdict.behavior == "allow":
            return Decision("allow")
        if verdict.kind == "plan":
            return Decision("deny", f"Permission to {said.action} was denied: plan mode is "
                            "on, so nothing that changes files or runs commands that may "
                            "runs. Finish the plan and ask the user to approve it "
                            "(ExitPlanMode) first.")
        return Decision("deny", f"Permission to {said.action} was denied: {verdict.reason}.")

    # --- for the registry, /permissions and "always" ----------------------------------------

    def hidden_tools(self) -> set[str]:
        return hidden_tools(self.context)

    def hides(self, tool_name: str) -> bool:
        return hides(self.context, tool_name)

    def rules_summary(self) -> dict[str, list[str]]:
        rules = self.context.rules
        return {b: list(dict.fromkeys(r.text for r in rules.of(b)))
                for b in ("allow", "deny", "ask")}

    def add_rules(self, behavior: str, rules: list[str], *, persist: bool) -> list[str]:
        """Add rules now (anchored at the working folder); with `persist`, also append them
        to `.claude/settings.local.json`. Returns warnings."""
        if behavior not in ("allow", "deny", "ask"):
            raise ValueError(f"unknown rule behavior: {behavior!r}")
        ctx = self.context
        before = {r.text for r in ctx.rules.of(behavior)}
        warnings = ctx.add_rule_texts(behavior, rules, source="local" if persist else "session")
        added = [r.text for r in ctx.rules.of(behavior) if r.text not in before]
        if persist and added and ctx.local_settings is not None:
            warning = add_permission_rules(ctx.local_settings, behavior, added)
            if warning:
                warnings.append(warning)
        return warnings


def hidden_tools(context: PermissionContext) -> set[str]:
    """Tool names (or fnmatch patterns such as `mcp__*`) that bare deny rules remove
    from the model's view."""
    out: set[str] = set()
    for rule in context.rules.deny:
        if rule.specifier is None and rule.param is None:
            server = rule.tool.startswith("mcp__") and "__" not in rule.tool[5:]
            out.add(rule.tool + "__*" if server and "*" not in rule.tool else rule.tool)
    return out


def hides(context: PermissionContext, tool_name: str) -> bool:
    return any(fnmatch.fnmatchcase(tool_name, p) for p in hidden_tools(context))


def _param_rules(a: Assessment, tool_name: str, data: dict[str, Any],
                 ctx: PermissionContext) -> None:
    """`Bash(run_in_background:true)`-style rules (bare and pattern rules are bash_rules')."""
    for behavior, record in (("deny", a.deny_once), ("ask", a.ask_once)):
        for rule in ctx.rules.of(behavior):
            if param_matches(rule, tool_name, data):
                record(f"it matches the {behavior} rule {rule}")
