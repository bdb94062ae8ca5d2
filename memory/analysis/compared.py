"""Values weighed against each other ("3 weeks vs 10 is a no brainer"): each names an option
beside another, and neither is decided by being said so; a value something is compared to
("£40 compared to £55 last year") is only the measure of the other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.value_types import Value

_VERSUS = r"(?:vs\.?|versus|v\.)"
_BEFORE_ANOTHER = re.compile(r"\s{0,3}" + _VERSUS + r"\s{1,3}(?:the\s)?", re.IGNORECASE)
_AFTER_ANOTHER = re.compile(r"\s(?:" + _VERSUS + r"|compared\s(?:to|with))\s{1,3}"
                            r"(?:the\s|a\s|an\s)?$", re.IGNORECASE)
# What the value after "vs" was ("… vs £1,300 now", "… vs £520 last year").
_AS_WAS = re.compile(r"\s{0,3}(?:before|last\s(?:year|time|month|week|season|term)|previously|"
                     r"originally|now|currently|atm|at\sthe\smoment)\b", re.IGNORECASE)
# A change said before the first value ("going up to £1,450 vs …", "is now £3.20 vs …").
_CHANGE_BEFORE = re.compile(r"(?:\b(?:going|gone|goes|went)\s(?:up|down)\sto|\b(?:is|are|'s)\snow|"
                            r"\bnew\b[^.,;!?]{0,30}?\b(?:is|are|=|:))\s{0,3}$", re.IGNORECASE)
# What the value after "vs" is of ("… vs $400 for the DJ").
_OF_A_THING = re.compile(r"\s{1,3}(?:for|on|per|at|with)\s", re.IGNORECASE)
# A bare number standing for an amount of the value's own unit ("3 weeks vs 10").
_NUMBER = re.compile(r"[£$€]?\d{1,7}(?:[,.]\d{1,3}){0,3}(?![\w:])")


def compared(part: str, value: Value, start: int, values: Sequence[Value]) -> bool:
    """Whether ``value`` (at its offsets in the message; ``part`` is its clause, which
    starts at ``start``; ``values`` are the message's) is weighed against another value of
    its family right beside it ("£290 for fri+sat vs £360" weighs the prices only)."""
    at, end = value.start - start, value.end - start
    numeric = value.family == "amount"
    after = _BEFORE_ANOTHER.match(part, end)
    if after is not None:
        other = next((w for w in values if w.family == value.family
                      and w.start == start + after.end()), None)
        other_end = other.end - start if other is not None else (
            m.end() if numeric and (m := _NUMBER.match(part, after.end())) else -1)
        if other_end < 0 or _OF_A_THING.match(part, other_end):
            return False  # ("$1,200 vs $400 for the DJ": the prices of two things)
        # "going up to £1,450 vs £1,300 now", "£3.20 vs £2.90 before": the first is the new
        # value, the second only what it was
        return not (_AS_WAS.match(part, other_end) or _CHANGE_BEFORE.search(
            part[max(0, at - 40):at]))
    before = _AFTER_ANOTHER.search(part[max(0, at - 20):at])
    if before is None or _OF_A_THING.match(part, end):
        return False
    ends = start + max(0, at - 20) + before.start()
    return any(w.family == value.family and w.end == ends for w in values) or (
        numeric and re.search(r"\d\s{0,3}$", part[:ends - start]) is not None)
