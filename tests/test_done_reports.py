""""When did X happen?" is answered by the message reporting that it happened ("the kiln is
here!", "insurance paid ✅"), on the day it was said, rather than by a later message that
mentions X beside a date of something else."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 5, 5, 9, 0, tzinfo=UTC)  # a Monday
ASKED = datetime(2025, 5, 30, 9, 0, tzinfo=UTC)
DAY = 24 * 60


def test_an_arrival_reported_answers_when_it_came(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mina", "kiln update: the courier's van died, delivery is now friday the 9th"),
        (4 * DAY + 60, "owen", "kiln is here! two guys wheeled it into the back room"),
        (7 * DAY, "pia", "back from lisbon the 20th, save me a spot at the kiln"),
    ], start=T0, asked=ASKED)
    first = chat.first("when did the kiln actually arrive?")
    assert "9 May" in first and "20 May" not in first


def test_an_errand_ticked_off_answers_when_it_was_done(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "li", "insurance renewal due end of month, can someone pay it?"),
        (DAY, "sol", "on it"),
        (2 * DAY, "sol", "insurance paid ✅ receipt in the drive"),
        (2 * DAY + 30, "li", "thanks! next up: the 20th is the stock count"),
    ], start=T0, asked=ASKED)
    assert "7 May" in chat.first("when did sol pay the insurance?")


def test_a_plan_still_answers_when_nothing_reports_it_done(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mina", "open studio moved to saturday the 17th"),
        (DAY, "owen", "👍 I'll make posters"),
    ], start=T0, asked=ASKED)
    assert "17" in chat.first("when was the open studio?")


def test_a_later_message_telling_when_it_happened_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mina", "ordered the new couch for the studio ✅"),
        (DAY, "owen", "couch delivery confirmed for thursday"),
        (4 * DAY, "owen", "the couch came on thursday, it's huge"),
    ], start=T0, asked=ASKED)
    assert "8 May" in chat.first("when did the couch arrive?")


def test_done_said_of_what_is_ahead_reports_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "li", "the db migration is done ✅"),
        (DAY, "li", "the next migration should be done by fri 5/16"),
    ], start=T0, asked=ASKED)
    assert "5 May" in chat.first("when did the db migration get done?")
