"""Whether a plan asked about has ended: "is glasgow still happening?" after "glasgow's off".

A "still …?" question is answered from the latest change of the thing it names. When the
evidence holds a message that ends that thing ("drone opener is cancelled", "glasgow's off")
and it is newer than the source the answer was read from (or names the question's subject
better than that source does), the answer is "No" from that message, whatever value the chosen
state or message holds. The message analyzer the writer uses decides what ends a plan (a
cancellation claim), so the reader and the writer agree on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.analysis.message import MessageAnalyzer
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.value_types import Kind
from memory.models import EvidenceNode
from memory.reader.answer_parts import status_of
from memory.reader.word_forms import forms, unit_forms

__all__ = ["Ending", "plan_ended", "subject_share"]

# At least this share of the question's subject words must be named by the ending message
# ("the signed cubs jersey in the auction" → "pulled the cubs jersey … out of the auction").
SUBJECT_SHARE = 0.5


@dataclass(frozen=True)
class Ending:
    """A message that ends the plan asked about, and how it says so ("cancelled")."""

    node: EvidenceNode
    status: str


def subject_share(terms: Sequence[str], text: str) -> float:
    """The share of the subject words ``terms`` that ``text`` names (0 without terms)."""
    if not terms:
        return 0.0
    held = unit_forms(text)
    return sum(1 for t in terms if forms(t) & held) / len(terms)


def plan_ended(terms: Sequence[str], pool: Sequence[EvidenceNode], analyzer: MessageAnalyzer,
               lexicon: QuestionLexicon, *, source_ts: datetime,
               source_text: str) -> Ending | None:
    """The latest message of ``pool`` ending the plan the subject words ``terms`` name,
    when it is the source (``source_text``), newer than it, or names them better."""
    source = subject_share(terms, source_text)
    best: Ending | None = None
    for node in pool:
        share = subject_share(terms, node.text)
        # an older message must name the subject better than the source (a plan called
        # off and then rebooked is on again)
        if share < SUBJECT_SHARE or (node.ts < source_ts and share <= source):
            continue
        if best is not None and node.ts <= best.node.ts:
            continue
        status = _ending(node, terms, analyzer, lexicon)
        if status:
            best = Ending(node, status)
    return best


def _ending(node: EvidenceNode, terms: Sequence[str], analyzer: MessageAnalyzer,
            lexicon: QuestionLexicon) -> str:
    """How ``node`` ends a plan about ``terms`` (its status word, "cancelled"), or "" when
    it ends none: a cancellation claim in a clause naming the subject, or with no subject
    of its own."""
    analysis = analyzer.analyze(node.text, speaker=node.speaker)
    for clause in analysis.clauses:
        if clause.subject and not subject_share(terms, clause.subject):
            continue
        for claim in clause.claims:
            if claim.value.kind is Kind.STATUS and claim.stated:
                return status_of(node.text, lexicon) or claim.value.text.lower()
    return ""
