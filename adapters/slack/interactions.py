"""Everything a person does with egmem in Slack: ``/recall``, ``@egmem``, DMs, the Share
and 👍/👎 buttons, the "Is this still current?" message shortcut and the App Home tab; and
the two scheduled posts (weekly digests, deleting uninstalled workspaces).

Instant feedback: ``/recall`` is acknowledged with a visible "Searching…" that the answer
replaces (``replace_original`` on the response URL); a mention or DM gets a "Searching…"
placeholder that is updated in place (``chat.update``). Answers come from what is already
committed: nothing waits for the inbox, and an answer says when the asking channel still
has messages being read.

Permissions: ``@egmem`` answers in channels read only what the channel may
(``widen=False``); ``/recall`` and DMs answer privately from what the asker may read
(``widen=True``). *Share in channel* posts exactly the answer the asker saw (kept
server-side for 30 minutes, the life of a response URL), and is offered only when the
scope it was composed from and everything it shows (citations, every decision and chain
entry, links) are readable by everyone in the channel (checked again when pressed, and
only the checked parts are posted); otherwise the answer says why it cannot be shared.
A press takes the answer atomically (a double press shares once); the private copy is
deleted only after the shared one was posted, and a failed post can be pressed again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from slack_bolt import Ack, BoltContext, Respond
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web import WebClient

from adapters.chat_errors import chat_error_text
from adapters.errors import AccessUnknown
from adapters.slack.access import SlackAccess
from adapters.slack.audit import audit_blocks, audit_text
from adapters.slack.blocks import (
    FEEDBACK_UP_ACTION_ID,
    HELP_TEXT,
    MENTION_HINT,
    Block,
    ShareOffer,
    answer_blocks,
    answer_text,
    channel_link,
    context_block,
    feedback_value,
    help_blocks,
    notice_blocks,
    searching_blocks,
    timeline_blocks,
    timeline_text,
    withheld_note,
)
from adapters.slack.directory import SlackDirectory
from adapters.slack.normalize import PLATFORM, render_text
from adapters.slack.recall import (
    Auditor,
    audit_ident,
    mention_question,
    message_author,
    parse_feedback,
    parse_permalink,
    parse_recall,
)
from adapters.slack.sharing import SeenSet, ShareCache
from adapters.slack.views import (
    HOME_DAYS,
    home_view,
    status_blocks,
)
from adapters.slack.webapi import error_code
from memory.ports import ChatService, FeedbackEntry

logger = logging.getLogger(__name__)

SORRY = "Sorry, something went wrong answering that. Please try again in a minute."
ACCESS_UNKNOWN = ("Sorry, I couldn't check which conversations you can read just now, so I "
                  "can't answer yet. Please try again in a minute.")

BackfillRunner = Callable[[str, str, str | None, str | None], "Future[Any] | None"]
"""(team, channel, since, user to notify) → a started backfill, or None if unavailable."""


def _user_team(event: Mapping[str, Any]) -> str | None:
    """The asker's own workspace as an event names it (another organization's in a Slack
    Connect channel)."""
    value = event.get("user_team")
    return value if isinstance(value, str) and value else None


def _id_of(part: object) -> str | None:
    value = part.get("id") if isinstance(part, Mapping) else None
    return value if isinstance(value, str) and value else None


class SlackInteractions:
    """Listeners for questions and buttons (bolt injects their arguments by name)."""

    def __init__(self, *, service: ChatService, directory: SlackDirectory,
                 admins: Iterable[str] = (),
                 now: Callable[[], datetime] = lambda: datetime.now(UTC),
                 backfill: BackfillRunner | None = None,
                 shares: ShareCache | None = None,
                 priority: Callable[[], AbstractContextManager[None]] = nullcontext,
                 access: SlackAccess | None = None) -> None:
        self.service = service
        self.directory = directory
        self.access = access
        self.backfill = backfill
        self._admins = frozenset(admins)
        self._now = now
        self._answered = SeenSet()
        self._shares = shares or ShareCache()
        self._priority = priority

    # --- answering ------------------------------------------------------------------------

    def clear_asker(self, team: str, user: str, *, user_team: str | None = None,
                    channel: str | None = None) -> None:
        """Record what ``user`` may read (a guest, someone of another organization) before
        anything is read for them; raises :class:`AccessUnknown` when Slack cannot say."""
        if self.access is not None and self.access.asker(
                team, user, user_team=user_team, channel=channel) is None:
            raise AccessUnknown(ACCESS_UNKNOWN)

    def answer_blocks_for(self, question: str, *, team: str, user: str, channel: str,
                          widen: bool, offer_share: bool, show_question: bool,
                          user_team: str | None = None) -> tuple[str, list[Block]]:
        """Ask, then render: answer, chain, pending note, evidence, buttons. While this
        runs, no new commit run starts (``priority``): a person is waiting."""
        self.clear_asker(team, user, user_team=user_team, channel=channel)
        with self._priority():
            return self._answer_blocks(question, team=team, user=user, channel=channel,
                                       widen=widen, offer_share=offer_share,
                                       show_question=show_question)

    def _answer_blocks(self, question: str, *, team: str, user: str, channel: str,
                       widen: bool, offer_share: bool, show_question: bool
                       ) -> tuple[str, list[Block]]:
        answer = self.service.ask(question, platform=PLATFORM, space=team, user=user,
                                  channel=channel, widen=widen)
        pending = self.service.pending_in(platform=PLATFORM, space=team, channel=channel)
        offer: ShareOffer | None = None
        if offer_share and not answer.abstained and answer.citations \
                and not channel.startswith("D"):
            check = self.service.share_check(answer, platform=PLATFORM, space=team,
                                             channel=channel, user=user, widen=widen)
            if check.ok and check.answer is not None:
                offer = ShareOffer(value=self._shares.put(
                    check.answer, question=question, asker=user, team=team, channel=channel,
                    widen=widen))
            else:
                offer = ShareOffer(withheld=check.withheld, missing=check.missing,
                                   private_scope=check.private_scope,
                                   unverified=check.unverified)
        blocks = answer_blocks(answer, question=question if show_question else None,
                               share=offer, pending=pending,
                               feedback=feedback_value(answer, question=question, asker=user))
        return answer_text(answer), blocks

    def _post_placeholder(self, client: WebClient, *, channel: str, thread_ts: str | None,
                          question: str) -> str | None:
        try:
            resp = client.chat_postMessage(channel=channel, thread_ts=thread_ts,
                                           text="Searching…", blocks=searching_blocks(question))
        except SlackClientError as exc:
            logger.warning("could not post a placeholder in %s: %s", channel,
                           error_code(exc) if isinstance(exc, SlackApiError) else
                           type(exc).__name__)
            return None
        ts = resp.get("ts")
        return ts if isinstance(ts, str) else None

    def _deliver(self, client: WebClient, *, channel: str, thread_ts: str | None,
                 placeholder: str | None, text: str, blocks: list[Block]) -> None:
        """Replace the placeholder with the answer; if that update is refused, replace it
        with plain text (a different request, not the same one again); without a
        placeholder, post the answer once."""
        try:
            if placeholder is not None:
                client.chat_update(channel=channel, ts=placeholder, text=text, blocks=blocks)
            else:
                client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=text,
                                        blocks=blocks, unfurl_links=False, unfurl_media=False)
            return
        except SlackClientError as exc:
            logger.warning("answer in %s refused: %s", channel,
                           error_code(exc) if isinstance(exc, SlackApiError) else
                           type(exc).__name__)
        if placeholder is None:
            return
        try:
            client.chat_update(channel=channel, ts=placeholder, text=SORRY,
                               blocks=notice_blocks(SORRY))
        except SlackClientError:
            logger.exception("could not replace the placeholder in %s", channel)

    def _ask_safely(self, question: str, **kw: Any) -> tuple[str, list[Block]]:
        try:
            return self.answer_blocks_for(question, **kw)
        except Exception as exc:
            text = chat_error_text(exc, fallback=SORRY,
                                   where=f"answering in {kw.get('channel')}")
            return text, notice_blocks(text)

    # --- @mentions and DMs ----------------------------------------------------------------

    def answer_mention(self, team: str, event: Mapping[str, Any], *, client: WebClient,
                       bot_user_id: str | None) -> None:
        channel, ts, user = event.get("channel"), event.get("ts"), event.get("user")
        if not (isinstance(channel, str) and isinstance(ts, str) and isinstance(user, str)):
            return
        if not self._answered.first(f"{team}:{channel}:{ts}"):
            logger.info("mention %s/%s already answered (retry)", channel, ts)
            return
        thread_ts = str(event.get("thread_ts") or ts)
        raw = mention_question(str(event.get("text") or ""), bot_user_id=bot_user_id)
        question = render_text(raw, users=self.directory.names()).strip()
        if not question:
            try:
                client.chat_postEphemeral(channel=channel, user=user, text=MENTION_HINT,
                                          thread_ts=thread_ts if event.get("thread_ts")
                                          else None)
            except SlackClientError:
                logger.warning("could not send the mention hint in %s", channel)
            return
        placeholder = self._post_placeholder(client, channel=channel, thread_ts=thread_ts,
                                             question=question)
        text, blocks = self._ask_safely(question, team=team, user=user, channel=channel,
                                        widen=False, offer_share=False, show_question=False,
                                        user_team=_user_team(event))
        self._deliver(client, channel=channel, thread_ts=thread_ts, placeholder=placeholder,
                      text=text, blocks=blocks)

    def answer_dm(self, team: str, event: Mapping[str, Any], *, client: WebClient) -> None:
        """A message in the bot's DM is a question, answered from what the asker may read
        (their private conversations included); it is never remembered."""
        channel, ts, user = event.get("channel"), event.get("ts"), event.get("user")
        if event.get("subtype") or event.get("bot_id") or not (
                isinstance(channel, str) and isinstance(ts, str) and isinstance(user, str)):
            return
        if not self._answered.first(f"{team}:{channel}:{ts}"):
            return
        question = render_text(str(event.get("text") or ""), users=self.directory.names())
        question = " ".join(question.split())
        if not question:
            return
        if question.lower() in ("help", "/recall help", "?"):
            self._deliver(client, channel=channel, thread_ts=None, placeholder=None,
                          text=HELP_TEXT, blocks=help_blocks())
            return
        placeholder = self._post_placeholder(client, channel=channel, thread_ts=None,
                                             question=question)
        text, blocks = self._ask_safely(question, team=team, user=user, channel=channel,
                                        widen=True, offer_share=False, show_question=False,
                                        user_team=_user_team(event))
        self._deliver(client, channel=channel, thread_ts=None, placeholder=placeholder,
                      text=text, blocks=blocks)

    # --- /recall --------------------------------------------------------------------------

    def on_recall(self, ack: Ack, command: dict[str, Any]) -> None:
        """Answer within Slack's 3 s: help and usage errors at once; otherwise a visible
        "Searching…" that :meth:`run_recall` replaces."""
        req = parse_recall(str(command.get("text") or ""))
        if req.kind == "help":
            ack(text=HELP_TEXT, blocks=help_blocks(), response_type="ephemeral")
        elif req.kind == "usage":
            ack(text=req.usage, blocks=notice_blocks(req.usage), response_type="ephemeral")
        else:
            label = req.arg if req.kind in ("ask", "history") else f"/recall {req.kind}"
            ack(text="Searching…", blocks=searching_blocks(label), response_type="ephemeral")

    def run_recall(self, command: dict[str, Any], respond: Respond, context: BoltContext,
                   client: WebClient) -> None:
        req = parse_recall(str(command.get("text") or ""))
        if req.kind in ("help", "usage"):
            return
        team = str(context.get("team_id") or command.get("team_id") or "")
        user = str(command.get("user_id") or "")
        channel = str(command.get("channel_id") or "")
        user_team = str(command.get("user_team") or command.get("team_id") or "") or None
        try:
            if req.kind in ("ask", "history", "why"):
                self.clear_asker(team, user, user_team=user_team, channel=channel)
            if req.kind == "ask":
                text, blocks = self.answer_blocks_for(req.arg, team=team, user=user,
                                                      channel=channel, widen=True,
                                                      offer_share=True, show_question=True)
            elif req.kind == "history":
                states = self.service.history(req.arg, platform=PLATFORM, space=team,
                                              user=user, channel=channel, widen=True)
                text = timeline_text(states, topic=req.arg)
                blocks = timeline_blocks(states, topic=req.arg)
            elif req.kind == "why":
                text, blocks = self._why(team=team, user=user, channel=channel, target=req.arg)
            elif req.kind == "digest":
                text = self._digest(team=team, user=user, channel=channel, on=req.arg == "on")
                blocks = notice_blocks(text)
            elif req.kind == "backfill":
                text = self._backfill(team=team, user=user, channel=channel,
                                      since=req.arg or None)
                blocks = notice_blocks(text)
            else:
                text = self._forget(client, team=team, user=user, link_text=req.arg)
                blocks = notice_blocks(text)
        except Exception as exc:
            text = chat_error_text(exc, fallback=SORRY, where=f"/recall {req.kind}")
            blocks = notice_blocks(text)
        respond(text=text, blocks=blocks, response_type="ephemeral", replace_original=True)

    def _why(self, *, team: str, user: str, channel: str, target: str
             ) -> tuple[str, list[Block]]:
        """The audit reply for ``/recall why``: only nodes the asker may read."""
        if not isinstance(self.service, Auditor):
            text = "Audits are not available from this deployment."
            return text, notice_blocks(text)
        ident = audit_ident(target, platform=PLATFORM, space=team)
        if ident is None:
            text = ("That doesn't look like a Slack message link or a state id. Use ⋯ → Copy "
                    "link on the message.")
            return text, notice_blocks(text)
        nodes = self.service.why(ident, platform=PLATFORM, space=team, user=user,
                                 channel=channel)
        logger.info("audit of %s by %s: %d node(s)", ident, user, len(nodes))
        return audit_text(nodes, ident=target), audit_blocks(nodes, ident=target)

    def _is_admin(self, user: str) -> bool:
        return user in self._admins or self.directory.is_admin(user)

    def _forget(self, client: WebClient, *, team: str, user: str, link_text: str) -> str:
        link = parse_permalink(link_text)
        if link is None:
            return ("That doesn't look like a Slack message link. Use ⋯ → Copy link on the "
                    "message, then `/recall forget <link>`.")
        if not self._is_admin(user):
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

    def _digest(self, *, team: str, user: str, channel: str, on: bool) -> str:
        if channel.startswith("D"):
            return "Digests are posted in channels: run `/recall digest on` in the channel."
        changed = self.service.set_digest(platform=PLATFORM, space=team, channel=channel,
                                          enabled=on, by=user,
                                          manager=not on and self._is_admin(user))
        where = channel_link(channel)
        if on:
            state = "is now on" if changed else "was already on"
            return (f"The weekly digest {state} for {where}: every Monday at 09:00 UTC I post "
                    "here the decisions that changed in this channel that week (I must be a "
                    "member: `/invite @egmem`). `/recall digest off` stops it.")
        return f"The weekly digest is {'now' if changed else 'already'} off for {where}."

    def _backfill(self, *, team: str, user: str, channel: str, since: str | None) -> str:
        if not self._is_admin(user):
            return "Only workspace admins (or EGMEM_ADMINS) can start a backfill."
        if self.backfill is None:
            return "Backfill is not available in this deployment."
        started = self.backfill(team, channel, since, user)
        if started is None:
            return "I could not start the backfill; see the server log."
        after = f" from {since}" if since else ""
        return (f"Reading the history of {channel_link(channel)}{after} in the background "
                "(resumable; Slack's rate limits apply). I'll tell you here when it is done.")

    # --- buttons --------------------------------------------------------------------------

    def share(self, body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
        """Post the answer the asker saw, once: the token is taken before anything is
        posted (a double press shares once) and put back if posting fails."""
        token = str(action.get("value") or "")
        user = _id_of(body.get("user"))
        item = self._shares.take(token)
        if item is None or user is None:
            respond(text="This answer can no longer be shared (answers can be shared for 30 "
                         "minutes). Ask again to share a fresh one.",
                    response_type="ephemeral", replace_original=False)
            return
        if user != item.asker:
            self._shares.restore(token, item)
            respond(text="Only the person who asked can share this answer.",
                    response_type="ephemeral", replace_original=False)
            return
        check = self.service.share_check(item.answer, platform=PLATFORM, space=item.team,
                                         channel=item.channel, user=item.asker,
                                         widen=item.widen)
        if not check.ok or check.answer is None:
            note = withheld_note(ShareOffer(withheld=check.withheld, missing=check.missing,
                                            private_scope=check.private_scope,
                                            unverified=check.unverified))
            respond(text="Not shared: what it shows is no longer readable by everyone here.",
                    blocks=[context_block(note)], response_type="ephemeral",
                    replace_original=False)
            return
        shared = check.answer  # exactly the parts that were checked, nothing else
        blocks = answer_blocks(shared, question=item.question, shared_by=item.asker,
                               feedback=feedback_value(shared, question=item.question,
                                                       asker=item.asker))
        posted = respond(text=answer_text(shared), blocks=blocks,
                         response_type="in_channel", replace_original=False)
        if getattr(posted, "status_code", 500) != 200:
            logger.warning("sharing in %s failed (HTTP %s)", item.channel,
                           getattr(posted, "status_code", "?"))
            self._shares.restore(token, item)
            respond(text="I couldn't post that in the channel; your answer is still here.",
                    response_type="ephemeral", replace_original=False)
            return
        respond(delete_original=True)

    def feedback(self, body: dict[str, Any], action: dict[str, Any], respond: Respond,
                 context: BoltContext) -> None:
        payload = parse_feedback(str(action.get("value") or ""))
        rater = _id_of(body.get("user"))
        if payload is None or rater is None:
            return
        channel = _id_of(body.get("channel")) or str(
            (body.get("container") or {}).get("channel_id") or "")
        vote: Literal["up", "down"] = (
            "up" if action.get("action_id") == FEEDBACK_UP_ACTION_ID else "down")
        self.service.record_feedback(FeedbackEntry(
            platform=PLATFORM, space=str(context.get("team_id") or _id_of(body.get("team"))
                                         or ""),
            channel=channel, asker=payload.asker or rater, rater=rater, vote=vote,
            question=payload.question, node_ids=payload.node_ids,
            message_ids=payload.message_ids, abstained=payload.abstained, at=self._now()))
        thanks = ("Thanks! Noted that this answer helped." if vote == "up" else
                  "Thanks: noted that this answer missed. It will help egmem get better.")
        respond(text=thanks, response_type="ephemeral", replace_original=False)

    # --- "Is this still current?" and App Home ----------------------------------------------

    def still_current(self, body: dict[str, Any], respond: Respond,
                      context: BoltContext) -> None:
        user = _id_of(body.get("user"))
        channel = _id_of(body.get("channel"))
        message = body.get("message")
        ts = message.get("ts") if isinstance(message, Mapping) else None
        if not (user and channel and isinstance(ts, str)):
            return
        team = str(context.get("team_id") or _id_of(body.get("team")) or "")
        user_team = body.get("user", {}).get("team_id") if isinstance(
            body.get("user"), Mapping) else None
        try:
            self.clear_asker(team, user, user_team=user_team if isinstance(user_team, str)
                             else None, channel=channel)
            status = self.service.message_status(platform=PLATFORM, space=team,
                                                 channel=channel, message_id=ts, user=user)
            blocks = status_blocks(status)
            text = "Is this still current?"
        except Exception as exc:
            text = chat_error_text(exc, fallback=SORRY,
                                   where=f"message status of {channel}/{ts}")
            blocks = notice_blocks(text)
        respond(text=text, blocks=blocks, response_type="ephemeral", replace_original=False)

    def home_opened(self, team: str, event: Mapping[str, Any], *, client: WebClient) -> None:
        user = event.get("user")
        if event.get("tab") not in (None, "home") or not isinstance(user, str):
            return
        try:
            self.clear_asker(team, user)
        except AccessUnknown:
            return  # the Home tab keeps what it showed; the next opening tries again
        since = self._now() - timedelta(days=HOME_DAYS)
        states = self.service.recent_changes(platform=PLATFORM, space=team, user=user,
                                             channel=None, since=since, widen=True)
        client.views_publish(user_id=user, view=home_view(states))
