"""Whether some turns hold something worth remembering: a cheap look at what the user
typed, with no model request, before a memory extraction is paid for.

    typed_prompts(messages) -> list[str]     the user's own words in those messages
    worth_keeping(prompts)  -> str | None    the first sign found, by kind, or None

Only the user's own words count. Tool results, the harness's meta messages, system
reminders (attached files, resources), shell output, a slash command's stored body (its
arguments count) and fenced code pasted into a prompt say nothing about the user, their
preferences or the project, so they are left out. What counts
(a few patterns per kind, case-insensitive):

    asked to remember    "remember", "keep in mind", "from now on", "next time", ...
    preference           "I prefer/like/hate ...", "please always/never ...",
                         "always use ...", "don't ever ...", "I'd rather ..."
    correction           a prompt opening with "no," / "wrong" / "actually", "that's not
                         right", "I told you", "you should(n't)", "instead of"
    about the user       "I'm a ...", "I work on ...", "my role/team/manager ..."
    about the project    "we use/deploy/decided ...", "our team/deadline/convention ...",
                         deadlines, freezes, releases, dates, where outside things live

Task prompts ("what does a.py do?", "fix the failing test", "run it again") match none
of them. The patterns lean towards running: a false alarm costs one extraction that
saves nothing, a miss loses a memory for good.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from cc.models.content_blocks import TextBlock
from cc.models.messages import Message, UserMessage

#: What a prompt holds that the user did not say now: reminders (attached files,
#: resources), a shell command's output, a local command's output, pasted code.
_NOT_SAID = re.compile(r"<(system-reminder|bash-stdout|bash-stderr|local-command-stdout|"
                       r"local-command-stderr)>.*?</\1>|```.*?(?:```|\Z)", re.S)
#: A slash command's message: only its arguments were typed (the body is a stored file).
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)

_VERBS = (r"(?:use|using|do|doing|run|running|write|writing|put|add|adding|call|make|"
          r"commit|push|ask|format|name|keep|include|mention|touch|edit|change|test|check|"
          r"deploy|merge|rebase|squash|reformat|rename|delete|remove|import|install|"
          r"update|upgrade|create|start|leave|skip|go|work|try|assume|print|log|send)")
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
          r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.I | re.M)


#: Each kind of sign and its patterns, in the order they are tried.
SIGNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("asked to remember", _any(
        r"\bremember\b", r"\bmemori[sz]e\b", r"\b(?:don't|do not) forget\b",
        r"\bkeep in mind\b", r"\bbear in mind\b", r"\bmake a note\b", r"\bnote that\b",
        r"\bfor future reference\b", r"\bfrom now on\b", r"\bgoing forward\b",
        r"\bnext time\b", r"\bevery time you\b", r"\bin (?:the )?future\b")),
    ("preference", _any(
        r"\bI (?:really |strongly |usually |generally )?(?:prefer|like|love|hate|dislike|"
        r"can't stand|care about|want you to|expect you to)\b",
        r"\bI'?d (?:rather|prefer|like you to)\b", r"\bmy (?:preference|preferred)\b",
        r"\bplease (?:always|never|don't|do not|stop|avoid)\b",
        rf"\b(?:always|never)\s+(?:\w+\s+)?{_VERBS}\b",
        rf"\b(?:don't|do not) (?:ever )?{_VERBS}\b.*\b(?:again|anymore|ever)\b",
        r"\bstop (?:using|doing|adding|writing|asking|making|putting|calling)\b",
        r"\b(?:by default|as a rule|as a habit)\b")),
    ("correction", _any(
        r"^\s*(?:no|nope|wrong|not quite|not like that|actually|wait)\b[,.!:;\s]",
        r"\b(?:that's|that is|this is|it's|it is) (?:wrong|incorrect|not (?:right|correct|"
        r"what I (?:asked|meant|wanted)))\b",
        r"\bI (?:said|told you|asked you|already said|meant)\b",
        r"\byou (?:should(?:n't| not)?|must(?:n't| not)|keep|forgot|missed|broke|ignored)\b",
        r"\binstead of\b", r"\bwhy did you\b", r"\bthat's not how\b")),
    ("about the user", _any(
        r"\bI(?:'m| am) (?:a|an|the|on|in|new|responsible|working|the only|used to|"
        r"not a|not the|mostly|more of)\b",
        r"\bI (?:work|worked|maintain|own|lead|manage|mostly)\b",
        r"\bI(?:'ve| have) (?:been|worked|used|never|always)\b",
        r"\bmy (?:name|role|team|job|title|manager|boss|background|experience|company|"
        r"setup|workflow|editor|machine|laptop|os|timezone|time zone)\b",
        r"\bas an? (?:\w+ )?(?:engineer|developer|designer|scientist|manager|student|"
        r"maintainer|researcher|admin|lead)\b")),
    ("about the project", _any(
        r"\bwe(?:'re| are)? (?:use|using|deploy|ship|release|decided|agreed|prefer|follow|"
        r"switched|moved|migrated|moving|migrating|don't|do not|never|always|only|must|"
        r"can't|cannot|have a|target|support)\b",
        r"\bour (?:team|project|company|org|organi[sz]ation|convention|conventions|policy|"
        r"style|process|deadline|release|customers?|clients?|users|ci|pipeline|stack|"
        r"staging|production|prod|infra|infrastructure|lead|manager|tracker|wiki|docs|"
        r"dashboard|runbook|on-?call|codebase|standards?|rule|rules)\b",
        r"\b(?:deadline|code freeze|release freeze|feature freeze|merge freeze|launch date|"
        r"release date|due date|milestone|sprint|on-?call|postmortem|compliance|legal)\b",
        r"\b(?:the|this) (?:team|client|customer|stakeholders?|legal team|security team)\b",
        r"\b\d{4}-\d{2}-\d{2}\b", rf"\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?\b",
        rf"\b(?:on|by|until|before|after|every|next) {_WEEKDAY}s?\b",
        r"\b(?:tracked|filed|documented|discussed|lives?|kept) (?:in|on|at) (?:the )?"
        r"(?:jira|linear|github issues|notion|confluence|slack|wiki|grafana|datadog|"
        r"sentry|https?://)",
        r"\b(?:runbook|playbook|on-call rota)\b")),
)


def typed_prompts(messages: Sequence[Message]) -> list[str]:
    """The user's own words in `messages`: the text of their prompts, without tool
    results, meta messages, system reminders or fenced code."""
    prompts = []
    for message in messages:
        if not isinstance(message, UserMessage) or message.is_meta:
            continue
        text = "\n".join(b.text for b in message.content if isinstance(b, TextBlock))
        if "<command-name>" in text:
            text = " ".join(_COMMAND_ARGS.findall(text))
        text = _NOT_SAID.sub(" ", text).strip()
        if text:
            prompts.append(text)
    return prompts


def worth_keeping(prompts: Iterable[str]) -> str | None:
    """The kind of the first sign in `prompts` that something is worth remembering (see
    SIGNS), or None when they hold none."""
    for prompt in prompts:
        prompt = prompt.replace("\u2019", "'")  # a typographic apostrophe, as typed on some keyboards
        for kind, pattern in SIGNS:
            if pattern.search(prompt):
                return kind
    return None
