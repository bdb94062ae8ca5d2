"""What the message analyzer claims a message says: (subject, value, kind) for every value
it states, the shape the analyzer tests compare."""

from __future__ import annotations

from collections.abc import Sequence

from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.value_types import Kind

ANALYZER = MessageAnalyzer(Lexicon())


def claims_of(text: str, *, speaker: str = "x",
              people: Sequence[str] = ()) -> list[tuple[str, str, Kind]]:
    """(subject, value, kind) of every claim of ``text`` said by ``speaker`` in a chat of
    ``people``, in reading order."""
    analysis = ANALYZER.analyze(text, speaker=speaker, people=people)
    return [(c.subject, c.value.text, c.value.kind) for cl in analysis.clauses
            for c in cl.claims]


def values_of(text: str, kind: Kind) -> list[str]:
    """The values of ``kind`` that ``text`` states, in reading order."""
    return [v for _, v, k in claims_of(text) if k is kind]
