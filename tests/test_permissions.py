"""Permission-aware recall: private channels, DMs and other workspaces never leak.

One real memory (LanceDB + Tantivy, hashing embedder) is built per module from the sample team
chat — its private ``#leadership`` (members Grace, Alice, Hugo) holds the 2025 hiring budget
($480k, revised to $360k) and a confidential Staff SRE promotion — plus DMs, a group DM, a
second Slack workspace that reuses a channel id, and a Discord guild that reuses the Slack team
id. Every read path is probed as a non-member: each reader tool, ``history``, the offline
reader through ``ask``, the LLM reader against a scripted model that asks for the private
channel and node ids outright, the writer's registry search, and the store primitives with a
huge ``k``. Each probe has a positive control (a member, or the right workspace, does get the
evidence), so a memory that returned nothing at all would fail too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bot.app import build
from bot.ingest import ingest_path
from bot.settings import Settings
from memory.models import (
    Answer,
    Channel,
    EvidenceNode,
    Message,
    Proposal,
    Scope,
    State,
    Verdict,
)
from memory.proposer import RegistryTool, WriteItem
from memory.service import Egmem
from tests.support.fake_openai import ScriptedOpenAIServer, text, tool_calls

SAMPLE = Path(__file__).resolve().parents[1] / "bot" / "sample" / "team_chat.jsonl"

SLACK = "slack"
ACME = "T0ACME"
GLOBEX = "T0GLOBEX"
PRIVATE = "C05LEADERSHIP"
GENERAL = "C03GENERAL"
ATLAS = "C01ATLASDEV"
DM = "D0DEVGRACE"
GROUP_DM = "G0TRIO"
ORPHAN_DM = "D0ORPHAN"

GRACE, ALICE, HUGO = "U07GRACE", "U01ALICE", "U08HUGO"
DEV, BOB, CARMEN, ERIN = "U04DEV", "U02BOB", "U03CARMEN", "U05ERIN"
OUTSIDER = "U99NOBODY"

# Strings that occur only in #leadership in the sample (checked by the first test).
LEADERSHIP_SECRETS = ("480k", "360k", "Staff SRE", "comp bands", "Recruiter contract")
DM_SECRET = "PELICAN-DM-9"
GROUP_SECRET = "HERONBAKERY-3"
ORPHAN_SECRET = "OSPREY-77"
GLOBEX_SECRET = "FALCONGLOBEX-5"
DISCORD_SECRET = "KESTREL-D-8"
T0 = datetime(2024, 11, 20, 9, 0, tzinfo=UTC)

PRIVATE_QUESTIONS = (
    "What is the hiring budget for 2025?",
    "How much is the 2025 hiring budget now, $480k or $360k?",
    "Who will be promoted to Staff SRE in January?",
    "What did the board approve for hiring?",
    "Did the recruiter contract get signed, and are the comp bands set?",
)


@dataclass
class World:
    eg: Egmem
    data: Path
    nodes: list[EvidenceNode]
    private_ids: frozenset[str]
    private_states: frozenset[str]

    def ids_in(self, *, platform: str | None = None, space: str | None = None,
               channels: Iterable[str] | None = None) -> frozenset[str]:
        chans = set(channels) if channels is not None else None
        return frozenset(
            n.node_id for n in self.nodes
            if (platform is None or n.platform == platform)
            and (space is None or n.space == space)
            and (chans is None or n.channel in chans)
        )


def _m(i: int, *, channel: str, user: str, name: str, text_: str, space: str = ACME,
       platform: str = SLACK) -> Message:
    return Message(platform=platform, space=space, channel=channel, id=f"x{i}", user=user,
                   user_name=name, ts=T0 + timedelta(minutes=i), text=text_,
                   channel_name="" if channel.startswith(("D", "G")) else "chan")


def _extra() -> tuple[list[Channel], list[Message]]:
    channels = [
        Channel(platform=SLACK, space=ACME, id=DM, is_private=True, members=(DEV, GRACE)),
        Channel(platform=SLACK, space=ACME, id=GROUP_DM, is_private=True,
                members=(BOB, CARMEN, ERIN)),
        # Another workspace that reuses a channel id of the first, and the same user id.
        Channel(platform=SLACK, space=GLOBEX, id=ATLAS, name="atlas-dev", is_private=False,
                members=(DEV,)),
        # A Discord guild whose id equals the Slack team id.
        Channel(platform="discord", space=ACME, id=ATLAS, name="atlas-dev", is_private=False),
    ]
    messages = [
        _m(1, channel=DM, user=GRACE, name="Grace",
           text_=f"Dev, between us: your promo packet is due on the 20th, codeword {DM_SECRET}"),
        _m(2, channel=GROUP_DM, user=BOB, name="Bob",
           text_=f"surprise party for Grace: the cake comes from {GROUP_SECRET} bakery"),
        _m(3, channel=ORPHAN_DM, user=GRACE, name="Grace",
           text_=f"note to self: the orphan codeword is {ORPHAN_SECRET}"),
        _m(4, channel=ATLAS, user=DEV, name="Dev", space=GLOBEX,
           text_=f"globex deploy codeword is {GLOBEX_SECRET}; the hiring budget is $999k"),
        _m(5, channel=ATLAS, user="D42", name="Dana", platform="discord",
           text_=f"discord deploy codeword is {DISCORD_SECRET}; the hiring budget is $111k"),
    ]
    return channels, messages


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    data = tmp_path_factory.mktemp("perm")
    eg = build(Settings(data=str(data), embedder="hashing"))
    ingest_path(eg, SAMPLE)
    channels, messages = _extra()
    eg.upsert_channels(channels)
    eg.submit(messages)
    eg.drain()
    nodes = eg.store.find_nodes(Scope())
    private = frozenset(n.node_id for n in nodes if n.channel == PRIVATE)
    states = frozenset(r["state_id"] for r in eg.store.states.listed(channel=PRIVATE))
    try:
        yield World(eg=eg, data=data, nodes=nodes, private_ids=private, private_states=states)
    finally:
        eg.close()


# ---- helpers ---------------------------------------------------------------------------------


def _texts(nodes: Iterable[EvidenceNode]) -> str:
    return "\n".join(f"{n.text}\n{n.rewrite}" for n in nodes)


def _state_text(states: Iterable[State]) -> str:
    return "\n".join(
        f"{s.topic} {s.description} {s.value} " + " ".join(f"{e.quote} {e.value}" for e in s.chain)
        for s in states
    )


def _answer_text(a: Answer) -> str:
    return "\n".join([a.answer, *(c.quote for c in a.citations), _state_text(a.states)])


def _assert_clean(blob: str, secrets: Sequence[str]) -> None:
    low = blob.lower()
    leaked = [s for s in secrets if s.lower() in low]
    assert not leaked, f"leaked {leaked}"


def _assert_no_private_nodes(w: World, nodes: Iterable[EvidenceNode]) -> None:
    nodes = list(nodes)
    assert not [n.channel for n in nodes if n.channel == PRIVATE]
    assert not {n.node_id for n in nodes} & w.private_ids
    _assert_clean(_texts(nodes), LEADERSHIP_SECRETS)


def _assert_no_private_states(w: World, states: Iterable[State]) -> None:
    states = list(states)
    assert not [s for s in states if s.channel == PRIVATE or s.state_id in w.private_states]
    assert not {e.node_id for s in states for e in s.chain} & w.private_ids
    _assert_clean(_state_text(states), LEADERSHIP_SECRETS)


def _assert_no_private_answer(w: World, a: Answer) -> None:
    assert not [c for c in a.citations if c.channel == PRIVATE or c.node_id in w.private_ids]
    assert not set(a.gathered) & w.private_ids
    _assert_no_private_states(w, a.states)
    _assert_clean(_answer_text(a), LEADERSHIP_SECRETS)


def _dev_scope(w: World, *, widen: bool) -> Scope:
    return w.eg.scope(platform=SLACK, space=ACME, user=DEV, channel=GENERAL, widen=widen)


# ---- the ground the tests stand on -----------------------------------------------------------


def test_secrets_are_only_in_the_private_channel(world: World) -> None:
    """The probes mean something: the secret strings exist, only in #leadership."""
    for secret in LEADERSHIP_SECRETS:
        holders = {n.channel for n in world.nodes if secret.lower() in n.text.lower()}
        assert holders == {PRIVATE}, secret
    assert len(world.private_ids) >= 8
    assert world.private_states, "the hiring budget established a state in #leadership"
    rec = world.eg.store.channels(platform=SLACK, space=ACME)
    assert {c.id: c.is_private for c in rec}[PRIVATE] is True


