"""Proposals taken up: what a reply to a proposal does with the value it put forward.

A base of :class:`memory.proposer.OfflineProposer`. "ok let's do that", "sure" or the value
said back ("12th 👍") carries the proposal's value to the state it would change; "+1"
supports it without deciding. A proposal naming no subject of its own is about the state
whose value it calls a problem ("5th is bad. shall we do the 12th?"), else the only state of
its kind the turns just before it touched. A clock time for a plan holding only a day is
that plan's time (:meth:`TerseReplies._time_of`).
"""

from __future__ import annotations

import dataclasses
import re

from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import ACK_CUES
from memory.analysis.matching import compatible, parts, same_value, values_match
from memory.analysis.message import Claim, Clause, MessageAnalysis
from memory.analysis.said_alone import bare_value, is_unitless
from memory.analysis.value_types import Kind
from memory.decisions import (
    _SUGGESTING,
    _SUGGESTION_CUES,
    _WE_CUES,
    RegistryTool,
    WriteItem,
    _Context,
    _Decision,
    _Match,
    _matchable,
    _states_of,
)
from memory.models import EvidenceNode, Verdict
from memory.registry import StateRecord
from memory.subject_marks import of_another
from memory.terse_replies import TerseReplies
from memory.text import content_terms, find_slots, names_value

__all__ = ["ProposalUptake", "doubts", "only_approval"]

def _names_held(text: str, value: str) -> bool:
    """Whether ``text`` names ``value``'s first value ("7:45 start" names "7:45 from next
    week")."""
    slots = find_slots(value)
    core = slots[0].text if slots else value
    return bool(core) and names_value(text, core)


