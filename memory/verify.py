"""Deterministic verification of proposals (paper eq. 4).

Proposing never authorizes a state change: a value must be grounded in the source message (or
be its speaker claiming a task, or the proposal it accepts), and a revision must resolve to an
existing, active state of the same channel that holds the same kind of value and that the
message is about. Failures are downgraded (revise → establish → context) and the reasons kept.
A cancellation ("called off", "postponed indefinitely") ends a state of any kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memory.analysis.cue_words import FACET_NOUNS
from memory.analysis.grounding import grounded_value
from memory.analysis.matching import compatible, names_cut_short, same_measure, values_match
from memory.analysis.message import MessageAnalyzer
from memory.analysis.said_alone import is_unitless
from memory.analysis.values import STATUS_FAMILY
from memory.models import Facet, Message, Outcome, Proposal, Verdict, Verification
from memory.registry import StateRecord
from memory.text import content_terms, names_value, overlap, tokens

MAX_QUOTE = 300
MAX_TOPIC = 80
# A reply this short ("4 pm instead") needs no topic words of its own to revise.
_FOLLOW_UP_TOKENS = 8

StateLookup = Callable[[str], StateRecord | None]


@dataclass(frozen=True)
class VerifyContext:
    """What the message answers: the text of its reply parent or of the turn it was linked
    to in unthreaded chat, and the states those and its thread belong to."""

    text: str = ""
    state_ids: frozenset[str] = frozenset()
    #: What the answered turn itself answered, when the proposer linked the message to that
    #: turn: the question a counter-proposal took up ("raffle idea: grand prize an iPad??"
    #: → "how about a movie night basket" → "ok fair, basket it is"). Only a topic may
    #: come from it.
    asked: str = ""
    #: The channel's latest state holding the proposal's kind of value (touched in the last
    #: days): a value of a distinctive kind said with a change ("actually we're calling it
    #: 2.4") is about it.
    latest: frozenset[str] = frozenset()


class Verifier:
    """Verification with one message analyzer (for the kind of a value)."""

    def __init__(self, *, analyzer: MessageAnalyzer | None = None) -> None:
        self.analyzer = analyzer or MessageAnalyzer()

    def verify(
        self,
        proposal: Proposal,
        message: Message,
        lookup: StateLookup,
        *,
        enabled: bool = True,
        context: VerifyContext | None = None,
    ) -> tuple[Proposal, Verification, StateRecord | None]:
        """Return the (possibly downgraded) proposal, the verification record and the prior
        state.

        ``lookup`` resolves a state id within the message's own channel only, so a proposal
        naming another channel's state finds nothing. With ``enabled=False`` (an ablation)
        grounding checks are skipped but a prior state must still exist, since commit needs
        one."""
        ctx = context or VerifyContext()
        reasons: list[str] = []
        p = proposal
        if p.message_id != message.id:
            return _wrong_message(p, message)
        p = p.model_copy(update={"topic": p.topic.strip()[:MAX_TOPIC],
                                 "source_quote": p.source_quote.strip()[:MAX_QUOTE]})
        p = self._typed(p, message, ctx)
        verdict = p.verdict
        prior: StateRecord | None = None

        if verdict in (Verdict.REVISE, Verdict.RESTATE):
            prior = lookup(p.prior_state_id) if p.prior_state_id else None
            problem = self._prior_problem(p, message, prior, ctx, enabled=enabled)
            if problem:
                reasons.append(problem)
                prior = None
                verdict = Verdict.ESTABLISH if verdict is Verdict.REVISE else Verdict.CONTEXT

        if verdict in (Verdict.ESTABLISH, Verdict.REVISE):
            verdict, prior = self._ground(p, message, ctx, verdict, prior, reasons,
                                          enabled=enabled)

        if (verdict is Verdict.REVISE and prior is not None
                and _same(p.source_quote, prior.value)):
            reasons.append("value equals the active value: restated, not revised")
            verdict = Verdict.RESTATE

        if verdict is Verdict.RESTATE and p.source_quote and not self._grounded(
                p.source_quote, message, ctx):
            reasons.append("restated quote is not grounded; kept as supporting context only")
            p = p.model_copy(update={"source_quote": ""})

        facets = self._facets(p.facets, message, ctx, reasons, enabled=enabled, lookup=lookup,
                              taken={prior.state_id} if prior is not None else set())
        if verdict is Verdict.CONTEXT:
            p = p.model_copy(update={"prior_state_id": None})
        outcome = Outcome.DOWNGRADED if (verdict is not proposal.verdict
                                         or len(facets) < len(proposal.facets)) \
            else Outcome.ACCEPTED
        final = p.model_copy(update={"verdict": verdict, "facets": facets})
        return final, Verification(outcome=outcome, verdict=verdict, reasons=reasons), prior

    def _typed(self, p: Proposal, message: Message, ctx: VerifyContext) -> Proposal:
        """The kind the text gives the value wins; where the text alone cannot tell (a
        lower-case name, a choice) the proposer's reading stands."""
        if not p.source_quote:
            return p
        family = self.family(p.source_quote, message, ctx) or p.value_family
        return p.model_copy(update={"value_family": family})

    def _ground(self, p: Proposal, message: Message, ctx: VerifyContext, verdict: Verdict,
                prior: StateRecord | None, reasons: list[str], *, enabled: bool
                ) -> tuple[Verdict, StateRecord | None]:
        """A new or revised value must be quoted from the message, and a new state named
        with the message's words: otherwise the proposal is kept as context."""
        grounded_quote = bool(p.source_quote) and self._grounded(p.source_quote, message, ctx)
        if enabled and not p.source_quote:
            reasons.append("no value quote given")
        elif enabled and not grounded_quote:
            reasons.append(f"value quote {p.source_quote!r} is not grounded in the message")
        if reasons and verdict is Verdict.REVISE:
            # An ungrounded revision must not move the state: keep it as context.
            return Verdict.CONTEXT, None
        if reasons and verdict is Verdict.ESTABLISH and not grounded_quote:
            verdict = Verdict.CONTEXT
        if verdict is Verdict.ESTABLISH and not p.topic:
            reasons.append("no topic given")
            verdict = Verdict.CONTEXT
        elif verdict is Verdict.ESTABLISH and enabled and not _topic_grounded(
                p.topic, message, ctx):
            # A proposer may not name a state with words the message never used (a
            # look-alike of an existing state); only an answer may borrow its subject
            # from what it answers.
            reasons.append(f"topic {p.topic!r} is not grounded in the message")
            verdict = Verdict.CONTEXT
        return verdict, prior

    # ---- checks ------------------------------------------------------------------------
    def family(self, quote: str, message: Message, ctx: VerifyContext) -> str:
        """The kind of value ``quote`` is, judged from the message (never the proposer's
        word): the value the analyzer finds there, the speaker's own claim, the value of
        the proposal it accepts, else the quote read alone."""
        if is_unitless(quote):
            return ""  # "8 it is": a number alone is a count or an hour by what it answers
        a = self.analyzer.analyze(message.text, speaker=message.speaker)
        for v in a.values:
            if v.text == quote or (v.speaker and quote.lower() == message.speaker.lower()):
                return v.family
        for v in a.values:
            if values_match(quote, v.text) and values_match(v.text, quote):
                return v.family
        if ctx.text:
            for v in self.analyzer.analyze(ctx.text).values:
                if v.text == quote:
                    return v.family
        alone = self.analyzer.analyze(quote).values
        return alone[0].family if alone else ""

    def _grounded(self, quote: str, message: Message, ctx: VerifyContext) -> bool:
        return grounded_value(quote, message.text, speaker=message.speaker, context=ctx.text)

    def _prior_problem(self, p: Proposal, message: Message, prior: StateRecord | None,
                       ctx: VerifyContext, *, enabled: bool) -> str | None:
        if not p.prior_state_id:
            return "no prior state given"
        if prior is None:
            return (f"prior state {p.prior_state_id!r} does not exist or is not active in "
                    f"this channel")
        if (prior.platform, prior.space, prior.channel) != (message.platform, message.space,
                                                            message.channel):
            return f"prior state {p.prior_state_id!r} belongs to another channel"
        if not enabled or p.verdict is Verdict.RESTATE:
            return None
        # Judge against the message itself, never the proposer's own words: a model can copy
        # a state's topic into its proposal, but not into the message.
        family = p.value_family
        if prior.value_family and not compatible(family, prior.value_family) or (
                family == "amount" and not same_measure(p.source_quote, prior.value)):
            return (f"value {p.source_quote!r} is not the kind of value state "
                    f"{p.prior_state_id!r} holds ({prior.value_family})")
        said = set(content_terms(message.text)) | set(content_terms(ctx.text))
        linked = prior.state_id in ctx.state_ids or names_value(message.text, prior.value) or (
            prior.state_id in ctx.latest and family not in ("when", "", STATUS_FAMILY)
            and self.analyzer.analyze(message.text).changes >= 0.5)
        if family == STATUS_FAMILY and not (
                linked or overlap(said, _subject_terms(prior.topic)) >= 0.5):
            # Ending a plan of any kind needs the plan named, or the message to answer it.
            return f"the cancellation does not name state {p.prior_state_id!r}"
        about = (overlap(said, prior.terms) > 0 or names_cut_short(message.text, prior.topic)
                 or len(tokens(message.text)) <= _FOLLOW_UP_TOKENS or linked)
        if not prior.value_family and not overlap(said, prior.terms):
            return f"the message shares no words with state {p.prior_state_id!r}"
        if prior.value_family and not about:
            return f"the message is not about state {p.prior_state_id!r}"
        return None

    def _facets(self, facets: list[Facet], message: Message, ctx: VerifyContext,
                reasons: list[str], *, enabled: bool, lookup: StateLookup,
                taken: set[str]) -> list[Facet]:
        """Further states are established or revised only from the message's own values;
        like the main one, a topic may come from what the message answers. A further
        revision must name an active state of this channel, of the same kind of value, that
        no other part of the message revises, and change its value."""
        out: list[Facet] = []
        for f in facets:
            quote, topic = f.source_quote.strip()[:MAX_QUOTE], f.topic.strip()[:MAX_TOPIC]
            if f.prior_state_id:
                prior = lookup(f.prior_state_id)
                family = self.family(quote, message, VerifyContext()) or f.value_family
                if prior is None or prior.state_id in taken:
                    reasons.append(f"further revision of {f.prior_state_id!r} has no active "
                                   f"state to revise")
                    continue
                if enabled and (not grounded_value(quote, message.text,
                                                   speaker=message.speaker)
                                or not compatible(family, prior.value_family)
                                or _same(quote, prior.value)):
                    reasons.append(f"further revision {quote!r} of {f.prior_state_id!r} "
                                   f"was dropped")
                    continue
                taken.add(prior.state_id)
                out.append(Facet(topic=prior.topic, source_quote=quote, value_family=family,
                                 prior_state_id=prior.state_id))
                continue
            if not quote or not topic:
                reasons.append("a further state without a value or a topic was dropped")
                continue
            if enabled and not grounded_value(quote, message.text, speaker=message.speaker):
                reasons.append(f"further value {quote!r} is not grounded in the message")
                continue
            if enabled and not _topic_grounded(topic, message, ctx):
                reasons.append(f"further topic {topic!r} is not grounded in the message")
                continue
            family = self.family(quote, message, VerifyContext()) or f.value_family
            out.append(Facet(topic=topic, source_quote=quote, value_family=family))
        return out


