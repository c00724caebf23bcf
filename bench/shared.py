"""What the session benches (long_session.py, memory_extraction.py) share: the words
their made-up files and tool results are written in, and the prompt cache's prices per
base input token, from the model table."""

from __future__ import annotations

from cc.models.catalog import model_info

#: Cache read and write prices per base input token.
_PRICES = model_info("claude-sonnet-4-5").prices  # list rates: read 0.1x, write 1.25x
READ_RATE = round(_PRICES.cache_read / _PRICES.input, 4)
WRITE_RATE = round(_PRICES.cache_write / _PRICES.input, 4)
WORDS = ("def return self import value index result error path config token cache message "
         "tool block user assistant stream request session context buffer None True").split()
