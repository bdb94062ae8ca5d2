"""What a *before* question asks.

* "what was the labour rate before march": a value in force before a day is the previous
  one ("going from $145 to $155/hr from 1 march" → $145); "what did we decide before
  friday" asks no value, so no previous one.
* A *before* clause put first ends at its comma: "before the final move, what day was the
  brew set for" names "the final move", not the words asking.
* "what night was trivia before it moved?" asks a day, which a time alone ("yep 7pm as
  usual") does not give.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import analyze_question
from tests.support.chat_reader import channel_chat

START = datetime(2026, 2, 16, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)


def test_a_value_before_a_day_is_the_previous_one() -> None:
    qa = analyze_question("what was the labour rate before march")
    assert qa.kind is QuestionKind.PREVIOUS
    assert qa.anchor == "march"
    assert analyze_question("what did we decide before friday").kind is not \
        QuestionKind.PREVIOUS


def test_a_before_clause_put_first_ends_at_its_comma() -> None:
    qa = analyze_question("before the final move, what day was the gose brew set for")
    assert qa.kind is QuestionKind.PREVIOUS
    assert qa.anchor == "the final move"
    assert analyze_question("what time was standup before it moved to 10, then?").anchor \
        == "it moved to 10"


def test_the_rate_before_the_day_it_changed(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mel", "sign's up: labour rate going from $145 to $155/hr from 1 march. fleet "
                   "emails sent"),
        (30, "gary", "good. scan tool sub is up 31 march, i'll just renew it"),
    ], start=START, asked=ASKED, channel_name="front-desk")
    first = chat.first("what was the labour rate before march")
    assert "145" in first
    assert "155" not in first


def test_a_day_asked_before_a_move_is_a_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tess", "trivia night this wed 2/18 still on? questions are ready"),
        (7, "marcus", "yep 7pm as usual"),
        (13000, "marcus", "trivia is moving to THURSDAYS starting 3/5. wed nights the "
                          "bowling league takes over the back room"),
        (13010, "tess", "works for me"),
    ], start=START, asked=ASKED, channel_name="taproom")
    first = chat.first("what night was trivia before it moved?")
    assert "wed" in first.lower()
    assert "7pm" not in first
