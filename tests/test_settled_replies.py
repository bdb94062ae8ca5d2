"""Decisions settled in a word in unthreaded chat: "ok thursday 7pm then" after a counter-
proposal revises the time just set; "purple it is" settles the poll its speaker opened
("jersey colour vote: black or purple?"); "supplier says £28 now" revises the price (who
said it is not what it is about). A day said in passing revises nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


def _states(chat: object) -> list[tuple[str, str, int]]:
    store = chat.reader.tools.store  # type: ignore[attr-defined]
    return sorted((r["topic"], r["value"], r["revision_count"])
                  for r in store.states.find(chat.scope))  # type: ignore[attr-defined]


@pytest.mark.parametrize(("text", "value"), [
    ("ok thursday 7pm then", "thursday 7pm"),
    ("friday 10am works", "friday 10am"),
])
def test_a_value_settled_by_then_is_stated(text: str, value: str) -> None:
    a = MessageAnalyzer().analyze(text, speaker="x")
    assert [(c.value.text, c.stated) for cl in a.clauses for c in cl.claims] == [(value, True)]


def test_see_you_then_states_nothing() -> None:
    assert not MessageAnalyzer().analyze("see you then", speaker="x").claims


def test_a_counter_proposal_settled_revises_the_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jay", "league matches this season are tuesdays 7pm"),
        (5, "mo", "nah thursday, half the team has lectures tues"),
        (8, "jay", "ok thursday 7pm then"),
    ], start=T0, asked=ASKED)
    answer = chat.answer("what day are league matches?").answer
    assert answer.startswith("thursday 7pm"), answer
    assert "was tuesdays 7pm" in answer, answer


def test_a_day_in_passing_revises_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jay", "league matches this season are tuesdays 7pm"),
        (5, "mo", "cool, see you thursday at the social"),
    ], start=T0, asked=ASKED)
    assert [v for _, v, _ in _states(chat)] == ["tuesdays 7pm"]


def test_a_poll_settled_by_its_author_opens_its_state(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jay", "jersey colour vote: black or purple?"),
        (2, "mo", "purple"),
        (3, "kim", "purple 💜"),
        (4, "jay", "purple it is"),
    ], start=T0, asked=ASKED)
    assert ("jersey colour", "purple", 0) in _states(chat)
    assert chat.first("what colour are the jerseys?").startswith("purple")


def test_a_reported_price_revises_the_price(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kim", "jerseys are £25 each"),
        (2, "jay", "supplier says £28 now, shipping went up"),
    ], start=T0, asked=ASKED)
    assert _states(chat) == [("jerseys", "£28", 1)]
    assert chat.first("how much were jerseys before?").startswith("£25")
