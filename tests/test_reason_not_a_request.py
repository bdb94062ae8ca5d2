"""What is no reason for a change: a sentence asking the readers to act ("please update your
calendars") or saying what stays the same ("same times, sign-ups still open"), whether the
reader reads it beside the change or the writer noted it; the clause that says what stood in
the way is the reason ("(it clashed with SU elections results night)", "Kingsley is closed on
the 14th for maintenance").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.reason_words import says_no_reason
from memory.reader.extract import reason_in
from tests.support.chat_reader import channel_chat

START = datetime(2026, 2, 3, 10, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", [
    "please update your calendars", "pls bring your kit", "don't forget the forms",
    "Same times, sign-ups still open", "same time same room",
])
def test_says_no_reason(text: str) -> None:
    assert says_no_reason(text)


def test_a_request_beside_the_change_is_no_reason() -> None:
    text = ("AGM is MOVING to Tue 24 March, 6pm, Lecture Theatre B (it clashed with SU "
            "elections results night). please update your calendars!")
    assert reason_in(text, value="Tue 24 March") == "it clashed with SU elections results night"


def test_what_stays_the_same_is_no_reason_even_noted(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "josh", "Maiden Cup is on Sat 14 March!! Novices only. Sign-ups open soon"),
        (45000, "aisha", "⚠️ Maiden Cup moved to SAT 21 MARCH — Kingsley is closed on the 14th "
                         "for maintenance. Same times, sign-ups still open"),
    ], start=START, asked=ASKED, channel_name="announcements")
    first = chat.first("why did maiden cup move to the 21st")
    assert "maintenance" in first
    assert "Same times" not in first


def test_the_writer_notes_no_sameness_as_a_reason() -> None:
    analysis = MessageAnalyzer(Lexicon()).analyze(
        "⚠️ Maiden Cup moved to SAT 21 MARCH — Kingsley is closed on the 14th for "
        "maintenance. Same times, sign-ups still open", speaker="aisha")
    assert "Same times" not in analysis.explanation
    assert "Same times" not in analysis.reason
