"""Scenario workspaces: hand-written team chats with the questions their members would ask.

The format is ``benchmarks/scenarios/README.md``: the normalized import records plus
``question`` records. This module reads question records, decides whether an answer passes
and tabulates accuracy per question kind; ``bot.scenarios`` runs the workspaces through the
real write and read paths.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory.errors import InputError
from memory.models import Answer

KINDS = ("current", "previous", "who", "when", "why", "unanswerable", "not_permitted")
ABSTAINING = frozenset({"unanswerable", "not_permitted"})


@dataclass(frozen=True)
class ScenarioQuestion:
    id: str
    asker: str
    channel: str
    text: str
    kind: str
    expect: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()
    widen: bool = False

    @property
    def answerable(self) -> bool:
        return self.kind not in ABSTAINING


@dataclass
class Workspace:
    """One scenario file split into its import records (as JSONL lines) and its questions."""

    name: str
    records: list[str] = field(default_factory=list)
    questions: list[ScenarioQuestion] = field(default_factory=list)
    platform: str = ""
    space: str = ""


def load_workspace(path: Path) -> Workspace:
    """Read a scenario file; InputError names the file and line of a bad question."""
    ws = Workspace(name=path.stem)
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON: {exc.msg}", source=str(path), line=i) from exc
        if not isinstance(rec, dict):
            raise InputError("a record must be a JSON object", source=str(path), line=i)
        if rec.get("type") != "question":
            if rec.get("type") == "message" and not ws.space:
                ws.platform, ws.space = str(rec.get("platform", "")), str(rec.get("space", ""))
            ws.records.append(line)
            continue
        ws.questions.append(_question(rec, source=str(path), line=i))
    return ws


def _question(rec: dict[str, Any], *, source: str, line: int) -> ScenarioQuestion:
    kind = str(rec.get("kind", ""))
    if kind not in KINDS:
        raise InputError(f"unknown question kind {kind!r}", source=source, line=line)
    try:
        return ScenarioQuestion(
            id=str(rec["id"]), asker=str(rec["asker"]), channel=str(rec["channel"]),
            text=str(rec["text"]), kind=kind,
            expect=tuple(str(e) for e in rec.get("expect", ())),
            forbid=tuple(str(f) for f in rec.get("forbid", ())),
            evidence=tuple(str(e) for e in rec.get("evidence", ())),
            widen=bool(rec.get("widen", False)),
        )
    except KeyError as exc:
        raise InputError(f"a question needs {exc.args[0]!r}", source=source, line=line) from exc


def workspace_files(path: Path) -> list[Path]:
    """The scenario files at ``path``: the file itself, or every ``*.jsonl`` below it."""
    if path.is_file():
        return [path]
    files = sorted(path.rglob("*.jsonl"))
    if not files:
        raise InputError("no *.jsonl scenario files found", source=str(path))
    return files


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def first_line(answer: Answer) -> str:
    """The line a user reads first."""
    lines = [ln for ln in answer.answer.splitlines() if ln.strip()]
    return lines[0] if lines else ""


def judge(question: ScenarioQuestion, answer: Answer) -> tuple[bool, str]:
    """Whether ``answer`` passes ``question``, and why not when it does not."""
    if not question.answerable:
        return (True, "") if answer.abstained else (False, "answered instead of abstaining")
    if answer.abstained:
        return False, "abstained"
    line = _norm(first_line(answer))
    for entry in question.expect:
        options = [_norm(o) for o in entry.split("|") if o.strip()]
        if not any(o in line for o in options):
            return False, f"missing {entry!r}"
    for entry in question.forbid:
        if _norm(entry) and _norm(entry) in line:
            return False, f"holds forbidden {entry!r}"
    return True, ""


@dataclass
class Outcome:
    workspace: str
    question: ScenarioQuestion
    passed: bool
    reason: str
    answer: str
    abstained: bool
    cited: list[str]
    coverage: float | None = None

    def as_json(self) -> dict[str, Any]:
        q = self.question
        return {"workspace": self.workspace, "id": q.id, "kind": q.kind, "question": q.text,
                "passed": self.passed, "reason": self.reason, "answer": self.answer,
                "abstained": self.abstained, "cited": self.cited, "coverage": self.coverage,
                "evidence": list(q.evidence),
                "evidence_cited": bool(set(q.evidence) & set(self.cited)) if q.evidence
                else None}


def tabulate(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Accuracy per kind, plus answered-when-answerable and abstained-when-unanswerable."""
    per_kind: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        these = [o for o in outcomes if o.question.kind == kind]
        if these:
            passed = sum(o.passed for o in these)
            per_kind[kind] = {"n": len(these), "passed": passed,
                              "accuracy": round(passed / len(these), 3)}
    answerable = [o for o in outcomes if o.question.answerable]
    unanswerable = [o for o in outcomes if not o.question.answerable]
    return {
        "questions": len(outcomes),
        "accuracy": _rate(o.passed for o in outcomes),
        "per_kind": per_kind,
        "answered_when_answerable": _rate(not o.abstained for o in answerable),
        "abstained_when_unanswerable": _rate(o.abstained for o in unanswerable),
    }


def _rate(flags: Iterable[bool]) -> float:
    values = list(flags)
    return round(sum(values) / len(values), 3) if values else 0.0


def render_markdown(result: dict[str, Any]) -> str:
    """The per-kind table of :func:`tabulate`'s result (with its workspace list)."""
    table = result["summary"]
    lines = [
        f"Scenario evaluation: {result['messages']} messages, {table['questions']} questions "
        f"in {len(result['workspaces'])} workspaces ({', '.join(result['workspaces'])})",
        "",
        "| kind | n | passed | accuracy |",
        "|---|---|---|---|",
    ]
    for kind, row in table["per_kind"].items():
        lines.append(f"| {kind} | {row['n']} | {row['passed']} | {row['accuracy']:.3f} |")
    lines += [
        f"| **all** | {table['questions']} | "
        f"{sum(r['passed'] for r in table['per_kind'].values())} | {table['accuracy']:.3f} |",
        "",
        f"Answerable questions answered: {table['answered_when_answerable']:.3f}; "
        f"unanswerable or not permitted abstained: {table['abstained_when_unanswerable']:.3f}.",
    ]
    return "\n".join(lines)