def test_non_member_scope_excludes_private_channel_and_dms(world: World) -> None:
    for widen in (False, True):
        scope = _dev_scope(world, widen=widen)
        assert scope.channels is not None
        assert PRIVATE not in scope.channels
        assert GROUP_DM not in scope.channels
        assert ORPHAN_DM not in scope.channels
        assert scope.space == ACME and scope.platform == SLACK
    # Positive control: a member's widened scope holds it; the default one does not.
    grace = world.eg.scope(platform=SLACK, space=ACME, user=GRACE, channel=GENERAL, widen=True)
    assert grace.channels is not None and PRIVATE in grace.channels and DM in grace.channels
    plain = world.eg.scope(platform=SLACK, space=ACME, user=GRACE, channel=GENERAL)
    assert plain.channels is not None and PRIVATE not in plain.channels
    inside = world.eg.scope(platform=SLACK, space=ACME, user=GRACE, channel=PRIVATE)
    assert inside.channels is not None and PRIVATE in inside.channels
    # A non-member asking from inside the private channel (a stale membership list) gets
    # nothing of it either.
    dev_inside = world.eg.scope(platform=SLACK, space=ACME, user=DEV, channel=PRIVATE)
    assert dev_inside.channels is not None and PRIVATE not in dev_inside.channels