class ProposalUptake(TerseReplies):
    """Replies to proposals, and the state a proposal would change."""

    def _timed_near(self, claim: Claim, ctx: _Context, item: WriteItem,
                    registry: RegistryTool) -> _Decision | None:
        """"ok 6:30" in a conversation on "team dinner thursday 12th": the dinner's time,
        when the closest state of its kind holds a day and no time."""
        near = next((rec for rec in (*ctx.strong, *ctx.weak)
                     if compatible(claim.value.family, rec.value_family)), None)
        return self._time_of(claim.value.text, near, item, registry) if near else None

    def _suggests(self, clause: Clause) -> bool:
        """Whether a proposal clause puts a value forward ("how about X", "proposing X",
        "maybe X", a bare "X?") rather than asking someone to act."""
        m = self.analyzer.lexicon.proposal.search(clause.text)
        cue = m.group(0).lower() if m is not None else ""
        # "can we do 11 to 3 instead?" puts a value forward; "can someone take primary?"
        # asks someone to act
        we = cue in _WE_CUES and any(c.value.family != "who" for c in clause.claims)
        return cue in _SUGGESTION_CUES or we or (
            not cue and clause.text.rstrip().endswith("?") and len(clause.text.split()) <= 4)

    def _suggestion_target(self, ctx: _Context, item: WriteItem,
                           registry: RegistryTool) -> _Match | None:
        """The state the proposal this message answers would change, if any."""
        claim, clause = ctx.suggested, ctx.suggested_clause
        if claim is None or clause is None:
            for rec in ctx.strong:
                return _Match(rec, 1.0, True, True)
            return None
        inner = _Context(strong=ctx.strong, weak=ctx.weak, subject=ctx.subject)
        matches = self._matches(claim, clause, inner, item, registry)
        found = next((m for m in matches if m.qualifies), None)
        if found is None and not claim.subject and ctx.anchor is not None:
            found = self._named_by_proposal(claim, ctx, item, registry)
        return found

    def _named_by_proposal(self, claim: Claim, ctx: _Context, item: WriteItem,
                           registry: RegistryTool) -> _Match | None:
        """The state a proposal naming no subject would change, taken up by a short reply
        ("ok weds", "yes", "sure, 25th"): the one whose value it calls a problem ("the 12th
        doesn't work any more. could we do the 19th?"), else the state the turn right
        before it set, when that is the only one of its kind the turns before it touched
        ("quiz night is on the 12th" → "could we do the 19th?"). Not a value of other
        things ("can the 6pm people still come?"), a request, a proposal beside another
        subject ("also need a date for the bake sale. could we do the 19th?") or beside a
        state it names as what is in the way ("tues is bad, ofsted are in")."""
        anchor = ctx.anchor
        assert anchor is not None
        if of_another(anchor.text, claim.value.text) or len(
                item.message.text.split()) > _SHORT_REPLY:
            return None
        family = claim.value.family
        aa = ctx.anchor_analysis
        clauses = aa.clauses if aa is not None else ()
        named = [v.text for c in clauses
                 for v in (*c.values, *c.old) if not same_value(v.text, claim.value.text)]
        # "tues is bad": a day or time the rest of the message calls a problem, said alone
        named += [w for c in clauses if c is not ctx.suggested_clause and not c.values
                  for w in _day_or_time_words(c.text)]
        said = set(content_terms(_POSSESSIVE.sub("", anchor.text)))
        near = [*ctx.strong, *ctx.weak,
                *(hit.state for hit in registry.search_registry(item, anchor.text, k=6))]
        kin: dict[str, StateRecord] = {}
        for rec in near:
            if compatible(family, rec.value_family) and not said & _matchable(
                    set(content_terms(rec.topic))):
                kin.setdefault(rec.state_id, rec)
        for rec in kin.values():
            if any(values_match(v, rec.value) for v in named):
                return _Match(rec, 1.0, True, True)
        if claim.value.kind is Kind.CHOICE or is_unitless(claim.value.text) or named:
            return None  # "can we do 30 on those?": a number or a word alone could be anything
        clause = ctx.suggested_clause
        if clause is None or not self._suggests(clause) or any(
                c is not clause and content_terms(c.text) for c in clauses):
            return None  # a request, or a proposal beside something else said
        recent = {r.state_id: r for r in ctx.weak if compatible(family, r.value_family)}
        if len(recent) != 1:
            return None
        rec = next(iter(recent.values()))
        before = [n for n in item.recent if n.seq < anchor.seq][-1:]
        if not any(rec.state_id in _states_of(n) or names_value(n.text, rec.value)
                   for n in before):
            return None  # another subject was raised in between
        return _Match(rec, 0.5, True, False)

    def _pointed_at(self, claim: Claim, ctx: _Context, item: WriteItem,
                    registry: RegistryTool) -> _Match | None:
        """"copy deadline is fri 20th" → "can we push it a week?" → "ok 27th then": a
        value with no subject answering a proposal that moves "it" without a value of its
        own is the new value of what the turn before the proposal set (a state of the
        value's kind, set by someone's turn no longer than the link gap before it)."""
        anchor, aa = ctx.anchor, ctx.anchor_analysis
        if anchor is None or aa is None or claim.subject or ctx.suggested is not None:
            return None
        pointing = [c for c in aa.clauses if c.act in _SUGGESTING and not c.claims
                    and c.change >= 0.5 and (c.pointer or _MOVES_IT.search(c.text))]
        if not pointing or len(item.message.text.split()) > _SHORT_REPLY + 2:
            return None
        gap = self.weights.link_gap_s
        before = [n for n in item.recent if n.seq < anchor.seq
                  and n.thread_id == anchor.thread_id
                  and 0 <= (anchor.ts - n.ts).total_seconds() <= gap][-1:]
        for n in before:
            for sid in _states_of(n):
                rec = registry.get_state(item, sid)
                if rec is not None and compatible(claim.value.family, rec.value_family):
                    return _Match(rec, 1.0, True, True)
        return None

    def _held_in_talk(self, claim: Claim, item: WriteItem,
                      registry: RegistryTool) -> tuple[_Match, EvidenceNode] | None:
        """"7:45 start + 90 mins … we lock people's cars in" → "what do you reckon" → "ok
        let's bring it forward to 7:30": a change with no subject of its own is of the state
        whose value in force the turns just before it named (the latest such turn, no more
        than ``Weights.talk_turns`` back and no longer than the link gap), when exactly one
        active state of the value's kind, set before that turn, is named there. With the
        turn naming it, which the change answers."""
        message, w = item.message, self.weights
        turns = [n for n in item.recent if n.thread_id == message.thread_id
                 and 0 <= (message.ts - n.ts).total_seconds() <= w.link_gap_s][-w.talk_turns:]
        family = claim.value.family
        for turn in reversed(turns):
            # (a turn stating no value of the kind names none in force: nothing to search,
            # and no query to embed)
            if not any(compatible(family, sl.family) for sl in find_slots(turn.text)):
                continue
            named = {h.state.state_id: h.state
                     for h in registry.search_registry(item, turn.text, k=w.talk_states)
                     if compatible(family, h.state.value_family)
                     # (a value the turn itself set is what it says, not what it names)
                     and h.state.active_node_id != turn.node_id
                     and _names_held(turn.text, h.state.value)}
            if len(named) == 1:
                return _Match(next(iter(named.values())), 1.0, True, True), turn
            if named:
                return None
        return None

    def _acceptance(self, a: MessageAnalysis, ctx: _Context, item: WriteItem,
                    registry: RegistryTool) -> _Decision | None:
        """"ok let's do that", "sure", "+1", "ok moving it": agreeing with the proposal it
        answers carries that proposal's value; agreeing with a decision restates it."""
        repeats = self._repeats_suggestion(a, ctx, item)
        if not (a.agrees or a.changes >= 0.5 or repeats) or ctx.anchor is None:
            return None
        if any(c.act in _SUGGESTING or c.act is SpeechAct.REJECTION for c in a.clauses):
            return None
        suggested = ctx.suggested
        anchor = ctx.anchor
        if suggested is not None and not (repeats or self._accepts(a)):
            return None  # "+1" to a proposal supports it; it does not decide it
        if suggested is not None:
            if anchor.state_id and anchor.verdict is Verdict.ESTABLISH:
                rec = registry.get_state(item, anchor.state_id)
                if rec is not None:
                    return _Decision(Verdict.RESTATE, rec.topic, "", rec.value_family,
                                     SpeechAct.CONFIRMATION, rec, 1.0)
            target = self._suggestion_target(ctx, item, registry)
            quote = suggested.value.text
            timed = self._time_of(quote, target.state, item, registry) if target else None
            if timed is not None:
                return timed
            if target is not None:
                verdict = (Verdict.RESTATE if same_value(quote, target.state.value)
                           else Verdict.REVISE)
                return _Decision(verdict, target.state.topic, quote, suggested.value.family,
                                 SpeechAct.DECISION, target.state, target.score)
            topic = suggested.subject or self._asked_before(ctx, item) or ctx.subject
            if topic:
                return _Decision(Verdict.ESTABLISH, topic, quote, suggested.value.family,
                                 SpeechAct.DECISION)
            return None
        if a.agrees and ctx.strong and len(a.text) <= 80:
            rec = ctx.strong[0]
            return _Decision(Verdict.RESTATE, rec.topic, "", rec.value_family,
                             SpeechAct.CONFIRMATION, rec, 1.0)
        return None

    def _repeats_suggestion(self, a: MessageAnalysis, ctx: _Context, item: WriteItem) -> bool:
        """Whether a short reply by someone else says back the value the proposal it answers
        put forward ("shall we do the 12th?" → "12th 👍"): taking it on, not asking."""
        suggested, anchor = ctx.suggested, ctx.anchor
        if suggested is None or anchor is None or anchor.speaker_id == item.message.user:
            return False
        if "?" in a.text or len(a.text.split()) > self.weights.alone_max_words:
            return False
        said = [v.text for c in a.clauses for v in c.values]
        said += [b.text for c in a.clauses if (b := bare_value(c.text)) is not None]
        back = next((v for v in said if same_value(v, suggested.value.text)
                     and same_value(suggested.value.text, v)), None)
        if back is None:
            return False
        return only_approval(a.text, back)

    def _asked_before(self, ctx: _Context, item: WriteItem) -> str:
        """What the question a counter-proposal answers was about ("raffle idea: grand prize
        an iPad??" → "how about a family movie night basket" → "ok fair, basket it is")."""
        anchor = ctx.anchor
        asked = anchor.proposal.answers if anchor is not None and anchor.proposal else None
        if not asked:
            return ""
        node = next((n for n in item.recent if n.message_id == asked), None)
        if node is None:
            return ""
        if node.topic and node.state_id:
            return node.topic
        qa = self.analysis(node.text, node.speaker)
        clause = next((c for c in qa.clauses if c.subject and c.act in (
            SpeechAct.PROPOSAL, SpeechAct.QUESTION)), None)
        label = next((c.subject for c in qa.clauses if c.subject), "")
        if clause is not None:
            # "grand prize an iPad??": what is asked about, not the value put forward
            clause = dataclasses.replace(clause, subject=re.split(
                r"\s(?:a|an)\s", clause.subject)[0])
        if clause is not None and label and label != clause.subject and not set(
                content_terms(label)) & set(content_terms(clause.subject)):
            return f"{label} {clause.subject}"
        return clause.subject if clause is not None else label

    def _accepts(self, a: MessageAnalysis) -> bool:
        """Whether a reply takes a proposal on ("ok let's do that", "sure", "moving it",
        "invite updated"), rather than only supporting it ("+1", "same", "agreed")."""
        opening = " ".join(a.text.split()[:4])
        return bool(self.analyzer.lexicon.accept.match(opening)) or a.changes >= 0.5


