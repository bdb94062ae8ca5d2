"""A suggestion said tentatively ("also thinking we bump the fee to $30", "i'd go to $60")
is a proposal, not a decision; who turned it down is read from the turns after it even when
nobody replied in a thread ("not keen on 30 … leave it at $20"); a who-answer is never the
thing the question names ("who is running the odonto migration" over "moving DentFlow over
to Odonto Cloud"); and "what was it before" reads the value a change names as replaced
("€52 pp now instead of 45") when later messages only repeat the new value."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.definitions import SpeechAct
from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2026, 4, 13, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 5, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", ["also thinking we bump the late fee from $15 to $25",
                                  "i'm thinking we go with the blue banner",
                                  "was thinking we move the quiz to thursdays"])
def test_a_tentative_suggestion_is_a_proposal(text: str) -> None:
    assert MessageAnalyzer().analyze(text).act is SpeechAct.PROPOSAL


def test_who_turned_it_down_is_read_from_the_turns_after(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "marcus", "also thinking we bump the late fee from $15 to $25"),
        (40, "helen", "not keen on 25, people will just argue at the counter. leave it at "
                      "$15 for now"),
        (45, "kate", "👍"),
    ], start=T0, asked=ASKED)
    assert chat.first("who said no to the $25 late fee").startswith("helen")
    assert "$15" in chat.first("what's the late fee at the moment")


def test_a_who_answer_is_not_the_thing_asked_about(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dev", "hi all - plan for moving our bookings over to Slotwise Cloud. proposing "
                   "the cutover weekend of sat 25 april"),
        (30, "kate", "sounds good"),
    ], start=T0, asked=ASKED)
    assert chat.first("who is running the slotwise migration").startswith("dev")


def test_the_value_before_is_what_the_change_replaced(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "felix", "cabin's booked ✅ Birchwood lodge fri 26 – sun 28 june, 16 beds. €45 pp "
                     "for 2 nights incl breakfast"),
        (10000, "felix", "update from the cabin: they've added a cleaning surcharge, so it's "
                         "€52 pp now instead of 45. sorry"),
        (20000, "chiara", "reminder: cabin money by friday the 19th, €52 pp"),
    ], start=T0, asked=ASKED)
    assert "45" in chat.first("cabin price before the surcharge?")


def test_an_agreeing_no_or_an_unrelated_no_turns_nothing_down(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "also thinking we bump the quiz fee to $5 next term"),
        (5, "ben", "no worries, makes sense to me"),
        (9, "cat", "no, i can't do tonight's setup sorry"),
    ], start=T0, asked=ASKED)
    first = chat.first("who said no to the $5 quiz fee")
    assert not first.startswith(("ben", "cat"))


def test_a_person_whose_name_holds_the_thing_is_still_who(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "Jordan Park is running the park cleanup on saturday, bring gloves"),
    ], start=T0, asked=ASKED)
    assert "Jordan Park" in chat.first("who is running the park cleanup")
