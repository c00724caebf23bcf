"""`python -m cc.precompile`: what cc keeps beside its bytecode between runs, made at
once for the whole package, as `compileall` makes bytecode (a first run makes it too,
where bytecode may be written):

- the dataclasses' compiled methods (`cc.dataclass_cache`);
- the built-in tools' definitions (`cc.tools.definition_cache`).

Exit status 1 if a module of cc failed to import (its part is left out).
"""

from __future__ import annotations

import sys


def precompile() -> int:
    """Make and write both; the number of modules that failed to import."""
    from cc import dataclass_cache

    failed = dataclass_cache.compile_all()
    from cc.tools import definition_cache
    from cc.tools.catalog import builtin_entries, interactive_entries
    from cc.tools.registry import ToolRegistry

    ToolRegistry([*builtin_entries(), *interactive_entries()]).api_definitions()
    definition_cache.SHARED.save(asked=True)
    return failed


if __name__ == "__main__":
    sys.exit(1 if precompile() else 0)
