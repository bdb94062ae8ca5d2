"""A counter-offer taken up settles the value: "£3 a car" → "£2. £3 feels steep" → "fair,
£2" leaves £2, and an agreeing word before a value said alone settles it ("fair, £2",
"agreed, 300").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.said_alone import bare_value
from tests.support.chat_reader import channel_chat

START = datetime(2026, 6, 4, 8, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "value", "settled"), [
    ("fair, £2", "£2", True),
    ("agreed, 300", "300", True),
    ("fair enough, $40", "$40", True),
    ("£2", "£2", False),
    ("fair enough", None, False),
])
def test_an_agreeing_word_settles_a_value(text: str, value: str | None, settled: bool) -> None:
    bare = bare_value(text)
    assert (bare.text if bare else None) == value
    if bare is not None:
        assert bare.settled is settled


def test_a_counter_offer_taken_up_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "derek", "are we charging for parking?"),
        (5, "pete", "£3 a car, goes in the pot"),
        (15, "margaret", "£2. £3 feels steep for a village do"),
        (16, "pete", "fair, £2"),
    ], start=START, asked=ASKED, channel_name="logistics")
    first = chat.first("how much is parking per car?")
    assert "£2" in first
    assert "£3" not in first


def test_an_offer_taken_up_by_its_name_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "harriet", "espresso machine's on its last legs. linea mini is £5,600 new 😬"),
        (20, "prakash", "too much this year with the lease. the engineer's got a refurb "
                        "sanremo for £3,900"),
        (25, "june", "the sanremo's fine, bas will cope 😂"),
        (30, "harriet", "ok refurb sanremo. prakash can you order it"),
    ], start=START, asked=ASKED, channel_name="management")
    first = chat.first("what are we paying for the new espresso machine?")
    assert "3,900" in first
    assert "5,600" not in first
