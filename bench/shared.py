"""What the session benches (long_session.py, memory_extraction.py) share: the words
their made-up files and tool results are written in, and the prompt cache's prices per
base input token, from the model table."""

from __future__ import annotations

from cc.models.catalog import _prices

#: Cache read and write prices per base input token.
READ_RATE, WRITE_RATE = _prices(1.0, 0.0).cache_read, _prices(1.0, 0.0).cache_write
WORDS = ("def return self import value index result error path config token cache message "
         "tool block user assistant stream request session context buffer None True").split()
