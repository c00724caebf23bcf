"""The `engine` fixture of test_builtins (a real QueryEngine on the fake API), for every
command test here."""

from tests.commands.test_builtins import engine  # noqa: F401 - a fixture
