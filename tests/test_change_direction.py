""""Before the increase" / "before they cut it" names the change by its direction: the value
before is the one the latest change that way left, not simply the one before the latest."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.reader.answer_parts import direction, last_move, moved
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 5, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 6, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("anchor", "way"), [
    ("the increase", 1), ("we raised it", 1), ("the price went up", 1),
    ("Niamh cut it", -1), ("it dropped", -1), ("it moved to friday", 0),
    ("we set the booth up", 0), ("the site went down", -1),
])
def test_a_change_named_by_its_direction(anchor: str, way: int) -> None:
    assert direction(anchor, DEFAULT_LEXICON) == way


def test_amounts_move_by_their_numbers() -> None:
    assert moved("£612", "£1,224", 1) and not moved("£612", "£1,224", -1)
    assert not moved("tuesday", "wednesday", 1)
    assert last_move(["£20", "£25", "£24"], 1) == 1 and last_move(["£20", "£25", "£24"], -1) == 2


def test_the_value_before_the_increase(tmp_path: Path) -> None:
    # the chain is £20 → £25 → £24: "before the increase" is £20, not the £25 before the
    # latest value
    chat = channel_chat(tmp_path, [
        (0, "kai", "proposal for the AGM: membership subs go from £20 to £25 from september"),
        (3000, "kai", "revised subs: £24 rather than £25, students pushed back"),
    ], start=T0, asked=ASKED)
    first = chat.first("what were the membership subs before the increase?")
    assert first.startswith("£20")
    assert chat.first("what were the membership subs before the cut?").startswith("£25")
