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

The turns right after the answer's message may settle it without naming the subject at all
("hotel: looking at the hampton inn" → "hampton is sold out. booking comfort inn instead";
"can we bump the monday meeting?" → "11:30"): :meth:`LaterWord.follow_up` reads them, with
the words of :mod:`memory.analysis.follow_words` telling a settled value from one about
another thing, a hypothetical or someone's own plans.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime

from memory.analysis.cue_words import (
    CHANGE_LABEL_NOUNS,
    CHANGE_LABELS,
    DISCOURSE,
    HEADING_WORDS,
    SETTLED_CHANGE,
)
from memory.analysis.definitions import QuestionKind, SpeechAct
from memory.analysis.follow_words import (
    BARE_NUMBER,
    FILLERS,
    HYPOTHETICAL,
    OWN_PLANS,
    SUM_WORDS,
    TAKES_NUMBER,
)
from memory.analysis.matching import same_grain, same_measure, values_match
from memory.analysis.message import Clause, MessageAnalysis
from memory.analysis.question import QuestionAnalysis, months_named
from memory.analysis.said_alone import Bare, bare_value
from memory.dates import find_date_expressions, resolve_date
from memory.dates.days import MONTH_NAMES, MONTH_OF_WORD
from memory.models import EvidenceNode
from memory.reader.answer_parts import OVERRIDE_CHANGE, Statement, _said_of, revises_another
from memory.reader.coverage import Coverage, Term, node_unit
from memory.reader.extract import Person
from memory.reader.reasons import refuses
from memory.reader.statement_choice import other_weekday
from memory.reader.statements import StatementReader
from memory.reader.when_values import has_clock, has_day
from memory.reader.word_forms import forms, part_of, unit_forms
from memory.text import (
    RECURRING,
    STOPWORDS,
    content_terms,
    family_of,
    find_slots,
    has_revision_cue,
    names_value,
    one_dated_day,
)

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
        # (a month naming which of a thing is asked, "the april launch", is named too: the
        # May launch moving says nothing of it)
        named = [forms(t.word) for t in verdict.terms if t.named and not t.person] + [
            forms(m) | forms(MONTH_NAMES[MONTH_OF_WORD[m] - 1].lower())
            for m in months_named(qa.text)]
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
            if _headed_elsewhere(analysis, asked):
                continue  # "jarrah ave: … final inspection is now 2pm" is that house's
            st = self.statement(qa, unit, people)
            if not _another_value(qa, st.value, held, kinds, node.ts) or other_weekday(
                    qa, st.value):
                continue
            if RECURRING.search(held) and one_dated_day(st.value):
                continue  # one dated meeting ("Sat 23rd") does not move a series (WEDNESDAYS)
            if not _said_of(analysis, st.value, subject) or not _own_subject_asked(
                    analysis, st.value, subject, asked, plain):
                continue
            found.append(st)
        return max(found, key=lambda st: (st.node.ts, st.node.seq)) if found else None

    def follow_up(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                  *, answer: EvidenceNode, following: Sequence[EvidenceNode], held: str,
                  plain: frozenset[str]) -> Statement | None:
        """The latest of ``following`` (the turns right after the answer's message, in its
        conversation) that settles another value of ``held``'s kind without naming a
        subject of its own the question does not ask about ("hotel: looking at the hampton
        inn" → "hampton is sold out. booking comfort inn instead"; "read length for
        brewline: 60 sec" → "brewline caved on the spot length. 45"). Such turns answer the
        subject by being said right after it, so they need not name it."""
        if not held or not self.follows(qa):
            return None
        kinds = {sl.family for sl in find_slots(held)}
        asked = frozenset(f for t in verdict.terms for f in forms(t.word))
        # what the talk was on: the question's thing, and what the answer's message said
        # the held value of (not everything that message named: "team lunch 12:30, board
        # review at 3pm" → "board review moves to 4pm" is no new lunch time)
        spoken = (subject_forms(verdict.terms, plain=plain)
                  | self._held_subject(answer, held) | unit_forms(held))
        counted = _counted(held) or _noun_after(answer.text, held)
        # a value put forward and turned down by the next speaker ("thinking we bump the
        # fee to $30" → "not keen on 30 … leave it at $20") holds what the refusal says
        proposed = self._only_proposes(answer)
        asks_another = self._asks_another(answer, held)
        found: Statement | None = None
        offered: list[EvidenceNode] = []  # the turns read so far, each a possible offer
        prompted = 0  # turns left in which a value said alone answers a change asked for
        elsewhere = -1  # turns left in which a value said alone answers another question
        for node in following:
            analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
            taken = None if analysis.system else _offer_taken(analysis.clauses, offered, kinds,
                                                                answer)
            offered.append(node)
            if taken is not None:
                # "ok refurb sanremo" takes up "a refurb sanremo for £3,900" said just before
                found = dataclasses.replace(self.statement(qa, node_unit(taken[0]), people),
                                            value=taken[1])
                continue
            if analysis.question or analysis.act in (SpeechAct.PROPOSAL, SpeechAct.QUESTION):
                # "can we bump the monday meeting?" → "11:30": a value alone answers it when
                # what is asked is what the talk is on ("breakfast is 7am then?" → "yep
                # 7am" is no new bus time)
                asking = [c for c in analysis.clauses
                          if c.act in (SpeechAct.PROPOSAL, SpeechAct.QUESTION)]
                if all(_names_talk(c.subject or c.text, asked, spoken, plain) for c in asking):
                    prompted = _PROMPT_TURNS if analysis.changes >= OVERRIDE_CHANGE else -1
                else:
                    prompted, elsewhere = -1, _PROMPT_TURNS
                continue
            prompted, elsewhere = prompted - 1, elsewhere - 1
            if analysis.system or analysis.noise or analysis.act is SpeechAct.REMINDER:
                continue
            if revises_another(node, answer):
                continue  # "heating guy called, can't make wed. coming thu instead"
            if found is not None and _mentions(node.text, held):
                found = None  # "sorry no, ignore me, 10:30 stands": back to the value held
            terse = len(node.text.split()) <= _TERSE_WORDS
            if terse and asks_another:
                continue  # "first game 9.30 not 10. still ok leaving at 7?" → "lets say 6.45"
            refused = (proposed and found is None and node.speaker_id != answer.speaker_id
                       and refuses(node.text, self.lexicon))
            # the clauses that settle a value: a change said, a value said alone with words
            # that settle it ("6 then"), or alone right after a change was asked for; not a
            # hypothetical ("if we moved it to 6 …") nor the speaker's own plans ("i'm in at
            # 10 tomorrow")
            settling = [c for c in analysis.clauses if not _aside(c.text) and (
                _settles(c, strong=not kinds, alone=elsewhere < 0) or (refused and bool(c.claims))
                or (prompted >= 0 and (terse and bool(c.claims) or bool(_alone(c.text)))))]
            if not settling:
                continue
            said = dataclasses.replace(analysis, clauses=tuple(settling))
            st = self.statement(qa, node_unit(node), people)
            value = st.value if _in_clauses(st.value, settling) else ""
            value = value or self._claimed(qa, said, asked, spoken, plain)
            if not value:
                # "actually start is 9", "let's get it up by 2": a number said of what the
                # talk is on, in the unit of the value it replaces
                number = _number_for(said, held, asked, plain)
                if number and not values_match(number, held):
                    found = dataclasses.replace(st, value=number)
                continue
            if not _another_value(qa, value, held, kinds, node.ts) or other_weekday(qa, value):
                continue
            noun = _counted(value) or _noun_after(node.text, value)
            if counted and noun and not forms(noun) & forms(counted):
                continue  # "25 caps" is no new number of the 40 hoodies
            if not _own_subject_spoken(analysis, value, asked, spoken, plain):
                continue
            found = dataclasses.replace(st, value=value)
        return found

    def _asks_another(self, node: EvidenceNode, held: str) -> bool:
        """Whether ``node`` ends by asking about something other than ``held`` (a terse
        reply answers that question, not the value stated before it)."""
        clauses = self.analyzer.analyze(node.text, speaker=node.speaker).clauses
        last = clauses[-1] if clauses else None
        asking = [c for c in clauses if c.text.rstrip().endswith("?")]
        return bool(asking) and asking[-1] is last and not any(
            names_value(c.text, held) for c in asking)

    def _only_proposes(self, node: EvidenceNode) -> bool:
        """Whether ``node`` only puts a value forward (a proposal in every clause that
        states one; :func:`memory.reader.approval.approval_of` asks less: a proposal in any
        clause, a recommendation or a list of quotes)."""
        analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
        stating = [c for c in analysis.clauses if c.claims]
        return analysis.act is SpeechAct.PROPOSAL or (
            bool(stating) and all(c.act is SpeechAct.PROPOSAL for c in stating))

    @staticmethod
    def follows(qa: QuestionAnalysis) -> bool:
        """Whether the turns after an answer can settle what ``qa`` asks: a value of a kind
        in force now (not who holds it; what asks no kind of value has none to replace)."""
        return _asks_now(qa) and qa.kind is not QuestionKind.WHO and bool(qa.family)

    def _held_subject(self, answer: EvidenceNode, held: str) -> frozenset[str]:
        """The words of what the answer's message said ``held`` of: the clause holding it
        (its subject, label and other values: "standup moves to thursdays, 10:30 in the
        small room"), without the subjects of its other values ("team lunch 12:30 at
        nandos, board review at 3pm": not the board review)."""
        analysis = self.analyzer.analyze(answer.text, speaker=answer.speaker)
        for clause in analysis.clauses:
            for claim in clause.claims:
                if claim.value.text and values_match(claim.value.text, held):
                    others = {f for cl in clause.claims if cl is not claim and cl.subject
                              for f in unit_forms(cl.subject)}
                    return (unit_forms(f"{clause.text} {clause.label}") - others
                            ) | unit_forms(claim.subject)
        return unit_forms(analysis.subject)

    def _claimed(self, qa: QuestionAnalysis, analysis: MessageAnalysis,
                 asked: frozenset[str], spoken: frozenset[str], plain: frozenset[str]) -> str:
        """The one value of the kind asked that a turn states of nothing else than what
        the talk is on ("ok so 14th"); "" when it states none or several."""
        kinds = self.lexicon.claim_kinds.get(qa.family, ())
        said = {cl.value.text for c in analysis.clauses for cl in c.claims
                if cl.value.kind.value in kinds
                and _own_subject_spoken(analysis, cl.value.text, asked, spoken, plain)}
        return said.pop() if len(said) == 1 else ""


