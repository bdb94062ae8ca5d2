"""Who put a change forward: for "who proposed raising the ticket price", not whoever first
named the price (the chain's first value) but whoever first said the value the chain then
moved to ("I'm proposing adult tickets go to £7" before "agreed, £7")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memory.analysis.question import words
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.question_words import _matches
from memory.models import EvidenceNode, State
from memory.text import names_value, stem, tokens

__all__ = ["asks_a_change", "change_put_forward"]

# Change words that say nothing of a value moving ("who's *getting* the keys", "who *took*
# the minutes"): they do not make a who question ask for a change's proposer.
_NOT_A_CHANGE = frozenset({"got", "get*", "go", "goes", "went", "became", "become*", "keep",
                           "keeping", "kept", "stay*", "took", "take*", "taken", "fell",
                           "fall*", "lost", "hand", "hands", "handed", "handing", "fix",
                           "fixed", "fixes", "fixing", "announc*", "updat*", "handover",
                           "handoff"})


def asks_a_change(question: str, lexicon: QuestionLexicon) -> bool:
    """Whether a question names a value changing ("raising the ticket price", "the
    discount to be cut", "moving the quiz")."""
    changes = [c for c in lexicon.change if c not in _NOT_A_CHANGE]
    return any(_matches(w.low, c) for w in words(question) for c in changes)


def change_put_forward(found: EvidenceNode, states: Sequence[State],
                       seen: Sequence[EvidenceNode], terms: Sequence[str]
                       ) -> EvidenceNode | None:
    """The earliest message in ``seen`` that says the first value the thing ``found``
    named moved to: the next value of the chain ``found`` opens, or the first value of a
    chain begun after ``found`` on a topic sharing a word of ``terms`` (the question's)
    that ``found`` does not name; None when there is none."""
    asked = {stem(t) for t in terms}
    moves: list[tuple[datetime, datetime, str]] = []
    for state in states:
        chain = state.chain
        if not chain:
            continue
        if chain[0].message_id == found.message_id:
            moved = next((e for e in chain[1:] if e.value and e.value != chain[0].value), None)
            if moved is not None:
                moves.append((chain[0].ts, moved.ts, moved.value))
        elif chain[0].ts > found.ts and chain[0].value and not names_value(
                found.text, chain[0].value) and asked & {stem(t) for t in tokens(state.topic)}:
            moves.append((found.ts, chain[0].ts, chain[0].value))
    for since, until, value in sorted(moves, key=lambda m: m[1]):
        saying = [n for n in seen if since < n.ts <= until and names_value(n.text, value)]
        if saying:
            return min(saying, key=lambda n: (n.ts, n.seq))
    return None
