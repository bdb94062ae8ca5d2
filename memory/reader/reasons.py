"""Why something changed: the reason given in or beside the message that changed it.

In order: the reason the writer noted on the chain entry; the clause after a reason word in
the changing message ("because…", "due to…"); the turn it accepts when it opens by
accepting ("good catch. yes: postponed until the 12th" after "Nov 5 is election day");
what the message says beside its decision (the sentence after it, or its other clauses);
a reason the same speaker gives just before or after.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta

from memory.analysis.definitions import SpeechAct
from memory.analysis.matching import values_match
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.reason_words import (
    AGAINST_WORDS,
    CAN_DO,
    CONCERN_WORDS,
    NOT_DONE_WORDS,
    REFUSAL_WORDS,
    says_no_reason,
)
from memory.dates import WEEKDAY_NAMES
from memory.models import ChainEntry, EvidenceNode
from memory.reader.answer import split_sentences
from memory.reader.answer_parts import OVERRIDE_CHANGE
from memory.reader.coverage import Unit, told_part
from memory.reader.extract import reason_in, says
from memory.reader.word_forms import unit_forms
from memory.text import (
    STOPWORDS,
    find_slots,
    has_revision_cue,
    names_a_date,
    names_value,
    shorten,
    weekdays_in,
)

# Words before a value that make it the value a change left ("instead of the 27th").
_LEFT = re.compile(r"(?:\boff|\bfrom|\binstead of|\bnot|\bthan|\bover)\s{0,3}(?:the\s)?$",
                   re.IGNORECASE)
# The kinds of value a why-question names as the one a change reached ("why 9:30 for the
# cake", "why did it slip to the 27th").
_REACHED_KINDS = frozenset({"time", "date", "money"})


def reached_values(question: str) -> list[str]:
    """The times, days and amounts ``question`` names as reached by the change it asks
    about, not those it names as left ("instead of the 27th", "not thursday")."""
    return [_ARTICLE.sub("", s.text) for s in find_slots(question)
            if s.kind.value in _REACHED_KINDS
            and not _LEFT.search(question[max(0, s.start - 14):s.start])]


def reached_to(question: str) -> list[str]:
    """The values a question says something was changed *to* ("up to 30 bags", "to 4pm")."""
    return [sl.text for sl in find_slots(question)
            if sl.kind.value in ("time", "date", "money", "number", "count")
            and _TO_VALUE.search(question[max(0, sl.start - 10):sl.start])]


# What leads up to the value a change reached ("up to", "down to", "to the", "who decided
# the discount would *be* 15%", "is now").
_TO_VALUE = re.compile(r"\b(?:to|be|is\snow)\s{1,3}(?:the\s)?$", re.IGNORECASE)


_WEEKDAYS = frozenset(d.lower() for d in WEEKDAY_NAMES)


def names_reached(text: str, value: str) -> bool:
    """Whether ``text`` names ``value`` (a weekday also by its short form where it is a
    day: "why did it move to sunday" → "moves to sun 21 june")."""
    if names_value(text, value):
        return True
    day = value.strip().lower().removesuffix("s")
    if day not in _WEEKDAYS:
        return False
    short = re.escape(day[:3])
    return re.search(r"\b" + short + r"\.?\s(?:the\s)?\d|\b(?:on|to|til|till|until|from|next|"
                     r"this)\s" + short + r"\b", text, re.IGNORECASE) is not None


def refuses(text: str, lexicon: QuestionLexicon) -> bool:
    """Whether ``text`` opens by turning something down ("not keen on 30 …", "nah"), not
    with a "no" that agrees ("no worries, makes sense", "not gonna lie, thursdays would be
    great")."""
    return (accepts(text, lexicon.reject, lexicon.fillers)
            or _POLITE_NO.match(text) is not None) and not _AGREEING_NO.match(text)


def spoken_against(covering: Sequence[Unit], lexicon: QuestionLexicon,
                   naming: frozenset[str] = frozenset()) -> EvidenceNode | None:
    """The best covering message turning its thing down or raising a concern about it
    ("Ben, no to NexGard — most of our clients are on …", "not MAQS in August, please"),
    saying one of the word forms ``naming`` itself when given (not only in its thread)."""
    for unit in covering:
        node = unit.node
        if node is None or (naming and not naming & unit_forms(node.text)):
            continue
        text = _ADDRESSED.sub("", node.text, count=1)
        if refuses(text, lexicon) or says(text, REFUSAL_WORDS) or says(text, CONCERN_WORDS):
            return node
    return None


# A name the message opens by addressing ("Ben, no to NexGard").
_ADDRESSED = re.compile(r"^\W{0,3}@?[A-Z][\w.'’-]{1,30},\s{1,3}")


# A refusal after a word of thanks or regret ("ta Frank but no, …", "sorry but nah").
_POLITE_NO = re.compile(r"\W{0,3}(?:[\w'’]{1,20}\s){0,4}but\s(?:no|nah|nope|not\s(?:for|this|"
                        r"now|yet|keen))\b", re.IGNORECASE)


# Replies opening with "no"/"not" that agree.
_AGREEING_NO = re.compile(r"\W{0,3}(?:no\s(?:worries|problem|probs?|doubt|objections?|rush|"
                          r"complaints|issues?)|not\s(?:gonna|going\sto)\slie|not\sbad|"
                          r"not\sa\sproblem|no\sbrainer)\b", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:the|a)\s{1,3}", re.IGNORECASE)


# How far from the changing message a reason by the same speaker is looked for.
NEAR_SECONDS = 15 * 60
# How long before a change a turn may hold its reason.
BEFORE_SECONDS = 6 * 3600
# The longest question asking why a change was made ("why?", "wait how come?").
ASKED_WORDS = 6
# A message quoted whole as the reason when nothing narrower is found is cut to this.
WHOLE_CHARS = 300


def accepts(text: str, openers: Sequence[str], fillers: frozenset[str] = frozenset()) -> bool:
    """Whether ``text`` opens with one of ``openers`` ("agreed.", "good catch", "no, …"),
    after any of ``fillers`` ("honestly yeah"); a concession turned by "but" ("true but
    ArtMove has the air-ride van") takes nothing up."""
    lows = [w.low for w in words(text[:80])]
    while lows and lows[0] in fillers:
        lows = lows[1:]
    for opener in openers:
        parts = opener.split()
        if lows[: len(parts)] == parts:
            return opener not in _CONCEDING or "but" not in lows[len(parts): len(parts) + 2]
    if _VALUE_TAKEN.match(text[:80]):
        return True  # "9 is fine, more people will make it anyway"
    return text.lstrip().startswith(tuple(o for o in openers if not o[:1].isalpha()))


# Openers granting a point before a "but" that turns against it ("true but ArtMove has the
# air-ride van"; not "yes but announce it in march", which agrees on a condition).
_CONCEDING = frozenset({"true", "fair", "fair enough", "granted", "fair point", "good point",
                        "i know", "i get that", "i hear you"})


# A reply taking up the value put to it ("9 is fine", "wed works", "10 it is", "8:30 then").
_VALUE_TAKEN = re.compile(
    r"\s{0,3}(?:the\s)?(?:\d{1,2}(?:[:.]\d\d)?\s?(?:am|pm)?|(?:mon|tue|tues|wed|thu|thur|thurs|fri|"
    r"sat|sun)(?:day|nesday|sday|rsday|urday)?)\s(?:is\s(?:fine|good|ok|okay|great|perfect)|"
    r"works|it\sis|then|sounds\s(?:good|great|fine))\b", re.IGNORECASE)


def assents_only(text: str, openers: Sequence[str]) -> bool:
    """Whether ``text`` only says yes ("yessss", "ok!", "sounds good 👍"): a few words, no
    number, opening with a word of assent (its letters drawn out or not)."""
    plain = _DRAWN_OUT.sub(r"\1", text)
    return len(words(plain)) <= _YES_WORDS and not any(ch.isdigit() for ch in plain) and \
        accepts(plain, openers)


def opens_agreeing(text: str) -> bool:
    """Whether ``text``'s first sentence is short enough to only agree ("fair.", "ok
    convinced.", "agreed, book wessex pete"; not "yes L3 PM Sat 8.3: conveyor drive bearings
    + …", an answer of its own). Whether it opens with a word of assent is
    :func:`accepts`'s to say."""
    sentences = split_sentences(text)
    return bool(sentences) and len(words(sentences[0])) <= _AGREEING_WORDS


# A letter said three times or more ("yessss"): a drawn-out word.
_DRAWN_OUT = re.compile(r"(\w)\1{2,20}")
# Most words of a reply that only says yes, and of a first sentence that only agrees.
_YES_WORDS = 3
_AGREEING_WORDS = 6


class Reasons:
    """Finds reasons over the nodes a reader session has read."""

    def __init__(self, *, lexicon: QuestionLexicon, analyzer: MessageAnalyzer) -> None:
        self.lexicon = lexicon
        self.analyzer = analyzer

    def noted(self, entry: ChainEntry) -> str:
        """The reason the writer noted on a chain entry (none when it only says what stays
        the same or asks readers to act: the offline writer no longer notes those, but an
        LLM writer or a store written before may have; the message may give the reason
        elsewhere)."""
        noted = str(getattr(entry, "reason", "") or "")
        return "" if says_no_reason(noted) else noted

    def cued(self, node: EvidenceNode, nodes: dict[str, EvidenceNode]) -> str:
        """A reason ``node`` gives in so many words: the analyzer's, or one after a reason
        word."""
        analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
        return analysis.reason or reason_in(node.text)

    def beside(self, node: EvidenceNode, nodes: dict[str, EvidenceNode], *,
               value: str = "", decision: frozenset[str] = frozenset()) -> str:
        """What ``node`` says beside its decision (known by ``value`` or its change words),
        else a reason its speaker gives just before or after."""
        found = reason_in(node.text, value=value or self._changed_value(node),
                          decision=decision, blockers=self.lexicon.blockers)
        if found:
            return found
        near = sorted((n for n in nodes.values() if n.node_id != node.node_id
                       and n.channel == node.channel and n.speaker_id == node.speaker_id
                       and abs((n.ts - node.ts).total_seconds()) <= NEAR_SECONDS),
                      key=lambda n: abs((n.ts - node.ts).total_seconds()))
        for n in near:
            r = self.cued(n, nodes)
            if r:
                return r
        return ""

    def _changed_value(self, node: EvidenceNode) -> str:
        """The value the message changes something to ("… tides on sat 12th are awful …
        moving the cove cleanup to sunday 13th": the 13th), else its first value."""
        analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
        changed = [c for c in analysis.clauses if c.claims and c.change >= OVERRIDE_CHANGE]
        if changed:
            return max(changed, key=lambda c: c.change).claims[0].value.text
        return _first_value(node.text)

    def before(self, node: EvidenceNode, turns: Sequence[EvidenceNode], *,
               left: str = "") -> tuple[str, EvidenceNode | None]:
        """A reason said in the ``turns`` just before a change (newest first): a turn by
        someone else naming a blocker ("we can't have the ledger down that night") when
        the change follows from it ("ok, … then", "so …") or the turn names the value the
        change leaves; or one giving a reason in so many words under the same
        conditions."""
        follows = accepts(node.text, self.lexicon.accept, self.lexicon.fillers) or says(
            node.text, self.lexicon.consequence)
        for turn in turns:
            if not timedelta(0) <= node.ts - turn.ts <= timedelta(seconds=BEFORE_SECONDS):
                continue
            told = told_part(turn.text)
            if len(words(told)) < 4:
                continue
            # (the value left as the turn says it: "the 8:15" of "Thursday 8:15")
            if not (follows or (left and (left.lower() in told.lower()
                                          or _names_part(told, left)))):
                continue
            cued = self.cued(turn, {})
            if cued:
                return cued, turn
            if says(told, self.lexicon.blockers):
                return self.whole(turn), turn
        return "", None

    def asked_after(self, node: EvidenceNode, turns: Sequence[EvidenceNode]
                    ) -> EvidenceNode | None:
        """The turn explaining a change when someone asks why just after it ("why?" →
        "landlord hasn't finished the racking"): the next turn of the one who changed it,
        in ``turns`` (oldest first) after a short why-question by someone else."""
        asked = None
        for turn in turns:
            if asked is None:
                text = turn.text.strip()
                if (turn.speaker_id != node.speaker_id and "?" in text
                        and len(words(text)) <= ASKED_WORDS and says(text, self.lexicon.why)):
                    asked = turn
                continue
            if turn.speaker_id == node.speaker_id and "?" not in turn.text \
                    and len(words(turn.text)) >= 3:
                return turn
        return None

    def blocking(self, text: str, left: set[str]) -> str:
        """The sentence of ``text`` that names a value a change left together with what
        stood in its way ("room B is booked all day friday for the offsite prep" for "why
        couldn't we keep the friday slot")."""
        if not left:
            return ""
        for sentence in split_sentences(text):
            said = {w.low for w in words(sentence)}
            if said & left and says(sentence, self.lexicon.blockers):
                return sentence.strip().rstrip(".!")
        return ""

    def of_left(self, text: str, left: set[str], value: str) -> str:
        """The sentence of a changing ``text`` said of what the change left, not of its new
        ``value`` ("Bowlero wants a $3,000 minimum spend …. Going with The Rec Room instead":
        why not Bowlero; "… to 10x20. Last year the 10x10 was so packed …")."""
        if not left:
            return ""
        sentences = split_sentences(text)
        if len(sentences) < 2:
            return ""
        new = {w.low for w in words(value)} - STOPWORDS
        for sentence in sentences:
            said = {w.low for w in words(sentence)}
            if (said & left and len(said) >= _REASON_WORDS and not (new and new <= said)
                    and not names_value(sentence, value) and not has_revision_cue(sentence)
                    and not _PLANS.search(sentence)):
                return sentence.strip().rstrip(".!")
        return ""

    def gone(self, qa: QuestionAnalysis, left: set[str]) -> set[str]:
        """The words of what a change left, as a why-question names it: the values it
        moved off ("off the 26th"), and its subject when the question negates it ("why
        isn't the swap at the scout hut anymore") or drops it ("why'd we drop
        buzzsprout")."""
        gone = set(left)
        if says(qa.text, (*NOT_DONE_WORDS, *AGAINST_WORDS, *REFUSAL_WORDS,
                          *self.lexicon.drops)):
            dropped = {w for d in self.lexicon.drops for w in d.split()}
            gone |= {w.low for w in words(qa.subject)} - dropped - self.lexicon.question_words
        return gone

    def reported(self, candidates: Sequence[EvidenceNode], gone: set[str]
                 ) -> tuple[str, EvidenceNode | None]:
        """A problem reported about what a change left: the first of ``candidates`` (the
        thing's first mention aside) with a sentence naming a word of ``gone`` and what
        stands in its way ("hampton is sold out the 7th", "buzzsprout doesn't do dynamic
        ad insertion")."""
        if not gone:
            return "", None
        signals = (*self.lexicon.blockers, *self.lexicon.problems)
        naming = [n for n in candidates if {w.low for w in words(n.text)} & gone]
        # the first word of a thing is its plan ("TPLO booked for tuesday"), not what
        # later stood in its way
        first = min(naming, key=lambda n: (n.ts, n.seq), default=None)
        for node in naming:
            if node is first:
                continue
            for sentence in split_sentences(node.text):
                if {w.low for w in words(sentence)} & gone and says(sentence, signals):
                    return self.whole(node), node
        return "", None

    def speaker_of(self, unit: Unit) -> EvidenceNode | None:
        """The message of a unit that explains: a bare question's answer, else itself."""
        node = unit.node
        if node is not None and unit.answers and not told_part(node.text):
            return next((a for a in unit.answers if told_part(a.text)), unit.answers[0])
        return node

    def whole(self, node: EvidenceNode) -> str:
        return shorten(" ".join(node.text.split()), WHOLE_CHARS)

    def _asks(self, sentence: str) -> bool:
        """Whether ``sentence`` asks rather than tells, with its mark or without ("what do
        you reckon"): no reason for a change that answers it."""
        return sentence.rstrip().endswith("?") or self.analyzer.analyze(
            sentence).act is SpeechAct.QUESTION

    def accepted(self, text: str, node: EvidenceNode | None,
                 nodes: dict[str, EvidenceNode], turns: Sequence[EvidenceNode] = (), *,
                 strict: bool = False) -> str:
        """When ``text`` accepts what the turn before said, the reason is in that turn: its
        cued reason, else what it states. The turn is one the writer linked it to, else the
        latest of ``turns`` (the turns just before it, newest first) when someone else said
        it. With
        ``strict`` (the change asked about is not known to be this one), the turn must give
        a reason in so many words or say what stands in the way ("… means i need 10.
        someone *has to* shuck"), not only state a plan."""
        if node is None or not accepts(text, self.lexicon.accept, self.lexicon.fillers):
            return ""
        linked = [t for i in node.context_ids if (t := nodes.get(i)) is not None]
        if not linked:
            linked = [t for t in turns[:1] if timedelta(0) <= node.ts - t.ts <= timedelta(
                seconds=BEFORE_SECONDS)]
        for turn in linked:
            if turn.speaker_id == node.speaker_id:
                continue
            told = " ".join(s for s in split_sentences(turn.text)
                            for s in _put_apart(s) if not self._asks(s))
            if len(words(told)) < 4:
                continue
            cued = reason_in(told)
            if cued or not strict or says(told, self.lexicon.blockers):
                return cued or told
        return ""


# An emoji between two clauses ends the first ("lindner can't deliver before 8:45 on fridays
# anymore 😩 move the breakfast to 9:00?").
_EMOJI_BREAK = re.compile(r"\s{0,3}[\U0001F300-\U0001FAFF\u2600-\u27BF]{1,6}\s{1,3}(?=\w)")


# The fewest words a sentence needs to tell a reason.
_REASON_WORDS = 5
# A sentence saying what someone will do is a plan, not what was wrong with the thing left.
# (and what the change still lets one do: "we can day trip to lisbon")
_PLANS = re.compile(r"\b(?:i'll|i’ll|ill|we'll|we’ll|i will|we will|gonna|going to|" + CAN_DO
                    + r")\b", re.IGNORECASE)


def _put_apart(sentence: str) -> list[str]:
    """``sentence``, or its parts either side of an emoji when the part after it puts a
    value forward ("… anymore 😩 move the breakfast to 9:00?"; not "… again 😩 spoke &
    chain still our repair place?", which asks and proposes nothing)."""
    parts = _EMOJI_BREAK.split(sentence)
    if len(parts) > 1 and parts[-1].rstrip().endswith("?") and find_slots(parts[-1]):
        return parts
    return [sentence]


def _first_value(text: str) -> str:
    """The first value a message states (what its decision sentence holds)."""
    slots = find_slots(text)
    return slots[0].text if slots else ""


def _names_part(text: str, value: str) -> bool:
    """Whether ``text`` names a time, amount or day with digits that is part of ``value``
    ("the 8:15 is tricky" of "Thursday 8:15"), or a weekday of it ("storytime tue + thu
    mornings" of "tue + thu 10am")."""
    return any(any(ch.isdigit() for ch in sl.text) and values_match(sl.text, value)
               for sl in find_slots(text)) or (
        # (weekdays held without a date: "thursday" of "thu 15th" may be any thursday)
        bool(weekdays_in(text) & weekdays_in(value)) and not names_a_date(value))
