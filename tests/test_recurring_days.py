"""A day that recurs ("thursdays", "FRIDAYS") is a day: it answers "what night is it" as a
single day does, and a complaint about the old day is no answer to what the day is now.
Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory.text import SlotKind, find_slots
from tests.support.chat_reader import channel_chat

START = datetime(2024, 6, 11, 12, 0, tzinfo=UTC)
DAY = 60 * 24


def test_a_recurring_day_is_a_day() -> None:
    for said in ("thursdays", "campfire night is now THURSDAYS", "yep fridays, after dinner"):
        assert [s.kind for s in find_slots(said)] == [SlotKind.DATE], said
    assert not find_slots("the suns are out")
    # a weekly slot is its day and its time, each as said (a single day takes its time in)
    assert [(s.kind, s.text) for s in find_slots("recording is 10am saturdays now")] == [
        (SlotKind.TIME, "10am"), (SlotKind.DATE, "saturdays")]
    assert [s.text for s in find_slots("wednesday 1pm")] == ["wednesday 1pm"]


@pytest.mark.parametrize(("turns", "question", "said"), [
    ([(0, "bex", "recording moves to saturdays 11am from next week, sundays keep clashing"),
      (3 * DAY, "theo", "recording is 10am saturdays now, starting this sat")],
     "when are recording sessions now", ("10am", "saturday")),
    # (the time is lost when the day and its time are read as one day slot)
    ([(0, "ros", "Staff meeting - thinking we move it to Wednesdays 1pm so both vets can "
                 "make it. thoughts?"),
      (30, "dev", "wednesdays don't work for me, can we keep it mondays 8:30"),
      (60, "ros", "fine, mondays 8:30 it stays")],
     "when did Ros originally want the staff meeting", ("1pm", "wednesday")),
])
def test_a_weekly_slot_keeps_its_time(tmp_path: Path, turns: list[tuple[int, str, str]],
                                      question: str, said: tuple[str, str]) -> None:
    chat = channel_chat(tmp_path, turns, start=START, asked=START + timedelta(days=5))
    first = chat.first(question).lower()
    assert all(s in first for s in said), first


def test_the_night_it_moved_to_answers_what_night(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tess", "campfire night — are we doing fridays again?"),
        (5, "hannah", "yep fridays, all-camp campfire after dinner"),
        (9 * DAY, "tess", "friday campfire is a problem btw — friday night is parent call "
                          "night in the office and half of us are stuck on the phones till 9"),
        (9 * DAY + 20, "hannah", "ugh you're right. ok campfire goes to thursdays"),
        (9 * DAY + 30, "tess", "campfire night is now THURSDAYS 🔥 (fridays = parent calls)"),
    ], start=START, asked=START + timedelta(days=12))
    first = chat.first("what night is campfire")
    assert "thursday" in first.lower() and "friday" not in first.lower(), first
