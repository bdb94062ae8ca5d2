"""What a thing was before a change the question names ("how much were jerseys before the
*bulk deal*"): the message stating the earlier value never names the change, so it covers
the question only without the change's words, and only what was said before the change can
hold the earlier value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from memory.analysis.question import QuestionAnalysis, words
from memory.reader.coverage import Coverage, CoverageTest, Unit
from memory.reader.word_forms import forms, unit_forms
from memory.text import STOPWORDS

__all__ = ["said_before_anchor"]


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
