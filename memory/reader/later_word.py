"""A later word on the subject: a change said after the answer, in fewer of the question's
words than the answer used.

The answer to "when do we launch the paid tier?" is found by the message that says the most
of it ("reminder the paid tier launches mon june 2"); the message that moved it says only
part ("ok. launch pushed to tuesday june 10"), so it covers the question too little to
answer on its own and the writer may not have linked the two. What is in force now is the
latest value a message *changes* for the question's subject: a message newer than the
answer that names a subject word of the question (not a word for the kind of value asked,
nor a verb), says a change in so many words, is no question or proposal, and states
another value of the answer's kind about that subject.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memory.analysis.definitions import QuestionKind, SpeechAct
from memory.analysis.matching import same_grain, same_measure, values_match
from memory.analysis.message import MessageAnalysis
from memory.analysis.question import QuestionAnalysis
from memory.dates import find_date_expressions, resolve_date
from memory.reader.answer_parts import OVERRIDE_CHANGE, Statement, _said_of
from memory.reader.coverage import Coverage, Term, forms, unit_forms
from memory.reader.extract import Person, has_clock, has_day
from memory.reader.statements import StatementReader
from memory.text import content_terms, family_of, find_slots, has_revision_cue

__all__ = ["LaterWord", "subject_forms"]


def subject_forms(terms: Sequence[Term], *, plain: frozenset[str]) -> frozenset[str]:
    """The forms of the question words that name its subject: not a word for the kind of
    value asked ("time", "price"), not a verb of ``plain`` (what happens to the subject)."""
    return frozenset(f for t in terms if not t.attribute and not t.person
                     and not forms(t.word) & plain for f in forms(t.word))


class LaterWord(StatementReader):
    """A base of :class:`memory.reader.compose.Composer`."""

    def later_change(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                     *, after: datetime, held: str, plain: frozenset[str]) -> Statement | None:
        """The latest statement changing the question's subject to another value of
        ``held``'s kind, said after ``after``; None when there is none (or the question
        asks no value in force now)."""
        if not _asks_now(qa) or not held:
            return None
        subject = subject_forms(verdict.terms, plain=plain)
        named = [forms(t.word) for t in verdict.terms if t.named and not t.person]
        if not subject:
            return None
        kinds = {sl.family for sl in find_slots(held)}
        asked = frozenset(f for t in verdict.terms for f in forms(t.word))
        found: list[Statement] = []
        for score, unit in verdict.units:
            node = unit.node
            if node is None or score <= 0.0 or node.ts <= after:
                continue
            told = unit_forms(node.text)
            if not subject & told or any(not f & told for f in named):
                continue
            analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
            if analysis.question or analysis.act is SpeechAct.PROPOSAL:
                continue  # asked or put forward, not changed
            if analysis.changes < OVERRIDE_CHANGE and not has_revision_cue(node.text):
                continue
            st = self.statement(qa, unit, people)
            if not st.value or values_match(st.value, held) or not same_measure(st.value, held):
                continue
            if "version" in kinds and not same_grain(st.value, held):
                continue  # "rc1 today" is a build of 2.4, not the next version
            if kinds and not kinds & {sl.family for sl in find_slots(st.value)} and \
                    family_of(st.value) != family_of(held):
                continue  # another kind of value: not a new value of this subject
            if qa.asks_clock and not has_clock(st.value):
                continue  # a day moved, not the time asked
            if qa.asks_day and not has_day(st.value):
                continue  # a time moved, not the day asked
            if _coarser(st.value, held, node.ts):
                continue  # "order in for this week" is no new "wednesday 15:00" cutoff
            if not _said_of(analysis, st.value, subject) or not _own_subject_asked(
                    analysis, st.value, subject, asked, plain):
                continue
            found.append(st)
        return max(found, key=lambda st: (st.node.ts, st.node.seq)) if found else None


def _asks_now(qa: QuestionAnalysis) -> bool:
    """Whether the question asks a value in force now (what it is, when it happens, who
    holds it), not one of the past."""
    if qa.past:
        return False
    if qa.kind in (QuestionKind.CURRENT, QuestionKind.WHEN):
        return True
    return qa.kind is QuestionKind.WHO and qa.role == "owner"


def _own_subject_asked(analysis: MessageAnalysis, value: str, subject: frozenset[str],
                       asked: frozenset[str], plain: frozenset[str]) -> bool:
    """Whether the value's own subject is the question's: it names a subject word of the
    question and nothing the question does not ask about ("launch pushed to …" for the
    paid tier's launch; not "Holm final logo pushed back …" for the Holm review, nor
    "roof: scaffold now goes up …" for the roof walkaround)."""
    for clause in analysis.clauses:
        for claim in clause.claims:
            if not claim.value.text or claim.value.text.lower() not in value.lower():
                continue
            # a clause naming no subject of its own says it in its other words ("fair
            # pushed to sat 19 april")
            own = claim.subject or clause.subject or clause.text.replace(claim.value.text, " ")
            said = [w for w in content_terms(own) if not forms(w) & plain]
            return bool(unit_forms(own) & subject) and all(forms(w) & asked for w in said)
    return False


def _grain(value: str, said: datetime) -> int:
    """How fine a moment ``value`` names: 0 a time of day, 1 a day, 2 a longer span (a
    week, a month); -1 when it names none."""
    if has_clock(value):
        return 0
    found = find_date_expressions(value)
    resolved = resolve_date(found[0], said, prefer="future") if found else None
    if resolved is None:
        return -1
    return 1 if resolved.granularity == "day" else 2


def _coarser(new: str, held: str, said: datetime) -> bool:
    """Whether ``new`` is a span (a week, a month) where ``held`` names a day or a time:
    a mention of the period ("order in for this week"), not a new value."""
    a, b = _grain(new, said), _grain(held, said)
    return a == 2 and 0 <= b < a
