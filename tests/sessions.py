"""A `Session` for tests that build engines in-process (no flags parsing beyond argv)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cc.app.options import SessionOptions, resolve_options
from cc.app.session import Session, StartFacts
from cc.cli_args import build_parser
from cc.config.settings import Settings
from cc.core.credentials import Credentials


def make_session(cwd: Path, config: Path, *, settings: Settings | None = None,
                 credentials: Credentials | None = None, argv: Sequence[str] = ("-p",),
                 options: SessionOptions | None = None) -> Session:
    settings = settings or Settings()
    if options is None:
        options = resolve_options(build_parser().parse_args(list(argv)), settings, {})
    return Session(StartFacts(cwd, config, settings, credentials or Credentials(), options))
