"""A why-question with no reason given in so many words beside its change is answered by the
covering message that reports what stood in the way, not by the change restated; a blocker
word negated ("no problem") or naming a time ("late may") reports nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.reason_words import BLOCKER_WORDS
from memory.reader.extract import reports_blocker
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 7, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 7, 30, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "reports"), [
    ("the supplier's lorry broke down on the ring road", True),
    ("the 18th is taken by a council workshop", True),
    ("running late, sorry", True),
    ("yep no problem", False),
    ("not busy today, happy to help", False),
    ("draft rota for late may/june is up", False),
    ("late next week works for me", False),
])
def test_what_reports_a_blocker(text: str, reports: bool) -> None:
    assert reports_blocker(text, BLOCKER_WORDS) is reports


def test_the_reported_problem_answers_why(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sara", "db migration is sat 12 july, 22:00-02:00 window"),
        (2000, "sara", "problem: the new replica is lagging up to 40 min under load on "
                       "staging. not migrating until that's fixed"),
        (2005, "ben", "ouch"),
        (9000, "sara", "ok, migration moves to sat 26 july then. same window"),
    ], start=T0, asked=ASKED)
    assert "lagging" in chat.first("why did the migration slip to the 26th?")
