"""The answer to the question asked: its first line says exactly what was asked.

Given what the question asks (:class:`~memory.analysis.question.QuestionAnalysis`) and the
units of evidence that cover it (:mod:`memory.reader.coverage`), the first line is

* *current*: the value in force (the state's current value, or the latest statement);
* *previous* / *original*: the value before the latest change (or before the change the
  question names) / the first value;
* *who*: the person — who changed or decided it (the speaker of that change), who holds it
  (the person its value names), who said it first, who did it;
* *when*: the date or time, resolved to a calendar date;
* *why*: the reason given in or beside the changing message;
* *list*: the values found, one per message;
* *fact*: the sentence that answers.

The lines after it hold the chain ("now X · was Y · was Z") and the evidence, attributed.
Only the state that answers is shown: states of other subjects are not appended. A state is
a chain of decisions; when a message newer than the state's last value states another value
of the kind asked (a revision the writer did not link), the newer statement wins.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memory.analysis.definitions import QuestionKind
from memory.analysis.message import MessageAnalysis, MessageAnalyzer
from memory.analysis.question import QuestionAnalysis, is_change_word, words
from memory.analysis.question_lexicon import SELF_WORDS, QuestionLexicon
from memory.models import ChainEntry, Citation, EvidenceNode, State
from memory.reader.answer import (
    best_clause,
    citation,
    current_value,
    day_label,
    split_sentences,
    value_day,
)
from memory.reader.coverage import (
    Coverage,
    CoverageTest,
    Unit,
    forms,
    told_part,
    unit_forms,
)
from memory.reader.dates import spoken_day
from memory.reader.extract import (
    ENDING_WORDS,
    Person,
    best_sentence,
    has_clock,
    person_answer,
    reason_in,
    time_range_end,
    value_in,
    when_in,
)
from memory.reader.reasons import Reasons, accepts
from memory.rewrite import resolved_dates
from memory.text import STOPWORDS, family_of, find_slots, has_revision_cue, shorten

# How much a state may cover less than the best message and still be the answer.
STATE_MARGIN = 0.15
# How close to the best coverage a message must come to count among the answering ones
# (earlier statements of a timeline are read more widely: they often use other words).
NEAR_BEST = 0.15
EVIDENCE_LINES = 2
# Slot kinds a question asking no particular kind of value may be answered with.
ANY_VALUE = ("money", "version", "date", "time", "region", "name", "number")
_TRAILING = " ,.;:!?)(\"'*"
QUOTE_CHARS = 200


@dataclass
class Composed:
    """An answer's lines, its short form, citations and the states it used."""

    lines: list[str]
    short: str
    citations: list[Citation] = field(default_factory=list)
    states: list[State] = field(default_factory=list)


@dataclass
class Statement:
    """What one unit states for a question: the answering sentence and who said it, the
    value of the kind asked, and a value it names as replaced."""

    unit: Unit
    node: EvidenceNode
    sentence: str
    value: str
    replaced: str


# How strongly a newer message must say a value changed to outrank a state's value (a
# keep word such as "still" is a weak signal, a move or a correction a strong one).
OVERRIDE_CHANGE = 0.5


def entry_value(entry: ChainEntry) -> str:
    """A chain value with the calendar day it means ("tomorrow at 12:00 (13 November
    2024)", "sept 26 (26 September 2025)")."""
    value = entry.value or shorten(entry.quote, 80)
    day = value_day(entry.value, entry.ts) or calendar_day(entry.value, entry.ts) \
        if entry.value else ""
    return f"{value} ({day})" if day and day not in value else value


def calendar_day(value: str, said: datetime) -> str:
    """The calendar day a when-value names, as said ("sept 26" → "26 September 2025");
    empty when it names none, or a range or month."""
    found = resolved_dates(value, said, prefer="future")
    if not found:
        return ""
    res = found[0][1]
    return res.spoken() if res.start == res.end else ""


def entry_label(entry: ChainEntry) -> str:
    """``"4 pm (Carmen, Nov 4)"``: a chain value with who stated it and when (and the day a
    relative value meant: ``"Friday 10am (8 November 2024; Alice, Nov 6)"``)."""
    who = entry.speaker.split()[0] if entry.speaker else "?"
    day = value_day(entry.value, entry.ts) if entry.value else ""
    value = entry.value or shorten(entry.quote, 80)
    meant = f"{day}; " if day else ""
    return f"{value} ({meant}{who}, {day_label(entry.ts)})"


