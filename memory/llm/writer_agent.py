"""The LLM writer agent (paper §3.3): one conversation proposes for a whole batch of messages.

:class:`LLMProposer` implements :class:`memory.proposer.Proposer`. For a window of messages of
one channel (the writer's chunk) it

1. gates: messages that cannot bear state (see :mod:`memory.gate`) get a ``context`` proposal
   with ``proposer="gate"`` and never reach the model;
2. pre-fetches the channel's active states relevant to the rest (``search_registry`` per
   message, merged, plus the state each message replies to), so most batches need no
   inspection round;
3. sends the rest in groups of ``batch_size`` (fewer once the endpoint's context proved
   smaller): one request per group, states and messages named by aliases (S1.., M1..),
   asking for every proposal in ONE ``propose_updates`` call (forced by ``tool_choice``);
4. answers ``search_registry`` calls (scoped to the chunk's channel) for at most
   ``max_inspections`` rounds, and asks again — a repair turn listing the messages still
   missing or rejected and why — while a turn adds proposals, up to ``max_repairs`` turns;
   proposals cut short by the completion cap are salvaged item by item;
5. turns valid items into :class:`~memory.models.Proposal` objects; messages still without
   one get the fallback proposal (the offline proposer), so no message is ever lost.
   :class:`WriterStats` reports the share that came from the model.

What the endpoint says changes the path (recorded in the client's endpoint profile, logged
once, shown in ``egmem stats``): no tools → JSON replies (the schema in the prompt, JSON mode
when the server has it; the offline proposer if replies stay unusable); a context overflow →
the group is split and later groups are smaller; a refused ``tool_choice`` → a weaker one.
Any other refusal narrows the group down to the message whose request is refused and raises
:class:`~memory.errors.RequestRejected` naming it (the pipeline counts the attempt and
dead-letters it in the end); a refusal of every request, or an unavailable endpoint, raises
for the whole window so the inbox keeps it queued.

Proposals only propose: the writer's deterministic verify/commit decides what changes.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

from memory.errors import (
    ContextOverflow,
    EndpointError,
    RequestRejected,
    ToolsUnsupported,
)
from memory.gate import Gate, may_bear_state
from memory.llm.client import ChatResult, LLMClient, ToolCall
from memory.llm.content_calls import salvage_items
from memory.llm.profile import EndpointProfile
from memory.llm.prompts import (
    LEGACY_PROPOSE_TOOL,
    PROPOSE_TOOL,
    SEARCH_TOOL,
    WRITER_SYSTEM_PROMPT,
    WRITER_TOOLS,
    render_batch,
    render_repair,
    render_search_result,
)
from memory.llm.writer_parse import CallAliases, items_of, json_items, parse_item
from memory.llm.writer_stats import Turn, WriterStats
from memory.llm.writer_views import (
    channel_label,
    earlier_view,
    message_view,
    pending_view,
    recent_view,
    state_view,
)
from memory.models import Proposal, Verdict
from memory.proposer import OfflineProposer, Proposer, RegistryTool, WriteItem
from memory.registry import RegistryHit
from memory.text import content_terms, shorten

logger = logging.getLogger(__name__)

__all__ = ["LLMProposer", "WriterStats"]

_SEARCH_K = 5
# A follow-up this short borrows its parent's words to find the state it is about.
_FOLLOW_UP_MAX_TERMS = 2
# Completion cap per call: room for one proposal per message with a short rewrite (about
# 50 tokens each); a reply cut short keeps its complete items and is asked for the rest.
_TOKENS_BASE = 100
_TOKENS_PER_MESSAGE = 90
# JSON replies that yield nothing this many groups in a row: the offline proposer takes over.
_USELESS_JSON_GROUPS = 3
_JSON_OBJECT = {"type": "json_object"}


class LLMProposer:
    """Batching LLM proposer behind the deterministic verify/commit.

    ``fallback`` proposes for messages the model left without a usable proposal. The
    default is the :class:`OfflineProposer`: its proposals go through the same verification,
    so it can do no more than offline mode already does, while a plain ``context`` would
    silently drop a state-bearing message ("review moved to 4 pm") and leave a stale value
    active. Pass ``fallback="context"`` for plain ``context`` proposals, or any Proposer.
    """

    name = "llm"

    def __init__(
        self,
        client: LLMClient,
        *,
        batch_size: int = 8,
        window: int | None = None,
        max_inspections: int = 1,
        max_repairs: int | None = None,
        gate: Gate | None = may_bear_state,
        fallback: Proposer | Literal["offline", "context"] = "offline",
        prefetch_k: int = 8,
        recent_k: int = 5,
        min_prefetch_score: float = 0.1,
        operation: str = "writer",
        systematic_after: int = 3,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if max_inspections < 0:
            raise ValueError(f"max_inspections must be >= 0, got {max_inspections}")
        self.client = client
        #: Most messages sent to the model in one call (the endpoint may lower it).
        self.call_size = batch_size
        #: The Proposer attribute the writer chunks by: a window of several calls, so that
        #: gated messages do not take call slots (20 messages with 6 noise → 2 calls of 7).
        self.batch_size = max(window or 4 * batch_size, batch_size)
        self.max_inspections = max_inspections
        #: Repair turns per group; they continue only while a turn adds proposals.
        self.max_repairs = batch_size if max_repairs is None else max(0, max_repairs)
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
        self.systematic_after = systematic_after
        self.stats = WriterStats()
        # Messages whose request was refused on its own since the last accepted request.
        self._refused_alone: set[str] = set()
        self._useless_json = 0
        self._sync_stats(client.profile.get())

    # ---- Proposer protocol --------------------------------------------------------------
    def propose(self, items: Sequence[WriteItem], registry: RegistryTool) -> list[Proposal]:
        """One proposal per item, in order.

        Gated messages get ``context`` without a call; the rest go to the model oldest
        first in groups of near-equal size. Raises EndpointError when the endpoint is
        unavailable or refuses every request (the window is then unproposed),
        RequestRejected naming the message whose request it refuses, and ValueError for a
        window mixing channels."""
        if not items:
            return []
        channels = {(i.message.platform, i.message.space, i.message.channel) for i in items}
        if len(channels) != 1:
            raise ValueError("LLMProposer.propose takes messages of one channel per call")
        todo = [i for i in items if self.gate is None or self.gate(i.message)]
        todo_ids = {i.message.id for i in todo}
        out: dict[str, Proposal] = {
            i.message.id: Proposal(message_id=i.message.id, proposer="gate")
            for i in items if i.message.id not in todo_ids
        }
        got: dict[str, Proposal] = {}
        start = 0
        while start < len(todo) and self.client.profile.get().path != "offline":
            size = self._group_size(len(todo) - start)
            group = todo[start:start + size]
            got.update(self._ask_group(group, registry, earlier=todo[:start], got=got))
            start += size
        missing = [i for i in todo if i.message.id not in got]
        if missing:
            got.update(self._fall_back(missing, registry))
        out.update(got)
        self.stats.add(messages=len(items), gated=len(items) - len(todo),
                       llm_messages=len(todo), proposals=len(todo) - len(missing),
                       fallbacks=len(missing))
        self._sync_stats(self.client.profile.get())
        return [out[i.message.id] for i in items]

    def _group_size(self, remaining: int) -> int:
        """Near-equal groups of at most the call size (lowered by context overflows)."""
        learned = self.client.profile.get().max_call_messages
        size = max(1, min(self.call_size, learned or self.call_size))
        parts = -(-remaining // size)
        return -(-remaining // parts)

    def _sync_stats(self, profile: EndpointProfile) -> None:
        self.stats.path = profile.path
        self.stats.notes = profile.notes

    # ---- one group, whatever the endpoint says --------------------------------------------
    def _ask_group(self, group: Sequence[WriteItem], registry: RegistryTool, *,
                   earlier: Sequence[WriteItem], got: dict[str, Proposal],
                   compact: bool = False, inspect: bool = True) -> dict[str, Proposal]:
        profile = self.client.profile
        try:
            mine = self._converse(group, registry, earlier=earlier, got=got, compact=compact,
                                  inspect=inspect)
        except _Outgrown as out:
            self.stats.add(overflows=1)
            if not out.mine and not inspect:
                # Repair turns alone outgrew the context: fewer messages per call.
                return self._overflowed(None, group, registry, earlier=earlier, got=got,
                                        compact=compact)
            # A fresh, shorter conversation (no inspection round) asks for the rest.
            done = [i for i in group if i.message.id in out.mine]
            rest = [i for i in group if i.message.id not in out.mine]
            more = self._ask_group(rest, registry, earlier=[*earlier, *done],
                                   got={**got, **out.mine}, compact=compact, inspect=False)
            return {**out.mine, **more}
        except ToolsUnsupported:
            profile.learn("it does not accept tools; the writer asks for JSON replies",
                          path="json")
            return self._ask_group(group, registry, earlier=earlier, got=got, compact=compact)
        except ContextOverflow as exc:
            self.stats.add(overflows=1)
            return self._overflowed(exc.limit, group, registry, earlier=earlier, got=got,
                                    compact=compact)
        except RequestRejected as exc:
            if self._adapt(exc):
                return self._ask_group(group, registry, earlier=earlier, got=got,
                                       compact=compact)
            return self._narrow(exc, group, registry, earlier=earlier, got=got)
        self._refused_alone.clear()
        if profile.get().path == "json":
            self._useless_json = 0 if mine else self._useless_json + 1
            if self._useless_json >= _USELESS_JSON_GROUPS:
                profile.learn("its JSON replies are unusable; the offline proposer writes",
                              path="offline")
        return mine

    def _overflowed(self, limit: int | None, group: Sequence[WriteItem],
                    registry: RegistryTool, *, earlier: Sequence[WriteItem],
                    got: dict[str, Proposal], compact: bool) -> dict[str, Proposal]:
        """A first request did not fit the context: halve the group (and remember the size),
        or shrink a single message's view, or give it up to the fallback."""
        profile = self.client.profile
        limit = limit or profile.get().context_tokens
        if len(group) > 1:
            half = max(1, len(group) // 2)
            known = profile.get().max_call_messages
            if known is None or half < known:
                profile.learn(f"its context is too small for {len(group)} messages per call; "
                              f"the writer sends at most {half}",
                              max_call_messages=half, context_tokens=limit)
            first = self._ask_group(group[:half], registry, earlier=earlier, got=got)
            second = self._ask_group(group[half:], registry, earlier=[*earlier, *group[:half]],
                                     got={**got, **first})
            return {**first, **second}
        if not compact:
            return self._ask_group(group, registry, earlier=earlier, got=got, compact=True)
        self.stats.issue(f"message {group[0].message.id}: too long for the model's context")
        return {}

    def _adapt(self, exc: RequestRejected) -> bool:
        """Learn from a refused ``tool_choice``/``response_format``; True to ask again."""
        profile = self.client.profile
        current = profile.get()
        if exc.param == "tool_choice" and current.path == "tools":
            weaker = {"required": "named", "named": "none"}.get(current.tool_choice)
            if weaker is not None:
                profile.learn(f"it refuses tool_choice={current.tool_choice!r}; the writer "
                              f"uses {weaker!r}", tool_choice=weaker)
                return True
        if exc.param == "response_format" and current.json_mode:
            profile.learn("it refuses JSON mode; JSON replies are asked for in the prompt",
                          json_mode=False)
            return True
        return False

    def _narrow(self, exc: RequestRejected, group: Sequence[WriteItem],
                registry: RegistryTool, *, earlier: Sequence[WriteItem],
                got: dict[str, Proposal]) -> dict[str, Proposal]:
        """Find the message whose request is refused. When the requests of
        ``systematic_after`` different messages are refused one after the other with none
        accepted between, the refusal is not about a message: stop the whole window."""
        self.stats.add(rejected=1)
        if len(group) == 1:
            mid = group[0].message.id
            self._refused_alone.add(mid)
            if len(self._refused_alone) >= self.systematic_after:
                raise EndpointError(
                    f"The LLM endpoint at {self.client.shown_url} refuses every request "
                    f"(HTTP {exc.status}: {exc.detail or 'no reason given'}). Check the model "
                    f"and server settings (see docs/LLM.md); messages stay queued.",
                    status=exc.status) from exc
            raise RequestRejected(str(exc), status=exc.status, param=exc.param,
                                  detail=exc.detail, message_ids=(mid,)) from exc
        half = len(group) // 2
        first = self._ask_group(group[:half], registry, earlier=earlier, got=got)
        second = self._ask_group(group[half:], registry, earlier=[*earlier, *group[:half]],
                                 got={**got, **first})
        return {**first, **second}

    # ---- the conversation ---------------------------------------------------------------
    def _converse(self, group: Sequence[WriteItem], registry: RegistryTool, *,
                  earlier: Sequence[WriteItem], got: dict[str, Proposal],
                  compact: bool, inspect: bool = True) -> dict[str, Proposal]:
        """One conversation for one group: a request, inspection rounds, repair turns."""
        profile = self.client.profile.get()
        json_reply = profile.path == "json"
        aliases = CallAliases()
        anchor = group[0]
        order = {i.message.id: n for n, i in enumerate([*earlier, *group])}
        conversation = self._opening(group, registry, earlier=earlier, got=got,
                                     compact=compact, aliases=aliases, json_reply=json_reply)
        mine: dict[str, Proposal] = {}
        inspections = repairs = 0
        while True:
            can_search = (inspect and not json_reply and inspections < self.max_inspections
                          and profile.tool_choice == "required")
            try:
                result = self.client.chat(
                    operation=self.operation, messages=conversation,
                    tools=None if json_reply else WRITER_TOOLS,
                    tool_choice=_tool_choice(profile, can_search=can_search),
                    max_tokens=_TOKENS_BASE + _TOKENS_PER_MESSAGE * (len(group) - len(mine)),
                    response_format=_JSON_OBJECT if json_reply and profile.json_mode else None)
            except ContextOverflow:
                if inspections == 0 and repairs == 0:
                    raise  # the first request does not fit
                raise _Outgrown(mine) from None
            self.stats.add(calls=1, prompt_tokens=result.prompt_tokens,
                           completion_tokens=result.completion_tokens,
                           recovered_calls=sum(c.from_content for c in result.tool_calls),
                           truncated=int(result.truncated))
            turn = self._read(result, aliases, order, mine, anchor, registry,
                              can_search=can_search, json_reply=json_reply)
            missing = [aliases.messages.name(i.message.id) for i in group
                       if i.message.id not in mine]
            if not missing:
                return mine
            if turn.searched:
                inspections += 1
                self.stats.add(searches=turn.searched, inspection_rounds=1)
                conversation += [result.as_message(), *result.followup(turn.replies)]
                continue
            if repairs >= self.max_repairs or (repairs > 0 and not turn.added):
                return mine
            repairs += 1
            self.stats.add(repairs=1)
            rejected = {k: v for k, v in turn.rejected.items() if k in missing}
            conversation += [result.as_message(), *result.followup(turn.replies),
                             {"role": "user", "content": render_repair(
                                 missing, rejected, json_reply=json_reply,
                                 truncated=turn.truncated)}]

    def _opening(self, group: Sequence[WriteItem], registry: RegistryTool, *,
                 earlier: Sequence[WriteItem], got: dict[str, Proposal], compact: bool,
                 aliases: CallAliases, json_reply: bool) -> list[dict[str, Any]]:
        """The first request of a group's conversation: the states and turns it is shown
        (leaner once a context overflowed) and the messages to propose for."""
        profile = self.client.profile.get()
        anchor = group[0]
        for item in group:
            aliases.messages.name(item.message.id)
        # A context that already overflowed gets a leaner view of states and context; a
        # message that does not fit even alone, the leanest.
        lean = profile.max_call_messages is not None
        states_k, recent_k, earlier_k = ((3, 0, 2) if compact else (4, 2, 2) if lean
                                         else (self.prefetch_k, self.recent_k, self.call_size))
        hits = self._prefetch(group, registry)[:states_k]
        states = [state_view(h, aliases) for h in hits]
        pending = earlier[-earlier_k:] if lean or compact else earlier
        states += [pending_view(got[i.message.id], aliases) for i in pending
                   if i.message.id in got and got[i.message.id].verdict is Verdict.ESTABLISH]
        recent = [recent_view(n, aliases) for n in anchor.recent[-recent_k:]] if recent_k else []
        recent += [earlier_view(i, got.get(i.message.id), aliases=aliases)
                   for i in earlier[-earlier_k:]]
        return [
            {"role": "system", "content": WRITER_SYSTEM_PROMPT},
            {"role": "user", "content": render_batch(
                channel=channel_label(anchor.message), states=states, recent=recent,
                messages=[message_view(i, aliases, compact=compact) for i in group],
                json_reply=json_reply)},
        ]

    def _read(self, result: ChatResult, aliases: CallAliases, order: dict[str, int],
              mine: dict[str, Proposal], anchor: WriteItem, registry: RegistryTool, *,
              can_search: bool, json_reply: bool) -> Turn:
        """Take the proposals of one reply and answer its calls (one reply per call)."""
        turn = Turn(truncated=result.truncated)
        for call in result.tool_calls:
            if call.name == SEARCH_TOOL and can_search and call.error is None:
                turn.searched += 1
                turn.replies.append(self._search(call, anchor, registry, aliases))
            elif call.name in (PROPOSE_TOOL, LEGACY_PROPOSE_TOOL):
                turn.replies.append(self._take(self._call_items(call, result), call.id,
                                               aliases, order, mine, turn))
            else:
                why = (f"{SEARCH_TOOL} is not available now: propose" if call.name == SEARCH_TOOL
                       else f"unknown tool {shorten(call.name, 40)!r}")
                self.stats.issue(f"{call.id}: {why}")
                turn.replies.append(f"not done: {why}")
        if not result.tool_calls:
            items = json_items(result.content or "", truncated=result.truncated)
            if items:
                self._take(items, "reply", aliases, order, mine, turn)
            else:
                self.stats.issue("reply without usable JSON" if json_reply
                                 else "reply without a tool call")
        return turn

    def _call_items(self, call: ToolCall, result: ChatResult) -> list[Any]:
        if call.arguments is not None:
            return items_of(call.arguments)
        salvaged = salvage_items(call.arguments_raw, "proposals")
        if not salvaged:
            self.stats.issue(f"{call.id}: {call.error or 'arguments missing'}")
        return salvaged

    def _take(self, items: Sequence[Any], source: str, aliases: CallAliases,
              order: dict[str, int], mine: dict[str, Proposal], turn: Turn) -> str:
        """Record valid items; note the rest. Returns what the model is told."""
        taken: list[str] = []
        for item in items:
            proposal, why, name = parse_item(item, aliases, order=order, taken=mine)
            if proposal is None:
                if why != "already has a proposal":
                    self.stats.issue(f"{source} {name or '?'}: {why}")
                    turn.rejected[name or "?"] = why
                continue
            mine[proposal.message_id] = proposal
            taken.append(name)
            turn.added += 1
        said = f"recorded {', '.join(taken)}" if taken else "recorded nothing"
        problems = [f"{n}: {w}" for n, w in turn.rejected.items()]
        return "; ".join([said, *(["rejected " + "; ".join(problems)] if problems else [])])

    def _search(self, call: ToolCall, anchor: WriteItem, registry: RegistryTool,
                aliases: CallAliases) -> str:
        query = (call.arguments or {}).get("query")
        if not isinstance(query, str) or not query.strip():
            self.stats.issue(f"{call.id} ({SEARCH_TOOL}): query missing or not a string")
            return render_search_result([], note="query must be a non-empty string")
        hits = registry.search_registry(anchor, query.strip()[:500], k=_SEARCH_K)
        return render_search_result([state_view(h, aliases) for h in hits])

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


class _Outgrown(Exception):
    """Internal: a conversation outgrew the context after ``mine`` was proposed."""

    def __init__(self, mine: dict[str, Proposal]) -> None:
        super().__init__("conversation outgrew the context")
        self.mine = mine


def _tool_choice(profile: EndpointProfile, *, can_search: bool) -> str | dict[str, Any] | None:
    if profile.tool_choice == "none":
        return None
    if can_search:
        return "required"
    return {"type": "function", "function": {"name": PROPOSE_TOOL}}
