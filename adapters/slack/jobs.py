"""The Slack jobs ``serve`` schedules: the weekly decision digests and the deletion of
workspaces whose uninstall grace period is over (see :func:`bot.scheduler.add_chat_jobs`)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web import WebClient

from adapters.slack.directory import SlackDirectory
from adapters.slack.normalize import PLATFORM
from adapters.slack.views import DIGEST_DAYS, digest_blocks, digest_text
from adapters.slack.webapi import error_code
from bot.service import ChatService

logger = logging.getLogger(__name__)


def post_digests(service: ChatService, directory: SlackDirectory, client: WebClient, *,
                 now: datetime) -> int:
    """Post each subscribed channel's weekly digest (channels with no change get none).
    Returns how many were posted."""
    moment = now
    since = moment - timedelta(days=DIGEST_DAYS)
    ws = directory.workspace()
    posted = 0
    for space, channel in service.digest_channels(platform=PLATFORM):
        if ws is not None and ws.team_id and space != ws.team_id:
            continue  # another workspace's subscription (a different bot token)
        states = service.recent_changes(platform=PLATFORM, space=space, user=None,
                                             channel=channel, since=since, widen=False,
                                             limit=40)
        if not states:
            continue
        try:
            client.chat_postMessage(channel=channel, text=digest_text(states),
                                    blocks=digest_blocks(states, channel=channel,
                                                         since=since, until=moment),
                                    unfurl_links=False, unfurl_media=False)
            posted += 1
        except SlackClientError as exc:
            logger.warning("digest for %s not posted: %s", channel,
                           error_code(exc) if isinstance(exc, SlackApiError) else
                           type(exc).__name__)
    logger.info("posted %d weekly digest(s)", posted)
    return posted

def purge_uninstalled(service: ChatService, client: WebClient, *, now: datetime) -> int:
    """Delete the memory of workspaces whose uninstall grace period is over, unless
    the app is installed again (its token works for that workspace). Returns how many
    workspaces were deleted."""
    deleted = 0
    for platform, space, at in service.due_uninstalls(now=now):
        if platform != PLATFORM:
            continue
        try:
            auth = client.auth_test()
            if auth.get("team_id") == space:
                service.cancel_uninstall(platform=platform, space=space)
                continue
        except SlackApiError:
            pass  # revoked or invalid: the app is gone
        except (SlackClientError, OSError) as exc:
            logger.warning("cannot tell whether %s is still installed (%s); retrying "
                           "later", space, type(exc).__name__)
            continue
        count = service.forget_space(platform=platform, space=space)
        logger.warning("deleted the memory of Slack workspace %s (%d messages), "
                       "uninstalled at %s", space, count, at.isoformat())
        deleted += 1
    return deleted
