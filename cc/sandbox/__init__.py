"""The Bash sandbox (Linux, bubblewrap), configured by the `sandbox` settings.

    config.py    the settings and permission rules, resolved to paths
    bwrap.py     finding bubblewrap; the mounts and flags around one command
    sandbox.py   the session's sandbox: where a command runs, confining it
    policy.py    how it changes a Bash command's permission check
    commands.py  `excludedCommands` matching
    proxy.py     the allowedDomains filter (an HTTP/CONNECT proxy on a unix socket)
    bridge.py    inside the sandbox: 127.0.0.1:<port> to that socket
    diagnose.py  the note when a failure looks like the sandbox's doing

Nothing here is imported unless `sandbox.enabled` is true.
"""
