"""A second writer next to a running bot: `egmem ingest`/`egmem backfill` beside `egmem serve`
must not write into the same data directory, and must say who holds it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_a_second_writer_gets_a_clear_error_naming_the_holder(tmp_path: Path) -> None:
    from bot.app import build
    from bot.settings import Settings

    data = tmp_path / "data"
    holder = build(Settings(data=str(data), embedder="hashing"))  # the running `serve`
    records = tmp_path / "one.jsonl"
    records.write_text(json.dumps({
        "type": "message", "platform": "slack", "space": "T1", "channel": "C1", "id": "1",
        "user": "U1", "ts": "2024-04-01T09:00:00Z", "text": "deploy window is Friday"}) + "\n")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "ingest", str(records), "--data", str(data)],
            env={**os.environ, "EGMEM_EMBEDDER": "hashing"}, cwd=ROOT, capture_output=True,
            text=True, timeout=120)
        assert done.returncode == 2  # a user-facing error, not a traceback
        assert "Traceback" not in done.stderr
        assert str(os.getpid()) in done.stderr  # names the process holding the directory
        assert holder.stats()["messages"] == 0  # nothing was written beside it
    finally:
        holder.close()
