"""The reader's tools (paper Table 1): search_evidence, lookup_phrase, read_current_state,
resolve_date — and :class:`ReaderSession`, which binds them to one question.

A session fixes the question's :class:`~memory.models.Scope` (the permission boundary: every
store query receives it, nothing is filtered afterwards), suppresses passages already
returned for the question, and logs each call with what it returned, so an LLM reader's
requests can carry prior observations and its citations can be checked against them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from memory.analysis.grounding import grounded_value
from memory.dates import DateResolution, find_date_expressions, resolve_date
from memory.embeddings import Embedder
from memory.facets import state_root
from memory.models import EvidenceNode, Scope, State, Verdict
from memory.reader.rerank import Hit
from memory.reader.search import (
    ABLATE_SINGLE_ROUND,
    ABLATE_VERSIONED_STATE,
    EvidenceSearch,
    expand_query,
)
from memory.registry import StateRecord, chain_entry, chain_of, history
from memory.store import Window
from memory.store.ports import NodeStore, SearchStore, Store
from memory.store.rows import from_epoch
from memory.text import content_terms, overlap

logger = logging.getLogger(__name__)

__all__ = [
    "Observation",
    "ReaderSession",
    "ReaderTools",
    "find_date_expressions",
    "lookup_phrase",
    "read_current_state",
    "resolve_date",
    "answers_to",
]

_SURROGATES = re.compile("[\ud800-\udfff]")
# Below this a state is not about the query (lexical overlap + dense similarity blend).
STATE_MIN_SCORE = 0.35
# What kind of value a question asks for, by the value families of memory.text slots.
_FAMILY_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("when", re.compile(r"\b(when|what time|which day|what day|what date|deadline|due|"
                        r"schedul\w*|moved|resched\w*)\b", re.IGNORECASE)),
    ("version", re.compile(r"\b(version|release|v\d)\b", re.IGNORECASE)),
    ("amount", re.compile(r"\b(how much|how many|budget|cost|price|number of|limit)\b",
                          re.IGNORECASE)),
    ("where", re.compile(r"\b(where|which region|region|location)\b", re.IGNORECASE)),
)


def asked_families(query: str) -> set[str]:
    """Value families (``"when"``, ``"version"``, ``"amount"``, ``"where"``) a query asks for."""
    return {family for family, cue in _FAMILY_CUES if cue.search(query)}


def lookup_phrase(store: SearchStore, phrase: str, *, scope: Scope, k: int = 20,
                  window: Window | None = None) -> list[EvidenceNode]:
    """Nodes in ``scope`` whose source text or rewrite contains ``phrase`` literally
    (case-insensitive, whitespace-normalised), oldest first. No semantic matching."""
    return store.phrase_search(phrase, scope, k=k, window=window)


# In chat without threads a question's answer is usually among the next few turns.
ANSWER_TURNS = 4
ANSWER_WINDOW = timedelta(hours=12)
PREVIOUS_TURN_GAP = timedelta(minutes=30)


def answers_to(store: NodeStore, questions: Sequence[EvidenceNode], *, scope: Scope
               ) -> dict[str, list[EvidenceNode]]:
    """The turns in ``scope`` that answer each of ``questions``, oldest first: those the
    writer linked to it (replies, and turns whose context it is), else the first
    :data:`ANSWER_TURNS` turns after it in its channel and thread by someone else, within
    :data:`ANSWER_WINDOW`, up to the asker's next turn."""
    out: dict[str, list[EvidenceNode]] = {}
    if not questions:
        return out
    linked = store.answers_to([q.node_id for q in questions], scope)
    for q in questions:
        mine = sorted((n for n in linked if n.speaker_id != q.speaker_id and (
            n.reply_to_node == q.node_id or q.node_id in n.context_ids)),
            key=lambda n: (n.ts, n.seq))
        if not mine:
            mine = _next_turns(store, q, scope)
        if mine and _ASKS_BACK.match(mine[-1].text) and mine[-1].speaker_id != q.speaker_id:
            # "anyone watching the stream tonight?" → "what time" → "9pm ET": the asker's
            # answer to the question asked back is part of the answer
            mine += [n for n in _next_turns(store, mine[-1], scope)
                     if n.speaker_id == q.speaker_id][:1]
        if mine:
            out[q.node_id] = mine[:ANSWER_TURNS]
    return out


