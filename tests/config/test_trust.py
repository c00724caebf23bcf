from __future__ import annotations

import json
from pathlib import Path

import pytest

from cc.config.trust import global_state_path, is_trusted, set_trusted


def test_trust_is_remembered_and_inherited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    project = tmp_path / "work" / "proj"
    (project / "sub").mkdir(parents=True)
    assert not is_trusted(config, project)
    set_trusted(config, project)
    assert is_trusted(config, project)
    assert is_trusted(config, project / "sub")
    assert not is_trusted(config, tmp_path / "work")
    state = json.loads(global_state_path(config).read_text())
    assert state["projects"][str(project.resolve())]["hasTrustDialogAccepted"] is True


def test_other_keys_kept_and_broken_file_not_clobbered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    state = global_state_path(config)
    state.write_text(json.dumps({"numStartups": 3, "projects": {"/x": {"a": 1}}}))
    set_trusted(config, tmp_path)
    data = json.loads(state.read_text())
    assert data["numStartups"] == 3 and data["projects"]["/x"] == {"a": 1}
    state.write_text("{broken")
    with pytest.raises(OSError):
        set_trusted(config, tmp_path / "other")
    assert state.read_text() == "{broken"
    assert not is_trusted(config, tmp_path / "other")


def test_without_config_dir_the_state_is_in_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert global_state_path(tmp_path / ".claude") == tmp_path / ".claude.json"
