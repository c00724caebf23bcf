"""Sessions: transcripts under `<config>/projects/`, and loading them back.

- paths: where a project's transcripts live
- transcript: TranscriptWriter, appending messages as they happen (crash- and race-safe);
  lines: the line format; entry: one parsed line; git: the branch lines record
- attach: the session's conversation at start (-c, -r, --fork-session, a new one)
- loader: load_session / validate_transcript, reading back, repairing, reporting
  (chain: the conversation's lines; preserved: what a partial compaction kept by uuid;
  decode: lines to messages; repair: what an abrupt end left)
- listing: find_latest_session, list_sessions, find_session_by_id
- resume: resume_writer (-c/-r, same file), fork_session (--fork-session, new id)
- cleanup: cleanup_transcripts, start-up retention (`cleanupPeriodDays`)
- history: the prompt history (`history.jsonl`)
- file_history: checkpoints of the files tools change (`<config>/file-history/`);
  rewind: back to before an earlier prompt (its code, its conversation, or both)
"""
