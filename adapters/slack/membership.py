"""Channel visibility and membership from Slack, for permission-aware recall.

A question may search the asking channel, the workspace's public channels and (when
widened) the private conversations its asker belongs to; the service learns which is which
from the :class:`memory.models.Channel` records built here. Private channels, DMs and group
DMs are private with their members; public channels carry no member list (everyone in the
workspace may read them), which saves a paged ``conversations.members`` call per channel.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

from adapters.slack.directory import ChannelInfo, parse_channel
from adapters.slack.normalize import PLATFORM
from adapters.slack.webapi import (
    MAX_RATE_LIMIT_WAITS,
    RateLimitWaits,
    Sleep,
    call,
    error_code,
    paginate,
)
from memory.models import Channel
from memory.ports import MemoryService

logger = logging.getLogger(__name__)

CONVERSATION_TYPES = "public_channel,private_channel,mpim,im"
# Errors that mean "this conversation is not ours to read", not a fault.
SKIPPABLE_ERRORS = frozenset(
    {"channel_not_found", "not_in_channel", "missing_scope", "is_archived", "access_denied"}
)


def fetch_channel(
    client: WebClient,
    channel_id: str,
    *,
    team_id: str,
    info: ChannelInfo | None = None,
    public_members: bool = False,
    sleep: Sleep = time.sleep,
    waits: RateLimitWaits | None = None,
    max_waits: int = MAX_RATE_LIMIT_WAITS,
) -> Channel | None:
    """Build the :class:`Channel` record of one conversation (``conversations.info``, then
    ``conversations.members`` paged for private ones, or for all with ``public_members``).
    Returns ``None`` when Slack says the conversation is not readable; rate limits are
    waited out; other API errors propagate."""
    try:
        if info is None:
            response = call(client.conversations_info, sleep=sleep, waits=waits,
                            max_waits=max_waits, channel=channel_id)
            info = parse_channel(response.get("channel"))
            if info is None:
                return None
        members: tuple[str, ...] = ()
        if info.is_private or public_members:
            members = tuple(_members(client, info, sleep=sleep, waits=waits,
                                     max_waits=max_waits))
    except SlackApiError as exc:
        if error_code(exc) in SKIPPABLE_ERRORS:
            logger.warning("cannot read Slack channel %s: %s", channel_id, error_code(exc))
            return None
        raise
    return Channel(
        platform=PLATFORM,
        space=team_id,
        id=info.id,
        name=info.name,
        is_private=info.is_private,
        members=members,
    )


def _members(
    client: WebClient, info: ChannelInfo, *, sleep: Sleep, waits: RateLimitWaits | None,
    max_waits: int,
) -> list[str]:
    seen: dict[str, None] = {}
    try:
        for page, _ in paginate(client.conversations_members, key="members", sleep=sleep,
                                waits=waits, max_waits=max_waits, channel=info.id,
                                limit=1000):
            seen.update((str(m), None) for m in page if isinstance(m, str))
    except SlackApiError as exc:
        # A DM's other party is known from conversations.info even where members is refused.
        if not (info.is_im and info.im_user):
            raise
        logger.info("conversations.members refused for DM %s: %s", info.id, error_code(exc))
    if info.is_im and info.im_user:
        seen.setdefault(info.im_user, None)
    return list(seen)


def list_bot_conversations(
    client: WebClient,
    *,
    types: str = CONVERSATION_TYPES,
    sleep: Sleep = time.sleep,
    waits: RateLimitWaits | None = None,
) -> list[ChannelInfo]:
    """Every unarchived conversation the bot is a member of (``users.conversations``, paged)."""
    found: list[ChannelInfo] = []
    for page, _ in paginate(client.users_conversations, key="channels", sleep=sleep,
                            waits=waits, types=types, exclude_archived=True, limit=200):
        found.extend(info for info in map(parse_channel, page) if info is not None)
    return found


def sync_channels(
    client: WebClient,
    service: MemoryService,
    *,
    team_id: str,
    channel_ids: Sequence[str] | None = None,
    sleep: Sleep = time.sleep,
    waits: RateLimitWaits | None = None,
) -> list[Channel]:
    """Fetch the named conversations (default: all the bot is in) and upsert their
    visibility and members into ``service``. Returns what was upserted."""
    targets: list[tuple[str, ChannelInfo | None]]
    if channel_ids is None:
        infos = list_bot_conversations(client, sleep=sleep, waits=waits)
        targets = [(info.id, info) for info in infos]
    else:
        targets = [(cid, None) for cid in channel_ids]
    channels: list[Channel] = []
    for cid, info in targets:
        channel = fetch_channel(client, cid, team_id=team_id, info=info, sleep=sleep,
                                waits=waits)
        if channel is not None:
            channels.append(channel)
    if channels:
        service.upsert_channels(channels)
    logger.info("synced %d Slack channel(s) for team %s", len(channels), team_id)
    return channels
