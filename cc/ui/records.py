"""Claude Code's stream-json / json record shapes, built from our messages."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cc.core.dialect import anthropic_host
from cc.models.catalog import canonical_model, model_info
from cc.models.content_blocks import TextBlock, ToolResultBlock
from cc.models.messages import AssistantMessage, UserMessage, new_uuid
from cc.session.lines import derived_uuid, now_timestamp

if TYPE_CHECKING:
    from cc.app.session import Session
    from cc.core.denials import Denial
    from cc.core.events import (
        AgentInfo,
        Compacted,
        ModelFallback,
        RetryEvent,
        StreamEvent,
        Terminal,
        TurnSummary,
    )
    from cc.core.query_engine import QueryEngine
    from cc.hooks.lifecycle import HookNote
    from cc.models.usage import ModelUsage, UsageTotals
    from cc.tools.agent_tasks import AgentTask, Change, Watcher



def init_record(session: Session, version: str) -> dict[str, Any]:
    """`system/init`: what the session is. What cc does not have is said as it is: no
    protocol capabilities announced, fast mode off, no analytics nor feedback."""
    engine = session.engine
    memory = session.memory_dir
    record = {
        "type": "system",
        "subtype": "init",
        "cwd": str(session.cwd),
        "session_id": engine.session_id,
        "tools": engine.registry.names,
        "mcp_servers": session.mcp.statuses() if session.mcp is not None else [],
        "model": engine.model,
        "permissionMode": engine.permission_mode,
        "slash_commands": _slash_commands(session),
        "apiKeySource": session.credentials.source,
        "claude_code_version": version,
        "output_style": "default",
        "agents": _agent_types(engine),
        "skills": [],
        "plugins": [],
        "uuid": new_uuid(),
        "capabilities": [],
        "analytics_disabled": True,
        "product_feedback_disabled": True,
        "served_by_anthropic": anthropic_host(session.credentials.base_url),
        "sandbox_enabled": session.sandbox is not None,
        "memory_paths": {"auto": f"{memory}/"} if memory is not None else {},
        "original_cwd": str(session.cwd),
        "additional_directories": [str(Path(d).expanduser().absolute())
                                   for d in session.options.add_dirs],
        "fast_mode_state": "off",
    }
    if session.options.controls.betas:
        record["betas"] = list(session.options.controls.betas)
    if session.options.plugin_dirs:
        record["plugin_errors"] = _plugin_errors(session.options.plugin_dirs)
    return record


def _plugin_errors(dirs: Iterable[str]) -> list[dict[str, str]]:
    """Every `--plugin-dir`, as a plugin that did not load (cc has no plugins yet)."""
    errors = []
    for i, folder in enumerate(dirs):
        found = Path(folder).exists()
        errors.append({
            "plugin": f"inline[{i}]",
            "type": "not-supported" if found else "path-not-found",
            "message": "cc does not load plugins yet" if found else f"{folder} does not exist",
            "path": folder,
        })
    return errors


def hook_record(note: HookNote, session_id: str) -> dict[str, Any]:
    """`system/hook_started`, `hook_progress` or `hook_response`, for one hook command."""
    from cc.hooks.lifecycle import HookFinished, HookProgress

    record: dict[str, Any] = {"type": "system", "subtype": "hook_started",
                              "hook_id": note.hook_id, "hook_name": note.hook_name,
                              "hook_event": note.hook_event}
    if isinstance(note, HookProgress):
        record.update(subtype="hook_progress", stdout=note.stdout, stderr=note.stderr,
                      output=note.stdout + note.stderr)
    elif isinstance(note, HookFinished):
        result = note.result
        record.update(subtype="hook_response", output=result.stdout + result.stderr,
                      stdout=result.stdout, stderr=result.stderr)
        if result.http_status is not None:  # an http hook: its status, as Claude Code says
            record["exit_code"] = result.http_status
        elif result.exit_code is not None:
            record["exit_code"] = result.exit_code
        record["outcome"] = note.outcome
    return {**record, "uuid": new_uuid(), "session_id": session_id}


def _slash_commands(session: Session) -> list[str]:
    """The MCP servers' prompts, as the commands they are (`mcp__<server>__<prompt>`)."""
    return [c.name for c in session.mcp.prompt_commands()] if session.mcp is not None else []


def _agent_types(engine: QueryEngine) -> list[str]:
    """The sub-agent types the Agent tool offers (none without it)."""
    catalog = getattr(engine.registry.get("Agent"), "catalog", None)
    return list(catalog.names()) if catalog is not None else []


