"""A question offering two alternatives ("is millbrook a pitched or flat roof now", "are
spanish orders on ups or dhl?", "so are we doing a band or a dj in the end") is answered by
the alternative the newest deciding message names alone, as that message says it ("secret
santa"): the question's own words say what may answer, so the value is never a third thing
("5m"), and a remark about either alternative settles nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memory.analysis.question import QuestionAnalysis, words
from memory.models import Citation, EvidenceNode
from memory.reader.answer import citation, day_label
from memory.reader.answer_parts import EVIDENCE_LINES, Composed, evidence_line
from memory.reader.coverage import Unit
from memory.reader.word_forms import forms, unit_forms
from memory.text import STOPWORDS, is_calendar_word

__all__ = ["Alternative", "alternative_answer", "alternatives", "chosen_over", "named_alternative"]

# "a band or a dj", "pitched or flat", "bo3 or bo5": one word each side, after an optional
# article.
_OR = re.compile(r"(?:\b(?:a|an|the)\s{1,3})?\b([\w-]{2,30})\s{1,3}or\s{1,3}"
                 r"(?:(?:a|an|the)\s{1,3})?([\w-]{2,30})\b", re.IGNORECASE)
# Words that make "X or Y" no choice between two values ("or not", "or what", "or did that
# change", "or is it cash").
_NO_CHOICE = frozenset({"not", "what", "something", "anything", "whatever", "else", "so",
                        "more", "less", "later", "earlier", "never", "both", "neither", "either",
                        "did", "does", "do", "is", "are", "was", "were", "has", "have", "will",
                        "can", "should"})
# Words that are never part of an alternative's phrase.
_NOT_PART = STOPWORDS | _NO_CHOICE

Alternative = tuple[str, Unit]

# "why ArtMove and not Nordvik", "why the Crown over the Star", "why red rather than blue":
# the alternative taken, then the one left.
_OVER = re.compile(r"\bwhy\b[^?]{0,60}?\b([A-Za-z][\w-]{1,30})\s{1,3}(?:and\s{1,3})?"
                   r"(?:not|over|instead of|rather than)\s{1,3}(?:(?:a|an|the)\s{1,3})?"
                   r"([A-Za-z][\w-]{1,30})\b", re.IGNORECASE)


def chosen_over(text: str) -> tuple[str, str] | None:
    """The alternative a *why* question says was taken and the one left ("ArtMove",
    "Nordvik" of "why ArtMove and not Nordvik?"); None when it names no such pair."""
    m = _OVER.search(text)
    pair = _pair(m) if m is not None else None
    if pair is None or any(is_calendar_word(w.lower()) for w in pair):
        return None  # "why friday not thursday" asks why a day moved
    return pair


def _pair(m: re.Match[str]) -> tuple[str, str] | None:
    """The two words ``m`` caught as alternatives, unless one is a function word or they
    are the same word."""
    a, b = m.group(1), m.group(2)
    if {a.lower(), b.lower()} & _NOT_PART or a.lower() == b.lower():
        return None
    return a, b


def alternatives(qa: QuestionAnalysis) -> tuple[str, str] | None:
    """The two words the question offers as alternatives ("santa", "raffle" of "secret
    santa or a raffle"), as written; None when it offers none."""
    m = _OR.search(qa.text)
    return _pair(m) if m is not None else None


def named_alternative(pair: tuple[str, str], units: Sequence[Unit],
                      decides: Callable[[EvidenceNode], bool]) -> Alternative | None:
    """The alternative the newest deciding message among ``units`` names (remarks and
    questions about either settle nothing: "paypal fees are mental, glad we didn't"); None
    when that message names both ("supplier out of red, blue arriving instead")."""
    a, b = (forms(w.lower()) for w in pair)
    dated = sorted(((u.node, u) for u in units if u.node is not None),
                   key=lambda p: (p[0].ts, p[0].seq), reverse=True)
    for node, unit in dated:
        said = unit_forms(unit.told)
        has_a, has_b = bool(a & said), bool(b & said)
        if not (has_a or has_b) or not decides(node):
            continue
        if has_a and has_b:
            return None
        return (pair[0] if has_a else pair[1]), unit
    return None


def _whole(word: str, question: str, said: str) -> str:
    """``word`` with the words beside it in the question that the message says with it
    ("santa" → "secret santa", "soft" → "soft play")."""
    qs = [w.low for w in words(question)]
    low = " ".join(w.low for w in words(said))
    if word.lower() not in qs:
        return word
    i = qs.index(word.lower())
    start, end = i, i + 1
    while start > 0 and qs[start - 1] not in _NOT_PART and " ".join(qs[start - 1:end]) in low:
        start -= 1
    while end < len(qs) and qs[end] not in _NOT_PART and " ".join(qs[start:end + 1]) in low:
        end += 1
    return " ".join(qs[start:end])


def alternative_answer(qa: QuestionAnalysis, pair: tuple[str, str], covering: Sequence[Unit],
                       decides: Callable[[EvidenceNode], bool]) -> Composed | None:
    """For "is it A or B (now)" (``pair``, of :func:`alternatives`): the alternative the
    newest deciding message among the ``covering`` ones names alone, with them as evidence;
    None when no such message settles it."""
    found = named_alternative(pair, covering, decides)
    if found is None:
        return None
    word, unit = found
    node = unit.node
    assert node is not None
    value = _whole(word, qa.text, node.text)
    lines = [f"{value} ({node.speaker}, {day_label(node.ts)})"]
    cites: list[Citation] = []
    for u in [unit, *(u for u in covering if u is not unit)][:EVIDENCE_LINES]:
        if u.node is not None:
            lines.append(evidence_line(u.node))
            cites.append(citation(u.node))
    return Composed(lines, value, cites, [])
