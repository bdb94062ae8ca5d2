"""Rate-limit-aware Slack Web API calls and cursor pagination.

Slack answers an over-limit call with HTTP 429 and ``Retry-After`` (seconds). Since
2025-05-29 non-Marketplace commercial apps may get one ``conversations.history``/``replies``
call per minute, so waiting is normal, not an error: :func:`call` sleeps for exactly what
Slack asks (the sleep function is injected so tests never wait) and tries again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web import SlackResponse

logger = logging.getLogger(__name__)

Sleep = Callable[[float], None]

DEFAULT_RETRY_AFTER_S = 30.0
MAX_RATE_LIMIT_WAITS = 20


class RateLimitWaits:
    """Counts the waits :func:`call` made (for reports and tests)."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0


def retry_after(exc: SlackApiError) -> float | None:
    """Seconds Slack asked us to wait, if ``exc`` is a 429; ``None`` for any other error."""
    response = exc.response
    if getattr(response, "status_code", None) != 429:
        return None
    headers: Mapping[str, Any] = getattr(response, "headers", None) or {}
    raw: Any = None
    for key, value in headers.items():
        if key.lower() == "retry-after":
            raw = value
            break
    if isinstance(raw, list | tuple):
        raw = raw[0] if raw else None
    try:
        return max(0.0, float(raw)) if raw is not None else DEFAULT_RETRY_AFTER_S
    except (TypeError, ValueError):
        return DEFAULT_RETRY_AFTER_S


def error_code(exc: SlackApiError) -> str:
    """Slack's ``error`` string (``not_in_channel``, ``ratelimited``, …) or ``""``."""
    try:
        return str(exc.response.get("error") or "")
    except (AttributeError, TypeError):
        return ""


def call(
    method: Callable[..., SlackResponse],
    *,
    sleep: Sleep = time.sleep,
    waits: RateLimitWaits | None = None,
    max_waits: int = MAX_RATE_LIMIT_WAITS,
    **kwargs: Any,
) -> SlackResponse:
    """Call a bound ``WebClient`` method, waiting out 429s (``Retry-After``) up to
    ``max_waits`` times. Any other :class:`SlackApiError` propagates unchanged."""
    attempt = 0
    while True:
        try:
            return method(**kwargs)
        except SlackApiError as exc:
            delay = retry_after(exc)
            if delay is None or attempt >= max_waits:
                raise
            attempt += 1
            if waits is not None:
                waits.count += 1
                waits.seconds += delay
            logger.info(
                "Slack rate limit on %s; waiting %.1f s (attempt %d)",
                getattr(method, "__name__", "call"), delay, attempt,
            )
            sleep(delay)


def paginate(
    method: Callable[..., SlackResponse],
    *,
    key: str,
    cursor: str | None = None,
    sleep: Sleep = time.sleep,
    waits: RateLimitWaits | None = None,
    max_waits: int = MAX_RATE_LIMIT_WAITS,
    **kwargs: Any,
) -> Iterator[tuple[list[Any], str | None]]:
    """Yield ``(items, next_cursor)`` per page of a cursor-paginated method, starting at
    ``cursor``; ``next_cursor`` is ``None`` on the last page. ``key`` names the list field
    (``messages``, ``members``, ``channels``)."""
    while True:
        args = dict(kwargs)
        if cursor:
            args["cursor"] = cursor
        response = call(method, sleep=sleep, waits=waits, max_waits=max_waits, **args)
        items = response.get(key) or []
        meta = response.get("response_metadata") or {}
        nxt = meta.get("next_cursor") if isinstance(meta, Mapping) else None
        nxt = str(nxt) if nxt else None
        yield list(items), nxt
        if nxt is None:
            return
        cursor = nxt
