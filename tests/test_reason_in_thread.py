"""Why a decision moved, when the move is decided in a thread: the thread's first message is
the turn before its replies ("the 1:15 is a bit tricky for me … my train gets in at 1:20"
→ "ah. 1.45 then?" → "1:45 it is from next week"), it names the value left as chat says it
("the 1:15" of "Wednesday 1:15"), and "tricky" stands in the way as "can't" does. A day
naming the thing as it was known ("the wednesday lunch") is what the change left, not
where it went.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from memory.models import Scope
from tests.support.chat_reader import ChannelChat, written_reader
from tests.support.memory import T0, labelled_lunch_thread

CHAT = labelled_lunch_thread()


def _chat(tmp_path: Path) -> ChannelChat:
    return ChannelChat(written_reader(tmp_path, CHAT),
                       Scope(platform="slack", space="T1", channels=("C1",)),
                       T0 + timedelta(minutes=700))


def test_the_reason_is_the_threads_first_message(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    first = chat.first("why did the wednesday lunch move to 1:45?")
    assert "train" in first


def test_the_earlier_value_and_the_current_one(tmp_path: Path) -> None:
    chat = _chat(tmp_path)
    assert "1:45" in chat.first("what time's team lunch now?")
    before = chat.first("what time was team lunch before it moved to 1:45?")
    assert "1:15" in before or "1.15" in before
