"""Deterministic verification of proposals (paper eq. 4).

Proposing never authorizes a state change: a value must be grounded in the source message and
a revision must resolve to an existing, active state of the same channel whose topic or value
overlaps. Failures are downgraded (revise → establish → context) and the reasons kept.
"""

from __future__ import annotations

from collections.abc import Callable

from memory.models import Message, Outcome, Proposal, Verdict, Verification
from memory.registry import StateRecord
from memory.text import content_terms, family_of, grounded, names_value, overlap, tokens

MAX_QUOTE = 300
MAX_TOPIC = 80
# A reply this short ("4 pm instead") needs no topic words of its own to revise.
_FOLLOW_UP_TOKENS = 8

StateLookup = Callable[[str], StateRecord | None]


def verify(
    proposal: Proposal,
    message: Message,
    lookup: StateLookup,
    *,
    enabled: bool = True,
) -> tuple[Proposal, Verification, StateRecord | None]:
    """Return the (possibly downgraded) proposal, the verification record and the prior state.

    ``lookup`` resolves a state id within the message's own channel only, so a proposal naming
    another channel's state finds nothing. With ``enabled=False`` (an ablation) grounding checks
    are skipped but a prior state must still exist, since commit needs one.
    """
    reasons: list[str] = []
    p = proposal
    if p.message_id != message.id:
        return (
            Proposal(message_id=message.id, proposer=p.proposer),
            Verification(outcome=Outcome.REJECTED, verdict=Verdict.CONTEXT,
                         reasons=[f"proposal names message {p.message_id!r}, not {message.id!r}"]),
            None,
        )
    p = p.model_copy(update={"topic": p.topic.strip()[:MAX_TOPIC],
                             "source_quote": p.source_quote.strip()[:MAX_QUOTE]})
    verdict = p.verdict
    prior: StateRecord | None = None

    if verdict in (Verdict.REVISE, Verdict.RESTATE):
        prior = lookup(p.prior_state_id) if p.prior_state_id else None
        problem = _prior_problem(p, message, prior, enabled=enabled)
        if problem:
            reasons.append(problem)
            prior = None
            verdict = Verdict.ESTABLISH if verdict is Verdict.REVISE else Verdict.CONTEXT

    if verdict in (Verdict.ESTABLISH, Verdict.REVISE):
        if enabled and not p.source_quote:
            reasons.append("no value quote given")
        elif enabled and not grounded(p.source_quote, message.text):
            reasons.append(f"value quote {p.source_quote!r} is not grounded in the message")
        if reasons and verdict is Verdict.REVISE:
            # An ungrounded revision must not move the state: keep it as context.
            verdict = Verdict.CONTEXT
            prior = None
        elif reasons and verdict is Verdict.ESTABLISH and not _grounded_or_empty(p, message):
            verdict = Verdict.CONTEXT
        if verdict is Verdict.ESTABLISH and not p.topic:
            reasons.append("no topic given")
            verdict = Verdict.CONTEXT
        elif verdict is Verdict.ESTABLISH and enabled and not _topic_grounded(p.topic, message):
            # A proposer may not name a state with words the message never used (a look-alike
            # of an existing state); only a reply may borrow its subject from what it answers.
            reasons.append(f"topic {p.topic!r} is not grounded in the message")
            verdict = Verdict.CONTEXT

    if verdict is Verdict.REVISE and prior is not None and _same(p.source_quote, prior.value):
        reasons.append("value equals the active value: restated, not revised")
        verdict = Verdict.RESTATE

    if verdict is Verdict.RESTATE and p.source_quote and not grounded(p.source_quote, message.text):
        reasons.append("restated quote is not grounded; kept as supporting context only")
        p = p.model_copy(update={"source_quote": ""})

    if verdict is Verdict.CONTEXT:
        p = p.model_copy(update={"prior_state_id": None})
    outcome = Outcome.DOWNGRADED if verdict is not proposal.verdict else Outcome.ACCEPTED
    final = p.model_copy(update={"verdict": verdict})
    return final, Verification(outcome=outcome, verdict=verdict, reasons=reasons), prior


def _prior_problem(
    p: Proposal, message: Message, prior: StateRecord | None, *, enabled: bool
) -> str | None:
    if not p.prior_state_id:
        return "no prior state given"
    if prior is None:
        return f"prior state {p.prior_state_id!r} does not exist or is not active in this channel"
    if (prior.platform, prior.space, prior.channel) != (message.platform, message.space,
                                                        message.channel):
        return f"prior state {p.prior_state_id!r} belongs to another channel"
    if not enabled or p.verdict is Verdict.RESTATE:
        return None
    # Judge against the message itself, never the proposer's own words: a model can copy a
    # state's topic into its proposal, but not into the message.
    family = family_of(p.source_quote, message.text)
    if prior.value_family and prior.value_family != family:
        return (f"value {p.source_quote!r} is not the kind of value state "
                f"{p.prior_state_id!r} holds ({prior.value_family})")
    said = set(content_terms(message.text))
    short_follow_up = len(tokens(message.text)) <= _FOLLOW_UP_TOKENS
    if not prior.value_family and not overlap(said, prior.terms):
        return f"the message shares no words with state {p.prior_state_id!r}"
    if prior.value_family and not (overlap(said, prior.terms) or short_follow_up
                                   or names_value(message.text, prior.value)):
        return f"the message is not about state {p.prior_state_id!r}"
    return None


def _topic_grounded(topic: str, message: Message) -> bool:
    if message.reply_to or (message.thread_id and message.thread_id != message.id):
        return True
    return bool(set(content_terms(topic)) & set(content_terms(message.text)))


def _grounded_or_empty(p: Proposal, message: Message) -> bool:
    return bool(p.source_quote) and grounded(p.source_quote, message.text)


def _same(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()
