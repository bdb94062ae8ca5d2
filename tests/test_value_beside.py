"""Among values a message says of one subject, the answer is the one the question's words
sit beside ("$12 a month, $120 a year" → per year: $120)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("question", "value", "other"), [
    ("what's the pro plan price per year?", "$120", "$12 "),
    ("what's the pro plan price a month?", "$12 ", "$120"),
])
def test_the_value_beside_the_questions_words(tmp_path: Path, question: str, value: str,
                                               other: str) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "pricing for the pro plan: $12 a month, $120 a year"),
        (5, "ben", "nice"),
    ], start=T0, asked=ASKED)
    first = chat.first(question) + " "
    assert value in first and other not in first


def test_people_are_not_read_by_the_words_beside_them(tmp_path: Path) -> None:
    # "i'm primary, marco secondary": "primary" sits before "marco" but names the speaker
    chat = channel_chat(tmp_path, [
        (0, "sara", "migration is the night of the 26th"),
        (3, "sara", "for the night of the 26th: i'm primary, marco secondary"),
        (4, "marco", "✅"),
    ], start=T0, asked=ASKED)
    assert chat.first("who's primary on call for the migration night?").startswith("sara")


def test_a_bare_hour_read_as_a_time_answers_what_time(tmp_path: Path) -> None:
    # "close at 7" is a time of day to the analyzer: "what time" is answered by it, not by
    # a later message's "2am" about something else
    chat = channel_chat(tmp_path, [
        (0, "tess", "sunday hours change starting this week: we close at 7 instead of 8"),
        (3000, "jo", "someone left the walk-in open last night, cooler alarm went off at 2am"),
    ], start=T0, asked=ASKED)
    # (a bare hour is shown as a time of day)
    assert chat.first("what time do we close on sundays now").split()[0] == "7:00"


@pytest.mark.parametrize(("question", "value", "other"), [
    ("what will the monthly charge be from january?", "£630", "£621"),
    ("what's the monthly charge from july?", "£621", "£630"),
])
def test_the_period_asked_picks_the_value_beside_it(tmp_path: Path, question: str,
                                                    value: str, other: str) -> None:
    # "jan" cut short is January
    chat = channel_chat(tmp_path, [
        (0, "amara", "decisions: monthly charges £621 from july, £630 from jan - passed"),
        (5, "ben", "👍"),
    ], start=T0, asked=ASKED)
    first = chat.first(question)
    assert value in first and other not in first, first