# ---- every reader tool, as a non-member ------------------------------------------------------


@pytest.mark.parametrize("widen", [False, True])
def test_search_evidence_never_returns_private_evidence(world: World, widen: bool) -> None:
    session = world.eg.tools.session(_dev_scope(world, widen=widen))
    found: list[EvidenceNode] = []
    for q in (*PRIVATE_QUESTIONS[:3], "480k 360k Staff SRE comp bands recruiter"):
        found += session.search_evidence(q, k=50)
        # Asking for the private channel by id narrows to nothing instead of widening.
        assert session.search_evidence(q, k=50, channels=[PRIVATE]) == []
        found += session.search_evidence(q, k=50, channels=[PRIVATE, GENERAL],
                                         participants=["Grace", GRACE, "Hugo"])
    _assert_no_private_nodes(world, found)
    assert found, "public evidence is still found (the probe really ran)"


def test_search_evidence_member_positive_control(world: World) -> None:
    scope = world.eg.scope(platform=SLACK, space=ACME, user=GRACE, channel=GENERAL, widen=True)
    session = world.eg.tools.session(scope)
    hits = session.search_evidence("hiring budget for 2025 $480k $360k", k=10)
    assert {n.channel for n in hits} & {PRIVATE}
    assert "360k" in _texts(hits)


