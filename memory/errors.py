"""Exceptions raised by the memory package.

Tree::

    EgmemError                 root of everything egmem raises on purpose (the bot and
    │                          adapters packages root their own trees here: bot.errors,
    │                          adapters.errors)
    ├── UserFacingError        safe to show a person; says what to do next
    │   ├── InputError         a bad record, file or question
    │   ├── ConfigError        a setting is missing or wrong
    │   ├── ModelMissingError  the embedding model package is not installed
    │   ├── DataDirBusy        another process writes the data directory
    │   │                      (memory.store.lock; ``holder`` names it)
    │   ├── DigestOwned        someone else turned a channel's digest on; ``owner`` is who
    │   └── EndpointError      the LLM/embedding endpoint is unreachable or misconfigured
    │       ├── EndpointUnavailable   down, timing out, 5xx/429 after retries, or past a
    │       │                         deadline: nothing is wrong with the request, try later
    │       └── RequestRejected       HTTP 4xx about this request: another request may pass
    │           ├── ContextOverflow   the prompt does not fit the model's context
    │           └── ToolsUnsupported  the model or server cannot call tools
    ├── StoreError             the on-disk store is inconsistent or unusable
    └── ToolArgumentError      a model's tool call has unusable arguments; also a
                               ``ValueError``. The message goes back to the model.
"""

from __future__ import annotations


class EgmemError(Exception):
    """Root of all egmem errors."""


class UserFacingError(EgmemError):
    """An error whose message is written for the person who caused it."""


class InputError(UserFacingError):
    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        self.source = source
        self.line = line
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        super().__init__(where + message)


class DigestOwned(UserFacingError):
    """Someone else turned this channel's digest on (and only they or a manager may turn it
    off)."""

    def __init__(self, owner: str) -> None:
        super().__init__(f"<@{owner}> turned this channel's weekly digest on: only they or "
                         "someone who manages the workspace can turn it off.")
        self.owner = owner


class ConfigError(UserFacingError):
    pass


class ModelMissingError(UserFacingError):
    pass


class EndpointError(UserFacingError):
    """The endpoint failed. A plain EndpointError is a setting to fix (key, model, URL):
    every request would fail the same way. Messages name the endpoint by its redacted URL."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class EndpointUnavailable(EndpointError):
    """Unreachable, timing out, overloaded or rate-limited (after retries), or the caller's
    deadline passed. ``retry_after`` is the server's last hint in seconds, if any."""

    def __init__(self, message: str, *, status: int | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message, status=status)
        self.retry_after = retry_after


class RequestRejected(EndpointError):
    """The endpoint refused this request (HTTP 4xx). ``param`` names the request field it
    objected to when it said so ("temperature", "tool_choice", "response_format");
    ``detail`` is the server's reason (scrubbed); ``message_ids`` are the messages whose
    request was refused, when a writer narrowed it down to them."""

    def __init__(self, message: str, *, status: int | None = None, param: str | None = None,
                 detail: str = "", message_ids: tuple[str, ...] = ()) -> None:
        super().__init__(message, status=status)
        self.param = param
        self.detail = detail
        self.message_ids = message_ids


class ContextOverflow(RequestRejected):
    """The prompt (plus the completion budget) exceeds the model's context. ``limit`` and
    ``requested`` are token counts when the server reported them."""

    def __init__(self, message: str, *, status: int | None = None, detail: str = "",
                 limit: int | None = None, requested: int | None = None) -> None:
        super().__init__(message, status=status, detail=detail)
        self.limit = limit
        self.requested = requested


class ToolsUnsupported(RequestRejected):
    """The model or server cannot take ``tools`` (Ollama: "... does not support tools";
    llama.cpp without --jinja: "Unsupported param: tools")."""


class StoreError(EgmemError):
    pass


class ToolArgumentError(EgmemError, ValueError):
    """A tool call's arguments are unusable; the message goes back to the model."""
