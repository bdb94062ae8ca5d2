"""Proposers: turn a message plus what the writer saw of memory into a Proposal.

Two proposers share the :class:`Proposer` protocol — the deterministic offline proposer here
and the LLM proposer in ``memory.llm.writer_agent`` — and both feed the same verify/commit.
A proposal never changes memory by itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import FACET_NOUNS, SAID_CHANGE
from memory.analysis.matching import compatible, same_value, values_match
from memory.analysis.message import (
    Claim,
    Clause,
    MessageAnalysis,
    MessageAnalyzer,
    absence_of_another,
)
from memory.analysis.said_alone import is_unitless
from memory.analysis.values import STATUS_FAMILY
from memory.dates import resolve_date
from memory.decisions import (
    _CONTEXT_WINDOW_S,
    _RECENT_TURNS,
    _SUGGESTING,
    RegistryTool,
    SubjectSimilarity,
    WriteItem,
    _consistent,
    _Context,
    _Decision,
    _facets,
    _inherit,
    _key,
    _Match,
    _occurrence,
    _primary,
    _qualify,
    _rescheduled,
)
from memory.models import Facet, Proposal, Verdict
from memory.registry import StateRecord
from memory.state_match import held_value
from memory.text import RECURRING, content_terms, names_value, one_dated_day
from memory.uptake import ProposalUptake, doubts, only_approval

__all__ = ["OfflineProposer", "Proposer", "RegistryTool", "SubjectSimilarity", "WriteItem",
           "derive_topic"]


class Proposer(Protocol):
    #: How many messages of one channel it proposes for at once.
    batch_size: int
    name: str

    def propose(self, items: Sequence[WriteItem], registry: RegistryTool) -> list[Proposal]:
        """One proposal per item, in order. ``prior_state_id`` may name a state id or
        ``msg:<message id>`` for a state established by an earlier item of the same batch."""
        ...


@dataclasses.dataclass(frozen=True)
class _Draft:
    """One claim on its way to a decision: the topic a new state would take, its value and
    the states it matches."""

    topic: str
    quote: str
    family: str
    act: SpeechAct
    change: float
    matches: list[_Match]

    @property
    def best(self) -> _Match | None:
        return next((m for m in self.matches if m.qualifies), None)

    def establish(self) -> _Decision | None:
        if not self.topic:
            return None
        return _Decision(Verdict.ESTABLISH, self.topic, self.quote, self.family, self.act,
                         change=self.change)

    def on(self, match: _Match, verdict: Verdict) -> _Decision:
        return _Decision(verdict, match.state.topic, self.quote, self.family, self.act,
                         match.state, match.score, self.change)


class OfflineProposer(ProposalUptake):
    """Deterministic proposer over the :class:`~memory.analysis.message.MessageAnalyzer`.

    Each value a message states is matched against the channel's active states by a score
    (weights from the lexicon): the subject's overlap with a state's topic and description,
    their embedding similarity, the state being what this message answers or its thread is
    about, the old value named as replaced, recency and the strength of the change signal.
    Only a state holding the same kind of value can be revised (a cancellation ends any);
    sharing a topic alone never revises. What the message does decides the verdict: a
    proposal or question changes nothing (it opens a state only where nothing is tracked
    yet), a rejection or reminder restates, an acceptance carries the value it accepts, and
    a decision, correction, reassignment or cancellation revises the state it matches or
    opens one. A message stating several things opens its further states as facets.
    """

    batch_size = 1
    name = "offline"

    def __init__(self, *, analyzer: MessageAnalyzer | None = None) -> None:
        self.analyzer = analyzer or MessageAnalyzer()
        self.weights = self.analyzer.lexicon.weights
        self._people: dict[tuple[str, str], set[str]] = {}

    def propose(self, items: Sequence[WriteItem], registry: RegistryTool) -> list[Proposal]:
        return [self._one(item, registry) for item in items]

    # ---- one message ----------------------------------------------------------------------
    def _one(self, item: WriteItem, registry: RegistryTool) -> Proposal:
        msg = item.message
        base = Proposal(message_id=msg.id, proposer=self.name)
        people = self._known(item)
        a = self.analysis(msg.text, msg.speaker, people, is_bot=msg.is_bot)
        base = base.model_copy(update={"act": a.act.value})
        if a.noise or a.system:
            return base
        ctx = self._context(item, registry, people)
        if ctx.anchor is not None:
            base = base.model_copy(update={"answers": ctx.anchor.message_id})
        decisions = self._decisions(a, ctx, item, registry)
        decisions = _rescheduled(_consistent(decisions))
        # "12 it is", "bus loop then": a value said alone is a value of the state the
        # conversation is on, whatever kind the words alone suggested ("12" as an hour)
        bare = self._bare_decisions(a, ctx, item, registry)
        if bare and (any(is_unitless(d.quote) for d in decisions if d.verdict is Verdict.REVISE)
                     or not any(d.verdict is not Verdict.ESTABLISH for d in decisions)):
            said = {d.quote for d in bare}
            decisions = [*bare, *(d for d in decisions if d.quote not in said)]
        proposes = any(c.act is SpeechAct.PROPOSAL and c.claims and self._suggests(c)
                       for c in a.clauses)
        if a.act is SpeechAct.REMINDER or proposes:
            # A reminder opens no state; beside a proposal of a value, the other sentences
            # explain it ("can we do 4 pm? I have a dentist appointment at 2").
            decisions = [d for d in decisions if d.verdict is not Verdict.ESTABLISH
                         or d.act is SpeechAct.PROPOSAL]
        if not any(d.verdict is not Verdict.ESTABLISH for d in decisions):
            accepted = self._acceptance(a, ctx, item, registry)
            if accepted is not None:
                decisions.insert(0, accepted)
        if not decisions:
            explained = self._reason_for(a, ctx, item)
            if explained is not None:
                return base.model_copy(update={
                    "verdict": Verdict.RESTATE, "topic": explained.topic,
                    "prior_state_id": explained.state_id, "reason": a.text[:300]})
            return base
        asked = ctx.anchor_analysis.asks if ctx.anchor_analysis is not None else frozenset()
        primary = _primary(decisions, asked)
        facets = _facets(decisions, primary)
        if primary.answers:
            # a new state named from an earlier turn, or a change of the value in force an
            # earlier turn named, is grounded there
            base = base.model_copy(update={"answers": primary.answers})
        reason = a.reason or (a.explanation if primary.verdict is Verdict.REVISE else "")
        return base.model_copy(update={
            "verdict": primary.verdict, "topic": primary.topic,
            "prior_state_id": primary.state.state_id if primary.state else None,
            "source_quote": primary.quote, "value_family": primary.family,
            "act": primary.act.value, "reason": reason[:300],
            "facets": [Facet(topic=d.topic, source_quote=d.quote, value_family=d.family,
                             prior_state_id=d.state.state_id if d.state is not None
                             and d.verdict is Verdict.REVISE else None)
                       for d in facets],
        })

    # ---- verdicts -------------------------------------------------------------------------
    def _decisions(self, a: MessageAnalysis, ctx: _Context, item: WriteItem,
                   registry: RegistryTool) -> list[_Decision]:
        """The decision each value of the message makes, clause by clause."""
        decisions: list[_Decision] = []
        for i, clause in enumerate(a.clauses):
            for claim in clause.claims:
                # A subject only borrowed from the message's header or an earlier sentence
                # ("Rain call: WE'RE ON! ... see everyone on the field at 11") names what the
                # value is about less surely than the clause's own words or a label right
                # before it: without a change said, it does not replace a value.
                borrowed = not clause.label and bool(claim.scope) and (not claim.subject or bool(
                    claim.terms and claim.terms <= claim.scope
                    and not claim.terms & set(content_terms(clause.text))))
                if not claim.subject:
                    claim = _inherit(claim, a.clauses[:i], answered=ctx.replying,
                                     changing=clause.change >= SAID_CHANGE)
                d = self._decide(claim, clause, a, ctx, item, registry)
                if (i and claim.terms and claim.terms <= FACET_NOUNS
                        and (d is None or d.verdict is Verdict.ESTABLISH)):
                    # "ligand batch came out contaminated, earliest is the 14th": an aspect of
                    # what the message spoke of before, if that is a state it changes
                    q = self._decide(_qualify(claim, a.clauses[:i]), clause, a, ctx, item,
                                     registry)
                    if q is not None and q.verdict is not Verdict.ESTABLISH:
                        d = q
                if (d is not None and borrowed and d.verdict is Verdict.REVISE
                        and clause.change < 0.5 and d.state is not None
                        and d.state.state_id not in ctx.strong_ids
                        and not any(values_match(o.text, d.state.value) for o in clause.old)):
                    d = None
                if d is not None:
                    decisions.append(d)
        return decisions

    def _decide(self, claim: Claim, clause: Clause, a: MessageAnalysis, ctx: _Context,
                item: WriteItem, registry: RegistryTool) -> _Decision | None:
        act = clause.act
        if act is SpeechAct.CANCELLATION:
            clause = dataclasses.replace(clause, change=max(clause.change, 0.8))
        family = claim.value.family
        asked = ctx.anchor_analysis.asks if ctx.anchor_analysis is not None else frozenset()
        if not claim.subject and asked and not any(compatible(family, f) for f in asked):
            # An answer's other values ("me, I'll do it next wed" to "who's got it?") say
            # nothing about what the question was about.
            return None
        if _echoed(claim, a, ctx):
            return None  # "5:45 😵" after "… be there by 5:45": a reaction, not a decision
        speaker = item.message.speaker
        matches = [m for m in self._matches(claim, clause, ctx, item, registry)
                   if not absence_of_another(m.state.topic, speaker)]
        topic = self._topic(claim, ctx)
        if absence_of_another(topic, speaker):
            # a reply to someone's absence is not about it: about what that turn asked, if
            # it asked ("i'm off the week of may 26 … who writes the tuesday one?")
            aa = ctx.anchor_analysis
            topic = next((c.subject for c in (aa.clauses if aa is not None else ())
                          if c.act is SpeechAct.QUESTION and c.subject
                          and not absence_of_another(c.subject, speaker)), "")
        draft = _Draft(topic, claim.value.text, family, act, clause.change, matches)
        return self._verdict(draft, claim, clause, a, ctx, item, registry)

    def _topic(self, claim: Claim, ctx: _Context) -> str:
        """The subject a new state of ``claim`` would be named by."""
        topic = claim.subject or (ctx.subject if self._borrows(claim, ctx) else "")
        if (claim.terms and claim.terms <= FACET_NOUNS and ctx.subject and ctx.anchor
                and not set(content_terms(ctx.subject)) <= FACET_NOUNS):
            # "fine, dates are july 18-25 then" answering the trip: the trip's dates; a
            # "venue: Hall B" reply to "the offsite date is March 12": the offsite venue
            thing = " ".join(w for w in ctx.subject.split()
                             if not set(content_terms(w)) <= FACET_NOUNS)
            topic = f"{thing} {claim.subject}" if thing else topic
        if (claim.heading and claim.subject and len(claim.subject.split()) <= 5
                and not claim.terms & claim.scope and "'s " not in claim.subject):
            # "Fjord: ... Kickoff with the Nordic team in Copenhagen": the Fjord kickoff
            topic = f"{claim.heading} {claim.subject}"
        if not claim.subject and topic and names_value(topic, claim.value.text):
            # "Let's go with NOS then" under "Our internet contract runs out … NOS is
            # cheapest at €210": the choice is not about NOS's own price, it is the thread's
            topic = self._other_subject(claim.value.text, ctx)
        return topic

    @staticmethod
    def _other_subject(value: str, ctx: _Context) -> str:
        """A subject of the turn answered that is not ``value`` itself, nor a value."""
        aa = ctx.anchor_analysis
        return next((c.subject for c in (aa.clauses if aa is not None else ())
                     if c.subject and not names_value(c.subject, value)
                     and not set(content_terms(c.subject)) & set(content_terms(value))
                     and not any(ch.isdigit() for ch in c.subject)
                     and c.act is not SpeechAct.CHATTER), "")

    def _verdict(self, draft: _Draft, claim: Claim, clause: Clause, a: MessageAnalysis,
                 ctx: _Context, item: WriteItem, registry: RegistryTool) -> _Decision | None:
        """What ``claim`` does to the states it matches, by the act of its clause."""
        act, quote, matches = draft.act, draft.quote, draft.matches
        best, establish, on = draft.best, draft.establish, draft.on
        if act in _SUGGESTING:
            # Suggesting a change to what is tracked changes nothing; a suggestion where
            # nothing is tracked yet ("how about The Lake?", "proposing eu-west-1") is the
            # state's first value. A request ("can someone take primary thu-sun?") is not.
            if best is not None or matches and matches[0].strong or clause.change >= 0.5:
                return None
            if act is SpeechAct.PROPOSAL and claim.subject and self._suggests(clause):
                return establish()
            return None
        if act in (SpeechAct.REMINDER, SpeechAct.CHATTER):
            # (a clause reporting a thing carried out, "tesco 9pm run done", is the only
            # chatter stating values: it plans nothing and moves no plan)
            if best is not None and same_value(quote, best.state.value):
                return on(best, Verdict.RESTATE)
            return None
        if act is SpeechAct.REJECTION:
            target = best or self._suggestion_target(ctx, item, registry)
            if target is not None:
                return on(target, Verdict.RESTATE)
            return establish() if claim.stated else None
        if act is SpeechAct.CONFIRMATION:
            if best is not None and same_value(quote, best.state.value):
                return on(best, Verdict.RESTATE)
            if ctx.suggested is not None and values_match(
                    quote, ctx.suggested.value.text) and only_approval(a.text, quote):
                target = self._suggestion_target(ctx, item, registry)
                if target is not None:
                    return (self._time_of(quote, target.state, item, registry)
                            or on(target, Verdict.REVISE))
                return establish()
            if best is not None:
                return on(best, Verdict.REVISE if best.strong else Verdict.RESTATE)
            if claim.subject and claim.stated and not a.question and claim.value.family == "who":
                return establish()  # "Felix still owns delivery": news to the memory
            return self._timed_near(claim, ctx, item, registry) if not claim.subject else None
        return self._changing(draft, claim, clause, ctx, item, registry)


    def _changing(self, draft: _Draft, claim: Claim, clause: Clause, ctx: _Context,
                  item: WriteItem, registry: RegistryTool) -> _Decision | None:
        """What a decision, correction, reassignment or cancellation does."""
        act, quote, family, matches = draft.act, draft.quote, draft.family, draft.matches
        best, establish, on = draft.best, draft.establish, draft.on
        if (best is None and not claim.subject and ctx.suggested is not None
                and compatible(family, ctx.suggested.value.family)
                and not doubts(item.message.text, quote)):
            # "ok 11-3 it is" after "can we do 11 to 3 instead?": the state it would change.
            target = self._suggestion_target(ctx, item, registry)
            if target is not None:
                same = same_value(quote, target.state.value)
                return (self._time_of(quote, target.state, item, registry)
                        or on(target, Verdict.RESTATE if same else Verdict.REVISE))
        if best is None and not claim.subject:
            pointed = self._pointed_at(claim, ctx, item, registry)
            if pointed is not None:
                same = same_value(quote, pointed.state.value)
                return on(pointed, Verdict.RESTATE if same else Verdict.REVISE)
            timed = self._timed_near(claim, ctx, item, registry)
            if timed is not None:
                return timed
            # (a day or time only: amounts are named in talk to be compared, "$150 vs $600")
            talk = (self._held_in_talk(claim, item, registry)
                    if clause.pointer and family == "when" else None)
            if talk is not None:
                kept, turn = talk
                done = on(kept, Verdict.RESTATE if same_value(quote, kept.state.value)
                          else Verdict.REVISE)
                return dataclasses.replace(done, answers=turn.message_id)
        if (family == STATUS_FAMILY and _occurrence(clause)
                and (best is None or RECURRING.search(best.state.value))):
            # one meeting of a weekly series is off, the series is not; one meeting of a
            # thing never held as a state is no state either
            return None
        if (best is not None and family == "when" and clause.change < SAID_CHANGE
                and RECURRING.search(best.state.value) and one_dated_day(quote)):
            # "Next branch practice is Sat 23rd" beside practice on WEDNESDAYS: one dated
            # meeting said without a change is its own, not the series moved
            return establish()
        if best is not None:
            # A clause that says the value moved ("pushed to next Saturday") revises unless
            # it names exactly the current value; otherwise a value that adds nothing to
            # the current one ("05:00" of "02:00-05:00") restates it.
            unchanged = (_key(quote) == _key(best.state.value) if clause.change >= 0.8
                         else same_value(quote, best.state.value)
                         or (clause.change < 0.5 and _same_day(quote, best.state, item)))
            if family != STATUS_FAMILY and unchanged:
                return on(best, Verdict.RESTATE)
            return on(best, Verdict.REVISE)
        if family == STATUS_FAMILY:
            return None  # nothing tracked to call off
        held = next((m for m in matches if m.strong and same_value(quote, m.state.value)),
                    None)
        if held is not None:
            return on(held, Verdict.RESTATE)  # the value it answers with is already held
        opened = establish() if claim.stated or act is not SpeechAct.DECISION else None
        return opened or self._introduced(draft, claim, clause, item, registry)

    def _introduced(self, draft: _Draft, claim: Claim, clause: Clause, item: WriteItem,
                    registry: RegistryTool) -> _Decision | None:
        """"let's go blackbird for now" a few turns after "caterer: blackbird kitchen did
        sophie's cousin's wedding … anyone against?": a named choice decided with no subject
        of its own, and no state it changes, is about what the turn that put that option
        forward was about: the state holding it, else the label or the subject that turn
        asked about."""
        if (draft.topic or claim.subject or claim.value.family not in ("name", "where")
                or clause.act not in (SpeechAct.DECISION, SpeechAct.CORRECTION)
                or not clause.stated):
            return None
        msg, value = item.message, claim.value.text
        cutoff = msg.ts.timestamp() - _CONTEXT_WINDOW_S
        for node in reversed(item.recent):
            if node.ts.timestamp() < cutoff:
                break
            if node.message_id == msg.id or not names_value(node.text, value):
                continue
            rec = registry.get_state(item, node.state_id) if node.state_id else None
            if rec is not None and same_value(draft.quote, rec.value):
                return draft.on(_Match(rec, 1.0, True, False), Verdict.RESTATE)
            if rec is not None:
                continue  # named in passing beside another value ("TUL nights: dock B")
            said = self.analysis(node.text, node.speaker)
            if said.system:
                continue
            topic = _option_subject(said.clauses, value)
            if topic:
                return _Decision(Verdict.ESTABLISH, topic, draft.quote, draft.family, draft.act,
                                 answers=node.message_id)
        return None

    @staticmethod
    def _borrows(claim: Claim, ctx: _Context) -> bool:
        """Whether a claim without a subject of its own is about what it answers: the anchor
        asked for its kind, suggested a value of its kind, or holds a state of its kind."""
        aa = ctx.anchor_analysis
        if ctx.threaded:
            return True
        if aa is None:
            return bool(ctx.strong)
        family = claim.value.family
        if any(compatible(family, f) for f in aa.asks):
            return True
        if ctx.suggested is not None and compatible(family, ctx.suggested.value.family):
            return True
        if any(compatible(family, v.family) for c in aa.clauses if c.act is SpeechAct.QUESTION
               for v in (*c.values, *c.old)):
            return True  # "is the £12 a night per car?" — "per car, and it's £15 now"
        return any(compatible(family, s.value_family) for s in ctx.strong) or not aa.question

    def _reason_for(self, a: MessageAnalysis, ctx: _Context,
                    item: WriteItem) -> StateRecord | None:
        """A message that only explains ("because Grace is travelling") right after a change
        is that change's reason: it restates the state the change touched."""
        head = a.text.lstrip().lower()
        if not self.analyzer.lexicon.reason_open.match(head) or a.act in _SUGGESTING:
            return None
        msg = item.message
        for n in reversed(item.recent[-_RECENT_TURNS:]):
            if (n.verdict in (Verdict.REVISE, Verdict.ESTABLISH) and n.state_id
                    and (n.speaker_id == msg.user or n is ctx.anchor)
                    and (msg.ts - n.ts).total_seconds() <= 30 * 60):
                return next((s for s in ctx.strong + ctx.weak if s.state_id == n.state_id),
                            None)
        return None