@pytest.mark.parametrize("widen", [False, True])
def test_lookup_phrase_with_exact_private_phrases_finds_nothing(world: World,
                                                                 widen: bool) -> None:
    session = world.eg.tools.session(_dev_scope(world, widen=widen))
    phrases = [
        "Hiring budget for 2025 is $480k",
        "The 2025 hiring budget is now $360k",
        "promote Dev to Staff SRE",
        "comp bands with the recruiter",
        *LEADERSHIP_SECRETS,
    ]
    for p in phrases:
        assert session.lookup_phrase(p, k=10_000) == [], p
        assert session.lookup_phrase(p, k=10_000, channels=[PRIVATE]) == [], p
    # Positive control: a member inside the channel finds every phrase.
    member = world.eg.tools.session(
        world.eg.scope(platform=SLACK, space=ACME, user=HUGO, channel=PRIVATE))
    for p in phrases:
        assert {n.channel for n in member.lookup_phrase(p)} == {PRIVATE}, p


@pytest.mark.parametrize("widen", [False, True])
def test_read_current_state_and_history_hide_private_states(world: World, widen: bool) -> None:
    eg = world.eg
    session = eg.tools.session(_dev_scope(world, widen=widen))
    states: list[State] = []
    for q in ("hiring budget", "2025 hiring budget $360k", "Staff SRE promotion", "leadership"):
        states += session.read_current_state(q, k=50)
        # Naming the private states by id does not make them candidates.
        states += session.read_current_state(q, k=50, state_ids=sorted(world.private_states))
        states += session.read_current_state(q, k=50, channels=[PRIVATE])
        states += eg.history(q, platform=SLACK, space=ACME, user=DEV, channel=GENERAL,
                             widen=widen, k=50)
    _assert_no_private_states(world, states)
    _assert_no_private_nodes(world, [session.nodes[i] for i in session.gathered])
    # Positive control: Alice (a member) sees the chain $480k → $360k with widen.
    mine = eg.history("hiring budget", platform=SLACK, space=ACME, user=ALICE,
                      channel=GENERAL, widen=True)
    budget = [s for s in mine if s.channel == PRIVATE]
    assert budget and budget[0].value == "$360k"
    assert [e.value for e in budget[0].chain] == ["$480k", "$360k"]


def test_get_nodes_and_neighbours_are_scoped(world: World) -> None:
    scope = _dev_scope(world, widen=True)
    store = world.eg.store
    assert store.get_nodes(sorted(world.private_ids), scope) == []
    private_nodes = store.get_nodes(sorted(world.private_ids))
    assert len(private_nodes) == len(world.private_ids)
    assert store.neighbours(private_nodes, scope) == ([], {})
    assert store.neighbours(private_nodes, Scope(space=ACME, channels=(PRIVATE,)))[0]


def test_why_audit_hides_private_nodes_states_and_messages(world: World) -> None:
    eg = world.eg
    private_nodes = [n for n in world.nodes if n.channel == PRIVATE]
    idents = [*(n.node_id for n in private_nodes), *(n.message_id for n in private_nodes),
              *sorted(world.private_states)]
    for ident in idents:
        for user in (DEV, OUTSIDER):
            assert eg.why(ident, platform=SLACK, space=ACME, user=user, channel=GENERAL) == []
    # Positive control: a member sees the audit trail of the budget state.
    budget = next(r["state_id"] for r in eg.store.states.listed(channel=PRIVATE)
                  if r["value"] == "$360k")
    trail = eg.why(budget, platform=SLACK, space=ACME, user=HUGO, channel=GENERAL)
    assert {n.channel for n in trail} == {PRIVATE} and len(trail) >= 2


# ---- the offline reader through ask ----------------------------------------------------------


@pytest.mark.parametrize(("user", "widen"), [(DEV, False), (DEV, True), (OUTSIDER, True)])
def test_ask_offline_reader_never_cites_private_channel(world: World, user: str,
                                                        widen: bool) -> None:
    for q in (*PRIVATE_QUESTIONS[:4], "$480k Staff SRE"):
        a = world.eg.ask(q, platform=SLACK, space=ACME, user=user, channel=GENERAL,
                         widen=widen)
        _assert_no_private_answer(world, a)


