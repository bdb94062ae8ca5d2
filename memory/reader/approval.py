"""Who made the call on a proposal: the person who approved it.

"who signed off on the Harbour Loft?" over "for the offsite I'd like to book the Harbour
Loft" → "approved, go ahead": the proposer put it forward, the approver decided it. A reply
that decides whatever it follows ("approved", "go with …", "lgtm") takes the call over from
any message that is not itself the decision ("decided: …", "we're going with …"); a reply
that only assents ("agreed", "let's do it") takes it over from a proposal only, since after
an announcement it is support, not the call.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory.analysis.definitions import SpeechAct
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question_lexicon import QuestionLexicon
from memory.models import EvidenceNode
from memory.reader.answer import citation, day_label, split_sentences
from memory.reader.answer_parts import Composed
from memory.reader.features import passage_terms
from memory.reader.reasons import accepts
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
    lane" three turns after the quotes). None when ``node`` is the decision itself or
    nobody approved it."""
    if lexicon.decided.search(node.text) or accepts(node.text, lexicon.approve,
                                                    lexicon.fillers):
        return None
    tied = {n.node_id for n in linked}
    turns = sorted({n.node_id: n for n in [*linked, *following]}.values(),
                   key=lambda n: (n.ts, n.seq))
    said = passage_terms(node.text)
    proposed: bool | None = None
    first = True
    for answer in turns:
        if answer.speaker_id == node.speaker_id or (answer.ts, answer.seq) <= (node.ts, node.seq):
            continue
        near = first or answer.node_id in tied or bool(passage_terms(answer.text) & said)
        first = False
        if not near:
            continue
        if accepts(answer.text, lexicon.approve, lexicon.fillers):
            return answer
        if accepts(answer.text, lexicon.assent, lexicon.fillers):
            if proposed is None:
                proposed = _puts_forward(node, lexicon, analyzer)
            if proposed:
                return answer
    return None


def _puts_forward(node: EvidenceNode, lexicon: QuestionLexicon,
                  analyzer: MessageAnalyzer) -> bool:
    """Whether ``node`` puts something forward for others to decide: it asks, proposes in
    any clause, recommends or asks for approval."""
    if "?" in node.text or lexicon.put_forward.search(node.text):
        return True
    analysis = analyzer.analyze(node.text, speaker=node.speaker)
    return analysis.act is SpeechAct.PROPOSAL or any(
        c.act is SpeechAct.PROPOSAL for c in analysis.clauses)


def approved(composed: Composed, proposal: EvidenceNode, approval: EvidenceNode) -> Composed:
    """``composed`` (a *who* answer naming the proposer) naming the approver first, the
    proposal quoted after, the approval cited first."""
    said = split_sentences(proposal.text)
    first = (f"{approval.speaker} ({day_label(approval.ts)}): "
             f"{shorten(approval.text, APPROVAL_CHARS)} (approving {proposal.speaker}'s "
             f"\"{shorten(said[0] if said else proposal.text, PROPOSAL_CHARS)}\")")
    return Composed([first, *composed.lines[1:]], approval.speaker,
                    [citation(approval), *composed.citations], composed.states,
                    composed.replaced, composed.replaced_cite)