#: What may be said beside a proposal's value said back for it to take the proposal on:
#: the one-word acknowledgements, and the words that carry a value ("12th it is", "the
#: 19th for me then").
_APPROVAL = frozenset({c for c in ACK_CUES if " " not in c} | {
    "✔", "🎉", "👏", "🙂", "😊", "😀", "🤝", "!", "then", "it", "is", "the", "on", "for", "me",
    "by", "good", "please", "pls"})
# a word, or one symbol, of what is said beside the value
_REST_WORD = re.compile(r"[a-z']{1,20}|[^\sa-z0-9.,;:?'\-–—()\ufe0f\u200d]")
#: The most words a reply taking up a proposal that names no subject may say.
_SHORT_REPLY = 3
# A change put to what was just said ("can we push it a week?", "could we move that?").
_MOVES_IT = re.compile(r"\b(?:push|move|bump|shift|slide|delay|postpone|bring|pull)\s"
                       r"(?:it|that|this|them)\b", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['’]s\b")


def only_approval(text: str, value: str) -> bool:
    """Whether ``text`` says ``value`` and nothing but approval ("12th 👍", "thursday
    then"); "29th 👎", "thursday 🤔" say it back to doubt it."""
    rest = text.lower().replace(value.lower(), " ", 1)
    return all(w in _APPROVAL for w in _REST_WORD.findall(rest))


def doubts(text: str, value: str) -> bool:
    """Whether a reply saying ``value`` reacts to it with anything but approval ("thursday
    🤔", "sunday 😬", "29th 👎")."""
    rest = text.lower().replace(value.lower(), " ", 1)
    return any(not w[0].isalpha() and w not in _APPROVAL for w in _REST_WORD.findall(rest))


def _day_or_time_words(text: str) -> list[str]:
    """The words of ``text`` that are a day, a date or a time of day said alone ("tues",
    "5th", "2pm"): those whose every part is one (:func:`memory.analysis.matching.parts`)."""
    words = (w.strip(".,;:!?()'\"") for w in text.split())
    return [w for w in words if (p := parts(w)) and all(":" in x for x in p)]
