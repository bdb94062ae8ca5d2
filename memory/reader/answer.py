"""Shared reader helpers: citations, presentation of states, extractive answers.

Nothing here touches storage; every function takes the nodes or states it works on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from memory.analysis.cue_words import NUMBER_WORDS, WEEKDAY_SPELLINGS
from memory.analysis.decision_words import OFFERED
from memory.analysis.lexicon import default_lexicon
from memory.analysis.message_patterns import AFTER_TITLE
from memory.dates import resolved_dates, weekday_day
from memory.models import Citation, EvidenceNode, State
from memory.reader.features import QUESTION_WORDS, passage_terms, relevance_terms
from memory.text import (
    STOPWORDS,
    content_terms,
    is_calendar_word,
    recurs_only,
    shorten,
    stem,
    tokens,
)

# A sentence ends at ".", "!" or "?" (not after a title such as "Mr.") or a line break.
_SENTENCE = re.compile(AFTER_TITLE + r"(?<=[.!?])\s+|\n+")


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
    if recurs_only(value):
        return ""  # "the first Tuesday of the month" is no one day
    # A state's value is what was decided or planned: an open weekday points forward.
    for expr, res in resolved_dates(value, said, prefer="future"):
        if res.start == res.end and not _ABSOLUTE.search(expr):
            return weekday_day(res.start, value)
    return ""


def current_value(state: State) -> str:
    """The state's current value (its last chain entry's when the record has none)."""
    return state.value or (state.chain[-1].value if state.chain else "")


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
    wanted = {stem(t) for t in content_terms(question) if t not in QUESTION_WORDS}
    best, best_score = sentence.strip(), 0
    for clause in _CLAUSE.split(sentence):
        clause = clause.strip(" .!?\"'")
        score = len({stem(t) for t in content_terms(clause)} & wanted)
        if len(tokens(clause)) >= _MIN_CLAUSE_WORDS and score > best_score:
            best, best_score = clause, score
    return best


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


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
# (A day or time after "on" or "at" is what was put forward: "doing it on the sunday",
# "toolbox at 3.30"; "8:30 for sundays" is 8:30.)
_CIRCUMSTANCE = re.compile(
    r"\s{1,40}(?:(?:for|in|during|as|when|while|before|after|because|since|last|yesterday|"
    r"earlier)\b|(?:on|at)\b(?!\s{1,3}(?:the\s{1,3})?(?:\d|(?:" + "|".join(WEEKDAY_SPELLINGS)
    + r")s?\b)))", re.IGNORECASE)
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


def puts_forward(text: str, about: Sequence[frozenset[str]] = ()) -> bool:
    """Whether a message asks or puts something forward ("could we open at 10:30?", "why
    don't we use code 100, I've got boxes of it", "is Nandos an option?"). A question only
    puts forward what it holds (given ``about``, word forms, it must hold one of them), and
    a request ("can u let blackbird know?") puts nothing forward."""
    if _URGES.search(text) is not None:
        return True
    proposal = default_lexicon().proposal
    if any(proposal.search(s) is not None and not _REQUEST.match(s)
           for s in _SENTENCE.split(text)):
        return True
    # the words just before a question mark are what it asks (a dotted time ends them:
    # "toolbox talk today still 7.30?" asks about 7.30, it does not put toolbox forward)
    return any(not _REQUEST.match(q) and (not about or any(
        forms & (set(content_terms(q)) | passage_terms(q)) for forms in about))
        for q in _QUESTION.findall(text))


# Urging a plan is putting it forward too ("someday we should try Taqueria Luna", "let's
# do the lake"), and so is an offer made to the group.
_URGES = re.compile(r"\b(?:we|you)\s(?:really\s)?should\b|\blet'?s\b|\blets\b|"
                    r"\b(?:" + OFFERED + r")\b", re.IGNORECASE)
# the words before a question mark, back to the last stop
_QUESTION = re.compile(r"[^.!?\n]{1,400}\?")
# asking someone to do something ("can u let blackbird know?", "could you ring Bella
# Italia"), not whether they would like it ("could you do friday?", "would u be up for")
_REQUEST = re.compile(
    r"\s{0,3}(?:[\w'’]{1,20}\W{1,3})?(?:can|could)\s{1,3}(?:you|u|someone|somebody|anyone)"
    r"\s{1,3}"
    r"(?!be\b|do\b|fancy\b|make\b|manage\b)", re.IGNORECASE)


def _said_forms(text: str) -> set[str]:
    own = set(content_terms(text)) | passage_terms(text)
    return own | {WEEKDAY_SPELLINGS[w] for w in own if w in WEEKDAY_SPELLINGS}  # "sun 26th": sunday


def _marks(text: str) -> frozenset[str]:
    """The days, times and amounts ``text`` says, written one way ("Sun 26th 8am" →
    sunday, 26, 8; "two teams" → 2)."""
    return frozenset(WEEKDAY_SPELLINGS.get(m.group("day").lower(), "") if m.group("day")
                     else str(NUMBER_WORDS[m.group("word").lower()]) if m.group("word")
                     else m.group("num").replace(".", ":") for m in _VALUE_WORD.finditer(text))


_REPLACED = re.compile(r"\b(?:instead of|rather than|not|over|vs)\b", re.IGNORECASE)
# A weekday, or a number (a day, a time, an amount) without its suffix or currency.
_VALUE_WORD = re.compile(r"(?<![\w:.])(?:[£$€])?(?P<num>\d{1,6}(?:[:.]\d{2})?)"
                         r"(?:st|nd|rd|th|am|pm|k)?(?![\w:.]?\d)|"
                         r"\b(?P<day>" + "|".join(WEEKDAY_SPELLINGS) + r")s?\b|"
                         # ("one" is as often a pronoun: "the blue one")
                         r"\b(?P<word>" + "|".join(w for w in NUMBER_WORDS if w != "one")
                         + r")\b", re.IGNORECASE)


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
    best: tuple[float, float, bool, datetime, int] | None = None
    found: EvidenceNode | None = None
    # a day, a time or a number put forward is what the proposal is known by: the message
    # must say it, while the rest may be the turn it answers ("novice assessment … sat
    # 25th?" → "everyone will be knackered. sun 26th 8am?")
    marks = _marks(_REPLACED.split(phrase)[0])  # (not the value it replaced: "8:15 instead of 8")
    for node in {n.node_id: n for n in nodes}.values():
        own = _said_forms(node.text)
        if marks:
            if not marks <= _marks(node.text):
                continue
            own = own | _said_forms(node.context)
        by_name, by_word = _share(names, own), _share(words, own)
        if (by_name if names else by_word) < SAID_MIN_COVERAGE:
            continue
        # of those saying it alike, one putting it forward suggested it ("Lantern Weather
        # as the opener?"), not an earlier mention of it as something else
        rank = (-by_name, -by_word, not puts_forward(node.text, names or words), node.ts,
                node.seq)
        if best is None or rank < best:
            best, found = rank, node
    return found
