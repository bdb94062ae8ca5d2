"""Proposers: turn a message plus what the writer saw of memory into a Proposal.

Two proposers share the :class:`Proposer` protocol — the deterministic offline proposer here
and the LLM proposer in ``memory.llm.writer_agent`` — and both feed the same verify/commit.
A proposal never changes memory by itself.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import CLAUSE_VERBS, FACET_NOUNS, KIND_NOUNS
from memory.analysis.matching import abbreviates, compatible, same_grain, same_value, values_match
from memory.analysis.message import Claim, Clause, MessageAnalysis, MessageAnalyzer
from memory.analysis.values import STATUS_FAMILY
from memory.models import EvidenceNode, Facet, Message, Proposal, Verdict
from memory.registry import RegistryHit, StateRecord
from memory.text import content_terms, names_value, overlap, value_key

__all__ = ["OfflineProposer", "Proposer", "RegistryTool", "SubjectSimilarity", "WriteItem",
           "derive_topic"]


@dataclass
class WriteItem:
    """One message as the writer sees it: the message, its resolved context and vector."""

    message: Message
    node_id: str
    parent: EvidenceNode | None = None
    recent: list[EvidenceNode] = field(default_factory=list)
    vector: np.ndarray | None = None
    #: In chat without threads: the earlier turn this one most likely answers or accepts (a
    #: question or proposal a few messages up, by someone else).
    linked: EvidenceNode | None = None


class RegistryTool(Protocol):
    """The writer's view of memory: channel-scoped active states only."""

    def search_registry(
        self, item: WriteItem, query: str, *, k: int = 5, families: set[str] | None = None
    ) -> list[RegistryHit]: ...

    def get_state(self, item: WriteItem, state_id: str) -> StateRecord | None:
        """An active state of the item's own channel, or None."""
        ...


@runtime_checkable
class SubjectSimilarity(Protocol):
    """Optional: how close a subject phrase is to state topics, by embeddings."""

    def similarity(self, phrase: str, topics: Sequence[str]) -> list[float]: ...


class Proposer(Protocol):
    #: How many messages of one channel it proposes for at once.
    batch_size: int
    name: str

    def propose(self, items: Sequence[WriteItem], registry: RegistryTool) -> list[Proposal]:
        """One proposal per item, in order. ``prior_state_id`` may name a state id or
        ``msg:<message id>`` for a state established by an earlier item of the same batch."""
        ...


# An earlier turn is context for this one only this soon before it.
_CONTEXT_WINDOW_S = 3 * 86400
_RECENT_TURNS = 3
_MAX_FACETS = 8
# How much better a later revision in a message must match to be its main one.
_CLEARLY = 0.3
_SUGGESTING = frozenset({SpeechAct.PROPOSAL, SpeechAct.QUESTION})
# Proposal cues that put a value forward (others ask someone to do something).
_SUGGESTION_CUES = frozenset({"how about", "what about", "maybe", "perhaps", "proposing",
                              "i propose", "propose", "proposal", "i suggest", "i'd suggest",
                              "suggest", "suggesting", "suggestion", "i'd vote for",
                              "i vote for", "vote for", "or maybe", "alternatively", "idea:",
                              "option:", "we could", "why not"})
_WE_CUES = frozenset({"can we", "could we", "should we", "shall we", "any chance",
                      "is it ok if", "is it okay if", "would it work", "what if"})
_CHANGING = frozenset({SpeechAct.DECISION, SpeechAct.CORRECTION, SpeechAct.CANCELLATION,
                       SpeechAct.REASSIGNMENT})


@dataclass
class _Context:
    """What a message is read against: the turn it answers, its thread and recent turns."""

    anchor: EvidenceNode | None = None
    anchor_analysis: MessageAnalysis | None = None
    strong: list[StateRecord] = field(default_factory=list)
    weak: list[StateRecord] = field(default_factory=list)
    subject: str = ""
    #: The value a proposal just before this message suggested, with its subject.
    suggested: Claim | None = None
    suggested_clause: Clause | None = None
    #: Words of the names of people in the channel: a name shared by two subjects
    #: ("Callum's handover", "Callum's paternity leave") does not make them one.
    people: frozenset[str] = frozenset()

    @property
    def strong_ids(self) -> set[str]:
        return {s.state_id for s in self.strong}

    @property
    def weak_ids(self) -> set[str]:
        return {s.state_id for s in self.weak}


