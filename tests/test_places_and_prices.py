"""Values as people write them: a part of a named place is a place in it ("the back lot of
Millbrook Elementary"), a place turned down beside the new one is the value replaced ("library
car park, not the SU steps"), a verb of paying asks a price ("what did the fix end up
costing"), a bill's amount is the price of what its message is about, a number of things is
no price ("two offices" never replaces "$110"), "making it 105" sets a number, and "now"
before a verb says a change ("coach now leaves at 6:30")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.matching import measure, same_measure
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.text import has_revision_cue
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 4, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 4, 20, 9, 0, tzinfo=UTC)


def _claims(text: str) -> list[str]:
    a = MessageAnalyzer().analyze(text, speaker="Marcus")
    return [c.value.text for clause in a.clauses for c in clause.claims]


@pytest.mark.parametrize(("text", "place"), [
    ("So we'll meet at the back lot of Millbrook Elementary instead.",
     "the back lot of Millbrook Elementary"),
    ("we'll be at the skatepark end of Riverside Park this year",
     "the skatepark end of Riverside Park"),
    ("meeting point change: library car park", "library car park"),
    ("Meet at the Oak Street bridge parking lot. Gloves provided.",
     "the Oak Street bridge parking lot"),
    ("our booth is at the far end of Hall B, by the coffee", "the far end of Hall B"),
    ("expo booth is at the east side of Building 7, door C", "the east side of Building 7"),
])
def test_a_place_is_read_whole(text: str, place: str) -> None:
    assert place in _claims(text)


@pytest.mark.parametrize("text", ["see you at the end", "meet at the end of the road",
                                  "we're at the side of the building"])
def test_a_part_of_no_named_place_is_no_place(text: str) -> None:
    assert _claims(text) == []


def test_a_place_turned_down_beside_the_new_one_is_the_old_value() -> None:
    a = MessageAnalyzer().analyze("meeting point: library car park, not the SU steps.",
                                  speaker="Kwame")
    clause = next(c for c in a.clauses if c.claims)
    assert [c.value.text for c in clause.claims] == ["library car park"]
    assert [v.text for v in clause.old] == ["the SU steps"]


@pytest.mark.parametrize(("question", "family"), [
    ("what did the canning line fix end up costing", "price"),
    ("what are we charging referral offices for night guards", "price"),
    ("what did we pay the DJ", "price"),
    ("who is paying for the pizza", "person"),
    ("what time do we pay the deposit", "when"),
    # a quote is as often words quoted, and bill a name
    ("what's the quote for the newsletter?", ""),
    ("what did we get bill for his leaving do?", ""),
])
def test_a_verb_of_paying_asks_a_price(question: str, family: str) -> None:
    assert analyze_question(question).family == family


def test_a_number_of_things_is_no_price() -> None:
    assert measure("two offices") == "count"
    assert measure("two grand") == ""
    assert not same_measure("two offices", "$110")


@pytest.mark.parametrize(("text", "value"), [
    ("making it 105, still covers the material bump", "105"),
    ("got fernhill up to 450 🤑", "450"),
])
def test_a_number_set_in_passing_is_a_value(text: str, value: str) -> None:
    assert value in _claims(text)


@pytest.mark.parametrize(("text", "cue"), [
    ("coach now leaves at 6:30", True),
    ("a ticket now costs $15", True),
    ("it now looks like rain", False),
    ("now thats sorted", False),
])
def test_now_before_a_verb_says_a_change(text: str, cue: bool) -> None:
    assert has_revision_cue(text) is cue


def test_a_header_and_a_difference_are_told_apart_from_the_reason() -> None:
    a = MessageAnalyzer().analyze(
        "update on flour: switching to Prairie Gold Mills starting next week. Millstone "
        "missed two deliveries this month and Prairie is $2 cheaper per bag", speaker="Ines")
    assert a.explanation.startswith("Millstone missed two deliveries")
    assert "update on flour" not in a.explanation


def test_the_bill_is_the_price_of_what_its_message_is_about(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Lin", "boiler in block B is down again, engineer coming tomorrow, quote is £1,450"),
        (60, "Lin", "roof quotes in: alder roofing £38,000, benson & daughters £34,500"),
        (2000, "Lin", "boiler fixed ✅ hot water back in block B. final bill £1,180"),
    ], start=T0, asked=ASKED)
    assert "£1,180" in chat.first("how much did the boiler repair cost in the end")


def test_a_later_now_changes_the_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Kwame", "lakes trip: leaving sat 7am from the SU steps, back sunday ~8pm"),
        (60, "Sofia", "nice"),
        (3000, "Kwame", "coach now leaves at 6:30"),
        (3030, "Ravi", "6:30 😭"),
    ], start=T0, asked=ASKED)
    first = chat.first("what time does the coach leave for the lakes?")
    assert "6:30" in first and "7am" not in first


def test_the_place_turned_down_is_the_previous_one(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Kwame", "leaving sat 7am from the SU steps, back sunday ~8pm"),
        (3000, "Kwame", "meeting point change: library car park, not the SU steps. the coach "
                        "can't turn round at the SU"),
        (3010, "Ravi", "library car park 6:30 got it"),
    ], start=T0, asked=ASKED)
    assert "library car park" in chat.first("where are we meeting for the trip")
    assert "SU" in chat.first("where was the meeting point before")


def test_a_total_is_no_price_per_item(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Ana", "summer camp: the fee is $20 per kid"),
        (300, "Ben", "the Okafors have three kids, we discount them, so they pay $50 total"),
    ], start=T0, asked=ASKED)
    first = chat.first("what's the fee per kid?")
    assert "$20" in first and "$50" not in first
