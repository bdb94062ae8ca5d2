"""Implicit conversational context in rewrites (memory.rewrite.pre_rewrite ``previous``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.models import EvidenceNode, Message, Scope
from memory.reader.rerank import FeatureReranker
from memory.reader.search import EvidenceSearch
from memory.reader.tools import offline_tools
from memory.rewrite import context_quote, implicit_context, pre_rewrite
from tests.support.memory import open_memory

T0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def message(i: int, speaker: str, text: str, *, minutes: float = 0.0,
            thread: str | None = "session_1") -> Message:
    return Message(platform="eval", space="conv", channel="conv", id=f"D1:{i}", user=speaker,
                   user_name=speaker, ts=T0 + timedelta(minutes=minutes), text=text,
                   thread_id=thread)


def node(m: Message) -> EvidenceNode:
    return EvidenceNode(node_id=m.key.node_id(), platform=m.platform, space=m.space,
                        channel=m.channel, message_id=m.id, thread_id=m.thread_id,
                        speaker_id=m.user, speaker=m.speaker, ts=m.ts, text=m.text)


def test_a_turn_quotes_the_question_it_answers() -> None:
    asked = node(message(1, "Nate", "Congrats on the screenplay! What genre is it?"))
    answer = message(2, "Joanna", "Thanks, Nate! It's a mix of drama and romance!", minutes=0.5)
    rw = pre_rewrite(answer, None, previous=asked)
    assert rw.context == '(after Nate: "What genre is it?")'
    assert "genre" in rw.searchable and "genre" not in rw.text
    assert rw.context_ids == [asked.node_id]
    alone = pre_rewrite(answer, None)
    assert alone.text == rw.text == "Joanna: Thanks, Nate! It's a mix of drama and romance!"
    assert alone.context == "" and alone.searchable == alone.text


def test_no_implicit_context_across_speakers_threads_or_long_gaps() -> None:
    before = node(message(1, "Nate", "What genre is it?"))
    assert implicit_context(message(2, "Nate", "I mean the new one", minutes=1), before) is None
    assert implicit_context(message(2, "Jo", "Drama", minutes=1, thread="t2"), before) is None
    assert implicit_context(message(2, "Jo", "Drama", minutes=45), before) is None
    assert implicit_context(message(2, "Jo", "Drama", minutes=1), before) == before


def test_an_explicit_parent_wins_over_the_previous_turn() -> None:
    parent = node(message(1, "Ana", "Which day works for the demo?"))
    previous = node(message(2, "Ben", "unrelated chatter about lunch", minutes=1))
    rw = pre_rewrite(message(3, "Cy", "Friday", minutes=2), parent, previous=previous)
    assert "replying to Ana" in rw.text and "Ben" not in rw.text


def test_context_quote_prefers_questions() -> None:
    assert context_quote("Wow, love it! So cool. What made you pick it?") == (
        "What made you pick it?")
    assert context_quote("No question here.") == "No question here."


def _conversation() -> list[Message]:
    return [
        message(1, "Nate", "Congrats on the screenplay! What genre is it?"),
        message(2, "Joanna", "Thanks! It's a mix of drama and romance!", minutes=0.5),
        message(3, "Nate", "Sounds great, good luck with it", minutes=1),
        # Another thread: never borrows from session_1.
        message(4, "Joanna", "Morning! Off to the gym", minutes=2, thread="session_2"),
    ]


def test_writer_keeps_the_previous_turn_searchable_but_not_quotable(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(_conversation())
    nodes = {n.message_id: n for n in store.find_nodes(Scope())}
    answer = nodes["D1:2"]
    assert answer.context == '(after Nate: "What genre is it?")'
    assert answer.context_ids == [nodes["D1:1"].node_id]
    assert "genre" not in answer.rewrite
    assert nodes["D1:4"].context == ""  # other thread
    assert nodes["D1:1"].context == ""  # nothing before it
    # BM25 finds the answer by the question's words ...
    scope = Scope(platform="eval", space="conv")
    assert answer.node_id in [i for i, _ in store.lexical_search("genre", scope, k=10)]
    hits = EvidenceSearch(store=store, embedder=writer.embedder,
                          reranker=FeatureReranker()).search_evidence(
        "what genre is Joanna's screenplay", scope, k=3)
    assert answer.node_id in [h.node_id for h in hits]
    # ... but "genre" is not a phrase Joanna wrote.
    tools = offline_tools(store, writer.embedder).session(scope)
    assert [n.message_id for n in tools.lookup_phrase("genre")] == ["D1:1"]


def test_forgetting_the_previous_turn_drops_it_from_the_context(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(_conversation())
    asked = next(n for n in store.find_nodes(Scope()) if n.message_id == "D1:1")
    writer.forget([asked.node_id])
    nodes = {n.message_id: n for n in store.find_nodes(Scope())}
    assert nodes["D1:2"].context == "" and nodes["D1:2"].context_ids == []
    # Nate's later turn still quotes the answer before it.
    assert "drama and romance" in nodes["D1:3"].context
    assert not store.lexical_search("genre", Scope(platform="eval", space="conv"), k=10)


def test_an_edit_of_the_previous_turn_updates_the_context(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(_conversation())
    assert writer.edit(platform="eval", space="conv", channel="conv", message_id="D1:1",
                       text="Congrats! Which studio bought it?")
    nodes = {n.message_id: n for n in store.find_nodes(Scope())}
    assert nodes["D1:2"].context == '(after Nate: "Which studio bought it?")'
