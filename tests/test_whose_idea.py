""""Whose idea was it to …?" asks who put it forward, whatever verb follows ("host", "put …
on"), and is answered by the person who first suggested it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from tests.support.chat_reader import channel_chat


@pytest.mark.parametrize("question, role", [
    ("whose idea was it to host the client at our place?", "proposer"),
    ("whose idea was it to put the returns on route 9?", "proposer"),
    ("whose suggestion was it to bring the client here?", "proposer"),
    # a change's idea keeps the change's reading (its suggester is found through the change)
    ("whose idea was it to swap out the opener", "changer"),
    ("whose pick was porto", "decider"),
])
def test_whose_idea_asks_for_the_proposer(question: str, role: str) -> None:
    assert analyze_question(question, DEFAULT_LEXICON).role == role


def test_whose_idea_names_who_suggested_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nadia", "brand review is at their store on the 27th, back office"),
        (30, "beck", "that back office fits like 4 people. could we host them at the studio?"),
        (45, "nadia", "ok, moving it to the studio, same time"),
    ], start=datetime(2025, 2, 20, 9, 0, tzinfo=UTC),
        asked=datetime(2025, 2, 25, 9, 0, tzinfo=UTC))
    assert chat.first("whose idea was it to host them at the studio?").startswith("beck")
