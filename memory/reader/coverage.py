"""Does the evidence an asker may read hold an answer? The coverage test behind abstention.

A question is about something: its subject words and the things it names (a person, a
product, a version, a day). Memory holds an answer only when one *unit* of the scoped
evidence covers that: a message together with the turn it answers or the answer it got,
or a state with its chain. Words are weighed by how rare they are in the asker's scope, so
"kafka" (never said where the asker can read) weighs more than "version" (said everywhere);
a word the scope never holds is covered only by a near synonym, a misspelling or a short
form of a unit's word. A question that wants a kind of value (a date, an amount) is
covered only by a unit holding one. Nothing here looks outside the scope it is given, so
an abstention says the same whether or not an answer exists where the asker cannot read.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from memory.analysis.colour_words import colours_in
from memory.analysis.cue_words import _phrase_pattern
from memory.analysis.definitions import QuestionKind
from memory.analysis.lexicon import DOING_VERBS, PROPOSAL_CUES
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import CoverageWeights, QuestionLexicon
from memory.analysis.question_words import edit_distance, low_words, swapped_letters
from memory.analysis.time_bounds import bound_cue, bound_time
from memory.dates import find_date_expressions
from memory.dates.spoken import ANY_DAY
from memory.embeddings import Embedder
from memory.models import EvidenceNode, Scope, State
from memory.reader.answer import split_sentences
from memory.reader.asked_value import fills, name_candidates, names_someone, spoke
from memory.reader.contrast import another_kind
from memory.reader.coverage_days import (
    another_months,
    dated_score,
    days_named,
    numeric_days,
    on_days,
    question_days,
    scoped_by_days,
    with_day_named,
)
from memory.reader.coverage_names import (
    WrittenNames,
    in_handles,
    in_model_names,
    misses_a_written_name,
    question_names,
)
from memory.reader.coverage_values import (
    NAMELESS_FAMILIES,
    asks_a_count,
    asks_a_length,
    asks_a_percent,
    asks_a_temperature,
    asks_an_address,
    common_place,
    numbered_noun,
    other_period,
    said,
    says_a_bare_sum,
    says_a_clock,
    says_a_length,
    says_a_number,
    says_a_numbered,
    says_a_percent,
    says_a_rate,
    says_a_record_number,
    says_a_temperature,
    says_an_address,
)
from memory.reader.word_forms import (
    MEASURE_UNITS,
    closed_compounds,
    forms,
    spelled_out,
    unit_forms,
)
from memory.store.ports import SearchStore
from memory.subject_marks import other_codes
from memory.text import STOPWORDS, family_of, find_slots, stem

# Sentences ending in "?" ask rather than tell: they carry a unit's subject, not its answer.
_ASKS = re.compile(r"\?\s{0,40}$")
# A question asked without its mark: a short sentence opened by who or where ("who took my
# 10mm spanner", "where we meeting") with no clause after a comma.
_ASKS_UNMARKED = re.compile(r"^\W{0,3}(?:who|where)(?:'s|’s|s)?\s[^,;:.!]{1,60}$", re.IGNORECASE)


def _asks(sentence: str) -> bool:
    """Whether ``sentence`` asks something, with or without its question mark."""
    return _ASKS.search(sentence) is not None or _ASKS_UNMARKED.match(sentence.strip()) is not None


# The writer's bracketed notes in a rewrite (the state a message touches, resolved dates).
_NOTE = re.compile(r"\[[^\[\]]{0,400}\]")


@dataclass
class Unit:
    """One piece of evidence that could answer: ``node`` (a message) with the turn it answers
    or the answers it got (``context``), or a ``state`` with its chain. ``told`` is what the
    unit states (its non-question sentences), ``text`` everything it says."""

    text: str
    told: str
    speakers: frozenset[str]
    context: str = ""
    node: EvidenceNode | None = None
    #: the first message of a reply's thread: the subject the reply leaves unsaid
    thread: str = ""
    state: State | None = None
    answers: list[EvidenceNode] = field(default_factory=list)
    ts: datetime | None = None
    score: float = 0.0

    @property
    def key(self) -> str:
        if self.state is not None:
            return f"s:{self.state.state_id}"
        return f"n:{self.node.node_id}" if self.node is not None else ""


def who_verb(question: str) -> str:
    """The verb of doing right after an opening "who" ("who *organised* the letter drop",
    "who *took* over"); "" when "who" opens no such clause ("who's", "who is the …") or
    asks an outcome ("who won", "who got"), which no one's doing answers."""
    lows = [w.low for w in words(question)[:2]]
    if len(lows) < 2 or lows[0] != "who":
        return ""
    verb = lows[1]
    return verb if (len(verb) > 2 and verb.endswith("ed") and verb not in _NOT_DOING) \
        or verb in _DID else ""


