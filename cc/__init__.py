"""cc: a Python clone of Claude Code."""

__version__ = "0.1.0"
