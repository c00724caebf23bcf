"""The dialogs of AskUserQuestion (a question and its options) and ExitPlanMode (the plan
in a box, and three choices)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cc.ui.render import option_lines, visible

if TYPE_CHECKING:
    from cc.permissions.ask import Question


def question_dialog(question: Question, options: Sequence[str], selected: int,
                    checked: Collection[int] = (), typing: bool = False) -> RenderableType:
    """`[header] question`, the options with their descriptions (boxes to tick for a
    multiSelect question), the last one the user's own answer."""
    descriptions = [d for _, d in question.options]
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for i, label in enumerate(options):
        mark = "❯ " if i == selected else "  "
        box = ""
        if question.multi_select and i < len(descriptions):
            box = "[x] " if i in checked else "[ ] "
        grid.add_row(f"{mark}{i + 1}. ", Text(box + visible(label)),
                     style="cyan" if i == selected else "")
        if i < len(descriptions) and descriptions[i]:
            grid.add_row("", Text(visible(descriptions[i]), style="dim"))
    parts: list[RenderableType] = [
        Text.assemble((f"[{visible(question.header)}] ", "bold blue"),
                      (visible(question.question), "bold")),
        Text(""), grid, Text(""),
    ]
    if typing:
        parts.append(Text("Type your answer and press enter · esc to cancel", style="dim"))
    elif question.multi_select:
        parts.append(Text("↑/↓ to move · space or a number to tick · enter to answer · "
                          "esc to cancel", style="dim"))
    else:
        parts.append(Text("↑/↓ to move · enter to choose · esc to cancel", style="dim"))
    return Panel(Group(*parts), border_style="blue", padding=(0, 1), expand=True)


def plan_dialog(plan: str, path: str, options: Sequence[str], selected: int
                ) -> RenderableType:
    """The plan in a box, then: would you like to proceed?"""
    from rich.markdown import Markdown

    box = Panel(Markdown(plan), title="Plan", subtitle=visible(path), border_style="cyan",
                padding=(0, 1))
    parts: list[RenderableType] = [
        Text("Ready to code? Here is the plan:", style="bold"), box, Text(""),
        Text("Would you like to proceed?", style="bold"), option_lines(options, selected),
        Text(""),
        Text("↑/↓ to move · enter to choose · esc to keep planning", style="dim"),
    ]
    return Panel(Group(*parts), border_style="blue", padding=(0, 1), expand=True)
