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

from collections.abc import Mapping, Sequence
from datetime import timedelta

from memory.analysis.definitions import QuestionKind
from memory.analysis.matching import measure, same_measure, siblings, values_match
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import SELF_WORDS, QuestionLexicon
from memory.models import ChainEntry, Citation, EvidenceNode, State
from memory.reader.answer import best_clause, citation, current_value, day_label
from memory.reader.answer_parts import (
    ACCEPTED_WITHIN,
    EVIDENCE_LINES,
    NEAR_BEST,
    OVERRIDE_CHANGE,
    STATE_MARGIN,
    Composed,
    Statement,
    _anchors,
    _asks,
    _changed_by,
    _names_someone,
    _said_of,
    _value_words,
    best_answer,
    calendar_day,
    chain_line,
    confirm_line,
    entry_label,
    entry_value,
    evidence_line,
)
from memory.reader.before_first import left_by_first, with_value_before
from memory.reader.coverage import Coverage, CoverageTest, Unit, forms, unit_forms
from memory.reader.extract import (
    Person,
    has_clock,
    reason_in,
)
from memory.reader.reasons import Reasons, accepts
from memory.reader.statements import StatementReader
from memory.text import family_of, find_slots, has_revision_cue, names_value, shorten


def _names(anchor: set[str], value: str) -> bool:
    """Whether ``value`` is the value an anchor of the question names: it shares a word,
    and every number the anchor holds ("sep 2" is not "tue sep 9")."""
    have = unit_forms(value)
    numbers = {w for w in anchor if w.isdigit()}
    return bool(anchor & have) and numbers <= have


def _teller(reason: str, node: EvidenceNode, nodes: dict[str, EvidenceNode]) -> EvidenceNode:
    """Who said ``reason``: ``node``, or the context turn it was taken from (a reason in
    the turn a change accepts is that speaker's words)."""
    if not reason or reason.lower() in node.text.lower():
        return node
    low = reason.lower()
    return next((t for i in node.context_ids if (t := nodes.get(i)) is not None
                 and low in t.text.lower()), node)


