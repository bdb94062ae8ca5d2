"""What a person in a chat is told when something fails, and what the log keeps.

Errors written for the person who asked (a bad question, an access check, a digest someone
else turned on) are shown as they are. Errors written for the operator (a setting to fix,
an LLM or embedding endpoint that failed: their messages name the endpoint's URL, host and
port included, and the server's reply) never reach a chat: the person gets the chat's
generic line, and the log keeps the error (its messages carry no credentials: endpoint
URLs are redacted where the error is made).
"""

from __future__ import annotations

import logging

from memory.errors import ConfigError, EndpointError, ModelMissingError, UserFacingError

logger = logging.getLogger(__name__)

OPERATOR_ERRORS: tuple[type[UserFacingError], ...] = (ConfigError, ModelMissingError,
                                                      EndpointError)


def chat_error_text(exc: BaseException, *, fallback: str, where: str) -> str:
    """The line to show for ``exc`` (``fallback`` unless it was written for the asker);
    anything else is logged with ``where`` (no message text: ids and error types)."""
    if isinstance(exc, UserFacingError) and not isinstance(exc, OPERATOR_ERRORS):
        return str(exc)
    if isinstance(exc, OPERATOR_ERRORS):
        logger.warning("%s failed: %s: %s", where, type(exc).__name__, exc)
    else:
        logger.error("%s failed", where, exc_info=exc)
    return fallback
