"""One unthreaded channel's chat, written through the real write path (hashing embedder),
and the offline reader over it: the fixture of the reader's judgement tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

from memory.embeddings import HashingEmbedder
from memory.models import Message
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
