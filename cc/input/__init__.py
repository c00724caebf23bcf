"""Input preparation, the same for every front end (the REPL, print mode, the SDK host):
what typed text becomes before it reaches the model.

    prepare.py       prepare_prompt(): a custom `/command` or an MCP prompt expanded,
                     or the text with its `@path` files and `@server:uri` resources
                     (`parse_slash` tells a command from a prompt)
    custom.py        custom Markdown commands (`.claude/commands/*.md`): loading,
                     `$ARGUMENTS`/`$0`, `` !`cmd` `` and `@file` expansion
    mentions.py      `@path` mentions: the files attached to a prompt
    resource_mentions.py  `@server:uri` mentions: MCP resources attached to a prompt
    mcp_prompts.py   `/mcp__<server>__<prompt> [args]`: an MCP prompt as the message
    inline_bash.py   `` !`cmd` `` in commands, and the REPL's `!` shell lines
"""
