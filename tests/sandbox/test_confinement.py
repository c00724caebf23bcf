"""What a sandboxed command can and cannot do (real bubblewrap, real files)."""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.sandbox.conftest import Box, needs_bwrap
from tests.waiting import wait_for_async

pytestmark = needs_bwrap


async def test_writes_inside_the_project_succeed(box: Box) -> None:
    result = await box.bash("mkdir -p sub && echo hi > sub/f.txt && cat sub/f.txt")
    assert not result.is_error, result.content
    assert (box.root / "sub" / "f.txt").read_text() == "hi\n"


async def test_writes_outside_fail_and_the_model_is_told_why(box: Box) -> None:
    target = box.outside / "escaped.txt"
    result = await box.bash(f"echo x > {target}")
    assert result.is_error
    assert not target.exists()
    assert "Read-only file system" in result.content
    assert "may be the sandbox's doing" in result.content
    assert "dangerouslyDisableSandbox" in result.content


async def test_a_symlink_to_outside_cannot_be_written_through(box: Box) -> None:
    victim = box.outside / "victim.txt"
    victim.write_text("original\n")
    (box.root / "link").symlink_to(victim)
    (box.root / "dirlink").symlink_to(box.outside)
    result = await box.bash("echo changed > link; echo new > dirlink/planted; true")
    assert not result.is_error
    assert victim.read_text() == "original\n"
    assert not (box.outside / "planted").exists()


@pytest.mark.parametrize("path", [".claude/settings.json", ".claude/settings.local.json",
                                  ".git/hooks/pre-commit", ".mcp.json", ".bashrc",
                                  ".claude/commands/evil.md", ".git/config",
                                  ".ssh/authorized_keys", ".aws/credentials"])
async def test_protected_files_that_do_not_exist_cannot_be_created(box: Box, path: str) -> None:
    result = await box.bash(f"mkdir -p $(dirname {path}); echo x > {path}")
    assert result.is_error
    assert not (box.root / path).exists() or (box.root / path).read_text() == ""
    # The placeholders bubblewrap needed leave nothing behind.
    assert sorted(p.name for p in box.root.iterdir()) == [], list(box.root.rglob("*"))


async def test_a_git_file_instead_of_a_folder_is_fine(box: Box) -> None:
    (box.root / ".git").write_text("gitdir: /somewhere/else\n")  # a worktree
    result = await box.bash("echo ok > made && cat .git")
    assert not result.is_error, result.content
    assert (box.root / ".git").read_text() == "gitdir: /somewhere/else\n"


async def test_existing_protected_files_cannot_be_changed(box: Box) -> None:
    (box.root / ".git" / "hooks").mkdir(parents=True)
    (box.root / ".git" / "config").write_text("[core]\n")
    (box.root / ".claude").mkdir()
    (box.root / ".claude" / "settings.json").write_text("{}\n")
    (box.root / ".bashrc").write_text("# rc\n")
    result = await box.bash(
        "echo evil >> .git/config; echo evil > .claude/settings.json; echo evil >> .bashrc;"
        " echo evil > .git/hooks/pre-commit; rm -f .bashrc; true")
    assert not result.is_error
    assert (box.root / ".git" / "config").read_text() == "[core]\n"
    assert (box.root / ".claude" / "settings.json").read_text() == "{}\n"
    assert (box.root / ".bashrc").read_text() == "# rc\n"
    assert not (box.root / ".git" / "hooks" / "pre-commit").exists()
    # Ordinary files next to them stay writable.
    result = await box.bash("echo ok > .git/HEAD && echo ok > .claude/notes.md")
    assert not result.is_error, result.content


async def test_no_network_with_an_empty_allow_list(box: Box) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        probe = f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected"
        inside = await box.bash(probe)
        assert inside.is_error
        assert "connected" not in inside.content
        assert "no network access" in inside.content
        outside = await box.bash(probe, dangerouslyDisableSandbox=True)
        assert "connected" in outside.content, outside.content


def _processes_with(token: str) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if token.encode() in cmdline:
                pids.append(int(entry))
    return pids


async def test_background_processes_die_with_the_command(box: Box) -> None:
    seconds = f"{900000 + secrets.randbelow(99999)}"
    result = await box.bash(f"(sleep {seconds} &) ; sleep {seconds} & echo started")
    assert not result.is_error and "started" in result.content
    await wait_for_async(lambda: not _processes_with(f"sleep\0{seconds}"),
                         what="the sandbox's leftover sleeps ending")


async def test_run_in_background_is_sandboxed_too(box: Box) -> None:
    target = box.outside / "bg.txt"
    result = await box.bash(f"echo x > {target}; echo status $?", run_in_background=True)
    task_id = result.data["backgroundTaskId"]
    tasks = box.ctx.tasks
    assert tasks is not None
    assert await tasks.wait(task_id, 30)
    assert "status 1" in tasks.read_new_output(task_id)
    assert not target.exists()


