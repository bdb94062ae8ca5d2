"""Scores for ``egmem eval``: evidence recall@k, answer token F1, and a per-system tally.

Recall needs no language model: it asks how much of a question's gold evidence (message
ids) is among the first k distinct ids a system ranked. Token F1 follows the SQuAD/LoCoMo
normalisation (lowercase; drop punctuation, commas, "a", "an", "the", "and"; split on
whitespace) without LoCoMo's Porter stemming, so it reads slightly below the official
figures on inflected answers.
"""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

DEFAULT_KS: tuple[int, ...] = (5, 10, 20)
OVERALL = "all"

_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def recall_at_k(ranked_ids: Sequence[str], gold: Collection[str], k: int) -> float:
    """Fraction of the distinct ``gold`` ids found among the first ``k`` distinct ranked ids.

    Repeats in ``ranked_ids`` do not use up the budget of ``k``. Raises ``ValueError`` for
    ``k < 1`` or empty ``gold`` (recall is undefined there; callers skip such questions),
    and ``TypeError`` when a bare string is passed where a sequence of ids is meant.
    """
    if isinstance(ranked_ids, str) or isinstance(gold, str):
        raise TypeError("ranked_ids and gold must be collections of ids, not a string")
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("recall is undefined without gold ids")
    top: set[str] = set()
    for item in ranked_ids:
        if len(top) == k:
            break
        top.add(item)
    return len(top & gold_set) / len(gold_set)


def normalize_answer(text: str) -> str:
    """Lowercase, drop punctuation and articles (and "and"), collapse whitespace."""
    text = text.lower().replace(",", "").translate(_PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def token_f1(prediction: str, reference: str) -> float:
    """Harmonic mean of token precision and recall after :func:`normalize_answer`.

    Two answers that both normalise to nothing score 1.0; exactly one empty scores 0.0.
    """
    pred = normalize_answer(prediction).split()
    ref = normalize_answer(reference).split()
    if not pred or not ref:
        return float(pred == ref)
    common = sum((Counter(pred) & Counter(ref)).values())
    if common == 0:
        return 0.0
    precision = common / len(pred)
    recall = common / len(ref)
    return 2 * precision * recall / (precision + recall)


@dataclass
class _Cell:
    """Running sums for one (system, category)."""

    ks: tuple[int, ...]
    count: int = 0
    recall_count: int = 0
    recall_sums: dict[int, float] = field(default_factory=dict)
    f1_count: int = 0
    f1_sum: float = 0.0

    def add(self, recalls: dict[int, float] | None, f1: float | None) -> None:
        self.count += 1
        if recalls is not None:
            self.recall_count += 1
            for k, value in recalls.items():
                self.recall_sums[k] = self.recall_sums.get(k, 0.0) + value
        if f1 is not None:
            self.f1_count += 1
            self.f1_sum += f1

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"count": self.count, "recall_count": self.recall_count}
        for k in self.ks:
            out[f"recall@{k}"] = (
                self.recall_sums.get(k, 0.0) / self.recall_count if self.recall_count else None
            )
        out["f1_count"] = self.f1_count
        out["f1"] = self.f1_sum / self.f1_count if self.f1_count else None
        return out


def _category_order(category: str) -> tuple[int, int, str]:
    # Numeric categories ("1".."5") in number order, then named ones alphabetically.
    return (0, int(category), "") if category.isdigit() else (1, 0, category)


class Tally:
    """Accumulates per-system, per-category means of recall@k and answer F1.

    A question counts towards recall only when it has gold ids and a ranking was given,
    and towards F1 only when a prediction was given; ``count`` counts every question added.
    Systems keep the order they were first added in.
    """

    def __init__(self, *, ks: Sequence[int] = DEFAULT_KS) -> None:
        if not ks or any(k < 1 for k in ks):
            raise ValueError("ks must be a non-empty sequence of positive integers")
        self.ks = tuple(ks)
        self._cells: dict[str, dict[str, _Cell]] = {}

    def add(
        self,
        system: str,
        *,
        category: str,
        ranked_ids: Sequence[str] | None = None,
        gold: Collection[str] = (),
        prediction: str | None = None,
        reference: str = "",
    ) -> None:
        """Score one question for ``system`` and add it to its category and to the overall."""
        recalls = None
        if ranked_ids is not None and gold:
            recalls = {k: recall_at_k(ranked_ids, gold, k) for k in self.ks}
        f1 = None if prediction is None else token_f1(prediction, reference)
        cells = self._cells.setdefault(system, {})
        for key in (OVERALL, category):
            cells.setdefault(key, _Cell(ks=self.ks)).add(recalls, f1)

    @property
    def systems(self) -> list[str]:
        return list(self._cells)

    def categories(self) -> list[str]:
        """Every category seen for any system, numeric ones first."""
        seen = {c for cells in self._cells.values() for c in cells if c != OVERALL}
        return sorted(seen, key=_category_order)

    def summary(self, system: str, category: str = OVERALL) -> dict[str, Any]:
        """Means and counts for one system (overall by default); KeyError if never added."""
        return self._cells[system][category].summary()

    def to_dict(self) -> dict[str, Any]:
        """``{"ks": [...], "systems": {name: {"overall": {...}, "categories": {cat: {...}}}}}``."""
        systems: dict[str, Any] = {}
        for name, cells in self._cells.items():
            systems[name] = {
                "overall": cells[OVERALL].summary(),
                "categories": {
                    c: cells[c].summary()
                    for c in sorted((c for c in cells if c != OVERALL), key=_category_order)
                },
            }
        return {"ks": list(self.ks), "systems": systems}

    def to_json(self) -> str:
        """:meth:`to_dict` as indented JSON; means are null where nothing was scored."""
        return json.dumps(self.to_dict(), indent=2)

    def to_markdown(self) -> str:
        """A side-by-side table of systems, then one row per (category, system)."""
        if not self._cells:
            return "_no results_\n"
        metrics = [f"recall@{k}" for k in self.ks] + ["f1"]
        head = [f"R@{k}" for k in self.ks] + ["F1"]
        lines = [
            "| system | n | " + " | ".join(head) + " |",
            "|---|---:|" + "---:|" * len(head),
        ]
        for name in self._cells:
            lines.append(_row([name], self.summary(name), metrics))
        lines += [
            "",
            "| category | system | n | " + " | ".join(head) + " |",
            "|---|---|---:|" + "---:|" * len(head),
        ]
        for category in self.categories():
            for name, cells in self._cells.items():
                if category in cells:
                    lines.append(_row([category, name], cells[category].summary(), metrics))
        return "\n".join(lines) + "\n"


def _row(labels: list[str], summary: dict[str, Any], metrics: list[str]) -> str:
    values = ["–" if summary[m] is None else f"{summary[m]:.3f}" for m in metrics]
    cells = [label.replace("|", "\\|") for label in labels]
    return "| " + " | ".join([*cells, str(summary["count"]), *values]) + " |"
