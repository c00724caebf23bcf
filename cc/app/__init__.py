"""Building a session: options from flags, settings and environment, the session that
owns what its agents share and drives their turns, and the factory that assembles an
engine from an AgentSpec.

    options.py   SessionOptions, resolved once from flags, settings and environment
    session.py   Session: frozen start facts, shared owners, the turn driver
    factory.py   build_main(), fork(), build_engine(): finished engines
"""
