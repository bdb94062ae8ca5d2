""""first" said of what was planned ("how many bags did tom *first* announce", "where was
the party first going to be") asks the original value; "first" naming a thing ("when did
the first shipment arrive") does not."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import analyze_question
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("question", [
    "how many bags/week did tom first announce for the backpack program",
    "where was the party first going to be",
    "what time did we first say for standup",
    "how many tables did we first say for the market?",
])
def test_first_said_of_the_plan_asks_the_original(question: str) -> None:
    assert analyze_question(question).kind is QuestionKind.ORIGINAL


@pytest.mark.parametrize("question", [
    "when did the first shipment arrive",
    "when was the first match",
    "why did the first vendor pull out",
    "who went first",
    "what time did coach say first practice starts?",  # an ordinal, not said of "say"
    "who did we agree goes first in the oncall rotation?",  # an order
    "did first aid training happen",
    "whats the date of the first session now",
])
def test_first_naming_a_thing_asks_no_original(question: str) -> None:
    assert analyze_question(question).kind is not QuestionKind.ORIGINAL


def test_the_first_announced_number_is_answered(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Tom", "Weekend Backpack Program: we're packing 120 bags a week starting friday"),
        (60, "Ana", "amazing"),
        (6000, "Tom", "backpack program update: 135 bags a week from now on, two more schools "
                      "signed up"),
    ], start=T0, asked=ASKED)
    first = chat.first("how many bags a week did tom first announce for the backpack program")
    assert "120" in first and "135" not in first