# How many turns after a change asked for a value said alone may answer it.
_PROMPT_TURNS = 2
# A reply this short that states a value says only that value ("11:30", "thu 2pm").
_TERSE_WORDS = 3


def _settles(clause: Clause, *, strong: bool, alone: bool = True) -> bool:
    """Whether a clause says a value changed or was settled ("booking comfort inn instead",
    "actually start is 9", "6 then"); with ``strong``, only a change said outright (the
    value replaced is no typed value, so only the words of the change tie them); without
    ``alone``, not by a value said alone (it answers another question just asked)."""
    if clause.change >= OVERRIDE_CHANGE:
        return True
    if strong:
        return False
    if not alone and (_alone(clause.text) or len(clause.text.split()) <= _TERSE_WORDS):
        return False
    return (has_revision_cue(clause.text) or clause.change >= SETTLED_CHANGE
            or (_IS_NOW.search(clause.text) is not None
                and not clause.text.rstrip().endswith("?"))
            or any(b.settled for b in _alone(clause.text)))


# "total's now £515", "price is now $139": a value in force from then on.
_IS_NOW = re.compile(r"(?:['’]s|\bis|\bare)\s{1,3}now\s{1,3}(?!or\b|a\s|an\s)\S",
                     re.IGNORECASE)


def _headed_elsewhere(analysis: MessageAnalysis, asked: frozenset[str]) -> bool:
    """Whether a message opens with a header naming a thing of its own, none of whose words
    the question says ("jarrah ave: … final inspection is now 2pm thu 1 aug" to "when's the
    wattle st routine inspection")."""
    head = analysis.clauses[0] if analysis.clauses else None
    if head is None or head.claims or len(analysis.clauses) < 2 or (
            analysis.clauses[1].label.strip() != head.text.strip()):
        return False
    said = [w for w in re.findall(r"[a-z0-9][\w'’-]{0,30}", head.text.lower())
            if w not in STOPWORDS and w not in CHANGE_LABELS and w not in CHANGE_LABEL_NOUNS
            and w not in HEADING_WORDS and w not in DISCOURSE]
    return bool(said) and not any(forms(w) & asked for w in said)


