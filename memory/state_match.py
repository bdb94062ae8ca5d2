"""Revision as a scored match: the context of a message (its thread, the turn it answers, the
recent turns of its channel and the states they touch) and the scored match of a claim
against the active states (subject words and embeddings, value kinds, links, recency and
the strength of the change said).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from datetime import datetime

from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import CHANGE_LABEL_NOUNS, FACET_NOUNS, SETTLED_CHANGE, Weights
from memory.analysis.matching import (
    abbreviates,
    clock_for_day,
    compatible,
    day_for_clock,
    has_clock_in,
    measure,
    same_counted,
    same_grain,
    same_measure,
    same_value,
    shared_verbs_only,
    siblings,
    values_match,
)
from memory.analysis.message import Claim, Clause, MessageAnalysis, MessageAnalyzer
from memory.analysis.value_types import Kind
from memory.dates import coarser_than_a_day
from memory.decisions import (
    _CONTEXT_WINDOW_S,
    _RECENT_TURNS,
    RegistryTool,
    SubjectSimilarity,
    WriteItem,
    _Context,
    _Match,
    _matchable,
    _same_subject,
    _states_of,
    _without_people,
    _without_values,
    closed_compounds,
)
from memory.models import EvidenceNode
from memory.registry import StateRecord
from memory.rewrite import revised_from
from memory.subject_marks import heading, of_another, other_codes, other_month, spoken_of
from memory.text import (
    content_terms,
    find_slots,
    is_calendar_word,
    names_value,
    overlap,
    tokens,
)


@dataclasses.dataclass(frozen=True)
class _Claimed:
    """A claim with what its match against each state is read from."""

    claim: Claim
    clause: Clause
    ctx: _Context
    subject: str
    terms: set[str]
    scope: set[str]
    proper: bool
    clause_terms: set[str]
    now: float
    states: list[StateRecord]
    #: The message's words outside the claim's clause ("godot it is. *rip unity*").
    beside: str = ""
    #: Whether an active state of another kind of value is about exactly this subject:
    #: the thing is known, so a state naming only part of it is another thing.
    known: bool = False
    #: The words of the channel's name: every state's description says where it was said.
    channel_terms: frozenset[str] = frozenset()


class StateMatcher:
    """A base of :class:`memory.proposer.OfflineProposer`."""

    analyzer: MessageAnalyzer
    weights: Weights
    _people: dict[tuple[str, str], set[str]]

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
            w for p in people for t in content_terms(p) for w in (t, f"{t}'s", f"{t}’s")),
            replying=next((n.text for n in (item.parent, item.linked)
                           if n is not None and n.speaker_id != msg.user), ""))
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
            self._read_anchor(ctx, anchor, item, registry, people)
            root = item.parent if thread else None
            if root is not None and root is not anchor and root.message_id == thread:
                self._read_root(ctx, anchor, root, item, registry, people)
        if not ctx.subject and ctx.strong:
            ctx.subject = ctx.strong[0].topic
        return ctx

    def _read_anchor(self, ctx: _Context, anchor: EvidenceNode, item: WriteItem,
                     registry: RegistryTool, people: Sequence[str]) -> None:
        """What the turn a message answers brings: its subject, the value it suggests, and
        the states holding a value it asks about."""
        aa = self.analysis(anchor.text, anchor.speaker, people)
        ctx.anchor_analysis = aa
        if anchor.topic and anchor.state_id:
            ctx.subject = anchor.topic
        else:
            asked_clause = next((c for c in aa.clauses if c.subject and c.act in (
                SpeechAct.PROPOSAL, SpeechAct.QUESTION)), None)
            if asked_clause is not None and asked_clause.label and _only_alternatives(
                    asked_clause):
                # "jersey colour vote: black or purple?" asks about the jersey colour
                label = re.sub(r"\s(?:vote|poll|options|choices|question)$", "",
                               asked_clause.label.strip(), flags=re.IGNORECASE)
                asked_clause = dataclasses.replace(asked_clause, subject=label)
            ctx.subject = (asked_clause.subject if asked_clause is not None else next(
                (cl.subject for cl in aa.claims if cl.subject),
                "" if aa.question else aa.subject)) or heading(aa)
            # "parking q: guest asking if …" asks about parking
            ctx.subject = _ASKING_LABEL.sub("", ctx.subject)
        for clause in aa.clauses:
            if clause.act is SpeechAct.PROPOSAL and clause.claims:
                ctx.suggested, ctx.suggested_clause = clause.claims[0], clause
        if ctx.anchor_analysis is not None and ctx.anchor_analysis.question:
            # "do they deliver tuesdays too?" asks about the state holding "tuesday": the
            # answer ("wednesdays, 5am") is about it too
            named = [v for c in ctx.anchor_analysis.clauses for v in (*c.values, *c.old)
                     if not of_another(anchor.text, v.text)]
            if named:
                for hit in registry.search_registry(item, anchor.text, k=6):
                    rec = hit.state
                    if rec.state_id not in ctx.strong_ids and any(
                            values_match(v.text, rec.value) for v in named):
                        ctx.strong.append(rec)

    def _read_root(self, ctx: _Context, anchor: EvidenceNode, root: EvidenceNode,
                   item: WriteItem, registry: RegistryTool, people: Sequence[str]) -> None:
        """What a thread's first message brings when the turn a reply answers is another
        reply: the thread's subject when that turn names none of its own ("could we do
        before clinic instead? thurs 8.15" under "Staff meeting - thinking we move it to
        Wednesdays 1pm"), and the states whose value the first message names ("the 8:15 is
        a bit tricky for me")."""
        ra = self.analysis(root.text, root.speaker, people)
        aa = ctx.anchor_analysis
        claimed = aa is not None and any(c.claims and c.subject for c in aa.clauses)
        known = len(ctx.strong)
        if aa is not None:
            # the turn answered speaks of a tracked value ("separately the 9:15 is killing
            # me"): the reply is about that, not the thread's subject
            self._named_states(ctx, aa, anchor, item, registry)
        if not (anchor.topic and anchor.state_id) and not claimed and len(ctx.strong) == known:
            # (a question's subject may be a passing thing: "anyone else on the 6:30
            # train tomorrow?"; a subject holding a number names a value, not a thing)
            subject = (root.topic if root.topic and root.state_id else next(
                (c.subject for c in ra.clauses if c.subject and c.act in (
                    SpeechAct.PROPOSAL, SpeechAct.DECISION)), "")
                or heading(ra))
            if subject and not any(ch.isdigit() for ch in subject):
                ctx.subject, ctx.threaded = subject, True
        self._named_states(ctx, ra, root, item, registry)

    def _named_states(self, ctx: _Context, analysis: MessageAnalysis, node: EvidenceNode,
                      item: WriteItem, registry: RegistryTool) -> None:
        """The active states holding a value with digits that ``analysis`` names: a turn
        that speaks of "the 8:15" speaks of the thing set to it."""
        # (the words as written, too: "the 8:15" may be read as the clause's subject)
        named = [v.text for c in analysis.clauses for v in (*c.values, *c.old)] + [
            sl.text for sl in find_slots(node.text)]
        # only a value the message speaks of as the thing itself ("the 8:15 is tricky",
        # "8:15 doesn't work for me"), not one of something else ("the 6:30 train", "free
        # on the 14th to help me move")
        named = [v for v in dict.fromkeys(named) if any(ch.isdigit() for ch in v)
                 and spoken_of(node.text, v)]
        if not named:
            return
        for hit in registry.search_registry(item, node.text, k=6):
            rec = hit.state
            if rec.state_id not in ctx.strong_ids and any(
                    values_match(v, rec.value) for v in named):
                ctx.strong.append(rec)

    # ---- matching -------------------------------------------------------------------------
    def _matches(self, claim: Claim, clause: Clause, ctx: _Context, item: WriteItem,
                 registry: RegistryTool) -> list[_Match]:
        """Active states that this claim could be about, scored, best first."""
        subject = claim.subject or (ctx.subject if clause.pointer or not claim.terms else "")
        terms = _matchable(set(claim.terms) or set(content_terms(ctx.subject)))
        terms |= closed_compounds(claim.subject if claim.terms else ctx.subject)
        scope = _matchable(set(claim.scope)) - terms if claim.scope else set()
        # A subject that names a thing ("Beacon 2.9 launch") is about that thing only.
        proper = bool(claim.terms) and any(
            x[:1].isupper() and x.lower() not in FACET_NOUNS
            for x in re.findall(r"[\w'’-]{1,200}", claim.subject))
        beside = _beside(item.message.text, clause)
        states, known = self._candidates(claim, clause, ctx, item, registry, subject, beside,
                                         terms)
        if not states:
            return []
        # A person's name shared by two subjects ("Callum's handover", "Callum's paternity
        # leave") says nothing about whether they are one thing.
        dense = self._similarity(registry, _without_people(subject, ctx.people),
                                 [_without_people(s.topic, ctx.people) for s in states])
        c = _Claimed(claim, clause, ctx, subject, terms, scope, proper,
                     set(content_terms(_without_values(clause))), item.message.ts.timestamp(),
                     states, beside, known,
                     frozenset(content_terms(item.message.channel_name or "")))
        out = [self._match_one(c, s, cos) for s, cos in zip(states, dense, strict=True)]
        out.sort(key=lambda m: -m.score)
        return out

    def _candidates(self, claim: Claim, clause: Clause, ctx: _Context, item: WriteItem,
                    registry: RegistryTool, subject: str, beside: str, terms: set[str]
                    ) -> tuple[list[StateRecord], bool]:
        """The active states found by the claim's subject and values, and those linked to
        the message, that hold a value of the claim's family; and whether a state of
        another family is about exactly the claim's subject ("watch party" has a time
        when its place is said: the place is no value of the "lan party")."""
        family = claim.value.family
        query = " ".join(x for x in (subject, claim.value.text, *(o.text for o in clause.old))
                         if x) or item.message.text
        pool: dict[str, StateRecord] = {}
        for hit in registry.search_registry(item, query, k=12):
            pool[hit.state.state_id] = hit.state
        for rec in (*ctx.strong, *ctx.weak):
            pool.setdefault(rec.state_id, rec)
        if _replaces_beside(claim, clause) and beside.strip():
            # "godot it is. rip unity": the state whose value the rest of the message names
            for hit in registry.search_registry(item, beside, k=6):
                if names_value(beside, hit.state.value):
                    pool.setdefault(hit.state.state_id, hit.state)
        day_only = claim.value.kind is Kind.DATE and not has_clock_in(claim.value.text)
        clock_beside = any(c.value.kind is Kind.TIME for c in clause.claims if c is not claim)
        known = bool(terms) and any(
            s.value and not compatible(family, s.value_family)
            and _matchable(set(content_terms(s.topic))) == terms for s in pool.values())
        return [s for s in pool.values()
                if s.value and compatible(family, s.value_family)
                and (family != "version" or same_grain(claim.value.text, s.value))
                and (family != "amount" or (same_measure(claim.value.text, held_value(s))
                                            and same_counted(claim.value.text, held_value(s))))
                and not clock_for_day(claim.value.kind is Kind.TIME, held_value(s))
                and not day_for_clock(day_only, held_value(s), clock_beside=clock_beside)
                and not (clause.change < 0.5 and _week_for_day(claim.value.text, held_value(s),
                                                               item.message.ts))
                ], known

    def _match_one(self, c: _Claimed, s: StateRecord, cos: float) -> _Match:
        """How well the claim matches one state, and whether it is about it."""
        w = self.weights
        claim, clause, ctx, subject, terms = c.claim, c.clause, c.ctx, c.subject, c.terms
        scope, proper, now, states = c.scope, c.proper, c.now, c.states
        family = claim.value.family
        topic_terms = _matchable(set(content_terms(s.topic)) | closed_compounds(s.topic))
        lex_topic = overlap(terms, topic_terms)
        if not lex_topic and abbreviates(subject, s.topic):
            lex_topic = 1.0  # "reg close" is "registration close", cut short
        strong = s.state_id in ctx.strong_ids
        weak = s.state_id in ctx.weak_ids
        old = any(values_match(o.text, s.value) for o in clause.old)
        named = names_value(clause.text, s.value)
        # a choice decided with no subject, beside the value it replaces ("godot it is. rip
        # unity", "switching to saffron & sage … can u let blackbird know?")
        old = old or (_replaces_beside(claim, clause) and family in _DISTINCTIVE
                      and names_value(c.beside, s.value)
                      and not values_match(claim.value.text, s.value))
        # A clause naming a subject in its own words that shares none with the state's
        # topic or evidence, and is not near it in meaning, speaks of another thing
        # whatever value they share: "delivery fee … from $15 to $18" is no revision of a
        # "$15" single stem, nor "their weekly standing order from Monday to Tuesday" of a
        # cutoff "from Monday". (A subject borrowed from an earlier sentence — "power
        # problem SOLVED. Jordan got us the gym instead of room B" — is less sure.)
        # A change said outright ("scratch the 19th — new date for the ledger cutover is
        # sat 26 july") may rename its subject; so may a header ("ok tasting menu: meeting
        # elena halfway, £72 not 75").
        said = (terms | scope | c.clause_terms
                | _matchable(set(content_terms(clause.label)))) - c.channel_terms
        # Only a thing said to go "from" the old value "to" the new one is named for sure
        # ("pete make it mon 4th for the strike not fri" names no thing).
        foreign = (bool(claim.terms & c.clause_terms) and clause.change < _RENAMING_CHANGE
                   and _from_to(clause)
                   and not said & ((topic_terms | s.terms) - c.channel_terms)
                   and cos < w.min_subject_dense)
        score = self._score(c, s, cos, lex_topic=lex_topic, old=old, named=named)
        # Shared words count when one subject contains the other ("the review" / "Atlas
        # design review") or most words are shared; "quarterly budget for zanzibar" is
        # not "offsite budget". A change or an owner named loosens it to half the words.
        loose = clause.change >= 0.5 or family == "who"
        # "playtest feedback survey" and "playtest build" share a word but name two things
        # of the playtest: no similarity of the phrases makes them one
        sibling = siblings(subject, s.topic)
        named_same = not sibling and (_same_subject(terms, topic_terms)
                                      or abbreviates(subject, s.topic)) or (
            loose and overlap(terms - ctx.people, topic_terms - ctx.people)
            >= w.min_subject_overlap
            and not shared_verbs_only(terms - ctx.people, topic_terms - ctx.people))
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
        # (a header naming only a facet — "correction on the venue news" — names no thing)
        elsewhere = (bool(set(claim.scope) - FACET_NOUNS - CHANGE_LABEL_NOUNS) or proper) \
            and not (scope | terms) & topic_terms
        if in_scope:
            score += w.subject_topic * 0.5
        # two names of one thing are near in meaning; two things of one talk ("account",
        # "membership") can be as near: a value restated of another name needs more
        dense_least = (w.min_subject_dense_unchanged
                       if terms and clause.change < 0.5 and not strong
                       and not terms & (topic_terms | s.terms) else w.min_subject_dense)
        # a reply in a thread about something else ("Lunch on day 1: …" → "Doing Marlow's
        # Deli platters instead") is not about the channel's latest value of its kind
        off_thread = (ctx.threaded and bool(terms) and not terms & topic_terms
                      and not strong and not weak)
        about = (named_same or (cos >= dense_least and not sibling) or in_evidence
                 or (named and lex_topic > 0)  # "tuesday delivery as usual?"
                 # "climbing gym cancelled on us, offsite now at Rowan's place": the
                 # clause speaks of the state's value itself
                 or (bool(claim.subject) and values_match(claim.subject, s.value))
                 or (strong and (not claim.terms or claim.terms <= FACET_NOUNS))
                 or (in_scope and (clause.change >= 0.5 or same_value(
                     claim.value.text, s.value)))
                 # "calling it 2.4 instead of 2.3": a distinctive value named as replaced
                 # is the value of the state it replaces, whatever header the message has
                 or (old and family in _DISTINCTIVE and not sibling and not foreign)
                 or (not elsewhere and (
                     (old and not foreign)
                     or (not _answers_other(claim, ctx, topic_terms) and (
                         (weak and not claim.terms and clause.change >= 0.5)
                         or (not claim.terms and not off_thread and self._latest_of_kind(
                             s, states, now, settled=_echoes(claim.value.text, ctx.replying)
                             and clause.act is SpeechAct.DECISION
                             and clause.change >= SETTLED_CHANGE)))))))
        if about and other_codes(subject, s.topic):
            about = False  # "U10 training" is not the "U12 training": codes name things
        if about and not old and other_month(subject, s.topic, held_value(s)):
            about = False  # the "May launch" is not the April one, nor "launch times"
        if c.known and not strong and not old and not (
                terms <= topic_terms or topic_terms <= terms):
            about = False  # another thing of the same kind: "lan party" for "watch party"
        return _Match(s, score, about and score >= w.revise_threshold, strong)

    def _score(self, c: _Claimed, s: StateRecord, cos: float, *, lex_topic: float,
               old: bool, named: bool) -> float:
        """The weighted evidence that the claim is about the state: shared subject words,
        phrase similarity, links, the state's value named (as replaced or at all), recency
        and the strength of the change said."""
        w = self.weights
        lex_desc = (overlap(c.terms, s.terms) if c.terms
                    else overlap(c.clause_terms, s.terms))
        age = max(0.0, c.now - s.updated_ts) / 86400.0
        recency = math.exp(-age / w.recency_days)
        return (w.subject_topic * lex_topic + w.subject_description * lex_desc
                + w.subject_dense * max(cos, 0.0) + w.linked * (s.state_id in c.ctx.strong_ids)
                + w.thread * (s.state_id in c.ctx.weak_ids) + w.old_value * old
                + w.value_named * named + w.recency * recency + w.change * c.clause.change)

    @staticmethod
    def _latest_of_kind(state: StateRecord, states: Sequence[StateRecord], now: float, *,
                        settled: bool = False) -> bool:
        """A value of a distinctive kind said in passing ("that'll be build 418") is about
        the channel's latest state of that kind, if it was touched in the last days; a
        time or day only when settled ("ok thursday 7pm then") within the hour's talk."""
        if state.value_family in ("", "status"):
            return False
        if state.value_family == "when" and not settled:
            return False  # "see you tuesday" is said in passing
        window = _SETTLED_WINDOW_S if state.value_family == "when" else _CONTEXT_WINDOW_S
        same = [s for s in states if s.value_family == state.value_family]
        latest = max(same, key=lambda s: s.updated_ts)
        return latest is state and now - state.updated_ts <= window

    def _similarity(self, registry: RegistryTool, phrase: str,
                    topics: Sequence[str]) -> list[float]:
        if not phrase or not isinstance(registry, SubjectSimilarity):
            return [0.0] * len(topics)
        return registry.similarity(phrase, topics)