@dataclass
class _Match:
    state: StateRecord
    score: float
    qualifies: bool
    strong: bool


@dataclass
class _Decision:
    verdict: Verdict
    topic: str
    quote: str
    family: str
    act: SpeechAct
    state: StateRecord | None = None
    score: float = 0.0
    change: float = 0.0  # the strength of the change its clause says


class OfflineProposer:
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

    # ---- analysis -------------------------------------------------------------------------
    def analysis(self, text: str, speaker: str, people: Sequence[str] = (),
                 *, is_bot: bool = False) -> MessageAnalysis:
        """The analysis of ``text`` (the analyzer keeps recent ones: context messages are read
        again and again)."""
        return self.analyzer.analyze(text, speaker=speaker, people=people, is_bot=is_bot)

    def _known(self, item: WriteItem) -> list[str]:
        msg = item.message
        names = self._people.setdefault((msg.platform, msg.space), set())
        names.add(msg.speaker)
        for n in [item.parent, item.linked, *item.recent]:
            if n is not None and n.speaker:
                names.add(n.speaker)
        return sorted(names)

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
                    claim = _inherit(claim, a.clauses[:i])
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
        decisions = _consistent(decisions)
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

    # ---- context --------------------------------------------------------------------------
    def _context(self, item: WriteItem, registry: RegistryTool,
                 people: Sequence[str]) -> _Context:
        msg = item.message
        # The turn this one answers: the question or proposal it follows (in a thread every
        # reply's parent is the root), else its reply parent. A mere previous turn in
        # unthreaded chat is weak context only.
        anchor = item.parent
        asked_turn = False
        if item.linked is not None and item.linked is not item.parent:
            la = self.analysis(item.linked.text, item.linked.speaker, people)
            if la.question or la.act is SpeechAct.PROPOSAL:
                anchor, asked_turn = item.linked, True
        ctx = _Context(anchor=anchor, people=frozenset(
            w for p in people for t in content_terms(p) for w in (t, f"{t}'s", f"{t}’s")))
        seen: set[str] = set()

        def add(target: list[StateRecord], node: EvidenceNode | None) -> None:
            if node is None:
                return
            for sid in _states_of(node):
                if sid in seen:
                    continue
                rec = registry.get_state(item, sid)
                if rec is not None:
                    seen.add(sid)
                    target.append(rec)

        thread = msg.thread_id if msg.thread_id and msg.thread_id != msg.id else None
        add(ctx.strong, anchor)
        add(ctx.strong, item.parent)
        if asked_turn or item.parent is not None:
            add(ctx.strong, item.linked)
        cutoff = msg.ts.timestamp() - _CONTEXT_WINDOW_S
        recent = [n for n in item.recent if n.ts.timestamp() >= cutoff]
        if thread:
            for n in reversed([n for n in recent if n.thread_id == thread
                               or n.message_id == thread]):
                add(ctx.strong, n)
        same = [n for n in recent if (n.thread_id or None) == thread]
        add(ctx.weak, item.linked)
        for n in reversed(same[-_RECENT_TURNS:]):
            add(ctx.weak, n)
        if anchor is not None:
            aa = self.analysis(anchor.text, anchor.speaker, people)
            ctx.anchor_analysis = aa
            if anchor.topic and anchor.state_id:
                ctx.subject = anchor.topic
            else:
                asked_clause = next((c for c in aa.clauses if c.subject and c.act in (
                    SpeechAct.PROPOSAL, SpeechAct.QUESTION)), None)
                ctx.subject = (asked_clause.subject if asked_clause is not None else next(
                    (cl.subject for cl in aa.claims if cl.subject),
                    "" if aa.question else aa.subject))
            for clause in aa.clauses:
                if clause.act is SpeechAct.PROPOSAL and clause.claims:
                    ctx.suggested, ctx.suggested_clause = clause.claims[0], clause
        if ctx.anchor_analysis is not None and ctx.anchor_analysis.question and anchor:
            # "do they deliver tuesdays too?" asks about the state holding "tuesday": the
            # answer ("wednesdays, 5am") is about it too
            named = [v for c in ctx.anchor_analysis.clauses for v in (*c.values, *c.old)]
            if named:
                for hit in registry.search_registry(item, anchor.text, k=6):
                    rec = hit.state
                    if rec.state_id not in ctx.strong_ids and any(
                            values_match(v.text, rec.value) for v in named):
                        ctx.strong.append(rec)
        if not ctx.subject and ctx.strong:
            ctx.subject = ctx.strong[0].topic
        return ctx

    # ---- matching -------------------------------------------------------------------------
    def _matches(self, claim: Claim, clause: Clause, ctx: _Context, item: WriteItem,
                 registry: RegistryTool) -> list[_Match]:
        """Active states that this claim could be about, scored, best first."""
        w = self.weights
        family = claim.value.family
        subject = claim.subject or (ctx.subject if clause.pointer or not claim.terms else "")
        terms = _matchable(set(claim.terms) or set(content_terms(ctx.subject)))
        scope = _matchable(set(claim.scope)) - terms if claim.scope else set()
        # A subject that names a thing ("Beacon 2.9 launch") is about that thing only.
        proper = bool(claim.terms) and any(
            w[:1].isupper() and w.lower() not in FACET_NOUNS
            for w in re.findall(r"[\w'’-]{1,200}", claim.subject))
        query = " ".join(x for x in (subject, claim.value.text, *(o.text for o in clause.old))
                         if x) or item.message.text
        pool: dict[str, StateRecord] = {}
        for hit in registry.search_registry(item, query, k=12):
            pool[hit.state.state_id] = hit.state
        for rec in (*ctx.strong, *ctx.weak):
            pool.setdefault(rec.state_id, rec)
        states = [s for s in pool.values()
                  if s.value and compatible(family, s.value_family)
                  and (family != "version" or same_grain(claim.value.text, s.value))]
        if not states:
            return []
        # A person's name shared by two subjects ("Callum's handover", "Callum's paternity
        # leave") says nothing about whether they are one thing.
        dense = self._similarity(registry, _without_people(subject, ctx.people),
                                 [_without_people(s.topic, ctx.people) for s in states])
        clause_terms = set(content_terms(_without_values(clause)))
        now = item.message.ts.timestamp()
        out: list[_Match] = []
        for s, cos in zip(states, dense, strict=True):
            topic_terms = _matchable(set(content_terms(s.topic)))
            lex_topic = overlap(terms, topic_terms)
            lex_desc = overlap(terms, s.terms) if terms else overlap(clause_terms, s.terms)
            strong = s.state_id in ctx.strong_ids
            weak = s.state_id in ctx.weak_ids
            old = any(values_match(o.text, s.value) for o in clause.old)
            named = names_value(clause.text, s.value)
            age = max(0.0, now - s.updated_ts) / 86400.0
            recency = math.exp(-age / w.recency_days)
            score = (w.subject_topic * lex_topic + w.subject_description * lex_desc
                     + w.subject_dense * max(cos, 0.0) + w.linked * strong + w.thread * weak
                     + w.old_value * old + w.value_named * named + w.recency * recency
                     + w.change * clause.change)
            # Shared words count when one subject contains the other ("the review" / "Atlas
            # design review") or most words are shared; "quarterly budget for zanzibar" is
            # not "offsite budget". A change or an owner named loosens it to half the words.
            loose = clause.change >= 0.5 or family == "who"
            named_same = _same_subject(terms, topic_terms) or abbreviates(subject, s.topic) or (
                loose and overlap(terms - ctx.people, topic_terms - ctx.people)
                >= w.min_subject_overlap)
            # The subject named in the state's own evidence ("2.4 slips to ..." where the
            # state's message said "Kicking off 2.4 planning ... release is Oct 24") counts
            # when the clause says the value changed.
            in_evidence = bool(terms) and terms <= s.terms and clause.change >= 0.5
            if in_evidence:
                score += w.subject_topic * 0.5
            # The header that opened the message ("Garnet: ... SSO for all staff slips to
            # Tue 22 Oct") names what the state is about, when the clause says it changed;
            # a header naming something else ("correction on Beacon: ... 6 Nov, not 4 Nov")
            # rules out a state about another thing, whatever values they share.
            in_scope = bool(scope & topic_terms) and (
                not terms or bool(terms & (topic_terms | s.terms)))
            elsewhere = (bool(claim.scope) or proper) and not (scope | terms) & topic_terms
            if in_scope:
                score += w.subject_topic * 0.5
            about = (named_same or cos >= w.min_subject_dense or in_evidence
                     or (named and lex_topic > 0)  # "tuesday delivery as usual?"
                     # "climbing gym cancelled on us, offsite now at Rowan's place": the
                     # clause speaks of the state's value itself
                     or (bool(claim.subject) and values_match(claim.subject, s.value))
                     or (strong and (not claim.terms or claim.terms <= FACET_NOUNS))
                     or (in_scope and (clause.change >= 0.5 or same_value(
                         claim.value.text, s.value)))
                     or (not elsewhere and (
                         old
                         or (weak and not claim.terms and clause.change >= 0.5)
                         or (not claim.terms and self._latest_of_kind(s, states, now)))))
            out.append(_Match(s, score, about and score >= w.revise_threshold, strong))
        out.sort(key=lambda m: -m.score)
        return out

    @staticmethod
    def _latest_of_kind(state: StateRecord, states: Sequence[StateRecord], now: float) -> bool:
        """A value of a distinctive kind said in passing ("that'll be build 418") is about
        the channel's latest state of that kind, if it was touched in the last days."""
        if state.value_family in ("when", "", "status"):
            return False
        same = [s for s in states if s.value_family == state.value_family]
        latest = max(same, key=lambda s: s.updated_ts)
        return latest is state and now - state.updated_ts <= _CONTEXT_WINDOW_S

    def _similarity(self, registry: RegistryTool, phrase: str,
                    topics: Sequence[str]) -> list[float]:
        if not phrase or not isinstance(registry, SubjectSimilarity):
            return [0.0] * len(topics)
        return registry.similarity(phrase, topics)

    # ---- verdicts -------------------------------------------------------------------------
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
        matches = self._matches(claim, clause, ctx, item, registry)
        best = next((m for m in matches if m.qualifies), None)
        quote = claim.value.text

        def establish() -> _Decision | None:
            if not topic:
                return None
            return _Decision(Verdict.ESTABLISH, topic, quote, family, act)

        def on(match: _Match, verdict: Verdict) -> _Decision:
            return _Decision(verdict, match.state.topic, quote, family, act, match.state,
                             match.score, clause.change)

        if act in _SUGGESTING:
            # Suggesting a change to what is tracked changes nothing; a suggestion where
            # nothing is tracked yet ("how about The Lake?", "proposing eu-west-1") is the
            # state's first value. A request ("can someone take primary thu-sun?") is not.
            if best is not None or matches and matches[0].strong or clause.change >= 0.5:
                return None
            if act is SpeechAct.PROPOSAL and claim.subject and self._suggests(clause):
                return establish()
            return None
        if act is SpeechAct.REMINDER:
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
            if ctx.suggested is not None and values_match(quote, ctx.suggested.value.text):
                target = self._suggestion_target(ctx, item, registry)
                if target is not None:
                    return on(target, Verdict.REVISE)
                return establish()
            if best is not None:
                return on(best, Verdict.REVISE if best.strong else Verdict.RESTATE)
            if claim.subject and claim.stated and not a.question and claim.value.family == "who":
                return establish()  # "Felix still owns delivery": news to the memory
            return None
        # a decision, correction, reassignment or cancellation
        if (best is None and not claim.subject and ctx.suggested is not None
                and compatible(family, ctx.suggested.value.family)):
            # "ok 11-3 it is" after "can we do 11 to 3 instead?": the state it would change.
            target = self._suggestion_target(ctx, item, registry)
            if target is not None:
                same = same_value(quote, target.state.value)
                return on(target, Verdict.RESTATE if same else Verdict.REVISE)
        if (best is not None and family == STATUS_FAMILY and _occurrence(clause)
                and _RECURRING.search(best.state.value)):
            return None  # one meeting of a weekly series is off; the series is not
        if best is not None:
            # A clause that says the value moved ("pushed to next Saturday") revises unless
            # it names exactly the current value; otherwise a value that adds nothing to
            # the current one ("05:00" of "02:00-05:00") restates it.
            unchanged = (_key(quote) == _key(best.state.value) if clause.change >= 0.8
                         else same_value(quote, best.state.value))
            if family != STATUS_FAMILY and unchanged:
                return on(best, Verdict.RESTATE)
            return on(best, Verdict.REVISE)
        if family == STATUS_FAMILY:
            return None  # nothing tracked to call off
        held = next((m for m in matches if m.strong and same_value(quote, m.state.value)),
                    None)
        if held is not None:
            return on(held, Verdict.RESTATE)  # the value it answers with is already held
        if claim.stated or act is not SpeechAct.DECISION:
            return establish()
        return None

    @staticmethod
    def _borrows(claim: Claim, ctx: _Context) -> bool:
        """Whether a claim without a subject of its own is about what it answers: the anchor
        asked for its kind, suggested a value of its kind, or holds a state of its kind."""
        aa = ctx.anchor_analysis
        if aa is None:
            return bool(ctx.strong)
        family = claim.value.family
        if any(compatible(family, f) for f in aa.asks):
            return True
        if ctx.suggested is not None and compatible(family, ctx.suggested.value.family):
            return True
        return any(compatible(family, s.value_family) for s in ctx.strong) or not aa.question

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
        return next((m for m in matches if m.qualifies), None)

    def _acceptance(self, a: MessageAnalysis, ctx: _Context, item: WriteItem,
                    registry: RegistryTool) -> _Decision | None:
        """"ok let's do that", "sure", "+1", "ok moving it": agreeing with the proposal it
        answers carries that proposal's value; agreeing with a decision restates it."""
        if not (a.agrees or a.changes >= 0.5) or ctx.anchor is None:
            return None
        if any(c.act in _SUGGESTING or c.act is SpeechAct.REJECTION for c in a.clauses):
            return None
        suggested = ctx.suggested
        anchor = ctx.anchor
        if suggested is not None and not self._accepts(a):
            return None  # "+1" to a proposal supports it; it does not decide it
        if suggested is not None:
            if anchor.state_id and anchor.verdict is Verdict.ESTABLISH:
                rec = registry.get_state(item, anchor.state_id)
                if rec is not None:
                    return _Decision(Verdict.RESTATE, rec.topic, "", rec.value_family,
                                     SpeechAct.CONFIRMATION, rec, 1.0)
            target = self._suggestion_target(ctx, item, registry)
            quote = suggested.value.text
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


