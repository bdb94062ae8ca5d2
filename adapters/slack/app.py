"""egmem's Slack app: a bolt :class:`App` wired to a :class:`~memory.ports.ChatService`.

Acknowledgement and durability
    The app runs with ``process_before_response=True``. Bolt then runs a listener's *ack
    function* to completion before the HTTP 200 (or Socket Mode ack) goes back to Slack,
    so a message event is acknowledged only after ``service.submit`` has made it durable:
    if submit fails, Slack gets a 500 and redelivers. Everything slow (committing with
    the writer worker's commits, answering questions) runs in bolt *lazy listeners*, which bolt
    starts in a thread once the ack function has returned and which do not hold the
    response — Slack's 3-second deadline is never spent on an LLM. Answers never wait for
    the commit of queued messages (see :mod:`adapters.slack.interactions`).

Retries
    Slack redelivers an event (``X-Slack-Retry-Num``) it believes was not acknowledged.
    ``submit`` is idempotent on the message key, so a redelivered message is a no-op; a
    question (mention or DM) is answered once per (team, channel, ts), remembered in a
    bounded in-process set.

The listeners live in :mod:`adapters.slack.events` (what feeds memory and who may read it)
and :mod:`adapters.slack.interactions` (questions, buttons, shortcut, Home tab, digests).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, Protocol

from slack_bolt import Ack, App, BoltContext
from slack_sdk.web import WebClient

from adapters.slack import jobs
from adapters.slack.access import SlackAccess
from adapters.slack.blocks import (
    FEEDBACK_DOWN_ACTION_ID,
    FEEDBACK_UP_ACTION_ID,
    SHARE_ACTION_ID,
)
from adapters.slack.directory import SlackDirectory
from adapters.slack.events import SlackEvents, team_id
from adapters.slack.interactions import SORRY, SlackInteractions
from adapters.slack.membership import list_bot_conversations, sync_channels
from adapters.slack.normalize import PLATFORM
from adapters.slack.server import SlackHTTPServer
from adapters.slack.views import CURRENT_CALLBACK_ID
from memory.errors import ConfigError
from memory.ports import ChatService

logger = logging.getLogger(__name__)

SLACK_API_URL = "https://slack.com/api/"
RECALL_COMMAND = "/recall"
LIFECYCLE_EVENTS = ("app_uninstalled", "tokens_revoked")

__all__ = ["RECALL_COMMAND", "SORRY", "SlackBot", "build_slack_app", "build_slack_bot",
           "serve_slack", "web_client"]


class SlackSettings(Protocol):
    """What :func:`serve_slack` reads from :class:`bot.settings.Settings`."""

    @property
    def slack_bot_token(self) -> str | None: ...
    @property
    def slack_signing_secret(self) -> str | None: ...
    @property
    def slack_app_token(self) -> str | None: ...
    @property
    def slack_api_url(self) -> str | None: ...
    @property
    def admins(self) -> tuple[str, ...]: ...


def web_client(*, bot_token: str, api_url: str | None = None) -> WebClient:
    """The Web API client egmem uses everywhere (``api_url``: EGMEM_SLACK_API_URL, for a
    proxy or a local fake; default Slack's)."""
    return WebClient(token=bot_token, base_url=api_url or SLACK_API_URL)


class SlackBot:
    """The bolt app with egmem's listeners, and the jobs ``serve`` schedules for it."""

    def __init__(self, *, app: App, service: ChatService, directory: SlackDirectory,
                 process_inline: bool, membership_ttl_s: float, admins: Iterable[str],
                 now: Callable[[], datetime], backfill_executor: Executor | None) -> None:
        self.app = app
        self.client: WebClient = app.client
        self.service = service
        self.directory = directory
        self.process_inline = process_inline
        self._now = now
        self._backfills = backfill_executor or ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="slack-backfill")
        self.access = SlackAccess(records=service, directory=directory)
        self.events = SlackEvents(service=service, directory=directory,
                                  membership_ttl_s=membership_ttl_s, now=now,
                                  access=self.access)
        self.interactions = SlackInteractions(service=service, directory=directory,
                                              admins=admins, now=now,
                                              backfill=self.start_backfill,
                                              priority=service.answering,
                                              access=self.access)
        self.events.on_bot_joined = self._backfill_joined
        # What the ack path queued is recorded before any commit of this process.
        service.before_write(self.events.sync_pending)

    def register(self) -> None:
        app = self.app
        app.event("message")(ack=self.on_message, lazy=[self.after_message])
        app.event("app_mention")(ack=self.ack_only, lazy=[self.answer_mention])
        for kind in ("member_joined_channel", "member_left_channel"):
            app.event(kind)(ack=self.ack_only, lazy=[self.events.refresh_membership])
        for kind in ("channel_left", "group_left"):
            app.event(kind)(ack=self.ack_only, lazy=[self.events.bot_left])
        for kind in ("channel_rename", "group_rename"):
            app.event(kind)(ack=self.ack_only, lazy=[self.events.renamed])
        app.event("user_change")(ack=self.ack_only, lazy=[self.user_changed])
        for kind in LIFECYCLE_EVENTS:
            app.event(kind)(ack=self.on_uninstall, lazy=[])
        app.event("app_home_opened")(ack=self.ack_only, lazy=[self.home_opened])
        app.command(RECALL_COMMAND)(ack=self.interactions.on_recall,
                                    lazy=[self.interactions.run_recall])
        app.action(SHARE_ACTION_ID)(ack=self.ack_only, lazy=[self.interactions.share])
        for action in (FEEDBACK_UP_ACTION_ID, FEEDBACK_DOWN_ACTION_ID):
            app.action(action)(ack=self.ack_only, lazy=[self.interactions.feedback])
        app.shortcut(CURRENT_CALLBACK_ID)(ack=self.ack_only,
                                          lazy=[self.interactions.still_current])

    # --- listeners ------------------------------------------------------------------------

    def ack_only(self, ack: Ack) -> None:
        ack()

    def on_message(self, body: dict[str, Any], event: dict[str, Any],
                   context: BoltContext) -> None:
        """Runs before the ack: (unless it is a question) a durable submit; the
        conversation's visibility is recorded after the ack, before any commit."""
        self.events.ingest(team_id(body, context), event, bot_user_id=context.bot_user_id)

    def on_uninstall(self, ack: Ack, body: dict[str, Any], event: dict[str, Any],
                     context: BoltContext) -> None:
        """Recorded before the ack: Slack sends these once and the token is gone after."""
        self.events.uninstalled(body, event, context)
        ack()

    def after_message(self, body: dict[str, Any], event: dict[str, Any],
                      context: BoltContext, client: WebClient) -> None:
        self.events.sync_pending()
        if event.get("channel_type") == "im":
            self.interactions.answer_dm(team_id(body, context), event, client=client)
        self.after_event()

    def after_event(self) -> None:
        if self.process_inline:
            self.service.kick()

    def answer_mention(self, body: dict[str, Any], event: dict[str, Any],
                       context: BoltContext, client: WebClient) -> None:
        self.events.sync_pending()
        self.interactions.answer_mention(team_id(body, context), event, client=client,
                                         bot_user_id=context.bot_user_id)

    def user_changed(self, body: dict[str, Any], event: dict[str, Any],
                     context: BoltContext) -> None:
        self.events.user_changed(event, team=team_id(body, context))

    def home_opened(self, body: dict[str, Any], event: dict[str, Any],
                    context: BoltContext, client: WebClient) -> None:
        self.interactions.home_opened(team_id(body, context), event, client=client)

    # --- backfill inside the running bot --------------------------------------------------

    def _backfill_joined(self, team: str, channel: str) -> None:
        """egmem was invited to a conversation: read what was said there before."""
        self.start_backfill(team, channel, None, None)

    def start_backfill(self, team: str, channel: str, since: str | None,
                       notify: str | None) -> Future[Any] | None:
        """Backfill one conversation in the background, one backfill at a time (the same
        resumable cursors as ``egmem backfill``); tell ``notify`` (a user) when done."""
        from adapters.slack.backfill import backfill_slack

        def run() -> None:
            try:
                report = backfill_slack(self.client, self.service, inbox_cursor_store=self.service,
                                        channel=channel, since=since, progress=False,
                                        directory=self.directory)
            except Exception:
                logger.exception("backfill of Slack channel %s failed", channel)
                self._notify(channel, notify, "The backfill stopped with an error; run "
                             "`/recall backfill` again to resume it.")
                return
            self.after_event()
            logger.info("backfill of %s: %d events (%d new)", channel, report.events,
                        report.new)
            self._notify(channel, notify, f"Backfill done: read {report.events} messages "
                         f"({report.new} new) from <#{channel}>.")

        try:
            return self._backfills.submit(run)
        except RuntimeError:  # shutting down
            return None

    def _notify(self, channel: str, user: str | None, text: str) -> None:
        if user is None:
            return
        try:
            self.client.chat_postEphemeral(channel=channel, user=user, text=text)
        except Exception:
            logger.warning("could not notify %s about the backfill of %s", user, channel)

    # --- scheduled jobs -------------------------------------------------------------------

    def post_digests(self, now: datetime | None = None) -> int:
        return jobs.post_digests(self.service, self.directory, client=self.client,
                                 now=now or self._now())

    def purge_uninstalled(self, now: datetime | None = None) -> int:
        return jobs.purge_uninstalled(self.service, self.client, now=now or self._now())

    def initial_sync(self) -> None:
        """Record the visibility of every conversation the bot is in, and who in the
        workspace reads less than its public channels (guests, other organizations)."""
        ws = self.directory.workspace()
        if ws is None or not ws.team_id:
            logger.warning("initial Slack sync skipped: auth.test failed")
            return
        self.service.cancel_uninstall(platform=PLATFORM, space=ws.team_id)  # the token works
        infos = list_bot_conversations(self.client)
        sync_channels(self.client, self.service, team_id=ws.team_id,
                      channel_ids=[i.id for i in infos])
        self.access.sync(ws.team_id, channels=infos)

    def close(self) -> None:
        self._backfills.shutdown(wait=False, cancel_futures=True)


