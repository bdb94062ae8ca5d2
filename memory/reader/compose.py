"""The answer to the question asked: its first line says exactly what was asked.

Given what the question asks (:class:`~memory.analysis.question.QuestionAnalysis`) and the
units of evidence that cover it (:mod:`memory.reader.coverage`), the first line is

* *current*: the state's current value (or the value the best message states);
* *previous* / *original*: the value before the latest change (or before the change the
  question names) / the chain's first value;
* *who*: the person — who changed or decided it (the speaker of that revision), who owns
  it (the person its value names), who said it first, who did it;
* *when*: the date or time, resolved to a calendar date;
* *why*: the reason given in or beside the revising message;
* *list*: the values found, one per state or message;
* *fact*: the sentence that answers.

The lines after it hold the chain ("now X · was Y · was Z") and the evidence, attributed.
Only the state that answers is shown: states of other subjects are not appended.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import QuestionLexicon
from memory.models import ChainEntry, Citation, EvidenceNode, State
from memory.reader.answer import (
    best_clause,
    citation,
    current_value,
    day_label,
    split_sentences,
    value_day,
)
from memory.reader.coverage import Coverage, CoverageTest, Unit, forms, unit_forms
from memory.reader.dates import spoken_day
from memory.reader.extract import (
    Person,
    best_sentence,
    person_answer,
    places_in,
    reason_in,
    time_in,
)
from memory.rewrite import resolved_dates
from memory.text import Slot, family_of, find_slots, has_revision_cue, shorten

# How much a state may cover less than the best message and still be the answer: a state
# is the decision with its history, a message only one turn of it.
STATE_MARGIN = 0.15
# How close to the best coverage a message must come to count among the answering ones.
NEAR_BEST = 0.15
# Evidence lines shown under the answer.
EVIDENCE_LINES = 2
QUOTE_CHARS = 200
# Words before a value that mark it as the value replaced, not the one stated.
_REPLACED = re.compile(r"(?:\bnot|\binstead of|\bfrom|\bwas|\brather than|\bno longer)\s*$",
                       re.IGNORECASE)


@dataclass
class Composed:
    """An answer's text, its short form, citations and the states it used."""

    lines: list[str]
    short: str
    citations: list[Citation] = field(default_factory=list)
    states: list[State] = field(default_factory=list)


def entry_label(entry: ChainEntry) -> str:
    """``"4 pm (Carmen, Nov 4)"``: a chain value with who stated it and when (and the day a
    relative value meant: ``"Friday 10am (8 November 2024; Alice, Nov 6)"``)."""
    who = entry.speaker.split()[0] if entry.speaker else "?"
    day = value_day(entry.value, entry.ts) if entry.value else ""
    value = entry.value or shorten(entry.quote, 80)
    meant = f"{day}; " if day else ""
    return f"{value} ({meant}{who}, {day_label(entry.ts)})"


def entry_value(entry: ChainEntry) -> str:
    """A chain entry's value with the day a relative value meant ("tomorrow at 12:00 (13
    November 2024)")."""
    day = value_day(entry.value, entry.ts) if entry.value else ""
    value = entry.value or shorten(entry.quote, 80)
    return f"{value} ({day})" if day else value


def chain_line(state: State) -> str:
    """``"Atlas design review: now Friday 10am (Alice, Nov 6) · was 4 pm (Carmen, Nov 4)"``."""
    entries = [e for e in reversed(state.chain) if e.value]
    if not entries:
        return state.topic
    parts = [f"now {entry_label(entries[0])}"] + [f"was {entry_label(e)}" for e in entries[1:]]
    if len(parts) == 1:
        parts = [entry_label(entries[0])]
    return f"{state.topic}: " + " · ".join(parts)


def evidence_line(node: EvidenceNode, quote: str | None = None) -> str:
    where = f"#{node.channel_name}" if node.channel_name else node.channel
    text = shorten(quote if quote is not None else node.text, QUOTE_CHARS)
    return f'{node.speaker} ({where}, {day_label(node.ts)}): "{text}"'


def entry_citation(entry: ChainEntry, state: State, nodes: dict[str, EvidenceNode]
                   ) -> Citation | None:
    node = nodes.get(entry.node_id)
    return citation(node) if node is not None else None


