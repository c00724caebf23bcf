"""The question about a project's new MCP servers: one server and three choices, or
several to tick (all ticked at first)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cc.ui.render import option_lines, visible

EXPLAIN = ("A server is a program cc starts (or a service it reaches) whose tools the "
           "model may then use; each tool call still asks for permission.")


def servers_dialog(servers: Sequence[tuple[str, str]], origin: str, options: Sequence[str],
                   selected: int, checked: Collection[int] = ()) -> RenderableType:
    """`servers` are (name, what starting it does); one server is answered by choosing
    an option, several by ticking them."""
    parts: list[RenderableType]
    if len(servers) == 1:
        name, launch = servers[0]
        parts = [Text.assemble(("New MCP server in this project: ", "bold"),
                               (visible(name), "bold cyan")),
                 Text(visible(f"{launch}  (from {origin})"), style="dim"),
                 Text(""), Text(EXPLAIN), Text(""), option_lines(options, selected), Text(""),
                 Text("↑/↓ to move · enter to choose · esc: don't use it", style="dim")]
    else:
        grid = Table.grid(padding=(0, 1))
        # The command gives way first on a narrow screen.
        grid.add_column(no_wrap=True, min_width=len(f"❯ {len(servers)}. [x]"))
        grid.add_column(no_wrap=True, min_width=max(len(visible(n)) for n, _ in servers))
        grid.add_column(overflow="ellipsis", no_wrap=True, style="dim")
        for i, (name, launch) in enumerate(servers):
            mark = "❯" if i == selected else " "
            box = "[x]" if i in checked else "[ ]"
            style = "cyan" if i == selected else ""
            grid.add_row(Text(f"{mark} {i + 1}. {box}", style=style),
                         Text(visible(name), style=style), Text(visible(launch)))
        parts = [Text(f"{len(servers)} new MCP servers in this project", style="bold"),
                 Text(visible(f"from {origin}"), style="dim"), Text(""), Text(EXPLAIN),
                 Text(""), grid, Text(""),
                 Text("space or a number to tick · enter to use the ticked ones · "
                      "esc to use none", style="dim")]
    return Panel(Group(*parts), border_style="blue", padding=(0, 1), expand=True)
