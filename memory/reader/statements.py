"""How the composer reads messages: the statement each covering message makes in answer to a
question (its value of the kind asked, said of the question's subject); which statement
answers is :mod:`memory.reader.statement_choice`, the when-answer it gives
:mod:`memory.reader.when_answers`."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from memory.analysis.definitions import QuestionKind, SpeechAct
from memory.analysis.lexicon import ROLE_NOUNS
from memory.analysis.message import Claim, MessageAnalysis, MessageAnalyzer
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.slot_patterns import MEASURE_PATTERN, SPAN_OF_DAYS
from memory.analysis.supplier_words import supplier_replaced, suppliers_in
from memory.analysis.value_types import Kind, Value
from memory.models import EvidenceNode
from memory.reader.answer import split_sentences
from memory.reader.answer_parts import (
    _TRAILING,
    ANY_VALUE,
    OVERRIDE_CHANGE,
    Statement,
    _asks,
    best_answer,
)
from memory.reader.beside_words import beside_value
from memory.reader.coverage import Unit, asked_part, told_part
from memory.reader.coverage_values import (
    address_in,
    asks_a_length,
    asks_a_percent,
    asks_an_address,
    is_a_length,
    is_a_percent,
)
from memory.reader.deeds import deed_doer
from memory.reader.extract import (
    Person,
    best_sentence,
    person_answer,
    term_positions,
    typo_named,
    value_in,
)
from memory.reader.reasons import accepts, assents_only
from memory.reader.statement_choice import StatementChoice
from memory.reader.when_answers import WhenAnswers
from memory.reader.when_values import has_clock, has_day, when_in
from memory.reader.word_forms import forms, unit_forms
from memory.text import STOPWORDS, Slot, SlotKind, find_slots

# The acts that set a value (the clause tells what holds, not only asks or reacts).
_SETTING = frozenset({SpeechAct.DECISION, SpeechAct.CORRECTION, SpeechAct.REASSIGNMENT})
def _keeping(analysis: MessageAnalysis, keep: Callable[[Claim], bool]) -> MessageAnalysis:
    """``analysis`` with only the claims ``keep`` keeps."""
    return dataclasses.replace(analysis, clauses=tuple(
        dataclasses.replace(c, claims=tuple(cl for cl in c.claims if keep(cl)))
        for c in analysis.clauses))


def _fits(value: Value, kinds: Sequence[str], family: str) -> bool:
    """Whether ``value`` is of one of ``kinds``; a percentage is the price asked ("what fee
    did we settle on" → "let's go 9%"), a measure the thing chosen ("what size balloon")."""
    return value.kind.value in kinds or value.kind is Kind.COUNT and (
        family == "price" and value.text.rstrip().endswith("%") or family == "name"
        and _MEASURED.fullmatch(value.text) is not None)


_MEASURED = re.compile(MEASURE_PATTERN, re.IGNORECASE)


def _names_a_holder(claim: Claim) -> bool:
    """Whether ``claim`` names who holds a role by name though the name is nobody in the
    chat ("Assessor is Greg from Branch", "examiner: Dr Patel"): its subject is a role or
    agent noun and its value a capitalised name."""
    head = claim.subject.lower().split()[-1:] if claim.subject else []
    if not head or claim.value.kind is not Kind.CHOICE:
        return False
    noun = head[0]
    agent = noun in ROLE_NOUNS or (len(noun) > 5 and noun.endswith(_AGENT_ENDINGS))
    name = claim.value.text.split()
    return agent and 0 < len(name) <= 3 and all(
        w[:1].isupper() and w.replace(".", "").replace("'", "").isalpha() for w in name)


def _mostly_named(value: str, named: AbstractSet[str]) -> bool:
    """Whether most of a name's words are words the question names its thing by ("Kestrel
    Credit Union" for "who landed the credit union sponsorship"; not "Jordan Park" for
    "the park cleanup")."""
    said = [w for w in value.lower().split() if w.isalpha()]
    return len(said) > 1 and sum(1 for w in said if forms(w) & named) * 2 > len(said)


# Endings of nouns for who does something ("assessor", "examiner", "photographer").
_AGENT_ENDINGS = ("or", "er", "ist", "ian")


# A who-question naming its candidate ("who is Fiona Walsh?", "who's our sponsor — Byte
# Café?", "who beat us, Harlow FC?"): the named one may well be the answer.
_NAMES_WHO = re.compile(r"^\s{0,5}who(?:'s|’s|\s{1,3}(?:is|was|are|were))\s{1,3}[A-Z]|[,—–-]\s{0,3}"
                        r"[\w'’ &.]{2,60}\?\s{0,5}$")
# A value's words going on to name what it is of ("75% *of warwick reg*").
_OF = re.compile(r"\s{0,3}of\s", re.IGNORECASE)
# How many of the question's words the words leading up to a value must hold.
_LEAD_WORDS = 2

# The kinds of value a message states of its subject when it states only one.
_AMOUNTS = {"money": frozenset({Kind.MONEY}), "price": frozenset({Kind.MONEY}),
            "count": frozenset({Kind.COUNT})}
# A clause that goes on about the thing the clause before it named.
# (a thing's pronoun: "he's quoted 2k" after "spoke to dan about the website" is dan's word)
_PRONOUN_OPENING = re.compile(r"\s{0,10}(?:it|they)(?:['’](?:s|ll|re|d|ve))?\b",
                              re.IGNORECASE)


def _counts_else(value: Value, wanted: AbstractSet[str]) -> bool:
    """Whether a count names the things it counts and none of them is asked ("20 spares"
    for "how many race numbers"; not "22 navy shirts" for "how many shirts")."""
    if value.kind is not Kind.COUNT:
        return False
    counted = _COUNTED_WORDS.findall(value.text)
    return bool(counted) and not any(forms(w) & wanted for w in counted)


_COUNTED_WORDS = re.compile(r"(?<=[\d\s])([a-z]{3,20})\b", re.IGNORECASE)
def _amount_replied(sentence: str, unit: Unit, node: EvidenceNode) -> str:
    """The bare number a reply opens with when the turn it answers puts an amount of money
    ("5€ deposit?" → "10, people lose keys constantly": 10); "" otherwise."""
    m = _OPENING_NUMBER.match(sentence)
    if m is None:
        return ""
    asked = " ".join(t for t in (node.context,
                                 unit.node.text if unit.node not in (None, node) else "") if t)
    return m.group(1) if any(sl.kind is SlotKind.MONEY for sl in find_slots(asked)) else ""


# A number opening a reply, said as the value ("10, people lose keys", "12 then").
_OPENING_NUMBER = re.compile(r"\W{0,3}(\d{1,6}(?:[.,]\d{1,2})?)(?=\s{0,2}(?:[,.!;]|$|then\b|"
                             r"it is\b|it's\b|tops\b|max\b))", re.IGNORECASE)


def _supplier(qa: QuestionAnalysis, text: str, people: Sequence[Person]) -> tuple[str, str]:
    """(the business ``text`` gets what ``qa`` asks from, the one it drops): the name
    nearest the question's words ("get a pallet from ashdown and we'll drop hodges")."""
    skip = {*qa.terms, *(k for p in people for k in p.keys)}
    slots = suppliers_in(text, skip=skip)
    anchors = term_positions(qa, text)

    def nearest(cands: Sequence[Slot]) -> str:
        if not cands:
            return ""
        if not anchors:
            return cands[0].text
        return min(cands, key=lambda sl: min(abs(sl.start - a) for a in anchors)).text

    return (nearest([sl for sl in slots if not supplier_replaced(text, sl)]),
            nearest([sl for sl in slots if supplier_replaced(text, sl)]))


class StatementReader(StatementChoice, WhenAnswers):
    """A base of :class:`memory.reader.compose.Composer`."""

    lexicon: QuestionLexicon
    analyzer: MessageAnalyzer

    def statements(self, qa: QuestionAnalysis, units: Sequence[Unit],
                   people: Sequence[Person]) -> list[Statement]:
        return [self.statement(qa, u, people) for u in units]

    def statement(self, qa: QuestionAnalysis, unit: Unit, people: Sequence[Person]
                  ) -> Statement:
        """See :meth:`_statement`; a message edited to name its own typo ("$135 (not 153, fat
        fingers)") names no value that was in force before (one edited to say "from £4.20 to
        £4.50" still does)."""
        st = self._statement(qa, unit, people)
        typo = st.replaced and typo_named(st.node, st.replaced)
        return dataclasses.replace(st, replaced="") if typo else st

    def _statement(self, qa: QuestionAnalysis, unit: Unit, people: Sequence[Person]) -> Statement:
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
            if (deed := deed_doer(qa, analysis, source, node.speaker, people, claimed)):
                return Statement(unit, node, deed[0], deed[1], "")
            person = (claimed[0] if claimed and claimed[0] else
                      person_answer(sentence, node.speaker, people, qa, whole=source))
            return Statement(unit, node, claimed[2] if claimed else sentence, person,
                             claimed[1] if claimed else "")
        address = address_in(source) if asks_an_address(qa, self.lexicon.address_nouns) else ""
        if address:
            # the street written out, not the city or the place's name
            return Statement(unit, node, sentence, address, "")
        if qa.role == "supplier":
            value, replaced = _supplier(qa, source, people)
            return Statement(unit, node, sentence, value, replaced)
        kinds = self.lexicon.claim_kinds.get(qa.family, ())
        if not qa.family and not (qa.asks_change or qa.kind is QuestionKind.CURRENT):
            kinds = ()
        if qa.measure == "count":
            kinds = tuple(k for k in kinds if k != "money")  # "how many" is no price
        # the answer a question got is about what it asked ("so when do the swirls start?"
        # → "launching sat 3rd oct, £2.80 each")
        answered = unit.node.text if unit.node is not None and node is not unit.node else ""
        claimed = None
        if kinds and (qa.asks_clock or qa.asks_day):
            claimed = self._claim(qa, analysis, kinds, clock=qa.asks_clock, day=qa.asks_day,
                                  context=answered)
            claimed = claimed if claimed is not None and claimed[0] else None
        if claimed is None and kinds:
            claimed = self._claim(qa, analysis, kinds, context=answered)
        if claimed is not None:
            value, replaced, where = claimed
            if value and qa.family == "when" and not SPAN_OF_DAYS.search(value):
                # (a span of days is its own answer: the day found in it is one of its ends)
                text, day = when_in(qa, where, node.ts, prefer=self._prefer(qa, where))
                value = f"{value} ({day})" if day and day not in value else value
            return Statement(unit, node, where or sentence, value, replaced)
        slots = self.lexicon.answering_slots.get(qa.family, ())
        if not slots and (qa.asks_change or qa.kind is QuestionKind.CURRENT):
            slots = ANY_VALUE
        if qa.measure == "count":
            slots = tuple(k for k in slots if k != "money")
        value, replaced = value_in(qa, sentence, slots)
        if not value and slots:
            for other in split_sentences(source):
                if other != sentence:
                    value, replaced = value_in(qa, other, slots)
                    if value:
                        sentence = other
                        break
        if not value and qa.measure == "money":
            value = _amount_replied(sentence, unit, node)
        if value and qa.family == "when":
            text, day = when_in(qa, sentence, node.ts, prefer=self._prefer(qa, sentence))
            value = f"{text} ({day})" if text and day else text or value
        return Statement(unit, node, sentence, value, replaced)

    def _claim(self, qa: QuestionAnalysis, analysis: MessageAnalysis,
               kinds: Sequence[str], *, clock: bool = False, day: bool = False,
               context: str = "") -> tuple[str, str, str] | None:
        """(value, replaced value, clause text) of the claim of one of ``kinds`` (holding
        a time of day with ``clock``, a day with ``day``) whose subject shares the most
        words with the question; ("", "", "") when the message states such values only
        about other things; None when it states none."""
        if asks_a_percent(qa) and any(is_a_percent(cl.value.text)
                                      for c in analysis.clauses for cl in c.claims):
            # "what % of the reg is the soc paying": the share, not the sum it comes to
            analysis = _keeping(analysis, lambda cl: is_a_percent(cl.value.text))
        if asks_a_length(qa) and any(_a_length(cl) for c in analysis.clauses for cl in c.claims):
            # "how long will the website take?": "6 weeks", not the "2k" it was quoted
            analysis = _keeping(analysis, _a_length)
        if clock or day:
            held = has_clock if clock else has_day
            # a bare hour the analyzer read as a time ("we close at 7 instead of 8") is one
            analysis = _keeping(analysis, lambda cl: held(cl.value.text)
                                or (clock and cl.value.kind is Kind.TIME))
        wanted = {f for t in qa.terms for f in forms(t)}
        # "… from january": the period asked sits beside the value too ("£630 from jan")
        beside = wanted | unit_forms(" ".join(qa.dates))
        asked = unit_forms(" ".join([*qa.named, *qa.terms]))
        best: tuple[int, int, bool, bool, int, str, str, str] | None = None
        now = not qa.past and qa.kind in (QuestionKind.CURRENT, QuestionKind.WHEN)
        counting = "how many" in qa.cues
        whole_told = unit_forms(analysis.text)
        found = False
        whole = unit_forms(analysis.subject) | (unit_forms(context) if context else frozenset())
        said_before = clause_best = 0
        for clause in analysis.clauses:
            said_before, clause_best = max(said_before, clause_best), 0
            around = unit_forms(" ".join([clause.subject, clause.label]))
            for i, claim in enumerate(clause.claims):
                if not _fits(claim.value, kinds, qa.family) and not (
                        "person" in kinds and _names_a_holder(claim)):
                    continue
                if unit_forms(claim.value.text) <= asked:
                    continue  # the question's own words are not its answer ("2.4")
                if counting and _counts_else(claim.value, wanted) and wanted & whole_told:
                    # "marlow numbers packed, 800 + 20 spares": beside the thing asked, a
                    # count of other things is theirs (not "printer has 20 blanks left. 20
                    # then" for the hoodies: the blanks are what is counted)
                    continue
                found = True
                own = unit_forms(claim.subject) | around
                # a value said of nothing in particular may be about the message's subject
                # and so is one said of a bill ("… final bill $1,850")
                bare = not claim.subject and not clause.subject
                # the words leading up to the value in its clause ("i'm off on paternity
                # leave from mon 23rd") name what it is of when its subject does not
                led = unit_forms(analysis.text[clause.start:claim.value.start])
                # and so do the words after "of" it ("75% of warwick reg")
                after = analysis.text[claim.value.end:clause.end]
                if _OF.match(after):
                    led |= unit_forms(after)
                lead = sum(1 for t in qa.terms if forms(t) & led)
                score = len(wanted & own) or (
                    1 if (bare or self._names_a_bill(claim.subject, qa))
                    and wanted & (whole | asked) else 0) or (
                    lead if lead >= _LEAD_WORDS else 0)
                if bare and score and now and clause.change >= OVERRIDE_CHANGE:
                    # a change naming no subject goes on about the clause before it ("first
                    # aid training is OFF tonight … rebooked for thu 19 march")
                    score = max(score, said_before)
                if score == 0:
                    continue
                clause_best = max(clause_best, score)
                # the replaced value of the same kind, else of the same family ("scratch
                # the 2pm … 11am on tuesday instead": a time for a day and time)
                old = next((v.text for v in clause.old if v.kind == claim.value.kind),
                           next((v.text for v in clause.old
                                 if v.family == claim.value.family), ""))
                # among values said of the same subject, the one the question's words sit
                # beside ("$12 a month, $120 a year", "40 min for users, 25 for orders")
                # (not people: "i'm primary, marco secondary" names the speaker by "i")
                near = 0 if claim.value.family == "who" else len(
                    (beside - own) & beside_value(analysis.text, clause, i))
                # a clause changing the value outranks one of the same message it goes
                # on from, for what holds now ("CPR training is OFF tonight … rebooked
                # for thu 30 april")
                moved = now and clause.change >= OVERRIDE_CHANGE and claim.stated
                # at an equal score, a value said of the question's own words outranks one
                # said of nothing ("thanks all for tonight … pizza on saturdays")
                named = bool(wanted & own)
                rank = (score, near, moved, named, -i, claim.value.text, old, clause.text)
                if best is None or rank[:5] > best[:5]:
                    best = rank
        if best is not None:
            return best[5].strip(_TRAILING), best[6].strip(_TRAILING), best[7]
        if found and wanted & whole:
            # the message is about the question's subject and a clause that names no
            # subject of its own goes on about it ("workshop deadline got extended!! now
            # sept 26 …"): its value is the subject's
            told = False
            for clause in analysis.clauses:
                # … or opens with a pronoun for it ("byte café replied!! they'll sponsor us
                # £200 for their logo": the logo is what the money is for, not its subject)
                carried = told and _PRONOUN_OPENING.match(clause.text) is not None
                told = bool(wanted & unit_forms(clause.subject)) and not clause.claims
                if clause.subject and not carried:
                    continue
                for claim in clause.claims:
                    if _fits(claim.value, kinds, qa.family) and not unit_forms(
                            claim.value.text) <= asked:
                        old = next((v.text for v in clause.old
                                    if v.kind == claim.value.kind), "")
                        return (claim.value.text.strip(_TRAILING), old.strip(_TRAILING),
                                clause.text)
            # a message about the subject stating one amount states the subject's ("jersey
            # order goes in tomorrow … kitbash did us a bulk price, £28 each now"), whatever
            # its clause is said of (a day, a place or a person in it may be another
            # thing's: "I'll add it to thursday's order")
            # ("how long will it take" asks a duration, never the "2k" it costs)
            amounts = frozenset() if "how long" in qa.cues else _AMOUNTS.get(
                qa.family, frozenset())
            sole = [(c, clause) for clause in analysis.clauses for c in clause.claims
                    if c.value.kind in amounts and not unit_forms(c.value.text) <= asked]
            if len({c.value.text for c, _ in sole}) == 1:
                claim, clause = sole[0]
                old = next((v.text for v in clause.old if v.kind == claim.value.kind), "")
                return (claim.value.text.strip(_TRAILING), old.strip(_TRAILING),
                        clause.text)
        return ("", "", "") if found else None

    def _names_a_bill(self, subject: str, qa: QuestionAnalysis) -> bool:
        """Whether ``subject`` only names a bill ("final bill", "the invoice") when ``qa``
        asks a price, so the amount is the price of what its message is about. (A
        "deadline" or a "start time" is a thing of its own; "so they pay $50 total" sums
        other prices.)"""
        if qa.family not in ("money", "price"):
            return False
        ws = [w.low for w in words(subject) if w.low not in STOPWORDS
              and w.low not in _BILL_MODIFIERS]
        return bool(ws) and all(w in self.lexicon.bill_words for w in ws)

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
        # (a name opening with a word the question names its thing by is that thing:
        # "Odonto Cloud" for "who is running the odonto migration"; "Jordan Park" is a
        # person for "who is running the park cleanup")
        named = {f for t in qa.named or qa.terms for f in forms(t)}
        lead = chosen.value.split()[0] if chosen.value else ""
        if chosen.value and (unit_forms(chosen.value) <= unit_forms(qa.text)
                             or bool(named & unit_forms(lead))
                             or _mostly_named(chosen.value, named)) and \
                not _NAMES_WHO.search(qa.text):
            # the question's own object is not who acted on it ("who booked Kettle Drum
            # Collective?" over "asked Kettle Drum Collective, they're free"): its speaker
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
            # what holds now is the latest answer deciding a value of the kind asked
            # ("xmas social! … at The Plough?" → "plough's back room is taken …" → "ha.
            # star inn it is"), also over a value the asking turn gave ("quiz thurs as
            # usual? fox & hounds 8pm" → "quiz starts 8:30 from this week not 8")
            deciding = [a for a in unit.answers if self._tells_kind(qa, a)] if (
                not qa.past and qa.kind in (QuestionKind.CURRENT, QuestionKind.FACT,
                                            QuestionKind.WHEN)) else []
            if not qa.past and not deciding and self._tells_kind(qa, node):
                return node.text, node
            # (not a turn asking the question's thing itself: "the barn it is. and caterer,
            # Greens or Pinch?" is answered in its turn)
            told = [a for a in unit.answers if qa.kind is QuestionKind.WHO
                    or not self._asks_it(qa, a)]
            if not deciding and not told:
                return node.text, node
            answer = max(deciding, key=lambda a: (a.ts, a.seq)) if deciding else best_answer(
                told, node, qa)
            if any(ch.isalnum() for ch in answer.text) and not (
                    not deciding and not qa.confirm and qa.kind is not QuestionKind.WHO
                    and (assents_only(answer.text, self.lexicon.accept)
                         or (accepts(answer.text, self.lexicon.accept)
                             and not self._holds_kind(qa, answer)))
                    and self._holds_kind(qa, node)):
                return answer.text, answer
            # a reaction ("🍻") or a bare yes ("yessss", "yes. tell him friday" of the 6
            # weeks put forward) takes the suggestion up: the suggestion says what it is
        return node.text, node

    @staticmethod
    def _asks_it(qa: QuestionAnalysis, node: EvidenceNode) -> bool:
        """Whether ``node`` asks more of the question's words than it tells."""
        asks, tells = unit_forms(asked_part(node.text)), unit_forms(told_part(node.text))
        return sum(1 for t in qa.terms if forms(t) & asks) > sum(
            1 for t in qa.terms if forms(t) & tells)

    def _tells_kind(self, qa: QuestionAnalysis, node: EvidenceNode) -> bool:
        """Whether the sentences of ``node`` that do not ask decide a value of the kind
        asked ("brilliant, ditchley common it is. meet 8pm?" tells the place; its answer
        is about the time)."""
        who = qa.family == "person" or qa.kind is QuestionKind.WHO
        kinds = self._kinds_asked(qa)
        told = told_part(node.text)
        if not kinds or not told:
            return False
        wanted = {f for t in qa.terms for f in forms(t)}
        if self._asks_it(qa, node):
            return False  # "the barn it is. and caterer, Greens or Pinch?" asks the caterer
        analysis = self.analyzer.analyze(told, speaker=node.speaker)
        # (of nothing named, or of the question's thing: "the football league has the
        # field til 12:30. could the fair start at 1?" tells the league's time)
        # (who: only a person said of the question's thing, "i'll sort the food!"; a request
        # names the one asked and its answer says who took it: "I'll drop it at yours")
        # (a correction or a hand-over sets the value as much as a decision does:
        # "crooked fence pints go from $7 to $7.50. luis can you redo the chalkboard?")
        return any(cl.value.kind.value in kinds and c.act in _SETTING
                   and (not (cl.subject or who) or bool(wanted & unit_forms(cl.subject)))
                   for c in analysis.clauses for cl in c.claims)

    def _kinds_asked(self, qa: QuestionAnalysis) -> tuple[str, ...]:
        """The value kinds that answer ``qa``: a person for *who*, else its family's."""
        if qa.family == "person" or qa.kind is QuestionKind.WHO:
            return ("person",)
        return tuple(self.lexicon.claim_kinds.get(qa.family, ())) if qa.family else ()

    def _holds_kind(self, qa: QuestionAnalysis, node: EvidenceNode) -> bool:
        """Whether ``node``, asking or not, names a value of the kind asked ("staff drinks fri
        19 june after close at the crown?" for "when are staff drinks")."""
        kinds = self._kinds_asked(qa)
        analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
        return any(cl.value.kind.value in kinds for c in analysis.clauses for cl in c.claims)


# Words that qualify a bill without naming another thing ("final bill").
_BILL_MODIFIERS = frozenset({"final", "new", "actual", "revised", "updated", "latest"})


def _a_length(claim: Claim) -> bool:
    """Whether ``claim`` states a duration or a distance, not an amount of money ("2k")."""
    return claim.value.kind is not Kind.MONEY and is_a_length(claim.value.text)