def chain_line(state: State) -> str:
    """``"Atlas design review: now Friday 10am (…) · was 4 pm (Carmen, Nov 4)"``."""
    entries = [e for e in reversed(state.chain) if e.value]
    if not entries:
        return state.topic
    if len(entries) == 1:
        return f"{state.topic}: {entry_label(entries[0])}"
    parts = [f"now {entry_label(entries[0])}"] + [f"was {entry_label(e)}" for e in entries[1:]]
    return f"{state.topic}: " + " · ".join(parts)


def evidence_line(node: EvidenceNode) -> str:
    where = f"#{node.channel_name}" if node.channel_name else node.channel
    return f'{node.speaker} ({where}, {day_label(node.ts)}): "{shorten(node.text, QUOTE_CHARS)}"'


class Composer:
    """Builds the answer for one question from the covering units."""

    def __init__(self, *, lexicon: QuestionLexicon, coverage: CoverageTest,
                 analyzer: MessageAnalyzer) -> None:
        self.lexicon = lexicon
        self.coverage = coverage
        self.analyzer = analyzer
        self.reasons = Reasons(lexicon=lexicon, analyzer=analyzer)

    def compose(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                nodes: dict[str, EvidenceNode]) -> Composed:
        """The answer: from the state that answers, unless a newer message overrides it,
        else from the messages."""
        state = self.answering_state(qa, verdict, people)
        if qa.kind is QuestionKind.WHY:
            return self.why(qa, state, verdict, nodes)
        if state is not None and not self._overridden(qa, state, verdict, people):
            return self.from_state(qa, state, nodes, people)
        return self.from_units(qa, verdict, people, nodes)

    # ---- why ----------------------------------------------------------------------------
    def why(self, qa: QuestionAnalysis, state: State | None, verdict: Coverage,
            nodes: dict[str, EvidenceNode]) -> Composed:
        """The reason for the change asked about. With a state, the change in its chain
        (the one the question names) is known: its reason is given in so many words, in
        the turn it accepts, as the writer noted it, or beside its decision. Otherwise, or when
        that says nothing, the covering messages that use the question's change word come
        first ("why did apple *reject* 2.4" → "Apple rejected us. …"): a reason given in so
        many words, in a turn it accepts, or what the message says beside its change;
        else the best message whole."""
        decision = frozenset(f for c in qa.changes for f in forms(c))
        entry = self.deciding_entry(qa, state) if state is not None else None
        entry_node = nodes.get(entry.node_id) if entry is not None else None
        reason, source = "", None
        if entry is not None and entry_node is not None:
            reason = (self.reasons.cued(entry_node, nodes)
                      or self.reasons.accepted(entry_node.text, entry_node, nodes)
                      or self.reasons.noted(entry)
                      or self.reasons.beside(entry_node, nodes, value=entry.value,
                                             decision=decision))
            source = entry_node
        covering = self.covering(verdict)
        with_change = [u for u in covering if decision & unit_forms(u.told)]
        order = [n for u in with_change + [u for u in covering if u not in with_change]
                 if (n := self.reasons.speaker_of(u)) is not None]
        order = list({n.node_id: n for n in order}.values())
        if not reason:
            for n in order:
                named = bool(decision & unit_forms(n.text))
                reason = self.reasons.cued(n, nodes) or (
                    self.reasons.accepted(n.text, n, nodes)
                    or self.reasons.beside(n, nodes, decision=decision) if named else "")
                if reason:
                    source = n
                    break
        if not reason and order:
            source = order[0]
            reason = self.reasons.whole(source)
        if source is None:
            return Composed([], "")
        lines = [f"{shorten(reason, 300)} ({source.speaker}, {day_label(source.ts)})"]
        states = []
        if state is not None and source is entry_node:
            lines.append(chain_line(state))
            states = [state]
        lines.append(evidence_line(source))
        cites = [citation(source)] + [citation(n) for n in order[:2] if n is not source]
        return Composed(lines, reason, cites, states)

    # ---- choosing what answers -------------------------------------------------------------
    def answering_state(self, qa: QuestionAnalysis, verdict: Coverage,
                        people: Sequence[Person] = ()) -> State | None:
        """The state that answers, if one covers the question about as well as the best
        message and holds the kind of value asked."""
        if qa.kind is QuestionKind.WHO and qa.role in ("proposer", "rejecter", "doer"):
            return None
        if qa.kind is QuestionKind.WHEN and qa.past:
            return None
        threshold = self.coverage.weights.min_coverage
        best_node = max((s for s, u in verdict.units if u.state is None), default=0.0)
        wanted = {f for t in qa.terms for f in forms(t)}
        candidates = []
        for score, unit in verdict.units:
            state = unit.state
            if state is None or score < threshold or score < best_node - STATE_MARGIN:
                continue
            revised = len(state.chain) > 1
            if (qa.asks_change or qa.kind is QuestionKind.WHY) and not revised:
                continue  # a single value has no earlier one, nor a change to explain
            if not self._holds(qa, state):
                continue
            if qa.family == "person" and qa.role not in ("changer", "decider") and \
                    not _names_someone(state, people):
                continue  # who holds it: the state's value must name someone
            changed = bool(qa.changes) and _changed_by(state.chain[1:], qa) is not None
            named = len(wanted & unit_forms(state.topic))
            candidates.append((round(score * 20) / 20, changed, named, state.updated_at, state))
        if not candidates:
            return None
        # the better cover, then the change asked about, then the topic naming more of the
        # question ("release planning atlas" over "release branch"), then the newer
        candidates.sort(key=lambda c: (c[0], c[1], c[2], c[3]), reverse=True)
        return candidates[0][4]

    def _holds(self, qa: QuestionAnalysis, state: State) -> bool:
        """Whether a state's current value is of the kind asked ("where" by a region or a
        named choice, "when" by a date or time…)."""
        family = qa.family
        if not family or family in ("count", "person") or not state.chain:
            return True
        if qa.asks_clock and not has_clock(current_value(state)):
            return False  # the time of day is asked; the state holds a day
        held = family_of(current_value(state), state.chain[-1].quote)
        if held in self.lexicon.state_families.get(family, (family,)):
            return True
        # a value slots do not type ("the gym", "Bounce Bros") may be a place or a name;
        # a date or amount is not
        return family in ("where", "name") and held not in ("when", "amount", "version")

    def _overridden(self, qa: QuestionAnalysis, state: State, verdict: Coverage,
                    people: Sequence[Person]) -> bool:
        """Whether a message newer than the state's last value, covering the question as
        well, states another value of the kind asked: the state missed a revision."""
        if not state.chain or not (
                qa.kind in (QuestionKind.CURRENT, QuestionKind.WHEN)
                or (qa.kind is QuestionKind.WHO and qa.role == "owner")):
            return False
        last = state.chain[-1]
        current = unit_forms(last.value)
        kinds = {sl.kind for sl in find_slots(last.value)}
        day = calendar_day(last.value, last.ts) if qa.family == "when" else ""
        wanted = {f for t in qa.terms for f in forms(t)}
        for st in self.statements(qa, self.covering(verdict, wide=True), people):
            if st.node.ts <= last.ts or not st.value or unit_forms(st.value) <= current \
                    or st.node.node_id in {e.node_id for e in state.chain}:
                continue
            if day and day in st.value:
                continue  # the same day said again, maybe with its time
            if kinds and not kinds & {sl.kind for sl in find_slots(st.value)}:
                continue  # another kind of value: not a new value of this state
            analysis = self.analyzer.analyze(st.node.text, speaker=st.node.speaker)
            if analysis.changes < OVERRIDE_CHANGE and not has_revision_cue(st.node.text):
                continue  # a mention ("still UK first"), not a change the writer missed
            if _said_of(analysis, st.value, unit_forms(state.topic) | wanted):
                return True
        return False

    def covering(self, verdict: Coverage, *, wide: bool = False) -> list[Unit]:
        """The message units covering the question nearly as well as the best one (with
        ``wide``, every unit above the coverage threshold)."""
        threshold = self.coverage.weights.min_coverage
        scored = [(s, u) for s, u in verdict.units if u.node is not None]
        if not scored:
            return []
        top = max(s for s, _ in scored)
        floor = threshold if wide else max(threshold, top - NEAR_BEST)
        return [u for s, u in scored if s >= floor] or [scored[0][1]]

    # ---- state answers -------------------------------------------------------------------
    def from_state(self, qa: QuestionAnalysis, state: State, nodes: dict[str, EvidenceNode],
                   people: Sequence[Person]) -> Composed:
        chain = state.chain
        kind = qa.kind
        entry = chain[-1]
        if kind is QuestionKind.ORIGINAL:
            entry = next((e for e in chain if e.value), chain[0])
            first = short = (self._person_of(entry, people) if qa.family == "person"
                             else entry_value(entry))
        elif kind is QuestionKind.PREVIOUS:
            entry = self.previous_entry(qa, state)
            first = short = (self._person_of(entry, people) if qa.family == "person"
                             else entry_value(entry))
        elif kind is QuestionKind.WHO:
            entry = self.deciding_entry(qa, state)
            person = (self._person_of(chain[-1], people) if qa.role not in ("changer",
                                                                             "decider")
                      else entry.speaker)
            short = person
            first = f"{person}, {day_label(entry.ts)}: {entry_value(entry)}"
        else:
            first = short = entry_value(entry)
        lines = [first, chain_line(state)]
        cites: list[Citation] = []
        node = nodes.get(entry.node_id)
        if node is not None:
            lines.append(evidence_line(node))
        for e in [entry, *(e for e in reversed(chain) if e is not entry)]:
            n = nodes.get(e.node_id)
            if n is not None:
                cites.append(citation(n))
        return Composed(lines, short, cites, [state])

    def previous_entry(self, qa: QuestionAnalysis, state: State) -> ChainEntry:
        """The value before the first one naming the question's anchor ("before it moved
        to Tuesday", "before devon"), else before the latest value."""
        chain = [e for e in state.chain if e.value] or state.chain
        if len(chain) == 1:
            return chain[0]
        anchor = _value_words(qa.anchor, self.lexicon)
        if anchor:
            for i in range(1, len(chain)):
                if anchor & unit_forms(chain[i].value):
                    return chain[i - 1]
        return chain[-2]

    def deciding_entry(self, qa: QuestionAnalysis, state: State) -> ChainEntry:
        """The entry a *who* or *why* question is about: the change reaching a value it
        names ("who moved it to the 22nd") or leaving one ("why did it move off Thursday"),
        else the change its verb names, else the latest change, else the decision."""
        chain = state.chain
        left, reached = _anchors(qa, self.lexicon)
        for i in range(len(chain) - 1, 0, -1):
            if left and left & unit_forms(chain[i - 1].value):
                return chain[i]
        for i in range(len(chain) - 1, -1, -1):
            if reached and reached & unit_forms(chain[i].value):
                return chain[i]
        if qa.kind is QuestionKind.WHO and qa.role == "decider":
            current = chain[-1].value
            return next(e for e in chain if e.value == current)
        changed = _changed_by(chain[1:], qa)
        return changed if changed is not None else chain[-1]

    def _person_of(self, entry: ChainEntry, people: Sequence[Person]) -> str:
        """The person a value names ("Devon", "me" → the speaker)."""
        value = entry.value or entry.quote
        lows = {w.low for w in words(value)}
        for p in people:
            if p.keys & lows:
                return p.name
        if lows & SELF_WORDS:
            return entry.speaker
        return entry.value or entry.speaker

    # ---- message answers ------------------------------------------------------------------
    def from_units(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                   nodes: dict[str, EvidenceNode]) -> Composed:
        """The answer from messages: their statements in time order, the latest for what
        is current, the first for what was original, the one before the latest distinct
        value (or before the first naming the question's anchor) for what it was before."""
        kind = qa.kind
        wide = qa.asks_change or (self._latest_wins(qa) and kind is not QuestionKind.WHO)
        covering = self.covering(verdict, wide=wide)
        if not covering:
            return Composed([], "")
        if qa.changes and kind in (QuestionKind.WHY, QuestionKind.WHO):
            # the message whose words name the change asked about comes first
            wanted = {f for c in qa.changes for f in forms(c)}
            covering.sort(key=lambda u: not wanted & unit_forms(u.told))
        statements = self.statements(qa, covering, people)
        chosen = self._choose(qa, statements)
        node = chosen.node
        day = day_label(node.ts)
        if kind is QuestionKind.WHO:
            person = self._who_from(qa, chosen)
            first = f"{person} ({day}): {shorten(chosen.sentence, 160)}"
            short = person
        elif kind is QuestionKind.LIST:
            items = [f"{st.value or shorten(st.sentence, 120)} ({st.node.speaker})"
                     for st in statements[:5]]
            first = short = "; ".join(dict.fromkeys(items))
        elif qa.family == "when" or kind is QuestionKind.WHEN:
            first = short = self.when_of(qa, chosen)
        elif chosen.value:
            first = f"{chosen.value} ({node.speaker}, {day})"
            short = chosen.value
        else:
            short = best_clause(qa.text, chosen.sentence)
            first = f"{shorten(chosen.sentence, 200)} ({node.speaker}, {day})"
        lines = [first]
        cites: list[Citation] = []
        for u in [chosen.unit, *(u for u in covering if u is not chosen.unit)][:EVIDENCE_LINES]:
            n = u.node
            assert n is not None
            shown = best_answer(u.answers, n, qa) if u.answers and _asks(n.text) and \
                kind is not QuestionKind.WHY else n
            lines.append(evidence_line(shown))
            cites.append(citation(shown))
            if shown is not n:
                cites.append(citation(n))
        return Composed(lines, short, cites, [])

    def _choose(self, qa: QuestionAnalysis, statements: Sequence[Statement]) -> Statement:
        kind = qa.kind
        if kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL):
            return self._earlier(qa, statements)
        if self._latest_wins(qa):
            wanted = {f for t in qa.terms for f in forms(t)}
            about = list(statements)
            if qa.kind is QuestionKind.WHO:
                # who holds it now: a message that names the role, not one that only
                # borrows it from the turn it answers
                about = [st for st in statements if wanted & unit_forms(st.sentence)] or about
            valued = [st for st in about if st.value or self._reports_done(qa, st)] or about
            if qa.asks_clock:
                valued = [st for st in valued if has_clock(st.value or st.sentence)] or valued
            return max(valued, key=lambda st: (st.node.ts, st.node.seq))
        if qa.kind is QuestionKind.WHO and qa.role == "rejecter":
            turned = [st for st in statements if any(
                accepts(a.text, self.lexicon.reject) for a in st.unit.answers)]
            if turned:
                return turned[0]
        return statements[0]

    def _reports_done(self, qa: QuestionAnalysis, st: Statement) -> bool:
        """Whether, for "when did X happen", ``st`` reports that it happened: its day
        answers."""
        return (qa.kind is QuestionKind.WHEN and qa.past and not _asks(st.sentence)
                and self.lexicon.done.search(st.sentence) is not None)

    def _latest_wins(self, qa: QuestionAnalysis) -> bool:
        """Whether the newest statement answers: a value in force now, when something
        happens or happened (its last word), who holds a role now."""
        if qa.kind is QuestionKind.CURRENT:
            return True
        if qa.kind is QuestionKind.WHEN:
            return True
        return qa.kind is QuestionKind.WHO and qa.role == "owner" and not qa.past

    def _earlier(self, qa: QuestionAnalysis, statements: Sequence[Statement]) -> Statement:
        """The earlier statement asked for: the first (original); the one before the first
        naming the question's anchor value ("before devon"); the one before the latest
        change ("before it got pushed": the latest message using a change word of the
        question, or any word of change); else the one before the latest value; a single
        statement's replaced value ("X instead of Y")."""
        timeline = sorted((st for st in statements if st.value),
                          key=lambda st: (st.node.ts, st.node.seq))
        if not timeline:
            return statements[0]
        if qa.kind is QuestionKind.ORIGINAL:
            return timeline[0]
        anchor = _value_words(qa.anchor, self.lexicon)
        if anchor:
            for i, st in enumerate(timeline):
                if i > 0 and anchor & unit_forms(st.value):
                    return _before(timeline, i)
        changes = {f for w in words(qa.anchor) if is_change_word(w.low, self.lexicon)
                   for f in forms(w.low)} | {f for c in qa.changes for f in forms(c)}
        for i in range(len(timeline) - 1, 0, -1):
            text = timeline[i].node.text
            if (changes and changes & unit_forms(text)) or has_revision_cue(text):
                return _before(timeline, i)
        before = _before(timeline, len(timeline) - 1)
        if before is not timeline[-1]:
            return before
        last = timeline[-1]
        if last.replaced:
            return Statement(last.unit, last.node, last.sentence, last.replaced, "")
        return last

    def statements(self, qa: QuestionAnalysis, units: Sequence[Unit],
                   people: Sequence[Person]) -> list[Statement]:
        return [self.statement(qa, u, people) for u in units]

    def statement(self, qa: QuestionAnalysis, unit: Unit, people: Sequence[Person]
                  ) -> Statement:
        """What ``unit`` states in answer to ``qa``: its answering sentence, the value of the
        kind asked that the message states *about the question's subject* (the message
        analyzer gives each value its subject: in "Honk Squad takes the Frostbyte Cup, full
        results later this week" the week is the results'), and a value it names as
        replaced. Without values the analyzer recognises, the value nearest the question's
        words."""
        source, node = self._answering_text(qa, unit)
        sentence = best_sentence(qa, source)
        names = [p.name for p in people]
        analysis = self.analyzer.analyze(source, speaker=node.speaker, people=names)
        if qa.family == "person" or qa.kind is QuestionKind.WHO:
            claimed = self._claim(qa, analysis, ("person",))
            person = (claimed[0] if claimed and claimed[0] else
                      person_answer(sentence, node.speaker, people, qa))
            return Statement(unit, node, claimed[2] if claimed else sentence, person,
                             claimed[1] if claimed else "")
        kinds = self.lexicon.claim_kinds.get(qa.family, ())
        if not qa.family and not (qa.asks_change or qa.kind is QuestionKind.CURRENT):
            kinds = ()
        claimed = None
        if kinds and qa.asks_clock:
            claimed = self._claim(qa, analysis, kinds, clock=True)
            claimed = claimed if claimed is not None and claimed[0] else None
        if claimed is None and kinds:
            claimed = self._claim(qa, analysis, kinds)
        if claimed is not None:
            value, replaced, where = claimed
            if value and qa.family == "when":
                text, day = when_in(qa, where, node.ts, prefer=self._prefer(qa))
                value = f"{value} ({day})" if day and day not in value else value
            return Statement(unit, node, where or sentence, value, replaced)
        slots = self.lexicon.answering_slots.get(qa.family, ())
        if not slots and (qa.asks_change or qa.kind is QuestionKind.CURRENT):
            slots = ANY_VALUE
        value, replaced = value_in(qa, sentence, slots)
        if not value and slots:
            for other in split_sentences(source):
                if other != sentence:
                    value, replaced = value_in(qa, other, slots)
                    if value:
                        sentence = other
                        break
        if value and qa.family == "when":
            text, day = when_in(qa, sentence, node.ts, prefer=self._prefer(qa))
            value = f"{text} ({day})" if text and day else text or value
        return Statement(unit, node, sentence, value, replaced)

    def _claim(self, qa: QuestionAnalysis, analysis: MessageAnalysis,
               kinds: Sequence[str], *, clock: bool = False) -> tuple[str, str, str] | None:
        """(value, replaced value, clause text) of the claim of one of ``kinds`` (holding
        a time of day with ``clock``) whose subject shares the most words with the
        question; ("", "", "") when the message states such values only about other
        things; None when it states none."""
        if clock:
            analysis = dataclasses.replace(analysis, clauses=tuple(
                dataclasses.replace(c, claims=tuple(
                    cl for cl in c.claims if has_clock(cl.value.text)))
                for c in analysis.clauses))
        wanted = {f for t in qa.terms for f in forms(t)}
        asked = unit_forms(" ".join([*qa.named, *qa.terms]))
        best: tuple[int, int, str, str, str] | None = None
        found = False
        whole = unit_forms(analysis.subject)
        for clause in analysis.clauses:
            around = unit_forms(" ".join([clause.subject, clause.label]))
            for i, claim in enumerate(clause.claims):
                if claim.value.kind.value not in kinds:
                    continue
                if unit_forms(claim.value.text) <= asked:
                    continue  # the question's own words are not its answer ("2.4")
                found = True
                own = unit_forms(claim.subject) | around
                # a value said of nothing in particular may be about the message's subject
                score = len(wanted & own) or (1 if not claim.subject and not clause.subject
                                              and wanted & (whole | asked) else 0)
                if score == 0:
                    continue
                old = next((v.text for v in clause.old if v.kind == claim.value.kind), "")
                rank = (score, -i, claim.value.text, old, clause.text)
                if best is None or rank[:2] > best[:2]:
                    best = rank
        if best is not None:
            return best[2].strip(_TRAILING), best[3].strip(_TRAILING), best[4]
        if found and wanted & whole:
            # the message is about the question's subject and a clause that names no
            # subject of its own goes on about it ("workshop deadline got extended!! now
            # sept 26 …"): its value is the subject's
            for clause in analysis.clauses:
                if clause.subject:
                    continue
                for claim in clause.claims:
                    if claim.value.kind.value in kinds and not unit_forms(
                            claim.value.text) <= asked:
                        old = next((v.text for v in clause.old
                                    if v.kind == claim.value.kind), "")
                        return (claim.value.text.strip(_TRAILING), old.strip(_TRAILING),
                                clause.text)
        return ("", "", "") if found else None

    def _who_from(self, qa: QuestionAnalysis, chosen: Statement) -> str:
        """Who a message-based *who* answer names: who turned a proposal down or accepted
        it (the answer that does so), who made a change (its speaker), else the person the
        answering sentence names, or its speaker."""
        unit = chosen.unit
        if qa.role in ("rejecter", "decider") and unit.answers:
            openers = self.lexicon.reject if qa.role == "rejecter" else self.lexicon.accept
            for a in unit.answers:
                if accepts(a.text, openers):
                    return a.speaker
        if qa.role in ("changer", "decider"):
            return chosen.node.speaker
        return chosen.value or chosen.node.speaker

    def _answering_text(self, qa: QuestionAnalysis, unit: Unit
                        ) -> tuple[str, EvidenceNode]:
        """The text that answers in ``unit`` and who said it: a question's answer when the
        unit asks and got one (not for *why*: the asking message holds the reason)."""
        node = unit.node
        assert node is not None
        if unit.answers and _asks(node.text) and qa.kind is not QuestionKind.WHY and \
                not qa.asks_change:
            answer = best_answer(unit.answers, node, qa)
            return answer.text, answer
        return node.text, node

    def _prefer(self, qa: QuestionAnalysis) -> str:
        """How a relative day in an answer resolves: back for a past event, forward for a
        plan (values, including earlier values, are plans when stated)."""
        return "past" if qa.past and not qa.asks_change and qa.kind is QuestionKind.WHEN \
            else "future"

    def when_of(self, qa: QuestionAnalysis, chosen: Statement) -> str:
        """The when-answer: for a past event the resolved day (with the time when asked),
        else the day the message was said; for a plan, the value as written with the day
        it resolves to ("wed 8-18 (17 September 2025)")."""
        node = chosen.node
        text, day = when_in(qa, chosen.sentence, node.ts, prefer=self._prefer(qa))
        asks_time = qa.asks_clock
        ending = bool(ENDING_WORDS & set(qa.terms))
        clock = time_range_end(chosen.sentence) if ending else ""
        if self._prefer(qa) == "past":
            day = day or spoken_day(node.ts)
            if asks_time or ending:
                clock = clock or (text if text and not any(ch.isalpha() for ch in text)
                                  else "")
                return f"{clock}, {day}" if clock else day
            return day
        if ending and clock:
            return f"{clock} ({day})" if day else clock
        if text:
            return f"{text} ({day})" if day and day not in text else text
        return chosen.value or spoken_day(node.ts)