def _next_turns(store: NodeStore, question: EvidenceNode, scope: Scope
                ) -> list[EvidenceNode]:
    narrowed = scope.model_copy(update={"channels": (question.channel,)})
    if scope.channels is not None and question.channel not in scope.channels:
        return []
    window = Window(ts_from=question.ts, ts_to=question.ts + ANSWER_WINDOW)
    after = [n for n in store.find_nodes(narrowed, window, limit=200)
             if n.node_id != question.node_id and n.thread_id == question.thread_id
             and (n.ts, n.seq) > (question.ts, question.seq)]
    out: list[EvidenceNode] = []
    for n in after[: 2 * ANSWER_TURNS]:
        if n.speaker_id == question.speaker_id:
            if out:
                break  # the asker speaks again: what follows answers something else
            continue
        out.append(n)
    return out


# A short question asked back ("what time", "where?", "which one?", "when is it").
_ASKS_BACK = re.compile(r"\s{0,3}(?:what|when|where|which|who|how much|how many|what time)"
                        r"\b[^.!\n]{0,25}\??\s{0,3}$", re.IGNORECASE)


def _state_score(rec: StateRecord, *, qterms: set[str], families: set[str],
                 qvec: np.ndarray | None, wanted: set[str]) -> float:
    """How well state ``rec`` matches ``query``: shared words (its topic and value) and
    embedding similarity, plus a bonus for a requested state and one for the kind of
    value the query asks."""
    lex = overlap(qterms, rec.terms | set(content_terms(rec.value)))
    dense = float(rec.vector @ qvec) if qvec is not None and rec.vector.size else 0.0
    score = 0.55 * lex + 0.45 * max(dense, 0.0)
    if rec.state_id in wanted:
        score += 1.0
    if rec.value_family and rec.value_family in families:
        score += 0.15
    return score


def _topic_fit(topic: str, qterms: set[str]) -> float:
    """The share of a topic's words the query holds."""
    words = set(content_terms(topic))
    return len(words & qterms) / len(words) if words else 0.0


def read_current_state(
    store: Store,
    embedder: Embedder,
    *,
    query: str,
    scope: Scope,
    k: int = 3,
    state_ids: Sequence[str] = (),
    min_score: float = STATE_MIN_SCORE,
    siblings: bool = False,
    facets: bool = False,
) -> list[State]:
    """Active states in ``scope`` about ``query``, best first, each with its chain history.

    Every state is its own candidate: states that share a topic are never merged, and one
    never supersedes another. A state's chain holds its establishing value and every
    revision, oldest first; its last entry is the current value. At read time a revision
    counts only if its value is grounded in its own message (paper A.1); an ungrounded link
    does not make the earlier value obsolete. ``state_ids`` (e.g. of evidence already found)
    are always candidates. With ``siblings``, the states sharing the channel and topic of a
    requested state among the best ``k`` follow those ``k`` (beyond ``k``, whatever their
    score): one decision's parts kept apart because a state holds one kind of value, such as
    a lunch's date and its place; with ``facets`` too, the further states the message that
    opened a requested one opened beside it (asked for a kind of value, the kind tells the
    parts apart). Each is still its own candidate. A state whose chain lies
    wholly outside ``scope`` (another thread) is not returned.
    """
    rows = store.states.find(scope)
    if not rows:
        return []
    qvec = np.asarray(embedder.embed_batch([query])[0], dtype=np.float32) if query else None
    wanted = set(state_ids)
    records = [StateRecord.from_row(row) for row in rows]
    qterms, families = set(content_terms(query)), set(asked_families(query))
    scored = [(score, rec) for rec in records if (score := _state_score(
        rec, qterms=qterms, families=families, qvec=qvec, wanted=wanted)) >= min_score]
    # States of one message tie on everything but their topic: the one whose topic the query
    # names whole goes first ("sourdough" before "sourdough croissant" for "how much is the
    # sourdough"), then the newer, then the id (never the order rows came back in).
    scored.sort(key=lambda x: (-round(x[0], 6), -_topic_fit(x[1].topic, qterms),
                               -x[1].updated_ts, x[1].state_id))
    top = [rec for _, rec in scored[:k]]
    if not top:
        return []
    if siblings:
        kin = {(r.channel, r.topic) for r in top if r.state_id in wanted}
        # the states one message opened beside each other (its facets) are parts of one
        # decision too, whatever each is called ("Frostbite Social" and its day)
        roots = {state_root(r.state_id) for r in top if r.state_id in wanted} if facets else set()
        chosen = {r.state_id for r in top}
        top += sorted((r for r in records if ((r.channel, r.topic) in kin
                                              or state_root(r.state_id) in roots)
                       and r.state_id not in chosen), key=lambda r: -r.updated_ts)
    ids = [r.state_id for r in top]
    members = store.state_members(ids, scope)
    out = []
    for rec in top:
        chain = history(_authoritative(chain_of(
            [n for n in members if n.state_id == rec.state_id])))
        if chain:
            out.append(_state(rec, chain))
    return out