def build_slack_bot(
    *,
    service: ChatService,
    bot_token: str,
    signing_secret: str,
    api_url: str | None = None,
    process_inline: bool = True,
    client: WebClient | None = None,
    membership_ttl_s: float = 6 * 3600.0,
    token_verification: bool = True,
    listener_executor: Executor | None = None,
    backfill_executor: Executor | None = None,
    admins: Iterable[str] = (),
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> SlackBot:
    """Build the bolt app and its listeners: one :class:`WebClient` (``base_url=api_url``
    or Slack's); ``message`` (all conversation kinds, edits, deletes, DMs to the bot),
    ``app_mention``, membership, rename, ``user_change``, uninstall and Home events;
    ``/recall``; the Share and feedback buttons; the "Is this still current?" shortcut.

    With ``process_inline`` each acknowledged event also kicks the service's writer worker
    (``service.kick()``: coalesced, one run at a time) after the ack; otherwise a
    scheduled drain commits.
    With ``token_verification`` bolt calls ``auth.test`` now, failing fast on a bad token.
    ``listener_executor`` runs the lazy listeners (bolt's default: a thread pool);
    ``backfill_executor`` the backfills started from Slack (default: one thread).
    ``admins`` (user ids, EGMEM_ADMINS) may ``/recall forget`` any message and start a
    backfill, as may the workspace's own admins and owners. ``now`` is the wall clock.
    """
    if client is None:
        client = web_client(bot_token=bot_token, api_url=api_url)
    app = App(
        signing_secret=signing_secret,
        client=client,
        process_before_response=True,
        token_verification_enabled=token_verification,
        name="egmem",
        listener_executor=listener_executor,
    )
    bot = SlackBot(app=app, service=service, directory=SlackDirectory(client=client),
                   process_inline=process_inline, membership_ttl_s=membership_ttl_s,
                   admins=admins, now=now, backfill_executor=backfill_executor)
    bot.register()
    return bot


def build_slack_app(**kwargs: Any) -> App:
    """:func:`build_slack_bot`'s bolt app (for callers that only serve it)."""
    return build_slack_bot(**kwargs).app


def serve_slack(
    service: ChatService,
    settings: SlackSettings,
    *,
    socket: bool,
    port: int,
    host: str = "127.0.0.1",
    scheduler: Any = None,
) -> None:
    """Run the Slack bot until interrupted: Socket Mode (``SLACK_APP_TOKEN``, development,
    no public URL needed) or HTTP (``POST /slack/events`` on ``host:port``, production).
    With ``scheduler`` (an apscheduler scheduler) the weekly digests and the deletion of
    uninstalled workspaces are scheduled on it."""
    if not settings.slack_bot_token:
        raise ConfigError("set SLACK_BOT_TOKEN (xoxb-…) to run the Slack bot")
    if not socket and not settings.slack_signing_secret:
        raise ConfigError("set SLACK_SIGNING_SECRET to receive Slack events over HTTP")
    if socket and not settings.slack_app_token:
        raise ConfigError("Socket Mode needs SLACK_APP_TOKEN (xapp-…, scope connections:write)")
    bot = build_slack_bot(
        service=service,
        bot_token=settings.slack_bot_token,
        # Socket Mode payloads are not signed; bolt still wants a value.
        signing_secret=settings.slack_signing_secret or "socket-mode",
        api_url=settings.slack_api_url,
        admins=settings.admins,
    )
    if scheduler is not None:
        from adapters.scheduling import add_chat_jobs

        add_chat_jobs(scheduler, digest=bot.post_digests, uninstalls=bot.purge_uninstalled)
    threading.Thread(target=_initial_sync, args=(bot,), name="slack-sync",
                     daemon=True).start()
    try:
        if socket:
            from slack_bolt.adapter.socket_mode import SocketModeHandler

            handler = SocketModeHandler(bot.app, settings.slack_app_token)
            handler.start()  # type: ignore[no-untyped-call]
            return
        server = SlackHTTPServer(bot.app, host=host, port=port)
        logger.info("Slack events endpoint listening on %s", server.url)
        try:
            server.serve_forever()
        finally:
            server.server_close()
    finally:
        bot.close()


def _initial_sync(bot: SlackBot) -> None:
    """:meth:`SlackBot.initial_sync`, off the event path."""
    try:
        bot.initial_sync()
    except Exception:  # a failed sync must not stop the bot; events sync lazily anyway
        logger.exception("initial Slack channel sync failed")