def _aside(text: str) -> bool:
    """Whether a clause only supposes a value ("if we moved it to 6 we'd miss the bus") or
    tells the speaker's own plans ("i'm in at 10 tomorrow", "i'll be there at 9")."""
    return bool(HYPOTHETICAL.search(text) or OWN_PLANS.match(text))


def _local(clause: Clause, value: str) -> str:
    """The words just before ``value`` in its clause, back to the last punctuation (the
    thing a clause with no subject read says the value of: "so the planning is the 21st
    then")."""
    at = clause.text.lower().find(value.lower())
    return re.split(_PUNCT, clause.text[:at])[-1] if at > 0 else ""


def _mentions(text: str, held: str) -> bool:
    """Whether ``text`` names ``held`` again, or its time or day ("10:30 stands")."""
    # (each part: "thursdays, 10:30" is one slot, and "10:30 stands" names its time)
    return names_value(text, held) or any(
        sl.text and sl.text.lower() in text.lower()
        for part in held.split(",") for sl in find_slots(part))


def _counted(value: str) -> str:
    """The thing a quantity counts ("25 caps" → "caps"), "" when it names none."""
    m = _COUNTED.match(value.strip())
    return m.group(1) if m else ""


def _noun_after(text: str, value: str) -> str:
    """The word counted right after ``value`` in ``text`` ("60" in "slot 60 min" → "min")."""
    at = text.lower().find(value.lower())
    if at < 0 or not any(ch.isdigit() for ch in value):
        return ""
    m = _WORD_AFTER.match(text[at + len(value):])
    return m.group(1) if m and m.group(1).lower() not in FILLERS else ""


