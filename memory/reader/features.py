"""What a question says beyond its words, as features for ranking passages.

The reranker and the abstention gate read these: the question's content terms stemmed as the
BM25 index stems them (weighted by rarity among the candidates), the speakers it names, the
days it points at, whether it asks *when*, and an absolute content relevance. Pure text
functions over the nodes they are given; nothing here reads storage.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

import tantivy

from memory.dates import DateResolution, find_date_expressions, resolve_date
from memory.models import EvidenceNode
from memory.text import STOPWORDS, content_terms, stem, tokens

_ISO_NOTE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_WHEN = re.compile(
    r"^\s*(when|what (?:date|day|time|year|month)|which (?:date|day|year|month)|how long "
    r"(?:ago|before|after)|since when|by when)\b", re.IGNORECASE)
# Words of a question that say what kind of answer it wants, not what it is about.
QUESTION_WORDS = frozenset(
    """what when where which who whom whose why how did does do is are was were has have had
    would could should can kind type sort many much long ago""".split()
)
CONTEXT_TERM_WEIGHT = 0.5


@dataclass
class QueryFeatures:
    """What a question says beyond its words: the speakers it names, the days it points at,
    whether it asks *when*, and how informative each of its terms is among candidates."""

    terms: dict[str, float]
    speakers: set[str]
    days: list[DateResolution] = field(default_factory=list)
    asks_when: bool = False

    def score(self, node: EvidenceNode) -> dict[str, float]:
        """Features of one candidate, each in [0, 1]."""
        own = passage_terms(node.passage)
        # Words of the turn it answers count for half: the turn is partly about them.
        borrowed = passage_terms(node.context) if node.context else frozenset()
        total = sum(self.terms.values())
        matched = sum(w if t in own else CONTEXT_TERM_WEIGHT * w
                      for t, w in self.terms.items() if t in own or t in borrowed)
        speaker = 1.0 if self.speakers and speaker_names(node) & self.speakers else 0.0
        on_day = 0.0
        if self.days:
            mentioned = _mentioned_days(node.passage)
            if any(d.contains(node.ts.date()) or any(d.contains(m) for m in mentioned)
                   for d in self.days):
                on_day = 1.0
        elif self.asks_when and _states_time(node):
            on_day = 0.5
        return {
            "terms": matched / total if total else 0.0,
            "speaker": speaker,
            "date": on_day,
        }


# Snowball English, as the BM25 index stems ("promoted" and "promotion" → "promot"); the
# writer's lighter stem() keeps topic words readable, relevance wants recall.
_ANALYZER = (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
             .filter(tantivy.Filter.lowercase())
             .filter(tantivy.Filter.stemmer("english"))
             .build())


def relevance_terms(text: str, *, skip: Collection[str] = frozenset()) -> list[str]:
    """Stemmed content words of ``text`` (no stopwords, nor words in ``skip``), in order."""
    words = [t for t in tokens(text) if len(t) > 1 and t not in STOPWORDS and t not in skip]
    if not words:
        return []
    return [t for t in _ANALYZER.analyze(" ".join(words)) if len(t) > 1]


@functools.lru_cache(maxsize=4096)
def passage_terms(text: str) -> frozenset[str]:
    """:func:`relevance_terms` of a passage as a set, cached: a search scores the same
    candidates several times, and consecutive questions meet the same passages (a long
    import would otherwise be re-tokenised for every feature of every search)."""
    return frozenset(relevance_terms(text))


def query_features(
    query: str, candidates: Sequence[EvidenceNode], *, reference: datetime | None = None
) -> QueryFeatures:
    """Features of ``query`` against a candidate set (term rarity is measured within it)."""
    known = {name for n in candidates for name in speaker_names(n)}
    qtokens = name_words(query)
    named = {s for s in known if s in qtokens}
    qterms = list(dict.fromkeys(relevance_terms(query, skip=QUESTION_WORDS | {
        w for w in tokens(query) if name_base(w) in named})))
    docs = [passage_terms(n.passage) for n in candidates]
    n_docs = max(len(docs), 1)
    weights: dict[str, float] = {}
    for t in qterms:
        df = sum(1 for d in docs if t in d)
        weights[t] = math.log(1.0 + n_docs / (1.0 + df))
    days: list[DateResolution] = []
    if reference is not None:
        for expr in find_date_expressions(query):
            res = resolve_date(expr, reference)
            if res is not None:
                days.append(res)
    return QueryFeatures(terms=weights, speakers=named, days=days,
                         asks_when=bool(_WHEN.search(query)))


def name_base(token: str) -> str:
    """``"melanie's"`` → ``"melanie"``, ``"james'"`` → ``"james"``; others unchanged."""
    for suffix in ("'s", "’s", "'", "’"):
        if token.endswith(suffix) and len(token) > len(suffix):
            return token[: -len(suffix)]
    return token


def name_words(text: str) -> set[str]:
    """Tokens of ``text`` plus their possessive bases ("Melanie's" → "melanie")."""
    out = set()
    for t in tokens(text):
        out.add(t)
        out.add(name_base(t))
    return out


def speaker_names(node: EvidenceNode) -> set[str]:
    return {t for t in tokens(node.speaker) if len(t) > 1}


def _mentioned_days(text: str) -> list[date]:
    out = []
    for y, m, d in _ISO_NOTE.findall(text):
        try:
            out.append(date(int(y), int(m), int(d)))
        except ValueError:
            continue
    return out


def _states_time(node: EvidenceNode) -> bool:
    return bool(_ISO_NOTE.search(node.passage)) or bool(find_date_expressions(node.text))


def content_relevance(dense: float, terms: float) -> float:
    """Absolute relevance in [0, 1] of a passage from its dense similarity and the share of
    the question's (rarity-weighted) terms it contains (``QueryFeatures.score``'s
    ``terms``). Unlike rank-based scores it is low for every passage when nothing in memory
    is about the question, so it can gate abstention."""
    return 0.5 * max(dense, 0.0) + 0.5 * terms


def key_terms(nodes: Sequence[EvidenceNode], *, exclude: set[str], limit: int = 6) -> list[str]:
    """The most frequent content terms of ``nodes`` not already in ``exclude`` (stemmed)."""
    counts: dict[str, int] = {}
    for n in nodes:
        for t in set(content_terms(n.text)):
            if t in exclude or t.isdigit() or len(t) < 3 or stem(t) in exclude:
                continue
            counts[t] = counts.get(t, 0) + 1
    return [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]
