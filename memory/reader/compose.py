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
of the kind asked (a revision the writer did not link), the newer statement wins. A change
said later in fewer of the question's words ("launch pushed to tuesday june 10" after "the
paid tier launches mon june 2") outranks the answer too (:mod:`memory.reader.later_word`),
and "what was it before" is then the value it replaced. Without a state that answers, the
covering messages' statements do (:mod:`memory.reader.unit_answers`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from memory.analysis.definitions import QuestionKind, SpeechAct
from memory.analysis.matching import same_value, values_match
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import DAY_CUES, SELF_WORDS, QuestionLexicon
from memory.analysis.said_alone import UNITLESS
from memory.analysis.time_bounds import bound_cue, bound_time, own_time
from memory.models import ChainEntry, Citation, EvidenceNode, State
from memory.reader.alternatives import alternative_answer, alternatives
from memory.reader.answer import citation, day_label
from memory.reader.answer_fit import asks_person, is_asker, misfits, named_by_asker, shown
from memory.reader.answer_parts import (
    ACCEPTED_WITHIN,
    Composed,
    Statement,
    _value_words,
    chain_line,
    confirm_line,
    direction,
    entry_label,
    entry_value,
    evidence_line,
    last_move,
    said_before,
)
from memory.reader.before_anchor import said_left
from memory.reader.before_first import with_value_before
from memory.reader.coverage import Coverage, CoverageTest
from memory.reader.extract import Person, reason_in, typo_named
from memory.reader.later_word import LaterWord
from memory.reader.named_again import Mentions, NamedAgain
from memory.reader.offered_choice import offered_choice
from memory.reader.plan_end import plan_ended
from memory.reader.reasons import Reasons, accepts
from memory.reader.timed_answers import with_time
from memory.reader.unit_answers import UnitAnswers
from memory.reader.when_values import day_beside, has_clock, has_day, kept_clock
from memory.reader.why_answer import WhyReader
from memory.reader.word_forms import anchor_forms, part_of, unit_forms

# How many changes in a row the turns after an answer may make ("let's say 6" → "6 then").
FOLLOW_HOPS = 2
# Reads the turns right after a message, in its conversation, oldest first.
Follow = Callable[[EvidenceNode], Sequence[EvidenceNode]]


