"""A message that opens several states at once (a named event, its day, its price) keeps
them as parts of one decision: asked about the event by its name, the reader finds the
part holding the kind of value asked, and follows it to its current value when a later
message moved it; "new date sun 6 oct" after "the dive's off for the 29th" is the dive's
date. "…, so check-in opens an hour earlier, 7am" starts a clause of its own
(a consequence with its own subject, not the reason's), so the 7am is check-in's; asked
what time check-in opens, the chain's current value is the answer, not another time the
same message gives ("weighing still starts 10").

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.message import MessageAnalyzer
from memory.analysis.time_bounds import cue_gives
from tests.support.chat_reader import channel_chat

HOUR = 60
DAY = 60 * 24
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)  # a Monday
ANALYZER = MessageAnalyzer()


def _clauses(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    found = ANALYZER.analyze(text)
    return [(c.text, [(cl.value.text, cl.subject) for cl in c.claims]) for c in found.clauses]


def test_so_with_a_thing_and_its_schedule_opens_a_clause() -> None:
    parts = _clauses("we've got 23 entries already so check-in opens an hour earlier, 7am")
    assert len(parts) == 2
    (_, first), (_, second) = parts
    assert [v for v, _ in first] == ["23 entries"]
    assert second and second[0][0] == "7am" and "check-in" in second[0][1]
    assert len(_clauses("loads of rain so the dig starts at 9 now")) == 2
    # "so" of degree or of talk opens nothing
    assert len(_clauses("so good so far")) == 1


def test_a_new_date_is_the_date_of_what_was_called_off() -> None:
    parts = _clauses("drysuit seal split. so the dive's off for the 29th — new date sun 6 oct")
    assert parts[-1][1] == [("sun 6 oct", "dive")]
    parts = _clauses("window cleaning postponed, too windy for the cherry picker. New date "
                     "Monday 13 May")
    assert parts[-1][1] == [("Monday 13 May", "window cleaning")]
    # what stands in the way is no thing moved
    parts = _clauses("her publicist double booked her on the 26th. new date is wed 4 march")
    assert parts[-1][1][0][1] != "publicist"


def test_the_time_after_the_question_s_own_word_is_the_one_it_asks() -> None:
    said = "so check-in opens an hour earlier, 7am. weighing still starts 10"
    assert cue_gives(said, "open", "7am")
    assert not cue_gives(said, "open", "10")
    assert not cue_gives("8:30 start, done by 3:30", "finish", "8:30")


def test_a_consequence_moves_the_time_it_names(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dottie", "show day plan: sat 28th at the fairgrounds, check-in 8am, weighing "
                      "starts 10, awards 4pm"),
        (20, "lupe", "👍"),
        (3 * DAY, "dottie", "heads up — we've got 23 entries already so check-in opens an "
                            "hour earlier, 7am. weighing still starts 10"),
        (3 * DAY + 5, "marcus", "7am on a saturday 😭"),
    ], start=START, asked=START.replace(day=12))
    first = chat.first("what time does check-in open on show day?")
    assert "7" in first and "8am" not in first and "10" not in first
    assert "8am" in chat.first("what time was check-in supposed to open before?")


def test_an_event_named_in_a_message_follows_the_part_that_moved(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "bea", 'pop-up idea for march: "Ice Bath Social" 🧊 plunge + sauna at the pier '
                   "beach, sat mar 8, 10am. $35/person, both trailers"),
        (10, "noor", "love it"),
        (2 * DAY, "noor", "harbour office says no fires on the pier beach without a permit"),
        (3 * DAY, "bea", "harbour ok with the 15th, so plunge + sauna moves to sat 15th"),
        (3 * DAY + 5, "noor", "🙌"),
    ], start=START, asked=START.replace(day=14))
    first = chat.first("when's the ice bath social now?")
    assert "15" in first and "mar 8" not in first.lower()


def test_a_past_day_answered_alone_names_its_weekday(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kai", "stove dealer in barrie has one in stock, picking it up sat 11th"),
        (30, "otto", "nice"),
        (9 * DAY, "kai", "stove's in and lit 🔥"),
    ], start=START, asked=START.replace(day=20))
    first = chat.first("when was kai picking up the stove?")
    assert "Saturday" in first and "11 January 2025" in first
