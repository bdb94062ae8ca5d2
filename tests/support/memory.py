"""Helpers to build a real memory (LanceDB + Tantivy in a temp dir) for tests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.embeddings import HashingEmbedder
from memory.models import Message, Scope
from memory.proposer import OfflineProposer
from memory.reader.offline import OfflineReader
from memory.reader.tools import offline_tools
from memory.store import MemoryStore, open_store
from memory.writer import Writer, open_writer

T0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)


def open_memory(path: Path, *, verification: bool = True) -> tuple[MemoryStore, Writer]:
    emb = HashingEmbedder()
    store = open_store(uri=str(path / "lance"), lexical_dir=path / "lexical", dim=emb.dim)
    writer = open_writer(store=store, embedder=emb, proposer=OfflineProposer(),
                         verification=verification)
    return store, writer


def thread_first(path: Path, turns: list[Message]) -> Callable[[str], str]:
    """The first answer line to a question asked two days after ``turns`` (a thread)."""
    store, writer = open_memory(path)
    writer.write(turns)
    reader = OfflineReader(tools=offline_tools(store, HashingEmbedder()))
    asked = T0 + timedelta(days=2)
    return lambda q: reader.answer(q, scope=Scope(platform="slack", space="T1"),
                                   reference=asked).answer.splitlines()[0]


def msg(i: int, user: str, text: str, *, channel: str = "C1", space: str = "T1",
        thread: str | None = None, reply_to: str | None = None, minutes: int | None = None,
        channel_name: str = "atlas-dev") -> Message:
    return Message(
        platform="slack", space=space, channel=channel, channel_name=channel_name, id=str(i),
        user=f"U{user.upper()}", user_name=user, ts=T0 + timedelta(minutes=minutes or i),
        text=text, thread_id=thread, reply_to=reply_to,
    )


def review_thread() -> list[Message]:
    """The paper's Figure 1 plus a second revision and a topic-sharing distractor."""
    return [
        msg(1, "Alice", "Atlas design review is Thursday at 3 pm"),
        msg(2, "Bob", "reminder: bring the review checklist", thread="1", reply_to="1"),
        msg(3, "Alice", "let's do 4 pm instead", thread="1", reply_to="1"),
        msg(4, "Carol", "+1, works for me", thread="1", reply_to="3"),
        msg(5, "Dan", "thanks!"),
        msg(6, "Alice", "review slips to Friday 10am"),
        msg(7, "Eve", "We decided the release will be version 2.3"),
        msg(8, "Frank", "actually we're calling it 2.4"),
    ]


def lunch_thread() -> list[Message]:
    """A lunch thread: the root sets the date, a poll in the thread picks the place, and a
    later top-level message switches the place."""
    return [
        msg(1, "Hugo", "Team lunch next Friday (the 15th)! Where should we go? Drop ideas below."),
        msg(2, "Farid", "Taqueria Luna! their al pastor is unreal", thread="1", reply_to="1"),
        msg(3, "Carmen", "Pho Saigon!!", thread="1", reply_to="1"),
        msg(4, "Hugo", "Poll's closed: Pho Saigon it is 🍜 Friday the 15th at 12:30.",
            thread="1", reply_to="1"),
        msg(5, "Hugo", "Bad news on lunch: Pho Saigon is closed. Switching to Taqueria Luna."),
    ]


def labelled_lunch_thread() -> list[Message]:
    """A thread opened by a labelled proposal ("Team lunch - thinking we move it …"), whose
    decision answers another reply; then a thread on the value in force ("the 1:15 is a bit
    tricky for me … my train only gets in at 1:20") that moves it."""
    return [
        msg(1, "Rosa", "Team lunch - thinking we move it to Fridays 12:30 so the night shift "
                       "can come. thoughts?"),
        msg(2, "Ines", "12:30 clashes with the pharmacy run tho", thread="1", reply_to="1"),
        msg(3, "Omar", "could we do after the huddle instead? wed 1.15, clinic starts at 2",
            thread="1", reply_to="1"),
        msg(4, "Ines", "fine by me", thread="1", reply_to="1"),
        msg(5, "Rosa", "ok let's go Wednesday 1:15 then, starting this week", thread="1",
            reply_to="1"),
        msg(600, "Pavel", "the 1:15 is a bit tricky for me on weds, my train only gets in "
                          "at 1:20"),
        msg(610, "Omar", "ah. 1.45 then? still before clinic", thread="600", reply_to="600"),
        msg(620, "Rosa", "1:45 it is from next week", thread="600", reply_to="600"),
    ]
