"""The LLM reader: adaptive evidence navigation with tool calls (paper §3.5, eq. 2 and 7).

Each round sends the whole conversation so far — the question, every earlier tool call and
every observation — so each request is conditioned on what has been seen; every tool result
round says how many rounds are left. The tool list and the system prompt are the same on
every call (prompt-cache friendly); the last call forces the ``answer`` tool.

The final answer is the strict ``answer`` tool (answer, citations, abstain), read leniently
(``"false"`` is False, a citation string is split) and judged strictly: citations are kept
only when a tool showed them in this session (passages go by aliases E1, E2, ... mapped back
in code), an answer without a valid citation is asked for again once and otherwise abstains,
and a prose "I don't know" abstains.

Budgets: ``max_rounds`` tool rounds, ``max_calls_per_round`` tool calls in a round, at most
:data:`MAX_PASSAGES` passages of :data:`MAX_PASSAGE_CHARS` characters per result, and per
question ``max_question_tokens`` tokens and a wall-clock ``deadline_s`` (on the client's
clock): past half the deadline or the token budget the answer is asked for at once.

On any endpoint error — unreachable, context overflow, past the deadline — the offline reader
answers instead, keeping the evidence gathered so far, and the answer says so in one generic
line (never the endpoint's address). An endpoint without tools gets one request with the
evidence the offline policy finds, asking for the answer as JSON. The question is passed as
data, never as instructions, and every tool runs inside the session's fixed scope.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from memory.errors import (
    ContextOverflow,
    EndpointError,
    EndpointUnavailable,
    RequestRejected,
    ToolsUnsupported,
)
from memory.llm.aliases import AliasTable
from memory.llm.client import (
    ChatResult,
    LLMClient,
    ToolCall,
    parse_tool_arguments,
)
from memory.llm.reader_prompts import (
    ANSWER_TOOL,
    FORCE_ANSWER,
    JSON_ANSWER_PROMPT,
    MAX_PASSAGES,
    MAX_STATES,
    READER_PROMPT_VERSION,
    REASK_UNCITED,
    SYSTEM_PROMPT,
    TOOLS,
    rounds_left_note,
)
from memory.llm.reader_views import (
    ToolArgumentError,
    boolean,
    day_arg,
    declines,
    int_arg,
    render_nodes,
    render_states,
    strings_arg,
    text_arg,
)
from memory.models import Answer, EvidenceNode, Scope, State
from memory.reader.answer import citation
from memory.reader.search import ABLATE_SINGLE_ROUND
from memory.reader.tools import ReaderSession, ReaderTools

logger = logging.getLogger(__name__)

PROMPT_VERSION = READER_PROMPT_VERSION

#: Shown under an answer the offline reader gave because the endpoint failed.
FALLBACK_NOTICE = ("(The language model could not answer this time; this answer comes from "
                   "egmem's built-in reader.)")
NO_SUPPORT = "I could not find support for an answer in the messages I can read."

_SPLIT_IDS = re.compile(r"[\s,;]+")


class Fallback(Protocol):
    def answer(self, question: str, *, scope: Scope, reference: datetime | None = None,
               asker: str | None = None) -> Answer: ...


@dataclass
class _Question:
    """The state of one question: its session, aliases, rounds and spending."""

    session: ReaderSession
    passages: AliasTable = field(default_factory=lambda: AliasTable("E"))
    states: AliasTable = field(default_factory=lambda: AliasTable("S"))
    rounds: int = 0
    tokens: int = 0
    reasked: bool = False
    # the name of the member asking ("" when unknown): told to the model as "asked_by"
    asker: str = ""

    def asked(self, question: str, reference: datetime | None, **more: Any) -> str:
        """The question as the model reads it: its text, the day it is asked, who asks."""
        day = (reference or datetime.now(UTC)).date().isoformat()
        said: dict[str, Any] = {"question": question, "asked_on": day}
        if self.asker:
            said["asked_by"] = self.asker
        return json.dumps({**said, **more}, ensure_ascii=False)


class LLMReader:
    """Tool-calling reader over :class:`ReaderTools` and one :class:`LLMClient`.

    ``fallback`` answers when the endpoint fails (default: the offline reader over the same
    tools)."""

    def __init__(self, *, client: LLMClient, tools: ReaderTools, max_rounds: int = 10,
                 k: int = MAX_PASSAGES, max_tokens: int | None = 400,
                 max_calls_per_round: int = 4, max_question_tokens: int = 24_000,
                 deadline_s: float = 60.0, fallback: Fallback | None = None,
                 ablate: frozenset[str] = frozenset()) -> None:
        if max_rounds < 1:
            raise ValueError(f"max_rounds must be >= 1, got {max_rounds}")
        self.client = client
        self.tools = tools
        self.max_rounds = max_rounds
        self.k = max(1, min(k, MAX_PASSAGES))
        self.max_tokens = max_tokens
        self.max_calls_per_round = max(1, max_calls_per_round)
        self.max_question_tokens = max_question_tokens
        self.deadline_s = deadline_s
        self.ablate = ablate
        if fallback is None:
            from memory.reader.offline import OfflineReader

            fallback = OfflineReader(tools=tools)
        self.fallback = fallback

    def answer(self, question: str, *, scope: Scope, reference: datetime | None = None,
               asker: str | None = None) -> Answer:
        """Answer ``question`` inside ``scope`` for the member ``asker`` (a user id). Never
        raises EndpointError: when the endpoint fails, the fallback reader answers (see the
        module docstring)."""
        q = _Question(self.tools.session(scope, reference=reference),
                      asker=self.tools.member_name(asker, scope))
        deadline = self.client.clock() + self.deadline_s
        try:
            if self.client.profile.get().path != "tools":
                return self._answer_from_json(question, q, reference, deadline)
            try:
                return self._navigate(question, q, reference, deadline)
            except ToolsUnsupported:
                self.client.profile.learn(
                    "it does not accept tools; the writer asks for JSON replies", path="json")
                return self._answer_from_json(question, q, reference, deadline)
        except EndpointError as exc:
            if isinstance(exc, ContextOverflow) and exc.limit:
                self.client.profile.learn(f"its context holds {exc.limit} tokens",
                                          context_tokens=exc.limit)
            logger.warning("reader: the LLM endpoint failed (%s); the offline reader answers",
                           exc)
            return self._fall_back(question, q, scope, reference, asker)

    # ---- the tool loop -----------------------------------------------------------------
    def _navigate(self, question: str, q: _Question, reference: datetime | None,
                  deadline: float) -> Answer:
        budget = 1 if ABLATE_SINGLE_ROUND in self.ablate else self.max_rounds
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": q.asked(question, reference, tool_rounds=budget)},
        ]
        while True:
            fits = self._fits(messages)
            if not fits and q.rounds == 0:
                raise EndpointUnavailable("the endpoint's context is too small for a question")
            final = (q.rounds >= budget or q.reasked or self._spent(q)
                     or self.client.clock() >= deadline - self.deadline_s / 2 or not fits)
            result = self._chat(q, messages, deadline=deadline, final=final)
            answer_call = next((c for c in result.tool_calls if c.name == ANSWER_TOOL), None)
            if answer_call is not None:
                # Arguments cut short or garbled are asked for again, like an uncited answer.
                found = (self._judge(answer_call.arguments, q)
                         if answer_call.arguments is not None else None)
                if found is not None or q.reasked:
                    return found or self._abstain(q)
                q.reasked = True
                why = (REASK_UNCITED if answer_call.arguments is not None else
                       f"rejected: unreadable arguments ({answer_call.error}); call "
                       f"{ANSWER_TOOL} again, briefly")
                messages += [result.as_message(), *result.followup(
                    [why if c is answer_call else "not run: answer first"
                     for c in result.tool_calls])]
                continue
            calls = list(result.tool_calls)
            if calls and not final:
                q.rounds += 1
                q.session.round = q.rounds
                replies = [self._run_tool(c, q) if n < self.max_calls_per_round else
                           f"not run: at most {self.max_calls_per_round} tool calls per round"
                           for n, c in enumerate(calls)]
                replies[-1] += "\n" + rounds_left_note(budget - q.rounds)
                messages += [result.as_message(), *result.followup(replies)]
                continue
            found = self._from_text(result.content, q)
            if found is not None:
                return found
            if q.reasked:
                return self._abstain(q)
            q.reasked = True
            messages += [result.as_message(), *result.followup(
                ["not run: answer now" for _ in calls]),
                {"role": "user", "content": REASK_UNCITED}]

    def _choice(self, *, final: bool) -> str | dict[str, Any] | None:
        """``tool_choice`` for a round (any tool) or the final call (the answer tool), as far
        as the endpoint accepts forcing."""
        choice = self.client.profile.get().tool_choice
        if choice == "none":
            return None
        if final:
            return FORCE_ANSWER
        return "required" if choice == "required" else None

    def _spent(self, q: _Question) -> bool:
        return q.tokens >= self.max_question_tokens

    def _fits(self, messages: list[dict[str, Any]]) -> bool:
        """Whether another round still fits the context the endpoint reported (observations
        of one more round take about a fifth of it)."""
        context = self.client.profile.get().context_tokens
        if not context:
            return True
        need = self.client.estimate_tokens(messages, TOOLS) + (self.max_tokens or 0)
        return need < context * 0.8

    def _chat(self, q: _Question, messages: list[dict[str, Any]], *, deadline: float,
              final: bool = False, tools: bool = True, json_reply: bool = False) -> ChatResult:
        """One call; a refused ``tool_choice`` or JSON mode is learned and the call made
        again without it (the writer learns the same way)."""
        profile = self.client.profile
        for _ in range(3):
            if self.client.clock() >= deadline:
                raise EndpointUnavailable("the question's deadline passed")
            json_mode = json_reply and profile.get().json_mode
            try:
                result = self.client.chat(
                    operation="reader", messages=messages, tools=TOOLS if tools else None,
                    tool_choice=self._choice(final=final) if tools else None,
                    max_tokens=self.max_tokens, deadline=deadline,
                    response_format={"type": "json_object"} if json_mode else None)
            except RequestRejected as exc:
                current = profile.get()
                if exc.param == "tool_choice" and tools and current.tool_choice != "none":
                    weaker = "named" if current.tool_choice == "required" else "none"
                    profile.learn(f"it refuses tool_choice={current.tool_choice!r}; the writer "
                                  f"uses {weaker!r}", tool_choice=weaker)
                    continue
                if exc.param == "response_format" and json_mode:
                    profile.learn("it refuses JSON mode; JSON replies are asked for in the "
                                  "prompt", json_mode=False)
                    continue
                raise
            q.tokens += result.prompt_tokens + result.completion_tokens
            return result
        raise EndpointUnavailable("the endpoint kept refusing the request's options")

    # ---- without tools -----------------------------------------------------------------
    def _answer_from_json(self, question: str, q: _Question, reference: datetime | None,
                          deadline: float) -> Answer:
        """One request: the offline policy's evidence, the answer asked for as JSON."""
        if self.client.profile.get().path == "offline":
            raise EndpointUnavailable("the endpoint cannot be used for answers")
        session = q.session
        session.round = q.rounds = 1
        hits = session.search_hits(question, k=self.k)
        states = session.read_current_state(question, k=2)
        nodes = [h.node for h in sorted(hits, key=lambda h: (h.node.ts, h.node.seq))]
        observed = "\n\n".join([self._render_nodes(nodes, q), self._render_states(states, q)])
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": q.asked(question, reference)},
            {"role": "user", "content": f"Observations:\n{observed}\n\n{JSON_ANSWER_PROMPT}"},
        ]
        for _ in range(2):
            result = self._chat(q, messages, deadline=deadline, tools=False, json_reply=True)
            found = self._from_text(result.content, q)
            if found is not None or q.reasked:
                return found or self._abstain(q)
            q.reasked = True
            messages += [result.as_message(), {"role": "user", "content": REASK_UNCITED}]
        return self._abstain(q)

    # ---- tools --------------------------------------------------------------------------
    def _run_tool(self, call: ToolCall, q: _Question) -> str:
        if call.error is not None or call.arguments is None:
            return f"error: {call.error or 'unusable arguments'}"
        args, session = call.arguments, q.session
        try:
            if call.name == "search_evidence":
                nodes = session.search_evidence(
                    text_arg(args, "query"), participants=strings_arg(args, "participants"),
                    ts_from=day_arg(args.get("from"), end=False),
                    ts_to=day_arg(args.get("to"), end=True),
                    k=int_arg(args, "k", default=self.k, lo=1, hi=self.k),
                    channels=self._channels(args, q))
                return self._render_nodes(nodes, q)
            if call.name == "lookup_phrase":
                return self._render_nodes(session.lookup_phrase(
                    text_arg(args, "phrase"), k=self.k, channels=self._channels(args, q)), q)
            if call.name == "read_current_state":
                return self._render_states(session.read_current_state(
                    text_arg(args, "query"),
                    k=int_arg(args, "k", default=MAX_STATES, lo=1, hi=MAX_STATES)), q)
            if call.name == "resolve_date":
                ref = day_arg(args.get("reference"), end=False)
                res = session.resolve_date(text_arg(args, "expression"), reference=ref)
                return f"{res.text} = {res.iso()} ({res.granularity})" if res else (
                    "not a date expression I can resolve")
        except ToolArgumentError as exc:
            return f"error: {exc}"
        return f"error: unknown tool {call.name!r}"

    def _channels(self, args: dict[str, Any], q: _Question) -> list[str] | None:
        """Channel filters by id or by name ("#design", "design"), within the scope."""
        wanted = strings_arg(args, "channels")
        if not wanted:
            return None
        out = [self._channel_id(raw, q) for raw in wanted]
        unknown = [raw for raw, cid in zip(wanted, out, strict=True) if cid is None]
        if unknown and len(unknown) == len(wanted):
            known = sorted({f"#{n.channel_name or n.channel}" for n in q.session.nodes.values()})
            raise ToolArgumentError(f"unknown channel {unknown[0]!r} (channels seen: "
                                    f"{', '.join(known[:10]) or 'none yet'})")
        # Among known ones, a channel that does not resolve is dropped, as the scope drops
        # one the asker may not read: the two must look the same.
        return [c for c in out if c is not None]

    def _channel_id(self, raw: str, q: _Question) -> str | None:
        value = raw.strip().lstrip("#").strip()
        scope = q.session.scope
        seen = {n.channel for n in q.session.nodes.values()}
        if value in seen or (scope.channels is not None and value in scope.channels):
            return value
        lowered = value.lower()
        for n in q.session.nodes.values():
            if n.channel_name.lower() == lowered:
                return n.channel
        # Names are looked up within the scope only: a channel the asker cannot read
        # answers exactly as a channel that does not exist.
        for c in self.tools.store.channels(platform=scope.platform, space=scope.space):
            if lowered in (c.name.lower(), c.id.lower()) and (
                    scope.channels is None or c.id in scope.channels):
                return c.id
        # A name no passage has shown yet: its messages carry it (within the scope only).
        named = self.tools.store.channel_named(lowered, scope)
        if named is not None:
            return named
        if scope.channels is None and self.tools.store.holds_evidence(
                scope.model_copy(update={"channels": (value,)})):
            return value
        return None

    # ---- rendering (what the model sees) -----------------------------------------------
    def _render_nodes(self, nodes: Sequence[EvidenceNode], q: _Question) -> str:
        return render_nodes(nodes, q.passages)

    def _render_states(self, states: Sequence[State], q: _Question) -> str:
        return render_states(states, q.passages, names=q.states)

    # ---- the final answer --------------------------------------------------------------
    def _from_text(self, content: str | None, q: _Question) -> Answer | None:
        """An answer written as text: the answer JSON, or prose. None when it must be asked
        for again (no text, or prose that cites nothing and does not decline)."""
        text = (content or "").strip()
        if not text:
            return None
        parsed, _ = parse_tool_arguments(text)
        if parsed is not None and ("answer" in parsed or "abstain" in parsed):
            return self._judge(parsed, q)
        return self._abstain(q, text) if declines(text) else None

    def _judge(self, args: dict[str, Any], q: _Question) -> Answer | None:
        """The answer tool's arguments as an Answer; None when nothing valid is cited and
        the answer does not abstain (the caller asks once more, then abstains)."""
        raw_text = args.get("answer")
        text = raw_text.strip() if isinstance(raw_text, str) else (
            str(raw_text) if isinstance(raw_text, int | float) else "")
        abstain = boolean(args.get("abstain"))
        if abstain or not text:
            return self._abstain(q, text)
        cited = self._cited(args.get("citations"), q)
        if not cited:
            return self._abstain(q, text) if declines(text) else None
        session = q.session
        states = [s for s in session.states.values() if any(e.node_id in cited for e in s.chain)]
        return Answer(answer=text, abstained=False,
                      citations=[citation(session.nodes[i]) for i in cited],
                      states=states, rounds=q.rounds, gathered=list(session.gathered))

    def _cited(self, raw: Any, q: _Question) -> list[str]:
        """Node ids of the citations a tool showed in this session, in order."""
        if isinstance(raw, str):
            values: list[Any] = [v for v in _SPLIT_IDS.split(raw) if v]
        elif isinstance(raw, list):
            values = raw
        else:
            values = []
        out: list[str] = []
        for value in values:
            if not isinstance(value, str | int) or isinstance(value, bool):
                continue
            name = str(value).strip().strip("[]\"'")
            node = q.passages.resolve(name)
            if node is None:
                state = q.states.resolve(name)
                chain = q.session.states[state].chain if state in q.session.states else []
                node = chain[-1].node_id if chain else None
            if node is not None and q.session.observed(node) and node not in out:
                out.append(node)
        dropped = len(values) - len(out)
        if dropped > 0:
            logger.info("reader: dropped %d citation(s) not shown in this session", dropped)
        return out

    def _abstain(self, q: _Question, text: str = "") -> Answer:
        return Answer(answer=text or NO_SUPPORT, abstained=True, rounds=q.rounds,
                      gathered=list(q.session.gathered))

    def _fall_back(self, question: str, q: _Question, scope: Scope,
                   reference: datetime | None, asker: str | None = None) -> Answer:
        ans = self.fallback.answer(question, scope=scope, reference=reference, asker=asker)
        gathered = list(dict.fromkeys([*q.session.gathered, *ans.gathered]))
        return ans.model_copy(update={"answer": f"{ans.answer}\n{FALLBACK_NOTICE}",
                                      "gathered": gathered,
                                      "rounds": max(ans.rounds, q.rounds)})


__all__ = ["FALLBACK_NOTICE", "PROMPT_VERSION", "SYSTEM_PROMPT", "TOOLS", "EndpointError",
           "LLMReader", "render_nodes", "render_states"]
