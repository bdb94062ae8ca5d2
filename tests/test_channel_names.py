"""A channel's name comes from the import's channel record when its messages carry none: an
answer cites "#hut", not a bare id. A channel's name alone answers nothing ("when is
standup?" in #standup is not answered by the retro's new time)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from bot.app import build
from bot.ingest import ingest_path
from bot.settings import Settings
from memory.embeddings import MiniLMEmbedder
from memory.models import Scope
from memory.proposer import OfflineProposer
from memory.reader.offline import OfflineReader
from memory.reader.tools import offline_tools
from memory.store import open_store
from memory.writer import open_writer
from tests.support.chat_reader import ChannelChat, channel_chat, chat_author


def _records() -> list[dict[str, object]]:
    base = {"platform": "discord", "space": "G1"}
    members = ["U1", "U2", "U3"]
    return [
        {"type": "channel", **base, "id": "C1", "name": "general", "is_private": False,
         "members": members},
        {"type": "channel", **base, "id": "C2", "name": "hut", "is_private": False,
         "members": members},
        {"type": "message", **base, "channel": "C1", "id": "m1", "user": "U1",
         "user_name": "anke", "ts": "2026-06-01T17:00:00+02:00",
         "text": "summer programme is pinned, see the channels for details"},
        {"type": "message", **base, "channel": "C2", "id": "m2", "user": "U2",
         "user_name": "felix", "ts": "2026-06-16T17:00:00+02:00",
         "text": "departure fri 26th: meet at the station 17:00, we carpool up"},
        {"type": "message", **base, "channel": "C2", "id": "m3", "user": "U3",
         "user_name": "ines", "ts": "2026-06-16T17:05:00+02:00", "text": "👍"},
    ]


def test_an_imported_message_is_cited_by_its_channel_name(tmp_path: Path) -> None:
    source = tmp_path / "chat.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in _records()) + "\n", encoding="utf-8")
    eg = build(Settings(data=str(tmp_path / "data"), embedder="hashing"))
    try:
        ingest_path(eg, source)
        ans = eg.ask("what time do we meet at the station on friday", platform="discord",
                     space="G1", user="U1", channel="C1", widen=False)
    finally:
        eg.close()
    assert not ans.abstained
    assert "17:00" in ans.answer.splitlines()[0]
    assert any(c.channel_name == "hut" for c in ans.citations)


def test_a_channel_alone_answers_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [(0, "ana", "retro moved to thu 3pm this week")],
                        start=datetime(2026, 3, 2, 9, 0, tzinfo=UTC),
                        asked=datetime(2026, 3, 9, 9, 0, tzinfo=UTC), channel_name="standup")
    assert chat.answer("when is standup?").abstained


def test_a_channel_alone_answers_nothing_even_for_an_event(tmp_path: Path) -> None:
    # with the real embedder "lunch" is near "dinner": the channel's word must not leave
    # the question's word to a near synonym
    say = chat_author(space="T1", channel="C1", channel_name="dinner",
                      start=datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    emb = MiniLMEmbedder()
    store = open_store(uri=str(tmp_path / "lance"), lexical_dir=tmp_path / "lex", dim=emb.dim)
    open_writer(store=store, embedder=emb, proposer=OfflineProposer()).write(
        [say(0, "mo", "lunch at noon thu at the deli"), say(10, "jo", "yum")])
    chat = ChannelChat(OfflineReader(tools=offline_tools(store, emb)),
                       Scope(platform="slack", space="T1", channels=("C1",)),
                       datetime(2026, 3, 9, 9, 0, tzinfo=UTC))
    assert chat.answer("when is dinner?").abstained
