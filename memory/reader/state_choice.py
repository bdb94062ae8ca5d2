"""Which state answers a question, and whether messages outrank it.

A base of :class:`memory.reader.compose.Composer`. A state answers when it covers the
question about as well as the best message and holds the kind of value asked
(:meth:`StateChoice.answering_state`); a message newer than its last value that states
another value of that kind outranks it (:meth:`StateChoice._overridden`); and a value a
message set that a later one replaced is read along its chain (:meth:`StateChoice._moved_on`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta

from memory.analysis.colour_words import colours_in
from memory.analysis.definitions import TIME_FACET, QuestionKind
from memory.analysis.matching import (
    measure,
    named_otherwise,
    other_of_kind,
    same_grain,
    same_measure,
    siblings,
    values_match,
)
from memory.analysis.question import QuestionAnalysis, months_named, words
from memory.dates import coarser_than_a_day
from memory.dates.days import MONTH_OF_WORD, months_in
from memory.models import State
from memory.reader.answer import current_value
from memory.reader.answer_parts import (
    NEAR_BEST,
    OVERRIDE_CHANGE,
    STATE_MARGIN,
    Statement,
    _anchors,
    _changed_by,
    _names_someone,
    _said_of,
    entry_value,
    subjects_of,
)
from memory.reader.before_first import left_by_first
from memory.reader.coverage import Coverage, CoverageTest, Unit
from memory.reader.coverage_values import NAMELESS_FAMILIES
from memory.reader.extract import Person
from memory.reader.statement_choice import names_numbers, other_weekday
from memory.reader.statements import StatementReader
from memory.reader.when_values import calendar_day, has_clock, has_day
from memory.reader.word_forms import forms, unit_forms
from memory.subject_marks import other_month
from memory.text import (
    STOPWORDS,
    content_terms,
    family_of,
    find_slots,
    has_revision_cue,
    is_calendar_word,
    stem,
)

__all__ = ["StateChoice", "names_anchor"]


def names_anchor(anchor: set[str], value: str) -> bool:
    """Whether ``value`` is the value an anchor of the question names: it shares a word,
    and every number the anchor holds ("sep 2" is not "tue sep 9")."""
    have = unit_forms(value)
    numbers = {w for w in anchor if w.isdigit()}
    return bool(anchor & have) and numbers <= have


def _one_value(text: str, state: State) -> bool:
    """Whether ``text`` states at most one value of the kind ``state`` holds."""
    held = family_of(entry_value(state.chain[-1]))
    return sum(1 for sl in find_slots(text) if sl.family == held) <= 1


# How far below the message that set its latest value a state lifted by it ranks.
_LIFTED_BELOW = 0.05
# How soon after a value was set a message saying it again is an echo of it.
_ECHO_WITHIN = timedelta(hours=1)


def _said_beside(text: str, value: str, wanted: set[str]) -> bool:
    """Whether ``text`` says ``value`` right after a word of the question ("adult £120" in
    "Subs for 2026: adult £120, student £60" for "adult subs?"): of the message's several
    values, that one is the thing asked."""
    at = text.find(value)
    if at < 0 or not wanted:
        return False
    before = re.findall(r"[\w'’/-]{1,40}", text[max(0, at - 40):at])[-2:]
    return bool({f for w in before for f in forms(w.lower())} & wanted)


def _another_months(qa: QuestionAnalysis, state: State) -> bool:
    """Whether the question names which month's instance it asks about ("the March glaze
    firing") and the state's topic names only other months ("april glaze firing")."""
    asked = {MONTH_OF_WORD[w] for w in months_named(qa.text)}
    named = months_in(state.topic)
    return bool(asked) and bool(named) and not named & asked


def _numbered_as_asked(qa: QuestionAnalysis, state: State) -> bool:
    """Whether ``state`` names every numbered thing the question names ("meetup #28",
    "ep 18", "R31"): a state about another number of the same series does not answer."""
    return names_numbers(qa, " ".join([state.topic, state.description,
                                        *(f"{e.value} {e.quote}" for e in state.chain)]))


# Words that put a *who* question in the present ("who are we hiring …", "who has …
# now"); "who covered primary when …" asks about a past moment.
_PRESENT = re.compile(r"\b(?:is|are|who's|whos|has|have|does|do|now|currently|these days|right now|"
                      r"at the moment|rn)\b", re.IGNORECASE)


# Words of a recurring day or part of one, which slots do not type ("fridays", "weekday
# mornings", "every other tuesday").
_DAY_PARTS = frozenset({"weekday", "weekend", "morning", "afternoon", "evening", "night",
                        "lunchtime", "every", "other", "next", "this", "week", "and", "on"})


