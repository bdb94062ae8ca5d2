"""A small team chat written through the real write path, for the reader tests.

Channel C1 (#atlas-dev, public) holds a review time revised twice, a release version
revised once, a checklist reminder about the same review (a separate state), an outing
suggestion with its question, and a thread whose answer shares no words with its question.
Channel C2 (#hr-private) holds one private message that must never leak into C1's scope.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.embeddings import Embedder, HashingEmbedder
from memory.models import Message, Scope
from memory.proposer import OfflineProposer
from memory.store import MemoryStore, open_store
from memory.writer import Writer, open_writer

T0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)  # a Monday
PUBLIC = Scope(platform="slack", space="T1", channels=("C1",))
EVERYTHING = Scope(platform="slack", space="T1")
PRIVATE_PHRASE = "salary bands"


def msg(i: int, user: str, text: str, *, channel: str = "C1", minutes: float | None = None,
        **kw: str) -> Message:
    name = "atlas-dev" if channel == "C1" else "hr-private"
    return Message(platform="slack", space="T1", channel=channel, channel_name=name,
                   id=f"{channel}.{i}", user=user, user_name=user,
                   ts=T0 + timedelta(minutes=i if minutes is None else minutes), text=text,
                   permalink=f"https://example.invalid/{channel}/{i}", **kw)


def chat() -> list[Message]:
    return [
        msg(1, "Alice", "Atlas design review is Thursday at 3 pm"),
        msg(2, "Bob", "reminder: bring the review checklist", thread_id="C1.1",
            reply_to="C1.1"),
        msg(3, "Alice", "let's do 4 pm instead", thread_id="C1.1", reply_to="C1.1"),
        msg(4, "Carol", "+1, works for me", thread_id="C1.1", reply_to="C1.3"),
        msg(5, "Dan", "where should we go for the team outing?"),
        msg(6, "Bob", "How about The Lake? great food and a terrace", thread_id="C1.5",
            reply_to="C1.5"),
        msg(7, "Eve", "We decided the release will be version 2.3"),
        msg(8, "Alice", "review slips to Friday 10am"),
        msg(9, "Frank", "actually we're calling it 2.4"),
        msg(10, "Gina", "Which database should we pick for the analytics pipeline?"),
        msg(11, "Hal", "Honestly ClickHouse handles columnar aggregations very well at our "
            "scale", thread_id="C1.10", reply_to="C1.10"),
        msg(1, "Ivy", f"Draft {PRIVATE_PHRASE} for the review are in the HR drive, due Friday",
            channel="C2", minutes=30),
    ]


def noise(n: int, start: int = 100) -> list[Message]:
    """Messages that share words with pipeline/database questions but answer nothing."""
    topics = ["the database backup", "the pipeline dashboard", "the database migration",
              "pick the pipeline owner", "the analytics offsite"]
    return [msg(start + i, "Zed", f"note {i}: {topics[i % len(topics)]} is tracked in jira",
                minutes=60 * 24 * 2 + i)
            for i in range(n)]


@dataclass
class Memory:
    store: MemoryStore
    embedder: Embedder
    writer: Writer

    def node(self, message_id: str, channel: str = "C1") -> str:
        found = self.store.find_message(channel=channel, message_id=message_id,
                                        platform="slack", space="T1")
        assert found is not None, message_id
        return found.node_id


def build(tmp_path: Path, messages: list[Message] | None = None,
          embedder: Embedder | None = None) -> Memory:
    emb = embedder or HashingEmbedder()
    store = open_store(uri=str(tmp_path / "lance"), lexical_dir=tmp_path / "lex", dim=emb.dim)
    writer = open_writer(store=store, embedder=emb, proposer=OfflineProposer())
    writer.write(messages if messages is not None else chat())
    return Memory(store=store, embedder=emb, writer=writer)
