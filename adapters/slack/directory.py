"""Cached Web API lookups the adapter needs on every event: who the workspace is, user
display names and admin flags, channel names.

One :class:`SlackDirectory` per app. Lookups never raise: a failed call (network, rate
limit, missing scope) is logged and answered with ``None``, and remembered briefly so a
burst of events does not hammer a failing endpoint. Nothing here blocks longer than one
Web API call: rate limits are *not* waited out on the event path. The acknowledgement of
an event waits on no Web API call at all: it reads the caches alone
(:meth:`SlackDirectory.cache_only`), and what they did not hold is looked up after it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from slack_sdk.errors import SlackClientError
from slack_sdk.web import WebClient

from adapters.slack.webapi import paginate

logger = logging.getLogger(__name__)

T = TypeVar("T")

_MISSING = object()


class NotCached(LookupError):
    """The directory's cache does not hold the answer: it would take a Web API call."""


@dataclass(frozen=True)
class Workspace:
    team_id: str
    url: str  # "https://acme.slack.com/", the base of message permalinks
    bot_user_id: str
    enterprise_id: str = ""  # the Enterprise Grid organization, if any


@dataclass(frozen=True)
class SlackUser:
    id: str
    name: str
    is_admin: bool = False
    is_bot: bool = False
    is_restricted: bool = False  # a guest (multi- or single-channel: is_ultra_restricted)
    team_id: str = ""  # the user's own workspace (another one for Slack Connect people)
    enterprise_id: str = ""


@dataclass(frozen=True)
class ChannelInfo:
    id: str
    name: str
    is_private: bool
    is_im: bool
    is_mpim: bool
    im_user: str | None = None
    is_ext_shared: bool = False  # shared with another organization (Slack Connect)


