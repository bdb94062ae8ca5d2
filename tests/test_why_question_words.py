"""Why something is as it is, when no reason word says so: the message saying the
question's own words answers ("why are we *keeping* the *annex*" → the message keeping it,
not every message naming the annex); a sentence saying what stays the same is no reason, and "so
everyone's had …" after a change is its purpose.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.reader.extract import explains, reason_in
from tests.support.chat_reader import channel_chat

START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 20, 9, 0, tzinfo=UTC)


def test_the_message_saying_the_questions_words_answers_why(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "printmaking class is in the annex from next week"),
        (20, "tom", "the annex has lovely light in the mornings"),
        (40, "ines", "main hall is free again but we're keeping the annex for printmaking - "
                     "the big press only fits through its double doors"),
        (60, "ravi", "annex kettle is broken btw"),
        (80, "tom", "annex booked for the pottery fair too"),
    ], start=START, asked=ASKED)
    assert "press" in chat.first("why are we keeping the annex")


@pytest.mark.parametrize(("text", "value", "reason", "not_reason"), [
    ("the client moved the demo to thurs 9th, their cto is travelling fri. same time "
     "same room", "thurs 9th", "cto is travelling", "same time"),
    ("standup is 9:15 from monday, the school run clashes with 9. everything else as "
     "before", "9:15", "school run", "everything else"),
])
def test_what_stays_the_same_is_no_reason(text: str, value: str, reason: str,
                                          not_reason: str) -> None:
    found = reason_in(text, value=value, decision=frozenset({"moved"}))
    assert reason in found
    assert not_reason not in found


def test_so_everyone_has_had_is_a_changes_purpose() -> None:
    found = reason_in("Small change: rent deadline pushed to the 6th so everyone's had a pay "
                      "day first. I've edited the pinned post", value="the 6th",
                      decision=frozenset({"move"}))
    assert "pay day" in found


@pytest.mark.parametrize(("text", "more"), [
    ("we're staying at St Peter's till the concert - the grand is too good to give up", True),
    ("ok, migration moves to sat 26 july then. same window", False),
    ("phones will open at 8:00 instead of 8:30 - we're missing loads of calls first thing",
     True),
])
def test_a_message_saying_more_than_its_change(text: str, more: bool) -> None:
    assert explains(text) is more
