"""``egmem check-llm``: what an endpoint can do, and which path egmem will take with it.

:func:`probe` makes a handful of small requests — a plain reply, a forced tool call, two
calls in one reply, a JSON-mode reply, and a request the size of the writer's default batch —
records what it learned in the client's endpoint profile (so ingestion starts on the right
path) and returns a :class:`ProbeReport`.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from memory.errors import ContextOverflow, EndpointError, RequestRejected, ToolsUnsupported
from memory.llm.client import ChatResult, LLMClient
from memory.llm.profile import WriterPath
from memory.llm.prompts import WRITER_SYSTEM_PROMPT, WRITER_TOOLS, render_batch

logger = logging.getLogger(__name__)

__all__ = ["MIN_CONTEXT_TOKENS", "ProbeReport", "probe"]

#: Below this the writer cannot send even one message with its instructions and tools.
MIN_CONTEXT_TOKENS = 4096
#: The writer's default call: 8 messages, and the completion cap it asks for them.
DEFAULT_BATCH = 8
DEFAULT_COMPLETION = 100 + 90 * DEFAULT_BATCH

_RECORD: dict[str, Any] = {"type": "function", "function": {
    "name": "record", "description": "Record one value.",
    "parameters": {"type": "object", "properties": {"value": {"type": "string"}},
                   "required": ["value"], "additionalProperties": False}}}
_FORCED = {"type": "function", "function": {"name": "record"}}


@dataclass
class ProbeReport:
    """What the probe found. ``None`` means the probe could not tell."""

    url: str
    model: str
    reachable: bool = False
    error: str = ""
    tools: bool | None = None
    tool_choice: str | None = None
    calls_in_content: bool = False
    parallel_calls: bool | None = None
    json_mode: bool | None = None
    batch_fits: bool | None = None
    context_tokens: int | None = None
    max_call_messages: int | None = None
    path: WriterPath | None = None
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _ask(client: LLMClient, content: str, **kw: Any) -> ChatResult:
    return client.chat(operation="check-llm", messages=[{"role": "user", "content": content}],
                       **kw)


def probe(client: LLMClient) -> ProbeReport:
    """Probe ``client``'s endpoint (see the module docstring). Never raises EndpointError:
    an unusable endpoint is reported with ``reachable=False`` and the reason."""
    report = ProbeReport(url=client.shown_url, model=client.settings.model)
    try:
        _ask(client, "Reply with the word ok.", max_tokens=8)
    except EndpointError as exc:
        report.error = str(exc)
        return report
    report.reachable = True
    try:
        _probe_tools(client, report)
        _probe_json(client, report)
        _probe_context(client, report)
    except EndpointError as exc:
        report.error = str(exc)
    profile = client.profile
    if report.tools is False:
        profile.learn("it does not accept tools; the writer asks for JSON replies", path="json")
    elif report.tools:
        profile.learn("check-llm: tool calls work", path="tools")
    if report.tool_choice in ("named", "required", "none"):
        profile.learn(f"check-llm: the writer forces tools with {report.tool_choice!r}",
                      tool_choice=report.tool_choice)
    if report.json_mode is False:
        profile.learn("it refuses JSON mode; JSON replies are asked for in the prompt",
                      json_mode=False)
    if report.context_tokens:
        profile.learn(f"its context holds {report.context_tokens} tokens",
                      context_tokens=report.context_tokens)
    if report.max_call_messages:
        profile.learn(f"its context is too small for {DEFAULT_BATCH} messages per call; the "
                      f"writer sends at most {report.max_call_messages}",
                      max_call_messages=report.max_call_messages)
    report.path = profile.get().path
    report.notes = list(profile.get().notes)
    return report


def _probe_tools(client: LLMClient, report: ProbeReport) -> None:
    choice: str | dict[str, Any] | None = _FORCED
    result: ChatResult | None = None
    for name in ("named", "required", "none"):
        choice = {"named": _FORCED, "required": "required", "none": None}[name]
        try:
            result = _ask(client, "Call the record tool with value \"ok\".", tools=[_RECORD],
                          tool_choice=choice, max_tokens=60)
        except ToolsUnsupported:
            report.tools = False
            return
        except RequestRejected as exc:
            if exc.param == "tool_choice":
                continue
            raise
        report.tool_choice = name
        break
    if result is None:
        report.tools = False
        return
    calls = [c for c in result.tool_calls if c.name == "record"]
    report.tools = bool(calls)
    report.calls_in_content = any(c.from_content for c in calls)
    if not report.tools:
        return
    try:
        two = _ask(client, "Call the record tool twice in this reply: once with value \"a\" "
                           "and once with value \"b\".", tools=[_RECORD],
                   tool_choice="required" if report.tool_choice == "required" else None,
                   max_tokens=120)
    except RequestRejected:
        return
    report.parallel_calls = sum(1 for c in two.tool_calls if c.name == "record") >= 2


def _probe_json(client: LLMClient, report: ProbeReport) -> None:
    try:
        result = _ask(client, 'Reply with this JSON object and nothing else: {"ok": true}',
                      response_format={"type": "json_object"}, max_tokens=20)
    except RequestRejected as exc:
        if exc.param == "response_format":
            report.json_mode = False
            return
        raise
    try:
        report.json_mode = isinstance(json.loads((result.content or "").strip()), dict)
    except ValueError:
        report.json_mode = False


def _probe_context(client: LLMClient, report: ProbeReport) -> None:
    """Send a request the size of the writer's default batch (its instructions, tools and
    eight ordinary messages) and see whether it fits."""
    start = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)
    messages = [{"message": f"M{i + 1}", "speaker": "Sam",
                 "time": (start + timedelta(minutes=i)).strftime("%a %Y-%m-%d %H:%M UTC"),
                 "text": "Quick update on the rollout: the staging deploy moved to Thursday "
                         "at 3 pm because the database migration needs another review; "
                         "Priya owns the checklist and will post the runbook link here."}
                for i in range(DEFAULT_BATCH)]
    request = [{"role": "system", "content": WRITER_SYSTEM_PROMPT},
               {"role": "user", "content": render_batch(channel="#probe", states=[], recent=[],
                                                        messages=messages)}]
    tools = WRITER_TOOLS if report.tools else None
    try:
        client.chat(operation="check-llm", messages=request, tools=tools,
                    tool_choice=None, max_tokens=DEFAULT_COMPLETION)
    except ContextOverflow as exc:
        report.batch_fits = False
        report.context_tokens = exc.limit
        if exc.limit:
            need = client.estimate_tokens(request, tools) + DEFAULT_COMPLETION
            per_message = max(1, (need - client.estimate_tokens(request[:1], tools))
                              // DEFAULT_BATCH)
            room = exc.limit - client.estimate_tokens(request[:1], tools) - 120
            report.max_call_messages = max(1, min(DEFAULT_BATCH - 1, room // per_message))
        else:
            report.max_call_messages = DEFAULT_BATCH // 2
        return
    report.batch_fits = True
