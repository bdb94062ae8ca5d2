"""States named after the node that established them, and the further states one message
establishes beside its main one.

A node belongs to one state through its ``state_id`` column. A message that states several
things ("Board meeting is Nov 7. Deck draft due Nov 1, Raj owns the product section")
establishes its further states as *facets*, recorded in its verified proposal. Facet ``k`` of
node ``n_X`` is the state ``s_X.k``: its id names its root, so the chain of a facet state is
its root node (seen through the facet) followed by the nodes whose ``state_id`` is the facet
state. :func:`project` gives every reader of chains that view, so chains, re-derivation and
forgetting treat a facet state like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memory.models import EvidenceNode, Verdict


def state_id_for(node_id: str) -> str:
    """A state is named after the node that established it: replay-safe and stable."""
    return "s_" + node_id.removeprefix("n_")


def facet_state_id(node_id: str, k: int) -> str:
    """The id of facet ``k`` (from 1) of ``node_id``."""
    return f"{state_id_for(node_id)}.{k}"


def facet_root(state_id: str) -> tuple[str, int] | None:
    """The root node id and facet number of a facet state id; None for a main state."""
    base, dot, k = state_id.partition(".")
    if not dot or not k.isdigit() or not base.startswith("s_"):
        return None
    return "n_" + base.removeprefix("s_"), int(k)


def facet_ids(node: EvidenceNode) -> list[str]:
    """The facet states ``node`` establishes (from its verified proposal)."""
    proposal = node.proposal
    if proposal is None or not proposal.facets:
        return []
    return [facet_state_id(node.node_id, k) for k in range(1, len(proposal.facets) + 1)]


def node_state_ids(node: EvidenceNode) -> list[str]:
    """Every state ``node`` belongs to: its own and the facets it establishes."""
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
    """``node`` as the establishing node of its facet ``state_id``; None when it is not that
    facet's root (or the facet is gone from its proposal)."""
    root = facet_root(state_id)
    proposal = node.proposal
    if root is None or root[0] != node.node_id or proposal is None:
        return None
    k = root[1]
    if k > len(proposal.facets):
        return None
    facet = proposal.facets[k - 1]
    if not facet.source_quote:
        return None  # its value left the message (an edit): the facet has no root
    return node.model_copy(update={
        "state_id": state_id, "verdict": Verdict.ESTABLISH, "value": facet.source_quote,
        "topic": facet.topic, "supersedes": None,
    })


def project(nodes: Sequence[EvidenceNode], state_ids: Iterable[str]) -> list[EvidenceNode]:
    """The members of ``state_ids`` among ``nodes``: nodes whose own state is one of them,
    and facet roots seen as the establishing node of their facet (a node may appear once per
    state it belongs to). Order follows ``nodes``."""
    wanted = set(state_ids)
    out: list[EvidenceNode] = []
    for n in nodes:
        if n.state_id in wanted:
            out.append(n)
        for sid in facet_ids(n):
            if sid in wanted:
                view = facet_view(n, sid)
                if view is not None:
                    out.append(view)
    return out
