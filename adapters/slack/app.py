"""egmem's Slack app: a bolt :class:`App` wired to a :class:`MemoryService`.

Acknowledgement and durability
    The app runs with ``process_before_response=True``. Bolt then runs a listener's *ack
    function* to completion before the HTTP 200 (or Socket Mode ack) goes back to Slack,
    so a message event is acknowledged only after ``service.submit`` has made it durable:
    if submit fails, Slack gets a 500 and redelivers. Everything slow (committing with
    ``service.process()``, answering questions) runs in bolt *lazy listeners*, which bolt
    starts in a thread once the ack function has returned and which do not hold the
    response — Slack's 3-second deadline is never spent on an LLM.

Retries
    Slack redelivers an event (``X-Slack-Retry-Num``) it believes was not acknowledged.
    ``submit`` is idempotent on the message key, so a redelivered message is a no-op; an
    ``@egmem`` question is answered once per (team, channel, ts), remembered in a bounded
    in-process set.

Permissions
    Before a conversation's first message is submitted its visibility (and, for private
    channels, DMs and group DMs, its members) is upserted, so recall never treats a
    private conversation as public. ``member_joined_channel``/``member_left_channel``
    refresh it. ``@egmem`` answers in public threads read only what that channel may
    (``widen=False``); ``/recall`` answers privately and may read the asker's private
    conversations (``widen=True``); "Share in channel" re-asks with ``widen=False`` so a
    shared answer never carries evidence from conversations the channel cannot see.
    ``/recall why`` audits only messages the asker may read, and says the same about an
    unreadable message as about an unknown one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from typing import Any, Protocol

from slack_bolt import Ack, App, BoltContext, Respond
from slack_sdk.web import WebClient

from adapters.slack.blocks import (
    HELP_TEXT,
    SHARE_ACTION_ID,
    answer_blocks,
    answer_text,
    audit_blocks,
    audit_text,
    help_blocks,
    notice_blocks,
    timeline_blocks,
    timeline_text,
)
from adapters.slack.directory import ChannelInfo, SlackDirectory
from adapters.slack.membership import fetch_channel, sync_channels
from adapters.slack.normalize import PLATFORM, normalize_message_event, render_text
from adapters.slack.recall import (
    Auditor,
    audit_ident,
    mention_question,
    message_author,
    parse_permalink,
    parse_recall,
    share_value,
    shared_question,
)
from adapters.slack.server import SlackHTTPServer
from bot.service import MemoryService
from memory.errors import ConfigError, UserFacingError
from memory.models import Channel

logger = logging.getLogger(__name__)

SLACK_API_URL = "https://slack.com/api/"
RECALL_COMMAND = "/recall"
SORRY = "Sorry, something went wrong answering that. Please try again in a minute."

# Slack's channel_type on message events; member_joined_channel uses "C"/"G".
_PRIVATE_TYPES = frozenset({"group", "im", "mpim", "G"})
_KNOWN_TYPES = _PRIVATE_TYPES | {"channel", "C"}


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


def build_slack_app(
    *,
    service: MemoryService,
    bot_token: str,
    signing_secret: str,
    api_url: str | None = None,
    process_inline: bool = True,
    client: WebClient | None = None,
    membership_ttl_s: float = 6 * 3600.0,
    token_verification: bool = True,
    listener_executor: Executor | None = None,
    admins: Iterable[str] = (),
) -> App:
    """Build the bolt app: one :class:`WebClient` (``base_url=api_url`` or Slack's), the
    listeners for ``message`` (all conversation kinds, edits, deletes), ``app_mention``,
    ``member_joined_channel``/``member_left_channel``, ``/recall`` and the Share button.

    With ``process_inline`` each acknowledged event also triggers ``service.process()``
    (coalesced, one at a time) after the ack; otherwise a background worker must drain.
    With ``token_verification`` bolt calls ``auth.test`` now, failing fast on a bad token.
    ``listener_executor`` runs the lazy listeners (bolt's default: a thread pool).
    ``admins`` (user ids, EGMEM_ADMINS) may ``/recall forget`` any message, as may the
    workspace's own admins and owners.
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
    listeners = SlackListeners(
        service=service,
        directory=SlackDirectory(client=client),
        process_inline=process_inline,
        membership_ttl_s=membership_ttl_s,
        admins=admins,
    )
    listeners.register(app)
    return app


def serve_slack(
    service: MemoryService,
    settings: SlackSettings,
    *,
    socket: bool,
    port: int,
    host: str = "127.0.0.1",
) -> None:
    """Run the Slack bot until interrupted: Socket Mode (``SLACK_APP_TOKEN``, development,
    no public URL needed) or HTTP (``POST /slack/events`` on ``host:port``, production)."""
    if not settings.slack_bot_token:
        raise ConfigError("set SLACK_BOT_TOKEN (xoxb-…) to run the Slack bot")
    if not socket and not settings.slack_signing_secret:
        raise ConfigError("set SLACK_SIGNING_SECRET to receive Slack events over HTTP")
    if socket and not settings.slack_app_token:
        raise ConfigError("Socket Mode needs SLACK_APP_TOKEN (xapp-…, scope connections:write)")
    app = build_slack_app(
        service=service,
        bot_token=settings.slack_bot_token,
        # Socket Mode payloads are not signed; bolt still wants a value.
        signing_secret=settings.slack_signing_secret or "socket-mode",
        api_url=settings.slack_api_url,
        admins=settings.admins,
    )
    threading.Thread(target=_initial_sync, args=(app.client, service), name="slack-sync",
                     daemon=True).start()
    if socket:
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        SocketModeHandler(app, settings.slack_app_token).start()  # type: ignore[no-untyped-call]
        return
    server = SlackHTTPServer(app, host=host, port=port)
    logger.info("Slack events endpoint listening on %s", server.url)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def _initial_sync(client: WebClient, service: MemoryService) -> None:
    """Record the visibility of every conversation the bot is in, off the event path."""
    try:
        team_id = str(client.auth_test().get("team_id") or "")
        sync_channels(client, service, team_id=team_id)
    except Exception:  # a failed sync must not stop the bot; events sync lazily anyway
        logger.exception("initial Slack channel sync failed")


# --- helpers -----------------------------------------------------------------------------


class _SeenSet:
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


class _Processor:
    """Runs ``service.process()`` one at a time; a kick during a run causes one more run,
    so nothing submitted is left waiting for the next event."""

    def __init__(self, process: Callable[[], int]) -> None:
        self._process = process
        self._run = threading.Lock()
        self._flag = threading.Lock()
        self._dirty = False

    def kick(self) -> None:
        with self._flag:
            self._dirty = True
        while self._run.acquire(blocking=False):
            try:
                while True:
                    with self._flag:
                        if not self._dirty:
                            break
                        self._dirty = False
                    try:
                        self._process()
                    except Exception:  # the inbox keeps the events; the next kick retries
                        logger.exception("processing Slack events failed")
            finally:
                self._run.release()
            with self._flag:
                if not self._dirty:
                    return


def _team_id(body: Mapping[str, Any], context: Mapping[str, Any] | None = None) -> str:
    candidates: list[object] = [context.get("team_id") if context else None, body.get("team_id")]
    for key in ("team", "user"):
        part = body.get(key)
        if isinstance(part, Mapping):
            candidates.append(part.get("id") if key == "team" else part.get("team_id"))
    for value in candidates:
        if isinstance(value, str) and value:
            return value
    return ""


# --- listeners ---------------------------------------------------------------------------


class SlackListeners:
    """The listener functions; bolt injects their arguments by parameter name."""

    def __init__(
        self,
        *,
        service: MemoryService,
        directory: SlackDirectory,
        process_inline: bool = True,
        membership_ttl_s: float = 6 * 3600.0,
        admins: Iterable[str] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.directory = directory
        self.process_inline = process_inline
        self._processor = _Processor(service.process)
        self._answered = _SeenSet()
        self._synced: dict[tuple[str, str], float] = {}
        self._synced_lock = threading.Lock()
        self._membership_ttl = membership_ttl_s
        self._admins = frozenset(admins)
        self._clock = clock

    def register(self, app: App) -> None:
        app.event("message")(ack=self.on_message, lazy=[self.after_event])
        app.event("app_mention")(ack=self.on_mention, lazy=[self.answer_mention])
        for kind in ("member_joined_channel", "member_left_channel"):
            app.event(kind)(ack=self.ack_only, lazy=[self.refresh_membership])
        app.command(RECALL_COMMAND)(ack=self.on_recall, lazy=[self.run_recall])
        app.action(SHARE_ACTION_ID)(ack=self.ack_only, lazy=[self.share])

    # --- events ---------------------------------------------------------------------------

    def ack_only(self, ack: Ack) -> None:
        ack()

    def on_message(self, body: dict[str, Any], event: dict[str, Any],
                   context: BoltContext) -> None:
        """Runs before the ack: record visibility, normalize, submit durably."""
        self._ingest(_team_id(body, context), event)

    def after_event(self) -> None:
        if self.process_inline:
            self._processor.kick()

    def on_mention(self, body: dict[str, Any], event: dict[str, Any],
                   context: BoltContext) -> None:
        # The mention is also a message of the channel; message events may not be
        # subscribed everywhere, and submit is idempotent when they are.
        self._ingest(_team_id(body, context), event)

    def answer_mention(self, body: dict[str, Any], event: dict[str, Any],
                       context: BoltContext, client: WebClient) -> None:
        team = _team_id(body, context)
        channel, ts, user = event.get("channel"), event.get("ts"), event.get("user")
        if not (isinstance(channel, str) and isinstance(ts, str) and isinstance(user, str)):
            return
        if not self._answered.first(f"{team}:{channel}:{ts}"):
            logger.info("mention %s/%s already answered (retry)", channel, ts)
            return
        thread_ts = event.get("thread_ts") or ts
        raw = mention_question(str(event.get("text") or ""), bot_user_id=context.bot_user_id)
        question = render_text(raw, users=self.directory.names()).strip()
        if not question:
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=HELP_TEXT,
                                    blocks=help_blocks())
            return
        self.after_event()
        try:
            answer = self.service.ask(question, platform=PLATFORM, space=team, user=user,
                                      channel=channel, widen=False)
            client.chat_postMessage(channel=channel, thread_ts=thread_ts,
                                    text=answer_text(answer), blocks=answer_blocks(answer),
                                    unfurl_links=False, unfurl_media=False)
        except Exception as exc:
            logger.exception("answering mention %s/%s failed", channel, ts)
            text = str(exc) if isinstance(exc, UserFacingError) else SORRY
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=text,
                                    blocks=notice_blocks(text))

    def refresh_membership(self, body: dict[str, Any], event: dict[str, Any],
                           context: BoltContext) -> None:
        channel = event.get("channel")
        if not isinstance(channel, str):
            return
        team = _team_id(body, context)
        self.directory.forget_channel(channel)
        with self._synced_lock:
            self._synced.pop((team, channel), None)
        ctype = event.get("channel_type")
        self._ensure_channel(team, channel, ctype if isinstance(ctype, str) else None,
                             author=None, patient=True)

    def _ingest(self, team: str, event: Mapping[str, Any]) -> None:
        channel = event.get("channel")
        if not team or not isinstance(channel, str):
            return
        ctype = event.get("channel_type")
        author = event.get("user")
        self._ensure_channel(team, channel, ctype if isinstance(ctype, str) else None,
                             author=author if isinstance(author, str) else None)
        item = normalize_message_event(
            event,
            team_id=team,
            users=self.directory.names(),
            channel_name=self.directory.channel_name(channel),
            permalink_base=self.directory.permalink_base(),
        )
        if item is None:
            return
        new = self.service.submit([item])
        logger.debug("slack %s %s/%s submitted (new=%d)", type(item).__name__, channel,
                     item.id, new)

    def _ensure_channel(self, team: str, channel: str, channel_type: str | None, *,
                        author: str | None, patient: bool = False) -> None:
        """Upsert the conversation's visibility once per TTL. If a private conversation's
        members cannot be read now, record it as private to the author alone (never as
        public) and try again on the next event."""
        key = (team, channel)
        now = self._clock()
        with self._synced_lock:
            if self._synced.get(key, float("-inf")) > now:
                return
        info = self.directory.channel(channel)
        if info is None:
            if channel_type not in _KNOWN_TYPES:
                logger.warning("visibility of Slack channel %s unknown; not recorded", channel)
                return
            info = ChannelInfo(id=channel, name="", is_private=channel_type in _PRIVATE_TYPES,
                               is_im=channel_type == "im", is_mpim=channel_type == "mpim")
        record: Channel | None
        try:
            record = fetch_channel(self.directory.client, channel, team_id=team, info=info,
                                   max_waits=3 if patient else 0)
        except Exception as exc:
            logger.warning("members of Slack channel %s unavailable: %s", channel,
                           type(exc).__name__)
            record = None
        synced = record is not None
        if record is None:
            if not info.is_private:
                record = Channel(platform=PLATFORM, space=team, id=channel, name=info.name)
                synced = True
            else:
                record = Channel(platform=PLATFORM, space=team, id=channel, name=info.name,
                                 is_private=True, members=(author,) if author else ())
        self.service.upsert_channels([record])
        if synced:
            with self._synced_lock:
                self._synced[key] = now + self._membership_ttl

    # --- /recall --------------------------------------------------------------------------

    def on_recall(self, ack: Ack, command: dict[str, Any]) -> None:
        """Answer within Slack's 3 s: help and usage errors at once, otherwise an empty ack
        while :meth:`run_recall` works."""
        req = parse_recall(str(command.get("text") or ""))
        if req.kind == "help":
            ack(text=HELP_TEXT, blocks=help_blocks(), response_type="ephemeral")
        elif req.kind == "usage":
            ack(text=req.usage, blocks=notice_blocks(req.usage), response_type="ephemeral")
        else:
            ack()

    def run_recall(self, command: dict[str, Any], respond: Respond, context: BoltContext,
                   client: WebClient) -> None:
        req = parse_recall(str(command.get("text") or ""))
        if req.kind in ("help", "usage"):
            return
        team = _team_id(command, context)
        user = str(command.get("user_id") or "")
        channel = str(command.get("channel_id") or "")
        try:
            if req.kind == "ask":
                self.after_event()
                answer = self.service.ask(req.arg, platform=PLATFORM, space=team, user=user,
                                          channel=channel, widen=True)
                share = None if answer.abstained else share_value(req.arg)
                respond(text=answer_text(answer), response_type="ephemeral",
                        blocks=answer_blocks(answer, question=req.arg, share_value=share))
            elif req.kind == "history":
                self.after_event()
                states = self.service.history(req.arg, platform=PLATFORM, space=team,
                                              user=user, channel=channel, widen=True)
                respond(text=timeline_text(states, topic=req.arg), response_type="ephemeral",
                        blocks=timeline_blocks(states, topic=req.arg))
            elif req.kind == "why":
                text, blocks = self._why(team=team, user=user, channel=channel, target=req.arg)
                respond(text=text, blocks=blocks, response_type="ephemeral")
            else:
                text = self._forget(client, team=team, user=user, link_text=req.arg)
                respond(text=text, blocks=notice_blocks(text), response_type="ephemeral")
        except Exception as exc:
            if not isinstance(exc, UserFacingError):
                logger.exception("/recall %s failed", req.kind)
            text = str(exc) if isinstance(exc, UserFacingError) else SORRY
            respond(text=text, blocks=notice_blocks(text), response_type="ephemeral")

    def _why(self, *, team: str, user: str, channel: str, target: str
             ) -> tuple[str, list[dict[str, Any]]]:
        """The audit reply for ``/recall why``: only nodes the asker may read (the service
        applies the same scope as ``/recall`` questions)."""
        if not isinstance(self.service, Auditor):
            text = "Audits are not available from this deployment."
            return text, notice_blocks(text)
        ident = audit_ident(target, platform=PLATFORM, space=team)
        if ident is None:
            text = ("That doesn't look like a Slack message link or a state id. Use ⋯ → Copy "
                    "link on the message, or an id from `/recall history`.")
            return text, notice_blocks(text)
        self.after_event()  # a message acknowledged a moment ago should be auditable
        nodes = self.service.why(ident, platform=PLATFORM, space=team, user=user,
                                 channel=channel)
        logger.info("audit of %s by %s: %d node(s)", ident, user, len(nodes))
        return audit_text(nodes, ident=target), audit_blocks(nodes, ident=target)

    def _forget(self, client: WebClient, *, team: str, user: str, link_text: str) -> str:
        link = parse_permalink(link_text)
        if link is None:
            return ("That doesn't look like a Slack message link. Use ⋯ → Copy link on the "
                    "message, then `/recall forget <link>`.")
        if user not in self._admins and not self.directory.is_admin(user):
            author = message_author(client, link)
            if author is None:
                return ("I can't confirm who wrote that message, so only a workspace admin "
                        "can make me forget it.")
            if author != user:
                return "You can only make me forget your own messages (admins: any message)."
        found = self.service.forget_message(platform=PLATFORM, space=team, channel=link.channel,
                                            message_id=link.ts)
        logger.info("forget %s/%s requested by %s: found=%s", link.channel, link.ts, user, found)
        if found:
            return ("Done: I've forgotten that message (its text, index entries and what "
                    "I derived from it). The message itself is still in Slack.")
        return "I had no record of that message, so there was nothing to forget."

    # --- Share in channel -----------------------------------------------------------------

    def share(self, body: dict[str, Any], action: dict[str, Any], respond: Respond,
              context: BoltContext) -> None:
        question = shared_question(str(action.get("value") or ""))
        user = body.get("user") or {}
        channel = body.get("channel") or {}
        user_id = user.get("id") if isinstance(user, Mapping) else None
        channel_id = channel.get("id") if isinstance(channel, Mapping) else None
        if not (question and isinstance(user_id, str) and isinstance(channel_id, str)):
            return
        try:
            answer = self.service.ask(question, platform=PLATFORM, space=_team_id(body, context),
                                      user=user_id, channel=channel_id, widen=False)
        except Exception as exc:
            logger.exception("share failed")
            text = str(exc) if isinstance(exc, UserFacingError) else SORRY
            respond(text=text, response_type="ephemeral", replace_original=False)
            return
        respond(text=answer_text(answer), response_type="in_channel", replace_original=False,
                blocks=answer_blocks(answer, question=question, shared_by=user_id))
        respond(delete_original=True)
