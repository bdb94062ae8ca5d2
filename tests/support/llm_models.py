"""Plausible "models" for the scripted OpenAI-compatible server (tests and benchmarks).

:class:`PlausibleReader` answers the reader's requests (and ``rerank`` requests) by fixed
rules ("terms" are :func:`memory.text.content_terms`, the "match" of a passage is the overlap
coefficient of its terms with the question's):

1. No observation yet: ``search_evidence`` with the question as the query.
2. After one tool round, at most one follow-up, the first rule that applies:

   a. *state*: the question asks for a present value ("when/what/which/where ... is/are",
      or a change cue: current, now, latest, still, before, changed, moved, next) and a
      shown passage carries a ``[topic: ...]`` tag: ``read_current_state`` with the question;
   b. *date*: the question names a date expression ("last Friday", "in June"):
      ``resolve_date`` of it relative to the day asked; or it asks when something
      happened and the best-matching passage holds a date expression: ``resolve_date``
      of that, relative to the passage's own day;
   c. *re-search*: the best match is below 0.5: ``search_evidence`` again with the
      question's content words only (a keyword reformulation).

3. Otherwise, after the follow-up, when the ``answer`` tool is forced, or when no tools are
   offered: the answer (an ``answer`` tool call; JSON content when no tools were offered).
   A state read answers with its current value, citing the chain's current and previous
   entries; a resolved date answers with the date, citing the passage it came from; else
   the best-matching passage's first 20 words, citing the passages that match at least
   half as well as the best (at most 2). It abstains when no passage matches 0.2.
   Citations are only names the observations showed, so they validate.

A ``rerank`` request is rated ``round(10 * match)`` per passage.

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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from memory.dates import find_date_expressions
from memory.llm.prompts import PROPOSE_TOOL, SEARCH_TOOL, parse_batch
from memory.models import EvidenceNode, Message, Proposal, Verdict
from memory.proposer import OfflineProposer, WriteItem
from memory.reader.rerank import RERANK_PROMPT_VERSION
from memory.registry import RegistryHit, StateRecord
from memory.text import STOPWORDS, content_terms, find_slots, has_revision_cue, overlap, tokens
from tests.support.fake_openai import Reply, text, tool_calls

__all__ = ["PlausibleReader", "PlausibleWriter", "ShownStates", "read_observations"]

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
            content = str(m.get("content") or "")
            if m["role"] == "tool" and content.startswith("{"):
                searched = True
                shown.add(json.loads(content).get("states", []))
            elif m["role"] == "user" and content.startswith("Results of the calls"):
                for line in content.splitlines()[1:]:  # calls written in the content
                    name, _, result = line.partition(": ")
                    if name == SEARCH_TOOL and result.startswith("{"):
                        searched = True
                        shown.add(json.loads(result).get("states", []))
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


# ---------------------------------------------------------------------------- reader


_PASSAGE = re.compile(r"^\[(?P<id>[^\]]+)\] (?P<day>\d{4}-\d{2}-\d{2}) \d{2}:\d{2} #\S+ "
                      r"(?P<rest>.*)$")
_TOPIC = re.compile(r" \[topic: [^\]]*\]$")
_STATE_NOW = re.compile(r"^state \S+ in #\S+ — .*?: now (?P<now>.*)$")
_CHAIN = re.compile(r"^\s+\d+\. .* \[(?P<id>[^\]]+)\] \(\w+\): ")
_PRESENT = re.compile(r"^\s*(when|what|which|where|who|how much|how many)\b[^?]*?\b(is|are)\b"
                      r"|\b(current|currently|now|latest|still|before|changed|moved|next)\b",
                      re.IGNORECASE)
_WHEN = re.compile(r"^\s*(when|what (day|date|year|month)|how long ago)\b", re.IGNORECASE)
_ABSTAIN_BELOW = 0.2
_RESEARCH_BELOW = 0.5


@dataclass
class Passage:
    node_id: str
    day: str
    text: str
    topic: bool
    match: float = 0.0


@dataclass
class Seen:
    """What the observations of one reader request showed."""

    passages: list[Passage] = field(default_factory=list)
    state_now: str = ""  # the chosen state's current value, as the tool described it
    state_ids: list[str] = field(default_factory=list)  # its chain's node ids, oldest first
    date: str = ""
    date_from: str = ""  # node id the resolved expression came from ("" = the question)
    tools_used: list[str] = field(default_factory=list)


def _match(question: set[str], passage: str) -> float:
    return overlap(question, set(content_terms(passage)))


_RESULT_TURNS = ("Observations:", "Results of the calls")
_DATE_LINE = re.compile(r"^(?P<expr>.*) = (?P<date>\d{4}-\d{2}-\d{2}\S*) \(\w+\)$")
_CALL_PREFIX = re.compile(r"^\w+: (?=\[|state |.* = \d{4}-)")


def _outputs(messages: Sequence[dict[str, Any]]) -> list[tuple[str, dict[str, Any], str]]:
    """``(tool name, arguments, output)`` of every tool result a request carries: tool
    messages, and the user turns that carry results as text (calls written in the content,
    or observations gathered for a request without tools), whose tool is unknown ("")."""
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    out: list[tuple[str, dict[str, Any], str]] = []
    for m in messages:
        for c in m.get("tool_calls") or []:
            try:
                args = json.loads(c["function"]["arguments"])
            except ValueError:
                args = {}
            calls[c["id"]] = (c["function"]["name"], args if isinstance(args, dict) else {})
        content = str(m.get("content") or "")
        if m["role"] == "tool":
            name, args = calls.get(m.get("tool_call_id", ""), ("", {}))
            out.append((name, args, content))
        elif m["role"] == "user" and content.startswith(_RESULT_TURNS):
            out.append(("", {}, "\n".join(_CALL_PREFIX.sub("", line)
                                          for line in content.splitlines()[1:])))
    return out


def read_observations(messages: Sequence[dict[str, Any]], question: str) -> Seen:
    """Parse the tool outputs of a reader request, as a model reads them."""
    seen = Seen()
    qterms = set(content_terms(question))
    for name, args, out in _outputs(messages):
        seen.tools_used.append(name)
        blocks: list[tuple[float, str, list[str]]] = []
        for line in out.splitlines():
            pm, sm, cm = _PASSAGE.match(line), _STATE_NOW.match(line), _CHAIN.match(line)
            dm = _DATE_LINE.match(line)
            if pm and name in ("search_evidence", "lookup_phrase", ""):
                rest = _TOPIC.sub("", pm["rest"])
                said = rest.partition(": ")[2] or rest  # without the "speaker: " prefix
                seen.passages.append(Passage(pm["id"], pm["day"], said, rest != pm["rest"],
                                             _match(qterms, said)))
            elif sm:
                # One block per state; the one whose header (topic, current value) matches
                # the question best is used, the tool's order breaking ties.
                blocks.append((_match(qterms, line), sm["now"], []))
            elif cm and blocks:
                blocks[-1][2].append(cm["id"])
            elif dm and name in ("resolve_date", ""):
                seen.date = dm["date"]
                expr, ref = str(args.get("expression", "")), str(args.get("reference", ""))
                seen.date_from = next((p.node_id for p in seen.passages
                                       if p.day == ref and expr in p.text), "")
        if blocks:
            _, seen.state_now, seen.state_ids = max(blocks, key=lambda b: b[0])
    return seen


def _best(seen: Seen) -> Passage | None:
    # Highest match; the earliest shown wins a tie (it was ranked higher or is older).
    return max(seen.passages, key=lambda p: p.match, default=None)


def keyword_query(question: str) -> str:
    return " ".join(t for t in tokens(question) if t not in STOPWORDS and len(t) > 1)


class PlausibleReader:
    """Answers reader and rerank requests by the rules in the module docstring."""

    def __init__(self) -> None:
        self.followups: Counter[str] = Counter()
        self.last_citations: list[str] = []

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        if RERANK_PROMPT_VERSION in str(messages[0].get("content", "")):
            return self.rerank(str(messages[1]["content"]))
        asked = json.loads(messages[1]["content"])
        question, asked_on = str(asked["question"]), str(asked["asked_on"])
        seen = read_observations(messages, question)
        rounds = sum(1 for m in messages if m["role"] == "assistant")
        forced = isinstance(body.get("tool_choice"), dict)
        if body.get("tools") and not forced:
            if rounds == 0:
                return tool_calls([("search_evidence", {"query": question})])
            if rounds == 1:
                follow = self.follow_up(question, asked_on, seen)
                if follow is not None:
                    self.followups[follow[0]] = self.followups[follow[0]] + 1
                    return tool_calls([follow])
        return self.final(seen)

    def follow_up(self, question: str, asked_on: str,
                  seen: Seen) -> tuple[str, dict[str, Any]] | None:
        best = _best(seen)
        if _PRESENT.search(question) and any(p.topic for p in seen.passages):
            return "read_current_state", {"query": question}
        named = find_date_expressions(question)
        if named:
            return "resolve_date", {"expression": named[0], "reference": asked_on}
        if _WHEN.search(question) and best is not None and best.match > 0:
            found = find_date_expressions(best.text)
            if found:
                return "resolve_date", {"expression": found[0], "reference": best.day}
        if best is None or best.match < _RESEARCH_BELOW:
            query = keyword_query(question)
            if query and query != question:
                return "search_evidence", {"query": query}
        return None

    def final(self, seen: Seen) -> Reply:
        best = _best(seen)
        cites: list[str] = []
        if seen.state_now and seen.state_ids:
            answer = f"Now {seen.state_now}"
            cites = seen.state_ids[-1:-3:-1]
        elif seen.date and best is not None:
            src = next((p for p in seen.passages if p.node_id == seen.date_from), best)
            answer = f"{seen.date} ({' '.join(src.text.split()[:12])})"
            cites = [src.node_id]
        elif best is not None and best.match >= _ABSTAIN_BELOW:
            answer = " ".join(best.text.split()[:20])
            ranked = sorted(seen.passages, key=lambda p: -p.match)
            cites = [p.node_id for p in ranked if p.match >= best.match / 2][:2]
        else:
            self.last_citations = []
            return tool_calls([("answer", {"answer": "The retrieved messages do not say.",
                                           "citations": [], "abstain": True})])
        self.last_citations = cites
        return tool_calls([("answer", {"answer": answer, "citations": cites,
                                       "abstain": False})])

    def rerank(self, user: str) -> Reply:
        payload, _, block = user.partition("\n\nPassages:\n")
        qterms = set(content_terms(str(json.loads(payload).get("question", ""))))
        passages: dict[str, str] = {}
        current = ""
        for line in block.splitlines():
            m = re.match(r"^(\d+)\. \d{4}-\d{2}-\d{2} ", line)
            if m:
                current = m.group(1)
                passages[current] = line[m.end():]
            elif current:  # a passage with a line break continues
                passages[current] += " " + line
        scores = {n: round(10 * _match(qterms, p)) for n, p in passages.items()}
        return text(json.dumps({"scores": scores}))