# How recent a time or day state must be for a settled value with no subject to revise it.
_SETTLED_WINDOW_S = 2 * 3600


def _from_to(clause: Clause) -> bool:
    """Whether the clause moves its thing "from" a value it names as replaced "to" another
    ("delivery fee within 5km going from $15 to $18")."""
    return any(re.search(rf"\bfrom\s{{1,3}}{re.escape(o.text)}\b.{{0,40}}?(?:\bto\b|→|->)",
                         clause.text, re.IGNORECASE) for o in clause.old)


def _week_for_day(value: str, held: str, said: datetime) -> bool:
    """Whether ``value`` only names a week or longer ("next week", "this week") where the
    state holds something finer (a day, "tuesdays", or a time): said without a change, it
    is when something happens or starts, not a new value ("first wed without ortho next
    week", "let's go Wednesday 1:15 then, starting this week")."""
    return coarser_than_a_day(value, said) and not coarser_than_a_day(held, said)


def _answers_other(claim: Claim, ctx: _Context, topic_terms: set[str]) -> bool:
    """Whether a claim with no subject answers a turn that asked about something else,
    naming the value among its options ("lunch: thai or the burrito place?" → "burrito it
    is" is no new value of the font)."""
    if claim.terms or ctx.anchor is None or not ctx.subject:
        return False
    asked = _matchable(set(content_terms(ctx.subject)))
    return bool(asked) and not asked & topic_terms and names_value(ctx.anchor.text,
                                                                    claim.value.text)


