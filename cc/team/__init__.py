"""Agent teams: the team's files (config, mailboxes), and later its members."""
