"""``python -m egmem_eval DATASET PATH [--k K] [--limit N] [--ablate NAME ...]``.

Prints the Markdown tables and, with ``--json FILE``, writes the JSON result.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from egmem_eval.datasets import DATASET_NAMES
from egmem_eval.harness import render_markdown, run_eval
from memory.errors import EgmemError
from memory.reader.search import ABLATIONS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m egmem_eval",
                                     description="Evidence recall of egmem vs one-shot RAG.")
    parser.add_argument("dataset", choices=[*DATASET_NAMES, "locomo-abstain"])
    parser.add_argument("path", type=Path)
    parser.add_argument("--k", type=int, default=10, help="passages per search (default 10)")
    parser.add_argument("--limit", type=int, default=None, help="evaluate the first N questions")
    parser.add_argument("--ablate", action="append", default=[], choices=sorted(ABLATIONS))
    parser.add_argument("--json", type=Path, default=None, help="also write the JSON result")
    parser.add_argument("--trace", type=Path, default=None,
                        help="write one JSON line per question (for studying misses)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="keep the built stores here (default: a temporary folder)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)

    def progress(done: int, total: int) -> None:
        if not args.quiet and (done % 50 == 0 or done == total):
            print(f"\r{done}/{total} questions", end="" if done < total else "\n",
                  file=sys.stderr, flush=True)

    if args.dataset == "locomo-abstain":
        from egmem_eval.abstain import render_markdown as render_abstain
        from egmem_eval.abstain import run_abstain

        abstain = run_abstain(args.path, limit=args.limit, data_dir=args.data_dir,
                              trace=args.trace, progress=progress)
        print(render_abstain(abstain))
        if args.json is not None:
            args.json.write_text(json.dumps(abstain, indent=2) + "\n", encoding="utf-8")
        return 0
    try:
        result = run_eval(args.dataset, args.path, k=args.k, limit=args.limit,
                          ablate=frozenset(args.ablate), data_dir=args.data_dir,
                          trace=args.trace, progress=progress)
    except EgmemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(render_markdown(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
