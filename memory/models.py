"""Domain models of egmem's memory: messages, evidence nodes, states, proposals, answers.

These are the shapes every layer speaks. Raw platform payloads are TypedDicts in
``adapters/``; they are normalized into :class:`Message` before reaching memory.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


def utc(dt: datetime) -> datetime:
    """Return ``dt`` as an aware UTC datetime (naive input is taken to be UTC)."""
    if dt.tzinfo is None:
        return dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC)


class Verdict(StrEnum):
    """How a message relates to the channel's states (paper §3.3)."""

    ESTABLISH = "establish"
    REVISE = "revise"
    RESTATE = "restate"
    CONTEXT = "context"


class Outcome(StrEnum):
    ACCEPTED = "accepted"
    DOWNGRADED = "downgraded"
    REJECTED = "rejected"


class MessageKey(BaseModel):
    """The idempotency key of a message everywhere: inbox, nodes, indexes."""

    model_config = ConfigDict(frozen=True)

    platform: str
    space: str
    channel: str
    message_id: str

    def node_id(self) -> str:
        """Deterministic node id, so a replayed commit overwrites instead of duplicating."""
        raw = "\x1f".join((self.platform, self.space, self.channel, self.message_id))
        return "n_" + hashlib.sha256(raw.encode()).hexdigest()[:20]


class Message(BaseModel):
    """One chat message, normalized from any platform or import format."""

    model_config = ConfigDict(frozen=True)

    platform: str = Field(min_length=1)
    space: str = Field(min_length=1)
    channel: str = Field(min_length=1)
    id: str = Field(min_length=1)
    user: str = Field(min_length=1)
    user_name: str = ""
    ts: datetime
    text: str
    thread_id: str | None = None
    reply_to: str | None = None
    channel_name: str | None = None
    permalink: str | None = None
    is_bot: bool = False
    edited: bool = False

    @field_validator("ts")
    @classmethod
    def _to_utc(cls, v: datetime) -> datetime:
        return utc(v)

    @property
    def key(self) -> MessageKey:
        return MessageKey(
            platform=self.platform, space=self.space, channel=self.channel, message_id=self.id
        )

    @property
    def speaker(self) -> str:
        return self.user_name or self.user


class Channel(BaseModel):
    """A channel's visibility, used to scope recall (who may read what)."""

    model_config = ConfigDict(frozen=True)

    platform: str
    space: str
    id: str
    name: str = ""
    is_private: bool = False
    members: tuple[str, ...] = ()


class Facet(BaseModel):
    """A further state one message establishes or revises beside its main one ("Board
    meeting is Nov 7. Deck draft due Nov 1, Raj owns the product section" opens three; "the
    Cup moves to the Bathurst Community Centre and the date is now Aug 24" revises two)."""

    topic: str
    source_quote: str
    value_family: str = ""
    prior_state_id: str | None = Field(
        default=None, description="the state this value revises; None: it opens a state")


class Proposal(BaseModel):
    """A writer's proposed memory update for one message (paper eq. 3)."""

    message_id: str
    topic: str = ""
    verdict: Verdict = Verdict.CONTEXT
    source_quote: str = ""
    prior_state_id: str | None = None
    rewrite: str = ""
    proposer: str = "offline"
    act: str = Field(default="", description="the speech act (memory.analysis.definitions)")
    value_family: str = Field(default="", description="the kind of value the quote holds")
    reason: str = Field(default="", description="the reason the message gives, quoted")
    answers: str | None = Field(
        default=None, description="id of the message this one answers or accepts (a reply "
        "parent, or the question or proposal just before it in unthreaded chat)")
    facets: list[Facet] = Field(
        default_factory=list, description="further states this message establishes; state "
        "k is named after the node (memory.facets), so its chain starts at this message")


class Verification(BaseModel):
    """What deterministic verification made of a proposal; kept for audit."""

    outcome: Outcome
    verdict: Verdict
    reasons: list[str] = Field(default_factory=list)


