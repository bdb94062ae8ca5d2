"""The ``egmem`` command line: its parser and entry point. The commands live in
:mod:`bot.commands` (feeding and asking memory) and :mod:`bot.admin_commands` (operating
it)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from bot.admin_commands import (
    cmd_backfill,
    cmd_check_llm,
    cmd_eval,
    cmd_forget,
    cmd_reindex,
    cmd_retry,
    cmd_serve,
)
from bot.commands import (
    cmd_ask,
    cmd_demo,
    cmd_feedback,
    cmd_history,
    cmd_ingest,
    cmd_stats,
    cmd_why,
)
from memory.errors import EgmemError, UserFacingError

logger = logging.getLogger(__name__)

Subparsers = argparse._SubParsersAction


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="egmem", description="Evidence-grounded team chat memory.")
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = p.add_subparsers(dest="command", required=True)
    _memory_commands(sub)
    _maintenance_commands(sub)
    _service_commands(sub)
    return p


def _data(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--data", help="data directory or URI (default ./data, env EGMEM_DATA)")


def _scope(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--channel", help="the channel the question is asked from")
    sp.add_argument("--space", help="workspace/guild id (default: the channel's)")
    sp.add_argument("--as-user", dest="as_user",
                    help="answer only from what this user may read")
    sp.add_argument("--widen", action="store_true",
                    help="include the private channels the user belongs to")
    sp.add_argument("--json", action="store_true")


def _memory_commands(sub: Subparsers[argparse.ArgumentParser]) -> None:
    sp = sub.add_parser("ingest", help="import JSONL, a Slack export or a Discord export")
    sp.add_argument("path")
    sp.add_argument("--writer", choices=["offline", "llm"])
    sp.add_argument("--slack-url", dest="slack_url",
                    help="the workspace URL (https://acme.slack.com) for message links, when a "
                         "Slack export does not reveal it")
    sp.add_argument("--json", action="store_true")
    _data(sp)
    sp.set_defaults(func=cmd_ingest)

    sp = sub.add_parser("ask", help="answer a question with cited evidence")
    sp.add_argument("question")
    _data(sp)
    _scope(sp)
    sp.set_defaults(func=cmd_ask)

    sp = sub.add_parser("history", help="a decision's timeline: every value, who, when")
    sp.add_argument("topic")
    _data(sp)
    _scope(sp)
    sp.set_defaults(func=cmd_history)

    sp = sub.add_parser("stats", help="counts of messages, nodes, states, chains")
    sp.add_argument("--json", action="store_true")
    _data(sp)
    sp.set_defaults(func=cmd_stats)


def _maintenance_commands(sub: Subparsers[argparse.ArgumentParser]) -> None:
    sp = sub.add_parser("reindex", help="rebuild the lexical index from the tables")
    _data(sp)
    sp.set_defaults(func=cmd_reindex)

    sp = sub.add_parser("retry", help="retry dead-lettered messages")
    sp.add_argument("seq", nargs="*", type=int)
    _data(sp)
    sp.set_defaults(func=cmd_retry)

    sp = sub.add_parser("forget", help="remove a message or everything a user said")
    sp.add_argument("--user")
    sp.add_argument("--channel")
    sp.add_argument("--message")
    _data(sp)
    sp.set_defaults(func=cmd_forget)

    sp = sub.add_parser("why", help="why egmem believes a state or node: proposal, checks")
    sp.add_argument("id")
    sp.add_argument("--json", action="store_true")
    _data(sp)
    sp.set_defaults(func=cmd_why)

    sp = sub.add_parser("feedback", help="👍/👎 people gave answers (--json: evaluation cases)")
    sp.add_argument("--json", action="store_true")
    _data(sp)
    sp.set_defaults(func=cmd_feedback)

    sp = sub.add_parser("demo", help="ingest the bundled sample chat and answer its questions")
    _data(sp)
    sp.set_defaults(func=cmd_demo)


def _service_commands(sub: Subparsers[argparse.ArgumentParser]) -> None:
    sp = sub.add_parser("eval", help="retrieval/answer evaluation on a public benchmark")
    sp.add_argument("dataset", choices=["locomo", "friendsqa", "qmsum", "scenarios",
                                        "locomo-abstain"])
    sp.add_argument("path")
    sp.add_argument("--k", type=int, default=10)
    sp.add_argument("--limit", type=int)
    sp.add_argument("--ablate", action="append",
                    choices=["reranker", "versioned-state", "single-round", "verification"])
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--trace", help="write each question's outcome (gold, gathered "
                    "evidence, answer) as JSONL here")
    sp.set_defaults(func=cmd_eval)

    sp = sub.add_parser("serve", help="run the Slack or Discord bot, or the web view")
    sp.add_argument("platform", choices=["slack", "discord", "web"])
    sp.add_argument("--socket", action="store_true", help="Slack Socket Mode (development)")
    sp.add_argument("--http", action="store_true", help="Slack HTTP events (production)")
    sp.add_argument("--port", type=int, help="listen here (default: 3000 for Slack HTTP "
                    "events, 8080 for the web view)")
    sp.add_argument("--host", default="127.0.0.1")
    sp.add_argument("--writer", choices=["offline", "llm"])
    _data(sp)
    sp.set_defaults(func=cmd_serve)

    sp = sub.add_parser("check-llm", help="probe the LLM endpoint: tools, JSON mode, context "
                        "size, and the path egmem takes with it")
    sp.add_argument("--json", action="store_true")
    _data(sp)
    sp.set_defaults(func=cmd_check_llm)

    sp = sub.add_parser("backfill", help="page through platform history into memory")
    sp.add_argument("platform", choices=["slack", "discord"])
    sp.add_argument("--channel")
    sp.add_argument("--since")
    _data(sp)
    sp.set_defaults(func=cmd_backfill)


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # Libraries' warnings are log records, not output: shown with -v or by ``serve``'s log.
    logging.captureWarnings(True)
    if not args.verbose and args.command != "serve":
        logging.getLogger("py.warnings").setLevel(logging.ERROR)
    try:
        code: int = args.func(args)
        return code
    except UserFacingError as exc:
        print(f"egmem: {exc}", file=sys.stderr)
        return 2
    except EgmemError as exc:
        print(f"egmem: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
