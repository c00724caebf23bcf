"""`--agents` in SessionOptions: kept as given once it parses, a UsageError when it does not."""

from __future__ import annotations

import pytest

from cc.app.options import SessionOptions, resolve_options
from cc.cli_args import build_parser
from cc.config.settings import Settings
from cc.errors import UsageError


def options_for(*argv: str) -> SessionOptions:
    return resolve_options(build_parser().parse_args(["-p", *argv]), Settings(), {})


def test_agents_json_is_kept_as_given() -> None:
    flag = '{"a": {"description": "d", "prompt": "p"}, "bad": 1}'  # entries are checked on load
    assert options_for("--agents", flag).agents_json == flag
    assert options_for().agents_json is None


@pytest.mark.parametrize("flag, problem", [
    ("{nope", "--agents is not valid JSON"),
    ('"a string"', "--agents must be a JSON object"),
])
def test_agents_json_that_is_not_an_object_is_a_usage_error(flag: str, problem: str) -> None:
    with pytest.raises(UsageError, match=problem):
        options_for("--agents", flag)