class Composer:
    """Builds the answer for one question from the covering units."""

    def __init__(self, *, lexicon: QuestionLexicon, coverage: CoverageTest) -> None:
        self.lexicon = lexicon
        self.coverage = coverage

    # ---- choosing what answers ---------------------------------------------------------
    def answering_state(self, qa: QuestionAnalysis, verdict: Coverage,
                        people: Sequence[Person] = ()) -> State | None:
        """The state that answers, if one covers the question about as well as the best
        message and holds the kind of value asked."""
        threshold = self.coverage.weights.min_coverage
        best_node = max((s for s, u in verdict.units if u.state is None), default=0.0)
        if qa.kind is QuestionKind.WHO and qa.role in ("proposer", "rejecter", "doer"):
            return None
        if qa.kind is QuestionKind.WHEN and qa.past:
            return None
        candidates = []
        for score, unit in verdict.units:
            state = unit.state
            if state is None or score < threshold or score < best_node - STATE_MARGIN:
                continue
            if not self._holds(qa, unit):
                continue
            if qa.family == "person" and qa.role not in ("changer", "decider") and \
                    not self._names_person(state, people):
                continue  # who holds it: the state's value must be a person
            revised = len(state.chain) > 1
            if qa.asks_change and not revised:
                continue  # a single value has no earlier one: messages may hold it
            wants_history = qa.asks_change or qa.kind is QuestionKind.WHY
            changed = bool(qa.changes) and _changed_by(state.chain[1:], qa) is not None
            candidates.append((round(score, 1), changed,
                               revised if wants_history else True, state.updated_at, state))
        if not candidates:
            return None
        candidates.sort(key=lambda c: (c[0], c[1], c[2], c[3]), reverse=True)
        return candidates[0][4]

    def _holds(self, qa: QuestionAnalysis, unit: Unit) -> bool:
        """Whether a state's current value is of the kind asked ("where" is answered by a
        region or a named choice, "when" by a date or time…)."""
        family = qa.family
        state = unit.state
        if not family or family in ("count", "person") or state is None or not state.chain:
            return True
        last = state.chain[-1]
        held = family_of(current_value(state), last.quote)
        wanted = self.lexicon.state_families.get(family, (family,))
        if held in wanted:
            return True
        # a value the slots do not type ("the gym", "Bathurst Community Centre") may still
        # be a place; a date or an amount is not
        return family == "where" and held not in ("when", "amount", "version")

    def _names_person(self, state: State, people: Sequence[Person]) -> bool:
        values = " ".join(e.value for e in state.chain if e.value)
        lows = {w.low for w in words(values)}
        return bool(lows & self.lexicon_self()) or any(p.keys & lows for p in people)

    # ---- state answers -------------------------------------------------------------------
    def from_state(self, qa: QuestionAnalysis, state: State, nodes: dict[str, EvidenceNode],
                   people: Sequence[Person]) -> Composed:
        chain = state.chain
        entry = chain[-1] if chain else None
        kind = qa.kind
        if entry is None:
            return Composed([state.topic], "")
        first: str
        short: str
        if kind is QuestionKind.ORIGINAL:
            entry = next((e for e in chain if e.value), chain[0])
            first = short = entry_value(entry)
        elif kind is QuestionKind.PREVIOUS:
            entry = self.previous_entry(qa, state)
            if qa.family == "person":
                first = short = self._person_of(entry, people)
            else:
                first = short = entry_value(entry)
        elif kind is QuestionKind.WHO:
            entry = self.deciding_entry(qa, state)
            person = (self._person_of(chain[-1], people) if qa.role in ("owner",)
                      else entry.speaker)
            short = person
            first = f"{person}, {day_label(entry.ts)}: {entry_value(entry)}"
        elif kind is QuestionKind.WHY:
            entry = self.deciding_entry(qa, state)
            reason = self.reason_for(entry, state, nodes)
            short = reason
            first = (f"{reason} ({entry.speaker}, {day_label(entry.ts)})" if reason
                     else f"{entry.speaker} ({day_label(entry.ts)}): {shorten(entry.quote, 160)}")
        else:
            first = short = entry_value(chain[-1])
            entry = chain[-1]
        lines = [first, chain_line(state)]
        cites: list[Citation] = []
        shown = [entry] + [e for e in reversed(chain) if e is not entry]
        for e in shown:
            node = nodes.get(e.node_id)
            if node is None:
                continue
            if len(lines) < 2 + EVIDENCE_LINES and e is entry:
                lines.append(evidence_line(node))
            cites.append(citation(node))
        return Composed(lines, short, cites, [state])

    def previous_entry(self, qa: QuestionAnalysis, state: State) -> ChainEntry:
        """The value before the change the question names ("before it moved to Tuesday",
        "before devon"), else before the latest value."""
        chain = [e for e in state.chain if e.value] or state.chain
        if len(chain) == 1:
            return chain[0]
        anchor = _value_words(qa.anchor)
        if anchor:
            for i in range(len(chain) - 1, 0, -1):
                if anchor & unit_forms(chain[i].value + " " + chain[i].quote):
                    return chain[i - 1]
        return chain[-2]

    def deciding_entry(self, qa: QuestionAnalysis, state: State) -> ChainEntry:
        """The entry a *who* or *why* question is about: the change naming the value or day
        it asks about — the change reaching it ("who moved it to the 22nd") or leaving it
        ("why did it move off Thursday") — else the change the question's verb names,
        else the latest change, else the decision itself."""
        chain = state.chain
        left, reached = _anchors(qa, self.lexicon.left_value)
        for i in range(len(chain) - 1, 0, -1):
            if left and left & unit_forms(chain[i - 1].value):
                return chain[i]
        for i in range(len(chain) - 1, -1, -1):
            if reached and reached & unit_forms(chain[i].value):
                return chain[i]
        if qa.kind is QuestionKind.WHO and qa.role == "decider":
            current = chain[-1].value
            for e in chain:
                if e.value == current:
                    return e
        # "why did it *slip*": the change the question's verb names
        changed = _changed_by(chain[1:], qa)
        if changed is not None:
            return changed
        return chain[-1]

    def reason_for(self, entry: ChainEntry, state: State, nodes: dict[str, EvidenceNode]
                   ) -> str:
        """The reason for a change: the one the writer noted, else one the revising message
        gives after a reason word, else the turn it answers or accepts ("agreed." after
        "replica lag is at 40min, not happy doing the upgrade"), else another sentence of
        the message, else a reason the same speaker gives just before or after."""
        noted = str(getattr(entry, "reason", "") or "")
        if noted:
            return noted
        node = nodes.get(entry.node_id)
        return self._reason_of(entry.quote, node, nodes, value=entry.value)

    def _reason_of(self, text: str, node: EvidenceNode | None,
                   nodes: dict[str, EvidenceNode], *, value: str = "") -> str:
        accepted = self._accepted_turn(text, node, nodes)
        if accepted:
            return accepted
        cued = reason_in(text, value=value or _decision_value(text))
        if cued:
            return cued
        if node is None:
            return ""
        near = sorted((n for n in nodes.values() if n.node_id != node.node_id
                       and n.channel == node.channel and n.speaker_id == node.speaker_id
                       and abs((n.ts - node.ts).total_seconds()) <= 15 * 60),
                      key=lambda n: abs((n.ts - node.ts).total_seconds()))
        for n in near:
            r = reason_in(n.text)
            if r:
                return r
        return ""

    def _accepted_turn(self, text: str, node: EvidenceNode | None,
                       nodes: dict[str, EvidenceNode]) -> str:
        """When ``text`` accepts what the turn before said ("agreed.", "good catch. yes:"),
        the reason is in that turn: its cued reason, else what it states."""
        if node is None or not _accepts(text, self.lexicon.accept):
            return ""
        for i in node.context_ids:
            turn = nodes.get(i)
            if turn is None or turn.speaker_id == node.speaker_id:
                continue
            told = " ".join(s for s in split_sentences(turn.text)
                            if not s.rstrip().endswith("?"))
            if len(words(told)) >= 4:
                return reason_in(told) or told
        return ""

    def _person_of(self, entry: ChainEntry, people: Sequence[Person]) -> str:
        """The person a value names ("Devon", "me" → the speaker)."""
        value = entry.value or entry.quote
        lows = {w.low for w in words(value)}
        for p in people:
            if p.keys & lows:
                return p.name
        if lows & self.lexicon_self():
            return entry.speaker
        return entry.value or entry.speaker

    def lexicon_self(self) -> frozenset[str]:
        from memory.analysis.question_lexicon import SELF_WORDS

        return SELF_WORDS

    # ---- message answers ------------------------------------------------------------------
    def from_units(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                   nodes: dict[str, EvidenceNode]) -> Composed:
        """The answer from messages: the statements of the covering units in time order,
        the last for what is current, the first for what was original, the one before the
        last (or before the one naming the question's anchor) for what it was before."""
        covering = self.covering(verdict)
        if not covering:
            return Composed([], "")
        statements = [self.statement(qa, u, people) for u in covering]
        kind = qa.kind
        chosen: Statement
        if kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL):
            chosen = self._earlier(qa, statements)
        elif self._latest_wins(qa):
            valued = [st for st in statements if st.value] or statements
            chosen = max(valued, key=lambda st: (st.node.ts, st.node.seq))
        else:
            chosen = statements[0]
        node = chosen.node
        day = day_label(node.ts)
        if kind is QuestionKind.WHO:
            person = self._who_from(qa, chosen, people)
            first = f"{person} ({day}): {shorten(chosen.sentence, 160)}"
            short = person
        elif kind is QuestionKind.WHY:
            # Without a chain there is no known decision to tell the reason from: the
            # message that explains is quoted whole, a cued reason first.
            cued = reason_in(chosen.node.text) or self._accepted_turn(
                chosen.node.text, chosen.node, nodes)
            whole = shorten(" ".join(chosen.node.text.split()), 300)
            reason = cued or whole
            first = f"{shorten(reason, 300)} ({node.speaker}, {day})"
            short = reason
        elif kind is QuestionKind.LIST:
            items = [f"{st.value or shorten(st.sentence, 120)} ({st.node.speaker})"
                     for st in statements[:5]]
            first = short = "; ".join(dict.fromkeys(items))
        elif qa.family == "when" or kind is QuestionKind.WHEN:
            first = short = self.when_of(qa, chosen.sentence, node)
        elif chosen.value:
            first = f"{chosen.value} ({node.speaker}, {day})"
            short = chosen.value
        else:
            short = best_clause(qa.text, chosen.sentence)
            first = f"{shorten(chosen.sentence, 200)} ({node.speaker}, {day})"
        lines = [first]
        cites: list[Citation] = []
        shown_units = [chosen.unit] + [u for u in covering if u is not chosen.unit]
        for u in shown_units[:EVIDENCE_LINES]:
            n = u.node
            assert n is not None
            shown = u.answers[0] if u.answers and _asks(n.text) else n
            lines.append(evidence_line(shown))
            cites.append(citation(shown))
            if shown is not n:
                cites.append(citation(n))
        return Composed(lines, short, cites, [])

    def covering(self, verdict: Coverage) -> list[Unit]:
        """The message units covering the question nearly as well as the best one."""
        threshold = self.coverage.weights.min_coverage
        scored = [(s, u) for s, u in verdict.units if u.node is not None]
        if not scored:
            return []
        top = max(s for s, _ in scored)
        return [u for s, u in scored if s >= max(threshold, top - NEAR_BEST)] or [
            scored[0][1]]

    def _who_from(self, qa: QuestionAnalysis, chosen: Statement, people: Sequence[Person]
                  ) -> str:
        """The person a message-based *who* answer names: for who turned something down or
        signed it off, the one who answered the proposal that way; otherwise the person
        the answering sentence names, or its speaker."""
        unit = chosen.unit
        if qa.role in ("rejecter", "decider") and unit.answers:
            openers = (self.lexicon.reject if qa.role == "rejecter" else self.lexicon.accept)
            for a in unit.answers:
                if _accepts(a.text, openers):
                    return a.speaker
        return chosen.value or chosen.node.speaker

    def _latest_wins(self, qa: QuestionAnalysis) -> bool:
        """Whether the newest statement answers: a value in force now, or who holds a role
        now."""
        if qa.kind in (QuestionKind.CURRENT,) and qa.family:
            return True
        if qa.kind is QuestionKind.WHEN and not qa.past:
            return True
        return qa.kind is QuestionKind.WHO and qa.role == "owner" and not qa.past

    def _earlier(self, qa: QuestionAnalysis, statements: Sequence[Statement]) -> Statement:
        timeline = sorted((st for st in statements if st.value or st.replaced),
                          key=lambda st: (st.node.ts, st.node.seq)) or sorted(
            statements, key=lambda st: (st.node.ts, st.node.seq))
        if qa.kind is QuestionKind.ORIGINAL:
            return timeline[0]
        anchor = _value_words(qa.anchor)
        if anchor:
            for i in range(len(timeline) - 1, 0, -1):
                if anchor & unit_forms(timeline[i].sentence):
                    return timeline[i - 1]
        # The value before the latest change: the latest message that changes something,
        # then the statement before it (or the value it names as replaced).
        changes = [i for i, st in enumerate(timeline) if has_revision_cue(st.node.text)]
        at = changes[-1] if changes else len(timeline) - 1
        last = timeline[at]
        if last.replaced:
            return Statement(last.unit, last.node, last.replaced and last.sentence,
                             last.replaced, "")
        return timeline[at - 1] if at > 0 else last

    def statement(self, qa: QuestionAnalysis, unit: Unit, people: Sequence[Person]
                  ) -> Statement:
        """What ``unit`` states in answer to ``qa``: its answering sentence, the value of the
        kind asked in it, and a value it names as replaced."""
        source, node = self._answering_text(qa, unit)
        sentence = best_sentence(qa, source)
        value = replaced = ""
        if qa.family == "person" or qa.kind is QuestionKind.WHO:
            value = person_answer(sentence, node.speaker, people, qa)
            return Statement(unit, node, sentence, value, replaced)
        value, replaced = self.value_in(qa, sentence, node)
        if not value and self.lexicon.answering_slots.get(qa.family):
            # the value may sit in a neighbouring sentence ("budget: eu-west-1 is pricier.
            # bumping the AWS budget alert…")
            for other in split_sentences(source):
                if other != sentence:
                    value, replaced = self.value_in(qa, other, node)
                    if value:
                        sentence = other
                        break
        return Statement(unit, node, sentence, value, replaced)

    def _reason_near(self, chosen: Statement, nodes: dict[str, EvidenceNode]) -> str:
        """The reason in the chosen message (see :meth:`reason_for`), else in the answers it
        got."""
        found = self._reason_of(chosen.node.text, chosen.node, nodes, value=chosen.value)
        if found:
            return found
        for n in chosen.unit.answers:
            found = reason_in(n.text)
            if found:
                return found
        return ""

    def _answering_text(self, qa: QuestionAnalysis, unit: Unit
                        ) -> tuple[str, EvidenceNode]:
        """The text that answers in ``unit`` and who said it: a question's answer when the
        unit is a question that got one."""
        node = unit.node
        assert node is not None
        if unit.answers and _asks(node.text):
            told = [a for a in unit.answers if not _asks(a.text)] or unit.answers
            return told[0].text, told[0]
        return node.text, node

    def when_of(self, qa: QuestionAnalysis, sentence: str, node: EvidenceNode) -> str:
        """The date and time ``sentence`` states nearest the question's words, resolved
        against when it was said ("next Monday 11:30 (11 November 2024)"); for a past event
        the resolved day alone ("7 May 2023"), with the time when asked; else the day it
        was said. The end of a range when the question asks when something ends."""
        slots = [sl for sl in find_slots(sentence) if sl.kind.value in ("date", "time")
                 and not _REPLACED.search(sentence[: sl.start])]
        anchors = _term_positions(qa, sentence)
        if anchors and slots:
            slots.sort(key=lambda sl: min(abs(sl.start - a) for a in anchors))
        asks_time = any(c in ("what time", "at what time", "what hour") for c in qa.cues)
        end = bool({"end", "ends", "finish", "finishes", "close", "closes"} & set(qa.terms))
        ranged = time_in(sentence, end=end) if end else ""
        times = [sl for sl in slots if sl.kind.value == "time"]
        for sl in slots:
            res = resolved_dates(sl.text, node.ts, prefer="past" if qa.past else "future")
            if not res:
                continue
            day = res[0][1].spoken()
            clock = ranged or (times[0].text if times and not _has_clock(sl.text) else "")
            if qa.past:
                return f"{clock}, {day}" if clock and (asks_time or end) else day
            text = f"{sl.text} {clock}".strip() if clock else sl.text
            return f"{text} ({day})" if text != day else day
        day = spoken_day(node.ts)
        clock = ranged or (times[0].text if times else "")
        return f"{clock}, {day}" if clock else day

    def value_in(self, qa: QuestionAnalysis, sentence: str, node: EvidenceNode
                 ) -> tuple[str, str]:
        """The value of the kind asked that ``sentence`` states nearest the question's
        words, and a value it names as replaced ("not $18k", "instead of eu-west-1", "from
        X to Y"); empty strings when it asks no kind of value."""
        kinds = self.lexicon.answering_slots.get(qa.family, ())
        if not kinds:
            return "", ""
        slots = [sl for sl in find_slots(sentence) if sl.kind.value in kinds]
        if qa.family == "where":
            slots += places_in(sentence)
        if not slots:
            return "", ""
        stated = [sl for sl in slots if not _REPLACED.search(sentence[: sl.start])]
        replaced = [sl for sl in slots if _REPLACED.search(sentence[: sl.start])]
        anchors = _term_positions(qa, sentence)
        asks_end = bool({"end", "ends", "finish", "finishes", "close", "closes"}
                        & set(qa.terms))

        def nearest(cands: Sequence[Slot]) -> Slot | None:
            if not cands:
                return None
            if asks_end and len(cands) > 1:
                return cands[-1]
            if not anchors:
                return cands[0]
            return min(cands, key=lambda sl: min(abs(sl.start - a) for a in anchors))

        best, old = nearest(stated), nearest(replaced)
        value = best.text if best else ""
        if value and qa.family == "when":
            day = value_day(value, node.ts)
            value = f"{value} ({day})" if day else value
        return value, old.text if old else ""


