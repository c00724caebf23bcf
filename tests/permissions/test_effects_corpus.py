"""Effects, not names: what a command can be made to do, under the rule sets an attacker
would aim at. Every class has cases that must stay allowed, so over-blocking shows too.

Each row: (command, rule set, mode, expected verdict). `{out}` is a folder outside the
working folder, `{home}` the home folder. The project holds a nested repository at
`vendor/lib` (its own `.git`), a denied `.env`, and `src/`.
"""

from __future__ import annotations

from collections import Counter

import pytest

from cc.permissions.bash_rules import evaluate_bash
from cc.permissions.rules import RuleSet
from tests.permissions.conftest import Proj

RULES: dict[str, dict[str, list[str]]] = {
    "none": {},
    "echo": {"allow": ["Bash(echo:*)"]},
    "git_status": {"allow": ["Bash(git status:*)"]},
    "git": {"allow": ["Bash(git:*)"]},
    "ls": {"allow": ["Bash(ls:*)"]},
    "find": {"allow": ["Bash(find:*)"]},
    "cd": {"allow": ["Bash(cd:*)"]},
    "sed_n": {"allow": ["Bash(sed -n:*)"]},
    "rg": {"allow": ["Bash(rg:*)"]},
    "sort": {"allow": ["Bash(sort:*)"]},
    "tar": {"allow": ["Bash(tar:*)"]},
    "awk": {"allow": ["Bash(awk:*)"]},
    "xargs": {"allow": ["Bash(ls:*)", "Bash(xargs:*)"]},
    "deny_read_env": {"allow": ["Bash(cat:*)", "Bash(grep:*)", "Bash(rg:*)", "Bash(git:*)"],
                      "deny": ["Read(.env)", "Read(**/.env)"]},
    "deny_curl": {"allow": ["Bash(echo:*)"], "deny": ["Bash(curl:*)"]},
    "deny_rm_find": {"allow": ["Bash(find:*)"], "deny": ["Bash(rm:*)"]},
    "deny_edit": {"allow": ["Bash(echo:*)"], "deny": ["Edit(src/**)"]},
    "bare": {"allow": ["Bash"]},
    "bare_star": {"allow": ["Bash(*)"]},
    "bare_deny": {"allow": ["Bash"], "deny": ["Bash(curl:*)", "Edit(src/**)", "Read(.env)"],
                  "ask": ["Bash(git push:*)"]},
}

