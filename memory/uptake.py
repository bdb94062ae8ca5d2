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
from memory.analysis.matching import compatible, same_value, values_match
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
)
from memory.models import Verdict
from memory.registry import StateRecord
from memory.subject_marks import of_another
from memory.terse_replies import TerseReplies
from memory.text import content_terms

__all__ = ["ProposalUptake"]


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
        """The state a proposal naming no subject would change: the one whose value it
        calls a problem ("the 12th doesn't work any more. could we do the 19th?"), else
        the only state of its kind the turns just before it touched ("quiz night is on the
        12th" … "could we do the 19th?")."""
        assert ctx.anchor is not None
        if of_another(ctx.anchor.text, claim.value.text):
            return None  # "can the 6pm people still come?": the time of other things
        family = claim.value.family
        aa = ctx.anchor_analysis
        named = [v.text for c in (aa.clauses if aa is not None else ())
                 for v in (*c.values, *c.old) if not same_value(v.text, claim.value.text)]
        near = [*ctx.strong, *ctx.weak,
                *(hit.state for hit in registry.search_registry(item, ctx.anchor.text, k=6))]
        kin: dict[str, StateRecord] = {}
        for rec in near:
            if compatible(family, rec.value_family):
                kin.setdefault(rec.state_id, rec)
        for rec in kin.values():
            if any(values_match(v, rec.value) for v in named):
                return _Match(rec, 1.0, True, True)
        if claim.value.kind is Kind.CHOICE or is_unitless(claim.value.text):
            return None  # "can we do 30 on those?": a number or a word alone could be anything
        if ctx.suggested_clause is None or not self._suggests(ctx.suggested_clause):
            return None  # asking someone to act ("can someone grab the 2pm delivery?")
        recent = {r.state_id: r for r in ctx.weak if compatible(family, r.value_family)}
        if len(recent) == 1 and not named:
            return _Match(next(iter(recent.values())), 0.5, True, False)
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
        return any(same_value(v, suggested.value.text) and same_value(suggested.value.text, v)
                   for v in said)

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
