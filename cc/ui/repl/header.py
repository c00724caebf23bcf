"""The start-up banner, drawn without rich (it must not delay the prompt)."""

from __future__ import annotations

from pathlib import Path

_BOLD, _DIM, _YELLOW, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[33m", "\x1b[0m"
_ACCENT = "\x1b[38;5;173m"


def header_lines(version: str, model: str, cwd: Path, has_key: bool) -> list[tuple[str, str]]:
    """(style, text) lines; style is "" / "bold" / "dim" / "warn"."""
    lines = [
        ("bold", f"✻ cc {version} · {model}"),
        ("", ""),
        ("dim", "  /help for help, /status for your current setup"),
        ("", ""),
        ("", f"  cwd: {cwd}"),
    ]
    if not has_key:
        lines += [
            ("", ""),
            ("warn", "  No API key found. Set one to talk to a model:"),
            ("warn", "    export ANTHROPIC_API_KEY=sk-ant-…   (or ANTHROPIC_AUTH_TOKEN)"),
            ("warn", '    or add "apiKeyHelper": "<command that prints a key>" to settings.json'),
        ]
    return lines


def header_text(version: str, model: str, cwd: Path, has_key: bool, width: int, color: bool) -> str:
    """The banner in a rounded box, as terminal text."""
    lines = header_lines(version, model, cwd, has_key)
    inner = min(max(len(t) for _, t in lines) + 2, max(20, width - 2))
    styles = {"bold": _BOLD, "dim": _DIM, "warn": _YELLOW}
    out = [(_ACCENT if color else "") + "╭" + "─" * inner + "╮" + (_RESET if color else "")]
    for style, text in lines:
        text = text if len(text) < inner else text[: inner - 2] + "…"
        body = f" {text}".ljust(inner)
        if color and style:
            body = styles[style] + body + _RESET
        side = f"{_ACCENT}│{_RESET}" if color else "│"
        out.append(side + body + side)
    out.append((_ACCENT if color else "") + "╰" + "─" * inner + "╯" + (_RESET if color else ""))
    return "\n".join(out) + "\n"