def test_ask_member_positive_control(world: World) -> None:
    a = world.eg.ask("What is the hiring budget for 2025?", platform=SLACK, space=ACME,
                     user=GRACE, channel=GENERAL, widen=True)
    assert "$360k" in a.answer
    assert any(c.channel == PRIVATE for c in a.citations)
    # The same member without widen, asking in #general, does not get it.
    a = world.eg.ask("What is the hiring budget for 2025?", platform=SLACK, space=ACME,
                     user=GRACE, channel=GENERAL)
    _assert_no_private_answer(world, a)


# ---- DMs -------------------------------------------------------------------------------------


def test_dms_visible_only_to_their_members(world: World) -> None:
    eg = world.eg

    def sees(user: str, q: str, secret: str) -> bool:
        s = eg.tools.session(eg.scope(platform=SLACK, space=ACME, user=user, channel=GENERAL,
                                      widen=True))
        found = s.search_evidence(q, k=50) + s.lookup_phrase(secret)
        return secret in _texts(found)

    dm_q = "what is the codeword for the promo packet?"
    group_q = "where does the cake for the surprise party come from?"
    # Positive controls: members with widen see their DM / group DM, also through ask.
    assert sees(DEV, dm_q, DM_SECRET) and sees(GRACE, dm_q, DM_SECRET)
    assert sees(ERIN, group_q, GROUP_SECRET)
    a = eg.ask(dm_q, platform=SLACK, space=ACME, user=DEV, channel=GENERAL, widen=True)
    assert DM_SECRET in _answer_text(a)
    # Everyone else never does.
    for user in (HUGO, ALICE, BOB, OUTSIDER):
        assert not sees(user, dm_q, DM_SECRET), user
    a = eg.ask(dm_q, platform=SLACK, space=ACME, user=HUGO, channel=GENERAL, widen=True)
    _assert_clean(_answer_text(a), (DM_SECRET,))
    for user in (DEV, GRACE, ALICE, OUTSIDER):
        assert not sees(user, group_q, GROUP_SECRET), user
    # A DM without a visibility record is never readable from another channel.
    for user in (GRACE, DEV, OUTSIDER):
        assert not sees(user, "what is the orphan codeword?", ORPHAN_SECRET), user


# ---- other workspaces and platforms ----------------------------------------------------------


def test_workspaces_and_platforms_never_mix(world: World) -> None:
    eg = world.eg
    q = "what is the deploy codeword and the hiring budget?"
    acme = eg.ask(q, platform=SLACK, space=ACME, user=DEV, channel=ATLAS, widen=True)
    _assert_clean(_answer_text(acme), (GLOBEX_SECRET, DISCORD_SECRET, "999k", "111k"))
    assert {c.channel for c in acme.citations} <= {ATLAS, GENERAL, "C02DESIGN", "C04OPSONCALL",
                                                   DM}
    globex_ids = world.ids_in(space=GLOBEX)
    discord_ids = world.ids_in(platform="discord")
    assert globex_ids and discord_ids
    assert not set(acme.gathered) & (globex_ids | discord_ids)
    # Positive controls: each workspace sees its own, and nothing of ACME.
    globex = eg.ask(q, platform=SLACK, space=GLOBEX, user=DEV, channel=ATLAS, widen=True)
    assert GLOBEX_SECRET in _answer_text(globex)
    assert set(globex.gathered) <= globex_ids
    disc = eg.ask(q, platform="discord", space=ACME, user="D42", channel=ATLAS, widen=True)
    assert DISCORD_SECRET in _answer_text(disc)
    assert set(disc.gathered) <= discord_ids
    # The local operator (no user) scoped to one space still stays in it.
    op = eg.ask(q, platform=SLACK, space=ACME, user=None, channel=None)
    assert not set(op.gathered) & (globex_ids | discord_ids)


# ---- scope is enforced inside the store queries ----------------------------------------------