def _days_only(value: str) -> bool:
    """Whether ``value`` names only days or parts of them ("fridays", "weekday mornings"):
    no place or name, however untyped."""
    ws = [w.removesuffix("s") for w in re.findall(r"[a-z]{1,30}", value.lower())]
    return bool(ws) and all(is_calendar_word(w) or w in _DAY_PARTS for w in ws)


def _asked_of(qa: QuestionAnalysis, value: str) -> bool:
    """Whether ``value`` is only a person the question itself names ("Joel" for "who's
    sitting in on Joel's interview with Priya?"): the one asked about, not the answer."""
    named = {w.low.removesuffix("'s").removesuffix("’s") for w in words(qa.text)
             if w.text[:1].isupper() or w.low.endswith(("'s", "’s"))}
    said = [w.low for w in words(value)]
    return bool(said) and len(said) <= 2 and all(w in named for w in said)


def _reaches_numbers(anchor: str, state: State) -> bool:
    """Whether the chain of ``state`` reaches every number a *before* question's anchor
    names ("before it went to 10"; not "before draft 3", a label the chain never held)."""
    numbers = set(_DIGITS.findall(anchor))
    return not numbers or any(numbers <= set(_DIGITS.findall(e.value)) for e in state.chain)


_DIGITS = re.compile(r"\d{1,12}")