def _echoes(value: str, turn: str) -> bool:
    """Whether a settled value takes up what the turn it answers put forward ("nah
    thursday" → "ok thursday 7pm then"), not a day of its own ("see you tuesday then")."""
    said = {t.lower() for t in tokens(turn)}
    return bool(turn) and any(t.lower() in said for t in tokens(value)
                              if any(ch.isdigit() for ch in t) or is_calendar_word(t))


def _only_alternatives(clause: Clause) -> bool:
    """Whether a question's subject is only the alternatives it offers ("black or
    purple?")."""
    words = [w.lower() for w in re.findall(r"[\w'’-]{1,200}", clause.subject)]
    return bool(words) and "or" in words and len(words) <= 7


def _beside(text: str, clause: Clause) -> str:
    """The message's text outside ``clause``."""
    return f"{text[:clause.start]} {text[clause.end:]}"


def _replaces_beside(claim: Claim, clause: Clause) -> bool:
    """Whether a claim is a named choice decided with no subject of its own, or one said
    to be switched to ("Nightwing only have 2 units free … switching the whole order to
    Echo Rentals"): what it replaces may be named elsewhere in the message."""
    return (claim.value.family in ("name", "where") and clause.act is SpeechAct.DECISION
            and (clause.change >= _SWITCHED if claim.terms else clause.change >= SETTLED_CHANGE))


# How strongly a clause with a subject of its own must say a change for a choice named
# elsewhere in its message to be the one it replaces ("switching … to", "moving … to").
_SWITCHED = 0.7


def held_value(state: StateRecord) -> str:
    """The state's value with its unit: a number said alone ("7") keeps the unit of the
    value it replaced ("6 NEOs"), which the revision marker of the state's description
    names (memory.rewrite.revision_marker)."""
    if measure(state.value):
        return state.value
    return revised_from(state.description) or state.value


# Kinds of value specific enough that naming one as replaced identifies its state (dates and
# times are not: many plans share a day).
# How strongly a clause must say a change for a subject of other words to be a new name.
_RENAMING_CHANGE = 0.8
_ASKING_LABEL = re.compile(r"\s(?:q|qs|question|query)$", re.IGNORECASE)
_DISTINCTIVE = frozenset({"version", "amount", "where", "name", "who"})
