"""The platform-neutral timeline model (memory/timeline.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.models import ChainEntry, Scope, State, Verdict
from memory.registry import StateRecord, chain_of, to_state
from memory.timeline import build_timeline, short_date, timeline_text
from tests.support.memory import open_memory, review_thread


def _entry(i: int, value: str, speaker: str, ts: datetime,
           verdict: Verdict = Verdict.REVISE) -> ChainEntry:
    return ChainEntry(node_id=f"n{i}", message_id=str(i), value=value, speaker=speaker, ts=ts,
                      quote=f"quote {i}", verdict=verdict, permalink=f"https://x.test/{i}")


def _state(chain: list[ChainEntry], active: str) -> State:
    return State(state_id="s1", platform="slack", space="T1", channel="C1", topic="review",
                 value=chain[-1].value if chain else "", active_node_id=active,
                 revision_count=max(len(chain) - 1, 0), updated_at=datetime(2024, 11, 3,
                                                                             tzinfo=UTC),
                 chain=chain)


NOV2 = datetime(2024, 11, 2, 15, 0, tzinfo=UTC)
NOV3 = datetime(2024, 11, 3, 9, 30, tzinfo=UTC)
NOV4 = datetime(2024, 11, 4, 11, 0, tzinfo=UTC)


def test_current_and_superseded_flags_follow_the_active_node() -> None:
    s = _state([_entry(1, "3 pm", "Alice", NOV2, Verdict.ESTABLISH),
                _entry(2, "4 pm", "Bob", NOV3), _entry(3, "Friday", "Alice", NOV4)], "n3")
    tl = build_timeline(s)
    assert [e.value for e in tl] == ["3 pm", "4 pm", "Friday"]
    assert [e.superseded for e in tl] == [True, True, False]
    assert [e.current for e in tl] == [False, False, True]
    assert tl[0].speaker == "Alice" and tl[0].time == NOV2 and tl[0].quote == "quote 1"
    assert tl[0].permalink == "https://x.test/1" and tl[0].verdict is Verdict.ESTABLISH


def test_entries_after_the_active_one_are_neither_current_nor_superseded() -> None:
    s = _state([_entry(1, "3 pm", "Alice", NOV2), _entry(2, "4 pm", "Bob", NOV3)], "n1")
    tl = build_timeline(s)
    assert [(e.current, e.superseded) for e in tl] == [(True, False), (False, False)]


def test_unknown_active_node_makes_the_last_entry_current() -> None:
    s = _state([_entry(1, "3 pm", "Alice", NOV2), _entry(2, "4 pm", "Bob", NOV3)], "gone")
    assert [e.current for e in build_timeline(s)] == [False, True]


def test_timeline_text_is_newest_first_with_was() -> None:
    s = _state([_entry(1, "3 pm", "Alice", NOV2), _entry(2, "4 pm", "Alice", NOV3)], "n2")
    assert timeline_text(s) == "4 pm — Alice, Nov 3 · was 3 pm — Alice, Nov 2"


def test_timeline_text_limits_and_counts_older_values() -> None:
    chain = [_entry(i, f"v{i}", "Eve", NOV2) for i in range(1, 7)]
    text = timeline_text(_state(chain, "n6"), limit=3)
    assert text == "v6 — Eve, Nov 2 · was v5 — Eve, Nov 2 · was v4 — Eve, Nov 2 · (+3 earlier)"


def test_empty_chain_falls_back_to_the_value() -> None:
    s = _state([], "n1").model_copy(update={"value": "2.4"})
    assert build_timeline(s) == []
    assert timeline_text(s) == "2.4"


def test_short_date_has_no_leading_zero() -> None:
    assert short_date(NOV3) == "Nov 3"
    assert short_date(datetime(2024, 12, 25, tzinfo=UTC)) == "Dec 25"


def test_timeline_of_a_real_chain(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(review_thread())
    first = next(n for n in store.find_nodes(Scope(space="T1")) if n.message_id == "1")
    assert first.state_id is not None
    row = store.states.get(first.state_id)
    assert row is not None
    state = to_state(StateRecord.from_row(row), chain_of(store.state_nodes([first.state_id])))
    tl = build_timeline(state)
    assert [(e.value, e.superseded, e.current) for e in tl] == [
        ("Thursday at 3 pm", True, False), ("4 pm", True, False), ("Friday 10am", False, True)]
    assert timeline_text(state) == (
        "Friday 10am — Alice, Nov 4 · was 4 pm — Alice, Nov 4 · was Thursday at 3 pm — Alice, "
        "Nov 4")
