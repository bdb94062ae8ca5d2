"""What a thing was before a change the question names ("how much were jerseys before the
*bulk deal*"): the message stating the earlier value never names the change, so it covers
the question only without the change's words, and only what was said before the change can
hold the earlier value.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from memory.analysis.question import QuestionAnalysis, words
from memory.reader.coverage import Coverage, CoverageTest, Unit
from memory.reader.word_forms import forms, part_of, unit_forms
from memory.text import STOPWORDS

__all__ = ["said_before_anchor", "said_left"]


def said_before_anchor(qa: QuestionAnalysis, verdict: Coverage, covering: Sequence[Unit],
                       coverage: CoverageTest) -> list[Unit]:
    """The units beyond ``covering`` about the thing asked, said before the newest covering
    message naming the change ("jerseys 👕 … kitbash (£32 each)" before "kitbash did us a
    bulk price, £28 each now"), covering the question without the change's words."""
    anchor = {f for w in words(qa.anchor) for f in forms(w.low)}
    terms = [t for t in verdict.terms if not forms(t.word) & anchor]
    if not terms or len(terms) == len(verdict.terms):
        return []
    said = anchor - STOPWORDS
    named = [u.node.ts for u in covering if u.node is not None and said & unit_forms(u.told)]
    if not named:
        return []
    bare = dataclasses.replace(qa, key=tuple(
        g for g in qa.key if not any(forms(x) & anchor for x in g)))
    threshold = coverage.weights.min_coverage
    have = {u.key for u in covering}
    return [u for _, u in verdict.units if u.node is not None and u.key not in have
            and u.node.ts < max(named) and coverage.cover(bare, terms, u) >= threshold]


def said_left(replaced: Sequence[str], current: str) -> str:
    """Which of the values a change says it replaced (``replaced``: the message analyzer's
    reading of "£20 pp not 15", "2:30 instead of 3", "thursday rather than friday") is of
    the kind of ``current`` (a number for a number, a day for a day); "" when none is."""
    has_digit = any(ch.isdigit() for ch in current)
    for text in replaced:
        left = text.strip()
        if not left or any(ch.isdigit() for ch in left) != has_digit:
            continue
        if part_of(left, current) if has_digit else left.lower() in current.lower():
            continue
        meridiem = _MERIDIEM.search(current)
        if left.isdigit() and int(left) <= 12 and meridiem is not None:
            left += meridiem.group(1).lower()  # "5pm not 6": six in the evening
        return left
    return ""


_MERIDIEM = re.compile(r"\d\s?(am|pm)\b", re.IGNORECASE)