class Composer(UnitAnswers, WhyReader, LaterWord, NamedAgain):
    """Builds the answer for one question from the covering units."""

    def __init__(self, *, lexicon: QuestionLexicon, coverage: CoverageTest,
                 analyzer: MessageAnalyzer) -> None:
        self.lexicon = lexicon
        self.coverage = coverage
        self.analyzer = analyzer
        self.reasons = Reasons(lexicon=lexicon, analyzer=analyzer)

    def compose(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                nodes: dict[str, EvidenceNode], *,
                before: Mapping[str, Sequence[EvidenceNode]] | None = None,
                asked: Mapping[str, EvidenceNode] | None = None,
                follow: Follow | None = None, mentions: Mentions | None = None) -> Composed:
        """The answer: from the state that answers, unless a newer message overrides it,
        else from the messages; for what is in force now, unless the turns right after
        the answer's message (``follow`` reads them) settled another value. An answer
        whose value cannot be what was asked (:mod:`memory.reader.answer_fit`: the
        question's own words, a member's name for no *who*, a day for "what time") is
        none: the messages' statements that fit are tried, and without one there is no
        answer."""
        composed = self._compose(qa, verdict, people, nodes, before=before, asked=asked,
                                 follow=follow, mentions=mentions)
        if qa.kind is QuestionKind.PREVIOUS:
            composed = self._before_named(qa, composed, verdict, people, nodes)
        if not misfits(qa, shown(qa, composed.short, composed.lines), people):
            return composed
        again = (self.from_units(qa, verdict, people, nodes, fitting=True)
                 if qa.kind is not QuestionKind.WHY else Composed([], ""))
        fits = not misfits(qa, shown(qa, again.short, again.lines), people)
        return again if fits else Composed([], "")

    def _before_named(self, qa: QuestionAnalysis, composed: Composed, verdict: Coverage,
                      people: Sequence[Person], nodes: dict[str, EvidenceNode]) -> Composed:
        """"what was it before it moved to the 16th" answered with the 16th itself: the
        value in force just before the first message naming the 16th (what the messages
        about the thing said before it); the answer as it was when they say none."""
        anchor = _value_words(qa.anchor, self.lexicon)
        if not _names_anchor(anchor, shown(qa, composed.short, composed.lines)):
            return composed
        naming = [u.node for u in self.covering(verdict, wide=True)
                  if u.node is not None and _names_anchor(anchor, u.node.text)]
        if not naming:
            return composed
        # before it *went* to the 16th: from the first message taking it up, not one only
        # asking, putting it forward or saying something of it ("1200g totex?" before
        # "1000g it is"; "Groomer's Choice is $20 more")
        taken = [n.ts for n in naming if self._takes_up(n, anchor)]
        cut = min(taken or [n.ts for n in naming])
        # (what it was before X is not X: a message naming X before it was settled on,
        # asking or saying something of it, is no answer)
        earlier = dataclasses.replace(verdict, units=[
            (score, u) for score, u in verdict.units
            if u.state is None and u.node is not None and u.node.ts < cut
            and not _names_anchor(anchor, u.node.text) and not self._asks(u.node)])
        if not earlier.units:
            return composed
        then = dataclasses.replace(qa, kind=QuestionKind.CURRENT, past=False)
        again = self.from_units(then, earlier, people, nodes, fitting=True)
        if not again.lines or _names_anchor(anchor, shown(then, again.short, again.lines)):
            return composed
        return again

    def _asks(self, node: EvidenceNode) -> bool:
        """Whether ``node`` asks ("fine. what balloon are we flying"): no value held."""
        analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
        return analysis.question or analysis.act is SpeechAct.QUESTION

    def _takes_up(self, node: EvidenceNode, anchor: frozenset[str] | set[str]) -> bool:
        """Whether ``node`` settles on the value ``anchor`` names: a clause neither asking
        nor proposing whose value it is ("bumping the balloon back up to 1200g")."""
        analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
        return any(c.act not in (SpeechAct.PROPOSAL, SpeechAct.QUESTION)
                   and not c.text.rstrip().endswith("?")
                   and any(_names_anchor(anchor, cl.value.text) for cl in c.claims)
                   for c in analysis.clauses)

    def for_another(self, qa: QuestionAnalysis, composed: Composed, verdict: Coverage,
                    people: Sequence[Person], nodes: dict[str, EvidenceNode], asker: str
                    ) -> Composed:
        """The answer, unless the person it names is ``asker``, the member asking (they
        would know): then the one other member the asker's own message names, else the
        messages' statements naming someone else; without one, no answer. Only for a
        question asking a person: "Kenji, thanks …" answering why is no person at all."""
        if not asks_person(qa) or not is_asker(shown(qa, composed.short, composed.lines), asker):
            return composed
        named = named_by_asker(qa, composed, nodes, people, asker)
        if named is not None:
            return named
        again = self.from_units(qa, verdict, people, nodes, fitting=True, asker=asker)
        fits = not misfits(qa, shown(qa, again.short, again.lines), people, asker)
        return again if fits else Composed([], "")

    def _compose(self, qa: QuestionAnalysis, verdict: Coverage, people: Sequence[Person],
                 nodes: dict[str, EvidenceNode], *,
                 before: Mapping[str, Sequence[EvidenceNode]] | None,
                 asked: Mapping[str, EvidenceNode] | None,
                 follow: Follow | None, mentions: Mentions | None) -> Composed:
        pair = alternatives(qa) if qa.kind in (QuestionKind.CURRENT, QuestionKind.FACT) \
            else None
        offered = (alternative_answer(qa, pair, self.covering(verdict, wide=True),
                                      self._decides) if pair is not None else None)
        if offered is None and pair is not None:
            # the alternatives are what is asked: a deciding message naming one of them
            # answers though it leaves the occasion unsaid ("Sticking with DJ Marlo" for
            # "a band or a DJ at presentation night")
            offered = alternative_answer(qa, pair, [u for _, u in verdict.units
                                                    if u.node is not None], self._decides)
        if offered is None and pair is None:
            # "which company are we going with": the option picked among those a covering
            # message put forward ("Clearview £2,400 and Hamblin Display £1,950")
            offered = offered_choice(qa, self.covering(verdict, wide=True), mentions, follow)
        if offered is not None:
            return offered
        state = self.answering_state(qa, verdict, people)
        if state is not None and qa.kind in (QuestionKind.WHY, QuestionKind.WHO):
            state = self._with_plan_before(qa, state, verdict, people)
        if qa.kind is QuestionKind.WHY:
            return self.why(qa, state, verdict, nodes, before=before or {}, asked=asked or {},
                            follow=follow)
        if qa.kind is QuestionKind.PREVIOUS:
            replaced = self._replaced_later(qa, verdict, people, nodes, follow, mentions)
            if replaced is not None:
                return replaced
        if state is not None and not self._overridden(qa, state, verdict, people):
            if qa.kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL):
                state = self._with_plan_before(qa, state, verdict, people)
            composed = with_time(qa, state, self.from_state(qa, state, nodes, people),
                                 verdict, nodes)
        else:
            composed = self.from_units(qa, verdict, people, nodes)
        composed = self._with_later_change(qa, composed, verdict, people, nodes)
        if follow is not None and not qa.confirm:
            composed = self._followed(qa, composed, verdict, people, nodes, follow,
                                      mentions)
        return self.confirmed(qa, composed, verdict, nodes) if qa.confirm else composed

    def _replaced_later(self, qa: QuestionAnalysis, verdict: Coverage,
                        people: Sequence[Person], nodes: dict[str, EvidenceNode],
                        follow: Follow | None = None, mentions: Mentions | None = None
                        ) -> Composed | None:
        """For "what was it before": when a later message changed the value in force in
        fewer of the question's words, the value before is the one it replaced (when the
        question names the change, the later value must be the one it names)."""
        now = dataclasses.replace(qa, kind=QuestionKind.CURRENT, past=False)
        current = self._compose(now, verdict, people, nodes, before=None, asked=None,
                                follow=follow, mentions=mentions)
        held = current.replaced_cite
        if held is None or not current.citations:
            return None
        anchor = _value_words(qa.anchor, self.lexicon)
        if anchor and not anchor & unit_forms(current.short):
            return None  # the question names another change than the later one
        later = current.citations[0]
        lines = [f"{current.replaced} ({held.speaker}, {day_label(held.ts)})",
                 f"now {current.short} ({later.speaker}, {day_label(later.ts)})"]
        node = nodes.get(held.node_id)
        if node is not None:
            lines.append(evidence_line(node))
        return Composed(lines, current.replaced, [held, later], [])

    def _with_later_change(self, qa: QuestionAnalysis, composed: Composed, verdict: Coverage,
                           people: Sequence[Person], nodes: dict[str, EvidenceNode]
                           ) -> Composed:
        """The answer, unless a later message changed its subject in fewer of the
        question's words (:mod:`memory.reader.later_word`)."""
        held = _held(composed)
        if held is None:
            return composed
        after, value = held
        later = self.later_change(qa, verdict, people, after=after, held=value,
                                  plain=self.coverage.plain_forms)
        if later is None or _replaces_another(later, value):
            return composed
        return self._now(qa, composed, later, value, verdict, nodes)

    def _followed(self, qa: QuestionAnalysis, composed: Composed, verdict: Coverage,
                  people: Sequence[Person], nodes: dict[str, EvidenceNode],
                  follow: Follow, mentions: Mentions | None = None) -> Composed:
        """The answer, unless one of the turns right after its message settled another
        value of its kind (:meth:`LaterWord.follow_up`); followed again from that turn."""
        if not self.follows(qa):
            return composed  # (no turns read for what they cannot change)
        for _ in range(FOLLOW_HOPS):
            held = _held(composed)
            first = composed.citations[0] if composed.citations else None
            answer = nodes.get(first.node_id) if first is not None else None
            if held is None or answer is None:
                return composed
            later = self.follow_up(qa, verdict, people, answer=answer, following=follow(answer),
                                   held=held[1], plain=self.coverage.plain_forms)
            if later is None and mentions is not None:
                # a later turn naming the value held and changing it, about nothing else
                later = self.named_again(qa, answer=answer, held=held[1], mentions=mentions,
                                         follow=follow)
            if later is None or _replaces_another(later, held[1]):
                return composed
            nodes.setdefault(later.node.node_id, later.node)
            composed = self._now(qa, composed, later, held[1], verdict, nodes)
        return composed

    def _now(self, qa: QuestionAnalysis, composed: Composed, later: Statement, held: str,
             verdict: Coverage, nodes: dict[str, EvidenceNode]) -> Composed:
        """``later``'s value as the answer, the value it replaced kept in view: "now X (…)
        · was Y (…)"."""
        covering = self.covering(verdict, wide=True)
        fresh = self.answer_from(qa, later, [later.unit, *covering], [later], nodes)
        cited = composed.citations[0] if composed.citations else None
        was = f"was {held} ({cited.speaker}, {day_label(cited.ts)})" if cited else f"was {held}"
        history = [f"now {fresh.short} ({later.node.speaker}, {day_label(later.node.ts)}) · {was}"]
        return Composed([fresh.lines[0], *history, *fresh.lines[1:]], fresh.short,
                        [*fresh.citations, *composed.citations], [], replaced=held,
                        replaced_cite=cited)

    def confirmed(self, qa: QuestionAnalysis, composed: Composed, verdict: Coverage,
                  nodes: dict[str, EvidenceNode]) -> Composed:
        """A "still …?" question is answered yes or no from the latest change of that
        thing's state (its status or new value, who and when); "no" from a message ending
        it (:mod:`memory.reader.plan_end`)."""
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
        pool = [u.node for u in self.covering(verdict, wide=True) if u.node is not None]
        ended = plan_ended(qa.terms, pool, self.analyzer, self.lexicon, source_ts=ts,
                           source_text=text)
        if ended is not None:
            node = ended.node
            first = f"No — {ended.status} ({node.speaker}, {day_label(node.ts)})"
            return Composed([first, evidence_line(node)], first.split(" (")[0],
                            [citation(node), *composed.citations], [])
        first = confirm_line(qa, value=value, text=text, said=f"({speaker}, {day_label(ts)})",
                             lexicon=self.lexicon)
        return Composed([first, *composed.lines[1:]], first.split(" (")[0],
                        composed.citations, composed.states)

    # ---- choosing what answers -------------------------------------------------------------
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
            latest = nodes.get(chain[-1].node_id)
            left = said_left(self._replaced_in(latest), chain[-1].value) if (
                latest is not None and len(chain) > 1 and entry is chain[-2]
                and qa.family != "person") else ""
            if left and not values_match(left, entry.value) and not part_of(left,
                                                                                entry.value):
                # who changed it said what it was ("£20 pp not 15"): their word over a
                # value the chain may have misread
                first = short = left
                entry = chain[-1]
        elif kind is QuestionKind.WHO:
            entry = self.deciding_entry(qa, state)
            person = (self._person_of(chain[-1], people) if qa.role not in ("changer",
                                                                             "decider")
                      else (self._accepted_from(entry, nodes) if qa.role == "changer"
                            else "") or entry.speaker)
            short = person
            value = entry_value(entry)
            said = ("" if values_match(value, entry.speaker) else f"{entry.speaker}, ")
            first = (f"{value} ({said}{day_label(entry.ts)})"
                     if values_match(person, value) else
                     f"{person}, {day_label(entry.ts)}: {value}")
        else:
            # "what date is the AGM" after "starts 6:30 not 6": the latest day said
            timed = [e for e in chain if has_day(e.value)] if qa.asks_day else []
            entry = timed[-1] if timed else entry
            # (a when-value held is known to be a day: "wed (11 September 2024)")
            first = short = entry_value(entry, short_days=qa.family == "when")
            told = nodes.get(entry.node_id)
            # ("what date" asks one even of hours: "from what date do the summer hours
            # start")
            dated = qa.asks_day or any(c in DAY_CUES for c in qa.cues)
            day = day_beside(told.text, entry.value, told.ts) if (
                dated and not timed and told is not None and entry.value
                and not has_day(entry.value)) else ""
            if day:
                # "from what date do the summer hours start?" of "from sat 23 may …
                # reception open 8am-8pm": the day said with the hours
                first = short = f"{day}, {entry.value}"
            bound, cue = bound_cue(qa.text) if qa.asks_clock else ("", "")
            node = nodes.get(entry.node_id)
            text = node.text if node is not None else entry.quote
            clock = bound_time(text, bound, cue) if bound and entry.value else ""
            if clock and not values_match(clock, entry.value) and not own_time(
                    text, cue, state.topic, entry.value):
                # "what time does it finish" over "8:30 start, … done by 3:30"
                first = short = clock
            elif qa.asks_clock and not has_clock(first) and has_day(first):
                # "it's THURSDAYS …, not wednesdays … still 7pm": a day moved keeps its time
                # (a bare hour, "make the meetup 7 not 6:30", is the time itself)
                kept = kept_clock(text, [e.value for e in chain[:-1]])
                first = short = f"{first}, {kept}" if kept else first
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

    def _replaced_in(self, node: EvidenceNode) -> list[str]:
        """The values ``node`` says it replaced, as the writer reads them ("not 15"), but for
        the typo an edit names ("£14 (typo before, 14 not 41)")."""
        analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
        return [v.text for c in analysis.clauses for v in c.old if not typo_named(node, v.text)]

    def previous_entry(self, qa: QuestionAnalysis, state: State) -> ChainEntry:
        """The value before the first one naming the question's anchor ("before it moved
        to Tuesday", "before devon"), else before the latest value."""
        chain = [e for e in state.chain if e.value] or state.chain
        # (a proposal made while a value was held, and left for another, was never had:
        # "What about the Field Museum??" between the Greenhouse Loft and Kimball)
        chain = [e for i, e in enumerate(chain)
                 if qa.kind is not QuestionKind.PREVIOUS
                 or not (e.act == "proposal" and 0 < i < len(chain) - 1
                         and chain[i - 1].act != "proposal"
                         and not values_match(chain[i + 1].value, e.value))] or chain
        # "the radiothon *date* before it got moved" in a chain that also holds its hours:
        # not the entries holding hours alone ("10th" stays, it may be a day)
        dated = [e for e in chain if not (has_clock(e.value) and not has_day(e.value))
                 ] if qa.asks_day else []
        if len(dated) > 1:
            chain = dated
        if len(chain) == 1:
            return chain[0]
        way = direction(qa.anchor, self.lexicon)
        at = last_move([entry_value(e) for e in chain], way) if way else -1
        if at > 0:
            return chain[at - 1]  # "before the increase": what the latest rise left
        anchor = _value_words(qa.anchor, self.lexicon)
        if anchor:
            for i in range(1, len(chain)):
                if anchor & anchor_forms(chain[i].value):
                    return chain[i - 1]
            numbers = {w for w in anchor if w.isdigit()}
            if numbers and not any(numbers & set(UNITLESS.findall(e.value)) for e in chain):
                # "before we settled on 20" where the chain never reached 20: a later
                # change it missed, so the value before it is the chain's last
                return chain[-1]
        # ("6 is fine" then "👍 6pm": the same value said twice; the one before it was left)
        earlier = [e for e in chain[:-1] if not _says_again(e.value, chain[-1].value)]
        return earlier[-1] if earlier else chain[-2]

    def _accepted_from(self, entry: ChainEntry, nodes: dict[str, EvidenceNode]) -> str:
        """Whose change a revision carries out when it accepts what someone else said
        shortly before in its channel, naming the same value ("ok, updating the plan to
        Lisbon" after "let's run it in Portugal, the Lisbon team has capacity"): that
        person made the change; "" otherwise."""
        node = nodes.get(entry.node_id)
        if node is None or not entry.value or not accepts(node.text, self.lexicon.accept):
            return ""
        said = said_before(node, entry.value, nodes, within=ACCEPTED_WITHIN)
        return said.speaker if said is not None else ""

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