def _probe_scopes(w: World) -> dict[str, Scope]:
    eg = w.eg
    return {
        "dev-default": _dev_scope(w, widen=False),
        "dev-widened": _dev_scope(w, widen=True),
        "outsider": eg.scope(platform=SLACK, space=ACME, user=OUTSIDER, channel=None,
                             widen=True),
        "globex": eg.scope(platform=SLACK, space=GLOBEX, user=DEV, channel=ATLAS, widen=True),
        "discord": eg.scope(platform="discord", space=ACME, user="D42", channel=ATLAS,
                            widen=True),
        "empty": Scope(platform=SLACK, space=ACME, channels=()),
    }


def _allowed(w: World, scope: Scope) -> frozenset[str]:
    return w.ids_in(platform=scope.platform, space=scope.space, channels=scope.channels)


HUGE = 10**9


def test_store_primitives_never_return_out_of_scope_ids(world: World) -> None:
    store = world.eg.store
    emb = world.eg.tools.embedder
    rng = np.random.default_rng(3)
    secret_nodes = [n for n in world.nodes if n.channel == PRIVATE or n.space == GLOBEX
                    or n.platform == "discord" or n.channel.startswith(("D", "G"))]
    queries = [n.text for n in secret_nodes[::2]] + [
        " ".join(LEADERSHIP_SECRETS), DM_SECRET, GLOBEX_SECRET, DISCORD_SECRET]
    vectors = [np.asarray(v, dtype=np.float32) for v in emb.embed_batch(queries)]
    vectors += [rng.standard_normal(store.dim).astype(np.float32) for _ in range(3)]
    for name, scope in _probe_scopes(world).items():
        allowed = _allowed(world, scope)
        for q in queries:
            got = {i for i, _ in store.lexical_search(q, scope, k=HUGE)}
            assert got <= allowed, (name, "lexical", q)
            got = {n.node_id for n in store.phrase_search(q, scope, k=HUGE)}
            assert got <= allowed, (name, "phrase", q)
        for v in vectors:
            got = {i for i, _ in store.vector_search(v, scope, k=HUGE)}
            assert got <= allowed, (name, "vector")
            # k huge returns the whole scope: proves nothing was cut before the filter.
            assert got == allowed, (name, "vector returns every in-scope node")


def test_scope_is_a_prefilter_not_a_post_filter(world: World) -> None:
    """With a small k, in-scope results still fill k although better out-of-scope matches
    exist: the filter runs inside the query, before the top k are taken."""
    store = world.eg.store
    scope = _dev_scope(world, widen=True)
    q = "Board approved the 2025 plan. Hiring budget for 2025 is $480k"
    qv = np.asarray(world.eg.tools.embedder.embed_batch([q])[0], dtype=np.float32)
    everything = Scope(platform=SLACK, space=ACME)
    # Control: unscoped, the best matches are the private ones.
    assert store.lexical_search(q, everything, k=1)[0][0] in world.private_ids
    assert store.vector_search(qv, everything, k=1)[0][0] in world.private_ids
    lex = store.lexical_search(q, scope, k=3)
    vec = store.vector_search(qv, scope, k=3)
    assert len(lex) == 3 and len(vec) == 3
    assert not {i for i, _ in lex + vec} & world.private_ids


def test_store_member_scope_positive_control(world: World) -> None:
    store = world.eg.store
    grace = world.eg.scope(platform=SLACK, space=ACME, user=GRACE, channel=GENERAL, widen=True)
    got = {i for i, _ in store.lexical_search("hiring budget 480k", grace, k=HUGE)}
    assert got & world.private_ids
    assert store.phrase_search("Staff SRE", grace, k=HUGE)


# ---- the writer: a message in one channel never revises a state in another -------------------


