"""Skills: a folder with a `SKILL.md` whose body the model (or the user) loads on demand.

    .claude/skills/<name>/SKILL.md        project (beats a user skill of the same name)
    <config>/skills/<name>/SKILL.md       user

The name is the folder's (frontmatter `name` is only a label); frontmatter `description`,
`allowed-tools`, `model`, `disable-model-invocation` and `argument-hint` are read as a
custom command's are. A skill is a `CustomCommand` whose `base_dir` is its folder: `/name`
runs it like a command, and the Skill tool hands its body to the model (`skill_text`).
Only the listing (`- name: description`) sits in context; the body comes when the skill
is used, and the files beside it when the model reads them. A `SKILL.md` whose
frontmatter does not parse is skipped with a warning naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cc.config.env import commands_disabled
from cc.config.frontmatter import parse_frontmatter
from cc.errors import FrontmatterError
from cc.input.custom import CustomCommand, substitute_arguments
from cc.tools.skill import StartedSkill

__all__ = ["SkillLibrary", "SkillScan", "find_skill", "load_skills", "skill_listing", "skill_text"]

SKILL_FILE = "SKILL.md"


@dataclass(frozen=True)
class SkillScan:
    skills: list[CustomCommand] = field(default_factory=list)
    #: One line per skipped `SKILL.md`, naming the file.
    warnings: list[str] = field(default_factory=list)


def skill_dirs(cwd: Path, config_dir: Path) -> list[tuple[str, Path]]:
    return [("project", cwd / ".claude" / "skills"), ("user", config_dir / "skills")]


def load_skills(cwd: Path, config_dir: Path) -> SkillScan:
    """Every skill found, a project's before a user's of the same name."""
    found: dict[str, CustomCommand] = {}
    warnings: list[str] = []
    for scope, root in () if commands_disabled() else skill_dirs(cwd, config_dir):
        if not root.is_dir():
            continue
        for path in sorted(root.glob(f"*/{SKILL_FILE}")):
            if path.parent.name in found or not path.is_file():
                continue
            try:
                found[path.parent.name] = parse_skill_file(path, scope)
            except FrontmatterError as exc:
                warnings.append(f"Skipped the skill {path}: {exc}")
            except OSError as exc:
                warnings.append(f"Skipped the skill {path}: {exc.strerror or exc}")
    return SkillScan(list(found.values()), warnings)


def parse_skill_file(path: Path, scope: str) -> CustomCommand:
    """Raises FrontmatterError (frontmatter not a YAML mapping) or OSError."""
    from cc.input.custom import command_from

    meta, body = parse_frontmatter(path.read_text(encoding="utf-8", errors="replace"))
    return command_from(meta, body, name=path.parent.name, scope=scope, path=path,
                        base_dir=path.parent.resolve())


def find_skill(skills: list[CustomCommand], name: str) -> CustomCommand | None:
    """The skill called `name` (a leading `/` is forgiven)."""
    name = name.strip().removeprefix("/")
    return next((s for s in skills if s.name == name), None)


def skill_listing(skills: list[CustomCommand]) -> list[str]:
    """The model's lines, `- name: description`; skills it may not invoke are left out."""
    return [f"- {s.name}: {s.description}" if s.description else f"- {s.name}"
            for s in skills if not s.disable_model_invocation]


def skill_text(skill: CustomCommand, args: str, *, session_id: str = "",
               project_dir: Path | None = None) -> str:
    """What the model reads when the skill starts: its folder, then its body with the
    arguments (`$ARGUMENTS`, `$0`, `$1`…) and `${CLAUDE_SKILL_DIR}` filled in."""
    base = skill.base_dir or skill.path.parent
    variables = {"CLAUDE_SKILL_DIR": str(base)}
    if session_id:
        variables["CLAUDE_SESSION_ID"] = session_id
    if project_dir is not None:
        variables["CLAUDE_PROJECT_DIR"] = str(project_dir)
    body = substitute_arguments(skill.body, args.strip(), variables=variables)
    return f"{base_line(base)}\n\n{body.strip()}"


def base_line(base: Path) -> str:
    return f"Base directory for this skill: {base}"


class SkillLibrary:
    """The Skill tool's source: the skills of a project and a config folder, looked up
    again on each use (a skill added mid-session shows up)."""

    def __init__(self, cwd: Path, config_dir: Path) -> None:
        self.cwd, self.config_dir = cwd, config_dir

    def listing(self) -> list[str]:
        return skill_listing(load_skills(self.cwd, self.config_dir).skills)

    def start(self, name: str, args: str) -> StartedSkill | str:
        skill = find_skill(load_skills(self.cwd, self.config_dir).skills, name)
        if skill is None:
            return f"Unknown skill: {name.strip()}"
        if skill.disable_model_invocation:
            return (f"The skill {skill.name} is for the user to run (/{skill.name}); it "
                    "cannot be started with this tool.")
        text = skill_text(skill, args, project_dir=self.cwd)
        return StartedSkill(skill.name, text, skill.allowed_tools)
