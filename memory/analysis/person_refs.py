"""How a message refers to a person beyond naming them as a doer: standing in for someone
("Dr. Hemi Walker is stepping in", "Sam will fill in"), the title and first name written
before a surname, and "he's / she's" doing something after one person was named
("Pete has the D1 licence so he's driving"): parts of :mod:`memory.analysis.people`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.cue_words import NOUN_DETERMINERS
from memory.analysis.lexicon import DISCOURSE
from memory.analysis.value_types import Token
from memory.text import STOPWORDS, is_calendar_word

__all__ = ["CONDITIONS", "THIRD_PERSON", "antecedent", "named_from", "steps_in"]


# Standing in for whoever held it: "Dr. Hemi Walker is stepping in", "Sam will fill in".
# (the bare verb only after a modal: "log EVERY fill in the book" names no one)
_STEPPING = frozenset({"stepping", "steps", "filling", "fills", "subbing", "subs"})
_STEP = frozenset({"step", "fill", "sub"})


def steps_in(rest: Sequence[str]) -> bool:
    """Whether ``rest`` says its doer stands in ("is stepping in", "will fill in")."""
    verbs = _STEPPING
    if len(rest) > 2 and rest[0] in {"is", "'s", "s"}:
        rest = rest[1:]
    elif len(rest) > 2 and rest[0] in {"will", "'ll", "ll", "can"}:
        rest, verbs = rest[1:], _STEP
    # (not filling in a thing: "Mum will fill in the form tonight")
    return len(rest) > 1 and rest[0] in verbs and rest[1] == "in" and (
        len(rest) < 3 or rest[2] not in NOUN_DETERMINERS)


#: Words opening a condition: a pronoun after one is given no task ("… if he takes it").
CONDITIONS = frozenset({"if", "when", "unless", "whether", "once", "as", "until"})

# A title and a first name before a surname ("Dr. Hemi ", "Prof. ").
_BEFORE_SURNAME = re.compile(r"(?:\b(?:Dr|Prof|Mr|Mrs|Ms|Rev)\.?\s)?"
                             r"(?:\b(?P<first>[A-Z][a-z'’-]{1,20})\s)?$")


def named_from(text: str, begin: int) -> int:
    """Where the name ending at ``begin``'s word starts, with a title and a first name
    written before it (a word of talk or a function word is no first name)."""
    m = _BEFORE_SURNAME.search(text, max(0, begin - 30), begin)
    if m is None or m.start() == begin:
        return begin
    first = m.group("first")
    if first and (first.lower() in STOPWORDS or first.lower() in DISCOURSE
                  or is_calendar_word(first) or first.lower() in _NOT_FIRST_NAMES
                  or first.lower().endswith("ly")):
        return begin if m.start() == m.start("first") else m.start()
    return m.start()


# Words opening a sentence before a name that are no first name ("Today Dan is …").
_NOT_FIRST_NAMES = frozenset({"today", "tomorrow", "tonight", "yesterday", "maybe", "perhaps",
                              "also", "now", "then", "still", "coach", "ask", "tell", "thanks",
                              "cheers", "sadly", "luckily", "hopefully", "ok", "okay"})


#: A person said again by a pronoun right after being named.
THIRD_PERSON = frozenset({"he", "she", "he's", "she's", "he’s", "she’s", "hes", "shes"})


def antecedent(toks: Sequence[Token], i: int, known: set[str]) -> Token | None:
    """The one person the chat knows named within the few words before ``i`` (none when two
    are: "Tom told Pete he's driving" says not which)."""
    # (a possessor is not who: "Sam's brother has the van so he's driving")
    names = [t for t in toks[max(0, i - 12):i] if _bare(t.low) in known
             and t.text[:1].isupper() and not t.low.endswith(("'s", "’s"))]
    if len(names) != len([t for t in toks[max(0, i - 12):i]
                          if _bare(t.low) in known]):
        return None
    if len({_bare(t.low) for t in names}) != 1:
        return None
    return names[0]


def _bare(word: str) -> str:
    return word.removesuffix("'s").removesuffix("’s")
