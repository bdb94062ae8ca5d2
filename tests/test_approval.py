"""*Who decided* names the person who approved a proposal, not the one who put it forward:
a reply that decides whatever it follows ("approved", "go with …") takes the call over; one
that only assents ("agreed") does so after a proposal, never after an announcement or a
message that says it is the decision."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.models import EvidenceNode
from memory.reader.approval import approval_of
from tests.support.chat_reader import channel_chat, turn_node

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 14, 9, 0, tzinfo=UTC)


def test_the_approver_of_a_request_made_the_call(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "yara", "for the offsite I'd like to book the Harbour Loft, 40 people fits"),
        (20, "ken", "approved, go ahead and book it"),
        (30, "pia", "nice"),
    ], start=T0, asked=ASKED)
    first = chat.first("who signed off on the harbour loft?")
    assert first.startswith("ken") and "yara" in first  # the proposal is quoted after
    assert chat.first("who suggested the harbour loft").startswith("yara")


def test_choosing_from_a_shortlist_is_the_decision(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dana", "vendor shortlist for print: Brightpath is cheapest at 4.2k, Inkwell 5k"),
        (15, "omar", "go with brightpath"),
        (16, "dana", "on it"),
    ], start=T0, asked=ASKED)
    assert chat.first("who picked brightpath?").startswith("omar")
    assert chat.first("who made the call on the print vendor").startswith("omar")


def test_assent_to_a_proposal_decides_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "noor", "I'd recommend we drop the Tuesday clinic, attendance is two people"),
        (40, "greta", "Agreed. The Tuesday clinic is no longer running."),
    ], start=T0, asked=ASKED)
    assert chat.first("who made the call to drop the tuesday clinic?").startswith("greta")


@pytest.mark.parametrize("turns, question, decider", [
    # an announcement agreed with: support, not the call
    ([(0, "lena", "we'll move standup to 10 from monday"),
      (4, "sam", "agreed, mornings are rough")],
     "who decided to move standup to 10", "lena"),
    # a message that says it is the decision
    ([(0, "lena", "decided: the retro moves to Thursday 2pm"), (3, "sam", "approved")],
     "who decided on thursday for the retro", "lena"),
    # a weak "ok" from the one who asked does not take over the call
    ([(0, "ayo", "do we keep the name Ridgeline or go with Summit for the app?"),
      (10, "hel", "keep Ridgeline. renaming now confuses the store listing"),
      (12, "ayo", "ok, name stays")],
     "who made the call to keep ridgeline", "hel"),
])
def test_no_approval_keeps_the_decider(tmp_path: Path, turns: list[tuple[int, str, str]],
                                       question: str, decider: str) -> None:
    chat = channel_chat(tmp_path, turns, start=T0, asked=ASKED)
    assert chat.first(question).startswith(decider)


def _node(i: int, speaker: str, text: str) -> EvidenceNode:
    return turn_node(i, speaker, text, start=T0)


def test_the_proposer_approving_herself_is_no_approval() -> None:
    proposal = _node(0, "tom", "I'd suggest the newsletter goes fortnightly")
    answers = [_node(1, "tom", "go ahead and schedule it if nobody objects"),
               _node(2, "ana", "sounds good")]
    assert approval_of(proposal, answers, [], DEFAULT_LEXICON, MessageAnalyzer()) is None


def test_the_first_approval_after_support_is_taken() -> None:
    proposal = _node(0, "yuki", "I'd like to call this release 2.9")
    linked = [_node(1, "grace", "makes sense to me. Henrik?")]
    following = [*linked, _node(2, "henrik", "agreed. the release ships as 2.9")]
    found = approval_of(proposal, linked, following, DEFAULT_LEXICON, MessageAnalyzer())
    assert found is not None and found.speaker == "henrik"


def test_an_approval_of_something_else_is_not_taken() -> None:
    proposal = _node(0, "yuki", "I'd like to call this release 2.9")
    following = [_node(1, "grace", "also the launch party, I booked the rooftop"),
                 _node(2, "henrik", "approved, rooftop it is")]
    assert approval_of(proposal, [], following, DEFAULT_LEXICON, MessageAnalyzer()) is None


def test_the_model_reader_is_told_the_same_definition() -> None:
    # LLM mode answers "who decided" by the same rule: the definition its system prompt
    # renders is the one the offline reader follows
    from memory.llm.reader_prompts import SYSTEM_PROMPT
    assert "whoever approved it, not who proposed it" in " ".join(SYSTEM_PROMPT.split())


@pytest.mark.parametrize("first, reply", [
    # an announcement or a report agreed with, answered, or attended
    ("we're cancelling the friday happy hour, venue double booked",
     "go ahead and move it to next thursday then?"),
    ("I booked the caterer for the launch, Mama Rosa's", "go ahead and send them the headcount"),
    ("Team dinner is at Nopa on Thursday, 7pm", "confirmed, see you there!"),
    ("release branch is cut, we ship 2.4 on thursday", "lgtm, the changelog is ready too"),
])
def test_no_proposal_no_approver(first: str, reply: str) -> None:
    proposal, answer = _node(0, "hugo", first), _node(1, "bea", reply)
    assert approval_of(proposal, [answer], [answer], DEFAULT_LEXICON,
                       MessageAnalyzer()) is None


def test_the_proposer_going_ahead_keeps_the_call() -> None:
    proposal = _node(0, "sam", "proposal: we switch CI to the new runners next sprint")
    following = [_node(1, "sam", "eh, approving my own thing, going ahead"),
                 _node(2, "tess", "lgtm")]
    assert approval_of(proposal, [], following, DEFAULT_LEXICON, MessageAnalyzer()) is None


def test_an_approval_addressed_to_someone_else_is_theirs() -> None:
    proposal = _node(0, "mira", "proposal: let's move retro to wednesdays")
    following = [_node(1, "ned", "approved @larry, just attach the receipt")]
    assert approval_of(proposal, [], following, DEFAULT_LEXICON, MessageAnalyzer()) is None