class _ScriptedProposer:
    """A proposer standing in for a model that names another channel's state outright,
    and records what its (channel-scoped) registry search showed it."""

    batch_size = 8
    name = "scripted"

    def __init__(self, *, prior: str, query: str) -> None:
        self.prior = prior
        self.query = query
        self.seen: dict[str, list[tuple[str, str]]] = {}

    def propose(self, items: Sequence[WriteItem], registry: RegistryTool) -> list[Proposal]:
        out = []
        for item in items:
            hits = registry.search_registry(item, self.query, k=100)
            self.seen[item.message.id] = [(h.state.channel, h.state.state_id) for h in hits]
            out.append(Proposal(message_id=item.message.id, topic="hiring budget",
                                verdict=Verdict.REVISE, source_quote="$100k",
                                prior_state_id=self.prior, proposer="scripted"))
        return out


@pytest.mark.parametrize("verification", [True, False])
def test_message_in_one_channel_never_revises_a_state_in_another(
    tmp_path: Path, verification: bool
) -> None:
    eg = build(Settings(data=str(tmp_path), embedder="hashing"), verification=verification)
    try:
        lines = [json.loads(x) for x in SAMPLE.read_text().splitlines()]
        keep = [r for r in lines if r["type"] == "channel" or r.get("channel") == PRIVATE]
        small = tmp_path / "leadership.jsonl"
        small.write_text("\n".join(json.dumps(r) for r in keep) + "\n")
        ingest_path(eg, small)
        states = eg.store.states.listed(channel=PRIVATE)
        budget = next(s for s in states if s["value"] == "$360k")
        before = eg.history("hiring budget", platform=SLACK, space=ACME, user=GRACE,
                            channel=PRIVATE)

        # 1. The offline writer: same words, another channel.
        eg.submit([_m(10, channel=GENERAL, user=BOB, name="Bob",
                      text_="actually the 2025 hiring budget is now $100k")])
        eg.drain()
        # 2. A proposer that names the private state and sees what the registry shows it.
        proposer = _ScriptedProposer(prior=budget["state_id"], query="2025 hiring budget $360k")
        eg.writer.proposer = proposer
        eg.submit([
            _m(11, channel=GENERAL, user=BOB, name="Bob",
               text_="update: hiring budget moved to $100k"),
            # A reply in #general to the id of a private message must not borrow its text.
            Message(platform=SLACK, space=ACME, channel=GENERAL, id="1731400248.000963",
                    user=BOB, user_name="Bob", ts=T0 + timedelta(minutes=12),
                    text="ok $100k it is"),
            Message(platform=SLACK, space=ACME, channel=GENERAL, id="x13", user=BOB,
                    user_name="Bob", ts=T0 + timedelta(minutes=13), text="+1 $100k",
                    thread_id="1731400248.000963", reply_to="1731400248.000963"),
            # Positive control: the same proposal inside #leadership does revise it.
            _m(14, channel=PRIVATE, user=HUGO, name="Hugo",
               text_="update: the hiring budget is now $100k"),
        ])
        eg.drain()

        general = eg.store.find_nodes(Scope(channels=(GENERAL,)))
        private_ids = {x.node_id for x in eg.store.find_nodes(Scope(channels=(PRIVATE,)))}
        assert len(general) == 4
        for n in general:
            assert n.state_id not in {s["state_id"] for s in states}, n.message_id
            assert n.supersedes not in private_ids
            assert n.reply_to_node not in private_ids
            _assert_clean(n.rewrite, LEADERSHIP_SECRETS)
        for mid in ("x11", "1731400248.000963", "x13"):
            assert all(ch == GENERAL for ch, _ in proposer.seen[mid]), mid
        assert (PRIVATE, budget["state_id"]) in proposer.seen["x14"]

        after = eg.history("hiring budget", platform=SLACK, space=ACME, user=GRACE,
                           channel=PRIVATE)
        b0 = next(s for s in before if s.state_id == budget["state_id"])
        b1 = next(s for s in after if s.state_id == budget["state_id"])
        assert [e.value for e in b0.chain] == ["$480k", "$360k"]
        assert [e.value for e in b1.chain] == ["$480k", "$360k", "$100k"]
        assert {e.message_id for e in b1.chain} <= {
            n.message_id for n in eg.store.find_nodes(Scope(channels=(PRIVATE,)))}
    finally:
        eg.close()


