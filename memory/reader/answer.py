"""Shared reader helpers: query features for reranking, citations, extractive answers.

Nothing here touches storage; every function takes the nodes or states it works on.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

import tantivy

from memory.models import Citation, EvidenceNode, State
from memory.reader.dates import DateResolution, find_date_expressions, resolve_date, spoken_day
from memory.rewrite import resolved_dates
from memory.text import STOPWORDS, content_terms, is_calendar_word, shorten, stem, tokens

_ISO_NOTE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_WHEN = re.compile(
    r"^\s*(when|what (?:date|day|time|year|month)|which (?:date|day|year|month)|how long "
    r"(?:ago|before|after)|since when|by when)\b", re.IGNORECASE)
# Words of a question that say what kind of answer it wants, not what it is about.
_QUESTION_WORDS = frozenset(
    """what when where which who whom whose why how did does do is are was were has have had
    would could should can kind type sort many much long ago""".split()
)
# A sentence ends at ".", "!" or "?" (not after a title such as "Mr.") or a line break.
_SENTENCE = re.compile(r"(?<!\bMr\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bMrs\.)"
                       r"(?<=[.!?])\s+|\n+")
_RECOVERABLE_DAYS = 366 * 50
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
        speaker = 1.0 if self.speakers and _speaker_names(node) & self.speakers else 0.0
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
    known = {name for n in candidates for name in _speaker_names(n)}
    qtokens = name_words(query)
    named = {s for s in known if s in qtokens}
    qterms = list(dict.fromkeys(relevance_terms(query, skip=_QUESTION_WORDS | {
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


def named_speakers(query: str, known: Sequence[str]) -> list[str]:
    """Speakers (full display names) that ``query`` mentions by any of their name words."""
    qtokens = name_words(query)
    out = []
    for name in known:
        parts = {p for p in tokens(name) if len(p) > 1}
        if parts & qtokens:
            out.append(name)
    return out


def _speaker_names(node: EvidenceNode) -> set[str]:
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


# ---- citations and presentation ----------------------------------------------------------


def citation(node: EvidenceNode, *, quote: str | None = None) -> Citation:
    """A citation of ``node``: its provenance and a quote of its source text."""
    return Citation(
        node_id=node.node_id, message_id=node.message_id, channel=node.channel,
        channel_name=node.channel_name, speaker=node.speaker, ts=node.ts,
        quote=shorten(quote if quote is not None else node.text, 300),
        permalink=node.permalink,
    )


def day_label(ts: datetime) -> str:
    """``"Nov 3"`` (with the year when it is not the reference year, handled by callers)."""
    return f"{ts.strftime('%b')} {ts.day}"


_ABSOLUTE = re.compile(r"\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
                       re.IGNORECASE)


def value_day(value: str, said: datetime) -> str:
    """The day a relative date in ``value`` meant when it was said (``"tomorrow at 12:00"``
    said on 12 Nov → ``"13 November 2024"``); empty when the value names its own date
    ("Nov 21", "2024-11-21") or none."""
    # A state's value is what was decided or planned: an open weekday points forward.
    for expr, res in resolved_dates(value, said, prefer="future"):
        if res.start == res.end and not _ABSOLUTE.search(expr):
            return spoken_day(res.start)
    return ""


def current_value(state: State) -> str:
    """The state's current value (its last chain entry's when the record has none)."""
    return state.value or (state.chain[-1].value if state.chain else "")


def dated_current_value(state: State) -> str:
    """:func:`current_value` followed by :func:`value_day` in parentheses, when there is
    one: ``"tomorrow at 12:00 (13 November 2024)"``."""
    value = current_value(state)
    day = value_day(value, state.chain[-1].ts) if state.chain else ""
    return f"{value} ({day})" if day else value


def describe_state(state: State) -> str:
    """The current value with its history:
    ``"Friday 10am (8 November 2024; was 4 pm, revised by Alice on Nov 4)"``.

    The day a relative value meant comes first; earlier values are listed newest first; a
    state without revisions is just its (dated) value.
    """
    value = current_value(state)
    notes = [value_day(value, state.chain[-1].ts)] if state.chain else []
    if len(state.chain) >= 2:
        last = state.chain[-1]
        earlier = [e.value for e in reversed(state.chain[:-1]) if e.value and e.value != value]
        was = ", ".join(dict.fromkeys(earlier))
        who = f"revised by {last.speaker} on {day_label(last.ts)}"
        notes.append(f"was {was}, {who}" if was else who)
    notes = [n for n in notes if n]
    return f"{value} ({'; '.join(notes)})" if notes else value


def best_sentences(question: str, nodes: Sequence[EvidenceNode], *, limit: int = 2) -> list[
        tuple[EvidenceNode, str]]:
    """The sentences of ``nodes`` that best answer ``question``, best first.

    A sentence scores by the rarity-weighted question terms it shares, more when its
    speaker is named in the question, less when it is itself a question. ``nodes`` come
    by relevance, which breaks ties. When no sentence shares a term, the first sentence of
    the first node is returned."""
    if not nodes:
        return []
    feats = query_features(question, nodes)
    top_weight = max(feats.terms.values(), default=1.0)
    scored: list[tuple[float, int, EvidenceNode, str]] = []
    for rank, node in enumerate(nodes):
        named = bool(feats.speakers and _speaker_names(node) & feats.speakers)
        for sentence in split_sentences(node.text):
            terms = set(content_terms(sentence))
            s = sum(w for t, w in feats.terms.items() if t in terms)
            if named:
                s += 0.5 * top_weight
            if sentence.rstrip().endswith("?"):
                s -= 0.5 * top_weight
            scored.append((s - 0.01 * rank, rank, node, sentence))
    scored.sort(key=lambda x: (-x[0], x[1]))
    chosen = [(n, s) for score, _, n, s in scored if score > 0][:limit]
    if not chosen:
        first = nodes[0]
        sentences = split_sentences(first.text)
        chosen = [(first, sentences[0] if sentences else first.text)]
    return chosen


def asks_when(question: str) -> bool:
    """Whether ``question`` asks for a time ("When did…", "What date…", "How long ago…")."""
    return bool(_WHEN.search(question))


# Clause boundaries; a comma inside a number ("$8,000") is not one.
# Whitespace is taken at most 40 characters at a time: a leading unbounded run tried at
# every space of a long run of spaces reads the rest of the run each time (quadratic).
_CLAUSE = re.compile(r"\s{0,40}(?:,(?!\d)|[;()]|\s[-–—]\s|[–—])\s{0,40}|"
                     r"\s{1,40}(?:but|because|so|and then)\s{1,40}",
                     re.IGNORECASE)
_MIN_CLAUSE_WORDS = 2


def best_clause(question: str, sentence: str) -> str:
    """The clause of ``sentence`` sharing the most (stemmed) content terms with
    ``question``, the first on ties; the whole sentence when none shares a term."""
    wanted = {stem(t) for t in content_terms(question) if t not in _QUESTION_WORDS}
    best, best_score = sentence.strip(), 0
    for clause in _CLAUSE.split(sentence):
        clause = clause.strip(" .!?\"'")
        score = len({stem(t) for t in content_terms(clause)} & wanted)
        if len(tokens(clause)) >= _MIN_CLAUSE_WORDS and score > best_score:
            best, best_score = clause, score
    return best


def content_relevance(dense: float, terms: float) -> float:
    """Absolute relevance in [0, 1] of a passage from its dense similarity and the share of
    the question's (rarity-weighted) terms it contains (``QueryFeatures.score``'s
    ``terms``). Unlike rank-based scores it is low for every passage when nothing in memory
    is about the question, so it can gate abstention."""
    return 0.5 * max(dense, 0.0) + 0.5 * terms


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def key_terms(nodes: Sequence[EvidenceNode], *, exclude: set[str], limit: int = 6) -> list[str]:
    """The most frequent content terms of ``nodes`` not already in ``exclude`` (stemmed)."""
    counts: dict[str, int] = {}
    for n in nodes:
        for t in set(content_terms(n.text)):
            if t in exclude or t.isdigit() or len(t) < 3 or stem(t) in exclude:
                continue
            counts[t] = counts.get(t, 0) + 1
    return [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]


# ---- who first said it -------------------------------------------------------------------

# "Who suggested X", "who first proposed X", "who was the one that came up with X", "whose
# idea was X": the answer is the person whose message put X forward, not X's current state.
_SAID = (r"(?:suggest|propos|recommend|mention|pitch|float)\w*|said|says?|"
         r"(?:brought|bring|came|come) up(?: with)?|asked for")
_WHO_SAID = re.compile(
    r"^\s*(?:who(?:\s+(?:was|is)\s+the\s+(?:one|person)\s+(?:who|that))?"
    r"(?:\s+(?:first|originally|initially))?\s+(?:" + _SAID + r")\s+(?P<x>.+?)|"
    r"whose\s+(?:idea|suggestion|proposal|pick|recommendation)\s+(?:was|is)\s+(?P<y>.+?))"
    r"[\s?.!]*$",
    re.IGNORECASE)
# Where the thing said ends and its circumstances begin ("X for the team lunch").
_CIRCUMSTANCE = re.compile(
    r"\s{1,40}(?:for|at|in|during|on|as|when|while|before|after|because|since|last|yesterday|"
    r"earlier)\b", re.IGNORECASE)
_CAPITALISED = re.compile(r"\b[A-Z][\w'’&-]*")
# Capitalised words that name no proposal (besides weekdays and months).
_NOT_NAMES = frozenset({"i", "today", "tomorrow"})
# Share of the thing's key words a message must hold to have said it.
SAID_MIN_COVERAGE = 0.5


def attributed_phrase(question: str) -> str:
    """What a *who said it* question asks about ("Who suggested Taqueria Luna for the team
    lunch?" → ``"Taqueria Luna"``); empty for any other question. The circumstances after
    the thing ("for the team lunch") are cut unless nothing would be left."""
    m = _WHO_SAID.match(question)
    if m is None:
        return ""
    thing = (m.group("x") or m.group("y") or "").strip()
    cut = _CIRCUMSTANCE.search(thing)
    if cut is not None and cut.start() > 0 and content_terms(thing[: cut.start()]):
        thing = thing[: cut.start()]
    return thing.strip(" \"'“”‘’") if content_terms(thing) else ""


def named_span(phrase: str) -> str:
    """The first run of capitalised words in ``phrase`` that holds a word other than a day,
    a month or "I" (``"we switch to Taqueria Luna"`` → ``"Taqueria Luna"``); empty when
    there is none."""
    for run in re.finditer(r"\b[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)*", phrase):
        if any(not is_calendar_word(w) and w.lower() not in _NOT_NAMES
               for w in run.group().split()):
            return run.group()
    return ""


def _word_forms(word: str) -> frozenset[str]:
    return frozenset({stem(word), *relevance_terms(word)})


def _forms(words: Sequence[str]) -> list[frozenset[str]]:
    return list(dict.fromkeys(_word_forms(w.lower()) for w in words))


def _share(keys: Sequence[frozenset[str]], own: set[str]) -> float:
    return sum(1 for forms in keys if forms & own) / len(keys) if keys else 0.0


def first_said(phrase: str, nodes: Sequence[EvidenceNode]) -> EvidenceNode | None:
    """The message that first put ``phrase`` forward, judged on each node's own text (not
    the turn it answers): the nodes holding the largest share of the phrase's names (a
    proposal is known by the name it put forward: "Taqueria Luna"), then of all its content
    words; of those, the earliest. A node must hold at least :data:`SAID_MIN_COVERAGE` of
    the names, or of the words when the phrase names nothing. None when no node does."""
    names = _forms([w for w in _CAPITALISED.findall(phrase) if w != "I"])
    words = _forms([t for t in tokens(phrase) if t not in STOPWORDS and len(t) > 1])
    if not words:
        return None
    best: tuple[float, float, datetime, int] | None = None
    found: EvidenceNode | None = None
    for node in {n.node_id: n for n in nodes}.values():
        own = set(content_terms(node.text)) | passage_terms(node.text)
        by_name, by_word = _share(names, own), _share(words, own)
        if (by_name if names else by_word) < SAID_MIN_COVERAGE:
            continue
        rank = (-by_name, -by_word, node.ts, node.seq)
        if best is None or rank < best:
            best, found = rank, node
    return found
