"""What an answer names: someone who took a task on themself is named once beside it, and
the person a message addresses is not the one it says did something."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.reader.extract import Person, person_answer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 2, 10, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 2, 20, 9, 0, tzinfo=UTC)


def test_a_self_named_owner_is_named_once(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "marco", "who owns the release notes for 3.2?"),
        (5, "elena", "release notes owner: elena"),
        (90, "tom", "reminder: freeze is friday"),
    ], start=T0, asked=ASKED)
    text = chat.answer("who owns the release notes?").answer
    assert "elena" in text.lower()
    assert "elena (elena" not in text.lower()



@pytest.mark.parametrize("text, question, person", [
    # the person addressed is not the one who says they did it
    ("Tam, I took your post down.", "who pulled Tam's Lumen post?", "Noor Haddad"),
    ("@sam I pushed the fix for the login bug", "who fixed the login bug?", "Noor Haddad"),
    # addressed and asked: the addressee does it
    ("Sam, can you take the minutes?", "who is taking the minutes?", "Sam"),
    ("Sam: I'll need you to run the booth", "who's running the booth?", "Sam"),
    # the one the speaker acted for holds the task
    ("Sam, I need you to update the budget sheet", "who is updating the budget sheet?", "Sam"),
    ("Sam, I signed you up for the first aid course", "who's doing the first aid course?",
     "Sam"),
    ("@sam I booked you on the 7am train for the site visit", "who's going on the site visit?",
     "Sam"),
])
def test_the_person_addressed_is_not_the_doer(text: str, question: str, person: str) -> None:
    people = [Person("Tam", frozenset({"tam"})), Person("Sam", frozenset({"sam"})),
              Person("Noor Haddad", frozenset({"noor", "haddad"}))]
    qa = analyze_question(question, DEFAULT_LEXICON)
    assert person_answer(text, "Noor Haddad", people, qa) == person
