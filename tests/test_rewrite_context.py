"""Implicit conversational context in rewrites (memory.rewrite.pre_rewrite ``previous``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory.models import EvidenceNode, Message
from memory.rewrite import context_quote, implicit_context, pre_rewrite

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
    rw = pre_rewrite(answer, None, asked)
    assert '(after Nate: "What genre is it?")' in rw.text
    assert rw.context_ids == [asked.node_id]
    assert pre_rewrite(answer, None).text == "Joanna: Thanks, Nate! It's a mix of drama and " \
                                             "romance!"


def test_no_implicit_context_across_speakers_threads_or_long_gaps() -> None:
    before = node(message(1, "Nate", "What genre is it?"))
    assert implicit_context(message(2, "Nate", "I mean the new one", minutes=1), before) is None
    assert implicit_context(message(2, "Jo", "Drama", minutes=1, thread="t2"), before) is None
    assert implicit_context(message(2, "Jo", "Drama", minutes=45), before) is None
    assert implicit_context(message(2, "Jo", "Drama", minutes=1), before) == before


def test_an_explicit_parent_wins_over_the_previous_turn() -> None:
    parent = node(message(1, "Ana", "Which day works for the demo?"))
    previous = node(message(2, "Ben", "unrelated chatter about lunch", minutes=1))
    rw = pre_rewrite(message(3, "Cy", "Friday", minutes=2), parent, previous)
    assert "replying to Ana" in rw.text and "Ben" not in rw.text


def test_context_quote_prefers_questions() -> None:
    assert context_quote("Wow, love it! So cool. What made you pick it?") == (
        "What made you pick it?")
    assert context_quote("No question here.") == "No question here."
