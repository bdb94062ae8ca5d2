"""Which thing a change is of, and what an answer must hold.

* One of a numbered series in words ("Round 4", "block 5") is another thing than the same
  noun with another number: round 4's venue does not revise round 3's, and the round 3
  results are no answer to "who won round 2".
* A noun that is also a verb ("Show is confirmed: …") names the subject its copula follows.
* The speaker moving a thing ("I'm moving ours to Sunday 21 June") changes it; "I'm moving
  to Leeds" is the speaker's own affair. The words announcing the change ("Change of plan
  for the show") are no reason for it.
* "(currently $15)" beside a new amount is the amount it replaces.
* A temperature or a phone number asked is answered only by one said.

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.definitions import SpeechAct
from memory.analysis.message import MessageAnalyzer
from memory.analysis.reason_words import says_no_reason
from memory.subject_marks import other_codes
from tests.support.chat_reader import channel_chat

START = datetime(2026, 4, 6, 18, 0, tzinfo=UTC)
DAY = 60 * 24
ASKED = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def test_a_numbered_noun_names_one_of_a_series() -> None:
    assert other_codes("round 4", "Spring Series Round 3")
    assert other_codes("who won round 2?", "Round 3 results: 1st Leah, 2nd Tom")
    assert not other_codes("round 3", "Spring Series Round 3")
    # a time, a day of the month or a count is no member of a series
    assert not other_codes("meeting at 4", "meeting at 3")
    assert not other_codes("review may 4", "review")
    # a measure is no member of a series: "top 16" is another bracket of the same event
    assert not other_codes("what was the bracket before we went to top 16?", "top 8 double elim")
    assert not other_codes("draft 3", "costume budget draft 2")
    assert not other_codes("why are sundays open til 7 now", "we close at 7 not 6, til 6")


def test_another_round_is_not_a_revision(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "gaz", "Spring Series Round 3 is on! Saturday 25 April at Hollins Farm. Entry "
                   "£10, register in race-planning"),
        (6 * DAY, "gaz", "Round 3 update: we're moving to Brookside Rec Ground, Sunday 26 "
                         "April (not Sat 25th). Everything else stays the same."),
        (22 * DAY, "gaz", "Round 4 is provisionally Saturday 16 May, back at Hollins Farm "
                          "(farmer says we're fine). More details soon."),
    ], start=START, asked=ASKED)
    assert "Brookside" in chat.first("where's round 3 being held now")
    assert "Hollins" in chat.first("where was round 3 meant to be before the move?")


def test_a_noun_before_its_copula_is_the_subject() -> None:
    a = MessageAnalyzer().analyze("Show is confirmed: Sunday 14 June. Judge is Mrs Ellison.",
                                  speaker="Helen")
    dated = [cl for c in a.clauses for cl in c.claims if cl.value.text == "Sunday 14 June"]
    assert [cl.subject for cl in dated] == ["show"]


def test_the_speaker_moving_a_thing_changes_it() -> None:
    analyzer = MessageAnalyzer()
    moved = analyzer.analyze("I'm moving ours to Sunday 21 June.", speaker="Helen")
    assert moved.act is SpeechAct.DECISION
    assert [cl.value.text for c in moved.clauses for cl in c.claims] == ["Sunday 21 June"]
    assert analyzer.analyze("I'm moving to Leeds on Friday", speaker="Helen").act \
        is SpeechAct.CHATTER
    # what the speaker would do puts a value forward; it decides nothing
    assert analyzer.analyze("I'd extend it to 60 days", speaker="Marco").act \
        is not SpeechAct.DECISION


def test_announcing_a_change_is_no_reason() -> None:
    assert says_no_reason("Change of plan for the show")
    assert says_no_reason("quick change to the rota")
    assert not says_no_reason("the change was due to rain")


def test_a_show_moved_by_its_organiser(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "helen", "Show is confirmed: Sunday 14 June. Prelim and Novice classes. Judge is "
                     "Mrs Ellison again."),
        (11 * DAY, "helen", "Change of plan for the show — the county show has just put "
                            "their dressage championships on Sunday 14 June and half our "
                            "likely entries will go there. I'm moving ours to Sunday 21 "
                            "June."),
    ], start=START, asked=ASKED)
    assert "21 June" in chat.first("what date's the show?")
    assert "14 June" in chat.first("what was the show date before it moved?")
    assert "county" in chat.first("why did the show move?")


def test_the_amount_in_force_until_a_rise(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "Tasting flight goes up to $20 from 1 March (currently $15). Still "
                    "waived if they buy 2+ bottles."),
        (20, "ali", "they'll cope"),
    ], start=datetime(2026, 2, 25, 11, 0, tzinfo=UTC), asked=ASKED)
    assert "$15" in chat.first("what was the flight price before it went up?")
    assert "$20" in chat.first("how much is the tasting flight now?")


def test_a_measure_asked_needs_one_said(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kenji", "pinot destemmed into the open fermenters, cold soak started"),
        (60, "jo", "SB ferment kicked off in tank 6 overnight, temp checks twice a day pls"),
        (DAY, "callum", "vet done, everyone vaccinated, Mabel needs her teeth redone in 6 "
                        "months"),
        (2 * DAY, "gaz", "Round 3 results: 1st Leah, 2nd Tom, 3rd Ruby. Thanks Marcus for "
                         "timing"),
    ], start=START, asked=ASKED)
    for question in ("what temp are we running the SB ferment at?",
                     "what's the vet's out of hours number?", "who won round 2?"):
        assert chat.answer(question).abstained, question
    assert not chat.answer("who won round 3?").abstained
    said = channel_chat(tmp_path / "said", [
        (0, "jo", "SB ferment kicked off in tank 6 overnight, running it at 16°C"),
    ], start=START, asked=ASKED)
    assert "16°C" in said.first("what temp are we running the SB ferment at?")


def test_a_members_name_opening_a_message_is_who_is_told(tmp_path: Path) -> None:
    analyzer = MessageAnalyzer()
    told = analyzer.analyze("dan ur booked on the microsoldering course thurs 5 feb",
                            speaker="Claire", people=["Dan Pryor", "Claire"])
    assert [cl.subject for c in told.clauses for cl in c.claims] == ["microsoldering course"]
    own = analyzer.analyze("Dan is off on friday 6th", speaker="Claire", people=["Dan Pryor"])
    assert [cl.subject for c in own.clauses for cl in c.claims] == ["dan"]
    chat = channel_chat(tmp_path, [
        (0, "claire", "dan ur booked on the microsoldering course thurs 5 feb in birmingham, "
                      "train tickets sorted"),
        (60, "dan", "legend 🙌"),
        (16 * DAY, "claire", "dan the course has moved to thurs 19 feb, trainer has covid. "
                             "same venue"),
    ], start=datetime(2026, 1, 13, 10, 0, tzinfo=UTC), asked=datetime(2026, 2, 1, tzinfo=UTC))
    assert "5 feb" in chat.first("what was the course date before it moved?").lower()


def test_the_speaker_pushing_a_thing_back(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sophie", "Summer turnout: plan is they start staying out overnight from Monday "
                      "18 May, weather permitting."),
        (9 * DAY, "sophie", "Weather: frost forecast for Sunday and Monday nights 🥶 I'm "
                            "pushing overnight turnout back a week to Monday 25 May."),
    ], start=datetime(2026, 5, 4, 9, 0, tzinfo=UTC), asked=datetime(2026, 5, 20, tzinfo=UTC))
    assert "25 May" in chat.first("when does overnight turnout start now?")
    assert "frost" in chat.first("why was turnout pushed back?")
