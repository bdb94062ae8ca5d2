"""A return to an earlier value is a change ("going back to Green Valley from the 23rd"), a
value said to be so *now* is the value inside it ("blueflame is coming fridays now": fridays),
and dues or rent said by the month are an amount ("475/month")."""

from __future__ import annotations

import pytest

from memory.analysis.message import MessageAnalyzer


def _read(text: str) -> list[tuple[str, str, float]]:
    a = MessageAnalyzer().analyze(text, speaker="Priya")
    return [(c.value.kind.value, c.value.text, clause.change)
            for clause in a.clauses for c in clause.claims]


def test_going_back_to_a_name_changes_to_it() -> None:
    claims = _read("hilltop experiment is over. going back to Green Valley from the 23rd")
    assert [ch for kind, v, ch in claims if v == "Green Valley" and ch >= 0.5]


def test_going_back_somewhere_later_is_no_value() -> None:
    assert not _read("I'll go back to the shop later")


def test_a_phrase_said_now_is_the_value_inside_it() -> None:
    claims = _read("propane: blueflame is coming fridays now instead of thursdays")
    values = [v for _, v, _ in claims]
    assert "fridays" in values
    assert "coming fridays" not in values


@pytest.mark.parametrize(("text", "amount"), [
    ("dues are 475/month starting april", "475"),
    ("rent 1,200/yr", "1,200"),
])
def test_an_amount_by_the_month_is_money(text: str, amount: str) -> None:
    assert ("money", amount) in [(k, v) for k, v, _ in _read(text)]


@pytest.mark.parametrize("text", [
    "we went 3/10 on the field today",
    "posting it at 20hrs/wk",
    # a count by the month (the hostile review's cases)
    "shopify store is doing ~300/month orders right now",
    "we ship ~250/month boxes",
])
def test_a_score_or_hours_is_no_money(text: str) -> None:
    assert not [v for k, v, _ in _read(text) if k == "money"]


@pytest.mark.parametrize("name", ["Mars", "Phoenix Suns"])
def test_a_name_ending_like_a_day_stays_a_choice(name: str) -> None:
    assert ("choice", name) in [(k, v) for k, v, _ in _read(f"ok going with {name}")]


@pytest.mark.parametrize("text", [
    "rebooked: premier inn birmingham new street, fri + sat",
    "relocated to the small hall from the 12th",
])
def test_booked_or_placed_again_is_a_change(text: str) -> None:
    assert [ch for _, _, ch in _read(text) if ch >= 0.5]
