"""A *who* question about a task someone holds now or will do ("who's updating the menus?",
"who will replace the valve?") asks for its holder, not for who made a change ("who updated
the menus?")."""

from __future__ import annotations

import pytest

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON


@pytest.mark.parametrize("question, role", [
    ("who's updating the menus and website with the new price?", "owner"),
    ("who's doing the treasurer handover with me", "owner"),
    ("who is getting the FV2 valve replaced", "owner"),
    ("who will update the wiki after the move", "owner"),
    ("who's gonna switch the badges over", "owner"),
    ("who updated the menus?", "changer"),
    ("who kept moving the keynote around", "changer"),
    ("who's moved the review to friday", "changer"),
    ("who is the one who moved it", "changer"),
])
def test_a_task_ahead_asks_for_its_holder(question: str, role: str) -> None:
    assert analyze_question(question, DEFAULT_LEXICON).role == role