@dataclass
class Statement:
    """What one unit states for a question: the sentence, the value of the kind asked, a
    value it names as replaced."""

    unit: Unit
    node: EvidenceNode
    sentence: str
    value: str
    replaced: str


def _has_clock(text: str) -> bool:
    return any(sl.kind.value == "time" for sl in find_slots(text)) or bool(
        re.search(r"\d(?::\d{2})?\s?(?:am|pm)|\d:\d{2}", text, re.IGNORECASE))


def _term_positions(qa: QuestionAnalysis, sentence: str) -> list[int]:
    wanted = {f for t in qa.terms for f in forms(t)}
    return [w.start for w in words(sentence) if forms(w.low) & wanted]


def _anchors(qa: QuestionAnalysis, left_words: Sequence[str]) -> tuple[set[str], set[str]]:
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
        target = left if any(before.rstrip().endswith(w) for w in left_words) else reached
        target |= _value_words(expr)
    return left, reached


def _accepts(text: str, openers: Sequence[str]) -> bool:
    """Whether ``text`` opens by accepting what was said before it."""
    lows = [w.low for w in words(text[:80])]
    for opener in openers:
        parts = opener.split()
        if lows[: len(parts)] == parts:
            return True
    return text.lstrip().startswith("+1")


def _decision_value(text: str) -> str:
    """The first value a message states (what its decision sentence holds)."""
    slots = find_slots(text)
    return slots[0].text if slots else ""


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


def _value_words(text: str) -> set[str]:
    out: set[str] = set()
    for w in words(text):
        if w.low in ("it", "the", "to", "a", "got", "was", "be", "moved", "it's"):
            continue
        out |= forms(w.low)
    return out


def _asks(text: str) -> bool:
    """Whether a message asks something (a question, or a proposal put as one)."""
    return "?" in text
