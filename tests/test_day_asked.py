"""A question asking the day ("what date", "which night") is not answered by a time of day,
and a cue word that is also a noun names a thing after its modifier ("the dental list")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import analyze_question
from memory.reader.when_values import has_day
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 5, 12, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "day"), [
    ("sat 14th", True), ("fridays", True), ("tuesday night", True), ("21 May 2025", True),
    ("2pm", False), ("7:30", False), ("120", False),
])
def test_a_day_is_a_date_or_weekday_not_a_time(text: str, day: bool) -> None:
    assert has_day(text) is day


@pytest.mark.parametrize(("question", "asks_day"), [
    ("what date is the vaccination day again", True),
    ("what night do the bins go out now", True),
    ("which day does the weekly order go in?", True),
    ("what time is the vaccination day", False),
    ("where is the vaccination day", False),
])
def test_which_questions_ask_the_day(question: str, asks_day: bool) -> None:
    assert analyze_question(question).asks_day is asks_day


def test_a_modified_list_is_a_thing_not_a_request_for_a_list() -> None:
    assert analyze_question("what day is the dental list on now").kind is QuestionKind.CURRENT
    assert analyze_question("list the options for the venue").kind is QuestionKind.LIST


def test_the_date_asked_is_answered_with_a_day_not_the_last_time_said(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "megan", "charity vaccination day is sat 7 june at riverside"),
        (60, "dana", "👍"),
        (14400, "priya", "let's shift the vaccination day back a week to sat 14th, riverside "
                         "is free then"),
        (14405, "dana", "ok so 14th. I'll text everyone who's booked"),
        (20000, "jake", "vaccination day: last animal seen at 2pm now, not 3pm"),
    ], start=T0, asked=ASKED)
    first = chat.first("what date is the vaccination day again")
    assert "14" in first
    assert "2pm" not in first


@pytest.mark.parametrize(("question", "family"), [
    ("what are we eating for lunch on training day?", ""),
    ("what was the lunch plan for bls day before the current one", ""),
    ("what time does bls day start", "when"),
    ("what's the start date for the new hire", "when"),
])
def test_a_value_noun_in_a_qualifier_names_the_occasion_not_what_is_asked(
        question: str, family: str) -> None:
    assert analyze_question(question).family == family


def test_going_w_is_going_with() -> None:
    from memory.analysis.message import MessageAnalyzer

    analysis = MessageAnalyzer().analyze("lunch for the 20th: thai garden doesn't do catering "
                                         "on fridays 😑 going w olive tree instead",
                                         speaker="Priya")
    claims = [cl.value.text for c in analysis.clauses for cl in c.claims]
    assert "olive tree" in claims


@pytest.mark.parametrize(("text", "chosen", "left"), [
    ("hampton is sold out the 7th (some wedding). booking comfort inn instead, also on "
     "route 9", "comfort inn", "the 7th"),
    ("studio update: soundhaus double-booked booth 3 on monday. got the annex instead",
     "annex", "booth 3"),
])
def test_a_value_said_to_be_taken_is_left_and_what_is_got_instead_is_chosen(
        text: str, chosen: str, left: str) -> None:
    from memory.analysis.message import MessageAnalyzer

    analysis = MessageAnalyzer().analyze(text, speaker="Priya")
    claims = [cl.value.text for c in analysis.clauses for cl in c.claims]
    old = [v.text for c in analysis.clauses for v in c.old]
    assert chosen in claims
    assert left in old and left not in claims