def _said_of(analysis: MessageAnalysis, value: str, subject: frozenset[str]) -> bool:
    """Whether the message states ``value`` of ``subject``: the value's subject, or the
    message's when its clause names none, shares a word with it; or the clause points back
    at something named before ("we're calling *it* 2.4")."""
    taken = {f for c in analysis.clauses for cl in c.claims if cl.subject
             for f in unit_forms(cl.subject)}
    for clause in analysis.clauses:
        for claim in clause.claims:
            if not claim.value.text or claim.value.text.lower() not in value.lower():
                continue
            # A subject borrowed from a header ("Atlas: Callum is off from 1 Nov") says
            # the value is about something under that header, not about the header's
            # thing itself: the clause's own words must name the state.
            heading = unit_forms(claim.heading) if claim.heading else frozenset()
            own = " ".join(w for w in f"{claim.subject} {clause.subject}".split()
                           if not unit_forms(w) <= heading)
            about = own or f"{claim.subject} {clause.subject}"
            if not clause.subject and not unit_forms(analysis.subject) & taken:
                # a clause naming nothing goes on about the message's subject, unless
                # another value of the message is already said of it
                about += f" {analysis.subject}"
            return bool(unit_forms(about) & subject) or clause.pointer
    return False


def best_answer(answers: Sequence[EvidenceNode], question: EvidenceNode,
                qa: QuestionAnalysis) -> EvidenceNode:
    """Of the turns answering ``question``, the one that says the most of what both
    questions are about ("yes, we should open it up" over "lol nice"); the first on ties.
    Questions answer nothing."""
    told = [a for a in answers if told_part(a.text)] or list(answers)
    wanted = unit_forms(question.text) | {f for t in qa.terms for f in forms(t)}
    return max(told, key=lambda a: (len(wanted & unit_forms(a.text)),
                                    len(words(a.text)) > 3, -told.index(a)))