class Composer(StatementReader):
    """Builds the answer for one question from the covering units."""

    def __init__(self, *, lexicon: QuestionLexicon, coverage: CoverageTest,
                 analyzer: MessageAnalyzer) -> None:
        self.lexicon = lexicon
        self.coverage = coverage
        self.analyzer = analyzer
        self.reasons = Reasons(lexicon=lexicon, analyzer=analyzer)

    def compose(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                nodes: dict[str, EvidenceNode], *,
                before: Mapping[str, Sequence[EvidenceNode]] | None = None) -> Composed:
        """The answer: from the state that answers, unless a newer message overrides it,
        else from the messages."""
        state = self.answering_state(qa, verdict, people)
        if state is not None and qa.kind in (QuestionKind.WHY, QuestionKind.WHO):
            state = self._with_plan_before(qa, state, verdict, people)
        if qa.kind is QuestionKind.WHY:
            return self.why(qa, state, verdict, nodes, before=before or {})
        if state is not None and not self._overridden(qa, state, verdict, people):
            if qa.kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL):
                state = self._with_plan_before(qa, state, verdict, people)
            composed = self.from_state(qa, state, nodes, people)
        else:
            composed = self.from_units(qa, verdict, people, nodes)
        return self.confirmed(qa, composed, nodes) if qa.confirm else composed

    def confirmed(self, qa: QuestionAnalysis, composed: Composed,
                  nodes: dict[str, EvidenceNode]) -> Composed:
        """A "still …?" question is answered yes or no from the latest change of that
        thing's state (its status or new value, who and when)."""
        if composed.states and composed.states[0].chain:
            entry = composed.states[0].chain[-1]
            node = nodes.get(entry.node_id)
            value, speaker, ts = entry_value(entry), entry.speaker, entry.ts
            text = node.text if node is not None else entry.quote
        elif composed.citations:
            cited = composed.citations[0]
            value, speaker, ts = composed.short, cited.speaker, cited.ts
            node = nodes.get(cited.node_id)
            text = node.text if node is not None else cited.quote
        else:
            return composed
        first = confirm_line(qa, value=value, text=text, said=f"({speaker}, {day_label(ts)})",
                             lexicon=self.lexicon)
        return Composed([first, *composed.lines[1:]], first.split(" (")[0],
                        composed.citations, composed.states)

    # ---- why ----------------------------------------------------------------------------
    def why(self, qa: QuestionAnalysis, state: State | None, verdict: Coverage,
            nodes: dict[str, EvidenceNode], *,
            before: Mapping[str, Sequence[EvidenceNode]] | None = None) -> Composed:
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
        left, _ = _anchors(qa, self.lexicon)
        if entry is not None and entry_node is not None:
            reason = (self.reasons.blocking(entry_node.text, left)
                      or self.reasons.cued(entry_node, nodes)
                      or self.reasons.accepted(entry_node.text, entry_node, nodes)
                      or self.reasons.noted(entry)
                      or self.reasons.beside(entry_node, nodes, value=entry.value,
                                             decision=decision))
            source = _teller(reason, entry_node, nodes)
            if not reason:
                reason, turn = self.reasons.before(
                    entry_node, (before or {}).get(entry_node.node_id, ()),
                    left=self._left_value(state, entry))
                source = turn or entry_node
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
                    source = _teller(reason, n, nodes)
                    break
        if not reason and order:
            source = order[0]
            reason = self.reasons.whole(source)
        if source is None:
            return Composed([], "")
        lines = [f"{shorten(reason, 300)} ({source.speaker}, {day_label(source.ts)})"]
        states = []
        if state is not None and entry_node is not None and (
                source is entry_node or source.node_id in entry_node.context_ids):
            lines.append(chain_line(state))
            states = [state]
        lines.append(evidence_line(source))
        cites = [citation(source)] + [citation(n) for n in order[:2] if n is not source]
        return Composed(lines, reason, cites, states)

    @staticmethod
    def _left_value(state: State | None, entry: ChainEntry) -> str:
        """The value ``entry`` replaced in ``state``'s chain ("" for its first decision)."""
        if state is None:
            return ""
        ids = [e.node_id for e in state.chain]
        at = ids.index(entry.node_id) if entry.node_id in ids else 0
        return entry_value(state.chain[at - 1]) if at > 0 else ""

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
        # "why did shipping slip *to the 18th*": only a chain that reached the 18th
        _, reached = _anchors(qa, self.lexicon) if qa.kind in (
            QuestionKind.WHY, QuestionKind.WHO) else (set(), set())
        candidates = []
        for score, unit in verdict.units:
            state = unit.state
            if state is None or score < threshold or score < best_node - STATE_MARGIN:
                continue
            if (qa.asks_change or qa.kind is QuestionKind.WHY) and len(state.chain) < 2 \
                    and not left_by_first(state, self.analyzer):
                continue  # a single value has no earlier one, nor a change to explain
            if not self._holds(qa, state):
                continue
            if reached and not any(_names(reached, e.value) for e in state.chain):
                continue
            if qa.family == "person" and qa.role not in ("changer", "decider") and \
                    not _names_someone(state, people):
                continue  # who holds it: the state's value must name someone
            changed = bool(qa.changes) and _changed_by(state.chain[1:], qa) is not None
            topic = unit_forms(state.topic)
            named = len(wanted & topic)
            # the thing asked about, not a thing of it ("playtest" over "playtest feedback
            # survey" for "when is the playtest?")
            same = not (qa.subject and siblings(qa.subject, state.topic))
            candidates.append((round(score * 20) / 20, changed, named, same, state.updated_at,
                               state))
        if not candidates:
            return None
        # the better cover, then the change asked about, then the topic naming more of the
        # question ("release planning atlas" over "release branch"), then the thing itself,
        # then the newer
        candidates.sort(key=lambda c: (c[0], c[1], c[2], c[3], c[4]), reverse=True)
        return candidates[0][5]

    def _holds(self, qa: QuestionAnalysis, state: State) -> bool:
        """Whether a state's current value is of the kind asked ("where" by a region or a
        named choice, "when" by a date or time…)."""
        family = qa.family
        if qa.kind is QuestionKind.WHO and qa.role in ("changer", "decider"):
            # "who changed the pilot's *location*": a state holding a place was changed
            named = [self.lexicon.attributes[a] for a in qa.attributes
                     if self.lexicon.attributes.get(a, "person") != "person"]
            family = named[0] if named else ""
        if family in ("count", "money") and state.chain:
            # "how many" is not answered by a price, nor "how much" by a count of things
            held = next((e.value for e in reversed(state.chain) if measure(e.value)), "")
            if measure(held) not in (family, ""):
                return False
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
        # the unit of the chain's values: "7" said alone counts what "6 NEOs" counted
        held = next((e.value for e in reversed(state.chain) if measure(e.value)), last.value)
        # families, not kinds: "Thursday 3 pm" (a date) is replaced by "4:30pm" (a time)
        kinds = {sl.family for sl in find_slots(last.value)}
        day = calendar_day(last.value, last.ts) if qa.family == "when" else ""
        wanted = {f for t in qa.terms for f in forms(t)}
        for st in self.statements(qa, self.covering(verdict, wide=True), people):
            if st.node.ts <= last.ts or not st.value or unit_forms(st.value) <= current \
                    or st.node.node_id in {e.node_id for e in state.chain}:
                continue
            if day and day in st.value:
                continue  # the same day said again, maybe with its time
            if kinds and not kinds & {sl.family for sl in find_slots(st.value)}:
                continue  # another kind of value: not a new value of this state
            if not same_measure(st.value, held):
                continue  # a price is no new count ("1 NEO $60" of "7" NEOs)
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
                      else (self._accepted_from(entry, nodes) if qa.role == "changer"
                            else "") or entry.speaker)
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

    def _with_plan_before(self, qa: QuestionAnalysis, state: State, verdict: Coverage,
                          people: Sequence[Person]) -> State:
        """The state with the value it had before its first entry, when one is known
        (see :func:`memory.reader.before_first.with_value_before`)."""
        earlier = [u.node for u in self.covering(verdict, wide=True) if u.node is not None]
        return with_value_before(qa, state, earlier, self.analyzer)

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
            if _names(left, chain[i - 1].value):
                return chain[i]
        for i in range(len(chain) - 1, -1, -1):
            if _names(reached, chain[i].value):
                return chain[i]
        if qa.kind is QuestionKind.WHO and qa.role == "decider":
            current = chain[-1].value
            return next(e for e in chain if e.value == current)
        changed = _changed_by(chain[1:], qa)
        return changed if changed is not None else chain[-1]

    def _accepted_from(self, entry: ChainEntry, nodes: dict[str, EvidenceNode]) -> str:
        """Whose change a revision carries out when it accepts what someone else said
        shortly before in its channel, naming the same value ("ok, updating the plan to
        Lisbon" after "let's run it in Portugal, the Lisbon team has capacity"): that
        person made the change; "" otherwise."""
        node = nodes.get(entry.node_id)
        if node is None or not entry.value or not accepts(node.text, self.lexicon.accept):
            return ""
        said = [n for n in nodes.values()
                if n.channel == node.channel and n.speaker != node.speaker
                and timedelta(0) < node.ts - n.ts <= ACCEPTED_WITHIN
                and names_value(n.text, entry.value)]
        return max(said, key=lambda n: n.ts).speaker if said else ""

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
    def _moved_on(self, qa: QuestionAnalysis, chosen: Statement, verdict: Coverage
                  ) -> State | None:
        """The state whose value the chosen message set, when a later message replaced it:
        what is in force now is that state's current value, not the message's ("meet at the
        front lot" → "bus loop then")."""
        # "what was the Dec 31 balance?" asks the value of a fact, corrected or not; "when
        # did it happen" asks its day, which a later plan does not move
        if qa.kind not in (QuestionKind.CURRENT, QuestionKind.WHEN, QuestionKind.FACT) or (
                qa.past and qa.kind is QuestionKind.WHEN):
            return None
        wanted = {f for t in qa.terms for f in forms(t)}
        for _, unit in verdict.units:
            state = unit.state
            if state is None or len(state.chain) < 2:
                continue
            asked = self._holds(qa, state) and bool(wanted & unit_forms(state.topic))
            now = entry_value(state.chain[-1])
            for entry in state.chain[:-1]:
                if values_match(entry_value(entry), now):
                    continue  # said again since, not replaced
                same = values_match(entry_value(entry), chosen.value) if chosen.value else False
                if entry.node_id == chosen.node.node_id and (same or asked and not chosen.value):
                    # the message set a value a later one replaced; without a value read
                    # from it, the state must be what is asked about
                    return state
                if same and asked and chosen.node.ts <= state.chain[-1].ts:
                    # another message restating a value the chain has since left ("12 hires
                    # before the A closes" after the plan's "12 hires" became 10)
                    return state
        return None

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
        if kind is QuestionKind.FACT:
            chosen = self._corrected(qa, chosen, self.statements(
                qa, self.covering(verdict, wide=True), people))
        moved_on = self._moved_on(qa, chosen, verdict)
        if moved_on is not None:
            return self.from_state(qa, moved_on, nodes, people)
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


__all__ = ["Composed", "Composer", "Statement", "chain_line", "entry_label", "reason_in"]
