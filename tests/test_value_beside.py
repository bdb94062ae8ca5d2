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
