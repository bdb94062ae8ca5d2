"""One meeting off, a series kept, and the thing a change is about behind a leading phrase.

* "No <gathering> <one day>" ("no quiz night next weds (12th)") calls that meeting off: it
  is a cancellation of that day, never a new day for the thing, never a new state of its
  own, and a series held as a weekday ("quiz nights are TUESDAYS") stays what it was.
  "Nets off tonight" does the same; "Sam's off tomorrow" is a person away.
* "doors open to the public at 11" is a time, no offer ("I'm open to Friday" is one).
* A day given to someone else ("the church has given Tuesdays to the toddler group") is no
  one's plan, and "it" after "Choir moving AGAIN" is the choir.
* "the first Tuesday of the month" is one value that recurs: never resolved to one day.
* A phrase of why opening a clause with "with" ("With the extra bookings in we're bumping
  …") is no subject: the thing after the change verb is.
* "print run", "dry run": the run is the thing, kept in the subject.
* "bumped up" asks an amount, not a moment (a standup "bumped up" moved); "rule" and
  "policy" after a thing's noun say nothing about what a question asks ("the guest rule"
  asks about guests); "these days" asks now, no day.
* "Notice:" and "Housekeeping for 2025:" head a message; they name no subject
  ("housekeeping fee" keeps its word).

Real write path (offline proposer, HashingEmbedder) and the offline reader; the analyzer
where only a message's reading is asked."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.reader.answer import value_day
from tests.support.chat_reader import channel_chat
from tests.support.claims import claims_of

DAY = 60 * 24


def _claims(text: str) -> list[tuple[str, str, str]]:
    """(kind, value, subject) of every claim, said in a chat of Ines, Bram and Wyn."""
    return [(k.value, v, s) for s, v, k in claims_of(
        text, speaker="Wyn Hughes", people=["Ines Duarte", "Bram Visser", "Wyn Hughes"])]


def test_no_meeting_on_one_day_is_that_meeting_off() -> None:
    off = _claims("No quiz night next Weds (12 March) – the bar's being refitted")
    assert [c[:2] for c in off] == [("status", "No")]
    assert off[0][2] == "quiz night"
    assert _claims("no choir practice on the 14th")[0][:2] == ("status", "no")
    # what is not one meeting off keeps its reading
    assert "status" not in [c[0] for c in _claims("no rush, Friday is fine")]
    assert [c[0] for c in _claims("no meeting on Friday, moved to Monday")] == ["date"]
    assert [c[0] for c in _claims("No parking on the forecourt on Saturdays")] != ["status"]
    for not_off in ("No it was moved to Wednesday", "no we agreed Friday 14 March",
                    "No tickets left for Saturday", "no parking on Monday", "No Tom till Friday",
                    "no lunch provided on Thursday 13 March", "no drinks on friday then?"):
        assert "status" not in [c[0] for c in _claims(not_off)], not_off


def test_one_meeting_off_keeps_the_series(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "Heads up all: from March quiz nights are TUESDAYS, 8pm, upstairs at "
                    "the Fox"),
        (3 * DAY, "bram", "nice, tuesdays suit me better"),
        (9 * DAY, "ines", "No quiz night next Tues (18 March), the Fox is shut for a private "
                          "party. Back the week after"),
    ], start=datetime(2025, 2, 24, 18, 0, tzinfo=UTC),
        asked=datetime(2025, 3, 6, 12, 0, tzinfo=UTC))
    first = chat.first("what night is quiz night these days?")
    assert "tuesdays" in first.lower()
    assert "No" not in first.split("(")[0].split()


def test_the_first_weekday_of_the_month_is_no_one_day() -> None:
    said = _claims("Change to the committee meeting: from May it's the first Thursday of the "
                   "month instead, 7pm")
    days = [c[1] for c in said if c[0] == "date"]
    assert days == ["the first Thursday of the month"]
    said_on = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
    assert value_day("the first Thursday of the month", said_on) == ""
    assert value_day("Thursday", said_on) != ""
    # a day of the month that is one day stays one
    assert value_day("Friday 28 March, end of the month", said_on) == ""  # names its own date
    from memory.text import recurs_only  # (here, so the other tests run on code without it)
    assert not recurs_only("end of the month") and recurs_only("last friday of every month")


def test_a_leading_with_phrase_is_no_subject(tmp_path: Path) -> None:
    said = _claims("With the extra school bookings coming in we're bumping the first print run "
                   "to 3,000")
    assert ("count", "3,000", "first print run") in said
    assert ("date", "Monday", "dry run") in _claims("the dry run is on Monday")
    # who a value is agreed with is no reason: it stays the subject
    assert ("money", "£30", "caterer") in _claims("With the caterer we agreed £30 a head")
    chat = channel_chat(tmp_path, [
        (0, "bram", "for the avoidance of doubt: the first print run is 1,200 copies"),
        (12 * DAY, "ines", "With the extra school bookings coming in we're bumping the first "
                           "print run to 3,000. Bram can you tell the printers?"),
    ], start=datetime(2025, 1, 6, 9, 0, tzinfo=UTC),
        asked=datetime(2025, 2, 1, 12, 0, tzinfo=UTC))
    assert "3,000" in chat.first("how many copies in the first print run?")
    before = chat.first("what was the print run before it got bumped up?")
    assert "1,200" in before.split("(")[0]


def test_question_words_that_say_nothing_of_the_thing() -> None:
    assert analyze_question("what was the print run before it got bumped up?").family != "when"
    assert analyze_question("what was the standup before it got bumped?").family == "when"
    assert analyze_question("what's the guest rule now?").terms == ("guest",)
    assert "policy" not in analyze_question("what's our guest policy these days?").terms
    # "these days" asks now, no day
    assert analyze_question("what do we use for bookings these days?").family != "when"
    # a rule asked of itself, or one of its own, keeps its word; a standup bumped up moves
    assert analyze_question("who changed the rule?").terms == ("rule",)
    assert "rule" in analyze_question("what's the house rule for guests?").terms
    assert analyze_question("what was the standup before it got bumped up?").family == "when"


def test_a_notice_header_names_no_subject() -> None:
    said = claims_of("Notice: the hall is closing on Mondays. So from June band practice is "
                     "THURSDAYS 7pm", speaker="Wyn")
    assert [(s, k) for s, _, k in said] == [("hall", Kind.DATE), ("band practice", Kind.DATE)]
    # the word heading a thing's name stays ("housekeeping fee")
    assert [s for s, _, _ in claims_of("Housekeeping fee is now £25")] == ["housekeeping fee"]


def test_a_gathering_off_on_a_day_and_a_day_given_away() -> None:
    assert _claims("Nets off tonight, it's chucking it down")[0][:2] == ("status", "off")
    assert _claims("standup off tomorrow")[0][:2] == ("status", "off")
    # a person off is away, no meeting called off; a kick-off is a start
    assert "status" not in [c[0] for c in _claims("Sam's off tomorrow")]
    assert "status" not in [c[0] for c in _claims("kick off tomorrow at 10")]
    for moved_or_particle in ("we're taking the match off Sunday and putting it on Saturday",
                              "Karen's signing the trip off today", "the retro off sunny Brighton",
                              "Standup off Mondays from now on, Tues-Fri only"):
        assert "status" not in [c[0] for c in _claims(moved_or_particle)], moved_or_particle
    # one meeting off and rebooked in the same message is moved
    moved = _claims("yoga is OFF tonight, the teacher's ill. rebooked for thu 19 june, same time")
    assert [(c[0], c[2]) for c in moved] == [("date", "yoga")]
    assert moved[0][1].startswith("thu 19 june")
    # a day given to us is ours
    assert ("date", "Thursdays") in [c[:2] for c in _claims(
        "Hall manager has given Thursdays to us from June 🎉")]
    # the day given to someone else is no one's plan; "it" is the thing said to move
    said = _claims("Choir moving AGAIN 🙄 the church has given Tuesdays to the toddler group."
                   " From next week it's Thursdays, still 7:30")
    assert ("date", "Tuesdays") not in [c[:2] for c in said]
    assert ("date", "Thursdays", "choir") in said


def test_doors_open_to_the_public_offers_nothing() -> None:
    from memory.analysis.definitions import SpeechAct
    from memory.analysis.message import MessageAnalyzer
    analyzer = MessageAnalyzer()
    timings = analyzer.analyze("Timings for 4 Oct: the barn is ours from 8am, stalls set up by "
                               "9:30, doors open to the public at 11", speaker="Wyn Hughes")
    assert SpeechAct.PROPOSAL not in [c.act for c in timings.clauses]
    # who says they are open to a value still puts it forward
    assert analyzer.analyze("I'm open to Friday", speaker="Wyn").act is SpeechAct.PROPOSAL
    assert analyzer.analyze("open to Friday or Saturday", speaker="Wyn").act \
        is SpeechAct.PROPOSAL


def test_a_value_said_again_shorter_is_no_previous_one(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "flat meetings are sundays at 7pm"),
        (9 * DAY, "ines", "can we make flat meetings 6pm rather than 7? early starts this term"),
        (9 * DAY + 5, "bram", "6 is fine"),
        (9 * DAY + 9, "wyn", "👍 6pm"),
    ], start=datetime(2025, 2, 2, 18, 0, tzinfo=UTC),
        asked=datetime(2025, 3, 1, 12, 0, tzinfo=UTC))
    before = chat.first("flat meetings used to be what time?")
    assert "7" in before.split("(")[0] and "6" not in before.split("(")[0]
