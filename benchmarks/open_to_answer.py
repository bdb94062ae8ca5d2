"""Open to first answer: one process opens an existing data directory and answers a question.

What a worker pays when it starts (``--write``: it takes the lock, reconciles the lexical
index, finishes interrupted commits) or what ``egmem ask`` pays (read-only), before its first
answer. One run prints its own split as JSON (``open_s``, ``answer_s``); ``--runs N`` runs
itself N times as separate processes and prints each figure's min / median / max, the wall
time of the whole process included::

    python benchmarks/open_to_answer.py --data /path/to/data --write --space T00SYNTH
    python benchmarks/open_to_answer.py --data /path/to/data --write --runs 5

Opening may write (a first writable open upgrades and reconciles): time a copy of the data
directory, first open and warm re-opens apart (see benchmarks/RESULTS.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

QUESTION = "What is the Ion staging region?"


def once(data: Path, *, write: bool, question: str | None, space: str | None
         ) -> dict[str, Any]:
    started = time.perf_counter()
    from bot.app import build
    from bot.settings import Settings

    eg = build(Settings.from_env().with_overrides(data=str(data)), read_only=not write,
               command="egmem bench")
    opened = time.perf_counter()
    cited = 0
    try:
        if question is not None:
            platform = "slack" if space else ""
            cited = len(eg.ask(question, platform=platform, space=space or "", user=None,
                               channel=None).citations)
    finally:
        eg.close()
    done = time.perf_counter()
    return {"write": write, "open_s": round(opened - started, 3),
            "answer_s": round(done - opened, 3), "total_s": round(done - started, 3),
            "cited": cited}


def repeat(argv: list[str], runs: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, __file__, *argv], check=True,
                             capture_output=True, text=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        row["process_s"] = round(time.perf_counter() - t0, 3)
        rows.append(row)
    figures = ("open_s", "answer_s", "total_s", "process_s")
    return {f: {"min": min(r[f] for r in rows), "median": statistics.median(r[f] for r in rows),
                "max": max(r[f] for r in rows)} for f in figures} | {"runs": runs}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--write", action="store_true", help="open as the worker does")
    ap.add_argument("--question", default=QUESTION)
    ap.add_argument("--space", default=None)
    ap.add_argument("--open-only", action="store_true",
                    help="open and close without asking: the opening's own cost")
    ap.add_argument("--runs", type=int, default=0, help="run N separate processes")
    args = ap.parse_args(argv)
    if args.runs:
        rest = ["--data", str(args.data), "--question", args.question,
                *(["--write"] if args.write else []),
                *(["--open-only"] if args.open_only else []),
                *(["--space", args.space] if args.space else [])]
        print(json.dumps(repeat(rest, args.runs)))
        return 0
    print(json.dumps(once(args.data, write=args.write,
                          question=None if args.open_only else args.question,
                          space=args.space)))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
