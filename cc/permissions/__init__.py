"""Permissions: may this call run, ask, or not. Security fails closed: what the analysis
does not understand, it asks about.

    checker.py        PermissionChecker: the executor's gate; owns the mode; asks the
                      channel, or denies when nobody can answer
    verdict.py        decide(): the one order of evaluation (deny → plan → ask → safety
                      → hook → mode → allow)
    rules.py          `Tool(specifier)` rules, parsed once; RuleSet (scoped grants)
    context.py        the rules, folders and mode gathered from settings and flags
    gate.py ask.py grants.py   the gate protocol; asking a person; one-turn grants
    tool_rules.py     every tool but Bash: paths, domains, MCP, param rules
    path_policy.py paths.py    Read/Edit rules on a path; working folders; protected
                      and critical paths; hard links
    bash_rules.py     Bash: every command a line runs, against rules, modes and paths
      bash_parse.py     tree-sitter-bash into simple commands
      bash_forms.py     spellings past assignments and wrappers; nested scripts
      bash_where.py     where a line's relative paths point (cd)
      bash_hidden.py    programs a deny rule cannot see (computed names, sh reading
                        input, inline interpreter code)
      bash_git.py repositories.py   git in another repository
      git_contents.py   what git prints of files a Read deny rule covers
      shell_catalog.py shell_args.py sed_awk.py git_catalog.py   what known commands
                        read, write and run (`Effect`s)
"""
