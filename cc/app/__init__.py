"""Building a session: options from flags, settings and environment, the runtime facts
start-up found, and the factory that assembles an engine from them."""
