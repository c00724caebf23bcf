"""Context management: counting, cheap trims, and compaction."""