_DEFAULT: list[Verifier] = []


def verify(
    proposal: Proposal,
    message: Message,
    lookup: StateLookup,
    *,
    enabled: bool = True,
    context: VerifyContext | None = None,
) -> tuple[Proposal, Verification, StateRecord | None]:
    """:meth:`Verifier.verify` with the stock analyzer."""
    if not _DEFAULT:
        _DEFAULT.append(Verifier())
    return _DEFAULT[0].verify(proposal, message, lookup, enabled=enabled, context=context)


def _wrong_message(p: Proposal, message: Message
                   ) -> tuple[Proposal, Verification, StateRecord | None]:
    return (
        Proposal(message_id=message.id, proposer=p.proposer),
        Verification(outcome=Outcome.REJECTED, verdict=Verdict.CONTEXT,
                     reasons=[f"proposal names message {p.message_id!r}, not "
                              f"{message.id!r}"]),
        None,
    )


def _topic_grounded(topic: str, message: Message, ctx: VerifyContext) -> bool:
    if message.reply_to or (message.thread_id and message.thread_id != message.id):
        return True
    # (the speaker is the message's too: "i'm on leave 16-27 march" is "Ollie away")
    said = (set(content_terms(message.text)) | set(content_terms(ctx.text))
            | set(content_terms(ctx.asked)) | set(content_terms(message.user_name)))
    return bool(set(content_terms(topic)) & said)


def _same(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


__all__ = ["STATUS_FAMILY", "StateLookup", "Verifier", "VerifyContext", "verify"]


def _subject_terms(topic: str) -> set[str]:
    """The words of ``topic`` naming the thing itself, without the aspect nouns that say
    which of its values the state tracks: "the offsite is postponed" names the plan whose
    state is "team offsite date" (all of the topic's words when it is only aspects)."""
    terms = set(content_terms(topic))
    return {t for t in terms if t not in FACET_NOUNS} or terms
