"""States named after the node that established them, and the further states one message
establishes or revises beside its main one.

A node belongs to one state through its ``state_id`` column. A message that states several
things records its further states as *facets* in its verified proposal:

* facet ``k`` that opens a state is the state ``s_X.k`` of node ``n_X``: its id names its
  root, so that state's chain is its root (seen through the facet) and the nodes whose
  ``state_id`` is the facet state;
* a facet that revises state ``S`` lists ``S`` in the node's ``context_ids`` (an indexed list
  column), so the node is found among ``S``'s members.

:func:`root_ids` names the roots of facet states (the store finds a state's rows) and
:func:`project` turns them into the members each state sees, so chains, re-derivation and
forgetting treat every state the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memory.models import EvidenceNode, Facet, Verdict


def state_id_for(node_id: str) -> str:
    """A state is named after the node that established it: replay-safe and stable."""
    return "s_" + node_id.removeprefix("n_")


def facet_state_id(node_id: str, k: int) -> str:
    """The id of the state opened by facet ``k`` (from 1) of ``node_id``."""
    return f"{state_id_for(node_id)}.{k}"


def facet_root(state_id: str) -> tuple[str, int] | None:
    """The root node id and facet number of a facet state id; None for a main state."""
    base, dot, k = state_id.partition(".")
    if not dot or not k.isdigit() or not base.startswith("s_"):
        return None
    return "n_" + base.removeprefix("s_"), int(k)


def state_root(state_id: str) -> str:
    """The node that opened ``state_id``, as its main state or as one of its facets."""
    root = facet_root(state_id)
    return root[0] if root is not None else "n_" + state_id.removeprefix("s_")


def memberships(node: EvidenceNode) -> list[tuple[str, Facet]]:
    """(state id, facet) for every further state ``node`` opens or revises."""
    proposal = node.proposal
    if proposal is None:
        return []
    return [(f.prior_state_id or facet_state_id(node.node_id, k), f)
            for k, f in enumerate(proposal.facets, start=1)]


def facet_ids(node: EvidenceNode) -> list[str]:
    """The further states ``node`` opens or revises."""
    return [sid for sid, _ in memberships(node)]


def node_state_ids(node: EvidenceNode) -> list[str]:
    """Every state ``node`` belongs to: its own and its facets'."""
    return ([node.state_id] if node.state_id else []) + facet_ids(node)


def root_ids(state_ids: Iterable[str]) -> list[str]:
    """The root node ids of the facet states among ``state_ids``."""
    out: list[str] = []
    for sid in state_ids:
        root = facet_root(sid)
        if root is not None and root[0] not in out:
            out.append(root[0])
    return out


def facet_view(node: EvidenceNode, state_id: str) -> EvidenceNode | None:
    """``node`` as a member of its facet state ``state_id``; None when it has no such facet
    (or its value left the message after an edit)."""
    for sid, facet in memberships(node):
        if sid != state_id or not facet.source_quote:
            continue
        verdict = Verdict.REVISE if facet.prior_state_id else Verdict.ESTABLISH
        return node.model_copy(update={
            "state_id": state_id, "verdict": verdict, "value": facet.source_quote,
            "topic": facet.topic, "supersedes": None,
        })
    return None


def project(nodes: Sequence[EvidenceNode], state_ids: Iterable[str]) -> list[EvidenceNode]:
    """The members of ``state_ids`` among ``nodes``: nodes whose own state is one of them,
    and nodes seen through a facet (a node may appear once per state it belongs to). A
    facet view takes its place in its chain (seq order): it supersedes the chain node
    before it and carries the chain's topic, as a node of the state itself would. Order
    follows ``nodes``."""
    wanted = set(state_ids)
    out: list[EvidenceNode] = []
    views: set[int] = set()
    for n in nodes:
        if n.state_id in wanted:
            out.append(n)
        for sid in facet_ids(n):
            if sid in wanted:
                view = facet_view(n, sid)
                if view is not None:
                    views.add(len(out))
                    out.append(view)
    if not views:
        return out
    chains: dict[str, list[int]] = {}
    for i, n in enumerate(out):
        if n.verdict in (Verdict.ESTABLISH, Verdict.REVISE) and n.state_id:
            chains.setdefault(n.state_id, []).append(i)
    for idx in chains.values():
        idx.sort(key=lambda i: out[i].seq)
        topic = out[idx[0]].topic
        for pos, i in enumerate(idx):
            if i not in views:
                continue
            out[i] = out[i].model_copy(update={
                "verdict": Verdict.ESTABLISH if pos == 0 else Verdict.REVISE,
                "supersedes": out[idx[pos - 1]].node_id if pos else None,
                "topic": topic or out[i].topic,
            })
    return out
