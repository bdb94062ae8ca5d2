"""Names as the chat writes them.

People type questions in lower case ("how much is durham open registration"), while the
chat writes the thing they name with capitals ("Durham Open is 18-19 april"). A question
word the evidence writes as a name inside its sentences, most of the times it says it,
names a thing; a unit that says too little of that name is about another thing ("Maiden
Cup sign-ups … £2/person" does not answer what the Durham Open costs), however many of
the question's other words it shares.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from memory.analysis.question_words import Word, words
from memory.models import EvidenceNode
from memory.text import STOPWORDS, is_calendar_word

__all__ = ["WrittenNames", "capitalised_words", "misses_a_written_name", "name_counts",
           "names_of", "written_names"]

# A word is written as a name when its capitalised mentions inside a sentence are at least
# as many as its lower-case ones (a common word capitalised now and then is no name).
_CAPITAL_SHARE = 1
# All-capital words this short are acronyms ("AGM", "CA"); longer ones are shouting.
_ACRONYM_MAX = 4


@dataclass(frozen=True)
class WrittenNames:
    """A question's words the chat writes as names (``runs``, see :func:`written_names`)
    and the speakers' name words among the names its messages say (``speaking``)."""

    runs: tuple[tuple[str, ...], ...] = ()
    speaking: frozenset[str] = frozenset()

    @property
    def words(self) -> frozenset[str]:
        return frozenset(w for run in self.runs for w in run)

    def another(self, question: str, nodes: Iterable[EvidenceNode]) -> bool:
        """Whether ``nodes`` name a thing ``question`` does not (a capitalised word that
        is no speaker's name): they are about that thing, not the one asked."""
        asked = {w.low for w in words(question)}
        return any(w not in asked and w not in self.speaking
                   for n in nodes for w in capitalised_words(n.text))


def name_counts(texts: Iterable[str], wanted: Callable[[str], bool] = lambda w: True
                ) -> tuple[Counter[str], Counter[str]]:
    """How often ``texts`` write each word ``wanted`` keeps as a name (capitalised inside a
    sentence, or opening a run of capitalised words) and in lower case."""
    capital: Counter[str] = Counter()
    lower: Counter[str] = Counter()
    for text in texts:
        ws = words(text)
        for i, w in enumerate(ws):
            if not _candidate(w.low) or not wanted(w.low):
                continue
            if w.text[:1].islower():
                lower[w.low] += 1
            elif (w.text.isupper() and len(w.text) > _ACRONYM_MAX) or not w.text.isalpha():
                continue
            elif _inside_sentence(text, w.start) or (
                    i + 1 < len(ws) and _opens_name(text, w, ws[i + 1])):
                capital[w.low] += 1
    return capital, lower


def names_of(capital: Counter[str], lower: Counter[str]) -> frozenset[str]:
    """The words written as a name at least as often as in lower case."""
    return frozenset(w for w, n in capital.items() if n >= _CAPITAL_SHARE * lower[w])


def written_names(question_words: Sequence[str], texts: Iterable[str], *,
                  skip: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
    """The runs of adjacent ``question_words`` (lower case, in question order) that
    ``texts`` write as a name, each with the part said least often first; ``skip``: words
    never taken for one (people, question words)."""
    wanted = {w for w in question_words if _candidate(w) and w not in skip}
    if not wanted:
        return []
    capital, lower = name_counts(texts, wanted.__contains__)
    names = names_of(capital, lower)
    runs: list[list[str]] = []
    run: list[str] = []
    for w in [*question_words, ""]:
        if w in names:
            run.append(w)
        elif run:
            runs.append(run)
            run = []
    # the part said least often first: it tells the thing apart ("*durham* open")
    said = capital + lower
    return list(dict.fromkeys(tuple(sorted(r, key=lambda w: said[w])) for r in runs))


def misses_a_written_name(names: Sequence[tuple[str, ...]], said: frozenset[str]) -> bool:
    """Whether a unit saying ``said`` (its words, context included) leaves one of
    ``names`` unsaid: its telling part (the first), or more than half of it."""
    for parts in names:
        lost = sum(1 for p in parts if p not in said)
        if parts[0] not in said or lost * 2 > len(parts):
            return True
    return False


def capitalised_words(text: str) -> set[str]:
    """The words ``text`` writes with a capital inside a sentence or opening a run of them
    (lower-cased): the names it says."""
    ws = words(text)
    return {w.low for i, w in enumerate(ws)
            if w.text[:1].isupper() and w.text.isalpha() and _candidate(w.low)
            and not (w.text.isupper() and len(w.text) > _ACRONYM_MAX)
            and (_inside_sentence(text, w.start)
                 or (i + 1 < len(ws) and _opens_name(text, w, ws[i + 1])))}


def _candidate(word: str) -> bool:
    return (word.isalpha() and len(word) > 1 and word not in STOPWORDS
            and not is_calendar_word(word))


def _opens_name(text: str, word: Word, after: Word) -> bool:
    """Whether ``word`` opens a run of capitalised words ("Durham Open is …"): a
    sentence's first word is a name's when the next one, right after it, is one too."""
    return (after.text[:1].isupper() and not after.text.isupper()
            and text[word.end:after.start] == " ")


def _inside_sentence(text: str, start: int) -> bool:
    """Whether the word at ``start`` follows a word or a comma in its sentence (a capital
    opening a sentence, a line or a list item says nothing)."""
    before = text[:start].rstrip()
    return bool(before) and (before[-1].isalnum() or before[-1] in ",&(/+")
