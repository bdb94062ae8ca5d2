"""Which statement answers: the latest for what holds now (not a reaction, nor another
thing of the kind asked), the first for
what was original, the one before the latest change (or before the change the question
names) for what it was before; and a plain fact's later correction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime, timedelta

from memory.analysis.amount_bounds import BOUND_ASKED, bound_before
from memory.analysis.definitions import QuestionKind, SpeechAct
from memory.analysis.matching import measure, other_of_kind, values_match
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import QuestionAnalysis, is_change_word, words
from memory.analysis.question_lexicon import DETERMINERS, QuestionLexicon
from memory.analysis.question_words import find_phrase
from memory.analysis.value_types import Kind
from memory.dates import coarser_than_a_day
from memory.reader.answer_parts import (
    OVERRIDE_CHANGE,
    Statement,
    _asks,
    _before,
    _value_words,
    amount,
    direction,
    last_move,
    moved,
)
from memory.reader.coverage_values import asks_a_percent, is_a_percent
from memory.reader.reasons import accepts, reached_to
from memory.reader.when_values import has_clock, has_day
from memory.reader.word_forms import anchor_forms, forms, part_of, unit_forms
from memory.text import (
    STOPWORDS,
    family_of,
    find_slots,
    has_revision_cue,
    is_calendar_word,
    names_value,
    weekdays_in,
)

# Words before a value that still speak of it ("new total ~$1,850", "for navy $14").
_WORDS_BEFORE = 3



def names_numbers(qa: QuestionAnalysis, text: str) -> bool:
    """Whether ``text`` names no other number of a series the question names one of
    ("#27" when "meetup #28" is asked, "ep 17" for "ep 18", "R30" for "R31's"): what is
    said of another of the series does not answer. Text naming none of it may."""
    for pattern, number in _series(qa):
        said = {m.group(1) for m in pattern.finditer(text)}
        if said and number not in said:
            return False
    return True


def _series(qa: QuestionAnalysis) -> list[tuple[re.Pattern[str], str]]:
    """For each numbered thing the question names, a pattern finding the numbers of its
    series in a text ("#(\\d+)", "ep\\s?(\\d+)", "R(\\d+)") and the number asked."""
    out: list[tuple[re.Pattern[str], str]] = []
    for m in _NUMBERED.finditer(qa.text):
        lead = m.group(1) or m.group(2) or ""
        if "#" in lead:
            lead = "#"
        lead = lead.strip()
        if not lead or lead.lower() in STOPWORDS:
            continue  # a number alone ("the 18 upgrade", "at 6") names no series
        out.append((re.compile(rf"(?<![\w#]){re.escape(lead)}\s?#?(\d{{1,6}})(?![\d.])",
                               re.IGNORECASE), m.group(3)))
    return out


# "#28", "ep 18", "R31", "meetup #28": a series' lead and the number.
_NUMBERED = re.compile(r"(?<![\w#])(?:(#)|([A-Za-z]{1,12}\s?#?))?(?<![\d.])(\d{1,6})(?![\d.:]|st\b|"
                       r"nd\b|rd\b|th\b|\s?(?:am|pm)\b)")


def _another_of_kind(qa: QuestionAnalysis, sentence: str) -> bool:
    """Whether ``sentence`` names the head of the question's subject only with a word of
    its own before it ("sponsor forms" for the "consent forms" asked), never as asked."""
    subject = qa.subject.lower()
    head = subject.split()[-1] if subject else ""
    if len(subject.split()) < 2 or not head or subject not in qa.text.lower():
        return False  # (a subject the question names as one phrase: "consent forms")
    low = [w.low for w in words(sentence)]
    heads = [i for i, w in enumerate(low) if w == head and i > 0]
    if not heads or subject in " ".join(low):
        return False
    return all(_other_modifier(low[i - 1]) and other_of_kind(
        subject, f"{low[i - 1]} {head}") for i in heads)


def _other_modifier(word: str) -> bool:
    """Whether a word before a noun may make it another thing ("sponsor forms"; not "next
    forms", "monday's order", "2nd order")."""
    base = word.removesuffix("'s").removesuffix("’s")
    return base not in _PLAIN_MODIFIERS and not is_calendar_word(base) and not any(
        ch.isdigit() for ch in base)


# Words before a noun that do not make it another thing ("the forms", "next work day").
_PLAIN_MODIFIERS = DETERMINERS | {"next", "last", "first", "second", "new", "old", "same",
                                  "other", "final", "latest", "upcoming", "usual"}


# A message asking for something: a question, or a request opening it ("can we get teal").
_REQUEST = re.compile(r"\?|^\W{0,3}(?:(?:can|could|shall|should|would)\s(?:we|i|u|you)|"
                      r"how about|what about)\b", re.IGNORECASE)


def _terms_named(qa: QuestionAnalysis, text: str) -> int:
    """How many of the question's words ``text`` names (in any of their forms)."""
    said = unit_forms(text)
    return sum(1 for t in qa.terms if forms(t) & said)


def other_weekday(qa: QuestionAnalysis, value: str, sentence: str = "") -> bool:
    """Whether ``value`` (else, when it names no weekday, the ``sentence`` it was said in)
    names weekdays and none of those a question asking a time of day names ("sundays
    9–10am" for "what time's junior squad on saturdays"). (A question asking the day may
    name the one it moved off: "what day is standup now it's off mondays".)"""
    if not qa.asks_clock:
        return False
    asked = weekdays_in(qa.text)
    said = weekdays_in(value) or weekdays_in(sentence)
    return bool(asked) and bool(said) and not said & asked


def _bound(st: Statement) -> tuple[int, float | None]:
    """Whether ``st``'s value is said as a bound (+1 above it: "we passed 120 units"; -1
    below it), and its amount."""
    if not st.value:
        return 0, None
    at = st.sentence.find(st.value)
    way = bound_before(st.sentence[:at]) if at > 0 else 0
    return way, amount(st.value) if way else None


def _settled_bounds(statements: Sequence[Statement]) -> list[Statement]:
    """``statements`` without those saying only a bound that an exact amount among them
    agrees with ("we passed 120 units" beside "126 units!!!"; not "at least 34" beside an
    earlier "20")."""
    exact = [a for st in statements if not _bound(st)[0]
             and (a := amount(st.value)) is not None]
    kept = []
    for st in statements:
        way, bound = _bound(st)
        if way and bound is not None and any((a - bound) * way > 0 for a in exact):
            continue
        kept.append(st)
    return kept


def _bare_reply(st: Statement, wanted: AbstractSet[str]) -> bool:
    """Whether ``st`` is a short reply saying none of the question's words and no number
    ("of course!", "yes pls"): what it answers says what it is about."""
    said = words(st.sentence)
    return (len(said) <= _BARE_REPLY_WORDS and not wanted & unit_forms(st.sentence)
            and not any(ch.isdigit() for ch in st.sentence))


# The most words a reply says and is still only an answer to the turn before it.
_BARE_REPLY_WORDS = 4


def _said_at(st: Statement) -> tuple[datetime, int]:
    """When a statement was said, for ordering (its message's time, then its place)."""
    return st.node.ts, st.node.seq


# "when *did* X …": an action asked about, which a report of it answers ("what night was
# trivia?" asks the event's date).
_DID = re.compile(r"\b(?:did|didn't)\b", re.IGNORECASE)

# How soon after a value a reply saying part of it again is read as restating it.
RESTATED_WITHIN = timedelta(hours=1)


def _restates(reply: Statement, said: Statement) -> bool:
    """Whether ``reply`` is someone else's quick reply saying part of ``said``'s value
    again."""
    return (reply.node.speaker_id != said.node.speaker_id
            and timedelta(0) <= reply.node.ts - said.node.ts <= RESTATED_WITHIN
            and part_of(reply.value, said.value))


class StatementChoice:
    """A base of :class:`memory.reader.statements.StatementReader`: which of the covering
    messages' statements answers."""

    lexicon: QuestionLexicon
    analyzer: MessageAnalyzer

    def _choose(self, qa: QuestionAnalysis, statements: Sequence[Statement]) -> Statement:
        kind = qa.kind
        if kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL):
            return self._earlier(qa, statements)
        if self._latest_wins(qa):
            wanted = {f for t in qa.terms for f in forms(t)}
            about = [st for st in statements if names_numbers(qa, st.unit.text)] or list(
                statements)
            # a later message naming none of the question's words, nor answering one that
            # does, is about something else ("CPR training moving … Now Tue 20 Oct, 5:30pm"
            # is no new time for the phones)
            about = [st for st in about if wanted & unit_forms(
                f"{st.unit.text} {st.unit.context}")] or about
            # nor is one naming under half as many of them as another ("Vendor setup is now
            # 7am" for the deadline to reserve a vendor table, said "Deadline to reserve is
            # May 8")
            said = {id(st): _terms_named(qa, f"{st.unit.text} {st.unit.context}")
                    for st in about}
            most = max(said.values(), default=0)
            about = [st for st in about if 2 * said[id(st)] >= most] or about
            if qa.family == "when" and not qa.asks_clock:
                # "from which saturday does the 9:15 start kick in": the time the question
                # names the thing by is said where that thing is
                clocks = [sl.text for sl in find_slots(qa.text)
                          if sl.kind.value == "time" and has_clock(sl.text)]
                timed = [st for st in statements
                         if any(names_value(st.sentence, c) for c in clocks)]
                about = timed or about
            # a reaction ("🍻", "👍") answers nothing, however late
            about = [st for st in about if any(ch.isalnum() for ch in st.node.text)] or about
            if qa.kind is QuestionKind.WHO:
                # who holds it now: a message that names the role, not one that only
                # borrows it from the turn it answers
                about = [st for st in statements if wanted & unit_forms(st.sentence)] or about
            if qa.kind is QuestionKind.WHEN and qa.past and not qa.asks_change and \
                    _DID.search(qa.text):
                # "when did the compost arrive?": the message reporting that it happened
                # ("compost is here!"), not a later one planning something else; a
                # platform's line ("uploaded a file") reports nobody's errand
                reports = [st for st in about if self._reports_done(qa, st) and wanted & (
                    unit_forms(st.sentence) | unit_forms(st.node.speaker))
                    and not self.lexicon.ahead.search(st.sentence)
                    and not self.analyzer.analyze(st.node.text, speaker=st.node.speaker).system]
                if reports:
                    report = max(reports, key=_said_at)
                    # unless a later message tells when it happened ("the couch came on
                    # thursday" after "ordered the couch")
                    told = [st for st in about if st.node.ts > report.node.ts
                            and wanted & unit_forms(st.sentence)
                            and (has_day(st.value) or has_day(st.sentence))
                            and self.lexicon.told_past.search(st.sentence)]
                    return max(told or [report], key=_said_at)
            valued = [st for st in about if st.value or self._reports_done(qa, st)] or about
            if not any(st.value for st in valued):
                # no value found in any: not a bare reply borrowing the question's words
                # from what it answers ("of course!" to "can I use my own machine?" for
                # "which card machine are we using")
                valued = [st for st in valued if not _bare_reply(st, wanted)] or valued
            # "sponsor forms … by fri 12 june" is another thing than the consent forms asked
            valued = [st for st in valued if not _another_of_kind(qa, st.sentence)] or valued
            asked = qa.measure
            if asked:
                # "how many" is not answered by a price, nor "how much" by a count of things
                valued = [st for st in valued if measure(st.value) in (asked, "")] or valued
            if asked and not BOUND_ASKED.search(qa.text):
                # "126 units!!!" over a later "we passed 120 units": a bound crossed is
                # no count, unless a bound is what is asked ("what's the cap")
                valued = _settled_bounds(valued) or valued
            if qa.family == "count" and qa.attributes and not any(
                    measure(st.value) == "money" for st in valued):
                # "what's the playtest build number": the number said beside that word, not
                # a later count of something else ("1000 keys"); (an amount of money is
                # raised in words that need not name it: "set budget's £750")
                named = [st for st in valued if st.value and any(
                    forms(a) & unit_forms(st.sentence) for a in qa.attributes)]
                valued = named or valued
            if asks_a_percent(qa):
                # "what % of the reg is the soc paying": the share, not the sum it comes to
                valued = [st for st in valued if is_a_percent(st.value)] or valued
            if qa.asks_clock:
                valued = [st for st in valued if has_clock(st.value or st.sentence)
                          or self._typed_clock(st)] or valued
            if qa.asks_day:
                # (a day in another sentence of the message: "right, hospice quiz! hall is
                # booked fri 26 sept. thinking 7:30 start" over a later "7pm start it is")
                valued = [st for st in valued if has_day(st.value or st.sentence)] or [
                    st for st in valued if has_day(st.node.text)] or valued
                # "what date": not "this week" when a day is said
                valued = [st for st in valued if not coarser_than_a_day(
                    st.value, st.node.ts)] or valued
            # "what time's junior squad on saturdays": not the sundays' time
            valued = [st for st in valued
                      if not other_weekday(qa, st.value, st.sentence)] or valued
            # "can we get teal 🥺" puts a value forward; nobody taking it up, what was
            # said before it stands
            # (who holds it may be who offered: "I can do it")
            if qa.kind is not QuestionKind.WHO:
                valued = [st for st in valued if not self._only_asked(st)] or valued
            if not qa.past:
                # "tesco 9pm run done" tells when one run happened, not the time in force
                valued = [st for st in valued if not self._carried_out(st)] or valued
            ordered = sorted(valued, key=_said_at)
            if len(ordered) > 1 and _restates(ordered[-1], ordered[-2]):
                # a reply saying part of the value just before it again ("5:30 is better
                # for me" after "now Tue 20 Oct, 5:30pm") adds nothing to it
                return ordered[-2]
            return ordered[-1]
        if qa.kind is QuestionKind.WHO and qa.role == "rejecter":
            turned = [st for st in statements if any(
                accepts(a.text, self.lexicon.reject) for a in st.unit.answers)]
            if turned:
                return turned[0]
        if qa.kind is QuestionKind.WHO and qa.role in ("changer", "decider"):
            # "who bumped the clay order up to 30 bags": the message that set 30 ("make it
            # 30 bags"), not one naming the order beside another number
            reached = reached_to(qa.text)
            setting = [st for st in statements if reached and all(
                any(names_value(c.value.text, v) for c in self.analyzer.analyze(
                    st.node.text, speaker=st.node.speaker).claims) for v in reached)]
            if setting:
                # the first to set it; a later message only repeats it ("15% everywhere now")
                return min(setting, key=_said_at)
        return statements[0]

    def _corrected(self, qa: QuestionAnalysis, chosen: Statement,
                   statements: Sequence[Statement]) -> Statement:
        """For a plain fact ("what was the Dec 31 balance?"): a later message that corrects
        or changes a value of the kind the chosen one states ("Correction, … Dec 31 balance
        is $7,862.18") says what it is."""
        def value_of(st: Statement) -> str:
            return st.value or next((sl.text for sl in find_slots(st.sentence)
                                     if sl.family != "when"), "")

        said = value_of(chosen)
        if qa.kind is not QuestionKind.FACT or not said:
            return chosen
        kind_of = family_of(said)
        later = [st for st in statements if st.node.ts > chosen.node.ts
                 and (v := value_of(st)) and family_of(v) == kind_of
                 and measure(v) == measure(said) and not values_match(v, said)
                 and self.analyzer.analyze(st.node.text).changes >= OVERRIDE_CHANGE]
        return max(later, key=_said_at) if later else chosen

    def _only_asked(self, st: Statement) -> bool:
        """Whether ``st``'s message only asks for its value ("can we get teal 🥺", "teal?":
        a request or a question in every clause stating one; not an offer, "we can start
        thursday") and no reply linked to it accepts it."""
        if not _REQUEST.search(st.node.text[:300]):
            return False
        analysis = self.analyzer.analyze(st.node.text, speaker=st.node.speaker)
        stating = [c for c in analysis.clauses if c.claims] or list(analysis.clauses)
        asking = (SpeechAct.PROPOSAL, SpeechAct.QUESTION)
        if not (stating and all(c.act in asking for c in stating)):
            return False
        return not any(accepts(a.text, self.lexicon.approve, self.lexicon.fillers)
                       or accepts(a.text, self.lexicon.accept, self.lexicon.fillers)
                       for a in st.unit.answers if a.speaker_id != st.node.speaker_id)

    def _carried_out(self, st: Statement) -> bool:
        """Whether ``st``'s value is said in a clause reporting a thing carried out, which
        the analyzer reads as planning nothing ("tesco 9pm run done")."""
        if not st.value:
            return False
        analysis = self.analyzer.analyze(st.node.text, speaker=st.node.speaker)
        completed = self.analyzer.lexicon.completed
        return any(c.act is SpeechAct.CHATTER and st.value in c.text
                   and completed.search(c.text) is not None for c in analysis.clauses)

    def _typed_clock(self, st: Statement) -> bool:
        """Whether the statement's value is one the analyzer read as a time of day ("close
        at 7")."""
        return bool(st.value) and any(
            cl.value.kind is Kind.TIME and cl.value.text == st.value
            for cl in self.analyzer.analyze(st.node.text, speaker=st.node.speaker).claims)

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

    def _held_before(self, timeline: Sequence[Statement], i: int) -> Statement:
        """The value held before ``timeline[i]``: not one only put forward after another
        was held ("What about the Field Museum??" between the Greenhouse Loft and
        Kimball)."""
        before = _before(timeline, i)
        if not self._puts_forward(before):
            return before
        held = [st for st in timeline[:i] if st.node.ts < before.node.ts
                and not self._puts_forward(st)
                and unit_forms(st.value) != unit_forms(timeline[i].value)]
        return held[-1] if held else before

    def _puts_forward(self, st: Statement) -> bool:
        act = self.analyzer.analyze(st.node.text, speaker=st.node.speaker).act
        return act in (SpeechAct.PROPOSAL, SpeechAct.QUESTION)

    def _earlier(self, qa: QuestionAnalysis, statements: Sequence[Statement]) -> Statement:
        """The earlier statement asked for: the first (original); the one before the first
        naming the question's anchor value ("before devon"); the one before the latest
        change ("before it got pushed": the latest message using a change word of the
        question, or any word of change); else the one before the latest value; a single
        statement's replaced value ("X instead of Y")."""
        timeline = sorted((st for st in statements if st.value),
                          key=_said_at)
        if not timeline:
            return statements[0]
        if qa.asks_clock:
            # "what start time did lena give before …" is not answered by a day alone
            timeline = [st for st in timeline
                        if has_clock(st.value) or self._typed_clock(st)] or timeline
        if qa.asks_day:
            # nor "what day was the brew set for before the move" by a time alone
            timeline = [st for st in timeline if has_day(st.value)] or timeline
        if qa.kind is QuestionKind.ORIGINAL:
            # the first change found names what it replaced ("cut the order from 6 to 4"):
            # that was there before it
            # (not a value first put forward: "what did I first propose for dues" / "$45 →
            # $55/mo" asks the $55)
            first = timeline[0]
            if not first.replaced:
                return first
            lows = [w.low for w in words(qa.text)]
            put_forward = any(find_phrase(lows, p) >= 0 for p in self.lexicon.roles.proposer)
            return first if put_forward else _replaced_of(first)
        way = direction(qa.anchor, self.lexicon)
        if way:
            # "before the increase": the value the latest change that way left, named by
            # the change itself ("from £612 to £643") or said by the message before it
            named = [i for i, st in enumerate(timeline)
                     if st.replaced and moved(st.replaced, st.value, way)]
            at = last_move([st.value for st in timeline], way)
            if named and named[-1] >= at:
                st = timeline[named[-1]]
                return _replaced_of(st)
            if at > 0:
                return timeline[at - 1]
        anchor = _value_words(qa.anchor, self.lexicon)
        if anchor:
            for i, st in enumerate(timeline):
                if anchor & anchor_forms(st.value):
                    if st.replaced:
                        # "scratch the 2pm … we're doing 11am instead": what the change to
                        # the anchor's value names as replaced
                        return _replaced_of(st)
                    if i > 0:
                        return self._held_before(timeline, i)
            # "before v4", "before round 2": a label with a number names the message that
            # made the change, whatever value it states
            labels = {w for w in anchor if any(ch.isdigit() for ch in w)}
            for i, st in enumerate(timeline):
                if i > 0 and labels & unit_forms(st.sentence):
                    return _before(timeline, i)
        changes = {f for w in words(qa.anchor) if is_change_word(w.low, self.lexicon)
                   for f in forms(w.low)} | {f for c in qa.changes for f in forms(c)}
        for i in range(len(timeline) - 1, 0, -1):
            text = timeline[i].node.text
            if (changes and changes & unit_forms(text)) or has_revision_cue(text):
                return self._held_before(timeline, i)
        before = self._held_before(timeline, len(timeline) - 1)
        if before is not timeline[-1]:
            return before
        last = timeline[-1]
        if last.replaced:
            return _replaced_of(last)
        return last


def _replaced_of(st: Statement) -> Statement:
    """The value ``st`` names as replaced, as a statement of its own: its sentence is that
    value (the message's sentence says the new one, which a when-answer would read)."""
    return Statement(st.unit, st.node, st.replaced, st.replaced, "")
