"""Someone's change of mind is a change, not a subject ("the school changed their mind
again, back to 40" revises the school's order; "Ana changed her mind: Zizzi instead" moves
the lunch and hands nothing to Ana); "back to" returns to a value; a bare hour read as a
time where a day word or a replaced hour follows ("shut at 4 tmrw", "open till 6 not 5").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.values import Kind
from memory.reader.extract import reason_in
from tests.support.chat_reader import channel_chat

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 5, 20, 9, 0, tzinfo=UTC)


def test_a_change_of_mind_back_to_an_old_value_revises_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nico", "new job: school prospectus, 40 copies, saddle stitched, due the 15th"),
        (30, "nico", "the school want 60 prospectuses not 40"),
        (40, "kim", "ok"),
        (300, "nico", "school have changed their minds again, back to 40. money's tight"),
    ], start=START, asked=ASKED)
    assert "40" in chat.first("how many prospectuses for the school")
    assert "60" in chat.first("how many prospectuses did the school want before going back to 40")


@pytest.mark.parametrize("text", [
    "change of plan, Ana changed her mind: Zizzi instead",
    "Ana's had a change of heart: Zizzi instead",
])
def test_whose_mind_changed_is_no_new_owner(tmp_path: Path, text: str) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "team lunch at Nandos on friday"),
        (60, "ben", text),
    ], start=START, asked=ASKED)
    first = chat.first("where is team lunch")
    assert "zizzi" in first.lower()
    assert "nandos" in chat.first("where was team lunch before it changed").lower()


@pytest.mark.parametrize(("text", "hour", "old"), [
    ("weather's fine after all, open till 6 not 5", "6", "5"),
    ("storm warning so we shut at 4 tmrw", "4", ""),
    ("staying open until 7 tonight", "7", ""),
])
def test_a_bare_hour_where_a_time_is_set(text: str, hour: str, old: str) -> None:
    analysis = MessageAnalyzer().analyze(text)
    claims = [c for cl in analysis.clauses for c in cl.claims]
    assert any(c.value.kind in (Kind.TIME, Kind.DATE) and hour in c.value.text for c in claims)
    if old:
        olds = [v.text for cl in analysis.clauses for v in cl.old]
        assert old in olds


@pytest.mark.parametrize("text", [
    "cut to 3 on monday",  # a count, no day word or replaced hour after it
    "numbers went up to 12 ppl not 10 ppl",
    "squad cut to 5 not 6 players",
    "down to 15 not 16 children",
])
def test_a_count_is_no_time(text: str) -> None:
    analysis = MessageAnalyzer().analyze(text)
    assert not any(c.value.kind is Kind.TIME for cl in analysis.clauses for c in cl.claims)


def test_before_going_back_asks_the_previous_value() -> None:
    qa = analyze_question("what did we charge before going back to £5")
    assert qa.kind.value == "previous"
    assert "back to" in qa.anchor


@pytest.mark.parametrize(("text", "reason"), [
    ("client switched again, back to the matte stock. budget thing", "budget thing"),
    ("moving it to thursday. staffing issues", "staffing issues"),
])
def test_a_kind_of_reason_said_beside_a_change(text: str, reason: str) -> None:
    assert reason_in(text, value="thursday" if "thursday" in text else "matte stock") == reason


@pytest.mark.parametrize("text", [
    "moving to the new office next month, exciting stuff!",
    "blue kit for the final. fancy stuff",
])
def test_an_exclamation_is_no_reason(text: str) -> None:
    assert "stuff" not in reason_in(text, value="next month" if "month" in text else "blue kit")
