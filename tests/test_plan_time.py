"""A time agreed for a plan that holds only a day is the plan's time, not a new day.

"team dinner thursday 11th?" … "ok 6:30": the dinner stays on the 11th and has a time;
"what time is team dinner?" answers the time and "when is team dinner?" the day with its
time. Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.dates.spoken import resolved_dates
from tests.support.chat_reader import channel_chat

START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 20, 9, 0, tzinfo=UTC)


def test_a_time_for_a_plan_with_a_day_keeps_the_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "team dinner thursday 11th?"),
        (10, "ben", "ok thursday 11th"),
        (20, "cat", "ok 6:30"),
    ], start=START, asked=ASKED)
    assert "6:30" in chat.first("what time is team dinner?")
    when = chat.first("when is team dinner?").lower()
    assert "11" in when and "6:30" in when


def test_an_agreed_time_then_a_new_one(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "pt session friday"),
        (10, "ben", "6:30 ok?"),
        (20, "cat", "6:30 works"),
        (30, "dan", "can we do 7:15 instead? bus times"),
        (40, "ana", "ok 7:15"),
    ], start=START, asked=ASKED)
    assert "7:15" in chat.first("what time is the pt session?")
    when = chat.first("when is the pt session?").lower()
    assert "friday" in when and "7:15" in when and "6:30" not in when


def test_a_time_for_a_timed_plan_still_replaces_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "standup moved to 10:30"),
        (20, "cat", "make it 11:15"),
    ], start=START, asked=ASKED)
    assert "11:15" in chat.first("what time is standup?")


def test_a_weekday_with_its_day_of_month_is_that_day() -> None:
    found = resolved_dates("team dinner thursday 11th?", START)
    assert [r.start.day for _, r in found] == [11]
    assert [r.start.day for _, r in resolved_dates("sat the 27th", START)] == [27]
    # the next such day, not one just gone; an ordinal of something else is no date
    said = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    assert [str(r.start) for _, r in resolved_dates("open mic saturday 28th", said)] == [
        "2026-03-28"]
    days = [r.start.day for _, r in resolved_dates("interviews thursday, 2nd floor", said)]
    assert days and days[0] != 2


def test_a_time_said_with_the_day_is_no_plan_without_one(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dev", "dress rehearsal thurs 10 april, 6.30 call at the arts centre"),
        (5, "marta", "make it 6. makeup took forever last time"),
        (8, "dev", "6pm call it is"),
    ], start=START, asked=ASKED)
    when = chat.first("when is the dress rehearsal?").lower()
    assert "10 april" in when and "6pm" not in when