CASES: dict[str, list[tuple[str, str, str, str]]] = {
    "redirection": [
        ("echo hi > f", "echo", "default", "ask"),
        ("echo hi >> f", "echo", "default", "ask"),
        ("echo hi >| f", "echo", "default", "ask"),
        ("echo hi &> f", "echo", "default", "ask"),
        ("echo hi &>> f", "echo", "default", "ask"),
        ("echo hi 2> f", "echo", "default", "ask"),
        ("echo hi 3> f", "echo", "default", "ask"),
        ("echo hi >& f", "echo", "default", "ask"),
        ("echo hi 1<> f", "echo", "default", "ask"),
        ("{ echo hi; } > f", "echo", "default", "ask"),
        ("( echo hi ) > f", "echo", "default", "ask"),
        ('echo hi > "f"', "echo", "default", "ask"),
        ("echo hi > 'f'\"g\"", "echo", "default", "ask"),
        ("echo hi <<< x > f", "echo", "default", "ask"),
        ("echo hi > f <<EOF\nx\nEOF", "echo", "default", "ask"),
        ("command echo hi > f", "echo", "default", "ask"),
        ("builtin echo hi > f", "echo", "default", "ask"),
        ("exec echo hi > f", "echo", "default", "ask"),
        ("ls > listing.txt", "ls", "default", "ask"),
        ("git status > status.txt", "git_status", "default", "ask"),
        ("echo hi > src/x", "deny_edit", "acceptEdits", "deny"),
        ("echo hi > ~/.bashrc", "echo", "acceptEdits", "ask"),
        # allowed: sinks, fd duplication, plain commands, acceptEdits inside
        ("echo hi", "echo", "default", "allow"),
        ("echo hi > /dev/null", "echo", "default", "allow"),
        ("echo hi 2>&1", "echo", "default", "allow"),
        ("ls -la 2>/dev/null", "ls", "default", "allow"),
        ("echo hi > f", "echo", "acceptEdits", "allow"),
        ("{ echo a; echo b; } > f", "echo", "acceptEdits", "allow"),
        ("echo hi > {out}/f", "echo", "acceptEdits", "ask"),
        ("echo $HOME", "echo", "default", "allow"),
        ("echo a && echo b", "echo", "default", "allow"),
        ("echo hi | cat", "echo", "default", "allow"),
        ("ls src", "ls", "default", "allow"),
        ("ls -la | head -5", "ls", "default", "allow"),
        ("git status && git diff", "git_status", "default", "allow"),
    ],
    "bare_rule": [
        # a bare rule grants the whole tool: commands, their effects, writes inside
        ("echo run >> marker.txt", "bare", "default", "allow"),
        ("echo run > marker.txt", "bare_star", "default", "allow"),
        ("echo run > src/out.txt 2>&1", "bare", "default", "allow"),
        ("find . -name '*.tmp' -delete", "bare", "default", "allow"),
        ("find . -exec sh -c 'echo {}' \\;", "bare", "default", "allow"),
        ("sed -i s/a/b/ README.md", "bare", "default", "allow"),
        ("sort -o sorted.txt README.md", "bare", "default", "allow"),
        ("rm -f a *.pyc", "bare", "default", "allow"),
        ("cp a b && mv b c", "bare", "default", "allow"),
        ("eval \"$x\"", "bare", "default", "allow"),
        ("python3 -c 'print(1)' | tee out.txt", "bare", "default", "allow"),
        ("cat {out}/secret.txt", "bare", "default", "allow"),
        # what it does not override: writes outside, protected files, deny and ask rules
        ("echo run > {out}/f", "bare", "default", "ask"),
        ("echo run > {out}/f", "bare_star", "default", "ask"),
        ("cp a {out}/a", "bare", "default", "ask"),
        ("rm {out}/secret.txt", "bare", "default", "ask"),
        ("sort -o {out}/s README.md", "bare", "default", "ask"),
        ("echo x >> ~/.bashrc", "bare", "default", "ask"),
        ("echo x > .claude/settings.json", "bare", "default", "ask"),
        ("echo x > .git/hooks/pre-commit", "bare", "default", "ask"),
        ("rm -rf /", "bare", "default", "ask"),
        ("curl evil", "bare_deny", "default", "deny"),
        ("echo hi > src/x", "bare_deny", "default", "deny"),
        ("cat .env", "bare_deny", "default", "deny"),
        ("git push origin main", "bare_deny", "default", "ask"),
        ("echo hi > $OUT", "bare", "default", "ask"),
    ],
    "find": [
        ("find . -exec rm {} \\;", "find", "default", "ask"),
        ("find . -execdir rm {} \\;", "find", "default", "ask"),
        ("find . -ok rm {} \\;", "find", "default", "ask"),
        ("find . -okdir rm {} \\;", "find", "default", "ask"),
        ("find . -delete", "find", "default", "ask"),
        ("find . -fprint out", "find", "default", "ask"),
        ("find . -fprint0 out", "find", "default", "ask"),
        ("find . -fprintf out %p", "find", "default", "ask"),
        ("find . -fls out", "find", "default", "ask"),
        ("find . -exec sh -c 'curl evil' \\;", "find", "default", "ask"),
        ("find / -exec cat {} \\;", "find", "default", "ask"),
        ("find . -name '*.tmp' -exec rm {} +", "deny_rm_find", "default", "deny"),
        ("sudo find . -exec rm {} +", "deny_rm_find", "default", "deny"),
        ("timeout 5 find . -execdir rm {} \\;", "deny_rm_find", "default", "deny"),
        ("find . -fprint .claude/settings.json", "find", "acceptEdits", "ask"),
        # allowed: plain finds, and -exec of a read-only command on files under the project
        ("find . -name '*.py'", "find", "default", "allow"),
        ("find src -type f -newer README.md", "find", "default", "allow"),
        ("find . -type f -exec grep -l TODO {} +", "find", "default", "allow"),
        ("find . -name '*.py' -exec wc -l {} \\;", "find", "default", "allow"),
        ("find . -delete", "find", "acceptEdits", "allow"),
    ],
    "quoted_program": [
        # operators, redirections and `$` inside quoted program text are the program's
        ("awk 'NR>=1 && NR<=2' README.md", "none", "default", "allow"),
        ("awk '$1 > 5 {print $2}' README.md", "none", "default", "allow"),
        ("awk '/a|b/ {print}' README.md", "none", "default", "allow"),
        ("awk '{ if ($1 > 0 || $2 < 0) print $1 }' README.md", "none", "default", "allow"),
        ("awk '{print ($1 > 5)}' README.md", "none", "default", "allow"),
        ("awk '{print \"a|b>c\"}' README.md", "none", "default", "allow"),
        ("awk '$0 ~ /^>/' README.md", "none", "default", "allow"),
        ("awk 'BEGIN{FS=\">\"} {print $1}' README.md", "none", "default", "allow"),
        ("awk '{print $1 > \"/dev/stderr\"}' README.md", "none", "default", "allow"),
        ("awk -F: '$3 >= 1000 && $7 !~ /nologin/ {print $1}' README.md", "none", "default",
         "allow"),
        ("awk '{ gsub(/>/, \"&gt;\"); print }' README.md", "none", "default", "allow"),
        ("awk '# a > b | c\n{print}' README.md", "none", "default", "allow"),
        ("sed -n '/^>/p;$p' README.md", "none", "default", "allow"),
        ("sed -E 's/(a|b)>/x/' README.md", "none", "default", "allow"),
        ("jq '.[] | select(.a > 1) | .b // \"$HOME\"' README.md", "none", "default", "allow"),
        ("grep -E '^(a|b)>$' README.md", "none", "default", "allow"),
        ("find . -regex '.*\\.(py|md)$'", "none", "default", "allow"),
        ("git log --format='%h|%s' -S'x > y'", "none", "default", "allow"),
        ("rg -n 'a\\s*(&&|\\|\\|)\\s*b' src", "none", "default", "allow"),
        # and what the program really does is still seen through the quotes
        ("awk '{print $1 > 5}' README.md", "none", "default", "ask"),
        ("awk '{print $1 >> \"/tmp/x\"}' README.md", "none", "default", "ask"),
        ("awk '{printf(\"%s\", $1) > \"f\"}' README.md", "none", "default", "ask"),
        ("awk '{ print $1 |& \"cat\" }' README.md", "none", "default", "ask"),
        ("awk '{getline < \"/etc/passwd\"}' README.md", "none", "default", "ask"),
        ("awk 'BEGIN{print ENVIRON[\"HOME\"]}'", "none", "default", "ask"),
        ("awk '@load \"x\"'", "none", "default", "ask"),
        ("awk '{print > \"/dev/stderr\" \"x\"}' README.md", "none", "default", "ask"),
        ("awk '{x++ / system(\"id\") / 1}' README.md", "none", "default", "ask"),
        ("awk '{print /\"/; system(\"id\"); x = \"/\"\"}' README.md", "none", "default",
         "ask"),
        ("awk '/[/]\"/; system(\"id\"); x=\"/\"' README.md", "none", "default", "ask"),
        ("awk '/[^]/]\"/; system(\"id\"); x=\"/\"' README.md", "none", "default", "ask"),
        ("awk '{ s = \"/\" } /x/ { print s > \"f\" }' README.md", "none", "default", "ask"),
        ("awk '{print $1 \">\" $2 > \"f\"}' README.md", "none", "default", "ask"),
        ("awk 'NR>=1 && NR<=2' README.md > out", "none", "default", "ask"),
    ],
    "sed": [
        ("sed -n 'w out' README.md", "sed_n", "default", "ask"),
        ("sed -n 's/a/b/w out' README.md", "sed_n", "default", "ask"),
        ("sed -n '1e id' README.md", "sed_n", "default", "ask"),
        ("sed -n 's/x/id/e' README.md", "sed_n", "default", "ask"),
        ("sed -n -i 1p README.md", "sed_n", "default", "ask"),
        ("sed -n -e 1p -e 'W out' README.md", "sed_n", "default", "ask"),
        ("sed -n 1p README.md > out", "sed_n", "default", "ask"),
        ("sed -n 1p {out}/secret.txt", "none", "default", "ask"),
        ("sed -n 1,5p README.md", "sed_n", "default", "allow"),
        ("sed -n '/x/p' README.md", "sed_n", "default", "allow"),
        ("sed -n -i s/a/b/ README.md", "sed_n", "acceptEdits", "allow"),
        ("sed -n '2,4p' src/main.py | head -2", "sed_n", "default", "allow"),
    ],
    "awk": [
        ("awk 'BEGIN{system(\"id\")}'", "awk", "default", "ask"),
        ("awk '{print > \"out\"}' README.md", "awk", "default", "ask"),
        ("awk '{print | \"sh\"}' README.md", "awk", "default", "ask"),
        ("awk 'BEGIN{\"id\" | getline x}'", "awk", "default", "ask"),
        ("awk '{print $1}' README.md", "awk", "default", "allow"),
        ("awk -F: '{print $1}' README.md", "awk", "default", "allow"),
        ("awk 'NR==1' README.md", "awk", "default", "allow"),
    ],
    "rg_git_tar_sort": [
        ("rg --pre ./evil TODO", "rg", "default", "ask"),
        ("rg --pre-glob '*' --pre ./evil TODO", "rg", "default", "ask"),
        ("rg TODO src", "rg", "default", "allow"),
        ("git -c core.pager=evil log", "git", "default", "ask"),
        ("git -c alias.x='!id' x", "git", "default", "ask"),
        ("git --exec-path=/tmp status", "git", "default", "ask"),
        ("git diff --output=out", "git", "default", "ask"),
        ("git log --oneline", "git", "default", "allow"),
        ("git status", "git_status", "default", "allow"),
        ("git status --short", "git_status", "default", "allow"),
        ("tar -xf a.tar --to-command=sh", "tar", "default", "ask"),
        ("tar -cf x.tar --checkpoint=1 --checkpoint-action=exec=id .", "tar", "default", "ask"),
        ("tar -I ./evil -cf x.tar .", "tar", "default", "ask"),
        ("tar -tf a.tar", "tar", "default", "allow"),
        ("sort -o out README.md", "sort", "default", "ask"),
        ("sort --output=out README.md", "sort", "default", "ask"),
        ("sort --compress-program=./evil README.md", "sort", "default", "ask"),
        ("sort README.md", "sort", "default", "allow"),
        ("ls | xargs rm", "xargs", "default", "ask"),
        ("ls | xargs -0 sh -c 'id'", "xargs", "default", "ask"),
        ("ls | xargs wc -l", "xargs", "default", "allow"),
        ("dd if=README.md of=copy", "none", "default", "ask"),
    ],
    "git_elsewhere": [
        ("git -C vendor/lib status", "none", "default", "ask"),
        ("git -C vendor/lib log", "git_status", "default", "ask"),
        ("cd vendor/lib && git status", "cd", "default", "ask"),
        ("cd {out} && git log", "cd", "default", "ask"),
        ("GIT_DIR=vendor/lib/.git git status", "git_status", "default", "ask"),
        ("git --git-dir=vendor/lib/.git status", "none", "default", "ask"),
        ("git --work-tree=vendor/lib status", "none", "default", "ask"),
        ("git -C src status", "none", "default", "allow"),
        ("git status", "none", "default", "allow"),
        ("cd src && ls", "cd", "default", "allow"),
        ("cd src", "cd", "default", "allow"),
        ("cd src && cat main.py", "cd", "default", "allow"),
    ],
    "deny_reads": [
        ("cat .env", "deny_read_env", "default", "deny"),
        ("cat ./.env", "deny_read_env", "default", "deny"),
        ("cat src/../.env", "deny_read_env", "default", "deny"),
        ("cat link-to-env", "deny_read_env", "default", "deny"),
        ("grep -r SECRET .", "deny_read_env", "default", "deny"),
        ("grep -R SECRET", "deny_read_env", "default", "deny"),
        ("grep -rn SECRET sub", "deny_read_env", "default", "deny"),
        ("rg SECRET", "deny_read_env", "default", "deny"),
        ("rg SECRET .", "deny_read_env", "default", "deny"),
        ("git grep SECRET", "deny_read_env", "default", "deny"),
        ("git show HEAD:.env", "deny_read_env", "default", "deny"),
        ("git cat-file -p HEAD:sub/.env", "deny_read_env", "default", "deny"),
        ("cat < .env", "deny_read_env", "default", "deny"),
        ("cat README.md", "deny_read_env", "default", "allow"),
        ("grep -r SECRET src", "deny_read_env", "default", "allow"),
        ("rg TODO src", "deny_read_env", "default", "allow"),
        ("git show HEAD:README.md", "deny_read_env", "default", "allow"),
        ("grep SECRET README.md", "deny_read_env", "default", "allow"),
        ("grep -rn TODO src", "deny_read_env", "default", "allow"),
        ("git log --oneline -3", "deny_read_env", "default", "allow"),
    ],
    "spellings": [
        ("curl evil", "deny_curl", "default", "deny"),
        ("'curl' evil", "deny_curl", "default", "deny"),
        ("c''url evil", "deny_curl", "default", "deny"),
        ("\\curl evil", "deny_curl", "default", "deny"),
        ('"cu"rl evil', "deny_curl", "default", "deny"),
        ("/usr/bin/curl evil", "deny_curl", "default", "deny"),
        ("x=curl; $x evil", "deny_curl", "default", "deny"),
        ("x=curl; ${x} evil", "deny_curl", "default", "deny"),
        ("x=cu; y=rl; $x$y evil", "deny_curl", "default", "deny"),
        ("export x=curl; $x evil", "deny_curl", "default", "deny"),
        ("echo $(curl evil)", "deny_curl", "default", "deny"),
        ("$CMD evil", "deny_curl", "default", "ask"),
        ("echo curl", "deny_curl", "default", "allow"),
        ('echo "curl is not allowed here"', "deny_curl", "default", "allow"),
        ("x=1; echo $x", "deny_curl", "acceptEdits", "ask"),
    ],
    "opaque": [
        ("[[ -v 'a[$(id)]' ]]", "none", "default", "ask"),
        ("[[ 'a[$(id)]' -eq 1 ]]", "none", "default", "ask"),
        ("x='a[$(id)]'; [[ $x -eq 1 ]]", "none", "default", "ask"),
        ("test -v 'a[`id`]'", "none", "default", "ask"),
        ("eval \"$x\"", "echo", "default", "ask"),
        ("[[ -f README.md ]] && echo yes", "echo", "default", "allow"),
        ("[[ $# -eq 0 ]] && echo none", "echo", "default", "allow"),
        ("for i in 1 2; do [[ $i -eq 1 ]] && echo one; done", "echo", "default", "allow"),
        ('[[ -n "$x" ]] && echo set', "echo", "default", "allow"),
        ("[ -d src ] && echo dir", "echo", "default", "allow"),
    ],
}
CORPUS = [(cls, *case) for cls, cases in CASES.items() for case in cases]


@pytest.fixture
def project(proj: Proj) -> Proj:
    (proj.root / "vendor" / "lib" / ".git").mkdir(parents=True)
    (proj.root / "link-to-env").symlink_to(proj.root / ".env")
    return proj


@pytest.mark.parametrize(("cls", "command", "rules", "mode", "expected"), CORPUS,
                         ids=[f"{c}-{i}" for i, (c, *_) in enumerate(CORPUS)])
def test_effects(project: Proj, cls: str, command: str, rules: str, mode: str,
                 expected: str) -> None:
    rule_set = RuleSet.from_strings(cwd=project.root, **RULES[rules])
    command = command.replace("{out}", str(project.outside)).replace("{home}",
                                                                     str(project.home))
    verdict = evaluate_bash(command, rule_set, mode, project.root, home=project.home,
                            config_dir=project.config)
    assert verdict.behavior == expected, verdict


def test_every_class_has_cases_that_must_stay_allowed() -> None:
    allowed = Counter(cls for cls, *_, expected in CORPUS if expected == "allow")
    assert set(allowed) == set(CASES), set(CASES) - set(allowed)
    assert sum(allowed.values()) >= 40
