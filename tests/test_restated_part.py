"""A later turn saying part of a value again ("5:30 is better for me" after "now Tue 20 Oct,
5:30pm") adds nothing to it: the fuller value answers; a turn saying another value still
replaces it.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.reader.word_forms import part_of
from tests.support.chat_reader import channel_chat

START = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 10, 15, 9, 0, tzinfo=UTC)


def test_a_restated_part_does_not_replace_the_whole(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pia", "AED/first-aid yearly update booked: Sue from LifeLine, Wed 21 Oct 6pm, "
                   "staff room. Compulsory for all clinical staff, sorry!"),
        (600, "pia", "first aid training moving - Sue's double booked on the 21st. Now Tue "
                     "20 Oct, 5:30pm. Sorry if that messes anyone about"),
        (605, "lou", "5:30 is better for me tbh"),
    ], start=START, asked=ASKED)
    first = chat.first("when's the first aid training now?")
    assert "20" in first
    assert "21" not in first


@pytest.mark.parametrize(("value", "held", "inside"), [
    ("5:30", "Tue 20 Oct, 5:30pm", True),
    ("10am", "Thursday 10am", True),
    ("10", "10:30", False),
    ("6", "6:30", False),
    ("Thursday 10am", "Thursday 10am", False),
])
def test_part_of(value: str, held: str, inside: bool) -> None:
    assert part_of(value, held) is inside
