"""What a "what/which N" question asks a value of, and whose: the noun it asks ("what
*size* are the flyers", "which *hotel* is tom in") and the owner it names by a possessive
("what's *gina's* number"). An answer must speak of them (see the coverage test)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.question_words import Word

__all__ = ["asked_noun", "existence_asked", "possessors", "subject_run"]


def subject_run(start: int, subject_idx: Sequence[int]) -> list[int]:
    """The positions of the run of consecutive subject words from ``start``."""
    run = [start]
    while run[-1] + 1 in subject_idx:
        run.append(run[-1] + 1)
    return run


def asked_noun(lows: Sequence[str], opening: int, subject_idx: Sequence[int],
                lexicon: QuestionLexicon) -> tuple[tuple[str, ...], ...]:
    """The noun a "what/which N …" question asks a value of ("what *size* are the
    bookmarks", "which *hotel* is tom in"): an answer must state it (or, for a value noun
    like "date" or "brand", a value of its kind: see the coverage test). The run of
    subject words it opens is one group ("what *size jacket*"); a value noun of the "when"
    family is left to the family ("what night": a day answers it)."""
    start = opening + 1
    if opening >= len(lows) or lows[opening] not in ("what", "which") \
            or start not in subject_idx:
        return ()
    run = subject_run(start, subject_idx)
    if any(lexicon.attributes.get(lows[i]) in _FAMILY_ASKED for i in (start, run[-1])) or (
            len(run) > 1 and lexicon.attributes.get(lows[run[-1]]) in lexicon.value_named):
        # "what date", "what phone number", "what kafka version": a value of the family
        # answers (the words before it name the thing)
        return ()
    return (tuple(lows[i] for i in run if lexicon.attributes.get(lows[i]) not in _FAMILY_ASKED),)


# Value nouns whose family a value answers, said or not ("what *time*", "what phone *number*").
_FAMILY_ASKED = frozenset({"when", "count", "money", "price"})


def possessors(ws: Sequence[Word], lows: Sequence[str], opening: int,
                subject_idx: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """The owners a question names by a possessive before what it asks ("what's *gina's*
    phone number"; not "while the van was at gus's"): the value asked is theirs, so an
    answer must name them (or be said by them)."""
    return tuple((lows[i],) for i in subject_idx
                 if i > opening and i + 1 in subject_idx
                 and _POSSESSIVE.search(ws[i].text) is not None)


# A word in the possessive ("gina's", "the okafors'"); not "it's", "what's".
_POSSESSIVE = re.compile(r"(?<=[a-z])(?:['’]s|s['’])$", re.IGNORECASE)


def existence_asked(lows: Sequence[str], subject_idx: Sequence[int]) -> tuple[str, ...]:
    """The thing a yes/no question asks whether there is ("is there *parking* at the
    hall?", "do they have *wifi*"): an answer must speak of it, not only of the place it
    is asked of. () when the question asks no such thing."""
    m = _EXISTS.match(" ".join(lows))
    if m is None:
        return ()
    at = len(m.group(0).split())
    if at >= len(lows) or at not in subject_idx:
        return ()
    return tuple(lows[i] for i in subject_run(at, subject_idx))


# "is there (a|any) …", "are there …", "do they/we have (a|any) …", "does it have …"
_EXISTS = re.compile(r"^(?:(?:is|are)\s(?:there|their)|(?:do|does)\s(?:they|we|you|it|she|he)"
                     r"\s(?:have|do|sell|serve|offer))(?:\s(?:a|an|any|some))?(?=\s)")
