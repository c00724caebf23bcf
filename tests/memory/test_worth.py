"""The cheap look that decides whether some turns are worth a memory extraction."""

from __future__ import annotations

import pytest

from cc.memory.worth import typed_prompts, worth_keeping
from cc.models.content_blocks import TextBlock, ToolResultBlock
from cc.models.messages import AssistantMessage, UserMessage, system_reminder


@pytest.mark.parametrize(("prompt", "kind"), [
    ("Remember that the staging box is rebuilt nightly.", "asked to remember"),
    ("keep in mind the API is rate limited", "asked to remember"),
    ("From now on, answer in French.", "asked to remember"),
    ("Next time, run the linter before you say it's done.", "asked to remember"),
    ("By the way, I prefer tabs over spaces.", "preference"),
    ("I’d rather you didn't touch the lockfile.", "preference"),
    ("please never add type: ignore comments", "preference"),
    ("Always use pathlib for paths in this repo.", "preference"),
    ("stop adding docstrings to private helpers", "preference"),
    ("No, the tests live in tests/unit.", "correction"),
    ("Actually, revert that change.", "correction"),
    ("That's not what I asked for.", "correction"),
    ("I told you to keep the old name.", "correction"),
    ("You shouldn't have changed the public API.", "correction"),
    ("I'm a data scientist, so explain the Rust parts slowly.", "about the user"),
    ("I maintain the billing service.", "about the user"),
    ("My team owns everything under services/.", "about the user"),
    ("We only deploy on Fridays.", "about the project"),
    ("we use poetry, not pip", "about the project"),
    ("The release freeze starts 2026-12-15.", "about the project"),
    ("Our deadline moved to March 3.", "about the project"),
    ("Bugs are tracked in Linear, project PAY.", "about the project"),
])
def test_what_the_user_says_about_themselves_or_the_project_is_worth_keeping(
    prompt: str, kind: str
) -> None:
    assert worth_keeping([prompt]) == kind


@pytest.mark.parametrize("prompt", [
    "what do src/mod03.py and src/mod07.py do?",
    "Fix the failing test in tests/test_parser.py.",
    "run the tests again",
    "Rename parse_line to parse_record everywhere.",
    "Why does load_config return None on an empty file?",
    "Add a --verbose flag to the CLI and wire it to logging.",
    "Explain the retry loop in client.py.",
    "It still fails with a KeyError, can you look?",
    "Now make the same change in the other module.",
    "Does this function always return a list?",
    "Add Slack notifications when the job fails.",
    "I'm getting a KeyError in the loader.",
    "I want to add a new endpoint for users.",
    "",
])
def test_task_prompts_are_not(prompt: str) -> None:
    assert worth_keeping([prompt]) is None


def test_any_prompt_of_several_is_enough() -> None:
    prompts = ["read a.py", "what does it do?", "ok, and we deploy with Argo, fyi"]
    assert worth_keeping(prompts) == "about the project"
    assert worth_keeping([]) is None


def test_only_the_users_own_words_are_read() -> None:
    """Tool results, meta messages, attached files and pasted code say nothing about the
    user: a memory word there is no sign."""
    messages = [
        UserMessage([TextBlock("what does this do?\n```\n# remember: we always use tabs\n```"),
                     TextBlock(system_reminder("Contents of a.py: I prefer tabs"))]),
        AssistantMessage([TextBlock("Remember, I prefer tabs.")]),
        UserMessage([ToolResultBlock("t1", "remember: never use spaces")]),
        UserMessage.text("From now on, always use tabs.", is_meta=True),
        UserMessage.text("thanks"),
    ]
    messages += [
        UserMessage.text("<bash-input>cat NOTES</bash-input>"),
        UserMessage.text("<bash-stdout>remember: we always deploy on Fridays</bash-stdout>"),
        UserMessage([TextBlock("<command-name>/fix</command-name>\n<command-message>fix"
                               "</command-message>\n<command-args>the parser</command-args>"),
                     TextBlock("Always run the tests; I prefer small commits.")]),
    ]
    assert typed_prompts(messages) == ["what does this do?", "thanks",
                                       "<bash-input>cat NOTES</bash-input>", "the parser"]
    assert worth_keeping(typed_prompts(messages)) is None
    said = [*messages, UserMessage.text("remember that I prefer tabs")]
    assert worth_keeping(typed_prompts(said)) == "asked to remember"
