"""A period the question is scoped to ("next year", "this week") is not the kind of value it
asks: "what is the rent for a full plot next year?" asks no date."""

from __future__ import annotations

import pytest

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import QuestionLexicon


@pytest.mark.parametrize(("question", "family"), [
    ("what is the rent for a full plot next year?", "money"),
    ("what's the theme for the party next year?", ""),
    ("what is the budget for the party?", "money"),
    ("what day is the market this week?", "when"),
    ("what time is standup next week", "when"),
])
def test_the_family_asked(question: str, family: str) -> None:
    assert analyze_question(question, QuestionLexicon()).family == family


def test_the_next_release_still_asks_a_version() -> None:
    qa = analyze_question("What version number will the next Atlas release have?",
                          QuestionLexicon())
    assert qa.family == "version"
