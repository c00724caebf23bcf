"""The shared task list (TaskCreate/TaskGet/TaskList/TaskUpdate keep it on disk)."""

from cc.tasks.store import (
    LIST_ID_ENV,
    Task,
    TaskStore,
    UnknownTask,
    canonical_id,
    chosen_list_id,
    list_id_for,
)

__all__ = ["LIST_ID_ENV", "Task", "TaskStore", "UnknownTask", "canonical_id", "chosen_list_id",
           "list_id_for"]
