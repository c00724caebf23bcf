"""The web tools: WebFetch reads a page and answers a question about it, WebSearch asks
the API's server-side search.

    fetch.py       one GET with httpx: https upgrade, same-host redirects, caps, timeout
    convert.py     a fetched body as text for the model (HTML as Markdown)
    cache.py       fetched pages kept for a while, keyed by URL
    web_fetch.py   the WebFetch tool
    web_search.py  the WebSearch tool

Nothing here is imported at start-up: the catalog loads the tools on first use, and
they import httpx and markdownify then.
"""
