"""A system line with nothing of a person's own beside it ("uploaded a file:
vax_day_flyer_v2.pdf", "Lena has joined the channel") answers no question, and what it shares
never becomes a value ("Screen Shot 2015-11-19 at 20.41.07.png")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 5, 5, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "speaker"), [
    ("uploaded a file: vax_day_flyer_v2.pdf", "Jake"),
    ("Lena has joined the channel", "Lena"),
    ("Alicia Moore uploaded a file: Screen Shot 2015-11-19 at 20.41.07.png", "Alicia Moore"),
])
def test_a_bare_system_line_says_nothing(text: str, speaker: str) -> None:
    analyzer = MessageAnalyzer()
    assert analyzer.only_system(text, speaker=speaker)
    assert not any(c.claims for c in analyzer.analyze(text, speaker=speaker).clauses)


@pytest.mark.parametrize("text", [
    "uploaded a file: agenda.pdf (final, meeting at 3pm)",
    "uploaded a file: budget.xlsx and commented: total is now $14,200",
])
def test_words_beside_a_shared_file_are_kept(text: str) -> None:
    assert not MessageAnalyzer().only_system(text, speaker="vee")


def test_a_shared_file_is_not_the_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Jake", "charity vax day is at the Northside community hall, sat 14 june"),
        (60, "Mia", "nice"),
        (3000, "Jake", "vax day moved to Riverside Park, same date"),
        (3100, "Jake", "uploaded a file: vax_day_flyer_v2.pdf"),
    ], start=T0, asked=ASKED)
    first = chat.first("where's the charity vax day now?")
    assert "Riverside" in first and "uploaded" not in first


def test_a_question_about_the_files_is_answered_by_the_share_line(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lena", "uploaded a file: flyer_v2.pdf"),
        (5, "tom", "looks good"),
        (60, "lena", "uploaded a file: flyer_v3_final.pdf"),
    ], start=T0, asked=ASKED)
    assert "lena" in chat.first("who uploaded the flyer?").lower()
    assert "flyer_v3" in chat.first("what's the latest flyer file?")
