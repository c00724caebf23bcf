"""Sub-agents: other conversations an agent starts and talks to.

    definitions.py    the agent types (built-in, .claude/agents, --agents)
    tool.py           the Agent tool (Task): start one, foreground or background
    control.py        the `agents` service: launch, find, the team slot (AgentHost:
                      the session as agents see it)
    subagent.py       one run: the child engine (a finished fork), its sidechain, the
                      hand-back; a fork's messages
    background.py     runs in the background, notified when they end, continued
    send_message.py   SendMessage: to an agent of the session, by id or name
    named.py          a named agent of no team: its letters to the main conversation
    extractor.py      the background memory extraction (a fork that keeps memories)
"""