_RECURRING = re.compile(r"\b(?:every|each|weekly|daily|monthly|biweekly|fortnightly|"
                        r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b", re.IGNORECASE)
_OCCURRENCE = re.compile(r"\b(?:today|tonight|tomorrow|this week|next week|this time|"
                         r"this (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b", re.IGNORECASE)


def _key(value: str) -> str:
    return value_key(value)


def _occurrence(clause: Clause) -> bool:
    """Whether a cancellation names one occurrence ("sync today is cancelled")."""
    return bool(_OCCURRENCE.search(clause.text))


def _without_values(clause: Clause) -> str:
    """The clause's words without its values (what it says about them)."""
    text = clause.text
    for v in sorted((*clause.values, *clause.old), key=lambda v: -v.start):
        s, e = v.start - clause.start, v.end - clause.start
        if 0 <= s <= e <= len(text):
            text = text[:s] + " " + text[e:]
    return text


def _matchable(terms: set[str]) -> set[str]:
    """Subject words without the ones naming the kind of value ("launch date" is "launch",
    "release version" is "release"): the value's family already says that. A subject made
    only of them keeps them."""
    out = {t for t in terms if t not in KIND_NOUNS}
    out = out or set(terms)
    # "check-in" is "check in": a hyphenated word counts by its parts too
    return out | {part for t in out if "-" in t for part in content_terms(t.replace("-", " "))}


def _same_subject(a: set[str], b: set[str]) -> bool:
    """Whether two subjects name the same thing: one contains the other, or they share at
    least half of all their words."""
    shared = a & b
    if not shared:
        return False
    return a <= b or b <= a or len(shared) / len(a | b) >= 0.5


def _inherit(claim: Claim, before: Sequence[Clause]) -> Claim:
    """A claim that names no subject takes the message's own earlier one: the nearest clause
    before it that states something about a subject, else the header that opened the message
    ("Bad news on lunch: ... Switching to Taqueria Luna")."""
    if not before:
        return claim
    subject = next((c.subject for c in reversed(before) if c.subject and c.claims), "")
    last = before[-1]
    if not subject and last.subject and not last.claims and len(last.text.split()) <= 4:
        subject = last.subject  # "cert renewed ✅ new one good until apr 14 2026"
    header = before[0]
    if (not subject and header.subject and not header.claims and len(before) > 1
            and before[1].label and before[1].label.strip() == header.text.strip()):
        subject = header.subject
    if not subject:
        return claim
    return Claim(claim.value, subject, frozenset(content_terms(subject)))


def _qualify(claim: Claim, before: Sequence[Clause]) -> Claim:
    """A subject that only names an aspect ("earliest is the 14th", "new date is Friday") is
    an aspect of what the message spoke of before ("ligand batch came out contaminated ...
    earliest is the 14th")."""
    earlier = next((c.subject for c in reversed(before) if c.subject
                    and not set(c.terms) <= FACET_NOUNS), "")
    if not earlier:
        return claim
    words: list[str] = []
    for w in earlier.split()[:4]:
        if w.lower() in CLAUSE_VERBS:
            break  # "ligand batch came out contaminated" is about the ligand batch
        words.append(w)
    if not words:
        return claim
    subject = f"{' '.join(words)} {claim.subject}"
    return dataclasses.replace(claim, subject=subject, terms=frozenset(content_terms(subject)))


def _without_people(phrase: str, people: frozenset[str]) -> str:
    if not people:
        return phrase
    words = [w for w in phrase.split() if not set(content_terms(w)) & people]
    return " ".join(words) if words else phrase


def _states_of(node: EvidenceNode) -> list[str]:
    from memory.facets import node_state_ids

    return node_state_ids(node)


def _consistent(decisions: list[_Decision]) -> list[_Decision]:
    """A message that states a state's current value again does not, in the same breath,
    replace it by another value of that kind without saying so: that other value is about
    something else ("lunch at the usual place; meet in the lobby" keeps the place)."""
    restated = {(d.state.state_id, d.family) for d in decisions
                if d.verdict is Verdict.RESTATE and d.state is not None}
    return [d for d in decisions
            if not (d.verdict is Verdict.REVISE and d.state is not None
                    and (d.state.state_id, d.family) in restated and d.change < 0.5)]


def _primary(decisions: list[_Decision], asked: frozenset[str]) -> _Decision:
    """The main update of a message: its strongest revision, else a restatement, else the
    first state it opens — except that the answer to what the message answers asks for
    ("Where should we go?" → "Pho Saigon it is, Friday at 12:30") comes before a revision
    that only adds detail to a value ("Friday" → "Friday at 12:30")."""
    answer = next((d for d in decisions if d.verdict is Verdict.ESTABLISH
                   and d.family != STATUS_FAMILY
                   and any(compatible(d.family, f) for f in asked)), None)
    revisions = [d for d in decisions if d.verdict is Verdict.REVISE]
    if answer is not None and all(
            d.state is not None and values_match(d.state.value, d.quote) for d in revisions):
        return answer
    for verdict in (Verdict.REVISE, Verdict.RESTATE):
        found = [d for d in decisions if d.verdict is verdict]
        if found:
            # The first change a message names is its point ("primary ana, secondary
            # bjorn"), unless a later one is clearly the better match.
            top = max(d.score for d in found)
            return next(d for d in found if d.score >= top - _CLEARLY)
    return decisions[0]


def _facets(decisions: list[_Decision], primary: _Decision) -> list[_Decision]:
    """The further states a message opens (one per subject and kind of value) and revises
    (one value per state; "the Cup moves to the Bathurst Community Centre and the date is now
    Aug 24" revises the venue and the date)."""
    seen = {(primary.topic.lower(), primary.family)}
    revised = {primary.state.state_id} if primary.state is not None else set()
    out: list[_Decision] = []
    for d in decisions:
        if d is primary or not d.quote:
            continue
        if d.verdict is Verdict.REVISE and d.state is not None:
            if d.state.state_id in revised:
                continue
            revised.add(d.state.state_id)
            out.append(d)
            continue
        if d.verdict is not Verdict.ESTABLISH:
            continue
        key = (d.topic.lower(), d.family)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out[:_MAX_FACETS]


def derive_topic(text: str, slots: Sequence[object] = (), **_: object) -> str:
    """A subject phrase for ``text``: the subject of its first stated value, else of its
    first clause ("" when it names none). Used to rename a state whose root was forgotten."""
    a = MessageAnalyzer().analyze(text)
    return next((cl.subject for cl in a.claims if cl.subject), a.subject)
