"""The reader over one decision split across states, and *who said it* questions.

A lunch thread's root holds the date; the poll's result in the thread opens a second state
of the same topic holding the place, later revised. "Where…" must be answered from the place
state (its current value with its history), "when…" from the date state, and "Who suggested
X?" by the speaker of the message that first put X forward — never by X's state.

Everything is written through the real Writer on a MemoryStore in a temp dir with the
HashingEmbedder.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from memory.models import EvidenceNode, Message, Scope
from memory.reader.answer import attributed_phrase, first_said, named_span
from memory.reader.offline import OfflineReader
from memory.reader.tools import offline_tools, read_current_state
from memory.registry import chain_of
from memory.store import MemoryStore
from tests.support.memory import T0, lunch_thread, msg, open_memory

C1 = Scope(platform="slack", space="T1", channels=("C1",))
BOTH = Scope(platform="slack", space="T1", channels=("C1", "C2"))


@dataclass
class Lunch:
    store: MemoryStore
    reader: OfflineReader
    nodes: dict[str, EvidenceNode]

    @property
    def date_state(self) -> str:
        sid = self.nodes["1"].state_id
        assert sid is not None
        return sid

    @property
    def place_state(self) -> str:
        sid = self.nodes["4"].state_id
        assert sid is not None
        return sid


def _build(path: Path, messages: list[Message]) -> Lunch:
    store, writer = open_memory(path)
    writer.write(messages)
    nodes = {n.message_id: n for n in store.find_nodes(Scope(space="T1"))}
    reader = OfflineReader(tools=offline_tools(store, writer.embedder))
    return Lunch(store=store, reader=reader, nodes=nodes)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Lunch:
    m = _build(tmp_path_factory.mktemp("lunch"), lunch_thread())
    # The premise: two states of one topic, the date unrevised, the place revised.
    assert m.date_state != m.place_state
    assert m.nodes["1"].topic == m.nodes["4"].topic == "team lunch"
    values = [n.value for n in chain_of(m.store.state_nodes([m.place_state]))]
    assert values == ["Pho Saigon", "Taqueria Luna"]
    return m


# ---- read_current_state: siblings --------------------------------------------------------


def test_siblings_of_a_requested_state_follow_it_separately(mem: Lunch) -> None:
    emb = mem.reader.tools.embedder
    alone = read_current_state(mem.store, emb, query="team lunch", scope=C1, k=1,
                               state_ids=[mem.date_state])
    assert [s.state_id for s in alone] == [mem.date_state]
    both = read_current_state(mem.store, emb, query="team lunch", scope=C1, k=1,
                              state_ids=[mem.date_state], siblings=True)
    assert [s.state_id for s in both] == [mem.date_state, mem.place_state]
    date, place = both
    # Separate candidates: each keeps its own value and chain, nothing is merged.
    assert (date.value, [e.value for e in date.chain]) == ("next Friday (the 15th)",
                                                          ["next Friday (the 15th)"])
    assert (place.value, [e.value for e in place.chain]) == ("Taqueria Luna",
                                                             ["Pho Saigon", "Taqueria Luna"])


def test_siblings_are_of_the_requested_states_only(mem: Lunch) -> None:
    """Without a requested state, ``siblings`` adds nothing to what the query found."""
    emb = mem.reader.tools.embedder
    plain = read_current_state(mem.store, emb, query="team lunch", scope=C1, k=1)
    with_flag = read_current_state(mem.store, emb, query="team lunch", scope=C1, k=1, siblings=True)
    assert [s.state_id for s in with_flag] == [s.state_id for s in plain]
    assert len(plain) == 1


def test_a_state_of_the_same_topic_in_another_channel_is_no_sibling(tmp_path: Path) -> None:
    other = msg(20, "Zoe", "Team lunch: Green Bowl it is", channel="C2", minutes=30)
    m = _build(tmp_path, [*lunch_thread(), other])
    assert m.nodes["20"].topic == "team lunch" and m.nodes["20"].state_id
    found = read_current_state(m.store, m.reader.tools.embedder, query="team lunch",
                               scope=BOTH, k=1,
                               state_ids=[m.date_state], siblings=True)
    assert [s.state_id for s in found] == [m.date_state, m.place_state]


# ---- the offline reader: the part asked for ----------------------------------------------


@pytest.mark.parametrize("question", ["Where is the team lunch on Friday?",
                                      "Where is the team lunch now?"])
def test_where_answers_from_the_state_holding_the_place(mem: Lunch, question: str) -> None:
    ans = mem.reader.answer(question, scope=C1)
    assert ans.short == "Taqueria Luna"
    lines = ans.answer.splitlines()
    assert lines[0] == "Taqueria Luna"  # the value asked for, alone
    assert lines[1].startswith("team lunch: now Taqueria Luna (Hugo, ")  # then its chain
    assert "was Pho Saigon" in lines[1]
    assert "next Friday" not in ans.answer  # the date state does not answer "where"
    assert ans.states[0].state_id == mem.place_state  # the state answering comes first
    cited = [c.message_id for c in ans.citations]
    assert cited[:2] == ["5", "4"]  # current value first, then its history


def test_when_still_answers_from_the_date_state(mem: Lunch) -> None:
    ans = mem.reader.answer("When is the team lunch?", scope=C1)
    assert ans.short == "next Friday (the 15th) (15 November 2024)"
    assert "Taqueria Luna" not in ans.answer.splitlines()[0]


def test_where_when_and_who_ask_for_their_kind_of_value() -> None:
    assert analyze_question("Where is the team lunch?").family == "where"
    assert analyze_question("When is the team lunch?").family == "when"
    assert analyze_question("Who is coming?").family == "person"


# ---- who said it -------------------------------------------------------------------------


@pytest.mark.parametrize(("question", "who", "message"), [
    ("Who suggested Taqueria Luna for the team lunch?", "Farid", "2"),
    ("who suggested taqueria luna for the team lunch", "Farid", "2"),
    ("Who proposed Pho Saigon?", "Carmen", "3"),
    ("Whose idea was Taqueria Luna?", "Farid", "2"),
])
def test_who_suggested_is_who_first_put_it_forward(mem: Lunch, question: str, who: str,
                                                   message: str) -> None:
    ans = mem.reader.answer(question, scope=C1)
    assert not ans.abstained
    assert ans.short == who
    assert ans.answer.startswith(f"{who} (")
    assert ans.states == []  # the value's state does not answer who said it
    assert [c.message_id for c in ans.citations] == [message]
    assert ans.citations[0].node_id == mem.nodes[message].node_id


def test_the_first_mention_is_found_beyond_the_searches(tmp_path: Path) -> None:
    """Later messages match the question better (they also say "team lunch"); the first
    mention is found by its literal words, however low the searches rank it."""
    later = [msg(10 + i, name, f"Team lunch at Taqueria Luna was great, team lunch again {i}?",
                 minutes=60 + i)
             for i, name in enumerate(["Bob", "Carmen", "Dev", "Erin", "Grace"] * 6)]
    m = _build(tmp_path, [msg(1, "Farid", "Someday we should try Taqueria Luna"), *later])
    question = "Who suggested Taqueria Luna for the team lunch?"
    searched = m.reader.tools.session(C1).search_hits(question, k=m.reader.k)
    assert m.nodes["1"].node_id not in {h.node.node_id for h in searched}  # the premise
    ans = m.reader.answer(question, scope=C1)
    assert ans.short == "Farid"
    assert [c.node_id for c in ans.citations] == [m.nodes["1"].node_id]


def test_who_said_something_never_said_abstains(mem: Lunch) -> None:
    ans = mem.reader.answer("Who suggested the Mongolian barbecue?", scope=C1)
    assert ans.abstained


@pytest.mark.parametrize(("question", "phrase"), [
    ("Who suggested Taqueria Luna for the team lunch?", "Taqueria Luna"),
    ("Who first proposed moving the review to Friday?", "moving the review to Friday"),
    ("Who was the one who came up with the dark mode idea?", "the dark mode idea"),
    ("Whose idea was the offsite in Lisbon?", "the offsite"),
    ("Who said we should use Postgres?", "we should use Postgres"),
    ("Who recommended \"ClickHouse\"?", "ClickHouse"),
    ("Who is leading the release?", ""),
    ("Who moved the review to Friday?", ""),
    ("When did Farid suggest Taqueria Luna?", ""),
])
def test_attributed_phrase(question: str, phrase: str) -> None:
    assert attributed_phrase(question) == phrase


def test_named_span_skips_days() -> None:
    assert named_span("we switch to Taqueria Luna") == "Taqueria Luna"
    assert named_span("moving the review to Friday") == ""
    assert named_span("the lunch") == ""


def _node(i: int, speaker: str, text: str, *, context: str = "") -> EvidenceNode:
    return EvidenceNode(node_id=f"n{i}", seq=i, platform="slack", space="T1", channel="C1",
                        message_id=str(i), speaker_id=f"U{i}", speaker=speaker,
                        ts=T0 + timedelta(minutes=i), text=text, context=context)


def test_first_said_prefers_names_then_words_then_the_earliest() -> None:
    nodes = [
        _node(3, "Hugo", "Switching the team lunch to Taqueria Luna."),
        _node(1, "Ann", "+1", context="Taqueria Luna for the lunch?"),  # not her own words
        _node(2, "Farid", "Taqueria Luna! their al pastor is unreal"),
        _node(4, "Ivy", "Luna is my cat"),
    ]
    # Of those naming it all, the earliest; a reply's borrowed context is not its words.
    assert first_said("Taqueria Luna", nodes) == nodes[2]
    # The name first, then the share of the other words ("switch"), then the earliest.
    assert first_said("we switch to Taqueria Luna", nodes) == nodes[0]
    # Without a name, the share of words: half of them is enough.
    assert first_said("luna cat", nodes) == nodes[3]
    assert first_said("al pastor tacos", nodes) == nodes[2]
    assert first_said("Green Bowl", nodes) is None
