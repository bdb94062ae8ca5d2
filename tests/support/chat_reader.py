"""One unthreaded channel's chat, written through the real write path (hashing embedder),
and the offline reader over it: the fixture of the reader's judgement tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from memory.embeddings import HashingEmbedder
from memory.models import Answer, EvidenceNode, Message, Scope
from memory.proposer import OfflineProposer
from memory.reader.offline import OfflineReader
from memory.reader.tools import offline_tools
from memory.store import open_store
from memory.writer import open_writer


def chat_author(*, space: str, channel: str, channel_name: str,
                start: datetime) -> Callable[[int, str, str], Message]:
    """``m(minutes, user, text)``: a message ``minutes`` after ``start`` in that channel."""
    def m(minutes: int, user: str, text: str) -> Message:
        return Message(platform="slack", space=space, channel=channel,
                       channel_name=channel_name, id=f"{channel}.{minutes}",
                       user=f"U{user.upper()}", user_name=user,
                       ts=start + timedelta(minutes=minutes), text=text)
    return m


def written_reader(path: Path, chat: Sequence[Message]) -> OfflineReader:
    emb = HashingEmbedder()
    store = open_store(uri=str(path / "lance"), lexical_dir=path / "lex", dim=emb.dim)
    open_writer(store=store, embedder=emb, proposer=OfflineProposer()).write(list(chat))
    return OfflineReader(tools=offline_tools(store, emb))


@dataclass
class ChannelChat:
    """A reader over one channel's chat and the question time: ``first`` is the first line
    of an answer (what a user reads first)."""

    reader: OfflineReader
    scope: Scope
    asked: datetime

    def answer(self, question: str, *, asker: str | None = None) -> Answer:
        """The answer to ``question`` asked by the member ``asker`` (a user name of the
        chat), or by nobody in particular."""
        return self.reader.answer(question, scope=self.scope, reference=self.asked,
                                  asker=f"U{asker.upper()}" if asker else None)

    def first(self, question: str, *, asker: str | None = None) -> str:
        return self.answer(question, asker=asker).answer.splitlines()[0]


def channel_chat(path: Path, turns: Sequence[tuple[int, str, str]], *, start: datetime,
                 asked: datetime, channel: str = "C1", channel_name: str = "general"
                 ) -> ChannelChat:
    """``turns`` ((minutes, user, text)) written into one channel, with a reader over it."""
    say = chat_author(space="T1", channel=channel, channel_name=channel_name, start=start)
    reader = written_reader(path, [say(*turn) for turn in turns])
    return ChannelChat(reader, Scope(platform="slack", space="T1", channels=(channel,)), asked)


def turn_node(i: int, speaker: str, text: str, *, start: datetime) -> EvidenceNode:
    """The ``i``-th turn of one channel as an evidence node, ``i`` minutes after ``start``
    (for judging a reply against what it answers without a store)."""
    return EvidenceNode(node_id=f"n{i}", seq=i, platform="slack", space="T1", channel="C1",
                        message_id=f"m{i}", speaker_id=f"U{speaker}", speaker=speaker,
                        ts=start + timedelta(minutes=i), text=text)
