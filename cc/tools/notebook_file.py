"""A Jupyter notebook as Read and NotebookEdit see it: parsed JSON, cells found by id.

A notebook here is nbformat 4 JSON held as plain dicts, so what cc does not touch is
written back as it was. A cell is named by its `id`, or, when it has none (nbformat
before 4.5), by its index as `cell-N`, the form Read shows. `nbformat` (the format's
reference implementation) is imported only by `validity_problem`, when an edit is made.
"""

from __future__ import annotations

import json
import re
from typing import Any

Cell = dict[str, Any]
NotebookData = dict[str, Any]

_INDEX_ID = re.compile(r"cell-(\d+)")


def parse_notebook(raw: bytes) -> NotebookData | str:
    """The notebook in `raw`, or why it is not one."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return "Notebook is not valid UTF-8 text."
    except json.JSONDecodeError as e:
        return f"Notebook is not valid JSON: {e}."
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        return "This is not a Jupyter notebook: its JSON has no list of cells."
    if data.get("nbformat") != 4:
        return (f"Only nbformat 4 notebooks are supported; this one is format "
                f"{data.get('nbformat')}. Convert it with `jupyter nbconvert --to notebook`.")
    if not all(isinstance(c, dict) for c in data["cells"]):
        return "This is not a Jupyter notebook: a cell is not a JSON object."
    return data


def text_of(value: Any) -> str:
    """A multiline string field (`source`, stream text), given as a string or a list."""
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return value if isinstance(value, str) else ""


def source_of(cell: Cell) -> str:
    return text_of(cell.get("source"))


def cell_ref(cell: Cell, index: int) -> str:
    """The name the model uses for a cell: its id, or `cell-N` when it has none."""
    cell_id = cell.get("id")
    return cell_id if isinstance(cell_id, str) and cell_id else f"cell-{index}"


def find_cell(data: NotebookData, cell_id: str, *, allow_end: bool = False) -> int | str:
    """The index of the cell named `cell_id` (an id, else `cell-N`), or why there is none.
    `allow_end`: `cell-<number of cells>` names the place after the last cell."""
    cells: list[Cell] = data["cells"]
    for i, cell in enumerate(cells):
        if cell.get("id") == cell_id:
            return i
    m = _INDEX_ID.fullmatch(cell_id)
    if m is None:
        return f'Cell with ID "{cell_id}" not found in notebook.'
    index = int(m.group(1))
    if index < len(cells) or (allow_end and index == len(cells)):
        return index
    return f"Cell with index {index} does not exist in notebook (it has {len(cells)} cells)."


def has_ids(data: NotebookData) -> bool:
    """Whether the notebook's cells carry ids (nbformat 4.5 and later)."""
    minor = data.get("nbformat_minor")
    return isinstance(minor, int) and minor >= 5


def language_of(data: NotebookData) -> str:
    metadata = data.get("metadata")
    if isinstance(metadata, dict):
        for key, field in (("language_info", "name"), ("kernelspec", "language")):
            section = metadata.get(key)
            if isinstance(section, dict) and isinstance(section.get(field), str):
                return section[field]
    return "python"


def serialise(data: NotebookData, final_newline: bool) -> str:
    """The notebook as Claude Code writes it: JSON indented by one space, every cell's
    source one string."""
    for cell in data["cells"]:
        if "source" in cell:
            cell["source"] = source_of(cell)
    text = json.dumps(data, indent=1, ensure_ascii=False)
    return text + "\n" if final_newline else text


def validity_problem(data: NotebookData) -> str | None:
    """Blocking: what makes `data` an invalid notebook by nbformat's schema, if anything
    (or by its rule that cell ids are unique)."""
    from nbformat.validator import iter_validate

    if not isinstance(data.get("nbformat_minor", 0), int):
        return "nbformat_minor is not an integer"
    seen: set[str] = set()
    for cell_id in (c["id"] for c in data["cells"] if isinstance(c.get("id"), str)):
        if cell_id in seen:
            return f"the cell id {cell_id!r} is used twice"
        seen.add(cell_id)
    for error in iter_validate(data):
        where = "/".join(str(p) for p in getattr(error, "absolute_path", ()) or ())
        message = str(getattr(error, "message", error)).split("\n", 1)[0]
        return f"{message} (at {where})" if where else message
    return None
