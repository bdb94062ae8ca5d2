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
from memory.ports import ChatService

logger = logging.getLogger(__name__)


def post_digests(service: ChatService, directory: SlackDirectory, *, client: WebClient,
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

# auth.test errors that mean the token is gone for good: the app was uninstalled.
GONE_ERRORS = frozenset({"invalid_auth", "account_inactive", "token_revoked"})


def purge_uninstalled(service: ChatService, client: WebClient, *, now: datetime) -> int:
    """Look after every pending uninstall with one ``auth.test``: a token that works for
    the workspace cancels it (reinstalled, or a new token); once the grace period is over,
    its memory is deleted only when Slack says the token is gone (:data:`GONE_ERRORS`) or
    belongs to another workspace. Any other answer (rate limited, a server error, no
    network) leaves everything for the next run. Returns how many were deleted."""
    pending = service.pending_uninstalls(platform=PLATFORM)
    if not pending:
        return 0
    team: str | None = None
    try:
        team = str(client.auth_test().get("team_id") or "")
    except SlackApiError as exc:
        if error_code(exc) not in GONE_ERRORS:
            logger.warning("cannot tell whether egmem is still installed (auth.test: %s); "
                           "retrying later", error_code(exc))
            return 0
    except (SlackClientError, OSError) as exc:
        logger.warning("cannot tell whether egmem is still installed (%s); retrying later",
                       type(exc).__name__)
        return 0
    due = {space for platform, space, _ in service.due_uninstalls(now=now)
           if platform == PLATFORM}
    deleted = 0
    for space, at in pending:
        if team == space:
            service.cancel_uninstall(platform=PLATFORM, space=space)
            continue
        if space not in due:
            continue
        count = service.forget_space(platform=PLATFORM, space=space)
        logger.warning("deleted the memory of Slack workspace %s (%d messages), "
                       "uninstalled at %s", space, count, at.isoformat())
        deleted += 1
    return deleted
