"""A reason relayed from someone else: "Whitfields just emailed - they're in Lisbon until the
18th" gives the reason as what was relayed, not who relayed it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.reader.extract import relayed
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("reason", "text", "expected"), [
    ("council rang", "council rang: the inspector's off sick, visit now wed 23 april",
     "the inspector's off sick, visit now wed 23 april"),
    ("Brightline called", "Brightline called. earliest start they can do is mid september",
     "earliest start they can do is mid september"),
    ("the venue flooded", "the venue flooded. moving to the annex", "the venue flooded"),
    ("Sam emailed", "Sam emailed?", "Sam emailed"),
])
def test_a_reason_that_only_says_who_relayed_it_gives_what_was_relayed(
        reason: str, text: str, expected: str) -> None:
    assert relayed(reason, text) == expected


def test_why_is_answered_with_the_news_not_with_who_brought_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "marco", "the Whitfields confirmed the client presentation for thurs 13th, 10am"),
        (600, "helena", "Whitfields just emailed - they're in Lisbon until the 18th."
                        " presentation moves to tuesday the 20th"),
        (620, "marco", "👍"),
    ], start=T0, asked=ASKED)
    first = chat.first("why did the presentation get moved off the 13th?")
    assert "Lisbon" in first