def assistant_records(message: AssistantMessage, session_id: str,
                      agent: AgentInfo | None = None) -> list[dict[str, Any]]:
    """One record per content block, all sharing the message id (as Claude Code does),
    each with the uuid of the transcript line that holds the block (what
    `--resume-session-at` takes). A sub-agent's (`agent`) carry its Agent call's id and
    leave its text out, as Claude Code does without --forward-subagent-text."""
    records = []
    for i, block in enumerate(message.content):
        if agent is not None and isinstance(block, TextBlock):
            continue
        records.append(
            {
                "type": "assistant",
                "message": {
                    "id": message.message_id,
                    "type": "message",
                    "role": "assistant",
                    "model": message.model,
                    "content": [block.to_api()],
                    "stop_reason": message.stop_reason,
                    "stop_sequence": None,
                    "usage": message.usage,
                },
                "parent_tool_use_id": None,
                "session_id": session_id,
                "uuid": message.uuid if i == 0 else derived_uuid(message.uuid, i),
                "timestamp": now_timestamp(),
                **_agent_fields(agent),
            }
        )
        if message.aborted:
            records[-1]["aborted"] = True
    return records


def user_text_record(message: UserMessage, session_id: str,
                     agent: AgentInfo | None = None) -> dict[str, Any]:
    """A user message that is not tool results (the interrupt marker, a sub-agent's
    prompt)."""
    return {
        "type": "user",
        "message": message.to_api(),
        "parent_tool_use_id": None,
        "session_id": session_id,
        "uuid": message.uuid,
        "timestamp": now_timestamp(),
        **_agent_fields(agent),
    }


def _agent_fields(agent: AgentInfo | None) -> dict[str, Any]:
    if agent is None:
        return {}
    return {"parent_tool_use_id": agent.parent_tool_use_id, "agent_id": agent.agent_id,
            "subagent_type": agent.agent_type, "task_description": agent.description}


def model_fallback_record(event: ModelFallback, session_id: str) -> dict[str, Any]:
    """`system/model_fallback`: the turn moved to the next `--fallback-model`."""
    return {
        "type": "system",
        "subtype": "model_fallback",
        "uuid": new_uuid(),
        "trigger": event.trigger,
        "original_model": event.original,
        "fallback_model": event.fallback,
        "content": event.summary,
        "session_id": session_id,
    }


def compact_boundary_record(event: Compacted, session_id: str) -> dict[str, Any]:
    """The boundary; a partial compaction names what it kept as the transcript does
    (`preserved_segment`, `preserved_messages`; the anchor is the summary record)."""
    metadata: dict[str, Any] = {"trigger": event.trigger, "pre_tokens": event.pre_tokens,
                                "post_tokens": event.post_tokens,
                                "duration_ms": event.duration_ms}
    kept = event.boundary.preserved
    if kept:
        anchor = event.boundary.summary_uuid
        metadata["preserved_segment"] = {"head_uuid": kept[0], "anchor_uuid": anchor,
                                         "tail_uuid": kept[-1]}
        metadata["preserved_messages"] = {"anchor_uuid": anchor, "uuids": list(kept),
                                          "all_uuids": list(kept)}
    return {
        "type": "system",
        "subtype": "compact_boundary",
        "compact_metadata": metadata,
        "uuid": event.boundary.uuid,
        "session_id": session_id,
    }


def compact_summary_record(event: Compacted, session_id: str) -> dict[str, Any]:
    return {
        "type": "user",
        "message": {"role": "user", "content": event.boundary.summary},
        "parent_tool_use_id": None,
        "session_id": session_id,
        "uuid": event.boundary.summary_uuid,
        "timestamp": now_timestamp(),
        "isCompactSummary": True,
    }


def task_started_record(agent: AgentInfo, session_id: str) -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": "task_started",
        "task_id": agent.agent_id,
        "tool_use_id": agent.parent_tool_use_id,
        "description": agent.description,
        "subagent_type": agent.agent_type,
        "is_backgrounded": agent.background,
        "spawn_depth": 1,
        "task_type": "local_agent",
        "prompt": agent.prompt,
        "uuid": new_uuid(),
        "session_id": session_id,
    }


def task_notification_record(agent: AgentInfo, terminal: Terminal,
                             session_id: str) -> dict[str, Any]:
    """A foreground agent's end, from its last Terminal."""
    summary = terminal.summary
    status = "completed" if terminal.ok or terminal.reason == "max_turns" else "failed"
    usage = {"total_tokens": summary.total_tokens if summary else 0,
             "tool_uses": summary.tool_uses if summary else 0,
             "duration_ms": summary.duration_ms if summary else 0}
    return _task_ended(agent, status, usage, session_id)