# Past forms of doing a "who" question asks with that do not end in "-ed".
_DID = frozenset({"took", "made", "brought", "bought", "sent", "put", "ran", "gave", "paid",
                  "built", "sold", "found", "set", "wrote", "drove", "led", "fixed"})
# "-ed" words that ask no doing: an outcome, a feeling, a need.
_NOT_DOING = frozenset({"needed", "wanted", "liked", "loved", "hated", "failed", "passed",
                        "qualified", "finished", "placed", "scored", "missed"})


def told_part(text: str) -> str:
    """The sentences of ``text`` that are not questions."""
    return " ".join(s for s in split_sentences(text) if not _asks(s))


def node_unit(node: EvidenceNode, answers: Sequence[EvidenceNode] = (), *,
              score: float = 0.0, taken_up: bool = False,
              thread: EvidenceNode | None = None) -> Unit:
    """A message as a unit: what it states (with the writer's notes in its rewrite: the
    speaker, the channel, resolved dates, the state it touches) and the answers it got;
    its questions and the turn it answers are its context. With ``taken_up`` (someone else
    said yes to it), what its questions put forward is stated too ("€109 → €119 per group
    from april?" / "yes but announce it in march"). ``thread``: the first message of the
    reply's thread, whose subject the reply leaves unsaid, is its ``thread``."""
    rest = node.passage.replace(node.text, " ") if node.rewrite else ""
    notes = " ".join([node.speaker, *(m.group() for m in _NOTE.finditer(rest))])
    borrowed = _NOTE.sub(" ", rest)
    own = node.text if taken_up else told_part(node.text)
    told = " ".join([own, notes, *(told_part(a.text) for a in answers)])
    subject = thread.text if thread is not None and thread.node_id not in node.context_ids else ""
    asked = " ".join(["" if taken_up else asked_part(node.text), node.context, borrowed,
                      *(asked_part(a.text) for a in answers)])
    speakers = frozenset(w.low for n in (node, *answers) for w in words(n.speaker))
    return Unit(text=" ".join(p for p in (told, asked) if p), told=told.strip(),
                speakers=speakers, context=asked.strip(), node=node, answers=list(answers),
                ts=node.ts, score=score, thread=subject)


def asked_part(text: str) -> str:
    """The sentences of ``text`` that are questions."""
    return " ".join(s for s in split_sentences(text) if _asks(s))


def state_unit(state: State, *, score: float = 0.0) -> Unit:
    """A state as a unit: what it is about (its topic) and its values are what it states;
    its description and the messages of its chain are its context (a message says more
    than the one thing its state tracks)."""
    values = [e.value for e in state.chain if e.value]
    told = " ".join([state.topic, *values])
    quotes = " ".join([state.description, *(e.quote for e in state.chain)])
    speakers = frozenset(w.low for e in state.chain for w in words(e.speaker))
    return Unit(text=f"{told} {quotes}", told=told, speakers=speakers, context=quotes,
                state=state, ts=state.chain[-1].ts if state.chain else None, score=score)


@dataclass(frozen=True)
class Term:
    """A question word to cover: ``named`` words must be matched literally (or as a person
    in scope), the others may be matched by a near synonym."""

    word: str
    weight: float
    named: bool = False
    person: bool = False
    attribute: str = ""  # the value family that answers it in place of the word
    absent: bool = False  # never said in the scope
    # the head of a noun phrase the chat drops ("the postmortem *meeting*": "postmortem")
    head: bool = False
    # the compound the word makes with its neighbour in the question, closed ("call out"
    # is said "callout")
    closed: str = ""
    # the verb after the question's subject, never said in the scope ("how often do backups
    # *run*"): said in other words
    verb: bool = False


@dataclass
class Coverage:
    """The verdict: the best unit, how much of the question it covers, and why."""

    covered: bool
    best: Unit | None
    score: float
    units: list[tuple[float, Unit]]
    terms: list[Term]
    reason: str = ""


