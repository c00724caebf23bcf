"""cc's exceptions, all in one place.

    CCError
     ├── UsageError          bad command-line input; printed on stderr, exit 1
     ├── CommandError        a slash command or a prompt's expansion could not run;
     │                       shown to the user
     ├── UnknownBlockError   a content block with no type, or a known type missing
     │                       its fields (an unknown type is carried, not an error)
     ├── ConfigError (ValueError): a file of the user's that does not read right;
     │    │                  the message says why, and the caller makes it a warning
     │    ├── FrontmatterError      frontmatter that is not a YAML mapping
     │    ├── AgentDefinitionError  an agent file or `--agents` entry
     │    └── MatcherError          a hook matcher that is no name list or regex
     ├── ToolUnavailable (RuntimeError): a tool's context lacks what it needs (the
     │                       executor reports it to the model)
     ├── SearchError         a search that could not run (bad regex, rg failure)
     │    └── SearchTimeout  rg ran past its time limit and was killed
     └── ModelCallError      a model request that failed for good
          ├── fatal: 400/401/403/404, or a retry budget spent (`retryable` False)
          ├── PromptTooLongError   413 / "prompt is too long"
          ├── StreamBrokenError    a response stream that did not reach message_stop
          │                        (cut, garbled, a block left open): retryable
          └── (retryable)          429/529/5xx/connection; the retry module raises
                                   these only when told not to retry

Errors inside tools never become exceptions past the tool boundary: they turn
into `is_error` tool results that the model reads.
"""

from __future__ import annotations


class CCError(Exception):
    """Base of every error cc raises on purpose."""


class UsageError(CCError):
    """The command line asked for something that cannot be done."""


class CommandError(CCError):
    """A command could not run or expand; its message is shown to the user."""


class UnknownBlockError(CCError, ValueError):
    """A content block whose type (or shape) we do not know."""


class ConfigError(CCError, ValueError):
    """A file of the user's that does not read right; the message says why."""


class FrontmatterError(ConfigError):
    """Frontmatter that is not a YAML mapping; the message says why."""


class AgentDefinitionError(ConfigError):
    """A file or `--agents` entry that does not make a definition; the message says why."""


class MatcherError(ConfigError):
    """A matcher that is neither a name list nor a valid regular expression."""


class ToolUnavailable(CCError, RuntimeError):
    """A tool needs a resource its context lacks (the executor reports it to the model)."""


class SearchError(CCError):
    """A search that could not run: bad regex, unknown file type, rg failure."""


class SearchTimeout(SearchError):
    """rg ran past its time limit and was killed."""


class ModelCallError(CCError):
    """A request to the model failed.

    `kind` is Claude Code's assistant-error label (rate_limit, overloaded,
    authentication_failed, invalid_request, server_error, unknown, ...).
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str = "unknown",
        status: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
        endpoint: str | None = None,
        api_type: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.status = status
        #: The API's own name for the error (`invalid_request_error`, ...), when it said.
        self.api_type = api_type
        self.retryable = retryable
        #: Seconds the server asked us to wait (retry-after / retry-after-ms), if it did.
        self.retry_after = retry_after
        #: The API's address (scheme://host[:port]) when known, for the final message.
        self.endpoint = endpoint


class PromptTooLongError(ModelCallError):
    """The request was larger than the model's context window."""


class StreamBrokenError(ModelCallError):
    """A streamed response that ended before `message_stop`: its partial message is void."""

    def __init__(self, message: str, *, endpoint: str | None = None) -> None:
        super().__init__(message, kind="server_error", retryable=True, endpoint=endpoint)