_PUNCT = r"[.,;:!?()]\s|\s[-–—]\s"
_COUNTED = re.compile(r"^[~$€£]?\d{1,6}(?:[.,]\d{1,2})?\s?([a-z]{3,20})\b", re.IGNORECASE)
_OF_AFTER = re.compile(r"^\s(?:of|for)\s(?:the\s|our\s|a\s|an\s)?([a-z][\w'’-]{1,20})",
                       re.IGNORECASE)
_WORD_AFTER = re.compile(r"^\s?([a-z]{3,20})\b", re.IGNORECASE)
def _without(phrase: str, value: str) -> str:
    """``phrase`` without the words of ``value`` ("11, the small room" without "11")."""
    drop = {w.lower() for w in value.split()}
    return " ".join(w for w in phrase.split() if w.lower().strip(",.;:!?") not in drop)


def _in_clauses(value: str, clauses: Sequence[Clause]) -> bool:
    return bool(value) and any(value.lower() in c.text.lower() for c in clauses)


# A reply taking up what an earlier turn offered, by its name ("ok refurb sanremo", "go with
# the hampton").
_TAKES_UP = re.compile(r"^\W{0,3}(?:ok|okay|yes|yep|yeah|fine|sure|right|agreed|go with|"
                       r"let's go with|lets go with|let's do|lets do)\W{1,3}(?:the\s)?"
                       r"(?P<n>[a-z][\w'’-]{1,30}(?:\s[a-z][\w'’-]{1,30}){0,2})\W{0,5}$",
                       re.IGNORECASE)


