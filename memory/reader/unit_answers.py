"""Answers from the covering messages' statements, when no state answers.

The statements of the covering units (:mod:`memory.reader.statements`) in time order: the
latest for what is current, the first for what was original, the one before the latest
distinct value (or before the first naming the question's anchor) for what it was before;
the person for *who*, the day for *when*, the sentence otherwise. A base of
:class:`memory.reader.compose.Composer`.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import QuestionAnalysis
from memory.models import Citation, EvidenceNode, State
from memory.reader.answer import best_clause, citation, day_label
from memory.reader.answer_fit import misfits
from memory.reader.answer_parts import (
    EVIDENCE_LINES,
    Composed,
    Statement,
    _asks,
    best_answer,
    evidence_line,
    release_grain,
)
from memory.reader.before_anchor import said_before_anchor
from memory.reader.coverage import Coverage, Unit
from memory.reader.extract import Person
from memory.reader.reasons import reached_to
from memory.reader.state_choice import StateChoice
from memory.reader.when_values import has_clock, has_day
from memory.reader.word_forms import forms, unit_forms
from memory.text import shorten


class UnitAnswers(StateChoice):
    """The answer one of the covering messages' statements gives."""

    def from_state(self, qa: QuestionAnalysis, state: State, nodes: dict[str, EvidenceNode],
                   people: Sequence[Person]) -> Composed:
        """The answer ``state`` gives (the composer's)."""
        raise NotImplementedError

    def from_units(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                   nodes: dict[str, EvidenceNode], *, fitting: bool = False,
                   asker: str = "") -> Composed:
        """The answer from messages: their statements in time order, the latest for what
        is current, the first for what was original, the one before the latest distinct
        value (or before the first naming the question's anchor) for what it was before;
        with ``fitting``, only statements whose value can be what was asked (and, for
        ``asker``, the name of the member asking, whose person is not them)."""
        kind = qa.kind
        # (who changed it *to* a value: the message setting it may name only the value)
        wide = qa.asks_change or (self._latest_wins(qa) and kind is not QuestionKind.WHO) or (
            kind is QuestionKind.WHO and qa.role in ("changer", "decider")
            and bool(reached_to(qa.text)))
        covering = self.covering(verdict, wide=wide)
        if not covering:
            return Composed([], "")
        if kind is QuestionKind.PREVIOUS and qa.anchor:
            covering += said_before_anchor(qa, verdict, covering, self.coverage)
        if qa.changes and kind in (QuestionKind.WHY, QuestionKind.WHO):
            # the message whose words name the change asked about comes first
            wanted = {f for c in qa.changes for f in forms(c)}
            covering.sort(key=lambda u: not wanted & unit_forms(u.told))
        statements = release_grain(qa, self.statements(qa, covering, people))
        if fitting:
            statements = [st for st in statements
                          if not misfits(qa, self._said(qa, st), people, asker)]
            if not statements:
                return Composed([], "")
        if kind is QuestionKind.WHO:
            # an integration's line ("[org/repo] Euan pushed …") names no one who decided
            statements = [st for st in statements if not self._by_integration(st.node)
                          ] or statements
        chosen = self._choose(qa, statements)
        if kind is QuestionKind.FACT:
            chosen = self._corrected(qa, chosen, self.statements(
                qa, self.covering(verdict, wide=True), people))
        moved_on = self._moved_on(qa, chosen, verdict)
        if moved_on is not None:
            return self.from_state(qa, moved_on, nodes, people)
        return self.answer_from(qa, chosen, covering, statements, nodes)

    def _said(self, qa: QuestionAnalysis, st: Statement) -> str:
        """The value ``st`` would answer ``qa`` with."""
        if qa.kind is QuestionKind.WHO:
            return self._who_from(qa, st)
        if qa.family == "when" or qa.kind is QuestionKind.WHEN:
            return self.when_of(qa, st)
        return st.value or st.sentence

    def _dated(self, qa: QuestionAnalysis, when: str, chosen: Statement,
               statements: Sequence[Statement]) -> str:
        """A plan's time said alone ("Ines recording is now 10:30 not 10") with the day
        another message about it names ("Confirmed with Ines: Wed 11 March, 10am"): asked
        when, the day is what is asked first."""
        if qa.asks_clock or qa.past or not has_clock(when) or has_day(when):
            return when
        for st in sorted(statements, key=lambda s: s.node.ts, reverse=True):
            if st.node.node_id == chosen.node.node_id:
                continue
            # (the day a plan's when-answer gives resolved, in parentheses after its value)
            other = self.when_of(qa, st)
            day = other.rsplit(" (", 1)[-1].rstrip(")") if other.endswith(")") else ""
            if day and has_day(day) and not has_clock(day):
                return f"{when} ({day})"
        return when

    def _by_integration(self, node: EvidenceNode) -> bool:
        """Whether ``node`` is a line a platform or an integration wrote."""
        return self.analyzer.analyze(node.text, speaker=node.speaker).system

    def answer_from(self, qa: QuestionAnalysis, chosen: Statement, covering: Sequence[Unit],
                    statements: Sequence[Statement], nodes: dict[str, EvidenceNode]
                    ) -> Composed:
        """The answer a chosen statement gives, with the evidence covering the question."""
        kind = qa.kind
        node = chosen.node
        day = day_label(node.ts)
        if kind is QuestionKind.WHO:
            person = self._who_from(qa, chosen)
            # a sentence that was only a moment or a mention leaves nothing to quote
            quote = chosen.sentence.strip() or node.text
            first = f"{person} ({day}): {shorten(quote, 160)}"
            short = person
        elif kind is QuestionKind.LIST:
            items = [f"{st.value or shorten(st.sentence, 120)} ({st.node.speaker})"
                     for st in statements[:5]]
            first = short = "; ".join(dict.fromkeys(items))
        elif qa.family == "when" or kind is QuestionKind.WHEN:
            first = short = self._dated(qa, self.when_of(qa, chosen), chosen, statements)
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
