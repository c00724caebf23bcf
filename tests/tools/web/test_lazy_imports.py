from __future__ import annotations

import subprocess
import sys


def test_the_web_tools_and_their_libraries_load_on_first_use_only() -> None:
    code = (
        "import sys, cc.main\n"
        "from cc.tools.catalog import builtin_entries\n"
        "entries = builtin_entries()\n"
        "heavy = {'httpx', 'markdownify', 'bs4', 'cc.tools.web.web_fetch'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
        "tools = [e.load() for e in entries if e.name in ('WebFetch', 'WebSearch')]\n"
        "tools[0].api_definition(), tools[1].api_definition()\n"
        "heavy = {'httpx', 'markdownify', 'bs4'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
