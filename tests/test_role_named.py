"""A *who* answer names the person a message gives the role to, even one who never speaks
in the chat and is written in lower case ("judge is my mate carol", "sue whitlock from
millbrook will referee instead"), and both people when the speaker names someone beside
themselves ("priya and me running them"); a verb that means something else names nobody
("sue is running late").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from memory.reader.role_named import role_named, with_self
from tests.support.chat_reader import channel_chat

START = datetime(2026, 5, 28, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "question", "named"), [
    ("dog show! judge is my mate carol, she does kennel club shows", "who's judging the dogs?",
     "carol"),
    ("ref update: john's done his knee in 🤕 sue whitlock from millbrook will referee instead",
     "who's refereeing the autumn open?", "sue whitlock"),
    ("mrs pattinson's doing the cakes 🍰", "who's judging the cakes?", "mrs pattinson"),
    ("new opener: dan fairley (the breakfast show guy on the local radio) is doing it now",
     "who's opening the fête now?", "dan fairley"),
    ("sue is running late, i'll do the raffle", "who's running the raffle?", ""),
    ("i can do the raffle", "who's running the raffle?", ""),
    ("toner's nearly out, ill order", "who is ordering the toner", ""),
])
def test_role_named(text: str, question: str, named: str) -> None:
    assert role_named(text, analyze_question(question)) == named


@pytest.mark.parametrize(("text", "together"), [
    ("trials sat 26 sept, priya and me running them", "Priya and Claire"),
    ("me & priya will run them", "Priya and Claire"),
    ("priya is running them", "Priya"),
])
def test_with_self(text: str, together: str) -> None:
    assert with_self(text, "Priya", "Claire") == together


def test_a_person_who_never_speaks_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "barry", "dog show! judge is my mate carol, she does kennel club shows. classes "
                     "start 2:30"),
        (30, "ellie", "amazing, the kids will love it"),
    ], start=START, asked=ASKED)
    assert "carol" in chat.first("who's judging the dog show?").lower()