class CoverageTest:
    """Weighs a question's terms in a scope and scores units against them.

    ``synonyms`` maps a word pair to its embedding cosine (cached per test); words are
    embedded with the store's embedder, so a hashing embedder matches only equal words.
    """

    def __init__(self, *, store: SearchStore, embedder: Embedder,
                 lexicon: QuestionLexicon) -> None:
        self.store = store
        self.embedder = embedder
        self.lexicon = lexicon
        self.weights: CoverageWeights = lexicon.coverage
        self._vectors: dict[str, np.ndarray] = {}
        self._kinds: dict[str, frozenset[str]] = {}
        self._claim_forms = frozenset(f for w in lexicon.claim_words for f in forms(w))
        self._predicate_forms = frozenset(
            f for w in lexicon.predicates for f in forms(w) if len(f) > 2)
        self._change_forms = frozenset(
            f for w in lexicon.change_predicates for f in forms(w) if len(f) > 2)
        # words saying what happens to a subject rather than naming it
        self._light_forms = self._predicate_forms | self._change_forms

    @property
    def plain_forms(self) -> frozenset[str]:
        """The forms of the verbs that say what happens to a subject (predicates and
        change verbs) rather than naming it."""
        return self._light_forms

    # ---- terms ---------------------------------------------------------------------------
    def terms(self, qa: QuestionAnalysis, scope: Scope) -> list[Term]:
        """The question's terms with their weights in ``scope``."""
        w = self.weights
        named = {n.lower() for n in qa.named}
        persons = self.store.speaker_words(
            [t for t in qa.terms if t.isalpha()], scope) if qa.terms else set()
        out: list[Term] = []
        days = days_named(qa.text)
        said: dict[str, set[str]] = {}  # the messages saying each term (one search each)
        dfs = {t: self._df(t, scope, day=t in days, ids=said) for t in qa.terms}
        heads = _dropped_heads(qa, dfs, self.lexicon.light_heads)
        closed = closed_compounds(qa.text)
        # (a verb the scope never says is said in other words only of a subject it holds:
        # "what did the principal require" asks of a principal the scope never names)
        verbs = frozenset(qa.verbs) if all(dfs[t] for t in qa.terms if t not in qa.verbs) \
            else frozenset()
        # (and so is one the scope says only of other things: "when did imogen *take* over
        # the rides" / "handing the rides over to imogen", where "take" is said of a shift)
        # (the verb of a "who" question, never said in the scope, is what the person did,
        # said in other words: "who organised the letter drop")
        done = who_verb(qa.text) if qa.kind is QuestionKind.WHO else ""
        things = [t for t in qa.terms if t not in verbs and t not in persons]
        # (not of a why question: its verb is the change asked about, and the message
        # saying it is where its reason is)
        other_words = frozenset(t for t in verbs if dfs.get(t) and things
                                and qa.kind is not QuestionKind.WHY
                                and not said[t] & set().union(*(said[o] for o in things)))
        for t in qa.terms:
            df = dfs[t]
            weight = w.idf_floor + math.log(
                1.0 + w.rarity_scale / (1.0 + (df if df else w.absent_df)))
            is_named = t in named or any(t in n.split() for n in named)
            if is_named:
                weight *= w.named_boost
            elif not df and (t in heads or self.lexicon.attributes.get(t, "") or (
                    qa.kind is QuestionKind.WHO and (t in DOING_VERBS or t == done))):
                # a kind of value never named in the scope ("which repair *company*"):
                # the value answers it, not the word; so does the person for what they
                # do in a role nobody put in those words ("who's teaching thursdays")
                weight *= w.absent_attribute_share
            elif (not qa.polar or qa.confirm) and (forms(t) & self._light_forms
                                                   or (t in verbs and not df)
                                                   or t in other_words):
                # (the verb after a subject, never said in the scope, may be said in other
                # words: "how often do backups *run*" / "backups go … every 6 hours")
                # (a yes/no question asks its verb, unless it asks whether a value still
                # holds: "is the cleaner still coming", answered by the cleaner's state)
                weight *= w.predicate_share
            out.append(Term(word=t, weight=weight, named=is_named, person=t in persons,
                            attribute=self.lexicon.attributes.get(t, ""), absent=df == 0,
                            head=t in heads and not is_named, closed=closed.get(t, ""),
                            verb=(t in verbs and not df) or t in other_words))
        return out

    def _df(self, word: str, scope: Scope, *, day: bool = False,
            ids: dict[str, set[str]] | None = None) -> int:
        """In how many messages of ``scope`` ``word`` is said (up to the cap); a day of the
        month (``day``) also as written without its ordinal ending. ``ids`` keeps the ids
        of the messages saying the word as written."""
        hits = self.store.lexical_search(word, scope, k=self.weights.df_cap)
        if ids is not None:
            ids[word] = {i for i, _ in hits}
        if not hits and day:
            # "the saturday 14th shift" where the chat wrote "sat 14 evening"
            hits = self.store.lexical_search(word.rstrip("stndrh"), scope,
                                             k=self.weights.df_cap)
        if not hits and word.isdigit() and 4 <= len(word) <= 9:
            # "8500" where the chat wrote "8,500"
            hits = self.store.lexical_search(f"{int(word):,}", scope, k=self.weights.df_cap)
        if not hits:
            # "6h" where the chat wrote "every 6 hours"
            for phrase in spelled_out(word):
                said = self.store.phrase_search(phrase, scope, k=self.weights.df_cap)
                if said:
                    return len(said)
        if not hits and word.isdigit() and len(word) <= 6:
            # "72 hours notice" where the chat wrote "72h"
            for unit in MEASURE_UNITS:
                hits = self.store.lexical_search(word + unit, scope, k=self.weights.df_cap)
                if hits:
                    break
        return len(hits)

    # ---- units ---------------------------------------------------------------------------
    def cover(self, qa: QuestionAnalysis, terms: Sequence[Term], unit: Unit, *,
              reference: datetime | None = None, people: frozenset[str] = frozenset(),
              names: WrittenNames | None = None) -> float:
        """The weighted share of ``terms`` that ``unit`` covers; 0 when it lacks the kind
        of value asked for or misses a named thing. ``people``: the name words of the
        scope's speakers among the names the units say (no person is a value a "which N"
        asks); ``names``: the question's words the chat writes as names (a message saying
        none of one while naming another thing is about that thing)."""
        if not terms:
            return 0.0
        if not self.holds_family(qa, unit) or another_kind(qa.text, unit.told, unit.context):
            return 0.0
        if other_codes(qa.text, unit.text):
            return 0.0  # "who won round 2" is not answered by the round 3 results
        if another_months(qa, unit):
            return 0.0  # "the may comp" is not the April comp
        if qa.kind is QuestionKind.WHO and qa.role != "proposer" and _only_asks(unit):
            return 0.0  # "who took my 10mm spanner", never answered: nobody is named
        w = self.weights
        told = unit_forms(unit.told)
        asked = unit_forms(unit.context)
        subject = unit_forms(unit.thread) if unit.thread else frozenset()
        if names is not None and self._about_another(terms, unit, told | asked | subject, names):
            return 0.0
        families = self.families(unit)
        total = sum(t.weight for t in terms)
        got = 0.0
        missing: list[Term] = []
        persons = {t.word for t in terms if t.person}
        absent = {t.word for t in terms if t.absent}
        # a group of predicate verbs only ("getting delivered") is said in other words
        heads = {t.word for t in terms if t.head}
        verbs = {t.word for t in terms if t.verb}
        # (a person beside a verb said in other words asks nothing more: "when did imogen
        # *take* over")
        groups = []
        for k in qa.key:
            named = set(k) - persons  # (a group of people only is said otherwise too)
            otherwise = all(forms(x) & self._light_forms or x in verbs for x in k) \
                or named <= verbs
            if ((qa.polar and not qa.confirm) or not otherwise) and not set(k) <= heads:
                groups.append(named or set(k))
        stated: set[str] = set()
        for t in terms:
            # the same event in other words counts when its time is asked ("when did rc2
            # ship" / "rc2 released"), not as a subject ("how did the deploy go")
            f = forms(t.word) | (self._event_forms(t.word) if qa.family == "when"
                                 else frozenset()) | ({t.closed} if t.closed else set())
            if f & told or (t.person and spoke(t.word, unit.speakers)) or (
                    t.attribute in self.lexicon.value_named
                    and (t.attribute in families or qa.family in families)) or (
                    qa.family == "when" and t.word in self.lexicon.when_events
                    and "when" in families) or (
                    qa.family == "person" and t.word in self.lexicon.role_words
                    and self._claims(told)) or (
                    t.word in self.lexicon.rate_words and says_a_rate(unit)) or (
                    t.absent and t.word in self.lexicon.proposing
                    and _PROPOSES.search(unit.text) is not None):
                got += t.weight
                stated.add(t.word)
            elif f & asked and _answered(unit):
                # a question and the answer it got: the answer is about what was asked
                # ("can the staff mtgs start earlier?" → "7:45 from july on")
                got += w.answered_credit * t.weight
                stated.add(t.word)
            elif f & asked:
                credit = w.state_context_credit if unit.state is not None else w.context_credit
                got += credit * t.weight
            elif f & subject:
                # the thread's subject: the reply is about it, though it never says it
                got += w.context_credit * t.weight
            else:
                missing.append(t)
        if missing:
            # (a word the scope says may still be mistyped: "trainign" for "training")
            # (and a name may be part of a handle: "mara" / "@urbanjunglemara")
            typos = self._typos([m for m in missing if m.absent], unit) | {
                m.word for m in missing if not m.absent and any(
                    swapped_letters(m.word, c) for c in low_words(unit.told))} | in_handles(
                [m.word for m in missing], unit.told) | in_model_names(
                [m.word for m in missing], unit.told)
            got += sum(m.weight for m in missing if m.word in typos)
            stated |= typos
            missing = [m for m in missing if m.word not in typos]
        matched: set[str] = set()
        if missing:
            syn, matched = self._synonyms(missing, unit)
            got += syn
            stated |= matched
        # an owner the question names may be the unit's speaker by a longer name ("tom's
        # leave" / tomasz: "i'm off on paternity leave")
        stated |= {w for g in groups for w in g if spoke(w, unit.speakers)}
        # the noun asked a value of ("which *hotel*", "what *brand*"), unmatched, is given
        # by a value set for the rest of the question ("which room is the recording in?" /
        # "the annex"); else, never said where the asker can read, it weighs twice
        asked_noun = set(qa.asked) - persons
        open_ask = bool(asked_noun) and not asked_noun & stated and not _valued(asked_noun, qa)
        filled = open_ask and fills(unit, qa, people)
        unstated = sum(1 for g in groups if g and not g & stated and not _valued(g, qa)
                       and not (filled and g == asked_noun))
        if open_ask and not filled and asked_noun <= absent:
            unstated += 1
        # a yes/no question asks its verb: one never said in the scope is not answered
        unstated += sum(1 for m in missing if qa.polar and m.absent and m.word not in matched
                        and not (qa.confirm and forms(m.word) & self._light_forms))
        return got / total * w.headless ** unstated

    def _about_another(self, terms: Sequence[Term], unit: Unit, said: frozenset[str],
                       names: WrittenNames) -> bool:
        """Whether the message ``unit`` leaves one of the question's written ``names``
        unsaid (``said``: its word forms; a misspelling counts as said) while naming
        another thing."""
        if not names.runs or unit.node is None:
            return False
        hit = frozenset(t.word for t in terms if forms(t.word) & said)
        if not misses_a_written_name(names.runs, hit):
            return False
        lost = [t for t in terms if t.word in names.words and t.word not in hit]
        return misses_a_written_name(names.runs, hit | self._typos(lost, unit)) and \
            names.another([unit.node, *unit.answers])

    def _claims(self, told: frozenset[str]) -> bool:
        """Whether a unit hands a task over, claims it or names a role (its word forms)."""
        return bool(told & self._claim_forms)

    def _event_forms(self, word: str) -> frozenset[str]:
        """The words naming the same event as ``word`` (lexicon data), as forms."""
        for group in self.lexicon.events:
            if word in group:
                return frozenset(f for w in group for f in forms(w) if "-" not in w)
        return frozenset()

    def families(self, unit: Unit) -> set[str]:
        """The families of value ``unit`` states, as asked families ("when", "money"…)."""
        kinds = set(self._told_kinds(unit.told))
        if unit.state is not None and unit.state.value:
            kinds |= _slot_kinds(unit.state.value)
            if colours_in(unit.state.value):
                kinds.add("colour")
        return {fam for fam, slots in self.lexicon.answering_slots.items()
                if kinds.intersection(slots)}

    def _told_kinds(self, told: str) -> frozenset[str]:
        hit = self._kinds.get(told)
        if hit is None:
            kinds = set(_slot_kinds(told))
            if self.lexicon.secret.search(told):
                kinds.add("secret")
            if colours_in(told):
                kinds.add("colour")
            if find_date_expressions(told) or numeric_days(told, ANY_DAY):
                kinds.add("date")
            hit = self._kinds[told] = frozenset(kinds)
            if len(self._kinds) > _KINDS_KEPT:
                self._kinds.pop(next(iter(self._kinds)))
        return hit

    def holds_family(self, qa: QuestionAnalysis, unit: Unit) -> bool:
        """Whether ``unit`` holds a value of the kind ``qa`` asks for (any unit when it
        asks none, a person, or a reason; a past event's day is the day it was told)."""
        family = qa.family
        if qa.kind is QuestionKind.WHY:
            return True
        if asks_a_length(qa):
            return says_a_length(unit)  # "how long is the film" / "98 mins", not "Saturday"
        if asks_a_temperature(qa):
            return says_a_temperature(unit)  # "what temp is the ferment at" / "18°C"
        if asks_an_address(qa, self.lexicon.address_nouns):
            # "what's the address for flynn's" is answered by a street or postcode written
            # out, never by the pub's name or a day
            return says_an_address(unit)
        if asks_a_count(qa):
            # "how many people…" is answered by a number, never by a name alone, nor by
            # an amount of money ("how many swirls a day" / "£2.80 each")
            return says_a_number(unit, money="how many" not in qa.cues)
        if asks_a_percent(qa) and family not in ("when", "person") \
                and qa.kind is not QuestionKind.WHO:
            return says_a_percent(unit)  # "what fee % did we put in": a share, no amount
        if qa.record:
            # "what's our dentaid account number": a number a record is known by
            return says_a_record_number(unit)
        numbered = numbered_noun(qa.text)
        if numbered and not asks_a_count(qa):
            # "whats our site number": the site's label number ("site 14"), not "2 sites"
            return says_a_numbered(unit, numbered)
        if family == "count" and self.lexicon.number_noun in qa.attributes:
            # "what's the planning ref number", "what number is on my jersey": a number
            # that is neither a day, a time nor an amount
            return says_a_number(unit, money=False)
        if self.lexicon.name_noun in qa.attributes and set(qa.terms) & self.lexicon.person_roles:
            # "what's the principal at lakefield called": a name said beside the role
            return names_someone(unit, qa)
        if family in ("name", "where") and unit.state is not None and unit.state.value:
            # "which company does the inspections": a state holding a day, a time or an
            # amount names no company, nor does a place said by its common noun ("the yard")
            return family_of(unit.state.value) not in NAMELESS_FAMILIES and not (
                family == "name" and common_place(unit.state.value))
        if family not in self.lexicon.required:
            return True
        if family == "when" and qa.past and unit.node is not None:
            return True
        if qa.asks_clock:
            # "what time does it start" is not answered by a day alone; "what time does it
            # finish" not by the time a message says it starts ("puppy party Tues 29th
            # 6:30pm"), only by an end it gives ("6:30-8pm", "done by 10")
            bound, cue = bound_cue(qa.text)
            if bound == "end" and not bound_time(unit.told, "end", cue):
                return False
            return says_a_clock(unit)
        if family in ("price", "money") and other_period(qa.text, said(unit)):
            return False  # "the day rate for the small room" is no "22/h"
        if family == "price" and says_a_percent(unit):
            return True  # a fee or a rate set as a share ("let's go 9%"), not "how much"
        if family in ("price", "money") and (says_a_rate(unit) or says_a_bare_sum(
                unit, self.lexicon.price_words)):
            # a price written without its currency: "spree room 35/h → 40/h", "half day
            # spree 140" answering "half day rate for spree too?"
            return True
        return family in self.families(unit)

    def _typos(self, absent: Sequence[Term], unit: Unit) -> set[str]:
        """The words among ``absent`` (never said in the scope) that a word ``unit`` states
        is a misspelling away from ("educaton" / "education"), that cut it short ("reg"
        / "registration") or that end them ("playtesters" / "testers")."""
        w = self.weights
        found: set[str] = set()
        # (a function word is no misspelling of a subject word: "theme" is not "there")
        candidates = {x.low for x in words(unit.told) if len(x.low) >= w.typo_min - 1
                      and x.low not in STOPWORDS}
        for t in absent:
            if len(t.word) >= w.abbreviation_min and t.word.isalpha() and any(
                    len(c) >= len(t.word) + 3 and c.startswith(t.word) for c in candidates):
                found.add(t.word)
                continue
            # the same root made another word ("shearing" / "shearers")
            root = stem(t.word)
            if t.word.isalpha() and len(root) >= w.typo_min and any(
                    c.startswith(root) and _DERIVED.fullmatch(c[len(root):])
                    for c in candidates):
                found.add(t.word)
                continue
            # a compound ending in a word the unit states ("playtesters" / "testers"), or
            # one the unit states ending in the word ("powerflush" / "flush")
            if t.word.isalpha() and any(
                    (len(c) >= w.typo_min and len(t.word) >= len(c) + 3 and t.word.endswith(c))
                    or (len(t.word) >= w.typo_min - 1 and len(c) >= len(t.word) + 3
                        and c.endswith(t.word))
                    for c in candidates):
                found.add(t.word)
                continue
            if len(t.word) < w.typo_min or not t.word.isalpha():
                continue
            limit = 2 if len(t.word) >= w.typo_two else 1
            if any(c[0] == t.word[0] and abs(len(c) - len(t.word)) <= limit
                   and edit_distance(c, t.word, limit) <= limit for c in candidates):
                found.add(t.word)
        return found

    def _synonyms(self, missing: Sequence[Term], unit: Unit) -> tuple[float, set[str]]:
        """Credit for missing words that the unit states a near synonym of, and those
        words. Named things, numbers and calendar words have no synonyms."""
        w = self.weights
        candidates = list(_candidates(unit.told))
        qs = [m.word for m in missing if not m.named and m.word.isalpha()]
        if not candidates or not qs:
            return 0.0, set()
        vecs = self._embed_words(list(dict.fromkeys(qs + candidates)))
        cand = np.stack([vecs[c] for c in dict.fromkeys(candidates)])
        got = 0.0
        matched: set[str] = set()
        for m in missing:
            if m.word not in qs:
                continue
            if float(np.max(cand @ vecs[m.word])) >= w.synonym_min:
                got += w.synonym_credit * m.weight
                matched.add(m.word)
        return got, matched

    def _prefetch(self, terms: Sequence[Term], pool: Sequence[Unit]) -> None:
        """Embed, in one batch, every word the synonym test may compare for this question
        (one embedder call instead of one per unit)."""
        qs = [t.word for t in terms if not t.named and t.word.isalpha()]
        if not qs:
            return
        ws = dict.fromkeys(qs)
        for u in pool:
            ws.update(dict.fromkeys(_candidates(u.told)))
        self._embed_words(list(ws))

    def _embed_words(self, ws: Sequence[str]) -> dict[str, np.ndarray]:
        new = [x for x in ws if x not in self._vectors]
        if new:
            for x, v in zip(new, self.embedder.embed_batch(new), strict=True):
                self._vectors[x] = np.asarray(v, dtype=np.float32)
        return {x: self._vectors[x] for x in ws}

    # ---- verdict -------------------------------------------------------------------------
    def judge(self, qa: QuestionAnalysis, units: Iterable[Unit], scope: Scope, *,
              reference: datetime | None = None) -> Coverage:
        """The best-covering unit and whether it covers enough to answer."""
        terms = self.terms(qa, scope)
        pool = list(units)
        # the people among the names the units say (a person is no value a "which N" asks)
        people = frozenset(self.store.speaker_words(
            {w.lower() for u in pool if u.node is not None for n in (u.node, *u.answers)
             for m in name_candidates(n.text) for w in m.group().split()}, scope)) \
            if qa.asked else frozenset()
        absent = [t for t in terms if t.absent]
        # (people, the question's own capitalised words and the later value a *before*
        # question names are never required)
        names = question_names(
            qa.text, [n for u in pool if u.node is not None for n in (u.node, *u.answers)],
            kept=[t.word for t in terms],
            skip=frozenset(t.word for t in terms if t.person or t.named)
            | frozenset(w.low for w in words(qa.anchor)) | self.lexicon.question_words,
            speakers=lambda said: self.store.speaker_words(said, scope))
        if _misses_a_name(qa, terms, absent):
            return Coverage(False, None, 0.0, [], terms, reason="a named thing is not in scope")
        if not terms:
            # Nothing but question words and values ("why not the 18th?"): a unit covers
            # it when it names those values and holds the kind asked.
            days = question_days(qa, reference)
            scored = [(1.0 if self.holds_family(qa, u) and (not days or on_days(
                u, [d for d, _ in days])) else 0.0, u) for u in pool]
        else:
            self._prefetch(terms, pool)
            scored = [(self.cover(qa, terms, u, reference=reference, people=people,
                                  names=names), u)
                      for u in pool]
        days = question_days(qa, reference)
        if days and scoped_by_days(qa):
            scored = [(dated_score(s, u, days), u) for s, u in scored]
        elif terms:
            scored = with_day_named([t.weight for t in terms], scored, days)
        scored.sort(key=lambda x: (-x[0], -x[1].score))
        best_score, best = scored[0] if scored else (0.0, None)
        return Coverage(best_score >= self.weights.min_coverage, best, best_score, scored,
                        terms)


