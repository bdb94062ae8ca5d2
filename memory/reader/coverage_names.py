"""Names as the chat writes them.

People type questions in lower case ("how much is durham open registration"), while the
chat writes the thing they name with capitals ("Durham Open is 18-19 april"). A question
word the evidence writes as a name inside its sentences, most of the times it says it,
names a thing; a unit that says too little of that name while naming another thing is
about that other thing ("Maiden Cup sign-ups … £2/person" does not answer what the Durham
Open costs), however many of the question's other words it shares.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from memory.analysis.question_words import Word, words
from memory.models import EvidenceNode
from memory.text import STOPWORDS, is_calendar_word

__all__ = ["WrittenNames", "capitalised_words", "in_handles", "misses_a_written_name",
           "name_cased", "question_names", "written_names"]

# A word is written as a name when its capitalised mentions inside a sentence are at least
# as many as its lower-case ones (a common word capitalised now and then is no name).
_CAPITAL_SHARE = 1
# All-capital words this short are acronyms ("AGM", "CA"); longer ones are shouting.
_ACRONYM_MAX = 4


@dataclass(frozen=True)
class WrittenNames:
    """A question's words the chat writes as names (``runs``, see :func:`written_names`),
    the question's own words (``asked``), the names each message says (``said_by``, by node
    id) and the speakers' name words among them (``speaking``)."""

    runs: tuple[tuple[str, ...], ...] = ()
    asked: frozenset[str] = frozenset()
    said_by: Mapping[str, frozenset[str]] = field(default_factory=dict)
    speaking: frozenset[str] = frozenset()

    @property
    def words(self) -> frozenset[str]:
        return frozenset(w for run in self.runs for w in run)

    def another(self, nodes: Iterable[EvidenceNode]) -> bool:
        """Whether ``nodes`` name a thing the question does not (a capitalised word that
        is no speaker's name): they are about that thing, not the one asked."""
        return any(w not in self.asked and w not in self.speaking
                   for n in nodes
                   for w in self.said_by.get(n.node_id) or capitalised_words(n.text))


def question_names(question: str, nodes: Iterable[EvidenceNode], *, kept: Iterable[str],
                   skip: frozenset[str], speakers: Callable[[set[str]], Iterable[str]]
                   ) -> WrittenNames:
    """The names of ``question`` as ``nodes`` (the covering messages) write them: among its
    ``kept`` words (its terms), those not in ``skip`` (people, question words); ``speakers``
    tells which name words are the scope's speakers'."""
    nodes = list(nodes)  # (a message both a unit and an answer counts twice, as it did)
    keep = set(kept)
    runs = written_names([w.low if w.low in keep else "" for w in words(question)],
                         [n.text for n in nodes], skip=skip)
    if not runs:
        return WrittenNames()
    said_by = {n.node_id: frozenset(capitalised_words(n.text)) for n in nodes}
    said = set().union(*said_by.values())
    return WrittenNames(tuple(runs), frozenset(w.low for w in words(question)), said_by,
                        frozenset(speakers(said)) if said else frozenset())


def written_names(question_words: Sequence[str], texts: Iterable[str], *,
                  skip: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
    """The runs of adjacent ``question_words`` (lower case, in question order) that
    ``texts`` write as a name, each with the part said least often first; ``skip``: words
    never taken for one (people, question words)."""
    wanted = {w for w in question_words if _candidate(w) and w not in skip}
    if not wanted:
        return []
    capital: Counter[str] = Counter()
    lower: Counter[str] = Counter()
    for text in texts:
        ws = words(text)
        for i, w in enumerate(ws):
            if w.low not in wanted:
                continue
            if w.text[:1].islower():
                lower[w.low] += 1
            elif _as_name(text, ws, i):
                capital[w.low] += 1
    names = {w for w, n in capital.items() if n >= _CAPITAL_SHARE * lower[w]}
    runs: list[list[str]] = []
    run: list[str] = []
    for q in [*question_words, ""]:
        if q in names:
            run.append(q)
        elif run:
            runs.append(run)
            run = []
    # the part said least often first: it tells the thing apart ("*durham* open")
    said = capital + lower
    return list(dict.fromkeys(tuple(sorted(r, key=lambda w: said[w])) for r in runs))


def name_cased(question: str, texts: Iterable[str], nouns: Iterable[str], *,
               skip: frozenset[str] = frozenset()) -> str:
    """``question`` with the names ``texts`` write in capitals that hold one of ``nouns``
    (value nouns: "hours", "time") capitalised as the chat writes them ("what day does
    small hours come out" → "… Small Hours …"): that noun names the thing, not the kind of
    value asked. The question as it is when it holds no such name."""
    ws = words(question)
    kinds = frozenset(nouns)
    lows = [w.low for w in ws]
    if not any(w in kinds for w in lows):
        return question
    runs = written_names(lows, texts, skip=skip)
    held = {w for run in runs if len(run) >= 2 and any(x in kinds for x in run) for w in run}
    if not held:
        return question
    out = question
    for i in reversed(range(len(ws))):
        w = ws[i]
        paired = (i > 0 and lows[i - 1] in held) or (i + 1 < len(ws) and lows[i + 1] in held)
        if w.low in held and paired and w.text[:1].islower():
            out = out[:w.start] + w.text[:1].upper() + out[w.start + 1:]
    return out


# A handle or an identifier as people write them: "@urbanjunglemara", "zeddy_zz",
# "xXcreeperkingXx" (a mention, an underscore, or a capital inside lower-case letters).
_HANDLE = re.compile(r"@[\w.]{3,40}|\b\w{1,40}_\w{1,40}\b|\b[a-z]{1,10}[A-Z][A-Za-z]{2,40}\b")
# A name shorter than this is too common a part of longer words.
_HANDLE_PART_MIN = 3


def in_handles(wanted: Iterable[str], text: str) -> set[str]:
    """The words of ``wanted`` that a handle ``text`` writes holds ("mara" in
    "@urbanjunglemara", "zed" in "zeddy_zz"): people call someone by part of a handle."""
    handles = _handles(text)
    if not handles:
        return set()
    return {w for w in wanted if len(w) >= _HANDLE_PART_MIN and w.isalpha()
            and any(w in h and len(h) > len(w) + 1 for h in handles)}


def in_model_names(wanted: Iterable[str], text: str) -> set[str]:
    """The words of ``wanted`` that ``text`` writes joined to a model number ("nimbus" in
    "Nimbus65", "pixel" in "pixel-8"): the product by its name."""
    low = text.lower()
    return {w for w in wanted if len(w) >= _HANDLE_PART_MIN and w.isalpha()
            and re.search(rf"(?<![\w-]){re.escape(w)}-?\d{{1,4}}[a-z]?\b", low) is not None}


# (the coverage test asks of the same few hundred units for every question of a session)
@functools.lru_cache(maxsize=4096)
def _handles(text: str) -> tuple[str, ...]:
    return tuple(m.group().lower() for m in _HANDLE.finditer(text))


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
    return {w.low for i, w in enumerate(ws) if _candidate(w.low) and _as_name(text, ws, i)}


def _as_name(text: str, ws: Sequence[Word], i: int) -> bool:
    """Whether ``ws[i]`` is written as a name: capitalised (an acronym, not shouting)
    inside its sentence, or opening a run of capitalised words."""
    w = ws[i]
    if not w.text[:1].isupper() or not w.text.isalpha() or (
            w.text.isupper() and len(w.text) > _ACRONYM_MAX):
        return False
    return _inside_sentence(text, w.start) or (
        i + 1 < len(ws) and _opens_name(text, w, ws[i + 1]))


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
