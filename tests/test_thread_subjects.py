"""How a thread carries its subject and how chat writes its values.

* A reply deciding a value with no subject of its own, in a thread opened by a labelled
  proposal ("Team lunch - thinking we move it to Fridays 12:30 …"), is about the thread's
  subject, even when the turn it answers is another reply naming none.
* A thread opened by a message that names the value in force ("the 1:15 is awkward for
  me") is about the state holding it: its decision revises that state.
* A code naming one of a series ("U10", "rc2") names another thing than the same letters
  with another number: "U10 training great tonight" does not revise the U12 training.
* Values as chat writes them: dotted times ("wed 1.15", "7.30am"), an ordinal day agreed
  alone ("17th fine"), pay by the day or hour ("495/day", "14.50 an hour"), a month a plan
  is for ("on the list for nov"), a span of ordinal days ("19th-30th"), a numbered channel
  or cabin ("channel 8", "cabin 3").
* How a value moved is not what moved: "bring it *forward* to 7:30" has no subject of its
  own, and an exclamation ("ffs.") names nothing a value after it is about.

Everything goes through the real Writer (propose → verify → commit) on a MemoryStore in a
temp dir with the HashingEmbedder.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.lexicon import default_lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.value_types import Kind
from memory.analysis.values import find_values
from memory.dates import find_date_expressions, resolve_date
from memory.models import EvidenceNode, Scope
from memory.registry import chain_of
from memory.store import MemoryStore
from memory.text import SlotKind, find_slots
from tests.support.chat_reader import channel_chat
from tests.support.memory import labelled_lunch_thread, msg, open_memory

LEX = default_lexicon()


def _nodes(store: MemoryStore) -> dict[str, EvidenceNode]:
    return {n.message_id: n for n in store.find_nodes(Scope(space="T1"))}


def _current(store: MemoryStore, node: EvidenceNode) -> str:
    """The value now in force on the chain ``node`` is part of."""
    return [n.value for n in chain_of(store.state_nodes([node.state_id or ""]))][-1]


# A complaint naming the value in force (7:45), before a change that names no subject.
SUNSET_PROBLEM = ("sunset problem: council's put a sign up, the slipway car park gets locked "
                  "at 9:30pm now. 7:45 start + 90 mins on the water + packing up = we lock "
                  "people's cars in")


def _values(text: str) -> list[tuple[Kind, str]]:
    return [(v.kind, v.text) for v in find_values(text, LEX)]


LUNCH = labelled_lunch_thread()[:5]
LATER = labelled_lunch_thread()[5:]


def test_a_decision_in_a_labelled_thread_opens_the_threads_subject(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(LUNCH)
    node = _nodes(store)["5"]
    assert node.state_id is not None
    assert node.topic == "team lunch"
    # (the suggestion opened it, nothing being tracked; the decision restates it)
    assert [n.value for n in chain_of(store.state_nodes([node.state_id]))] == ["wed 1.15"]


def test_a_thread_on_the_value_in_force_revises_its_state(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(LUNCH)
    writer.write(LATER)
    nodes = _nodes(store)
    assert nodes["620"].state_id == nodes["5"].state_id
    assert [n.value for n in chain_of(store.state_nodes([nodes["5"].state_id or ""]))] == [
        "wed 1.15", "1:45"]


@pytest.mark.parametrize("opening", [
    # a value the state does not hold
    "the 9:40 is awkward for me, my train gets in at 9:50",
    # the value it holds, said of another thing
    "anyone free on the 1:15 train tomorrow? need a hand with boxes",
    "the 1:15 train is always late, my ticket costs a fortune",
])
def test_a_thread_on_another_thing_leaves_the_state_alone(tmp_path: Path,
                                                          opening: str) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(LUNCH)
    writer.write([
        msg(600, "Pavel", opening),
        msg(610, "Omar", "ah. 10.15 then?", thread="600", reply_to="600"),
        msg(620, "Rosa", "10:15 it is from next week", thread="600", reply_to="600"),
    ])
    nodes = _nodes(store)
    assert nodes["620"].state_id != nodes["5"].state_id
    assert [n.value for n in chain_of(store.state_nodes([nodes["5"].state_id or ""]))] == [
        "wed 1.15"]


@pytest.mark.parametrize(("other", "same"), [
    ("U10 training great tonight, 18 kids!", "U12s training moved to tonight instead"),
    ("rc3 sign-off is friday now", "rc2 sign-off is friday now"),
])
def test_a_code_of_a_series_names_its_own_thing(tmp_path: Path, other: str,
                                                same: str) -> None:
    store, writer = open_memory(tmp_path)
    first = ("U12 training moving to Wednesdays 6pm from 2 Sep" if "U1" in other
             else "rc2 sign-off is thursday")
    writer.write([msg(1, "Liam", first), msg(30, "Mo", other), msg(60, "Liam", same)])
    nodes = _nodes(store)
    assert nodes["30"].state_id != nodes["1"].state_id
    assert nodes["60"].state_id == nodes["1"].state_id


@pytest.mark.parametrize(("text", "value"), [
    ("porcelain delivering thurs 7.30am with the sand", "thurs 7.30am"),
    ("could we do after the huddle instead? wed 1.15, clinic starts at 2", "wed 1.15"),
    ("ah. 8.30 then?", "8.30"),
    ("meet at 7.30 by the gate", "7.30"),
])
def test_dotted_times_are_times(text: str, value: str) -> None:
    assert value in [t for k, t in _values(text) if k in (Kind.TIME, Kind.DATE)]


@pytest.mark.parametrize("text", ["upgrade to 3.10?", "release 2.15 is out",
                                  "we ship 3.15 then", "diesel's around 1.45 a litre",
                                  "got the tickets at 6.30 each"])
def test_dotted_versions_and_prices_are_no_times(text: str) -> None:
    assert Kind.TIME not in [k for k, _ in _values(text)]


def test_dotted_time_with_am_is_one_slot() -> None:
    assert [(s.kind, s.text) for s in find_slots("meet 7.30pm sharp")] == [
        (SlotKind.TIME, "7.30pm")]


def test_minutes_of_a_time_count_nothing() -> None:
    assert (Kind.COUNT, "50 bus") not in _values("the 7:50 bus gets in at 8:20")
    # (a ratio and a quarter's code are no times)
    assert (Kind.COUNT, "4 kids") in _values("ratio is 1:4 kids")
    assert (Kind.COUNT, "40 signups") in _values("Q1:40 signups")


@pytest.mark.parametrize("text", ["17th fine", "17th works for me", "ok 17th then",
                                  "17th?"])
def test_an_ordinal_agreed_alone_is_a_day(text: str) -> None:
    assert (Kind.DATE, "17th") in _values(text)
    assert any(s.kind is SlotKind.DATE and s.text == "17th" for s in find_slots(text))


@pytest.mark.parametrize("text", ["we came 2nd", "Sam's 1st day", "only 3rd",
                                  "2nd trail work day", "3rd works for me", "2nd?"])
def test_an_ordinal_rank_is_no_day(text: str) -> None:
    assert not [v for k, v in _values(text) if k is Kind.DATE]


def test_an_ordinal_alone_resolves_but_is_never_found_in_text() -> None:
    said = datetime(2026, 8, 31, 12, tzinfo=UTC)
    found = resolve_date("17th", said, prefer="future")
    assert found is not None and found.start.isoformat() == "2026-09-17"
    assert find_date_expressions("Sam's 1st day is monday") == ["monday"]


@pytest.mark.parametrize(("text", "amount"), [
    ("confirmed at 495/day incl the Saturday", "495"),
    ("baz on 14.50 an hour from may", "14.50"),
    ("13.20ph for now", "13.20"),
])
def test_pay_by_the_day_or_hour_is_money(text: str, amount: str) -> None:
    assert (SlotKind.MONEY, amount) in [(s.kind, s.text) for s in find_slots(text)]


@pytest.mark.parametrize("text", ["we see 3 per hour", "50/day new trials",
                                  "line 2 doing 120 per hour", "tickets down to 40/day now"])
def test_counts_by_the_hour_are_no_money(text: str) -> None:
    assert SlotKind.MONEY not in [s.kind for s in find_slots(text)]


def test_a_month_a_plan_is_for_is_a_date() -> None:
    assert find_date_expressions("lathe induction is on the list for nov") == ["nov"]
    assert find_date_expressions("for 2000 people") == []


def test_a_span_of_ordinal_days_is_a_date() -> None:
    assert [(s.kind, s.text) for s in find_slots("travelling for work 19th-30th")] == [
        (SlotKind.DATE, "19th-30th")]


@pytest.mark.parametrize(("said", "asked", "month"), [
    ("lathe induction is on the list for nov", "when is the lathe induction?", "nov"),
    ("dentist check-up now booked for april", "when is the dentist check-up now?", "april"),
])
def test_the_month_a_plan_is_for_answers_when(tmp_path: Path, said: str, asked: str,
                                              month: str) -> None:
    chat = channel_chat(tmp_path, [(0, "ravi", said)],
                        start=datetime(2026, 3, 2, 9, tzinfo=UTC),
                        asked=datetime(2026, 3, 3, 9, tzinfo=UTC))
    first = chat.first(asked).lower()
    assert month in first and "2 march" not in first


def test_a_reply_speaking_of_another_value_takes_the_thread_elsewhere(tmp_path: Path) -> None:
    """Under "Team lunch - …", "separately the 9:15 is killing me" is about standup: the
    decision answering it revises standup and leaves the lunch alone."""
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Pm", "standup is 9:15 every day"),
        msg(60, "Rosa", "Team lunch - thinking thursdays from now on, thoughts?"),
        msg(70, "Ben", "thursdays fine. separately the 9:15 is killing me, any chance of "
                       "later?", thread="60", reply_to="60"),
        msg(80, "Pm", "ok 9:45 then, from monday", thread="60", reply_to="60"),
    ])
    nodes = _nodes(store)
    assert nodes["80"].state_id == nodes["1"].state_id
    assert _current(store, nodes["1"]) == "9:45"
    lunch = [n for n in nodes.values() if n.topic == "team lunch"]
    assert all("monday" not in (n.value or "").lower() for n in lunch)


@pytest.mark.parametrize("decision", [
    "ok let's bring it forward to 7:30, final answer",
    "fine, pull it ahead to 7:30 then",
    "ok we move it down to 7:30",
])
def test_how_a_reply_moves_the_value_is_not_its_subject(tmp_path: Path, decision: str) -> None:
    """"bring it *forward* to 7:30" in a thread on the 7:45 start revises that start: the
    particle says how the value moved, like "back", and names no thing of its own."""
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Priya", "sunset start is 7:45 from tomorrow"),
        msg(300, "Tom", SUNSET_PROBLEM),
        msg(310, "Maya", "oh god. what do you reckon", thread="300", reply_to="300"),
        msg(315, "Tom", decision, thread="300", reply_to="300"),
    ])
    nodes = _nodes(store)
    assert nodes["315"].state_id == nodes["1"].state_id
    assert _current(store, nodes["1"]) == "7:30"


def test_a_numbered_channel_or_cabin_is_a_value_and_an_exclamation_no_subject() -> None:
    assert (Kind.PLACE, "channel 8") in _values("ok we go to channel 8 from tomorrow")
    assert (Kind.PLACE, "ch 6") in _values("radios on ch 6 from now")
    assert (Kind.PLACE, "cabin 3") in _values("kenji's in cabin 3 from tonight")
    # "ffs." before a decision names nothing the decision is about
    analysis = MessageAnalyzer(LEX).analyze("ffs. ok we go to channel 8 from tomorrow")
    assert all(c.subject != "ffs" for c in analysis.clauses)


def test_a_change_of_it_after_talk_naming_the_value_in_force_revises_it(
        tmp_path: Path) -> None:
    """Without threads: "7:45 start … we lock people's cars in" → "what do you reckon" →
    "ok let's bring it forward to 7:30" changes the state holding 7:45, the value the talk
    named two turns up, and is grounded there."""
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Tom", "sunset paddle starts at 7:45 from next week"),
        msg(2000, "Tom", SUNSET_PROBLEM),
        msg(2010, "Maya", "oh god. what do you reckon"),
        msg(2015, "Tom", "ok let's bring it forward to 7:30, final answer"),
    ])
    nodes = _nodes(store)
    assert nodes["2015"].state_id == nodes["1"].state_id
    assert _current(store, nodes["1"]) == "7:30"
