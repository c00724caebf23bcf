"""Agent teams: a leader and its teammates, with files, mailboxes and a protocol.

    session.py        TeamSession: the team as the session lives it; routes SendMessage's
                      team addresses; the task list is the team's while it lasts
    tools.py          TeamCreate (the leader's second wiring) and TeamDelete
    teammate.py       spawning a member: a named background sub-agent of the team
    config.py files.py   the team's config.json (members, statuses), safely rewritten
    mailbox.py        the members' file inboxes
    protocol.py       shutdown_request / shutdown_response
    identity.py       who sends: a member's name, or the leader's
    roster.py         the team as the leader's person sees it (REPL status, /team)
"""
