"""Sub-agents: the types the Agent tool can launch (`definitions.py`)."""
