"""Whether a unit of evidence is about another kind than the one a question names (the
groups are :mod:`memory.analysis.contrast_words`): "how much is a small dog groom" is not
answered by "large dog full groom $90", though every other word of it is said."""

from __future__ import annotations

from memory.analysis.contrast_words import CONTRAST_GROUPS, DECADE, WEEKDAY_CONTRASTS
from memory.analysis.question_words import low_words

__all__ = ["another_kind"]


def another_kind(question: str, told: str, context: str = "") -> bool:
    """Whether ``told`` (what a unit states) or its ``context`` (the turn it answers) names
    a kind standing against one the ``question`` names, and neither names the question's
    own."""
    asked, said = low_words(question), low_words(told)
    around = said | low_words(context)
    for group in CONTRAST_GROUPS:
        for own in group:
            if not own & asked or own & around:
                continue
            others = frozenset().union(*(c for c in group if c is not own))
            if others & around and not others & asked:
                return True
            for word in own & asked:
                days, other_days = WEEKDAY_CONTRASTS.get(word, (frozenset(), frozenset()))
                if other_days & said and not days & around:
                    return True
    asked_decades = set(DECADE.findall(question))
    if asked_decades and not asked_decades & set(DECADE.findall(told + " " + context)):
        return bool(set(DECADE.findall(told + " " + context)))
    return False
