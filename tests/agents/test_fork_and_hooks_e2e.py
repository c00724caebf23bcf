"""Forks and sub-agent hooks end to end: `python -m cc -p` against the fake API.

A fork's directive is the text block that ends its last user message (its first user
message is the parent's prompt), so fork routes match on that block, not on the
first user message as string routes do.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cc.agents.subagent import FORK_PLACEHOLDER
from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use


def agent_call(description: str, prompt: str, **extra: Any) -> dict[str, Any]:
    return tool_use("Agent", {"description": description, "prompt": prompt, **extra})


def directive_has(marker: str) -> Callable[[dict[str, Any]], bool]:
    """A route match: some user message has a top-level text block holding `marker`
    (tool results, where a fork's report goes back to its parent, are not looked at)."""
    def match(body: dict[str, Any]) -> bool:
        return any(isinstance(block, dict) and block.get("type") == "text"
                   and marker in block.get("text", "")
                   for message in body.get("messages", []) if message["role"] == "user"
                   and isinstance(message["content"], list) for block in message["content"])
    match.__name__ = marker
    return match


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=False)


def without_cache_marks(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`messages` without cache breakpoints (they mark where a request ends, not what it
    says: the parent's last block carries one, the same block in a fork's request not)."""
    out = []
    for message in messages:
        content = message["content"]
        if isinstance(content, list):
            content = [{k: v for k, v in block.items() if k != "cache_control"}
                       for block in content]
        out.append({**message, "content": content})
    return out


# -- forks ---------------------------------------------------------------------------


def test_two_forks_of_one_message_share_their_prefix(project: Project) -> None:
    api = project.api
    calls = [agent_call("First half", "FORK-ONE: list the odd numbers below 5",
                        subagent_type="fork"),
             agent_call("Second half", "FORK-TWO: list the even numbers below 5",
                        subagent_type="fork")]
    api.script(Reply([text("Forking twice."), *calls]), Reply("Odd: 1 3. Even: 2 4."))
    one = api.route(directive_has("FORK-ONE"), Reply("1, 3"))
    two = api.route(directive_has("FORK-TWO"), Reply("2, 4"))
    run = project.run("-p", "split the numbers below 5", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "Odd: 1 3. Even: 2 4."
    api.assert_clean()
    assert len(one.requests) == len(two.requests) == 1 and api.turns_left == 0

    main = [r.body for r in api.requests if r.route is None]
    assert len(main) == 2
    first, fork_one, fork_two = main[0], one.requests[0].body, two.requests[0].body

    # The parent's system blocks and tools, byte for byte (Agent included: a fork's
    # tool list is its parent's, so the cache prefix holds; the call is refused inside).
    assert dumps(fork_one["system"]) == dumps(fork_two["system"]) == dumps(first["system"])
    assert dumps(fork_one["tools"]) == dumps(fork_two["tools"]) == dumps(first["tools"])
    assert "Agent" in [t["name"] for t in fork_one["tools"]]

    # The same messages but for the directive that ends the last one.
    msgs_one, msgs_two = fork_one["messages"], fork_two["messages"]
    assert dumps(msgs_one[:-1]) == dumps(msgs_two[:-1])
    last_one, last_two = msgs_one[-1]["content"], msgs_two[-1]["content"]
    assert msgs_one[-1]["role"] == msgs_two[-1]["role"] == "user"
    assert dumps(last_one[:-1]) == dumps(last_two[:-1])
    assert last_one[-1]["type"] == last_two[-1]["type"] == "text"
    assert "FORK-ONE: list the odd numbers below 5" in last_one[-1]["text"]
    assert "FORK-TWO" not in last_one[-1]["text"]
    assert "FORK-TWO: list the even numbers below 5" in last_two[-1]["text"]
    assert last_one[-1]["text"] != last_two[-1]["text"]

    # They start with the parent's conversation, then the message holding both calls.
    prefix = first["messages"]
    assert dumps(without_cache_marks(msgs_one[:len(prefix)])) == \
        dumps(without_cache_marks(prefix))
    assert len(msgs_one) == len(prefix) + 2
    sent = msgs_one[len(prefix)]
    assert sent["role"] == "assistant"
    assert [b["type"] for b in sent["content"]] == ["text", "tool_use", "tool_use"]
    assert [b["id"] for b in sent["content"][1:]] == [c["id"] for c in calls]
    assert [b["input"] for b in sent["content"][1:]] == [c["input"] for c in calls]
    # ... and the parent's next request has that same message at the same place.
    assert dumps(without_cache_marks(main[1]["messages"][:len(prefix) + 1])) == \
        dumps(without_cache_marks(msgs_one[:len(prefix) + 1]))

    # Every call of that message, its own included, reads one and the same placeholder.
    results = last_one[:-1]
    assert [r["type"] for r in results] == ["tool_result", "tool_result"]
    assert [r["tool_use_id"] for r in results] == [c["id"] for c in calls]
    placeholders = {dumps(r["content"]) for r in results}
    assert len(placeholders) == 1 and FORK_PLACEHOLDER in placeholders.pop()
    assert not any(r.get("is_error") for r in results)
    assert "1, 3" not in dumps(results) and "2, 4" not in dumps(results)

    # The parent gets each fork's report on its own call.
    back = {r["tool_use_id"]: dumps(r["content"]) for r in main[1]["messages"][-1]["content"]}
    assert "1, 3" in back[calls[0]["id"]] and "2, 4" in back[calls[1]["id"]]


def test_a_fork_cannot_start_an_agent(project: Project) -> None:
    api = project.api
    api.script(Reply([agent_call("Dig", "FORK-NEST: find the answer", subagent_type="fork")]),
               Reply("The fork reported."))
    nested = agent_call("Deeper", "NESTED-TASK: go deeper")
    fork = api.route(directive_has("FORK-NEST"), Reply([nested]),
                     Reply("I could not start an agent; the answer is 42."))
    deeper = api.route("NESTED-TASK", Reply("should never run"))
    run = project.run("-p", "find the answer with a fork", "--output-format", "json")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "The fork reported."
    api.assert_clean()
    assert deeper.requests == [] and deeper.turns_left == 1  # no agent was started
    assert len(fork.requests) == 2
    refusal = fork.requests[1].body["messages"][-1]["content"][0]
    assert refusal["type"] == "tool_result" and refusal["tool_use_id"] == nested["id"]
    assert refusal["is_error"] is True
    assert "cannot start agents" in dumps(refusal["content"])
    assert "cannot fork again" in dumps(refusal["content"])
    report = dumps(api.requests[-1].body["messages"][-1]["content"])
    assert "the answer is 42." in report


# -- hooks ---------------------------------------------------------------------------

EVENTS = ("SubagentStart", "SubagentStop", "Stop", "PreToolUse", "UserPromptSubmit")


def log_hooks(project: Project) -> Path:
    """Each of EVENTS appends its stdin, one JSON line, to the returned log."""
    log = project.root / "hooks.log"
    hook = project.root / "log-hook.sh"
    hook.write_text(f"#!/usr/bin/env bash\n{{ cat; echo; }} >> {log}\n")
    hook.chmod(0o755)
    entry = [{"hooks": [{"type": "command", "command": str(hook)}]}]
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"hooks": {event: entry for event in EVENTS}}))
    return log


def test_subagent_hooks(project: Project) -> None:
    log = log_hooks(project)
    api = project.api
    call = agent_call("Check", "HOOKED-TASK: run true")
    api.script(Reply([call]), Reply("The agent ran true."))
    bash = tool_use("Bash", {"command": "true", "description": "Do nothing"})
    sub = api.route("HOOKED-TASK", Reply([bash]), Reply("true ran fine."))
    run = project.run("-p", "run true in an agent", "--output-format", "json",
                      "--permission-mode", "bypassPermissions")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.json()["result"] == "The agent ran true."
    api.assert_clean()
    assert len(sub.requests) == 2
    bash_result = sub.requests[1].body["messages"][-1]["content"][0]
    assert bash_result["tool_use_id"] == bash["id"] and not bash_result.get("is_error")

    seen = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    by_event: dict[str, list[dict[str, Any]]] = {event: [] for event in EVENTS}
    for payload in seen:
        by_event[payload["hook_event_name"]].append(payload)
    session = {p["session_id"] for p in seen}
    assert len(session) == 1 and len(session.pop()) == 36

    [start] = by_event["SubagentStart"]
    agent_id = start["agent_id"]
    assert start["agent_type"] == "general-purpose"
    assert agent_id.startswith("a") and len(agent_id) == 17
    assert start["cwd"] == str(project.root)
    parent_transcript = Path(start["transcript_path"])
    assert parent_transcript.is_file() and parent_transcript.suffix == ".jsonl"

    [stop] = by_event["SubagentStop"]
    assert stop["agent_id"] == agent_id and stop["agent_type"] == "general-purpose"
    assert stop["stop_hook_active"] is False
    sidechain = Path(stop["agent_transcript_path"])
    assert sidechain.name == f"agent-{agent_id}.jsonl" and sidechain.is_file()
    assert sidechain.parent == parent_transcript.with_suffix("") / "subagents"
    assert stop["transcript_path"] == str(parent_transcript)  # the session's, as in CC
    assert stop["last_assistant_message"] == "true ran fine."

    [prompt] = by_event["UserPromptSubmit"]  # the person's prompt; an agent's brief is not one
    assert prompt["prompt"] == "run true in an agent"
    [main_stop] = by_event["Stop"]  # the main agent's; the sub-agent's end is SubagentStop
    assert "agent_id" not in main_stop and "agent_transcript_path" not in main_stop
    assert main_stop["transcript_path"] == str(parent_transcript)
    assert main_stop["last_assistant_message"] == "The agent ran true."

    pre = {p["tool_name"]: p for p in by_event["PreToolUse"]}
    assert sorted(pre) == ["Agent", "Bash"] and len(by_event["PreToolUse"]) == 2
    assert pre["Bash"]["agent_id"] == agent_id
    assert pre["Bash"]["agent_type"] == "general-purpose"
    assert pre["Bash"]["tool_use_id"] == bash["id"]
    assert pre["Bash"]["tool_input"]["command"] == "true"
    assert "agent_id" not in pre["Agent"] and "agent_type" not in pre["Agent"]
    assert pre["Agent"]["tool_use_id"] == call["id"]

    # In order: the Agent call, the start, the sub-agent's call and end, the main end.
    order = [(p["hook_event_name"], p.get("tool_name")) for p in seen]
    assert order == [("UserPromptSubmit", None), ("PreToolUse", "Agent"), ("SubagentStart", None),
                     ("PreToolUse", "Bash"),
                     ("SubagentStop", None), ("Stop", None)]