def _authoritative(chain: list[EvidenceNode]) -> list[EvidenceNode]:
    """Drop revisions whose value is not grounded in their own message."""
    out = []
    for n in chain:
        if n.verdict is Verdict.REVISE and not (n.value and grounded_value(
                n.value, n.text, speaker=n.speaker, context=n.context)):
            continue
        out.append(n)
    return out


def _state(rec: StateRecord, chain: Sequence[EvidenceNode]) -> State:
    last = chain[-1]
    return State(
        state_id=rec.state_id, platform=rec.platform, space=rec.space, channel=rec.channel,
        topic=rec.topic, description=rec.description, value=last.value or rec.value,
        active_node_id=last.node_id, revision_count=len(chain) - 1,
        updated_at=max(from_epoch(rec.updated_ts), last.ts),
        chain=[chain_entry(n) for n in chain],
    )


def valid_text(text: str) -> str:
    """``text`` with lone surrogates (from a JSON ``\\ud800`` escape in a model's tool call
    or a payload) replaced by U+FFFD: they cannot be encoded, so tokenizers, the HTTP client
    and the store would raise on them."""
    return _SURROGATES.sub("\ufffd", text)


# ---- per-question session ----------------------------------------------------------------


@dataclass
class Observation:
    """One tool call and what it returned (ids of the nodes it showed)."""

    round: int
    tool: str
    args: dict[str, Any]
    node_ids: list[str] = field(default_factory=list)
    state_ids: list[str] = field(default_factory=list)
    note: str = ""


@dataclass
class Found:
    """What a question's search step found: ranked hits, round 1 first (each round best
    first), and how many rounds ran."""

    hits: list[Hit]
    rounds: int


class ReaderTools:
    """The read tools over one store; :meth:`session` binds them to one question."""

    def __init__(self, *, store: Store, embedder: Embedder,
                 search: EvidenceSearch, ablate: frozenset[str] = frozenset()) -> None:
        self.store = store
        self.embedder = embedder
        self.ablate = ablate
        self.search = search

    def previous_turn(self, node: EvidenceNode, scope: Scope) -> EvidenceNode | None:
        """The turn just before ``node`` in its channel and thread, by someone else, within
        :data:`PREVIOUS_TURN_GAP` (what a reply without a link most likely answers)."""
        before = self.turns_before(node, scope, n=1, within=PREVIOUS_TURN_GAP)
        return before[0] if before and before[0].speaker_id != node.speaker_id else None

    def turns_before(self, node: EvidenceNode, scope: Scope, *, n: int,
                     within: timedelta) -> list[EvidenceNode]:
        """Up to ``n`` turns just before ``node`` in its channel and thread (anyone's),
        within ``within``, newest first: where the reason for a change is often said."""
        return self._turns(node, scope, n=n, within=within, after=False)

    def turns_after(self, node: EvidenceNode, scope: Scope, *, n: int,
                    within: timedelta) -> list[EvidenceNode]:
        """Up to ``n`` turns just after ``node``, oldest first: where a change is asked
        about ("why?") and explained."""
        return self._turns(node, scope, n=n, within=within, after=True)

    def replies_after(self, node: EvidenceNode, scope: Scope, *, n: int,
                      within: timedelta) -> list[EvidenceNode]:
        """Up to ``n`` turns just after ``node`` in its talk, oldest first: the turns after
        it at its level and, for a thread's first message, the thread's replies."""
        return self._turns(node, scope, n=n, within=within, after=True, replies=True)

    def _turns(self, node: EvidenceNode, scope: Scope, *, n: int, within: timedelta,
               after: bool, replies: bool = False) -> list[EvidenceNode]:
        if scope.channels is not None and node.channel not in scope.channels:
            return []
        narrowed = scope.model_copy(update={"channels": (node.channel,)})
        window = (Window(ts_from=node.ts, ts_to=node.ts + within) if after
                  else Window(ts_from=node.ts - within, ts_to=node.ts))
        at = (node.ts, node.seq)
        # (a thread's first message is the thread's turn before its replies, whatever
        # thread id the platform gave it)
        # (with ``replies``, a thread's first message is followed by its replies too)
        found = [x for x in self.store.find_nodes(narrowed, window, limit=200)
                 if (x.thread_id == node.thread_id or (
                     not after and bool(node.thread_id) and x.message_id == node.thread_id)
                     or (replies and not node.thread_id and x.thread_id == node.message_id))
                 and ((x.ts, x.seq) > at if after else (x.ts, x.seq) < at)]
        found.sort(key=lambda x: (x.ts, x.seq), reverse=not after)
        return found[:n]

    def session(self, scope: Scope, *, reference: datetime | None = None) -> ReaderSession:
        return ReaderSession(self, scope=scope, reference=reference)

    def member_name(self, user: str | None, scope: Scope) -> str:
        """The name ``user`` (a member's id) speaks under in ``scope``'s space; "" when
        they have said nothing there. (Their own name only: no message is read.)"""
        if not user:
            return ""
        space = Scope(platform=scope.platform, space=scope.space)
        said = self.store.find_nodes(space, Window(speakers=(user,)), limit=1)
        return said[0].speaker if said else ""