def _same_day(value: str, state: StateRecord, item: WriteItem) -> bool:
    """Whether a day said without digits ("redcliffe fri!!", "tomorrow") is the day the
    state holds, within the week after the message: the same date said again, no new one
    ("6 mar" stays "6 mar")."""
    if any(ch.isdigit() for ch in value):
        return False
    said = item.message.ts
    day = resolve_date(value, said, prefer="future")
    if day is None or day.start != day.end or not 0 <= (day.start - said.date()).days <= 6:
        return False
    held = resolve_date(held_value(state), datetime.fromtimestamp(state.updated_ts, tz=said.tzinfo),
                        prefer="future")
    return held is not None and held.start == held.end == day.start


def derive_topic(text: str, slots: Sequence[object] = (), **_: object) -> str:
    """A subject phrase for ``text``: the subject of its first stated value, else of its
    first clause ("" when it names none). Used to rename a state whose root was forgotten."""
    a = MessageAnalyzer().analyze(text)
    return next((cl.subject for cl in a.claims if cl.subject), a.subject)


def _option_subject(clauses: Sequence[Clause], value: str) -> str:
    """What a turn that puts ``value`` forward is about: the label the option follows
    ("caterer: blackbird kitchen did …"), the question it answers at once ("venue for the
    party? how about the crown"), or the subject of the proposal naming it; "" when the
    option is only named in passing or names the subject itself ("TUL nights: …")."""
    for i, clause in enumerate(clauses):
        if not names_value(clause.text, value):
            continue
        if clause.label:
            subject = clause.label
        elif clause.act in _SUGGESTING and i and clauses[i - 1].act is SpeechAct.QUESTION:
            subject = clauses[i - 1].subject
        elif clause.act is SpeechAct.PROPOSAL:
            subject = clause.subject
        else:
            continue
        if subject and not names_value(subject, value) and not (
                set(content_terms(subject)) & set(content_terms(value))):
            return subject
    return ""


def _echoed(claim: Claim, a: MessageAnalysis, ctx: _Context) -> bool:
    """Whether a short reply only says again a value of the turn it follows, someone
    else's statement (not a question or a proposal it would answer), with no change."""
    aa = ctx.anchor_analysis
    return (not claim.subject and bool(ctx.replying) and len(a.text.split()) <= _ECHO_WORDS
            and a.changes < 0.5 and names_value(ctx.replying, claim.value.text)
            and (aa is None or not (aa.question or aa.act in _SUGGESTING)))


# How short a reply saying a value of the turn before it again is an echo.
_ECHO_WORDS = 2
