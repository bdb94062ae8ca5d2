"""``egmem demo``: ingest the bundled team chat and answer its sample questions with evidence."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from bot.app import build
from bot.ingest import ingest_path
from bot.settings import Settings
from memory.models import Answer
from memory.ports import OperatorService
from memory.text import shorten


def sample_paths() -> tuple[Path, Path]:
    base = resources.files("bot") / "sample"
    return Path(str(base / "team_chat.jsonl")), Path(str(base / "questions.json"))


def load_questions(path: Path) -> list[dict[str, Any]]:
    """The sample questions: ``question``, asked by ``as_user`` in ``channel``; ``first``
    (must be on the answer's first line: what was asked), ``expect`` (must be in the
    answer), ``stale`` (superseded values: history may show them, the first line must
    not), ``forbid`` (what the asker cannot read: nowhere in the answer, its citations or
    states) and ``abstain`` (memory holds no answer the asker may read).
    tests/test_sample_questions.py checks them."""
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def render(ans: Answer) -> list[str]:
    """The answer as the demo prints it: its lines, then the other messages it cites (or,
    for an abstention, how many closest messages a user could unfold)."""
    lines = ans.answer.splitlines()
    out = [f"A: {lines[0]}" if lines else "A:"] + [f"   {ln}" for ln in lines[1:]]
    if ans.abstained:
        if ans.closest:
            out.append(f"   ({len(ans.closest)} closest messages you can read, collapsed)")
        return out
    # The answer's own lines already quote its main evidence: list only the other messages.
    shown = [c for c in ans.citations if c.quote[:60] not in ans.answer]
    for c in shown[:3]:
        where = f"#{c.channel_name}" if c.channel_name else c.channel
        out.append(f"   ↳ {c.speaker} in {where}, {c.ts.strftime('%b %d %H:%M')}: "
                   f"\"{shorten(c.quote, 110)}\"")
    return out


def run_demo(settings: Settings) -> int:
    chat, questions = sample_paths()
    eg: OperatorService = build(settings)
    try:
        report = ingest_path(eg, chat)
        stats = eg.stats()
        print(f"Ingested the sample team chat into {settings.data}: {report['records']} records, "
              f"{stats['evidence_nodes']} evidence nodes, {stats['states']} states, "
              f"{stats['chains_with_revisions']} revised decisions.\n")
        for q in load_questions(questions):
            platform, space = "slack", "T0ACME"
            ans = eg.ask(q["question"], platform=platform, space=space, user=q.get("as_user"),
                         channel=q.get("channel"))
            print(f"Q ({q.get('as_user')} in {q.get('channel')}): {q['question']}")
            print("\n".join(render(ans)))
            print()
    finally:
        eg.close()
    return 0