async def test_no_new_privileges_and_no_capabilities(box: Box) -> None:
    result = await box.bash("grep -E '^(NoNewPrivs|Cap...):' /proc/self/status")
    fields = dict(line.split(":\t") for line in result.content.splitlines())
    assert fields["NoNewPrivs"].strip() == "1"
    for name in ("CapEff", "CapPrm", "CapInh", "CapAmb"):
        assert int(fields[name], 16) == 0, (name, fields)


async def test_a_setuid_copy_gains_nothing(box: Box) -> None:
    helper = box.root / "myid"
    helper.write_bytes(Path("/usr/bin/id").read_bytes())
    helper.chmod(0o4755)
    result = await box.bash("./myid -u; setpriv --dump 2>/dev/null | grep -i 'no_new_privs' ; "
                            "grep CapEff /proc/self/status")
    assert "CapEff:\t0000000000000000" in result.content
    assert "no_new_privs: 1" in result.content or "setpriv" not in result.content


async def test_deny_read_hides_files_and_folders(box_factory: Callable[..., Box],
                                                 outside: Path) -> None:
    secrets_dir = outside / "keys"
    secrets_dir.mkdir(parents=True)
    (secrets_dir / "id").write_text("TOP SECRET\n")
    (outside / "token").write_text("TOKEN\n")
    box = box_factory({"filesystem": {"denyRead": [f"/{secrets_dir}", f"/{outside}/token"]}},
                      permissions={"deny": ["Read(./private.txt)"]})
    (box.root / "private.txt").write_text("PRIVATE\n")
    (box.root / "public.txt").write_text("PUBLIC\n")
    control = await box.bash(f"cat {secrets_dir}/id", dangerouslyDisableSandbox=True)
    assert "TOP SECRET" in control.content
    result = await box.bash(f"cat {secrets_dir}/id {outside}/token private.txt "
                            "public.txt; ls -A " + str(secrets_dir))
    assert "TOP SECRET" not in result.content
    assert "TOKEN" not in result.content
    assert "PRIVATE" not in result.content
    assert "PUBLIC" in result.content


async def test_allow_write_and_edit_rules_add_writable_folders(
        box_factory: Callable[..., Box], outside: Path) -> None:
    extra = outside / "build"
    other = outside / "cache"
    extra.mkdir(parents=True)
    other.mkdir()
    box = box_factory({"filesystem": {"allowWrite": [f"//{extra}"]}},
                      permissions={"allow": [f"Edit(/{other}/**)"]})
    result = await box.bash(f"echo a > {extra}/a && echo b > {other}/b")
    assert not result.is_error, result.content
    assert (extra / "a").exists() and (other / "b").exists()


async def test_cd_and_export_carry_over_and_the_sandbox_env_does_not(box_factory) -> None:
    box = box_factory({"excludedCommands": ["printenv"]})
    (box.root / "sub").mkdir()
    assert not (await box.bash("cd sub && export FOO=carried")).is_error
    result = await box.bash("pwd; echo $FOO; echo $TMPDIR")
    assert result.content.splitlines() == [str(box.root / "sub"), "carried", "/tmp"]
    outside = await box.bash("printenv FOO; printenv TMPDIR || echo unset")  # excluded
    assert outside.content.splitlines() == ["carried", os.environ.get("TMPDIR", "unset")]


async def test_private_tmp(box: Box) -> None:
    marker = Path("/tmp") / f"cc-sandbox-marker-{secrets.token_hex(4)}"
    marker.write_text("host\n")
    try:
        result = await box.bash(f"cat {marker}; echo mine > {marker} && cat {marker}")
        assert result.content.splitlines()[-1] == "mine"
        assert marker.read_text() == "host\n"
    finally:
        marker.unlink()


async def test_excluded_commands_run_outside(box_factory: Callable[..., Box]) -> None:
    box = box_factory({"excludedCommands": ["touch", "git push *"]})
    target = box.outside / "made"
    result = await box.bash(f"cd {box.root} && touch {target}")
    assert not result.is_error, result.content
    assert target.exists()


async def test_disable_sandbox_refused_when_unsandboxed_commands_are_not_allowed(
        box_factory: Callable[..., Box]) -> None:
    box = box_factory({"allowUnsandboxedCommands": False})
    target = box.outside / "made"
    result = await box.bash(f"touch {target}", dangerouslyDisableSandbox=True)
    assert not target.exists()
    assert "dangerouslyDisableSandbox was refused" in result.content
    assert "not allowed" in result.content


async def test_fail_if_unavailable_refuses(box_factory: Callable[..., Box],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC_SANDBOX_BWRAP", "/nonexistent/bwrap")
    box = box_factory({"failIfUnavailable": True})
    result = await box.bash("echo hi > made")
    assert result.is_error
    assert "sandbox is required" in result.content and "apt-get install bubblewrap" in result.content
    assert not (box.root / "made").exists()


async def test_timeout_kills_a_sandboxed_command(box: Box) -> None:
    result = await box.bash("sleep 600", timeout=300)
    assert result.data["interrupted"] is True


async def test_sandbox_command_names_bubblewrap_and_its_version(box: Box) -> None:
    found = box.sandbox.bubblewrap()
    assert found.usable and found.version and found.version[0].isdigit()