class _TTLCache(Generic[T]):
    """A small thread-safe LRU with per-entry expiry; ``None`` values are negative entries."""

    def __init__(self, *, ttl: float, negative_ttl: float, max_entries: int,
                 clock: Callable[[], float]) -> None:
        self._ttl = ttl
        self._negative_ttl = negative_ttl
        self._max = max_entries
        self._clock = clock
        self._data: OrderedDict[str, tuple[float, T | None]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> T | None | object:
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return _MISSING
            expires, value = hit
            if self._clock() >= expires:
                del self._data[key]
                return _MISSING
            self._data.move_to_end(key)
            return value

    def put(self, key: str, value: T | None) -> None:
        ttl = self._ttl if value is not None else self._negative_ttl
        with self._lock:
            self._data[key] = (self._clock() + ttl, value)
            self._data.move_to_end(key)
            while len(self._data) > self._max:
                self._data.popitem(last=False)

    def drop(self, key: str) -> None:
        with self._lock:
            self._data.pop(key, None)

    def keys(self) -> list[str]:
        with self._lock:
            return [k for k, (_, v) in self._data.items() if v is not None]


class SlackDirectory:
    """Cached ``auth.test``, ``users.info`` and ``conversations.info`` results."""

    def __init__(
        self,
        *,
        client: WebClient,
        ttl_s: float = 3600.0,
        negative_ttl_s: float = 60.0,
        max_entries: int = 20_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self._users: _TTLCache[SlackUser] = _TTLCache(
            ttl=ttl_s, negative_ttl=negative_ttl_s, max_entries=max_entries, clock=clock
        )
        self._channels: _TTLCache[ChannelInfo] = _TTLCache(
            ttl=ttl_s, negative_ttl=negative_ttl_s, max_entries=max_entries, clock=clock
        )
        self._workspace: Workspace | None = None
        self._lock = threading.Lock()

    # --- workspace ------------------------------------------------------------------------

    def workspace(self) -> Workspace | None:
        """The bot's workspace from ``auth.test`` (cached for the process's life)."""
        with self._lock:
            if self._workspace is not None:
                return self._workspace
        data = self._fetch("auth.test", self.client.auth_test)
        if data is None:
            return None
        ws = Workspace(
            team_id=str(data.get("team_id") or ""),
            url=str(data.get("url") or ""),
            bot_user_id=str(data.get("user_id") or ""),
            enterprise_id=str(data.get("enterprise_id") or ""),
        )
        with self._lock:
            self._workspace = ws
        return ws

    def permalink_base(self) -> str | None:
        return _base(self.workspace())

    def cached_workspace(self) -> Workspace:
        """:meth:`workspace` if it is known, without a Web API call (else :class:`NotCached`)."""
        with self._lock:
            if self._workspace is None:
                raise NotCached("auth.test")
            return self._workspace

    def cache_only(self) -> CachedLookups:
        """Lookups answered from the caches alone, for the acknowledgement path."""
        return CachedLookups(self)

    # --- users ----------------------------------------------------------------------------

    def user(self, user_id: str) -> SlackUser | None:
        """The user's display name and flags, or ``None`` if the lookup failed."""
        cached = self._users.get(user_id)
        if cached is not _MISSING:
            return cached if isinstance(cached, SlackUser) else None
        data = self._fetch("users.info", self.client.users_info, user=user_id)
        user = _parse_user(user_id, data.get("user") if data else None)
        self._users.put(user_id, user)
        return user

    def cached_user(self, user_id: str) -> SlackUser | None:
        """:meth:`user` from the cache alone: :class:`NotCached` when it does not hold the
        user (``None`` is a lookup that failed a moment ago)."""
        cached = self._users.get(user_id)
        if cached is _MISSING:
            raise NotCached(f"users.info {user_id}")
        return cached if isinstance(cached, SlackUser) else None

    def names(self) -> Mapping[str, str]:
        """A read-only mapping user id → display name that looks ids up on first access
        (the ``users=`` argument of :func:`normalize_message_event`)."""
        return _NameView(self.user, self.cached_user_ids)

    def is_admin(self, user_id: str) -> bool:
        user = self.user(user_id)
        return bool(user and user.is_admin)

    def forget_user(self, user_id: str) -> None:
        """Drop a cached user (after a name change)."""
        self._users.drop(user_id)

    def all_users(self) -> list[SlackUser] | None:
        """Every member of the workspace (``users.list``, paged; rate limits waited out),
        each also cached; ``None`` if the listing failed."""
        found: list[SlackUser] = []
        try:
            for page, _ in paginate(self.client.users_list, key="members", limit=200):
                for raw in page:
                    if isinstance(raw, Mapping) and raw.get("deleted"):
                        continue  # a deactivated account reads nothing
                    uid = raw.get("id") if isinstance(raw, Mapping) else None
                    user = _parse_user(uid, raw) if isinstance(uid, str) else None
                    if user is not None:
                        self._users.put(user.id, user)
                        found.append(user)
        except (SlackClientError, OSError) as exc:
            logger.warning("Slack users.list failed: %s", type(exc).__name__)
            return None
        return found

    def user_channels(self, user_id: str) -> list[str] | None:
        """The conversations ``user_id`` is a member of, as far as the bot may see them
        (``users.conversations``: public channels, and private ones the bot shares);
        ``None`` if the lookup failed."""
        found: list[str] = []
        try:
            for page, _ in paginate(self.client.users_conversations, key="channels",
                                    max_waits=2, user=user_id,
                                    types="public_channel,private_channel,mpim",
                                    exclude_archived=True, limit=200):
                found += [str(c["id"]) for c in page
                          if isinstance(c, Mapping) and isinstance(c.get("id"), str)]
        except (SlackClientError, OSError) as exc:
            logger.warning("Slack users.conversations for a user failed: %s",
                           type(exc).__name__)
            return None
        return found

    def cached_user_ids(self) -> list[str]:
        return self._users.keys()

    # --- channels -------------------------------------------------------------------------

    def channel(self, channel_id: str) -> ChannelInfo | None:
        cached = self._channels.get(channel_id)
        if cached is not _MISSING:
            return cached if isinstance(cached, ChannelInfo) else None
        data = self._fetch("conversations.info", self.client.conversations_info,
                           channel=channel_id)
        info = parse_channel(data.get("channel") if data else None)
        self._channels.put(channel_id, info)
        return info

    def channel_name(self, channel_id: str) -> str | None:
        return _name(self.channel(channel_id))

    def cached_channel(self, channel_id: str) -> ChannelInfo | None:
        """:meth:`channel` from the cache alone (:class:`NotCached` when it does not hold
        the conversation)."""
        cached = self._channels.get(channel_id)
        if cached is _MISSING:
            raise NotCached(f"conversations.info {channel_id}")
        return cached if isinstance(cached, ChannelInfo) else None

    def forget_channel(self, channel_id: str) -> None:
        """Drop a cached channel (after a rename or membership change)."""
        self._channels.drop(channel_id)

    # --- plumbing -------------------------------------------------------------------------

    def _fetch(
        self, what: str, method: Callable[..., Any], **kwargs: Any
    ) -> Mapping[str, Any] | None:
        try:
            response = method(**kwargs)
        except (SlackClientError, OSError) as exc:
            logger.warning("Slack %s failed: %s", what, type(exc).__name__)
            return None
        data = getattr(response, "data", None)
        return data if isinstance(data, Mapping) else None


class CachedLookups:
    """What :func:`normalize_message_event` needs from the directory, answered from its
    caches alone: never a Web API call. A lookup the caches cannot answer is answered as
    a failed one would be (no name, no permalink) and noted: :attr:`complete` is then
    False and the event is worth normalizing again with the full directory. A failed
    lookup the directory still remembers counts as answered (the Web API would not be
    asked either)."""

    def __init__(self, directory: SlackDirectory) -> None:
        self._dir = directory
        self.missed: set[str] = set()
        self.names: Mapping[str, str] = _NameView(self.user, directory.cached_user_ids)

    @property
    def complete(self) -> bool:
        return not self.missed

    def user(self, user_id: str) -> SlackUser | None:
        try:
            return self._dir.cached_user(user_id)
        except NotCached as miss:
            self.missed.add(str(miss))
            return None

    def channel_name(self, channel_id: str) -> str | None:
        try:
            return _name(self._dir.cached_channel(channel_id))
        except NotCached as miss:
            self.missed.add(str(miss))
            return None

    def permalink_base(self) -> str | None:
        try:
            return _base(self._dir.cached_workspace())
        except NotCached as miss:
            self.missed.add(str(miss))
            return None


def _base(ws: Workspace | None) -> str | None:
    return ws.url.rstrip("/") if ws and ws.url else None


def _name(info: ChannelInfo | None) -> str | None:
    return (info.name or None) if info else None


class _NameView(Mapping[str, str]):
    """User id → display name through ``lookup``, iterating over the cached ids."""

    def __init__(self, lookup: Callable[[str], SlackUser | None],
                 ids: Callable[[], list[str]]) -> None:
        self._lookup = lookup
        self._ids = ids

    def __getitem__(self, key: str) -> str:
        user = self._lookup(key)
        if user is None or not user.name:
            raise KeyError(key)
        return user.name

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())


def _parse_user(user_id: str, raw: object) -> SlackUser | None:
    if not isinstance(raw, Mapping):
        return None
    profile = raw.get("profile")
    profile = profile if isinstance(profile, Mapping) else {}
    name = ""
    for value in (profile.get("display_name"), profile.get("real_name"), raw.get("real_name"),
                  raw.get("name")):
        if isinstance(value, str) and value.strip():
            name = value.strip()
            break
    grid = raw.get("enterprise_user")
    enterprise = grid.get("enterprise_id") if isinstance(grid, Mapping) else None
    return SlackUser(
        id=user_id,
        name=name,
        is_admin=bool(raw.get("is_admin") or raw.get("is_owner") or raw.get("is_primary_owner")),
        is_bot=bool(raw.get("is_bot")),
        is_restricted=bool(raw.get("is_restricted") or raw.get("is_ultra_restricted")),
        team_id=str(raw.get("team_id") or ""),
        enterprise_id=str(enterprise or ""),
    )


def parse_channel(raw: object) -> ChannelInfo | None:
    """A ``conversations.info``/``users.conversations`` channel object → :class:`ChannelInfo`.
    IMs and MPIMs count as private."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str):
        return None
    is_im = bool(raw.get("is_im"))
    is_mpim = bool(raw.get("is_mpim"))
    name = raw.get("name")
    im_user = raw.get("user")
    return ChannelInfo(
        id=str(raw["id"]),
        name=name if isinstance(name, str) and not is_im else "",
        is_private=bool(raw.get("is_private") or raw.get("is_group")) or is_im or is_mpim,
        is_im=is_im,
        is_mpim=is_mpim,
        im_user=im_user if isinstance(im_user, str) else None,
        is_ext_shared=bool(raw.get("is_ext_shared")),
    )
