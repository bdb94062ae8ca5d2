"""Who in a Slack workspace reads less than its public channels, kept current for memory.

Slack guests (``users.info``: ``is_restricted``, or ``is_ultra_restricted`` for a
single-channel guest) may open only the conversations they are members of. People of
another organization in a Slack Connect channel (their ``team_id``, or the event's
``user_team``, is not the workspace's; the channel is ``is_ext_shared``) may open only
the shared channel. egmem records both in memory's :class:`memory.access.SpaceAccess`, so
every question, share and in-channel answer is scoped by it (see :mod:`memory.access`):

- before a question is answered, its asker is looked up (cached ``users.info``); a guest's
  memberships are read with ``users.conversations``. An asker whose kind cannot be looked
  up is not answered (:meth:`SlackAccess.asker` returns ``None``): fail closed.
- the whole directory (``users.list``) is read once at start (:meth:`SlackAccess.sync`), so
  sharing knows which channels have guests; until it has, a share shows a channel only
  its own messages.
- a guest joining or leaving a channel, ``user_change`` and every channel refresh
  (``is_ext_shared``) keep the record current.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Literal, Protocol

from adapters.slack.directory import ChannelInfo, SlackDirectory, SlackUser, Workspace
from adapters.slack.normalize import PLATFORM
from memory.access import SpaceAccess

logger = logging.getLogger(__name__)

Kind = Literal["member", "guest", "external"]


class AccessRecords(Protocol):
    def space_access(self, *, platform: str, space: str) -> SpaceAccess: ...
    def set_space_access(self, access: SpaceAccess) -> None: ...


class SlackAccess:
    """Keeps the workspace's :class:`SpaceAccess` in memory current (thread-safe)."""

    def __init__(self, *, records: AccessRecords, directory: SlackDirectory,
                 ttl_s: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.records = records
        self.directory = directory
        self._ttl = ttl_s
        self._clock = clock
        self._read: dict[tuple[str, str], float] = {}  # (team, guest) → memberships read at
        # (team, user) → the kind last recorded, while fresh: most askers are members, and
        # their record does not change from one question to the next
        self._kinds: dict[tuple[str, str], tuple[Kind, float]] = {}
        self._lock = threading.Lock()

    # --- askers ---------------------------------------------------------------------------

    def asker(self, team: str, user: str, *, user_team: str | None = None,
              channel: str | None = None) -> Kind | None:
        """What ``user`` may read, recorded before their question is answered: a member,
        a guest (their memberships read now, or within the TTL) or someone of another
        organization (``channel`` is then recorded as shared). ``None`` when Slack cannot
        say (the question must not be answered)."""
        ws = self.directory.workspace()
        if user_team and user_team != team:
            kind: Kind = "external"
        else:
            info = self.directory.user(user)
            if info is None or ws is None:
                logger.warning("cannot tell what Slack user %s may read; not answering", user)
                return None
            kind = _kind(info, ws, team)
        if kind == "guest":
            return kind if self._read_guest(team, user) else None
        key = (team, user)
        with self._lock:
            last, until = self._kinds.get(key, (None, 0.0))
        if last == kind and until > self._clock() and kind == "member":
            return kind
        self._update(team, lambda a: _with_kind(a, user, kind, channel=channel))
        with self._lock:
            self._kinds[key] = (kind, self._clock() + self._ttl)
        return kind

    def _read_guest(self, team: str, user: str, *, force: bool = False) -> bool:
        key = (team, user)
        with self._lock:
            fresh = self._read.get(key, float("-inf")) > self._clock()
        known = user in self.records.space_access(platform=PLATFORM, space=team).guests
        if fresh and known and not force:
            return True
        channels = self.directory.user_channels(user)
        if channels is None:
            return False
        self._update(team, lambda a: _with_guest(a, user, channels))
        with self._lock:
            self._read[key] = self._clock() + self._ttl
        return True

    # --- the whole workspace ----------------------------------------------------------------

    def sync(self, team: str, *, channels: Iterable[ChannelInfo] = ()) -> bool:
        """Read every member (``users.list``) and each guest's memberships, and which of
        ``channels`` are shared with other organizations; mark the record complete.
        Returns whether it could."""
        ws = self.directory.workspace()
        users = self.directory.all_users()
        if ws is None or users is None:
            logger.warning("Slack directory of %s not read; sharing stays limited", team)
            return False
        guests: dict[str, tuple[str, ...]] = {}
        for user in users:
            if _kind(user, ws, team) == "guest":
                found = self.directory.user_channels(user.id)
                if found is None:
                    return False
                guests[user.id] = tuple(found)
        shared = {c.id for c in channels if c.is_ext_shared}
        self._update(team, lambda a: a.model_copy(update={
            "guests": guests, "complete": True,
            "shared": tuple(sorted(set(a.shared) | shared))}))
        with self._lock:
            for g in guests:
                self._read[(team, g)] = self._clock() + self._ttl
        logger.info("Slack workspace %s: %d guest(s), %d shared channel(s)", team,
                    len(guests), len(shared))
        return True

    # --- changes ----------------------------------------------------------------------------

    def channel_seen(self, team: str, info: ChannelInfo) -> None:
        """A channel's info was (re)read: record whether it is shared."""
        self._update(team, lambda a: _with_shared(a, info.id, info.is_ext_shared))

    def member_changed(self, team: str, user: str, *, channel: str) -> None:
        """Someone joined or left ``channel``: a guest's memberships are read again; a person
        of another organization makes it a shared channel."""
        info = self.directory.user(user)
        ws = self.directory.workspace()
        if info is None or ws is None:
            return
        kind = _kind(info, ws, team)
        if kind == "guest":
            self._read_guest(team, user, force=True)
        elif kind == "external":
            self._update(team, lambda a: _with_shared(a, channel, True))

    def user_changed(self, team: str, user: str) -> None:
        """``user_change``: a guest promoted to member (or the reverse) is looked up
        again at once."""
        with self._lock:
            self._read.pop((team, user), None)
            self._kinds.pop((team, user), None)
        info = self.directory.user(user)
        ws = self.directory.workspace()
        if info is None or ws is None:
            return
        kind = _kind(info, ws, team)
        if kind == "guest":
            self._read_guest(team, user, force=True)
        else:
            self._update(team, lambda a: _with_kind(a, user, kind))

    def _update(self, team: str, change: Callable[[SpaceAccess], SpaceAccess]) -> None:
        with self._lock:  # read-modify-write of one record
            before = self.records.space_access(platform=PLATFORM, space=team)
            after = change(before)
            if after != before:
                self.records.set_space_access(after)


def _kind(user: SlackUser, ws: Workspace, team: str) -> Kind:
    own = {team, ws.team_id} - {""}
    same_org = bool(ws.enterprise_id) and user.enterprise_id == ws.enterprise_id
    if user.team_id and user.team_id not in own and not same_org:
        return "external"
    return "guest" if user.is_restricted else "member"


def _with_kind(access: SpaceAccess, user: str, kind: Kind, *,
               channel: str | None = None) -> SpaceAccess:
    guests = {g: c for g, c in access.guests.items() if g != user}
    external = [u for u in access.external if u != user] + ([user] if kind == "external"
                                                            else [])
    out = access.model_copy(update={"guests": guests, "external": tuple(external)})
    if kind == "external" and channel is not None:
        out = _with_shared(out, channel, True)
    return out


def _with_guest(access: SpaceAccess, user: str, channels: list[str]) -> SpaceAccess:
    guests = {**access.guests, user: tuple(channels)}
    external = tuple(u for u in access.external if u != user)
    return access.model_copy(update={"guests": guests, "external": external})


def _with_shared(access: SpaceAccess, channel: str, shared: bool) -> SpaceAccess:
    rest = tuple(c for c in access.shared if c != channel)
    return access.model_copy(update={"shared": rest + ((channel,) if shared else ())})
