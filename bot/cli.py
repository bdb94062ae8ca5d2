"""The ``egmem`` command line: ingest, ask, history, stats, demo, and operator commands."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.app import build
from bot.render import answer_json, print_answer, print_history, state_json
from bot.runtime import Egmem
from bot.settings import Settings
from memory.errors import EgmemError, UserFacingError

logger = logging.getLogger(__name__)


def _settings(args: argparse.Namespace) -> Settings:
    s = Settings.from_env()
    return s.with_overrides(data=getattr(args, "data", None),
                            writer=getattr(args, "writer", None))


def _open(args: argparse.Namespace) -> Egmem:
    return build(_settings(args))


def cmd_ingest(args: argparse.Namespace) -> int:
    from bot.ingest import ingest_path

    eg = _open(args)
    try:
        report = ingest_path(eg, Path(args.path), progress=sys.stderr.isatty())
    finally:
        eg.close()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"read {report['records']} records: {report['new']} new, "
            f"{report['duplicates']} already known, {report['errors']} bad; "
            f"committed {report['committed']} messages, {report['edits']} edits, "
            f"{report['deletes']} deletes; {report['queued']} queued"
        )
    return 1 if report["errors"] and not report["records"] - report["errors"] else 0


def cmd_ask(args: argparse.Namespace) -> int:
    eg = _open(args)
    try:
        platform, space = _space_of(eg, args.channel, args.space)
        ans = eg.ask(args.question, platform=platform, space=space, user=args.as_user,
                     channel=args.channel, widen=args.widen)
    finally:
        eg.close()
    if args.json:
        print(json.dumps(answer_json(ans), indent=2, ensure_ascii=False))
    else:
        print_answer(ans)
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    eg = _open(args)
    try:
        platform, space = _space_of(eg, args.channel, args.space)
        states = eg.history(args.topic, platform=platform, space=space, user=args.as_user,
                            channel=args.channel, widen=args.widen)
    finally:
        eg.close()
    if args.json:
        print(json.dumps([state_json(s) for s in states], indent=2, ensure_ascii=False))
    else:
        print_history(states)
    return 0


def _space_of(eg: Egmem, channel: str | None, space: str | None) -> tuple[str, str]:
    """The platform/space of the asking channel (questions never cross spaces)."""
    if channel:
        for platform, sp, ch in eg.store.distinct_channels(_all()):
            if ch == channel and (space is None or sp == space):
                return platform, sp
        for c in eg.store.channels():
            if c.id == channel:
                return c.platform, c.space
        raise UserFacingError(f"no channel {channel!r} in this memory; see `egmem stats`")
    return "", space or ""


def _all() -> Any:
    from memory.models import Scope

    return Scope()


def cmd_stats(args: argparse.Namespace) -> int:
    eg = _open(args)
    try:
        stats = eg.stats()
    finally:
        eg.close()
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        for k, v in stats.items():
            print(f"{k}: {v}")
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    eg = _open(args)
    try:
        n = eg.store.reindex()
    finally:
        eg.close()
    print(f"lexical index rebuilt from {n} evidence nodes")
    return 0


def cmd_retry(args: argparse.Namespace) -> int:
    eg = _open(args)
    try:
        n = eg.inbox.retry_dead(args.seq or None)
        report = eg.drain()
    finally:
        eg.close()
    print(f"requeued {n} dead letters; committed {report.committed}, still failing {report.failed}")
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    eg = _open(args)
    try:
        if args.user:
            n = eg.forget_user(args.user)
            print(f"forgot {n} messages by {args.user}")
        else:
            if not (args.channel and args.message):
                raise UserFacingError("give --user ID, or --channel ID --message ID")
            platform, space = _space_of(eg, args.channel, None)
            ok = eg.forget_message(platform=platform, space=space, channel=args.channel,
                                   message_id=args.message)
            print("forgotten" if ok else "no such message (nothing stored for it)")
    finally:
        eg.close()
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from bot.demo import run_demo

    return run_demo(_settings(args))


def cmd_eval(args: argparse.Namespace) -> int:
    if args.dataset == "scenarios":
        return _eval_scenarios(args)
    if args.dataset == "locomo-abstain":
        return _eval_abstain(args)
    from memory.eval.harness import render_markdown, run_eval

    ablate = frozenset(args.ablate or ())
    result = run_eval(args.dataset, Path(args.path), k=args.k, limit=args.limit, ablate=ablate)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(render_markdown(result))
    return 0


def _eval_abstain(args: argparse.Namespace) -> int:
    from memory.eval.abstain import render_markdown, run_abstain

    trace = Path(args.trace) if args.trace else None
    result = run_abstain(Path(args.path), limit=args.limit, trace=trace)
    print(json.dumps(result, indent=2) if args.json else render_markdown(result))
    return 0


def _eval_scenarios(args: argparse.Namespace) -> int:
    from bot.scenarios import run_scenarios
    from memory.eval.scenarios import render_markdown

    trace = Path(args.trace) if args.trace else None
    result = run_scenarios(Path(args.path), trace=trace)
    print(json.dumps(result, indent=2) if args.json else render_markdown(result))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from bot.serve import serve

    return serve(_settings(args), args)


def cmd_backfill(args: argparse.Namespace) -> int:
    from bot.serve import backfill

    return backfill(_settings(args), args)


def cmd_why(args: argparse.Namespace) -> int:
    from bot.render import print_why

    eg = _open(args)
    try:
        print_why(eg, args.id, as_json=args.json)
    finally:
        eg.close()
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="egmem", description="Evidence-grounded team chat memory.")
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = p.add_subparsers(dest="command", required=True)

    def data(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--data", help="data directory or URI (default ./data, env EGMEM_DATA)")

    def scope(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--channel", help="the channel the question is asked from")
        sp.add_argument("--space", help="workspace/guild id (default: the channel's)")
        sp.add_argument("--as-user", dest="as_user",
                        help="answer only from what this user may read")
        sp.add_argument("--widen", action="store_true",
                        help="include the private channels the user belongs to")
        sp.add_argument("--json", action="store_true")

    sp = sub.add_parser("ingest", help="import JSONL, a Slack export or a Discord export")
    sp.add_argument("path")
    sp.add_argument("--writer", choices=["offline", "llm"])
    sp.add_argument("--json", action="store_true")
    data(sp)
    sp.set_defaults(func=cmd_ingest)

    sp = sub.add_parser("ask", help="answer a question with cited evidence")
    sp.add_argument("question")
    data(sp)
    scope(sp)
    sp.set_defaults(func=cmd_ask)

    sp = sub.add_parser("history", help="a decision's timeline: every value, who, when")
    sp.add_argument("topic")
    data(sp)
    scope(sp)
    sp.set_defaults(func=cmd_history)

    sp = sub.add_parser("stats", help="counts of messages, nodes, states, chains")
    sp.add_argument("--json", action="store_true")
    data(sp)
    sp.set_defaults(func=cmd_stats)

    sp = sub.add_parser("reindex", help="rebuild the lexical index from the tables")
    data(sp)
    sp.set_defaults(func=cmd_reindex)

    sp = sub.add_parser("retry", help="retry dead-lettered messages")
    sp.add_argument("seq", nargs="*", type=int)
    data(sp)
    sp.set_defaults(func=cmd_retry)

    sp = sub.add_parser("forget", help="remove a message or everything a user said")
    sp.add_argument("--user")
    sp.add_argument("--channel")
    sp.add_argument("--message")
    data(sp)
    sp.set_defaults(func=cmd_forget)

    sp = sub.add_parser("why", help="why egmem believes a state or node: proposal, checks")
    sp.add_argument("id")
    sp.add_argument("--json", action="store_true")
    data(sp)
    sp.set_defaults(func=cmd_why)

    sp = sub.add_parser("demo", help="ingest the bundled sample chat and answer its questions")
    data(sp)
    sp.set_defaults(func=cmd_demo)

    sp = sub.add_parser("eval", help="retrieval/answer evaluation on a public benchmark")
    sp.add_argument("dataset", choices=["locomo", "friendsqa", "qmsum", "scenarios",
                                        "locomo-abstain"])
    sp.add_argument("path")
    sp.add_argument("--k", type=int, default=10)
    sp.add_argument("--limit", type=int)
    sp.add_argument("--ablate", action="append",
                    choices=["reranker", "versioned-state", "single-round", "verification"])
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--trace", help="scenarios, locomo-abstain: write each question's "
                    "outcome as JSONL here")
    sp.set_defaults(func=cmd_eval)

    sp = sub.add_parser("serve", help="run the Slack or Discord bot, or the web view")
    sp.add_argument("platform", choices=["slack", "discord", "web"])
    sp.add_argument("--socket", action="store_true", help="Slack Socket Mode (development)")
    sp.add_argument("--http", action="store_true", help="Slack HTTP events (production)")
    sp.add_argument("--port", type=int, default=3000)
    sp.add_argument("--host", default="127.0.0.1")
    sp.add_argument("--writer", choices=["offline", "llm"])
    data(sp)
    sp.set_defaults(func=cmd_serve)

    sp = sub.add_parser("backfill", help="page through platform history into memory")
    sp.add_argument("platform", choices=["slack", "discord"])
    sp.add_argument("--channel")
    sp.add_argument("--since")
    data(sp)
    sp.set_defaults(func=cmd_backfill)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
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
