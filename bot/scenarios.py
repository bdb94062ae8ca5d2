"""``egmem eval scenarios PATH``: scenario workspaces through the real write and read paths.

Each workspace is ingested into a fresh data directory exactly as ``egmem ingest`` would, then
every question is asked as its asker from its channel, as ``egmem ask --as-user`` would.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot.app import build
from bot.ingest import ingest_path
from bot.settings import Settings
from egmem_eval.scenarios import Outcome, judge, load_workspace, tabulate, workspace_files
from memory.embeddings import Embedder, MiniLMEmbedder
from memory.models import utc
from memory.ports import OperatorService


def run_scenarios(path: Path, *, embedder: Embedder | None = None,
                  trace: Path | None = None) -> dict[str, Any]:
    """Evaluate every scenario workspace at ``path``; returns the JSON-able result."""
    emb = embedder or MiniLMEmbedder()
    outcomes: list[Outcome] = []
    names: list[str] = []
    messages = 0
    for file in workspace_files(path):
        ws = load_workspace(file)
        names.append(ws.name)
        work = Path(tempfile.mkdtemp(prefix=f"egmem-scenario-{ws.name}-"))
        try:
            records = work / "records.jsonl"
            records.write_text("\n".join(ws.records) + "\n", encoding="utf-8")
            eg: OperatorService = build(Settings(data=str(work / "data")), embedder=emb)
            try:
                report = ingest_path(eg, records)
                messages += int(report["new"])
                reference = _after_last_message(ws.records)
                for q in ws.questions:
                    ans = eg.ask(q.text, platform=ws.platform, space=ws.space, user=q.asker,
                                 channel=q.channel, widen=q.widen, reference=reference)
                    passed, reason = judge(q, ans)
                    outcomes.append(Outcome(
                        workspace=ws.name, question=q, passed=passed, reason=reason,
                        answer=ans.answer, abstained=ans.abstained,
                        cited=[c.message_id for c in ans.citations], coverage=ans.coverage))
            finally:
                eg.close()
        finally:
            shutil.rmtree(work, ignore_errors=True)
    result: dict[str, Any] = {"workspaces": names, "messages": messages,
                              "summary": tabulate(outcomes)}
    if trace is not None:
        trace.write_text("\n".join(json.dumps(o.as_json(), ensure_ascii=False)
                                   for o in outcomes) + "\n", encoding="utf-8")
    return result


def _after_last_message(records: list[str]) -> datetime | None:
    """Questions are asked a minute after the workspace's last message."""
    last: datetime | None = None
    for line in records:
        rec = json.loads(line)
        if rec.get("type") != "message" or "ts" not in rec:
            continue
        raw = rec["ts"]
        ts = (datetime.fromtimestamp(float(raw)) if isinstance(raw, int | float)
              else datetime.fromisoformat(str(raw)))
        ts = utc(ts)
        last = ts if last is None or ts > last else last
    return last + timedelta(minutes=1) if last else None
