"""A choice made among the options one message put forward.

"cases: got two quotes in. Clearview £2,400 and Hamblin Display £1,950" lists options; the
turns after it pick one ("hamblin then, the £450 difference matters this year") and may pick
again ("ok clearview."). Asked which was chosen ("which company are we going with for the
display cases?", "which case supplier did we pick first"), the answer is the option the
latest pick names (the first, for what was picked first; the one the latest pick replaced,
for what it was before), as the offer wrote it.

An offer is a message naming two or more things, each with a value of one kind (a price
each: quotes), or two capitalised names joined by "or". A pick names exactly one of its
options, asks nothing, and is short ("ok clearview.") or says it takes it ("hamblin then",
"going with Clearview", "Clearview confirmed delivery").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memory.analysis.decision_words import DECIDED_MARKERS, PICKED
from memory.analysis.definitions import QuestionKind
from memory.analysis.question import QuestionAnalysis, words
from memory.models import Citation, EvidenceNode
from memory.reader.answer import citation, day_label
from memory.reader.answer_parts import EVIDENCE_LINES, Composed, evidence_line
from memory.reader.coverage import Unit
from memory.text import STOPWORDS, SlotKind, find_slots

__all__ = ["Offer", "offer_in", "offered_choice", "picked"]

# Two capitalised names joined by "or" ("The Crown (£300) or Star Inn (£250)").
_NAME = r"[A-Z][\w'&.-]{0,30}(?:\s[A-Z][\w'&.-]{0,30}){0,3}"
_OR_NAMES = re.compile(rf"(?<![\w'])({_NAME})(?:\s{{0,3}}\([^)]{{0,30}}\))?,?\s{{1,3}}or\s{{1,3}}"
                       rf"(?:the\s{{1,3}})?({_NAME})")
# A name right before a price, past a connector ("Hertz £210", "Ink Drop at £6", "The Crown
# (£300)", "Wolseley - £1,200").
_PRICED_NAME = re.compile(rf"(?<![\w'])(?:the\s{{1,3}})?({_NAME})(?:'s)?\s{{0,3}}"
                          rf"(?:at|for|@|:|-|–|—|\()?\s{{0,3}}$")
# How far before a price its name may start.
_NAME_REACH = 40
# A reply this short naming one option picks it ("ok clearview.", "Clearview 👍").
_SHORT_PICK = 3
_SENTENCE = re.compile(r"[.!;\n]{1,8}\s{0,8}")
# How many later turns naming an option are read for picks.
_PICKS_READ = 20
_ASKED = frozenset({QuestionKind.CURRENT, QuestionKind.FACT, QuestionKind.PREVIOUS,
                    QuestionKind.ORIGINAL})

Mentions = Callable[[EvidenceNode, str], Sequence[EvidenceNode]]
Follow = Callable[[EvidenceNode], Sequence[EvidenceNode]]


class Offer:
    """The message putting options forward, and each option as it wrote it with the
    words that name it (a word no other option has)."""

    def __init__(self, node: EvidenceNode, options: Sequence[str]) -> None:
        self.node = node
        keys = [frozenset(w.low.removesuffix("'s") for w in words(o)
                          if w.low not in STOPWORDS and len(w.low) > 2) for o in options]
        self.options = [(o, k - frozenset().union(*(x for x in keys if x is not k)))
                        for o, k in zip(options, keys, strict=True)]

    def named(self, text: str) -> str | None:
        """The one option ``text`` names; None when it names none or several."""
        hits = self.mentioned(text)
        return hits[0] if len(hits) == 1 else None

    def mentioned(self, text: str) -> list[str]:
        """The options ``text`` names."""
        said = {w.low.removesuffix("'s") for w in words(text)}
        return [o for o, k in self.options if k & said]


def offer_in(node: EvidenceNode) -> Offer | None:
    """The options ``node`` puts forward, if it lists two or more: names each written
    just before a price ("Clearview £2,400 and Hamblin Display £1,950"), or two names
    joined by "or"."""
    text = node.text
    priced = [name for sl in find_slots(text) if sl.kind is SlotKind.MONEY
              if (name := _name_before(text[max(0, sl.start - _NAME_REACH):sl.start]))]
    for options in (list(dict.fromkeys(priced)), _either(text)):
        if len(options) >= 2:
            offer = Offer(node, options)
            if all(k for _, k in offer.options):
                return offer
    return None


def _name_before(text: str) -> str:
    """The capitalised name ``text`` ends with, past a connector ("Hertz " of "and Hertz ",
    "Ink Drop" of "Ink Drop at ")."""
    m = _PRICED_NAME.search(text)
    return m.group(1) if m is not None else ""


def _either(text: str) -> list[str]:
    m = _OR_NAMES.search(text)
    if m is None or m.group(1).lower() == m.group(2).lower():
        return []
    return [m.group(1), m.group(2)]


def picked(offer: Offer, later: Sequence[EvidenceNode]) -> list[tuple[str, EvidenceNode]]:
    """The picks among ``later`` turns, oldest first: each with the option it names."""
    out: list[tuple[str, EvidenceNode]] = []
    for node in sorted(later, key=lambda n: (n.ts, n.seq)):
        if node.node_id == offer.node.node_id or node.ts < offer.node.ts \
                or "?" in node.text:
            continue
        first = _SENTENCE.split(node.text.strip(), maxsplit=1)[0]
        # "ok, budget vans. hertz can't do saturday": a short first sentence picks
        option = offer.named(first) if len(first.split()) <= _SHORT_PICK else None
        if option is None:
            option = offer.named(node.text)
            if option is None or not any(p.search(node.text) for p in (PICKED, DECIDED_MARKERS)):
                continue
        out.append((option, node))
    return out


def offered_choice(qa: QuestionAnalysis, covering: Sequence[Unit], mentions: Mentions | None,
                   follow: Follow | None = None) -> Composed | None:
    """For a question asking which named thing was chosen: the option picked (latest,
    first, or the one before the latest) among those the best covering offer put forward;
    None when no covering message offers options or none was picked."""
    if qa.family != "name" or qa.kind not in _ASKED:
        return None
    for unit in covering:
        node = unit.node
        offer = offer_in(node) if node is not None else None
        if offer is None:
            continue
        later = {n.node_id: n for u in covering if (n := u.node) is not None}
        if mentions is not None:
            for _, keys in offer.options:
                for key in sorted(keys)[:2]:
                    found = mentions(offer.node, key)[:_PICKS_READ]
                    later.update((n.node_id, n) for n in found)
        picks = picked(offer, list(later.values()))
        if not picks:
            return None
        last = picks[-1][1]
        after = [*(u.node for u in covering if u.node is not None),
                 *(n for m in (offer.node, last) if follow is not None for n in follow(m))]
        chosen = _chosen(qa, picks)
        if chosen is None or _taken_elsewhere(offer, last, after):
            return None
        option, pick = chosen
        lines = [f"{option} ({pick.speaker}, {day_label(pick.ts)})"]
        cites: list[Citation] = []
        for n in [pick, offer.node][:EVIDENCE_LINES]:
            lines.append(evidence_line(n))
            cites.append(citation(n))
        return Composed(lines, option, cites, [])
    return None


def _taken_elsewhere(offer: Offer, last: EvidenceNode, turns: Sequence[EvidenceNode]) -> bool:
    """Whether one of ``turns`` after the last pick decides on something none of the
    options names ("Going with the Rocket Giotto then" after a shortlist of two others)."""
    for node in turns:
        if node.ts <= last.ts or "?" in node.text:
            continue
        if not offer.mentioned(node.text) and any(
                p.search(node.text) for p in (PICKED, DECIDED_MARKERS)):
            return True
    return False


def _chosen(qa: QuestionAnalysis, picks: Sequence[tuple[str, EvidenceNode]]
            ) -> tuple[str, EvidenceNode] | None:
    """The pick answering ``qa`` among ``picks`` (oldest first, never empty)."""
    if qa.kind is QuestionKind.ORIGINAL:
        return picks[0]
    last = picks[-1][0]
    if qa.kind is QuestionKind.PREVIOUS:
        return next((p for p in reversed(picks) if p[0] != last), None)
    # the turn that picked the option in force, not a later one naming it again
    run = len(picks) - 1
    while run and picks[run - 1][0] == last:
        run -= 1
    return picks[run]