def _task_ended(agent: AgentInfo, status: str, usage: dict[str, int], session_id: str,
                **extra: Any) -> dict[str, Any]:
    """`system/task_notification`: status completed, failed or stopped."""
    ended = {"completed": "finished", "stopped": "was stopped"}.get(status, "failed")
    return {
        "type": "system",
        "subtype": "task_notification",
        "task_id": agent.agent_id,
        "tool_use_id": agent.parent_tool_use_id,
        "status": status,
        **extra,
        "summary": f'Agent "{agent.description}" {ended}',
        "usage": usage,
        "uuid": new_uuid(),
        "session_id": session_id,
    }


def background_records(session_id: str,
                       emit: Callable[[dict[str, Any]], None]) -> Watcher:
    """A watcher of the agent table that reports background agents as Claude Code's
    stream does: `task_started` for each run (a continued agent's prompt is the message
    that woke it), `task_progress` for each call, `task_notification` at the end."""

    from cc.core.events import AgentInfo

    def watch(change: Change, entry: AgentTask | None) -> None:
        if entry is None or not entry.announce:
            return
        agent = AgentInfo(entry.id, entry.agent_type, entry.description, entry.tool_use_id,
                          True, entry.prompt)
        if change == "started":
            emit(task_started_record(agent, session_id))
        elif change == "tool" and entry.last_tool is not None:
            emit({"type": "system", "task_id": entry.id, "tool_use_id": entry.tool_use_id,
                  "subtype": "task_progress", "description": entry.description,
                  "usage": _usage(entry), "last_tool_name": entry.last_tool[0],
                  "uuid": new_uuid(), "session_id": session_id})
        elif change == "ended":
            status = {"completed": "completed", "killed": "stopped"}.get(entry.status,
                                                                          "failed")
            emit(_task_ended(agent, status, _usage(entry), session_id,
                             output_file=str(entry.output_path) if entry.output_path else None))

    return watch


def _usage(entry: AgentTask) -> dict[str, int]:
    elapsed = entry.duration_ms or int((time.monotonic() - entry.started_at) * 1000)
    return {"total_tokens": entry.tokens, "tool_uses": entry.tool_uses,
            "duration_ms": elapsed}


def user_records(message: UserMessage, session_id: str,
                 agent: AgentInfo | None = None) -> list[dict[str, Any]]:
    """One record per tool result, each with its structured `tool_use_result`."""
    results = [b for b in message.content if isinstance(b, ToolResultBlock)]
    data = message.tool_use_result
    per_result = data if isinstance(data, list) and len(results) > 1 else [data]
    records = []
    for i, block in enumerate(results):
        record: dict[str, Any] = {
            "type": "user",
            "message": {"role": "user", "content": [block.to_api()]},
            "parent_tool_use_id": None,
            "session_id": session_id,
            "uuid": new_uuid(),
            "timestamp": now_timestamp(),
            **_agent_fields(agent),
        }
        if i < len(per_result) and per_result[i] is not None:
            record["tool_use_result"] = per_result[i]
        records.append(record)
    return records


def usage_record(u: ModelUsage) -> dict[str, Any]:
    """The result's `usage`, in the API's shape. What cc does not use is what it would
    say: no geographic routing, no iterations, the standard tier and speed."""
    return {
        "input_tokens": u.input_tokens,
        "cache_creation_input_tokens": u.cache_creation_input_tokens,
        "cache_read_input_tokens": u.cache_read_input_tokens,
        "output_tokens": u.output_tokens,
        "output_tokens_details": {"thinking_tokens": u.thinking_tokens},
        "server_tool_use": {"web_search_requests": u.web_search_requests, "web_fetch_requests": 0},
        "service_tier": "standard",
        "cache_creation": {"ephemeral_1h_input_tokens": u.cache_creation_1h_tokens,
                           "ephemeral_5m_input_tokens": u.cache_creation_5m_tokens},
        "inference_geo": "",
        "iterations": [],
        "speed": "standard",
    }


def model_usage_record(usage: UsageTotals) -> dict[str, Any]:
    """`modelUsage`: per model, its counts and estimated cost (list prices, as cc talks
    to the Anthropic API itself: `provider` firstParty, `costBasis` list)."""
    out = {}
    for model, u in usage.by_model.items():
        info = model_info(model)
        out[model] = {
            "inputTokens": u.input_tokens,
            "outputTokens": u.output_tokens,
            "cacheReadInputTokens": u.cache_read_input_tokens,
            "cacheCreationInputTokens": u.cache_creation_input_tokens,
            "webSearchRequests": u.web_search_requests,
            "costUSD": round(u.cost_usd(model), 6),
            "contextWindow": info.context_window,
            "maxOutputTokens": info.max_output_tokens,
            "thinkingTokens": u.thinking_tokens,
            "cacheCreationEphemeral5mInputTokens": u.cache_creation_5m_tokens,
            "cacheCreationEphemeral1hInputTokens": u.cache_creation_1h_tokens,
            "canonicalModel": canonical_model(model),
            "provider": "firstParty",
            "costBasis": "list",
        }
    return out


