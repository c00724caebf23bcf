"""Checkpoints: the files tools change, backed up before each change, so that a rewind
can put them back as they were before an earlier prompt (`/rewind`, `rewind_files`).

    records.py   what a snapshot and a backup are, and their transcript lines
    backups.py   the backup files under `<config>/file-history/<session-id>/`
    store.py     FileHistory: snapshot at each prompt, back up before each write
    rewind.py    what a rewind would change, and doing it
"""

from cc.session.file_history.records import Backup, Snapshot
from cc.session.file_history.rewind import RewindPlan
from cc.session.file_history.store import FileHistory, history_folder

__all__ = ["Backup", "FileHistory", "RewindPlan", "Snapshot", "history_folder"]