class EvidenceNode(BaseModel):
    """One committed message with its provenance, rewrite and place in a chain."""

    node_id: str
    seq: int = 0
    platform: str
    space: str
    channel: str
    channel_name: str = ""
    message_id: str
    thread_id: str | None = None
    reply_to: str | None = None
    reply_to_node: str | None = None
    speaker_id: str
    speaker: str
    ts: datetime
    text: str
    rewrite: str = ""
    permalink: str | None = None
    topic: str = ""
    state_id: str | None = None
    verdict: Verdict = Verdict.CONTEXT
    value: str = ""
    supersedes: str | None = None
    edited: bool = False
    context: str = Field(
        default="",
        description="what the turn answers, quoted from the turn before it: searched (vector "
        "and BM25) but never matched as the message's own words nor shown as its text",
    )
    context_ids: list[str] = Field(
        default_factory=list, description="nodes whose text the rewrite borrowed (for forgetting)"
    )
    proposal: Proposal | None = None
    verification: Verification | None = None

    @field_validator("ts")
    @classmethod
    def _to_utc(cls, v: datetime) -> datetime:
        return utc(v)

    @property
    def passage(self) -> str:
        """The text search and presentation use: the rewrite, falling back to the source."""
        return self.rewrite or self.text

    @property
    def searchable(self) -> str:
        """The passage with its borrowed context: what the message's vector and its BM25
        document are made from."""
        return f"{self.passage} {self.context}" if self.context else self.passage


class ChainEntry(BaseModel):
    node_id: str
    message_id: str
    value: str
    speaker: str
    ts: datetime
    quote: str
    verdict: Verdict
    permalink: str | None = None
    act: str = Field(default="", description="the speech act of the message (a proposal's "
                     "value is only suggested)")
    reason: str = Field(default="", description="the reason the message gives, quoted")


class State(BaseModel):
    """One conversational state in one channel scope; its chain is oldest first."""

    state_id: str
    platform: str
    space: str
    channel: str
    topic: str
    description: str = ""
    value: str = ""
    active_node_id: str
    revision_count: int = 0
    updated_at: datetime
    chain: list[ChainEntry] = Field(default_factory=list)


class Citation(BaseModel):
    node_id: str
    message_id: str
    channel: str
    channel_name: str = ""
    speaker: str
    ts: datetime
    quote: str
    permalink: str | None = None


class Answer(BaseModel):
    answer: str
    short: str = Field(
        default="",
        description="the direct answer alone when one could be extracted (a state's value, "
        "a date, the answering phrase); empty when abstaining",
    )
    abstained: bool = False
    citations: list[Citation] = Field(default_factory=list)
    states: list[State] = Field(default_factory=list)
    rounds: int = 0
    gathered: list[str] = Field(default_factory=list, description="node ids, in gather order")
    kind: str = Field(
        default="", description="what the question asked (memory.analysis.definitions."
        "QuestionKind: current, previous, original, who, when, why, list, fact)")
    closest: list[Citation] = Field(
        default_factory=list, description="when abstaining: the closest messages the asker "
        "may read, to show collapsed; never an answer")
    coverage: float | None = Field(
        default=None, description="how much of what the question is about the best piece of "
        "evidence covers, in [0, 1] (the offline reader abstains below its threshold)")


class Scope(BaseModel):
    """Where a read may look. Enforced inside store queries, never by post-filtering."""

    model_config = ConfigDict(frozen=True)

    space: str | None = None
    channels: tuple[str, ...] | None = None
    thread_id: str | None = None
    platform: str | None = None


class JsonlRecordType(StrEnum):
    MESSAGE = "message"
    CHANNEL = "channel"
    EDIT = "edit"
    DELETE = "delete"


class Edit(BaseModel):
    model_config = ConfigDict(frozen=True)

    platform: str = ""
    space: str = ""
    channel: str
    id: str
    text: str
    ts: datetime


class Delete(BaseModel):
    model_config = ConfigDict(frozen=True)

    platform: str = ""
    space: str = ""
    channel: str
    id: str
    ts: datetime | None = None


Event = Message | Edit | Delete | Channel
EventKind = Literal["message", "edit", "delete", "channel"]
