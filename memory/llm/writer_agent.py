"""The LLM writer agent (paper §3.3): one chat call proposes for a whole batch of messages.

:class:`LLMProposer` implements :class:`memory.proposer.Proposer`. For a window of messages of
one channel (the writer's chunk) it

1. gates: messages that cannot bear state (see :mod:`memory.gate`) get a ``context`` proposal
   with ``proposer="gate"`` and never reach the model;
2. pre-fetches the channel's active states relevant to the rest (``search_registry`` per
   message, merged, plus the state each message replies to), so most batches need no
   inspection round;
3. makes ONE chat call per ``batch_size`` remaining messages (gated ones take no slot) with
   the messages, the pre-fetched states and a little recent context, offering the tools
   ``search_registry`` and ``propose_update``;
4. executes any ``search_registry`` calls (always scoped to the chunk's channel) and continues
   the conversation, for at most ``max_inspections`` rounds; the last round offers only
   ``propose_update``;
5. turns valid ``propose_update`` calls into :class:`~memory.models.Proposal` objects. Malformed
   calls are recorded in :class:`WriterStats` and ignored; their messages get the fallback
   proposal, so no message is ever lost.

Proposals only propose: the writer's deterministic verify/commit decides what changes.
An :class:`~memory.errors.EndpointError` from the client propagates unchanged, so the inbox keeps
the messages queued and retries later.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from memory.gate import Gate, may_bear_state
from memory.llm.client import LLMClient, ToolCall
from memory.llm.prompts import (
    PROPOSE_TOOL,
    PROPOSE_UPDATE_SCHEMA,
    SEARCH_TOOL,
    VERDICTS,
    WRITER_PROMPT_VERSION,
    WRITER_SYSTEM_PROMPT,
    WRITER_TOOLS,
    render_batch,
    render_search_result,
)
from memory.models import EvidenceNode, Message, Proposal, Verdict
from memory.proposer import OfflineProposer, Proposer, RegistryTool, WriteItem
from memory.registry import RegistryHit
from memory.text import content_terms, shorten

logger = logging.getLogger(__name__)

__all__ = ["LLMProposer", "WriterStats"]

_MAX_TEXT = 1500
_MAX_CONTEXT_TEXT = 160
_MAX_REWRITE = 500
_SEARCH_K = 5
# A follow-up this short borrows its parent's words to find the state it is about.
_FOLLOW_UP_MAX_TERMS = 2


@dataclass
class WriterStats:
    """Counters of one LLMProposer (thread-safe); :meth:`snapshot` is what ``egmem stats``
    shows. ``issues`` keeps the latest problems with the model's tool calls (ids and reasons,
    never message text)."""

    messages: int = 0
    gated: int = 0
    llm_messages: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    inspection_rounds: int = 0
    searches: int = 0
    proposals: int = 0
    malformed: int = 0
    fallbacks: int = 0
    issues: deque[str] = field(default_factory=lambda: deque(maxlen=50))
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, **deltas: int) -> None:
        with self._lock:
            for name, delta in deltas.items():
                setattr(self, name, getattr(self, name) + delta)

    def issue(self, text: str) -> None:
        with self._lock:
            self.malformed += 1
            self.issues.append(text)

    def snapshot(self) -> dict[str, Any]:
        """Counters plus ratios per message: calls, tokens, messages per call, gated share."""
        with self._lock:
            n = self.messages
            out: dict[str, Any] = {
                "prompt_version": WRITER_PROMPT_VERSION,
                "messages": n, "gated": self.gated, "llm_messages": self.llm_messages,
                "calls": self.calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "inspection_rounds": self.inspection_rounds, "searches": self.searches,
                "proposals": self.proposals, "malformed": self.malformed,
                "fallbacks": self.fallbacks,
                "calls_per_message": self.calls / n if n else 0.0,
                "prompt_tokens_per_message": self.prompt_tokens / n if n else 0.0,
                "completion_tokens_per_message": self.completion_tokens / n if n else 0.0,
                "messages_per_call": self.llm_messages / self.calls if self.calls else 0.0,
                "gated_share": self.gated / n if n else 0.0,
                "recent_issues": list(self.issues),
            }
        return out


class LLMProposer:
    """Batching LLM proposer behind the deterministic verify/commit.

    ``fallback`` proposes for messages the model left without a usable proposal (missing or
    malformed calls). The default is the :class:`OfflineProposer`: its proposals go through
    the same verification, so it can do no more than offline mode already does, while a
    plain ``context`` would silently drop a state-bearing message ("review moved to 4 pm")
    and leave a stale value active — the worse failure for a memory of current state.
    Pass ``fallback="context"`` for plain ``context`` proposals, or any other Proposer.
    """

    name = "llm"

    def __init__(
        self,
        client: LLMClient,
        *,
        batch_size: int = 8,
        window: int | None = None,
        max_inspections: int = 3,
        gate: Gate | None = may_bear_state,
        fallback: Proposer | Literal["offline", "context"] = "offline",
        prefetch_k: int = 8,
        recent_k: int = 5,
        min_prefetch_score: float = 0.1,
        operation: str = "writer",
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if max_inspections < 0:
            raise ValueError(f"max_inspections must be >= 0, got {max_inspections}")
        self.client = client
        #: Most messages sent to the model in one call.
        self.call_size = batch_size
        #: The Proposer attribute the writer chunks by: a window of several calls, so that
        #: gated messages do not take call slots (20 messages with 6 noise → 2 calls of 7).
        self.batch_size = max(window or 4 * batch_size, batch_size)
        self.max_inspections = max_inspections
        self.gate = gate
        self.fallback: Proposer | None
        if isinstance(fallback, str):
            if fallback not in ("offline", "context"):
                raise ValueError(f"fallback must be 'offline', 'context' or a Proposer, "
                                 f"got {fallback!r}")
            self.fallback = OfflineProposer() if fallback == "offline" else None
        else:
            self.fallback = fallback
        self.prefetch_k = prefetch_k
        self.recent_k = recent_k
        self.min_prefetch_score = min_prefetch_score
        self.operation = operation
        self.stats = WriterStats()

    # ---- Proposer protocol --------------------------------------------------------------
    def propose(self, items: Sequence[WriteItem], registry: RegistryTool) -> list[Proposal]:
        """One proposal per item, in order.

        Gated messages get ``context`` without a call; the rest go to the model in
        ``ceil(n / call_size)`` calls of near-equal size, oldest first. Raises EndpointError
        when the endpoint fails (the whole window is then unproposed) and ValueError for a
        window mixing channels."""
        if not items:
            return []
        channels = {(i.message.platform, i.message.space, i.message.channel) for i in items}
        if len(channels) != 1:
            raise ValueError("LLMProposer.propose takes messages of one channel per call")
        gate = self.gate
        todo = [i for i in items if gate is None or gate(i.message)]
        todo_ids = {i.message.id for i in todo}
        out: dict[str, Proposal] = {
            i.message.id: Proposal(message_id=i.message.id, proposer="gate")
            for i in items if i.message.id not in todo_ids
        }
        got: dict[str, Proposal] = {}
        for start, end in _split(len(todo), self.call_size):
            got.update(self._ask(todo[start:end], registry, earlier=todo[:start], got=got))
        missing = [i for i in todo if i.message.id not in got]
        if missing:
            got.update(self._fall_back(missing, registry))
        out.update(got)
        self.stats.add(messages=len(items), gated=len(items) - len(todo),
                       llm_messages=len(todo), proposals=len(todo) - len(missing),
                       fallbacks=len(missing))
        return [out[i.message.id] for i in items]

    # ---- the conversation ---------------------------------------------------------------
    def _ask(
        self,
        group: Sequence[WriteItem],
        registry: RegistryTool,
        *,
        earlier: Sequence[WriteItem],
        got: dict[str, Proposal],
    ) -> dict[str, Proposal]:
        """One conversation for one group of messages (one call plus inspection rounds).

        ``earlier`` are the window's messages already proposed for by previous calls (in
        ``got``); not yet committed, they are shown as context and their proposed states as
        ``msg:`` references."""
        anchor = group[0]
        ids = {i.message.id for i in group}
        order = {i.message.id: n for n, i in enumerate([*earlier, *group])}
        states = [_state_view(h) for h in self._prefetch(group, registry)]
        states += [_pending_state_view(got[i.message.id]) for i in earlier
                   if i.message.id in got and got[i.message.id].verdict is Verdict.ESTABLISH]
        recent = [_recent_view(n) for n in anchor.recent[-self.recent_k:]] if self.recent_k else []
        recent += [_earlier_view(i, got.get(i.message.id)) for i in earlier[-self.call_size:]]
        conversation: list[dict[str, Any]] = [
            {"role": "system", "content": WRITER_SYSTEM_PROMPT},
            {"role": "user", "content": render_batch(
                channel=_channel_label(anchor.message), states=states, recent=recent,
                messages=[_message_view(i, ids) for i in group],
            )},
        ]
        mine: dict[str, Proposal] = {}
        rounds = 0
        while True:
            final_round = rounds >= self.max_inspections
            result = self.client.chat(
                operation=self.operation, messages=conversation,
                tools=[PROPOSE_UPDATE_SCHEMA] if final_round else WRITER_TOOLS,
            )
            self.stats.add(calls=1, prompt_tokens=result.prompt_tokens,
                           completion_tokens=result.completion_tokens)
            if not result.tool_calls:
                logger.info("llm writer: reply without tool calls (finish=%s)",
                            result.finish_reason)
            replies: list[str] = []
            searched = 0
            for call in result.tool_calls:
                if call.name == SEARCH_TOOL and not final_round and call.error is None:
                    searched += 1
                    replies.append(self._search(call, anchor, registry))
                else:
                    replies.append(self._take_proposal(call, ids, order, mine))
            if searched:
                self.stats.add(searches=searched, inspection_rounds=1)
            if not searched or len(mine) == len(ids):
                return mine
            rounds += 1
            conversation.append(result.as_message())
            conversation.extend(
                {"role": "tool", "tool_call_id": call.id, "content": reply}
                for call, reply in zip(result.tool_calls, replies, strict=True)
            )

    def _take_proposal(self, call: ToolCall, ids: set[str], order: dict[str, int],
                       got: dict[str, Proposal]) -> str:
        """Validate one non-search tool call; record a problem or store the proposal.
        Returns the tool message the model sees if the conversation continues."""
        if call.error is not None or call.arguments is None:
            problem = call.error or "arguments missing"
        elif call.name != PROPOSE_TOOL:
            problem = f"unknown or unavailable tool {call.name!r}"
        else:
            proposal, problem = _parse_proposal(call.arguments, ids, order, got)
            if proposal is not None:
                got[proposal.message_id] = proposal
                return "recorded"
        self.stats.issue(f"{call.id} ({shorten(call.name, 40)}): {problem}")
        logger.info("llm writer: ignored tool call %s: %s", call.id, problem)
        return f"rejected: {problem}"

    def _search(self, call: ToolCall, anchor: WriteItem, registry: RegistryTool) -> str:
        args = call.arguments or {}
        query = args.get("query")
        if not isinstance(query, str) or not query.strip():
            self.stats.issue(f"{call.id} ({SEARCH_TOOL}): query missing or not a string")
            return render_search_result([], note="query must be a non-empty string")
        channel = args.get("channel")
        if channel is not None and not _same_channel(channel, anchor.message):
            # The registry tool is scoped by the item anyway; answering "nothing there"
            # keeps the model from mistaking this channel's states for another's.
            return render_search_result(
                [], note=f"only this batch's channel ({_channel_label(anchor.message)}) "
                         f"can be searched")
        hits = registry.search_registry(anchor, query.strip()[:500], k=_SEARCH_K)
        return render_search_result([_state_view(h) for h in hits])

    def _prefetch(self, todo: Sequence[WriteItem], registry: RegistryTool) -> list[RegistryHit]:
        best: dict[str, RegistryHit] = {}
        for item in todo:
            text = item.message.text
            query = text
            if item.parent is not None and len(content_terms(text)) <= _FOLLOW_UP_MAX_TERMS:
                query = f"{text} {item.parent.passage}"
            for hit in registry.search_registry(item, query, k=_SEARCH_K):
                if hit.score < self.min_prefetch_score:
                    continue
                seen = best.get(hit.state.state_id)
                if seen is None or hit.score > seen.score:
                    best[hit.state.state_id] = hit
        ranked = sorted(best.values(), key=lambda h: h.score, reverse=True)[: self.prefetch_k]
        # The state a message replies to is the likeliest referent of a short follow-up
        # ("4 pm instead"): always shown, whatever the search ranked.
        shown = {h.state.state_id for h in ranked}
        for item in todo:
            sid = item.parent.state_id if item.parent is not None else None
            if sid and sid not in shown:
                rec = registry.get_state(item, sid)
                if rec is not None:
                    ranked.append(RegistryHit(rec, 0.0, 0.0, 0.0))
                    shown.add(sid)
        return ranked

    def _fall_back(self, missing: Sequence[WriteItem],
                   registry: RegistryTool) -> dict[str, Proposal]:
        logger.info("llm writer: %d message(s) without a usable proposal; %s fallback",
                    len(missing), "offline" if self.fallback is not None else "context")
        if self.fallback is None:
            return {i.message.id: Proposal(message_id=i.message.id, proposer="llm-fallback")
                    for i in missing}
        proposals = self.fallback.propose(missing, registry)
        by_id = {p.message_id: p for p in proposals}
        return {i.message.id: by_id.get(i.message.id)
                or Proposal(message_id=i.message.id, proposer="llm-fallback") for i in missing}


# ---- parsing the model's proposals ----------------------------------------------------------


def _parse_proposal(
    args: dict[str, Any], ids: set[str], order: dict[str, int], got: dict[str, Proposal]
) -> tuple[Proposal | None, str]:
    """A Proposal from propose_update arguments, or None and why not. ``ids`` are the
    messages of this call, ``order`` the positions of the window's messages so far.

    Only what cannot be verified later is rejected here (which message, which verdict, wrong
    types); a missing topic or quote is left to verify, which records the downgrade on the
    node."""
    mid = _as_id(args.get("message_id"))
    if mid is None:
        return None, "message_id missing or not a string"
    if mid not in ids and mid.removeprefix("msg:") in ids:
        mid = mid.removeprefix("msg:")
    if mid not in ids:
        return None, f"message id {shorten(mid, 60)!r} is not in this batch"
    if mid in got:
        return None, f"duplicate proposal for message {mid!r}"
    raw_verdict = args.get("verdict")
    if not isinstance(raw_verdict, str):
        return None, f"verdict missing for message {mid!r}"
    verdict = raw_verdict.strip().lower()
    if verdict not in VERDICTS:
        return None, f"invalid verdict {shorten(raw_verdict, 30)!r} for message {mid!r}"
    fields: dict[str, str] = {}
    for name in ("topic", "source_quote", "rewrite"):
        value = args.get(name)
        if value is None:
            value = ""
        if not isinstance(value, str):
            return None, f"{name} is not a string for message {mid!r}"
        fields[name] = value.strip()
    prior = _as_id(args.get("prior_state_id"))
    if args.get("prior_state_id") not in (None, "") and prior is None:
        return None, f"prior_state_id is not a string for message {mid!r}"
    if prior is not None and prior in order and order[prior] < order[mid]:
        # The model named an earlier message of the batch without the msg: prefix.
        prior = f"msg:{prior}"
    return Proposal(
        message_id=mid, topic=fields["topic"], verdict=Verdict(verdict),
        source_quote=fields["source_quote"], prior_state_id=prior,
        rewrite=fields["rewrite"][:_MAX_REWRITE], proposer="llm",
    ), ""


def _as_id(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _split(n: int, size: int) -> list[tuple[int, int]]:
    """``ceil(n / size)`` consecutive ranges covering ``range(n)``, sizes differing by <= 1."""
    if n == 0:
        return []
    parts = -(-n // size)
    base, extra = divmod(n, parts)
    out, start = [], 0
    for k in range(parts):
        end = start + base + (1 if k < extra else 0)
        out.append((start, end))
        start = end
    return out


# ---- rendering --------------------------------------------------------------------------------


def _channel_label(m: Message) -> str:
    name = f"#{m.channel_name}" if m.channel_name else m.channel
    return f"{name} ({m.platform}/{m.space}/{m.channel})"


def _same_channel(value: object, m: Message) -> bool:
    if not isinstance(value, str):
        return False
    v = value.strip().lstrip("#").lower()
    names = {m.channel.lower(), (m.channel_name or "").lower()}
    return not v or v in names or v == _channel_label(m).lower()


def _when(m: Message | EvidenceNode) -> str:
    return m.ts.strftime("%a %Y-%m-%d %H:%M UTC")


def _state_view(hit: RegistryHit) -> dict[str, Any]:
    s = hit.state
    return {"state_id": s.state_id, "topic": s.topic, "value": s.value,
            "description": shorten(s.description, 200), "revisions": s.revision_count}


def _recent_view(node: EvidenceNode) -> dict[str, Any]:
    view: dict[str, Any] = {"message_id": node.message_id, "speaker": node.speaker,
                            "time": _when(node), "text": shorten(node.text, _MAX_CONTEXT_TEXT)}
    if node.state_id:
        view.update(state_id=node.state_id, verdict=node.verdict.value)
    return view


def _pending_state_view(p: Proposal) -> dict[str, Any]:
    return {"state_id": f"msg:{p.message_id}", "topic": p.topic, "value": p.source_quote,
            "description": f"proposed by message {p.message_id} of this batch (not yet "
                           f"committed)", "revisions": 0}


def _earlier_view(item: WriteItem, proposal: Proposal | None) -> dict[str, Any]:
    m = item.message
    view: dict[str, Any] = {"message_id": m.id, "speaker": m.speaker, "time": _when(m),
                            "text": shorten(m.text, _MAX_CONTEXT_TEXT)}
    if proposal is not None and proposal.verdict is not Verdict.CONTEXT:
        view.update(proposed=proposal.verdict.value, topic=proposal.topic)
    return view


def _message_view(item: WriteItem, ids: set[str]) -> dict[str, Any]:
    m = item.message
    view: dict[str, Any] = {"message_id": m.id, "speaker": m.speaker, "time": _when(m),
                            "text": m.text if len(m.text) <= _MAX_TEXT
                            else m.text[:_MAX_TEXT] + "…"}
    parent = item.parent
    if parent is not None:
        if parent.message_id in ids:
            view["reply_to"] = parent.message_id
        else:
            ref: dict[str, Any] = {"message_id": parent.message_id, "speaker": parent.speaker,
                                   "text": shorten(parent.text, _MAX_CONTEXT_TEXT)}
            if parent.state_id:
                ref.update(state_id=parent.state_id, topic=parent.topic)
            view["reply_to"] = ref
    return view


