"""The reader answers the question asked, and says "I don't know" when memory holds no answer.

A small team chat goes through the real write path (LanceDB + Tantivy in a temp dir, the
offline proposer, the hashing embedder). The review time is revised twice (Thursday 3 pm →
4 pm → Friday 10am, with a reason), the release renamed, a private channel holds a budget,
and an unthreaded channel has a question answered by the next message from someone else.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory.embeddings import HashingEmbedder
from memory.models import Answer, Message, Scope
from memory.proposer import OfflineProposer
from memory.reader.offline import NOT_FOUND, OfflineReader
from memory.reader.tools import offline_tools
from memory.store import open_store
from memory.writer import open_writer

T0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)  # a Monday
ASKED = datetime(2024, 11, 8, 12, tzinfo=UTC)
PUBLIC = Scope(platform="slack", space="T1", channels=("C1", "C3"))
LEADERS = Scope(platform="slack", space="T1", channels=("C1", "C2", "C3"))


def m(i: int, user: str, text: str, *, channel: str = "C1", **kw: str) -> Message:
    names = {"C1": "atlas-dev", "C2": "leadership", "C3": "general"}
    return Message(platform="slack", space="T1", channel=channel, channel_name=names[channel],
                   id=f"{channel}.{i}", user=f"U{user.upper()}", user_name=user,
                   ts=T0 + timedelta(minutes=10 * i), text=text, **kw)


def public_chat() -> list[Message]:
    return [
        m(1, "Alice", "Atlas design review is Thursday at 3 pm"),
        m(2, "Bob", "reminder: bring the review checklist", thread_id="C1.1",
          reply_to="C1.1"),
        m(3, "Carol", "let's do 4 pm instead", thread_id="C1.1", reply_to="C1.1"),
        m(4, "Dan", "+1, works for me", thread_id="C1.1", reply_to="C1.3"),
        m(5, "Eve", "We decided the release will be version 2.3"),
        m(6, "Alice", "Heads up: review slips to Friday 10am. Grace is at the Nordhavn "
                      "offsite on Thursday."),
        m(7, "Frank", "actually we're calling it 2.4, the storage format changed"),
        m(1, "Dan", "what are your thoughts on opening the hackday to everyone?",
          channel="C3"),
        m(2, "Hugo", "lol nice", channel="C3"),
        m(3, "Erin", "yes, we should open it up, more teams means more ideas", channel="C3"),
        m(4, "Ivy", "the staging console is flaky again", channel="C3"),
    ]


def private_chat() -> list[Message]:
    return [m(1, "Grace", "Hiring budget for 2025 is $480k: three engineers.", channel="C2")]


def build(path: Path, messages: list[Message]) -> OfflineReader:
    emb = HashingEmbedder()
    store = open_store(uri=str(path / "lance"), lexical_dir=path / "lex", dim=emb.dim)
    open_writer(store=store, embedder=emb, proposer=OfflineProposer()).write(messages)
    return OfflineReader(tools=offline_tools(store, emb))


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> OfflineReader:
    return build(tmp_path_factory.mktemp("judgement"), public_chat() + private_chat())


def ask(reader: OfflineReader, question: str, scope: Scope = PUBLIC) -> Answer:
    return reader.answer(question, scope=scope, reference=ASKED)


def first(ans: Answer) -> str:
    return ans.answer.splitlines()[0]


# ---- the first line says what was asked --------------------------------------------------


@pytest.mark.parametrize("question", [
    "When is the design review?", "what time is the atlas design review now?",
    "When's the review?",
])
def test_current_value_alone_on_the_first_line_then_the_chain(reader: OfflineReader,
                                                              question: str) -> None:
    ans = ask(reader, question)
    assert first(ans).startswith("Friday 10am"), ans.answer
    assert "4 pm" not in first(ans) and "3 pm" not in first(ans)
    assert "now Friday 10am" in ans.answer and "was 4 pm" in ans.answer
    assert ans.kind in ("current", "when")


@pytest.mark.parametrize("question", [
    "What was the design review time before it slipped to Friday?",
    "what was the review time before the change?",
    "what was the review before?",
    "what time did the review used to be?",
    "What was the previous review time?",
])
def test_previous_value(reader: OfflineReader, question: str) -> None:
    ans = ask(reader, question)
    assert first(ans).startswith("4 pm"), ans.answer
    assert ans.kind == "previous"


@pytest.mark.parametrize("question", [
    "What time was the design review originally?",
    "when was the review first planned?",
    "what was the original review time?",
])
def test_original_value(reader: OfflineReader, question: str) -> None:
    ans = ask(reader, question)
    assert first(ans).startswith("Thursday at 3 pm"), ans.answer


@pytest.mark.parametrize("question", [
    "Who moved the design review to Friday?", "who pushed the review to friday?",
    "who changed the review time?",
])
def test_who_changed_it_is_the_speaker_of_that_change(reader: OfflineReader,
                                                      question: str) -> None:
    ans = ask(reader, question)
    assert first(ans).startswith("Alice"), ans.answer


def test_who_changed_it_earlier(reader: OfflineReader) -> None:
    assert first(ask(reader, "Who moved the review to 4 pm?")).startswith("Carol")


@pytest.mark.parametrize("question", [
    "Why did the design review slip?", "why was the review moved to friday?",
    "how come the review moved?",
])
def test_why_gives_the_reason_beside_the_change(reader: OfflineReader, question: str) -> None:
    ans = ask(reader, question)
    assert "offsite" in first(ans), ans.answer
    assert ans.kind == "why"


def test_other_states_are_not_appended(reader: OfflineReader) -> None:
    ans = ask(reader, "Which version is the release?")
    assert first(ans).startswith("2.4")
    assert "review" not in ans.answer.lower()
    assert len(ans.states) <= 1


# ---- unthreaded chat: the answer is the next message from someone else ---------------------


def test_a_question_found_is_answered_by_the_next_message_of_someone_else(
        reader: OfflineReader) -> None:
    ans = ask(reader, "Should we open the hackday to everyone?")
    assert not ans.abstained
    assert ans.citations[0].speaker == "Erin", ans.answer
    assert ans.citations[0].message_id == "C3.3"


# ---- abstention ---------------------------------------------------------------------------


@pytest.mark.parametrize("question", [
    "What is the office wifi password?",
    "When is the Android 4.0 launch?",
    "what kafka version are we on?",
    "Who is the new CFO?",
    "how much is the office rent?",
    "What is the capital of Mongolia?",
    "when is the review for Orion?",
])
def test_abstains_when_memory_holds_no_answer(reader: OfflineReader, question: str) -> None:
    ans = ask(reader, question)
    assert ans.abstained, ans.answer
    assert ans.answer == NOT_FOUND
    assert ans.citations == [] and ans.states == []
    assert all(c.channel in PUBLIC.channels for c in ans.closest)  # type: ignore[operator]


@pytest.mark.parametrize("question", [
    # the same subjects in other words: these are answered
    "when is the atlas review happening?",
    "what did we name the release?",
    "what's the release version now?",
    "is the staging console working?",
])
def test_answers_near_misses_in_other_words(reader: OfflineReader, question: str) -> None:
    assert not ask(reader, question).abstained


def test_abstention_never_reveals_a_hidden_answer(reader: OfflineReader,
                                                  tmp_path: Path) -> None:
    question = "What is the hiring budget for 2025?"
    without = build(tmp_path / "without", public_chat())
    hidden = ask(reader, question)            # the answer exists, in a channel not in scope
    absent = ask(without, question)           # the answer exists nowhere
    assert hidden.abstained and absent.abstained
    assert hidden.model_dump(exclude={"gathered"}) == absent.model_dump(exclude={"gathered"})
    assert "480" not in hidden.model_dump_json()
    member = ask(reader, question, LEADERS)   # a member of the channel gets it
    assert not member.abstained and "$480k" in first(member)


def test_a_deleted_message_is_no_answer(tmp_path: Path) -> None:
    emb = HashingEmbedder()
    store = open_store(uri=str(tmp_path / "lance"), lexical_dir=tmp_path / "lex",
                       dim=emb.dim)
    writer = open_writer(store=store, embedder=emb, proposer=OfflineProposer())
    leaked = m(9, "Ivy", "staging console admin password is hunter2-xyz", channel="C3")
    writer.write([*public_chat(), leaked])
    assert writer.forget([leaked.key.node_id()]) == 1  # what a delete event does
    r = OfflineReader(tools=offline_tools(store, emb))
    ans = ask(r, "What is the staging console admin password?")
    assert ans.abstained, ans.answer
    assert "hunter2" not in ans.model_dump_json()
