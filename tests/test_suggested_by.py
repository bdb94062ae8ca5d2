""""Who suggested X": of the messages naming X alike, the one putting it forward, not an
earlier mention of X as something else.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.reader.answer import puts_forward
from tests.support.chat_reader import channel_chat

START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 20, 9, 0, tzinfo=UTC)


def test_a_message_putting_something_forward() -> None:
    assert puts_forward("Harbour Lights to close the weekend? it's short")
    assert puts_forward("why don't we use the big urn, it's free")
    assert not puts_forward("Harbour Lights director is coming on sunday")


def test_a_request_or_a_question_about_something_else_puts_nothing_forward() -> None:
    assert not puts_forward("can you ring Harbour Lights' distributor about the print?")
    assert not puts_forward("ok Harbour Lights it is. can u tell the projectionist?",
                            [frozenset({"harbour"}), frozenset({"lights"})])
    assert puts_forward("what about Harbour Lights?", [frozenset({"harbour"})])
    # a question about the thing, worded as asking, may well put it forward
    assert puts_forward("is Harbour Lights an option for the closer?", [frozenset({"harbour"})])
    assert puts_forward("would u be up for Harbour Lights?")


def test_who_suggested_is_not_who_asked_for_a_favour(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tao", "closing film shortlist is up. can you ring Harbour Lights' distributor?"),
        (300, "rani", "yes done, the print is free"),
        (600, "mia", "Harbour Lights to close the weekend, we should book it"),
        (640, "tao", "ok closing film is Harbour Lights. can u tell the projectionist?"),
    ], start=START, asked=ASKED)
    assert "mia" in chat.first("whose idea was harbour lights").lower()


def test_who_suggested_is_who_put_it_forward(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rani", "guests: the Harbour Lights director is coming on sunday for a Q&A"),
        (600, "tao", "closing film fell through, the distributor pulled it"),
        (620, "mia", "Harbour Lights to close the weekend then? she's here anyway"),
        (640, "tao", "yes, closing film is Harbour Lights"),
    ], start=START, asked=ASKED)
    assert "mia" in chat.first("who suggested harbour lights for the closing film").lower()


def test_who_suggested_a_day_is_who_said_that_day(tmp_path: Path) -> None:
    # the day is what the proposal is known by; the thing may be in the turn it answers
    chat = channel_chat(tmp_path, [
        (0, "priti", "first aid refresher for the juniors - thurs 9th after training?"),
        (15, "hannah", "half of them have exams that week. weds 15th 6pm?"),
        (20, "priti", "ok weds 15th 6pm"),
    ], start=START, asked=ASKED)
    assert chat.first("who suggested doing the refresher on the wednesday").lower(
        ).startswith("hannah")
    assert chat.first("who suggested 6pm for the first aid refresher").lower(
        ).startswith("hannah")


def test_the_value_replaced_is_not_what_was_asked_for(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "Staff briefing thursday 8am in the back office"),
        (10, "tom", "8 is tricky for me with the school run. could we make it 8:20?"),
        (14, "priya", "ok 8:20 then"),
    ], start=START, asked=ASKED)
    assert chat.first("who asked for 8:20 instead of 8").lower().startswith("tom")


def test_a_number_in_words_is_the_number(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "fred", "U9s training numbers are huge now, 22 kids"),
        (5, "dan", "could we split them into two groups?"),
        (9, "fred", "2 groups then, I'll take one"),
    ], start=START, asked=ASKED)
    assert chat.first("who suggested splitting the U9s into 2 groups").lower().startswith("dan")