_KINDS_KEPT = 4096
# The endings that make another word of a root ("shear": "shearers", "shearing").
_DERIVED = re.compile(r"(?:e?rs?|ing|ings|e?d|e?s|ations?|ments?|ors?|ists?|[ae]nces?|als?|"
                      r"ies|y)")


# A message putting something forward, in whatever words ("proposing Sat Oct 3", "how about
# the lake?", "could we do the 10th?"), matched as the analyzer matches its cues ("we can't"
# is no "we can").
_PROPOSES = _phrase_pattern(PROPOSAL_CUES)


@functools.lru_cache(maxsize=4096)
def _slot_kinds(text: str) -> frozenset[str]:
    return frozenset(s.kind.value for s in find_slots(text))


@functools.lru_cache(maxsize=4096)
def _candidates(told: str) -> tuple[str, ...]:
    """The words of ``told`` a question word may be a near synonym of."""
    # Function words are no near synonym of a subject word (and cost an embedding each).
    return tuple(x.low for x in words(told)
                 if len(x.low) > 2 and x.low.isalpha() and x.low not in STOPWORDS)


def _only_asks(unit: Unit) -> bool:
    """Whether ``unit`` is a message that only asks, with no answer and nobody taking it up."""
    node = unit.node
    return (node is not None and not unit.answers and not told_part(node.text).strip()
            and node.text.strip() not in unit.told)


