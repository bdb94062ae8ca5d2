"""Verbs whose subject does the task named after them, in British spelling as well and the
everyday ones ("who's organising the playtesters", "who's sorting the van"); "book" is
not one ("Dev, can you book it?" names no owner)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question_lexicon import DEFAULT_LEXICON
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 10, 8, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 10, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("word", ["organising", "organizing", "sorting", "arranging",
                                  "updating"])
def test_doing_words_name_who_holds_a_task(word: str) -> None:
    assert word in DEFAULT_LEXICON.role_words


def test_who_is_organising_is_who_took_it_on(tmp_path: Path) -> None:
    # A guard of the who-reader over such a chat (it passed before "organising" was an
    # owner verb: "on it" claims the task); the word list above is the change.
    chat = channel_chat(tmp_path, [
        (0, "riley", "playtest sat 11th 8pm in voice. sam can you organise the testers?"),
        (10, "sam", "on it, I'm organising them, 4 friends from uni are keen"),
        (60, "felix", "nice"),
    ], start=T0, asked=ASKED)
    assert "sam" in chat.first("who's organising the playtesters").lower()
