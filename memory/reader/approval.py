"""Who made the call on a proposal: the person who approved it, or who turned it down.

"who signed off on the Harbour Loft?" over "for the offsite I'd like to book the Harbour
Loft" → "approved, go ahead": the proposer put it forward, the approver decided it. A reply
approving ("approved", "go with …", "lgtm") or assenting ("agreed") takes the call over from
a proposal, a recommendation, a request for approval or a list of quotes; after an
announcement, a report or a message that says it is the decision ("decided: …", "we're
going with …"), or once the proposer went ahead alone, a reply agreeing is support, not the
call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.definitions import SpeechAct
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question_lexicon import QuestionLexicon
from memory.models import EvidenceNode
from memory.reader.answer import citation, day_label, split_sentences
from memory.reader.answer_parts import Composed
from memory.reader.features import passage_terms
from memory.reader.reasons import accepts, refuses
from memory.text import shorten

# How much of the approval and of the proposal the first line quotes.
APPROVAL_CHARS = 120
PROPOSAL_CHARS = 90


def approval_of(node: EvidenceNode, linked: Sequence[EvidenceNode],
                following: Sequence[EvidenceNode], lexicon: QuestionLexicon,
                analyzer: MessageAnalyzer) -> EvidenceNode | None:
    """The reply by which someone else decided what ``node`` put forward: among the turns
    linked to it (replies, answers the writer tied to it) and the turns just after it, one
    linked, the first by someone else, or one naming what ``node`` names ("go with pepper
    lane" three turns after the quotes). None when ``node`` puts nothing forward (an
    announcement, a report, the decision itself), when its speaker goes ahead alone first,
    or when nobody approved it."""
    if lexicon.decided.search(node.text) or not _puts_forward(node, lexicon, analyzer):
        return None
    tied = {n.node_id for n in linked}
    turns = sorted({n.node_id: n for n in [*linked, *following]}.values(),
                   key=lambda n: (n.ts, n.seq))
    said = passage_terms(node.text)
    first = True
    for answer in turns:
        if (answer.ts, answer.seq) <= (node.ts, node.seq):
            continue
        if answer.speaker_id == node.speaker_id:
            if lexicon.decided.search(answer.text) or lexicon.going_ahead.search(answer.text):
                return None  # the proposer went ahead: whoever agrees after supports it
            continue
        near = first or answer.node_id in tied or bool(passage_terms(answer.text) & said)
        first = False
        if not near or "?" in answer.text or _elsewhere(answer.text, node.text):
            continue
        if accepts(answer.text, lexicon.approve, lexicon.fillers) or accepts(
                answer.text, lexicon.assent, lexicon.fillers):
            return answer
    return None


def rejection_of(node: EvidenceNode, linked: Sequence[EvidenceNode],
                 following: Sequence[EvidenceNode], lexicon: QuestionLexicon,
                 analyzer: MessageAnalyzer) -> EvidenceNode | None:
    """The reply by which someone else turned down what ``node`` put forward ("also
    thinking we bump the no-show fee to $30" → "not keen on 30 … leave it at $20"): the
    first turn by someone else naming what it names, opening with a refusal that is no
    agreement ("no worries"). None when ``node`` puts nothing forward or
    nobody turned it down."""
    if not _puts_forward(node, lexicon, analyzer):
        return None
    turns = sorted({n.node_id: n for n in [*linked, *following]}.values(),
                   key=lambda n: (n.ts, n.seq))
    said = passage_terms(node.text)
    for answer in turns:
        if (answer.ts, answer.seq) <= (node.ts, node.seq) or \
                answer.speaker_id == node.speaker_id:
            continue
        # the refusal names what was put forward ("no, i can't do tonight's setup" right
        # after, even as its reply, is about something else)
        # (a reply in its thread is about it whatever it names: "donation offered: £500
        # from Hartley Homes" → "no. they've got a planning application in")
        near = bool(passage_terms(answer.text) & said) or bool(
            set(_NUMBER.findall(answer.text)) & set(_NUMBER.findall(node.text))) or (
            answer.reply_to_node == node.node_id and answer.thread_id is not None)
        if near and not _elsewhere(answer.text, node.text) and refuses(answer.text, lexicon):
            return answer
    return None


_NUMBER = re.compile(r"\d[\d,.]{0,12}")


def rejected(composed: Composed, proposal: EvidenceNode, rejection: EvidenceNode) -> Composed:
    """``composed`` (a *who* answer naming the proposer) naming who turned it down first."""
    return _made_the_call(composed, proposal, rejection, "turning down")


# "@larry", "#87": a reply naming a person or an item the proposal does not is about them.
_REFERENCE = re.compile(r"[@#][\w.-]{1,40}")


def _elsewhere(reply: str, proposal: str) -> bool:
    """Whether ``reply`` addresses someone or something ``proposal`` does not name."""
    named = {r.lower() for r in _REFERENCE.findall(proposal)}
    return any(r.lower() not in named for r in _REFERENCE.findall(reply))


def _puts_forward(node: EvidenceNode, lexicon: QuestionLexicon,
                  analyzer: MessageAnalyzer) -> bool:
    """Whether ``node`` puts something forward for others to decide: it proposes in any
    clause, recommends, lists quotes or options, or asks for approval."""
    if lexicon.put_forward.search(node.text):
        return True
    analysis = analyzer.analyze(node.text, speaker=node.speaker)
    return analysis.act is SpeechAct.PROPOSAL or any(
        c.act is SpeechAct.PROPOSAL for c in analysis.clauses)


def approved(composed: Composed, proposal: EvidenceNode, approval: EvidenceNode) -> Composed:
    """``composed`` (a *who* answer naming the proposer) naming the approver first, the
    proposal quoted after, the approval cited first."""
    return _made_the_call(composed, proposal, approval, "approving")


def _made_the_call(composed: Composed, proposal: EvidenceNode, reply: EvidenceNode,
                   doing: str) -> Composed:
    said = split_sentences(proposal.text)
    first = (f"{reply.speaker} ({day_label(reply.ts)}): "
             f"{shorten(reply.text, APPROVAL_CHARS)} ({doing} {proposal.speaker}'s "
             f"\"{shorten(said[0] if said else proposal.text, PROPOSAL_CHARS)}\")")
    return Composed([first, *composed.lines[1:]], reply.speaker,
                    [citation(reply), *composed.citations], composed.states,
                    composed.replaced, composed.replaced_cite)
