""""What size are the bookmarks", "which hotel is tom in", "what's gina's number": the noun a
"what/which" question asks a value of, and the owner it names by a possessive, must be in
the evidence that answers it; otherwise the memory holds no answer, however well the rest
of the question is covered.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from tests.support.chat_reader import channel_chat

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)

CHAT = [
    (0, "nico", "new job: parish newsletter flyers, 800, double sided, due the 12th"),
    (30, "kim", "flyers printed early, 800 boxed"),
    (60, "tom", "off to the CPD course in Leeds 20th-22nd, back monday"),
    (90, "lou", "rang the council, their number on the form is 0161 496 0732"),
    (120, "fran", "club jackets ordered, 12 of them, arriving mid april"),
    (150, "kwame", "the new torque wrench is in the van"),
]


@pytest.mark.parametrize(("question", "group"), [
    ("what size are the parish flyers", ("size",)),
    ("which hotel is tom in", ("hotel",)),
    ("what colour jackets did we order", ("colour", "jackets")),
    ("whats dave's phone number", ("dave",)),
])
def test_the_asked_noun_and_the_owner_are_key(question: str, group: tuple[str, ...]) -> None:
    assert group in analyze_question(question).key


@pytest.mark.parametrize("question", [
    "what time is the review", "what date is the fair", "what phone number is on the form",
    "why did it move",
])
def test_a_value_noun_is_left_to_its_family(question: str) -> None:
    qa = analyze_question(question)
    assert not any(g[0] in ("time", "date", "number") for g in qa.key)


@pytest.mark.parametrize("question", [
    "what size are the parish flyers",
    "which hotel is tom staying at in leeds",
    "what brand is the new torque wrench",
    "whats dave's phone number",
])
def test_a_detail_nobody_gave_is_not_answered(tmp_path: Path, question: str) -> None:
    chat = channel_chat(tmp_path, CHAT, start=START, asked=ASKED)
    assert chat.answer(question).abstained


@pytest.mark.parametrize(("question", "expect"), [
    ("how many parish flyers", "800"),
    ("what's the council's number", "0161"),
    ("where is tom's course", "leeds"),
    ("how many jackets did fran order", "12"),
])
def test_what_was_given_is_still_answered(tmp_path: Path, question: str, expect: str) -> None:
    chat = channel_chat(tmp_path, CHAT, start=START, asked=ASKED)
    answer = chat.answer(question)
    assert not answer.abstained
    assert expect in answer.answer.splitlines()[0].lower()


@pytest.mark.parametrize(("turns", "question", "expect"), [
    ([(0, "ana", "summer social will be at Marlow Lodge this year"),
      (4, "ben", "nice, bigger garden")], "which venue is the summer social at", "marlow"),
    ([(0, "pm", "retro is in Lovelace, 3pm friday"), (1, "dev", "ok")],
     "which room is the retro in", "lovelace"),
    ([(0, "jo", "booked Green Fork for the christening lunch, 40 covers"), (2, "mum", "lovely")],
     "which caterer are we using for the christening", "green fork"),
])
def test_a_value_set_for_the_thing_answers_the_noun_never_said(
        tmp_path: Path, turns: list[tuple[int, str, str]], question: str, expect: str) -> None:
    # nobody says "venue", "room" or "caterer": the value set for the thing is what is asked
    answer = channel_chat(tmp_path, turns, start=START, asked=ASKED).answer(question)
    assert not answer.abstained
    assert expect in answer.answer.splitlines()[0].lower()
