"""Who put a change forward: for "who proposed raising the ticket price", not whoever first
named the price (the chain's first value) but whoever first said the value the chain was
then revised to ("I'm proposing adult tickets go to £7" before "agreed, £7")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.question_words import _matches
from memory.models import EvidenceNode, State, Verdict
from memory.reader.answer_parts import amount, direction, moved
from memory.text import SLOT_FAMILY, find_slots, is_calendar_word, names_value, stem, tokens

__all__ = ["asks_a_change", "change_put_forward"]

# Change words that say nothing of a value moving ("who's *getting* the keys", "who *took*
# the minutes"): they do not make a who question ask for a change's proposer.
_NOT_A_CHANGE = frozenset({"got", "get*", "go", "goes", "went", "became", "become*", "keep",
                           "keeping", "kept", "stay*", "took", "take*", "taken", "fell",
                           "fall*", "lost", "hand", "hands", "handed", "handing", "fix",
                           "fixed", "fixes", "fixing", "announc*", "updat*", "handover",
                           "handoff"})
def asks_a_change(question: str, qa: QuestionAnalysis, lexicon: QuestionLexicon) -> bool:
    """Whether a question names a value changing ("raising the ticket price", "the
    discount to be cut") without naming the value ("… moving standup to 10" names it: who
    first said 10 is asked)."""
    ws = words(question)
    if qa.named or any(ch.isdigit() for ch in question) or any(
            is_calendar_word(w.low) for w in ws):
        return False
    changes = [c for c in lexicon.change if c not in _NOT_A_CHANGE]
    return any(_matches(w.low, c) for w in ws for c in changes)


def change_put_forward(found: EvidenceNode, states: Sequence[State],
                       seen: Sequence[EvidenceNode], question: str, terms: Sequence[str],
                       lexicon: QuestionLexicon) -> EvidenceNode | None:
    """The earliest message in ``seen`` that says the first value the thing ``found``
    named was revised to, going the way ``question`` says: the next revision of the chain
    ``found`` opens, or the first value of a chain begun after ``found`` on a topic sharing
    a word of ``terms`` with a value of a kind ``found`` states; None when there is none."""
    asked = {stem(t) for t in terms}
    kinds = {SLOT_FAMILY.get(s.kind) for s in find_slots(found.text)}
    moves: list[tuple[datetime, datetime, str, str]] = []
    for state in states:
        chain = state.chain
        if not chain:
            continue
        if chain[0].message_id == found.message_id:
            revised = next((e for e in chain[1:] if e.verdict is Verdict.REVISE and e.value
                            and e.value != chain[0].value), None)
            if revised is not None:
                moves.append((chain[0].ts, revised.ts, chain[0].value, revised.value))
        elif (chain[0].ts > found.ts and chain[0].value
              and not names_value(found.text, chain[0].value)
              and asked & {stem(t) for t in tokens(state.topic)}
              and kinds & {SLOT_FAMILY.get(s.kind) for s in find_slots(chain[0].value)}):
            moves.append((found.ts, chain[0].ts, "", chain[0].value))
    # (a rise for "raising", a cut for "cut"; either way when the question says neither)
    way = direction(question, lexicon)
    for since, until, old, value in sorted(moves, key=lambda m: m[1]):
        if way and amount(old) is not None and amount(value) is not None and not moved(
                old, value, way):
            continue
        saying = [n for n in seen if since <= n.ts <= until and names_value(n.text, value)]
        if saying:
            return min(saying, key=lambda n: (n.ts, n.seq))
    return None