def _answered(unit: Unit) -> bool:
    """Whether ``unit`` is a question with the answers it got, or an answer with the
    question it answers."""
    node = unit.node
    if node is None:
        return False
    if unit.answers:
        return bool(asked_part(node.text))
    return bool(node.context) and _ASKS.search(node.context) is not None


def _valued(group: set[str], qa: QuestionAnalysis) -> bool:
    """A group made only of value nouns (outside the terms) is answered by a value."""
    return not group & set(qa.terms)


def _dropped_heads(qa: QuestionAnalysis, dfs: dict[str, int],
                   light_heads: frozenset[str]) -> set[str]:
    """The question's light head nouns (lexicon data: "meeting", "session") that end a
    noun phrase whose earlier word the scope holds while it never holds them: a chat says
    "the postmortem" for "the postmortem meeting"; "the reserve *fund*" names another
    thing than "the reserve"."""
    lows = [w.low for w in words(qa.text)]
    out: set[str] = set()
    for i in range(1, len(lows)):
        word, before = lows[i], lows[i - 1]
        after = lows[i + 1] if i + 1 < len(lows) else ""
        if word in light_heads and dfs.get(word) == 0 and dfs.get(before, 0) > 0 \
                and after not in dfs:
            out.add(word)
    return out


def _misses_a_name(qa: QuestionAnalysis, terms: Sequence[Term],
                   missing: Sequence[Term]) -> bool:
    """Whether ``missing`` leaves one of the question's named things (not a person in
    scope) more than half unmatched: "Android 4.0" without "4.0"."""
    if not missing:
        return False
    gone = {m.word for m in missing if not m.person}
    persons = {t.word for t in terms if t.person}
    for name in qa.named:
        parts = [w.low for w in words(name)]
        if not parts or all(p in persons for p in parts):
            continue
        lost = sum(1 for p in parts if p in gone)
        if lost * 2 > len(parts) or (len(parts) == 1 and lost):
            return True
    return False
