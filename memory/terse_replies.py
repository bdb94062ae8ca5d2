"""Replies that carry only a value ("12 it is", "bus loop then", "ok op 1"): a value of the
state the conversation is on.

A value said alone has neither a kind nor a subject of its own; the turns just before it say
what it is about. Such a reply revises the closest state the conversation touched — one a
turn opened or changed, one whose value a turn names ("front lot is fenced off" → "bus loop
then"), or one whose subject a turn names ("can we bump the monday meeting?" → "11:30") —
that holds a kind of value the reply's value can be: a number without a unit replaces a
count, an amount or a clock time; words replace a place, a named choice or, when they name
someone in the channel, a person.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from memory.analysis.definitions import TIME_FACET, SpeechAct
from memory.analysis.lexicon import ACK_CUES, QUANTITY_VERBS
from memory.analysis.matching import clock_for_day, measure, same_value
from memory.analysis.message import Clause, MessageAnalysis
from memory.analysis.said_alone import UNITLESS, Bare, bare_value, is_unitless
from memory.decisions import RegistryTool, WriteItem, _Context, _Decision, _matchable, _states_of
from memory.models import EvidenceNode, Verdict
from memory.registry import StateRecord
from memory.state_match import StateMatcher, held_value
from memory.text import content_terms, has_time_of_day, is_calendar_word, names_value, overlap

__all__ = ["TerseReplies"]


@dataclass(frozen=True)
class _Turn:
    """An earlier turn (or an earlier sentence of the same message) the reply may answer."""

    text: str
    node: EvidenceNode | None = None


class TerseReplies(StateMatcher):
    """A base of :class:`memory.proposer.OfflineProposer`: values said alone."""

    def _bare_decisions(self, a: MessageAnalysis, ctx: _Context, item: WriteItem,
                        registry: RegistryTool) -> list[_Decision]:
        """What each value the message says alone does to the state the conversation is on."""
        if len(a.text.split()) > self.weights.alone_max_words:
            return []
        said = [(i, bare) for i, c in enumerate(a.clauses) if (bare := _bare_of(c)) is not None]
        if not said:
            return []  # most messages: the conversation need not be read
        turns = self._turns_before(item)
        prompted = self._prompted(ctx, item, turns)
        out: list[_Decision] = []
        taken: set[str] = set()
        for i, bare in said:
            earlier = [_Turn(c.text) for c in reversed(a.clauses[:i]) if c.subject]
            # (a number said of a thing named, "candles 22", is bound by that name)
            if not (bare.settled or prompted or earlier or bare.subject):
                continue
            if bare.numeric:
                bare = _with_unit(bare, [*earlier, *turns])
            state = self._conversation_state(bare, [*earlier, *turns], ctx, item, registry,
                                             taken)
            if state is None:
                continue
            taken.add(state.state_id)
            if _time_for_day(bare.text, state):
                # a clock is never a new day: the plan's time, or nothing
                timed = self._time_of(bare.text, state, item, registry)
                out.extend([timed] if timed is not None else [])
                continue
            verdict = Verdict.RESTATE if same_value(bare.text, state.value) else Verdict.REVISE
            out.append(_Decision(verdict, state.topic, bare.text, state.value_family,
                                 SpeechAct.DECISION, state, 1.0, 0.5))
        return out

    @staticmethod
    def _time_of(value: str, state: StateRecord, item: WriteItem,
                 registry: RegistryTool) -> _Decision | None:
        """A clock time said alone for a plan that holds a day and no time ("team dinner
        thursday 12th?" … "ok 6:30") is the plan's time, kept beside the day as a state of
        its own ("team dinner time"), not a new day."""
        if not _time_for_day(value, state):
            return None
        set_by = next((n for n in item.recent if n.node_id == state.active_node_id), None)
        if set_by is not None and not clock_for_day(True, set_by.text):
            # a time said with the day ("thurs 10 april, 6.30 call") is not held apart, so
            # a clock after it would be no first time of the plan
            return None
        topic = f"{state.topic} {TIME_FACET}"
        held = next((hit.state for hit in registry.search_registry(item, topic, k=5)
                     if hit.state.topic == topic), None)
        last = [n for n in item.recent if held is not None and n.node_id == held.active_node_id
                or n is set_by]
        if not last or _raised_since(last[-1], item, state.topic):
            # the plan's own talk only: "what time works for the vendor call?" → "2pm?" →
            # "ok 2pm" is the call's time, not the offsite's
            return None
        if held is None:
            # named by the plan's words: the turn that set the plan is what it answers
            return _Decision(Verdict.ESTABLISH, topic, value, state.value_family,
                             SpeechAct.DECISION, None, 1.0, 0.5,
                             answers=set_by.message_id if set_by is not None else "")
        verdict = Verdict.RESTATE if same_value(value, held.value) else Verdict.REVISE
        return _Decision(verdict, topic, value, held.value_family, SpeechAct.DECISION,
                         held, 1.0, 0.5)

    def _turns_before(self, item: WriteItem) -> list[_Turn]:
        """The turns of the message's thread (or top level) just before it, closest first."""
        msg = item.message
        w = self.weights
        same = [n for n in item.recent if n.thread_id == msg.thread_id
                and 0 <= (msg.ts - n.ts).total_seconds() <= w.link_gap_s]
        turns = [_Turn(n.text, n) for n in reversed(same[-w.link_turns:])]
        if item.parent is not None and all(t.node is not item.parent for t in turns):
            turns.insert(0, _Turn(item.parent.text, item.parent))
        return turns

    def _prompted(self, ctx: _Context, item: WriteItem, turns: Sequence[_Turn]) -> bool:
        """Whether a bare value answers something: a question or proposal it follows, or the
        speaker's own turn just before that says a change without naming the value."""
        aa = ctx.anchor_analysis
        if aa is not None and (aa.question or aa.act is SpeechAct.PROPOSAL):
            return True
        msg = item.message
        last = turns[0].node if turns else None
        if last is None or last.speaker_id != msg.user:
            return False
        if (msg.ts - last.ts).total_seconds() > self.weights.alone_continues_s:
            return False
        la = self.analysis(last.text, last.speaker)
        # "soundhaus double-booked booth 3 on monday. moving the amara session" → "the
        # annex": a change said without its value, whatever else the turn says
        return la.changes >= 0.5 and (not la.values or any(
            c.change >= 0.5 and not c.claims for c in la.clauses))

    def _conversation_state(self, bare: Bare, turns: Sequence[_Turn], ctx: _Context,
                            item: WriteItem, registry: RegistryTool,
                            taken: set[str]) -> StateRecord | None:
        """The state of the closest turn that touches one of a kind ``bare`` can be."""
        share = self.weights.alone_topical
        for turn in turns:
            found: list[tuple[int, float, float, StateRecord]] = []
            # in the node's own order: a set's order would follow the string hash, and
            # two states opened by one turn tie on rank and time
            linked = list(dict.fromkeys(_states_of(turn.node))) if turn.node is not None else []
            pool = {s.state_id: s for s in (registry.get_state(item, sid) for sid in linked)
                    if s is not None}
            for hit in registry.search_registry(item, turn.text, k=8):
                pool.setdefault(hit.state.state_id, hit.state)
            said = set(content_terms(turn.text))
            for s in pool.values():
                if s.state_id in taken or not _fits(bare, s, ctx.people):
                    continue
                if bare.subject and not set(content_terms(bare.subject)) <= set(
                        content_terms(s.topic)):
                    continue  # "mugs 48" is said of the mugs, not of the bowls
                if names_value(turn.text, s.value) or overlap(
                        set(content_terms(s.value)), said) >= share or (
                        bare.numeric and _names_number(turn.text, s.value)):
                    rank = 0
                elif s.state_id in linked:
                    rank = 1
                elif overlap(_matchable(set(content_terms(s.topic))), said) >= share:
                    rank = 2
                else:
                    continue
                found.append((rank, _distance(bare, s.value), -s.updated_ts, s))
            if found:
                return min(found, key=lambda f: (f[0], f[1], f[2]))[3]
        return None


def _time_for_day(value: str, state: StateRecord) -> bool:
    """Whether ``value`` is a clock time and nothing else, said for a state holding a day
    and no time."""
    return bool(_CLOCK_ONLY.fullmatch(value.strip())) and clock_for_day(True, held_value(state))


def _raised_since(since: EvidenceNode, item: WriteItem, topic: str) -> bool:
    """Whether a turn after ``since`` in the message's thread, or the message itself, names
    a thing other than ``topic`` (words besides clock times, approval and time talk)."""
    own = _matchable(set(content_terms(topic)))
    texts = [n.text for n in item.recent if n.seq > since.seq
             and n.thread_id == item.message.thread_id]
    for text in [*texts, item.message.text]:
        words = {t for t in content_terms(text)
                 if not t[:1].isdigit() and not is_calendar_word(t)}
        if words - own - _TIME_TALK:
            return True
    return False


#: Words of a turn agreeing a time that name no other thing ("6:30 ok?", "what time?",
#: "does 7:30 suit everyone?"): the one-word acknowledgements and the talk of a time.
_TIME_TALK = frozenset({t for c in ACK_CUES if " " not in c for t in content_terms(c)} | {
    "time", "start", "pm", "am", "then", "that", "sound", "suit", "everyone", "good",
    "lovely", "thank", "pls", "please", "earlier", "later", "instead", "make", "let", "go",
    "say", "how", "about", "what", "shall", "us", "ta"})


def _distance(bare: Bare, value: str) -> float:
    """How far a number said alone is from the number a state holds, as a ratio ("3 it is"
    after "2 new boards, $1,650 each" is about the 2); 0 for words or a value without one."""
    said, held = (_number(bare.text), _number(value)) if bare.numeric else (0.0, 0.0)
    return abs(math.log(said / held)) if said > 0 and held > 0 else 0.0


def _number(text: str) -> float:
    """The first number in ``text`` ("1,650" is a thousands group, "2,5" a decimal), or 0."""
    m = UNITLESS.search(text)
    if m is None:
        return 0.0
    digits = m.group(0)
    thousands = re.fullmatch(r"\d{1,3},\d{3}", digits) is not None
    return float(digits.replace(",", "") if thousands else digits.replace(",", "."))


def _names_number(text: str, value: str) -> bool:
    """Whether ``text`` names the number of a count or amount ("6 won't cut it" of "6
    tents")."""
    number = UNITLESS.search(value)
    return number is not None and re.search(
        rf"(?<![\w.,:]){re.escape(number.group(0))}(?![\w.,:]\d|\w)", text) is not None


def _with_unit(bare: Bare, turns: Sequence[_Turn]) -> Bare:
    """A number said alone with the unit the turn that put it forward gave it: "get 12"
    asks for 12 of a thing, "$12?" for an amount of money."""
    number = re.escape(bare.text)
    for turn in turns:
        m = re.search(rf"(?<![\w.,:])({_CURRENCY})?\s?{number}(?![\w%]|[.,:]\d|\s?[kK]\b)",
                      turn.text)
        if m is None:
            continue
        if m.group(1):
            return replace(bare, unit="money")
        before = turn.text[:m.start()].split()[-1:]
        if before and before[0].lower() in QUANTITY_VERBS:
            return replace(bare, unit="count")
        return bare
    return bare


_CURRENCY = r"[$€£¥]"
#: A clock time and nothing else ("6:30", "at 8pm", "7.15"); a bare number may be anything.
_CLOCK_ONLY = re.compile(r"(?:at\s)?\d{1,2}(?:[:.]\d{2}\s?(?:am|pm)?|\s?(?:am|pm))",
                         re.IGNORECASE)


def _bare_of(clause: Clause) -> Bare | None:
    """The value a clause says alone, if it says nothing else: no value the analyzer could
    type, or only a number without a unit ("12 it is" is read as an hour)."""
    if clause.claims and not all(is_unitless(c.value.text) for c in clause.claims):
        # an amount with its unit said alone ("yeah 60s" to "can we do 60?") is one too
        alone = bare_value(clause.text)
        if (alone is None or len(clause.claims) != 1 or clause.claims[0].value.family != "amount"
                or alone.text != clause.claims[0].value.text):
            return None
        return replace(alone, numeric=True, unit=measure(alone.text))
    return bare_value(clause.text) or bare_value(clause.text.split(",")[0])


# Words saying how many of something there are ("9 confirmed", "12 ppl so far").
_COUNTED = re.compile(r"\d{1,5}\s{1,3}(?:[a-z]{2,20}ed|people|ppl|persons|spots|seats|tickets|"
                      r"players|kids|adults|each|total|so\sfar|of\sus|in|going|coming)\b",
                      re.IGNORECASE)


# An ordinal day said alone ("12th", "the 3rd").
_A_DAY = re.compile(r"(?:the\s)?\d{1,2}(?:st|nd|rd|th)", re.IGNORECASE)


def _fits(bare: Bare, state: StateRecord, people: frozenset[str]) -> bool:
    """Whether a value said alone can be a value of ``state``: a number replaces a count, an
    amount or a clock time; words replace a place or a choice, or a person when they name
    someone in the channel."""
    value, family = state.value, state.value_family
    if bare.numeric:
        if not any(ch.isdigit() for ch in value):
            return False
        if bare.unit and measure(held_value(state)) not in (bare.unit, ""):
            return False
        if family == "amount" or not family:
            return True
        return family == "when" and has_time_of_day(value) and is_unitless(bare.text) and float(
            bare.text.replace(",", ".")) <= 24
    if any(ch.isdigit() for ch in value) and family != "where":
        return False
    if _COUNTED.match(bare.text):
        return False  # "9 confirmed", "12 ppl": how many, never a place or a name
    if _A_DAY.fullmatch(bare.text.strip()):
        return False  # "12th 👍" to "should the party be on the 12th?": a day, no place
    if family == "who":
        return bool(set(content_terms(bare.text)) & people)
    return family in ("where", "name")
