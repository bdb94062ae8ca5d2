"""Everyday ways of saying what replaces what, and of asking about it.

* A question opening with a modal and naming a new value puts it forward ("could the pizza
  night go friday?"); the problem said before it opens no state of its own, and the
  answer taking it up changes the plan.
* A bare hour said for a clock time is a time ("opens 9 not 9:30"), and one said as
  replaced by a clock time is the old time ("start 7.30 not 8").
* A value a change verb moves on to another ("weds 4th moved to fri 6th") is replaced.
* A name standing in for someone ("Ines instead of you") is who does it now.
* "shut" says when something closes; "how long" is answered by a length, never a day.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.definitions import SpeechAct
from memory.analysis.matching import clock_for_day
from memory.analysis.message import MessageAnalyzer
from memory.analysis.value_types import Kind
from tests.support.chat_reader import channel_chat

START = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
ASKED = datetime(2026, 5, 30, 9, 0, tzinfo=UTC)
DAY = 24 * 60
ANALYZER = MessageAnalyzer()


def _clauses(text: str, speaker: str = "ana") -> list:  # type: ignore[type-arg]
    return list(ANALYZER.analyze(text, speaker=speaker).clauses)


def test_a_modal_question_naming_a_value_puts_it_forward() -> None:
    last = _clauses("should the allotment party be on the 12th?")[-1]
    assert last.act is SpeechAct.PROPOSAL
    # asking without a new value only asks
    assert _clauses("can the van still do it?")[-1].act is not SpeechAct.PROPOSAL
    # a question of fact is no suggestion
    assert _clauses("is the party on the 12th?")[-1].act is not SpeechAct.PROPOSAL


def test_a_proposal_after_a_problem_taken_up_changes_the_plan(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "pizza night for the volunteers thurs 14th, 7pm at the hut"),
        (DAY, "rosa", "ah, scouts have the hut booked all evening on the 14th. could pizza "
                      "night go friday instead?"),
        (DAY + 30, "omar", "fine by me, friday 15th"),
    ], start=START, asked=ASKED)
    first = chat.first("when's pizza night")
    assert "15" in first or "fri" in first.lower()
    assert "14" not in first


def test_a_bare_hour_beside_a_clock_time_is_a_time() -> None:
    claims = [c for cl in _clauses("from june the shop opens 9 not 9:30") for c in cl.claims]
    assert any(c.value.kind is Kind.TIME and c.value.text == "9" for c in claims)
    olds = [v for cl in _clauses("so doors 6.30 not 7, the band wants a soundcheck")
            for v in cl.old]
    assert [v.text for v in olds] == ["7"] and olds[0].kind is Kind.TIME
    # a count beside a count stays a count
    claims = [c for cl in _clauses("we've got 14 chairs not 16") for c in cl.claims]
    assert all(c.value.kind is not Kind.TIME for c in claims)


def test_a_bare_hour_for_a_clock_time_changes_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ken", "shop opens 9:30 every day, keys under the usual pot"),
        (3 * DAY, "ken", "from june the shop opens 9 not 9:30, the bakery van comes earlier"),
    ], start=START, asked=ASKED)
    first = chat.first("what time does the shop open now")
    assert "9" in first and "9:30" not in first


def test_a_value_moved_on_to_another_is_replaced() -> None:
    clause = _clauses("plumber visit weds 4th moved to fri 6th, he's ill")[0]
    assert [v.text for v in clause.old] == ["weds 4th"]
    assert [c.value.text for c in clause.claims] == ["fri 6th"]
    # moved on to another kind of value, it stays
    clause = _clauses("the 3pm session moved to room B")[0]
    assert not clause.old


def test_a_name_standing_in_for_someone_holds_the_task(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "chen", "I'll run the plant stall at the fair on saturday"),
        (2 * DAY, "chen", "sorry cant do the stall sat after all, car's in the garage"),
        (2 * DAY + 10, "dora", "no worries. Ines instead of you for the stall then"),
    ], start=START, asked=ASKED)
    assert "ines" in chat.first("who's running the plant stall").lower()


def test_shut_says_when_a_place_closes(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "meg", "from the 10th we'll shut at 5pm on saturdays, nobody comes in after"),
    ], start=START, asked=ASKED)
    assert "5pm" in chat.first("what time do we close on saturdays now")


def test_how_long_is_answered_by_a_length_never_by_a_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pat", "director confirmed for saturday, she'll do a Q&A after the screening"),
        (20, "lou", "the shorts block runs 95 mins with the interval"),
    ], start=START, asked=ASKED)
    assert chat.answer("how long is the director's Q&A").abstained
    assert "95" in chat.first("how long is the shorts block")


def test_a_numbered_place_is_a_place() -> None:
    claims = [c for cl in _clauses("their boxes go in container 14 tmrw, plus a sofa")
              for c in cl.claims]
    assert any(c.value.kind is Kind.PLACE and c.value.text == "container 14" for c in claims)
    claims = [c for cl in _clauses("under 9s on pitch 2 from 10am") for c in cl.claims]
    assert any(c.value.kind is Kind.PLACE and c.value.text == "pitch 2" for c in claims)


def test_a_clock_time_alone_is_no_new_day() -> None:
    assert clock_for_day(True, "Thursday 12th")
    assert not clock_for_day(True, "Tuesdays 5:30")  # a time replaces a time
    assert not clock_for_day(True, "10-12")  # bare hours may be times
    assert not clock_for_day(False, "Thursday 12th")  # a day replaces a day


def test_a_time_agreed_after_a_day_leaves_the_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kim", "junior squad is moving to thursdays from the 12th"),
        (30, "lee", "can we start 6:30 instead of 7? the parents asked"),
        (45, "kim", "ok 6:30"),
    ], start=START, asked=ASKED)
    assert "thursday" in chat.first("what night is junior squad now").lower()
