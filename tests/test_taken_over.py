"""Who is doing it when someone else takes over: an offer ("low on toner, ill order") taken
over in the next turns by another person ("nah i'll do it, I'm on the supplier site
anyway"), or a call under the offer for someone else ("can anyone else do it?") taken by a
reply. An acknowledgement takes nothing over.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.taking_words import TAKING_OVER
from tests.support.chat_reader import channel_chat

START = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 2, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("reply", [
    "nah i'll do it, I'm on the supplier site anyway",
    "leave it with me, you've got the press running",
    "I can do that, I have the account open",
])
def test_an_offer_taken_over(tmp_path: Path, reply: str) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kim", "black toner for the laser is nearly out, ill order"),
        (5, "lou", reply),
        (9, "kim", "ta"),
    ], start=START, asked=ASKED)
    first = chat.first("who's ordering the toner")
    assert first.lower().startswith("lou")


def test_an_acknowledged_offer_stays_with_its_speaker(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kim", "black toner for the laser is nearly out, ill order"),
        (5, "lou", "ok ta"),
        (9, "ray", "the van's back from the garage btw"),
    ], start=START, asked=ASKED)
    assert chat.first("who's ordering the toner").lower().startswith("kim")


@pytest.mark.parametrize(("text", "takes"), [
    ("i'll do it", True), ("nah I'll take it", True), ("leave it with me", True),
    ("I've got this", True), ("i'll do it later, busy now", True),
    ("ok", False), ("thanks, I'll check the van", False), ("I'll be late", False),
    ("I've got it already thanks", False), ("mine's doing the same", False),
    ("i'll take it home after", False), ("I can do that next week", False),
])
def test_what_takes_over(text: str, takes: bool) -> None:
    assert (TAKING_OVER.search(text) is not None) is takes


def test_a_call_for_someone_else_under_the_offer(tmp_path: Path) -> None:
    from memory.models import Scope
    from tests.support.chat_reader import ChannelChat, chat_author, written_reader
    say = chat_author(space="T1", channel="C1", channel_name="general", start=START)
    root = say(0, "finn", "Radio Wey want someone on the drive-time show Fri 13th 5:10pm to "
                          "plug the fair. I can do it")
    replies = [say(10, "june", "famous 🌟"),
               say(600, "finn", "ugh I'm away that weekend after all, can someone else do it?"),
               say(640, "nadia", "leave it with me, I'll go on")]
    thread = [m.model_copy(update={"thread_id": root.id}) for m in replies]
    chat = ChannelChat(written_reader(tmp_path, [root, *thread]),
                       Scope(platform="slack", space="T1", channels=("C1",)), ASKED)
    assert chat.first("who's going on radio wey").lower().startswith("nadia")


def test_an_i_will_do_it_after_another_request_is_for_that_request(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pat", "toner's nearly out, ill order"),
        (3, "kev", "can someone lock up tonight?"),
        (5, "liz", "i'll do it"),
    ], start=START, asked=ASKED)
    assert chat.first("who is ordering the toner").lower().startswith("pat")