def _offer_taken(clauses: Sequence[Clause], offered: Sequence[EvidenceNode],
                 kinds: set[str], answer: EvidenceNode) -> tuple[EvidenceNode, str] | None:
    """The turn a message (its ``clauses``) takes up by its name in its first clause ("ok
    refurb sanremo" → "the engineer's got a refurb sanremo for £3,900") and that turn's
    one value of ``kinds``, when another speaker than the answer's said it; None when it
    names no such turn."""
    names = [m.group("n").lower() for c in clauses[:1]
             if (m := _TAKES_UP.match(c.text)) is not None
             and not set(m.group("n").lower().split()) <= STOPWORDS]
    if not names or not kinds:
        return None
    for turn in reversed(offered):
        low = turn.text.lower()
        if turn.speaker_id == answer.speaker_id or not any(
                re.search(rf"(?<!\w){re.escape(n)}(?!\w)", low) for n in names):
            continue
        values = {sl.text for sl in find_slots(turn.text) if sl.family in kinds}
        if len(values) == 1:
            return turn, values.pop()
    return None


def _alone(text: str) -> list[Bare]:
    """The value a clause says alone ("6 then", "let's say 6", "11:30"), read from the
    clause or from its first or last comma-separated part."""
    parts = [text, *dict.fromkeys(p for p in (text.split(",")[0], text.split(",")[-1])
                                  if p != text)]
    return [b for p in parts if (b := bare_value(p)) is not None][:1]


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


def _another_value(qa: QuestionAnalysis, value: str, held: str, kinds: set[str],
                   said: datetime) -> bool:
    """Whether ``value`` is another value of the kind ``held`` is, fine enough to answer
    what ``qa`` asks."""
    if not value or values_match(value, held) or not same_measure(value, held):
        return False
    if part_of(value, held):
        return False  # "5:30 is better for me" after "now Tue 20 Oct, 5:30pm" says it again
    if "version" in kinds and not same_grain(value, held):
        return False  # "rc1 today" is a build of 2.4, not the next version
    if kinds and not kinds & {sl.family for sl in find_slots(value)} and \
            family_of(value) != family_of(held):
        return False  # another kind of value: not a new value of this subject
    if qa.asks_clock and not has_clock(value):
        return False  # a day moved, not the time asked
    if qa.asks_day and not has_day(value):
        return False  # a time moved, not the day asked
    # "order in for this week" is no new "wednesday 15:00" cutoff
    return not _coarser(value, held, said)


def _own_subject_spoken(analysis: MessageAnalysis, value: str, asked: frozenset[str],
                        spoken: frozenset[str], plain: frozenset[str]) -> bool:
    """Whether the value's own subject, if the turn names one, is what the talk was on:
    the question's thing (all its words are the question's: "full plots" is another thing
    than the "half plot" asked) or, naming none of the question's words, a thing the
    answer's message named ("flour: switching to Prairie Gold Mills" → "prairie
    deliveries are thursdays"); a value said with no subject ("45", "comfort inn
    instead") goes on about it."""
    for clause in analysis.clauses:
        for claim in clause.claims:
            if not claim.value.text or claim.value.text.lower() not in value.lower():
                continue
            # a value said of nothing beside another said of a thing is that thing's
            # ("from next monday hygiene recalls go to 40 min": the monday is the recalls')
            beside = " ".join(cl.subject for cl in clause.claims
                              if cl is not claim and cl.subject)
            own = (claim.subject or clause.subject or beside
                   or _local(clause, claim.value.text))
            at = clause.text.lower().find(claim.value.text.lower())
            of = _OF_AFTER.match(clause.text[at + len(claim.value.text):]) if at >= 0 else None
            if of is not None and not _names_talk(of.group(1), asked, spoken, plain):
                return False  # "v2.5 of the sdk": a value of another thing
            return _names_talk(_without(own, claim.value.text), asked, spoken, plain)
    return False


