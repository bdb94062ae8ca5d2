"""A choice settled with no subject of its own ("figtree it is") revises the state whose
value the rest of the message names as left behind ("bye inter"); "X & Y it is" settles
the whole name."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "value"), [
    ("roof: benson & daughters it is. they start monday", "benson & daughters"),
    ("Marsh & Sons it is", "Marsh & Sons"),
])
def test_a_name_joined_by_ampersand_is_settled_whole(text: str, value: str) -> None:
    a = MessageAnalyzer().analyze(text)
    assert any(v.text == value and v.kind.value == "choice"
               for c in a.clauses for v in c.values)


def test_a_settled_choice_replaces_the_value_it_names_beside(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "font for the landing page? i vote Inter, it's safe"),
        (5, "ben", "Inter it is then"),
        (30, "ana", "anyone seen the new coffee machine"),
        (2000, "cai", "tried figtree on the mockups, reads much nicer at small sizes"),
        (2003, "dev", "mockup review is thursday 3pm btw"),
        (2006, "cai", "hero image budget is $400 max"),
        (2010, "ana", "figtree it is. bye inter 👋"),
    ], start=T0, asked=ASKED)
    first = chat.first("which font are we using for the landing page?").lower()
    assert "figtree" in first and "inter" not in first.split("(")[0]


def test_a_choice_beside_an_unrelated_name_opens_nothing_of_it(tmp_path: Path) -> None:
    # the other name is not a value any state holds: the font stays Inter
    chat = channel_chat(tmp_path, [
        (0, "ana", "font for the landing page? i vote Inter, it's safe"),
        (5, "ben", "Inter it is then"),
        (2000, "cai", "lunch: thai or the burrito place?"),
        (2010, "ana", "burrito it is. sorry thai lovers"),
    ], start=T0, asked=ASKED)
    assert "inter" in chat.first("which font are we using for the landing page?").lower()


def test_a_question_answered_in_the_same_message_names_the_subject(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "venue for the team offsite? i vote the lake house"),
        (5, "ben", "works for me"),
    ], start=T0, asked=ASKED)
    answer = chat.answer("where is the team offsite?")
    assert not answer.abstained and any(
        "offsite" in s.topic for s in answer.states)