class StateChoice(StatementReader):
    """A base of :class:`memory.reader.compose.Composer`: the state that answers."""

    coverage: CoverageTest

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
        # "what was the print run before Jules upped it": no state covers the question, but
        # the best message is a revision in a chain; what it was before is that chain's
        # (a state that never changed tells nothing of what it was before a change: "burn
        # ban" lifted once)
        stated = any(u.state is not None and s >= threshold and s >= best_node - STATE_MARGIN
                     and (len(u.state.chain) > 1 or qa.kind is not QuestionKind.PREVIOUS)
                     for s, u in verdict.units)
        revised = {u.node.node_id for s, u in verdict.units
                   if u.node is not None and s >= best_node and s >= threshold} if qa.kind in (
            QuestionKind.PREVIOUS, QuestionKind.ORIGINAL) and not stated else set()
        # a revised state whose latest value was set by a message covering the question as
        # well as the best one is about what is asked, though its topic covers less of it
        # ("check-in" for "what time does check-in open on weigh-off day")
        node_cover = {u.node.node_id: s for s, u in verdict.units if u.node is not None}
        candidates = []
        for score, unit in verdict.units:
            state = unit.state
            if state is not None and len(state.chain) > 1 and not qa.past and qa.kind in (
                    QuestionKind.CURRENT, QuestionKind.WHEN):
                latest = node_cover.get(state.chain[-1].node_id, 0.0)
                # (and its topic names a word of the question: "the Ohio Valley banquet is
                # the 8th" beside the seed auction's new day tells of the banquet)
                # (not when that message gives two values of its kind: "£12 (adults) and £6
                # for under-16s"; nor a day asked of a value naming no one day: "first
                # tuesday meeting" of "Tuesdays, from next week")
                if latest >= threshold and latest >= best_node - STATE_MARGIN \
                        and wanted & unit_forms(state.topic) \
                        and _one_value(state.chain[-1].quote, state) and not (
                            qa.asks_day and not qa.asks_clock and not calendar_day(
                                current_value(state), state.chain[-1].ts)):
                    # (below a state covering the question by itself)
                    score = max(score, latest - _LIFTED_BELOW)
            if state is not None and revised and any(
                    e.node_id in revised for e in state.chain[1:]) and _reaches_numbers(
                    qa.anchor, state) and wanted & unit_forms(state.topic):
                # (a chain the question names a word of: the message may revise others)
                score = max(score, best_node)
            if state is None or score < threshold or score < best_node - STATE_MARGIN:
                continue
            if (qa.asks_change or qa.kind is QuestionKind.WHY) and len(state.chain) < 2 \
                    and not left_by_first(state, self.analyzer):
                continue  # a single value has no earlier one, nor a change to explain
            if not self._holds(qa, state):
                continue
            if not _numbered_as_asked(qa, state):
                continue  # "#27"'s room is no answer about "#28"
            if _another_months(qa, state):
                continue  # "the april glaze firing" is no answer about the march one
            if reached and not any(names_anchor(reached, e.value) for e in state.chain):
                continue
            if qa.family == "person" and qa.role not in ("changer", "decider") and \
                    not _names_someone(state, people, latest=not qa.past):
                # who holds it: the state's value must name someone (its current one for
                # who holds it now: "gym" after "Room B" names nobody)
                continue
            if qa.kind is QuestionKind.WHO and _asked_of(qa, current_value(state)):
                continue  # "who's sitting in on Joel's interview": not Joel
            changed = bool(qa.changes) and _changed_by(
                state.chain[1:], qa, self.lexicon.change_families) is not None
            topic = unit_forms(state.topic)
            named = len(wanted & topic)
            # the thing asked about, not a thing of it ("playtest" over "playtest feedback
            # survey" for "when is the playtest?")
            same = not (qa.subject and siblings(qa.subject, state.topic))
            # a day asked: the plan, not the time kept beside it ("pt session time")
            plan = qa.asks_clock or not state.topic.endswith(f" {TIME_FACET}")
            # the attribute asked said along the chain beside another word of the question
            # ("what slot did we end up with at velvet"; not "the bus company bumped their
            # August rates" for the room block rate)
            others_asked = wanted - {f for a in qa.attributes for f in forms(a)}
            attribute = any(forms(a) & unit_forms(e.quote) and others_asked & unit_forms(e.quote)
                            for a in qa.attributes for e in state.chain)
            # "who decided on safehome": the chain that reached the value named, over a
            # thing named after it ("SafeHome first batch")
            # (a value that is only the thing named over one naming more: "Zoom" over "Zoom
            # Room 2")
            valued = _values_named(state, wanted) if qa.kind is QuestionKind.WHO else 0
            candidates.append((round(score * 20) / 20, changed, attribute, valued, named, same,
                               plan, state.updated_at, state))
        if not candidates:
            return None
        # the better cover, then the change asked about, then the attribute asked, then
        # (asking who) the value named, then the topic naming more of the question ("release
        # planning atlas" over "release branch"), then the thing itself, then the newer
        candidates.sort(key=lambda c: c[:-1], reverse=True)
        return candidates[0][-1]


    def _holds(self, qa: QuestionAnalysis, state: State) -> bool:
        """Whether a state's current value is of the kind asked ("where" by a region or a
        named choice, "when" by a date or time…)."""
        family = qa.family
        if qa.kind is QuestionKind.WHO and qa.role in ("changer", "decider"):
            # "who changed the pilot's *location*": a state holding a place was changed
            named = [self.lexicon.attributes[a] for a in qa.attributes
                     if self.lexicon.attributes.get(a, "person") != "person"]
            family = named[0] if named else ""
        asked = qa.measure
        if asked and state.chain:
            # "how many" is not answered by a price, nor "how much" by a count of things
            held = next((e.value for e in reversed(state.chain) if measure(e.value)), "")
            if measure(held) not in (asked, ""):
                return False
        if not family or family in ("count", "person") or not state.chain:
            return True
        if family == "colour":
            return bool(colours_in(current_value(state)))
        if other_weekday(qa, current_value(state)):
            return False  # the sundays' time is no answer to "… on saturdays"
        if qa.asks_clock and not has_clock(current_value(state)):
            return False  # the time of day is asked; the state holds a day
        if qa.asks_day and not any(has_day(e.value) for e in state.chain):
            return False  # the day is asked; the state only ever held a time of day
        held = family_of(current_value(state), state.chain[-1].quote)
        if held in self.lexicon.state_families.get(family, (family,)):
            return True
        # a value slots do not type ("the gym", "Bounce Bros") may be a place or a name;
        # a date or amount is not
        return family in ("where", "name") and held not in NAMELESS_FAMILIES \
            and not _days_only(current_value(state)) and not (
                family == "where" and _self_named(state)) \
            and not _BARE_NUMBER.fullmatch(current_value(state).strip())


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
        asked = frozenset(stem(t) for t in qa.terms)
        others = frozenset(f for _, u in verdict.units if u.state is not None
                           and u.state.state_id != state.state_id
                           for f in unit_forms(u.state.topic))
        for st in self.statements(qa, self.covering(verdict, wide=True), people):
            if st.node.ts <= last.ts or not st.value or unit_forms(st.value) <= current \
                    or st.node.node_id in {e.node_id for e in state.chain}:
                continue
            if day and day in st.value:
                continue  # the same day said again, maybe with its time
            if kinds and not kinds & {sl.family for sl in find_slots(st.value)}:
                continue  # another kind of value: not a new value of this state
            told = family_of(st.value)
            if not kinds and told and qa.family in ("where", "name") and told not in (
                    self.lexicon.state_families.get(qa.family, (qa.family,))):
                continue  # "moved to the Sunday" is no new place of a venue named
            if not same_measure(st.value, held):
                continue  # a price is no new count ("1 NEO $60" of "7" NEOs)
            if "version" in kinds and not same_grain(st.value, held):
                continue  # "rc1 today" is a build of 2.4, not the next version
            if qa.asks_day and day and coarser_than_a_day(st.value, st.node.ts):
                continue  # a date asked: "this week" is no new day of "Saturday 9 May"
            if st.node.state_id not in (None, state.state_id) and st.node.supersedes \
                    and named_otherwise(st.node.topic, state.topic, st.node.text, asked):
                # the writer took it for a revision of another thing of the kind, one with
                # a chain of its own, that leaves unsaid the word the question names the
                # state by ("committee meeting got moved" is no new day of "lab meeting")
                continue
            analysis = self.analyzer.analyze(st.node.text, speaker=st.node.speaker)
            if analysis.changes < OVERRIDE_CHANGE and not has_revision_cue(st.node.text):
                continue  # a mention ("still UK first"), not a change the writer missed
            # "watch party moved again: sat 4pm" is no new time of the "lan party" when
            # the watch party is a thing of its own
            # (nor is the "May launch" moving a new day of the "April launch")
            if _said_of(analysis, st.value, unit_forms(state.topic) | wanted) and not any(
                    (other_of_kind(own, state.topic, asked=asked) and unit_forms(own) <= others)
                    or other_month(own, state.topic)
                    for own in subjects_of(analysis, st.value)):
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


    def _moved_on(self, qa: QuestionAnalysis, chosen: Statement, verdict: Coverage
                  ) -> State | None:
        """The state whose value the chosen message set, when a later message replaced it:
        what is in force now is that state's current value, not the message's ("meet at the
        front lot" → "bus loop then")."""
        # "what was the Dec 31 balance?" asks the value of a fact, corrected or not; "when
        # did it happen" asks its day, which a later plan does not move
        # who holds it now ("who are we hiring the trucks from?") follows a named value too
        holder = (qa.kind is QuestionKind.WHO and qa.role in ("owner", "doer") and not qa.past
                  and bool(_PRESENT.search(qa.text)))
        if qa.kind not in (QuestionKind.CURRENT, QuestionKind.WHEN, QuestionKind.FACT) and not (
                holder and chosen.value) or (qa.past and qa.kind is QuestionKind.WHEN):
            return None
        wanted = {f for t in qa.terms for f in forms(t)}
        # the day or time the message would answer with, when no value was read from it:
        # the message set that value in a chain that has moved on since, whatever the
        # chain is called ("Frostbite Social … sat feb 8" in a state named by other words)
        said = chosen.value or (self.when_of(qa, chosen) if qa.family == "when" else "")
        for _, unit in verdict.units:
            state = unit.state
            if state is None or len(state.chain) < 2 or other_weekday(
                    qa, current_value(state)):
                continue  # (the sundays' time did not replace the saturdays')
            holds = self._holds(qa, state)
            asked = holds and bool(wanted & unit_forms(state.topic))
            holds_said = bool(said) and holds
            now = entry_value(state.chain[-1])
            if qa.measure and measure(now) not in (qa.measure, ""):
                continue  # "how many tickets have we sold" is not moved on to a price
            for entry in state.chain[:-1]:
                if values_match(entry_value(entry), now):
                    continue  # said again since, not replaced
                same = values_match(entry_value(entry), chosen.value) if chosen.value else False
                set_here = holds_said and values_match(entry_value(entry), said)
                if entry.node_id == chosen.node.node_id and (same or set_here or (
                        asked and not chosen.value and (
                            _one_value(chosen.node.text, state)
                            or _said_beside(chosen.sentence, entry_value(entry), wanted)))):
                    # the message set a value a later one replaced; without a value read
                    # from it, the state must be what is asked about, and the message say
                    # no other value of its kind
                    return state
                if same and asked and chosen.node.ts <= state.chain[-1].ts:
                    # another message restating a value the chain has since left ("12 hires
                    # before the A closes" after the plan's "12 hires" became 10)
                    return state
                echo = entry.ts <= chosen.node.ts <= entry.ts + _ECHO_WITHIN
                if same and echo and chosen.node.channel == state.channel \
                        and chosen.node.ts < state.chain[-1].ts:
                    # the value said again right after it was set ("motion will be £8
                    # then" → "👍 £8 going to the AGM vote") moved on with it
                    return state
        return None


def _values_named(state: State, wanted: set[str]) -> int:
    """2 when a value of ``state``'s chain is only words the question says, 1 when one
    names a word of it, else 0."""
    best = 0
    for e in state.chain:
        said = set(unit_forms(e.value))
        own = {w for w in said if w.isalpha() and w not in STOPWORDS}
        if not wanted & said:
            continue
        best = max(best, 2 if own and all(forms(w) & wanted for w in content_terms(e.value))
                   else 1)
    return best


def _self_named(state: State) -> bool:
    """Whether the state's current value is its speaker, who took the thing on ("I'll update
    the exhibition list" holds sue.h): a person, no place."""
    value = current_value(state).strip().lower()
    speaker = state.chain[-1].speaker.strip().lower()
    return bool(value) and value in (speaker, speaker.split()[0] if speaker else "")


# A value that is only a number ("2", "1.30"): no place and no name.
_BARE_NUMBER = re.compile(r"[\d.:,]{1,12}")
