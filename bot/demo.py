"""``egmem demo``: ingest the bundled team chat and answer its sample questions with evidence."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from bot.app import build
from bot.ingest import ingest_path
from bot.render import chain_line
from bot.settings import Settings
from memory.text import shorten


def sample_paths() -> tuple[Path, Path]:
    base = resources.files("bot") / "sample"
    return Path(str(base / "team_chat.jsonl")), Path(str(base / "questions.json"))


def load_questions(path: Path) -> list[dict[str, Any]]:
    """The sample questions: ``question``, asked by ``as_user`` in ``channel``; ``expect``
    (must be in the answer), ``stale`` (superseded values: history may show them, the
    current answer must not be one) and ``forbid`` (what the asker cannot read: nowhere in
    the answer, its citations or states). tests/test_sample_questions.py checks them."""
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def run_demo(settings: Settings) -> int:
    chat, questions = sample_paths()
    eg = build(settings)
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
            print(f"A: {ans.answer}")
            for s in ans.states[:2]:
                if len(s.chain) > 1:
                    print(f"   chain — {s.topic}: {chain_line(s)}")
            for c in ans.citations[:3]:
                where = f"#{c.channel_name}" if c.channel_name else c.channel
                print(f"   ↳ {c.speaker} in {where}, {c.ts.strftime('%b %d %H:%M')}: "
                      f"\"{shorten(c.quote, 110)}\"")
            print()
    finally:
        eg.close()
    return 0
