"""Plausible "models" for the scripted OpenAI-compatible server (tests and benchmarks).

:class:`PlausibleWriter` answers the writer's requests as a careful model would: it reads
the states, context and messages a request shows and proposes with the offline proposer's
judgement of them; when a message carries a revision cue and no shown state fits, it first
calls ``search_registry`` (an inspection round, when the request allows one). It answers a
repair turn for the messages it lists only. ``per_call`` makes it split its proposals over
several tool calls (one item each with ``per_call=1``), as models without parallel-call
discipline do; with an endpoint that keeps one call per reply, only repair turns get the rest.

Replies are always tool calls: the scripted server turns them into what its
:class:`~tests.support.fake_openai.EndpointMode` sends (JSON content when no tools were
offered, calls written in the content, string booleans, cuts).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memory.llm.prompts import PROPOSE_TOOL, SEARCH_TOOL, parse_batch
from memory.models import EvidenceNode, Message, Proposal, Verdict
from memory.proposer import OfflineProposer, WriteItem
from memory.registry import RegistryHit, StateRecord
from memory.text import content_terms, find_slots, has_revision_cue, overlap
from tests.support.fake_openai import Reply, text, tool_calls

__all__ = ["PlausibleWriter", "ShownStates"]

_TIME_FORMAT = "%a %Y-%m-%d %H:%M UTC"
_MAX_SEARCHES = 3
_MISSING = re.compile(r"Still without a usable proposal: ([^.]*)\.")


class ShownStates:
    """A RegistryTool over the states a request showed the model (lexical only), keyed by
    the aliases the request used."""

    def __init__(self, states: Sequence[dict[str, Any]]) -> None:
        self.records: dict[str, StateRecord] = {}
        self.add(states)

    def add(self, states: Sequence[dict[str, Any]]) -> None:
        for s in states:
            value = str(s.get("value", ""))
            slots = find_slots(value)
            topic, desc = str(s.get("topic", "")), str(s.get("description", ""))
            sid = str(s["state"])
            self.records[sid] = StateRecord(
                state_id=sid, platform="", space="", channel="", topic=topic,
                description=desc, value=value, value_family=slots[0].family if slots else "",
                active_node_id="", revision_count=int(s.get("revisions", 0)), created_ts=0.0,
                updated_ts=0.0, vector=np.zeros(1, dtype=np.float32),
                terms=set(content_terms(f"{topic} {desc}")),
            )

    def search_registry(self, item: WriteItem, query: str, *, k: int = 5,
                        families: set[str] | None = None) -> list[RegistryHit]:
        q = set(content_terms(query))
        hits = []
        for rec in self.records.values():
            lex = overlap(q, rec.terms)
            bonus = 0.1 if families and rec.value_family in families else 0.0
            hits.append(RegistryHit(rec, 0.55 * lex + bonus, lex, 0.0))
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:k]

    def get_state(self, item: WriteItem, state_id: str) -> StateRecord | None:
        return self.records.get(state_id)


def _ts(view: dict[str, Any], default: datetime) -> datetime:
    try:
        return datetime.strptime(str(view.get("time", "")), _TIME_FORMAT)
    except ValueError:
        return default


def _node(name: str, view: dict[str, Any], ts: datetime) -> EvidenceNode:
    return EvidenceNode(
        node_id=f"n_{name}", platform="eval", space="s", channel="conv", message_id=name,
        speaker_id=str(view.get("speaker", "?")), speaker=str(view.get("speaker", "?")), ts=ts,
        text=str(view.get("text", "")), state_id=view.get("state"))


def _user_batch(messages: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    for m in messages:
        if m["role"] == "user" and "New messages" in str(m.get("content", "")):
            return parse_batch(str(m["content"]))
    return {"states": [], "recent": [], "messages": []}


def _item(p: Proposal) -> dict[str, Any]:
    return {"message": p.message_id, "verdict": p.verdict.value, "topic": p.topic,
            "quote": p.source_quote, "state": p.prior_state_id, "rewrite": ""}


class PlausibleWriter:
    """Answers writer requests with the offline proposer's judgement of what it is shown."""

    def __init__(self, *, per_call: int | None = None, search: bool = True) -> None:
        self.offline = OfflineProposer()
        self.per_call = per_call
        self.search = search
        self.requests = 0

    def __call__(self, body: dict[str, Any]) -> Reply:
        self.requests += 1
        messages = body["messages"]
        batch = _user_batch(messages)
        shown = ShownStates(batch["states"])
        searched = False
        for m in messages:
            if m["role"] == "tool" and str(m.get("content", "")).startswith("{"):
                searched = True
                shown.add(json.loads(m["content"]).get("states", []))
        last = str(messages[-1].get("content", "")) if messages[-1]["role"] == "user" else ""
        asked = None
        found = _MISSING.search(last)
        if found:
            asked = {a.strip() for a in found.group(1).split(",")}
        can_search = (self.search and body.get("tool_choice") == "required"
                      and not searched)
        calls: list[tuple[str, dict[str, Any]]] = []
        items: list[dict[str, Any]] = []
        for item in self._items(batch):
            if asked is not None and item.message.id not in asked:
                continue
            p = self.offline.propose([item], shown)[0]
            unsure = (p.verdict not in (Verdict.REVISE, Verdict.RESTATE)
                      and has_revision_cue(item.message.text))
            if unsure and can_search and len(calls) < _MAX_SEARCHES:
                calls.append((SEARCH_TOOL, {"query": item.message.text[:200]}))
                continue
            items.append(_item(p))
        if calls:
            return tool_calls(calls)
        if not items:
            return text("All messages are proposed.")
        if self.per_call:
            return tool_calls([(PROPOSE_TOOL, {"proposals": items[i:i + self.per_call]})
                               for i in range(0, len(items), self.per_call)])
        return tool_calls([(PROPOSE_TOOL, {"proposals": items})])

    def _items(self, batch: dict[str, list[dict[str, Any]]]) -> list[WriteItem]:
        epoch = datetime(2000, 1, 1)
        recent = [_node(f"r{n}", v, _ts(v, epoch)) for n, v in enumerate(batch["recent"])]
        placeholders: dict[str, EvidenceNode] = {}
        items = []
        for view in batch["messages"]:
            ts = _ts(view, epoch)
            name = str(view["message"])
            msg = Message(platform="eval", space="s", channel="conv", id=name,
                          user=str(view["speaker"]), user_name=str(view["speaker"]), ts=ts,
                          text=str(view["text"]))
            ref = view.get("reply_to")
            parent = (placeholders.get(ref) if isinstance(ref, str)
                      else _node(f"p{name}", ref, ts) if isinstance(ref, dict) else None)
            items.append(WriteItem(message=msg, node_id=f"n_{name}", parent=parent,
                                   recent=list(recent)))
            placeholders[name] = _node(name, view, ts)
            recent.append(placeholders[name])
        return items
