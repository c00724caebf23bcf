"""`rewind_files {user_message_id, dry_run?}`: the code only, back to before a prompt.

Answered as Claude Code answers: `{"canRewind": true, "skippedLinks": 0}` once done;
with `dry_run`, what would change (`filesChanged`, `insertions`, `deletions`) and
nothing touched; `{"canRewind": false, "error"}` when a backup is missing; an error
response for a message with no checkpoint. The conversation is left as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cc.ui.sdk.host import Host

NOT_ENABLED = ("File checkpointing is not enabled for this session "
               "(set CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true).")


async def rewind_files(host: Host, body: dict[str, Any]) -> dict[str, Any]:
    from cc.session.file_history.store import NO_CHECKPOINT
    from cc.session.rewind import history_of
    from cc.ui.sdk.host import ControlError

    message_id = body.get("user_message_id")
    if not isinstance(message_id, str) or not message_id:
        raise ControlError("rewind_files needs a user_message_id")
    history = history_of(host.session.engine)
    if history is None:
        raise ControlError(NOT_ENABLED)
    dry_run = body.get("dry_run") is True
    outcome = await (history.plan(message_id) if dry_run else history.rewind(message_id))
    if outcome == NO_CHECKPOINT:
        raise ControlError(NO_CHECKPOINT)
    if isinstance(outcome, str):
        return {"canRewind": False, "error": outcome}
    if dry_run:
        return {"canRewind": True, "filesChanged": outcome.files,
                "insertions": outcome.insertions, "deletions": outcome.deletions}
    return {"canRewind": True, "skippedLinks": 0}
