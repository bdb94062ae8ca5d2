"""A question asking when something finishes (or starts) takes that end of the span the
chat gives: "10am-7pm" finishes at 7pm, "8:30 start, lunch at 12, done by 3:30" at 3:30."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.time_bounds import bound_cue, bound_time
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 6, 11, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 6, 12, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("text, end, start", [
    ("nimbus office, 10am-7pm (we can stay till 7)", "7pm", "10am"),
    ("BLS day: 8:30 start, lunch at 12, done by 3:30. st anne's", "3:30", "8:30"),
    ("taproom hours: open 12 to 7 on sundays", "7", "12"),
    ("runs from 9 until 5:30", "5:30", "9"),
    ("doors 7pm, music till 11", "11", "7pm"),
    ("we need 12 to 15 people", "", ""),  # a count, not hours
    ("over 200 signups so far", "", ""),
    ("sprint 3-5 is done", "", ""),
    # prices, durations, dates and counts beside span words are no times
    ("relay is sat 10am at the track, teams from 4 schools", "", ""),
    ("box office tickets 7.50-9.50, box office opens 6pm", "", "6pm"),
    ("the exhibition is open until 14 june, 10am-6pm daily", "6pm", "10am"),
    ("first aid course runs 3-5 days depending on level, daily 9:30 till 4", "4", "9:30"),
    ("study group moved to 7pm. should take 2-3 hours", "", ""),
    ("workshop runs over 2h", "", ""),
    # a closure is not the opening hours; a range's am/pm belongs to both ends
    ("shop is closed 12:00-13:00 for lunch, open till 17:30 otherwise", "17:30", ""),
    ("open mic 8-11pm", "11pm", "8pm"),
])
def test_the_end_and_start_of_a_span(text: str, end: str, start: str) -> None:
    assert bound_time(text, "end") == end
    assert bound_time(text, "start") == start


@pytest.mark.parametrize("question, bound", [
    ("what time does the hackathon finish", "end"),
    ("how late is the bar open till", "end"),
    ("what time do doors open", "start"),
    ("what time is standup", ""),
    ("what time is the closing meeting?", ""),  # a name, not the end asked for
    ("what time is the end of year party?", ""),
    ("what time did the site visit end up being", ""),
    ("what time do we wrap up on friday", "end"),
    ("what time does the shop close on sundays now", "end"),
])
def test_the_end_asked(question: str, bound: str) -> None:
    assert bound_cue(question)[0] == bound


def test_the_finish_of_a_schedule(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "BLS day schedule: 8:30 start, lunch at 12, done by 3:30. st anne's, "
                     "412 maple ave"),
        (5, "raj", "thanks"),
    ], start=T0, asked=ASKED)
    assert chat.first("what time does the bls thing finish").startswith("3:30")
    assert chat.first("what time does bls start").startswith("8:30")


def test_the_word_asked_beside_a_time_wins() -> None:
    assert bound_time("doors open 9, hacking 10am-6pm", "start", "open") == "9"
