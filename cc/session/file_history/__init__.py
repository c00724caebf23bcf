"""Checkpoints: the files tools change, backed up before each change, so that a rewind
can put them back as they were before an earlier prompt (`/rewind`, `rewind_files`).

    records.py   what a snapshot and a backup are, and their transcript lines
    backups.py   the backup files under `<config>/file-history/<session-id>/`
    store.py     FileHistory: snapshot at each prompt, back up before each write
    rewind.py    what a rewind would change, and doing it
    wiring.py    when a session keeps them; the engine's factory for them
"""