def result_record(
    terminal: Terminal,
    summary: TurnSummary,
    last: AssistantMessage | None,
    *,
    failure: str | None,
    duration_ms: int,
    denials: Iterable[Denial],
    since_last: UsageTotals | None = None,
    queued_turns: int = 0,
) -> dict[str, Any]:
    """The final `result` record, from the turn's end and its summary. Error subtypes
    carry `errors` and no `result`; an answer, its timing and `api_error_status` (null);
    an API error, its status and type. A turn answered by a StructuredOutput call carries
    the value as `structured_output`, and its JSON as `result`. `denials`: the calls
    refused in the session so far, its agents' too, as the log holds them when the
    record is written. `since_last`: the usage since the previous result (stream-json
    says it); `queued_turns`: prompts waiting behind this turn (none in print mode). cc
    has no fast mode: `fast_mode_state` is always off."""
    record: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": duration_ms,
        "duration_api_ms": summary.usage.api_duration_ms,
        "num_turns": summary.num_turns,
    }
    if failure is not None or terminal.reason in SETUP_FAILED or terminal.reason.startswith(
            "aborted"):
        record.update(subtype="error_during_execution", is_error=True)
        record["errors"] = [failure or terminal.error or "the turn ended without a result"]
    elif terminal.reason == "max_turns":
        record.update(subtype="error_max_turns", is_error=True)
        record["errors"] = [terminal.error or "Reached maximum number of turns"]
    elif terminal.reason == "budget_exhausted":
        record.update(subtype="error_max_budget_usd", is_error=True)
        record["errors"] = [terminal.error or "Reached the --max-budget-usd limit"]
    elif terminal.reason == "structured_output_retry_exhausted":
        record.update(subtype="error_max_structured_output_retries", is_error=True)
        record["errors"] = [terminal.error or "No answer conforming to the --json-schema"]
    elif terminal.reason == "completed" and terminal.structured_output is not None:
        answer = terminal.structured_output
        record.update(result=json.dumps(answer, ensure_ascii=False, separators=(",", ":")),
                      structured_output=answer, api_error_status=None)
        record.update(summary.timing)
    elif terminal.reason == "completed":
        record.update(result=last.text if last else "", api_error_status=None)
        record.update(summary.timing)
    elif terminal.reason == "hook_stopped":  # not an error, as Claude Code reports it
        record.update(result=terminal.details.get("result", terminal.error or ""),
                      api_error_status=None)
        record.update(summary.timing)
    else:  # an API error: Claude Code reports it as the result text, is_error true
        record.update(is_error=True, result=terminal.error or "API error")
        record["api_error_status"] = terminal.details.get("status")
        if terminal.details.get("type"):
            record["api_error_type"] = terminal.details["type"]
    record.update(
        stop_reason=terminal.stop_reason,
        session_id=summary.session_id,
        total_cost_usd=round(summary.usage.cost_usd, 6),
        usage=usage_record(summary.usage.total),
        modelUsage=model_usage_record(summary.usage),
        permission_denials=[
            {"tool_name": d.tool_name, "tool_use_id": d.tool_use_id, "tool_input": d.tool_input}
            for d in denials
        ],
        terminal_reason=terminal.reason,
        fast_mode_state="off",
        safety_stops=summary.safety_stops,
        uuid=new_uuid(),
        queued_turn_count=queued_turns,
        result_index=0,
    )
    if since_last is not None:
        record["model_usage_since_last_result"] = model_usage_record(since_last)
    return record


#: The reason of a turn that never reached the model.
SETUP_FAILED = ("turn_setup_failed",)


def stream_record(event: StreamEvent, session_id: str) -> dict[str, Any]:
    return {
        "type": "stream_event",
        "event": event.raw,
        "parent_tool_use_id": None,
        "uuid": new_uuid(),
        "session_id": session_id,
    }


def retry_record(event: RetryEvent, session_id: str) -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": "api_retry",
        "attempt": event.attempt,
        "max_retries": event.max_retries,
        "retry_delay_ms": int(event.delay_s * 1000),
        "error_status": event.error.status,
        "error": event.error.kind,
        "uuid": new_uuid(),
        "session_id": session_id,
    }