class ReaderSession:
    """Tools for one question inside a fixed scope, with suppression and an observation log.

    ``gathered`` lists every evidence node shown, in the order it was first shown (search
    results in relevance order); ``nodes`` maps their ids to the nodes.
    """

    def __init__(self, tools: ReaderTools, *, scope: Scope, reference: datetime | None
                 ) -> None:
        self.tools = tools
        self.scope = scope
        self.reference = reference
        self.round = 0
        self.observations: list[Observation] = []
        self.nodes: dict[str, EvidenceNode] = {}
        self.states: dict[str, State] = {}
        self.gathered: list[str] = []
        self.scores: dict[str, float] = {}

    # ---- scope ------------------------------------------------------------------------
    def narrowed(self, channels: Sequence[str] | None) -> Scope | None:
        """The session scope narrowed to ``channels``; None when that leaves nothing.

        A request can only narrow: channels outside the session scope are dropped."""
        if not channels:
            return self.scope
        allowed = [c for c in channels if self.scope.channels is None
                   or c in self.scope.channels]
        if not allowed:
            return None
        return self.scope.model_copy(update={"channels": tuple(dict.fromkeys(allowed))})

    def _see(self, nodes: Sequence[EvidenceNode]) -> None:
        for n in nodes:
            if n.node_id not in self.nodes:
                self.nodes[n.node_id] = n
                self.gathered.append(n.node_id)

    # ---- tools ------------------------------------------------------------------------
    def search_hits(
        self,
        query: str,
        *,
        participants: Sequence[str] | None = None,
        ts_from: datetime | None = None,
        ts_to: datetime | None = None,
        k: int = 10,
        channels: Sequence[str] | None = None,
    ) -> list[Hit]:
        """search_evidence, ranked best first; passages already shown are suppressed."""
        query = valid_text(query)
        args: dict[str, Any] = {"query": query, "k": k}
        if participants:
            args["participants"] = list(participants)
        if ts_from or ts_to:
            args["ts_from"] = ts_from.isoformat() if ts_from else None
            args["ts_to"] = ts_to.isoformat() if ts_to else None
        scope = self.narrowed(channels)
        hits: list[Hit] = []
        if scope is not None:
            hits = self.tools.search.search_ranked(
                query, scope, participants=participants, ts_from=ts_from, ts_to=ts_to, k=k,
                exclude=frozenset(self.nodes), reference=self.reference,
            )
        for h in hits:
            self.scores.setdefault(h.node.node_id, h.score)
        self._see([h.node for h in hits])
        self.observations.append(Observation(
            round=self.round, tool="search_evidence", args=args,
            node_ids=[h.node.node_id for h in hits],
            note="" if scope is not None else "requested channels are outside the scope"))
        return hits

    def search_question(self, question: str, *, k: int = 10, expansion_terms: int = 4,
                        dates: Sequence[str] = ()) -> Found:
        """A question's one search step: search_evidence on the question, then the
        ``dates`` it names resolved against the reference day, then (unless ablated) a
        second round on the question expanded by :func:`expand_query` with the first
        round's three best hits; passages already returned are suppressed."""
        self.round = 1
        hits = self.search_hits(question, k=k)
        for expr in dates:
            self.resolve_date(expr)
        if ABLATE_SINGLE_ROUND in self.tools.ablate or not hits:
            return Found(hits=hits, rounds=1)
        expanded = expand_query(question, hits[:3], terms=expansion_terms)
        if expanded == question:
            return Found(hits=hits, rounds=1)
        self.round = 2
        return Found(hits=hits + self.search_hits(expanded, k=k), rounds=2)

    def search_evidence(self, query: str, **kwargs: Any) -> list[EvidenceNode]:
        """search_evidence as the paper presents it: selected by relevance, shown oldest
        first. Keyword arguments as :meth:`search_hits`."""
        hits = self.search_hits(query, **kwargs)
        return [h.node for h in sorted(hits, key=lambda h: (h.node.ts, h.node.seq))]

    def lookup_phrase(self, phrase: str, *, k: int = 20,
                      channels: Sequence[str] | None = None) -> list[EvidenceNode]:
        phrase = valid_text(phrase)
        scope = self.narrowed(channels)
        nodes = [] if scope is None else lookup_phrase(self.tools.store, phrase, scope=scope,
                                                                  k=k)
        self._see(nodes)
        self.observations.append(Observation(
            round=self.round, tool="lookup_phrase", args={"phrase": phrase, "k": k},
            node_ids=[n.node_id for n in nodes]))
        return nodes

    def read_current_state(self, query: str, *, k: int = 3, state_ids: Sequence[str] = (),
                           channels: Sequence[str] | None = None,
                           siblings: bool = False, facets: bool = False) -> list[State]:
        """Active states with chain history; none without versioned state (ablation).
        ``state_ids`` and ``siblings`` as :func:`read_current_state`."""
        query = valid_text(query)
        scope = self.narrowed(channels)
        states: list[State] = []
        if scope is not None and ABLATE_VERSIONED_STATE not in self.tools.ablate:
            states = read_current_state(self.tools.store, self.tools.embedder, query=query,
                                        scope=scope,
                                        k=k, state_ids=state_ids, siblings=siblings,
                                        facets=facets)
        for s in states:
            self.states.setdefault(s.state_id, s)
        chain_ids = [e.node_id for s in states for e in s.chain]
        self._see(self.tools.store.get_nodes(chain_ids, scope) if scope else [])
        self.observations.append(Observation(
            round=self.round, tool="read_current_state",
            args={"query": query, "k": k, **({"siblings": True} if siblings else {})},
            node_ids=chain_ids, state_ids=[s.state_id for s in states]))
        return states

    def resolve_date(self, expression: str, *, reference: datetime | None = None,
                     prefer: str = "past") -> DateResolution | None:
        expression = valid_text(expression)
        ref = reference or self.reference or datetime.now().astimezone()
        res = resolve_date(expression, ref, prefer="future" if prefer == "future" else "past")
        self.observations.append(Observation(
            round=self.round, tool="resolve_date",
            args={"expression": expression, "reference": ref.date().isoformat()},
            note=res.iso() if res else "not a date"))
        return res

    def answers_to(self, questions: Sequence[EvidenceNode]) -> dict[str, list[EvidenceNode]]:
        """:func:`answers_to` inside the session scope; the answers join what was shown."""
        found = answers_to(self.tools.store, questions, scope=self.scope)
        shown = [n for ns in found.values() for n in ns]
        self._see(shown)
        if questions:
            self.observations.append(Observation(
                round=self.round, tool="answers_to",
                args={"questions": [q.node_id for q in questions]},
                node_ids=[n.node_id for n in shown]))
        return found

    def observed(self, node_id: str) -> bool:
        return node_id in self.nodes


def offline_tools(store: Store, embedder: Embedder) -> ReaderTools:
    """Reader tools over ``store`` searching with the offline feature reranker: for a
    process that reads ``store`` and builds nothing else around it (evaluation, a tool)."""
    from memory.reader.rerank import FeatureReranker

    search = EvidenceSearch(store=store, embedder=embedder, reranker=FeatureReranker())
    return ReaderTools(store=store, embedder=embedder, search=search)
