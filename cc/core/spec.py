"""What an agent is, whole, before anything is wired: the factory (`cc.app.factory`)
turns an `AgentSpec` into a finished engine, and nobody assigns into it afterwards.

    model, system, tools, limits          what its requests are made of
    permission_mode, rules, gate          who approves its calls (a gate of its own
                                          replaces the rules' checker: the memory keeper)
    channel                               who answers what would ask (None: nobody)
    identity                              who it is (None: the session's main agent);
                                          its hooks' inputs and requests say so
    hooks, compaction                     the user's hooks or none; context kept or not
    json_schema                           its answer a StructuredOutput call (the tool
                                          joins its own tools, not the session's pool)
    seed, news                            its first messages; texts for its next request
    transcript                            where its conversation is saved
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.core.controls import RequestControls

if TYPE_CHECKING:
    from cc.core.events import AgentInfo
    from cc.core.news import NewsSource
    from cc.models.messages import Message
    from cc.permissions.ask import UserChannel
    from cc.permissions.gate import PermissionGate
    from cc.prompts.builder import PromptSection



@dataclass(frozen=True)
class AgentSpec:
    model: str
    system: Sequence[PromptSection]
    permission_mode: str = "default"
    #: Tools offered, by name (None: all of the session's); a bare deny rule still
    #: hides one.
    tools: tuple[str, ...] | None = None
    max_turns: int | None = None
    thinking_budget: int | None = None
    max_output_tokens: int | None = None
    #: `--max-budget-usd` (the session's main agent only; print mode).
    max_budget_usd: float | None = None
    #: `--fallback-model`: where a turn goes when its model is busy or missing.
    fallback_models: tuple[str, ...] = ()
    #: Thinking mode, effort, task budget, betas (`cc.core.controls`).
    controls: RequestControls = RequestControls()
    session_id: str | None = None
    #: Rules beyond the settings' (`--allowedTools`, `--disallowedTools`, `--add-dir`).
    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    add_dirs: tuple[str, ...] = ()
    #: A sub-agent: who it is (its id, type, the Agent call that started it).
    identity: AgentInfo | None = None
    #: It holds its parent's context (a fork), and may not fork again.
    is_fork: bool = False
    #: Who answers the agent's questions (None: nobody, so what would ask is denied).
    channel: UserChannel | None = None
    #: A permission gate of its own instead of the checker over the rules.
    gate: PermissionGate | None = None
    #: The user's hooks run for it (a sub-agent's hook inputs carry its identity);
    #: False: none do (internal work).
    hooks: bool = True
    #: Its context is kept within the window (compaction); False: never compacted.
    compaction: bool = True
    #: Its conversation as it starts (a fork's: the parent's, then the directive).
    seed: tuple[Message, ...] = ()
    #: What else feeds its next request (a teammate's mailbox).
    news: tuple[NewsSource, ...] = ()
    #: Where its conversation is saved as it happens (None: not saved, or, for the
    #: session's agent, wherever the session is attached later). A sub-agent's lines
    #: are sidechain lines (`isSidechain`, `agentId`).
    transcript: Path | None = None
    #: The harness's own helper (memory extraction): the calls it is refused are not
    #: the session's `permission_denials`.
    internal: bool = False
    #: Its answer is a StructuredOutput call conforming to this JSON Schema
    #: (`--json-schema`), and `structured_output_retries` that do not conform end a turn.
    json_schema: dict[str, Any] | None = None
    structured_output_retries: int = 5

    @property
    def agent_id(self) -> str | None:
        return self.identity.agent_id if self.identity is not None else None
