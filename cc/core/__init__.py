"""The core: one conversation's engine and its loop. It yields events and never prints.

    query_engine.py   QueryEngine: the conversation (its only writer), model, tools,
                      gates, usage; submit() / run_turn(); compact, resume, clear
    query_loop.py     query_loop(): the async-generator state machine of a turn
                      (prepare → stream and start tools → recover → results)
    spec.py           AgentSpec: what an agent is, whole, before anything is wired
    services.py       the services a tool sees of its agent (cc.tools.services)
    toolset.py        the conversation's tools: offered, deferred, loaded (ToolSearch)
    news.py           one queue of what waits for the next request
    denials.py        the session's refused calls, one log shared by its agents
    events.py         the events the core yields (and AgentInfo, re-exported)
    channel.py        every ask of a person, and its answer, as events
    client.py         the model client (anthropic SDK), requests and credentials
    retry.py          the one retry layer
    supervisor.py     background work and open resources, closed in order
    pipeline/         the tool pipeline: executor (hooks → permission → call → hooks)
                      and the streaming executor (tools start as their blocks complete)
"""
