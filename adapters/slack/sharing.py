"""Small in-process records of the Slack front end: questions already answered (Slack
redelivers events) and answers offered for sharing.

An answer offered for sharing is kept server-side under an unguessable token (the Share
button's value) for the life of a response URL; pressing the button takes it atomically, so
a double press shares once, and a failed post puts it back.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from memory.models import Answer

SHARE_TTL_S = 30 * 60.0


class SeenSet:
    """A bounded, thread-safe set: :meth:`first` is true once per key."""

    def __init__(self, size: int = 4096) -> None:
        self._keys: OrderedDict[str, None] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def first(self, key: str) -> bool:
        with self._lock:
            if key in self._keys:
                return False
            self._keys[key] = None
            if len(self._keys) > self._size:
                self._keys.popitem(last=False)
            return True


@dataclass(frozen=True)
class Shared:
    answer: Answer
    question: str
    asker: str
    team: str
    channel: str
    widen: bool
    expires: float


class ShareCache:
    """Answers offered for sharing, by an unguessable token (the button's value)."""

    def __init__(self, *, ttl_s: float = SHARE_TTL_S, size: int = 2000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._items: OrderedDict[str, Shared] = OrderedDict()
        self._ttl = ttl_s
        self._size = size
        self._clock = clock
        self._lock = threading.Lock()

    def put(self, answer: Answer, *, question: str, asker: str, team: str,
            channel: str, widen: bool = True) -> str:
        token = secrets.token_urlsafe(18)
        with self._lock:
            self._items[token] = Shared(answer, question, asker, team, channel, widen,
                                         self._clock() + self._ttl)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return token

    def take(self, token: str) -> Shared | None:
        """Remove and return the answer behind ``token`` (atomically: of two presses at
        once, one gets it); ``None`` when unknown or expired."""
        with self._lock:
            item = self._items.pop(token, None)
            if item is None or item.expires < self._clock():
                return None
            return item

    def restore(self, token: str, item: Shared) -> None:
        """Put back what :meth:`take` removed (the share did not happen)."""
        with self._lock:
            self._items[token] = item
