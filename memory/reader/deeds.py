"""Who did the deed a *who* question asks ("who booked the minibus"): the name written
right before it ("Sam booked the hall"), else the speaker of a message saying it with no one
named ("minibus booked ✅ … Pete collecting": Pete does another thing)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.claims import MessageAnalysis
from memory.analysis.definitions import QuestionKind
from memory.analysis.lexicon import DISCOURSE
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.value_types import Kind
from memory.reader.coverage import who_verb
from memory.reader.extract import Person, named_people
from memory.reader.word_forms import forms, unit_forms
from memory.text import STOPWORDS, is_calendar_word

__all__ = ["deed_doer"]


def deed_doer(qa: QuestionAnalysis, analysis: MessageAnalysis, source: str, speaker: str,
              people: Sequence[Person], claimed: tuple[str, str, str] | None
              ) -> tuple[str, str] | None:
    """(clause, person) of the deed ``qa`` asks who did, when the message (``source``,
    analysed as ``analysis``) says it in a clause other than the one of the person it
    ``claimed``; None otherwise."""
    done = forms(who_verb(qa.text)) if qa.kind is QuestionKind.WHO else frozenset()
    if not done or not done & unit_forms(source) or (
            claimed and claimed[0] and done & unit_forms(claimed[2])):
        return None
    deed = next((c for c in analysis.clauses if done & unit_forms(c.text)), None)
    if deed is None:
        return None
    doer = _doer_before(deed.text, done)
    if doer:
        return deed.text, doer
    if any(p.name != speaker for _, p in named_people(deed.text, people)) or any(
            cl.value.kind is Kind.PERSON and not cl.value.speaker for cl in deed.claims) \
            or _BY_NAME.search(deed.text):
        return None
    return deed.text, speaker


def _doer_before(text: str, done: frozenset[str]) -> str:
    """The name written right before the deed (one of the forms ``done``) near the opening
    of its clause ("Sam booked the hall"), or ""."""
    ws = words(text)
    for i, w in enumerate(ws):
        if w.low in done and 0 < i <= 2:
            name = ws[i - 1].text
            if name[:1].isupper() and name.isalpha() and name.lower() not in STOPWORDS \
                    and not is_calendar_word(name) and name.lower() not in DISCOURSE:
                return name
    return ""


# "booked by Sam": the deed's doer named after it.
_BY_NAME = re.compile(r"\bby\s{1,3}(?:[A-Z]|@)")
