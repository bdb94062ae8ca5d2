"""What the proposer reads of the registry while it proposes: the active states of an item's
own channel (searched, or by id) and how alike two subject phrases are.

Built by the composition root over the writer's :class:`~memory.registry.Registry` and handed
to the proposer with each batch; it never writes, and the proposer never reaches the writer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from memory.embeddings import Embedder
from memory.proposer import WriteItem
from memory.registry import Registry, RegistryHit, StateRecord
from memory.text import content_terms


class RegistrySearch:
    """search_registry for one item: the item's own channel, nothing else."""

    _PHRASES = 4096

    def __init__(self, registry: Registry, embedder: Embedder) -> None:
        self.registry = registry
        self._embedder = embedder
        # Subject phrases and topics recur message after message: embed each once.
        self._phrases: OrderedDict[str, np.ndarray] = OrderedDict()

    def similarity(self, phrase: str, topics: Sequence[str]) -> list[float]:
        """Cosine similarity of ``phrase`` to each of ``topics`` (embedded, cached)."""
        wanted = [t for t in dict.fromkeys([phrase, *topics]) if t not in self._phrases]
        if wanted:
            for text, vec in zip(wanted, self._embedder.embed_batch(wanted), strict=True):
                self._phrases[text] = np.asarray(vec, dtype=np.float32)
            while len(self._phrases) > self._PHRASES:
                self._phrases.popitem(last=False)
        q = self._phrases[phrase]
        return [float(q @ self._phrases[t]) if t in self._phrases else 0.0 for t in topics]

    def search_registry(
        self, item: WriteItem, query: str, *, k: int = 5, families: set[str] | None = None
    ) -> list[RegistryHit]:
        msg = item.message
        vector = item.vector
        if vector is None or query.strip() != msg.text.strip():
            vector = self._embedder.embed_batch([query])[0] if query.strip() else None
        return self.registry.search(
            (msg.platform, msg.space, msg.channel),
            terms=content_terms(query), vector=vector, k=k, families=families, text=query,
        )

    def get_state(self, item: WriteItem, state_id: str) -> StateRecord | None:
        msg = item.message
        return self.registry.get((msg.platform, msg.space, msg.channel), state_id)
