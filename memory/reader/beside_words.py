"""The words said beside a value in a message: which of the question's words a value sits
beside ("$12 a month, $120 a year"; "£41 an hour, block of 10 hours £390"), and whether a
question's own word leads right up to it ("doors 6:30" for "what time do doors open").
"""

from __future__ import annotations

import re

from memory.analysis.message import Clause
from memory.analysis.question import QuestionAnalysis, words
from memory.reader.word_forms import forms, unit_forms

# Words before a value that still speak of it ("new total ~$1,850", "for navy $14").
_WORDS_BEFORE = 3


def beside_value(text: str, clause: Clause, i: int) -> frozenset[str]:
    """The word forms of the ``i``-th claim of ``clause`` with the words beside it: its own
    text, what follows it up to the next value or the end of its part of the clause, and
    the few words before it in that part (back to the value before it when it opens the
    part)."""
    claims = clause.claims
    value = claims[i].value
    if value.speaker or not clause.start <= value.start <= value.end <= clause.end:
        return frozenset()
    after = min([c.value.start for c in claims if c.value.start >= value.end
                 and not c.value.speaker] + [clause.end])
    # (within its part of the clause: in "£41 an hour, block of 10 hours £390" the block
    # is the £390's, named before it, not the £41's)
    broken = _PART_BREAK.search(text, value.end, after)
    after = broken.start() if broken is not None else after
    start = max(clause.start, value.start - _LEAD_CHARS)
    parts = _PART_BREAK.split(text[start:value.start])
    lead = parts[-1].split()[-_WORDS_BEFORE:] if parts else []
    if not lead:
        # a value opening its part goes on from the words back to the value before it
        # ("£20 deposit from now, £10 clearly isn't enough")
        before = max([c.value.end for c in claims if c.value.end <= value.start
                      and not c.value.speaker] + [clause.start])
        lead = text[before:value.start].split()[-_WORDS_BEFORE:]
    return unit_forms(" ".join([*lead, text[value.start:after]]))


_PART_BREAK = re.compile(r"[,;]\s|\.\s|\s[—–-]\s")
_LEAD_CHARS = 80


def led_by_terms(qa: QuestionAnalysis, sentence: str, value: str) -> bool:
    """Whether one of the two words right before ``value`` in ``sentence`` is one of the
    question's own words ("doors 6:30" for "what time do doors open")."""
    at = sentence.lower().find(value.lower())
    if at < 0:
        return False
    wanted = {f for t in qa.terms for f in forms(t)}
    return any(forms(w.low) & wanted for w in words(sentence[:at])[-2:])