__all__ = ["Composed", "Composer", "Follow", "Statement", "chain_line", "entry_label", "reason_in"]


def _replaces_another(later: Statement, held: str) -> bool:
    """Whether ``later`` names the value it replaced and that is not ``held``, the value
    answered ("thu 22 doesn't work … moved to tue jan 27" replaces the inspection's day,
    not the guest spot's "feb 16–20")."""
    return bool(later.replaced) and bool(held) and not values_match(later.replaced, held) \
        and not values_match(held, later.replaced)


def _names_anchor(anchor: frozenset[str] | set[str], text: str) -> bool:
    """Whether ``text`` names the value a question's anchor names ("the 16th" in "Monday
    16 March", "the scout hut" in "the scout hut storeroom"; "5" not in "5:15am")."""
    if not anchor:
        return False
    said = anchor_forms(text)
    numbers = {w for w in anchor if any(ch.isdigit() for ch in w)}
    return (not numbers or bool(numbers & said)) and (anchor - numbers) <= said


def _held(composed: Composed) -> tuple[datetime, str] | None:
    """When the answer's value was said, and the value (of its state's latest entry, else
    of its first citation)."""
    if composed.states and composed.states[0].chain:
        chain = composed.states[0].chain
        return max(e.ts for e in chain), chain[-1].value or composed.short
    if composed.citations:
        return composed.citations[0].ts, composed.short
    return None


def _says_again(value: str, current: str) -> bool:
    """Whether ``value`` is ``current`` said again, perhaps shorter ("6" of "6pm")."""
    if same_value(value, current):
        return True
    bare = value.strip()
    return bare.isdigit() and re.fullmatch(rf"{bare}(?::00)?\s?(?:am|pm|a\.m\.|p\.m\.)",
                                           current.strip(), re.IGNORECASE) is not None
