"""A question asking when something finishes (or starts) takes that end of the span the
chat gives: "10am-7pm" finishes at 7pm, "8:30 start, lunch at 12, done by 3:30" at 3:30."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.time_bounds import asked_bound, bound_time
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
])
def test_the_end_and_start_of_a_span(text: str, end: str, start: str) -> None:
    assert bound_time(text, "end") == end
    assert bound_time(text, "start") == start


@pytest.mark.parametrize("question, bound", [
    ("what time does the hackathon finish", "end"),
    ("how late is the bar open till", "end"),
    ("what time do doors open", "start"),
    ("what time is standup", ""),
])
def test_the_end_asked(question: str, bound: str) -> None:
    assert asked_bound(question) == bound


def test_the_finish_of_a_schedule(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "BLS day schedule: 8:30 start, lunch at 12, done by 3:30. st anne's, "
                     "412 maple ave"),
        (5, "raj", "thanks"),
    ], start=T0, asked=ASKED)
    assert chat.first("what time does the bls thing finish").startswith("3:30")
    assert chat.first("what time does bls start").startswith("8:30")
