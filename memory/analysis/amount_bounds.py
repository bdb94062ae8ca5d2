"""Words making an amount a bound rather than the amount itself: "we passed 120 units" says
the count is above 120, not that it is 120; "under 30 left" that it is below 30.

The reader (:mod:`memory.reader.statement_choice`) lets an exact count said elsewhere that
agrees with such a bound ("126 units!!!") answer "how many" before it, unless the question
asks the bound ("how many do we need", "what's the cap"). Words are data; extend freely.
"""

from __future__ import annotations

import re

from memory.analysis.cue_words import _alternation

__all__ = ["BOUND_ASKED", "LOWER_BOUNDS", "UPPER_BOUNDS", "bound_before"]

#: Said right before an amount the real one is above.
LOWER_BOUNDS: tuple[str, ...] = ("passed", "past", "over", "above", "beyond", "exceeded",
                                 "exceeds", "surpassed", "more than", "at least", "upwards of")
#: Said right before an amount the real one is below.
UPPER_BOUNDS: tuple[str, ...] = ("under", "below", "fewer than", "less than", "at most",
                                 "no more than")
#: Words by which a question asks a bound itself.
BOUND_ASKED: re.Pattern[str] = re.compile(
    r"\b(?:cap|capped|limit|max|maximum|min|minimum|threshold|target|goal|moq|at least|"
    r"at most|more than|less than|over|under|need|needed|required)\b", re.IGNORECASE)

_LOWER = re.compile(r"\b(?:" + _alternation(LOWER_BOUNDS) + r")\s{1,3}$", re.IGNORECASE)
_UPPER = re.compile(r"\b(?:" + _alternation(UPPER_BOUNDS) + r")\s{1,3}$", re.IGNORECASE)


def bound_before(text: str) -> int:
    """+1 when ``text`` (what comes before an amount) ends in a word making the amount a
    lower bound ("we passed "), -1 an upper bound ("under "), 0 when neither."""
    if _LOWER.search(text):
        return 1
    if _UPPER.search(text):
        return -1
    return 0
