"""``egmem eval locomo-abstain``: does the reader know when its memory holds no answer?

Every LoCoMo conversation is ingested into its own space through the real write path.
Then each conversation's answerable questions (categories 1-4) are asked three ways:

* **own** — in its own space: they should be answered;
* **foreign** — in the next conversation's space (cyclically), as they are: they name
  people and things that space never heard of, so they should be abstained on;
* **swapped** — in that same foreign space with the speakers' names swapped for that
  space's speakers ("What did Caroline research?" → "What did Jon research?"): only the
  topic is foreign now, so this is the harder test (some swapped questions may even have
  an answer there).

LoCoMo's own adversarial questions (category 5: they attribute something to the wrong
speaker) are asked in their own space and reported apart, for information.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egmem_eval.datasets import EvalConversation, load_dataset
from memory.embeddings import Embedder, MiniLMEmbedder
from memory.models import Scope
from memory.proposer import OfflineProposer
from memory.reader.offline import OfflineReader
from memory.reader.tools import offline_tools
from memory.store import open_store
from memory.store.ports import Store
from memory.writer import open_writer

logger = logging.getLogger(__name__)

CONDITIONS = ("own", "foreign", "swapped", "adversarial")
# What each condition should do: answer (own) or abstain (the others).
EXPECT_ANSWER = {"own": True, "foreign": False, "swapped": False, "adversarial": False}
ADVERSARIAL = "5"
Progress = Callable[[int, int], None]
# A marker in a kept data folder listing the spaces already ingested.
_INGESTED = "ingested.json"


@dataclass
class Tally:
    asked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CONDITIONS, 0))
    abstained: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CONDITIONS, 0))

    def add(self, condition: str, abstained: bool) -> None:
        self.asked[condition] += 1
        self.abstained[condition] += int(abstained)

    def rate(self, condition: str) -> float:
        n = self.asked[condition]
        return round(self.abstained[condition] / n, 3) if n else 0.0


def speakers_of(conv: EvalConversation) -> list[str]:
    """The conversation's speakers in order of first turn."""
    out: list[str] = []
    for m in conv.messages:
        if m.speaker not in out:
            out.append(m.speaker)
    return out


def swap_names(question: str, source: list[str], target: list[str]) -> str:
    """``question`` with each name of ``source`` replaced by the name at the same place in
    ``target`` (whole words, possessives kept)."""
    if not source or not target:
        return question
    pairs = list(zip(source, target, strict=False))
    pattern = re.compile(r"\b(" + "|".join(re.escape(a) for a, _ in pairs) + r")\b")
    table = dict(pairs)
    return pattern.sub(lambda m: table[m.group(1)], question)


def run_abstain(path: Path | str, *, limit: int | None = None,
                embedder: Embedder | None = None, data_dir: Path | None = None,
                trace: Path | None = None, progress: Progress | None = None
                ) -> dict[str, Any]:
    """Run the evaluation on the LoCoMo file at ``path``; returns the JSON-able result.

    ``limit`` caps the answerable questions taken from each conversation; ``data_dir`` keeps
    (and reuses) the built store; ``trace`` writes one JSON line per question asked."""
    dataset = load_dataset("locomo", Path(path))
    emb = embedder if embedder is not None else MiniLMEmbedder()
    own_dir = data_dir is None
    root = Path(tempfile.mkdtemp(prefix="egmem-abstain-")) if data_dir is None else data_dir
    root.mkdir(parents=True, exist_ok=True)
    store = open_store(uri=str(root / "egmem"), lexical_dir=root / "egmem-lex", dim=emb.dim)
    trace_fh = trace.open("w", encoding="utf-8") if trace is not None else None
    try:
        _ingest(store, emb, dataset.conversations, root)
        reader = OfflineReader(tools=offline_tools(store, emb))
        convs = dataset.conversations
        tally = Tally()
        plan = _plan(convs, limit)
        for done, (condition, conv, space, question, reference) in enumerate(plan, start=1):
            scope = Scope(platform=conv.messages[0].platform if conv.messages else None,
                          space=space)
            ans = reader.answer(question, scope=scope, reference=reference)
            tally.add(condition, ans.abstained)
            if trace_fh is not None:
                trace_fh.write(json.dumps({
                    "condition": condition, "conversation": conv.space, "asked_in": space,
                    "question": question, "abstained": ans.abstained,
                    "kind": ans.kind, "coverage": ans.coverage,
                    "answer": ans.answer.splitlines()[0] if ans.answer else ""}) + "\n")
            if progress is not None:
                progress(done, len(plan))
    finally:
        if trace_fh is not None:
            trace_fh.close()
        store.close()
        if own_dir:
            shutil.rmtree(root, ignore_errors=True)
    return _result(tally, len(convs), limit)


def _ingest(store: Store, emb: Embedder, convs: list[EvalConversation],
            root: Path) -> None:
    marker = root / _INGESTED
    done = set(json.loads(marker.read_text())) if marker.exists() else set()
    writer = open_writer(store=store, embedder=emb, proposer=OfflineProposer())
    for conv in convs:
        if conv.space in done:
            continue
        writer.write(conv.messages)
        done.add(conv.space)
        marker.write_text(json.dumps(sorted(done)))


def _plan(convs: list[EvalConversation], limit: int | None
          ) -> list[tuple[str, EvalConversation, str, str, Any]]:
    out = []
    for i, conv in enumerate(convs):
        other = convs[(i + 1) % len(convs)]
        names, foreign_names = speakers_of(conv), speakers_of(other)
        answerable = [q for q in conv.questions if q.category != ADVERSARIAL]
        adversarial = [q for q in conv.questions if q.category == ADVERSARIAL]
        if limit is not None:
            answerable, adversarial = answerable[:limit], adversarial[:limit]
        for q in answerable:
            out.append(("own", conv, conv.space, q.question, q.reference_date))
            if len(convs) > 1:
                out.append(("foreign", conv, other.space, q.question, q.reference_date))
                out.append(("swapped", conv, other.space,
                            swap_names(q.question, names, foreign_names), q.reference_date))
        for q in adversarial:
            out.append(("adversarial", conv, conv.space, q.question, q.reference_date))
    return out


def _result(tally: Tally, conversations: int, limit: int | None) -> dict[str, Any]:
    rows = {}
    for c in CONDITIONS:
        rate = tally.rate(c)
        rows[c] = {"questions": tally.asked[c], "abstained": rate,
                   "correct": rate if not EXPECT_ANSWER[c] else round(1 - rate, 3)}
    return {"dataset": "locomo", "conversations": conversations, "limit": limit,
            "conditions": rows}


def render_markdown(result: dict[str, Any]) -> str:
    """The conditions as a Markdown table."""
    lines = [
        f"LoCoMo abstention: {result['conversations']} conversations"
        + (f", first {result['limit']} questions each" if result.get("limit") else ""),
        "",
        "| condition | questions | abstained | wanted | correct |",
        "|---|---:|---:|---|---:|",
    ]
    for c, row in result["conditions"].items():
        want = "answer" if EXPECT_ANSWER[c] else "abstain"
        lines.append(f"| {c} | {row['questions']} | {row['abstained']:.3f} | {want} | "
                     f"{row['correct']:.3f} |")
    return "\n".join(lines) + "\n"
