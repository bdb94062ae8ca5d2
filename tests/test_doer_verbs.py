"""The verb a question says of a person ("how many shirts are we *printing*", "when are they
*recording*") is what is done, which a chat says in other words ("shirts: bumping to 80"): it
weighs like a predicate verb in coverage, not like a thing the answer must name."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.reader.coverage import _said_of_doer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 5, 5, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 5, 30, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("question, verbs", [
    ("how many shirts are we printing?", {"printing"}),
    ("when are they recording at hollow pine", {"recording"}),
    ("which route up helvellyn are we doing?", {"doing"}),
    ("is forklift training still on monday?", set()),  # a noun, said of no one
    ("what did the caterer quote?", set()),
])
def test_the_verb_said_of_a_person(question: str, verbs: set[str]) -> None:
    assert _said_of_doer(analyze_question(question), DEFAULT_LEXICON.doers) == verbs


def test_a_verb_the_chat_says_elsewhere_does_not_hide_the_answer(tmp_path: Path) -> None:
    # "recording" is said in another message, so it weighs as a rare word of the scope
    chat = channel_chat(tmp_path, [
        (0, "lena", "hey all, hollow pine is holding sat+sun may 17-18 for you. 10am starts"),
        (30, "kit", "recording the demo vocals at home tonight"),
        (900, "lena", "ugh sorry, hollow pine has to move you to sat-sun may 24-25"),
    ], start=T0, asked=ASKED)
    answer = chat.answer("when are we recording at hollow pine")
    assert not answer.abstained and "24" in answer.answer.splitlines()[0], answer.answer