def _names_talk(own: str, asked: frozenset[str], spoken: frozenset[str],
                plain: frozenset[str]) -> bool:
    """Whether a subject ``own`` is what the talk was on (see :func:`_own_subject_spoken`);
    a number in it names the thing too ("ep 18" is not "ep 17")."""
    said = [forms(w) for w in content_terms(own)
            if not forms(w) & plain and w.lower() not in FILLERS | SUM_WORDS]
    if not said or not any(c.isalpha() for c in own):
        return True  # (a value asked alone, "19.50?", is put forward on the talk)
    if any(f & asked for f in said):
        return all(f & asked for f in said)
    return any(f & spoken for f in said)


# Words after a bare number asking for that many ("1 pls", "2 please", "1 for me").
_ORDERED = re.compile(r"\s{0,3}(?:x\s{0,2})?(?:pls|plz|please|for me|for us|each for)\b",
                      re.IGNORECASE)


def _number_for(analysis: MessageAnalysis, held: str, asked: frozenset[str],
                plain: frozenset[str]) -> str:
    """The one number a turn says without a unit, as a value of ``held``'s kind: an hour
    for a clock time (with its am/pm), a quantity in its unit ("45" for "60 sec" is "45
    sec"); "" when it says none, several, one that labels or counts something ("op 4",
    "4 people"), one said of a thing the question does not ask about ("the room is 4"),
    or one that cannot be such a value."""
    said: set[str] = set()
    for clause in analysis.clauses:
        labelled = [forms(w) for w in content_terms(clause.label)
                    if not forms(w) & plain and w.lower() not in FILLERS]
        if labelled and not any(f & asked for f in labelled):
            continue  # "headcount update: 25" is no new hotel rate
        for m in BARE_NUMBER.finditer(clause.text):
            before = clause.text[:m.start()]
            if not TAKES_NUMBER.search(before) or _ORDERED.match(clause.text, m.end()):
                continue  # ("1 pls", "2 for me": how many are wanted)
            own = [forms(w) for w in content_terms(re.split(_PUNCT, before)[-1])
                   if not forms(w) & plain and w.lower() not in FILLERS]
            if any(not f & asked for f in own):
                return ""  # "jay's 8am moves to op 4", "the room is 4": another thing's
            said.add(m.group(1))
    if len(said) != 1:
        return ""
    number = said.pop()
    if has_clock(held):
        if not number.isdigit() or not 0 < int(number) <= 24:
            return ""
        half = _HALF_DAY.search(held)
        return f"{number}{half.group(1)}" if half and int(number) <= 12 else number
    money = _MONEY_HELD.match(held.strip())
    if money is not None:
        return f"{money.group(1)}{number}"  # "19.50" for "£20" is "£19.50"
    unit = _UNIT_AFTER.match(held.strip())
    if unit is None or not _QUANTITY.fullmatch(number) or "." in number and not unit.group(1):
        return ""  # ("1.8" for "1.6kg" is "1.8 kg"; a decimal alone is no count)
    return f"{number}{unit.group(1)}" if unit.group(1) else number


# An amount of money held as a currency and a number ("£20", "$1,200", "€15.50").
_MONEY_HELD = re.compile(r"^([$€£¥])\d{1,3}(?:,\d{3}){0,3}(?:\.\d{1,2})?$")
_HALF_DAY = re.compile(r"\d\s?([ap]m)\b", re.IGNORECASE)
# A quantity: a number and the unit it is counted in ("60 sec", "4 boxes", "110", "1.6kg").
_UNIT_AFTER = re.compile(r"^~?\d{1,6}(?:\.\d{1,3})?(?:(\s?[a-z]{1,12}))?$", re.IGNORECASE)
_QUANTITY = re.compile(r"\d{1,6}(?:\.\d{1,3})?")


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
