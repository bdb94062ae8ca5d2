"""A colour asked is answered by a colour ("what colour are the hoodies?" → "navy"), the
colour a change went to rather than the one it left ("went blue & white instead of the
yellow"), and not by a colour someone only asked for ("can we get teal 🥺").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.colour_words import colours_in
from memory.analysis.question import analyze_question
from tests.support.chat_reader import channel_chat

START = datetime(2026, 5, 18, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "found"), [
    ("also went blue & white instead of the yellow", ["blue & white", "yellow"]),
    ("test patches on the end wall, pale blue and sage", ["pale blue", "sage"]),
    ("can we go sage green instead", ["sage green"]),
    ("navy with the orange otter, £28 each", ["navy", "orange"]),
    ("off-white or light grey?", ["off-white", "light grey"]),
    ("the review is on friday at 3", []),
    ("got the green light for the new aprons", []),
    ("we're in the red this month", []),
    ("Sage is bringing the cake", []),
    ("meet at the Red Lion", []),
])
def test_colours_in(text: str, found: list[str]) -> None:
    assert [sl.text for sl in colours_in(text)] == found


@pytest.mark.parametrize("question", [
    "what colours are the posters?", "what colour are the hoodies?",
    "what color did we paint the shed?", "which shade are the tablecloths?",
])
def test_a_colour_question_asks_a_colour(question: str) -> None:
    assert analyze_question(question).family == "colour"


def test_the_colour_changed_to_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "chloe", "poster draft v1 attached — yellow & green, thoughts?"),
        (20, "margaret", "lovely chloe. maybe a bit less clip art"),
        (4000, "chloe", "poster v2 with the new date. also went blue & white instead of the "
                        "yellow, the yellow came out mustard on the test print"),
    ], start=START, asked=ASKED, channel_name="publicity")
    first = chat.first("what colours are the posters?")
    assert "blue & white" in first
    assert "yellow" not in first


def test_a_colour_only_asked_for_does_not_replace_one(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "raj", "hoodie order is open! navy with the orange otter, £28 each, names on "
                   "the sheet by fri 25th pls"),
        (8, "sam", "can we get teal 🥺"),
    ], start=START, asked=ASKED)
    first = chat.first("what colour are the hoodies?")
    assert "navy" in first
    assert "teal" not in first
