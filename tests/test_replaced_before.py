""""What was it before it went to X?" is answered by what the change to X names as replaced
("scratch the 2pm … we're doing 11am instead" → 2pm), read as a value of its own even when
it is another kind of value than the new one (a time replaced by a day and a time)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 5, 5, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 5, 30, 9, 0, tzinfo=UTC)
Turns = list[tuple[int, str, str]]


@pytest.mark.parametrize("turns, question, before, now", [
    ([(0, "marco", "@priya you're on the massing model for the client pres?"),
      (5, "priya", "yep, cutting the base this week"),
      (9000, "helena", "scratch the 2pm - mrs whitfield has a hospital appointment that "
                       "afternoon. we're doing 11am on tuesday instead")],
     "before it went to 11, what time was the pres set for?", "2pm", "11am"),
    ([(0, "greta", "trivia night flyer draft is in the drive, prices tbc"),
      (600, "diane", "the grange charges for the room, so tickets are $15 instead of $12")],
     "what were tickets before they went to $15?", "$12", "$15"),
])
def test_the_value_named_as_replaced_answers_before(tmp_path: Path, turns: Turns,
                                                    question: str, before: str,
                                                    now: str) -> None:
    chat = channel_chat(tmp_path, turns, start=T0, asked=ASKED)
    first = chat.first(question).lower()
    assert first.startswith(before) and now not in first, first


def test_an_hour_said_alone_is_on_the_hour(tmp_path: Path) -> None:
    """"before it went to 5" names the change to 5am, not the one to 5:15am: the value
    before it is 5:15am, not the 5:30am before that."""
    from memory.reader.word_forms import anchor_forms

    assert "5" in anchor_forms("5am") and "5" in anchor_forms("5:00am")
    assert "5" not in anchor_forms("5:15am") and "7" not in anchor_forms("doors 7.45")
    assert "5" in anchor_forms("5:15am or 5")
    chat = channel_chat(tmp_path, [
        (0, "wade", "crew call is 5:30am at the hangar this week"),
        (4 * 1440, "marisol", "5:30 felt late this morning, we were rushing"),
        (4 * 1440 + 15, "wade", "agreed. moving crew call to 5:15am starting tomorrow"),
        (15 * 1440, "wade", "crew call moves to 5am starting thursday, sunrise is earlier now"),
    ], start=T0, asked=ASKED)
    first = chat.first("what was crew call before it went to 5?").lower()
    assert first.startswith("5:15"), first


def test_before_the_value_named_is_what_was_said_before_it(tmp_path: Path) -> None:
    """"where did we meet before the community centre?" is not answered by a message about
    the community centre: the value in force just before the first message naming it is."""
    chat = channel_chat(tmp_path, [
        (0, "alisha", "saturday canvass: meet co-op car park 10am"),
        (3 * 1440, "alisha", "co-op manager asked us not to gather there. moving the meeting "
                             "point to the community centre, same time"),
        (3 * 1440 + 10, "tom", "community centre's better anyway, has loos"),
    ], start=T0, asked=ASKED)
    first = chat.first("where did we used to meet before the community centre?").lower()
    assert "co-op car park" in first and "community centre" not in first, first