def _before(timeline: Sequence[Statement], i: int) -> Statement:
    """The latest statement before ``timeline[i]`` with another value; ``timeline[i]``'s
    replaced value when none has one."""
    current = unit_forms(timeline[i].value)
    for st in reversed(timeline[:i]):
        if unit_forms(st.value) != current:
            return st
    st = timeline[i]
    if st.replaced:
        return Statement(st.unit, st.node, st.sentence, st.replaced, "")
    return st


def _names_someone(state: State, people: Sequence[Person]) -> bool:
    """Whether a state's values name a person the scope knows, a speaker speaking of
    themselves, or a named party ("Prairie Gold Mills")."""
    values = " ".join(e.value for e in state.chain if e.value)
    lows = {w.low for w in words(values)}
    if lows & SELF_WORDS or any(p.keys & lows for p in people):
        return True
    return any(w.text[:1].isupper() for w in words(values))


def _anchors(qa: QuestionAnalysis, lexicon: QuestionLexicon) -> tuple[set[str], set[str]]:
    """The value words of the values a question names, split into those a change left
    ("off Thursday", "from the 15th") and those it reached."""
    low = qa.text.lower()
    left: set[str] = set()
    reached: set[str] = set()
    for expr in [*qa.dates, *qa.named, qa.anchor]:
        if not expr:
            continue
        at = low.find(expr.lower())
        before = low[max(0, at - 12): at] if at >= 0 else ""
        target = left if any(before.rstrip().endswith(w) for w in lexicon.left_value) \
            else reached
        target |= _value_words(expr, lexicon)
    return left, reached


def _changed_by(entries: Sequence[ChainEntry], qa: QuestionAnalysis) -> ChainEntry | None:
    """The latest of ``entries`` whose message uses a change word of the question
    ("postponed" for "why did we postpone…")."""
    wanted = {f for c in qa.changes for f in forms(c)}
    if not wanted:
        return None
    for e in reversed(entries):
        if wanted & unit_forms(e.quote):
            return e
    return None


def _value_words(text: str, lexicon: QuestionLexicon) -> set[str]:
    """The words of an anchor that can name a value ("it got moved to tuesday" →
    "tuesday"): not change words, not pronouns or stopwords."""
    out: set[str] = set()
    for w in words(text):
        if w.low in STOPWORDS or w.low in lexicon.question_words or \
                is_change_word(w.low, lexicon):
            continue
        out |= forms(w.low)
    return out


def _asks(text: str) -> bool:
    """Whether a message asks something (a question, or a proposal put as one)."""
    return "?" in text


__all__ = ["Composed", "Composer", "Statement", "chain_line", "entry_label", "reason_in"]
