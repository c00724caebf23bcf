"""What a tool asks a person, and the answers: AskUserQuestion's questions, a plan to
approve. The tools (which ask) and every channel (which answers: the REPL's dialogs, an
SDK host, nobody) share these shapes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Answers", "PlanChoice", "Question"]


@dataclass(frozen=True)
class Question:
    """One AskUserQuestion question: its options as (label, description) pairs."""

    question: str
    header: str
    options: tuple[tuple[str, str], ...]
    multi_select: bool = False


#: What the user answered, per question text (several labels joined by ", "); None:
#: the user declined to answer.
Answers = dict[str, str] | None

#: The answers to a plan: "acceptEdits" (yes, and accept edits), "default" (yes, and
#: ask for each edit) or "keep_planning" (no).
PlanChoice = Literal["acceptEdits", "default", "keep_planning"]