# ---- the LLM reader against a scripted model -------------------------------------------------


def _tool_output(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content") or "") for m in body.get("messages", [])
                     if m.get("role") == "tool")


def _llm_ask(w: World, srv: ScriptedOpenAIServer, *, user: str, public_id: str) -> Answer:
    """Ask through the LLM reader; the scripted model requests the private channel and the
    private node ids outright, then cites them (and one public node) in its answer."""
    pytest.importorskip("memory.reader.llm_reader")
    private = sorted(w.private_ids)
    srv.enqueue(
        tool_calls([
            ("search_evidence", {"query": "hiring budget 2025", "channels": [PRIVATE],
                                 "k": 10**9}),
            ("search_evidence", {"query": "hiring budget 2025 $480k board approved",
                                 "channels": [PRIVATE, GENERAL], "k": 20}),
            ("search_evidence", {"query": " ".join(private[:5])}),
            ("lookup_phrase", {"phrase": "Hiring budget for 2025 is $480k"}),
            ("lookup_phrase", {"phrase": "Staff SRE", "channels": [PRIVATE]}),
            ("lookup_phrase", {"phrase": private[0]}),
            ("read_current_state", {"query": "hiring budget", "k": 5,
                                    "state_ids": sorted(w.private_states)}),
            ("search_evidence", {"query": "team lunch"}),
            ("lookup_phrase", {"phrase": "team lunch"}),
        ]),
        text(json.dumps({"answer": "The 2025 hiring budget is $360k.",
                         "citations": [*private, public_id], "abstain": False})),
    )
    # read-only: the world's writer stays open beside it (as `egmem ask` runs beside a bot)
    eg = build(Settings(data=str(w.data), embedder="hashing",
                        llm_base_url=srv.base_url, llm_api_key="test-key", reader_rounds=3),
               read_only=True)
    try:
        return eg.ask("What is the hiring budget for 2025?", platform=SLACK, space=ACME,
                      user=user, channel=GENERAL, widen=True)
    finally:
        eg.close()


def _public_lunch_id(w: World) -> str:
    return next(n.node_id for n in w.nodes if n.channel == GENERAL
                and "team lunch" in n.text.lower())


def test_llm_reader_scripted_model_cannot_reach_private_channel(
    world: World, fake_openai: ScriptedOpenAIServer
) -> None:
    public_id = _public_lunch_id(world)
    a = _llm_ask(world, fake_openai, user=DEV, public_id=public_id)
    reqs = fake_openai.chat_requests()
    assert len(reqs) == 2 and fake_openai.unscripted == 0
    seen = _tool_output(reqs[1].body)
    assert "team lunch" in seen.lower(), "the public probes returned evidence"
    _assert_clean(seen, LEADERSHIP_SECRETS)
    assert not [nid for nid in world.private_ids if nid in seen]
    assert not [c for c in a.citations if c.node_id in world.private_ids
                or c.channel == PRIVATE]
    assert not set(a.gathered) & world.private_ids
    _assert_no_private_states(world, a.states)
    # The public node it really observed stays cited: citations are filtered, not dropped.
    assert [c.node_id for c in a.citations] == [public_id]


def test_llm_reader_member_positive_control(
    world: World, fake_openai: ScriptedOpenAIServer
) -> None:
    public_id = _public_lunch_id(world)
    a = _llm_ask(world, fake_openai, user=GRACE, public_id=public_id)
    seen = _tool_output(fake_openai.chat_requests()[1].body)
    assert "480k" in seen and "360k" in seen
    assert {c.channel for c in a.citations} >= {PRIVATE, GENERAL}
