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
from memory.store.lock import DataDirBusy

logger = logging.getLogger(__name__)


def _settings(args: argparse.Namespace) -> Settings:
    s = Settings.from_env()
    return s.with_overrides(data=getattr(args, "data", None),
                            writer=getattr(args, "writer", None))


def _open(args: argparse.Namespace, *, write: bool = True) -> Egmem:
    """The memory for a command: a writer takes the data directory's lock (another writer
    gets a DataDirBusy naming the holder); a reader takes none and writes nothing."""
    return build(_settings(args), read_only=not write, command=_command(args))


def _command(args: argparse.Namespace) -> str:
    """How a lock holder is named to others: the command, never its arguments' text."""
    platform = getattr(args, "platform", None)
    return f"egmem {args.command}" + (f" {platform}" if platform else "")


def cmd_ingest(args: argparse.Namespace) -> int:
    from bot.ingest import ingest_path

    eg = _open(args)
    try:
        report = ingest_path(eg, Path(args.path), progress=sys.stderr.isatty(),
                             slack_url=args.slack_url)
        writer = getattr(eg.writer.proposer, "stats", None)
        if writer is not None and hasattr(writer, "snapshot"):
            report["writer"] = _writer_summary(writer.snapshot())
    finally:
        eg.close()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"read {report['records']} records: {report['new']} new, "
            f"{report['duplicates']} already known, {report['skipped']} skipped"
            + "".join(f"\n  skipped {n}: {why}" for why, n in report["skip_reasons"].items())
            + f"\n{report['errors']} bad; "
            f"committed {report['committed']} messages, {report['edits']} edits, "
            f"{report['deletes']} deletes; {report['queued']} queued"
        )
        notes = []
        if report["unknown_edits"]:
            notes.append(f"{report['unknown_edits']} edits of messages not in memory are kept "
                         "and apply when their message arrives")
        if report["conflicts"]:
            notes.append(f"{report['conflicts']} messages reuse a known id with other text "
                         "(the first text is kept)")
        if report["refused"]:
            notes.append(f"{report['refused']} deleted or forgotten messages were not stored")
        for note in notes:
            print(note)
        if "writer" in report:
            w = report["writer"]
            print(f"LLM writer ({w['path']} path): {w['proposals']} of {w['llm_messages']} "
                  f"messages proposed by the model ({w['model_share']:.0%}), "
                  f"{w['fallbacks']} by the offline fallback, {w['calls']} calls")
    if report["queued"]:
        # Never a silent success with messages left behind: the reason was logged above.
        print(f"egmem: {report['queued']} events are still queued; run the command again (or "
              f"`egmem retry`) once the cause above is fixed", file=sys.stderr)
        return EXIT_QUEUED
    return 1 if report["errors"] and not report["records"] - report["errors"] else 0


EXIT_QUEUED = 75  # EX_TEMPFAIL: nothing is lost, try again later


def _writer_summary(snap: dict[str, Any]) -> dict[str, Any]:
    keys = ("path", "path_notes", "llm_messages", "proposals", "fallbacks", "model_share",
            "calls", "repairs", "calls_per_message", "prompt_tokens_per_message",
            "completion_tokens_per_message")
    return {k: snap[k] for k in keys if k in snap}


def cmd_ask(args: argparse.Namespace) -> int:
    eg = _open(args, write=False)
    try:
        platform, space = _space_of(eg, args.channel, args.space, args.as_user)
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
    eg = _open(args, write=False)
    try:
        platform, space = _space_of(eg, args.channel, args.space, args.as_user)
        states = eg.history(args.topic, platform=platform, space=space, user=args.as_user,
                            channel=args.channel, widen=args.widen)
    finally:
        eg.close()
    if args.json:
        print(json.dumps([state_json(s) for s in states], indent=2, ensure_ascii=False))
    else:
        print_history(states)
    return 0


def _space_of(eg: Egmem, channel: str | None, space: str | None,
              user: str | None = None) -> tuple[str, str]:
    """The platform/space of the asking channel, or of ``space`` (questions never cross
    spaces). Without either, the operator's view spans everything; a question asked as a
    user needs its space, which is taken from the memory when it holds only one."""
    if channel:
        for platform, sp, ch in eg.store.distinct_channels(_all()):
            if ch == channel and (space is None or sp == space):
                return platform, sp
        for c in eg.store.channels():
            if c.id == channel:
                return c.platform, c.space
        raise UserFacingError(f"no channel {channel!r} in this memory; see `egmem stats`")
    spaces = {(p, sp) for p, sp, _ in eg.store.distinct_channels(_all())}
    spaces |= {(c.platform, c.space) for c in eg.store.channels()}
    if space:
        found = sorted(pair for pair in spaces if pair[1] == space)
        if not found:
            raise UserFacingError(f"no space {space!r} in this memory; see `egmem stats`")
        return found[0]
    if user is not None:
        if len(spaces) == 1:
            return next(iter(spaces))
        raise UserFacingError("with --as-user, give --space or --channel: a question is "
                              "answered within one workspace")
    return "", ""


def _all() -> Any:
    from memory.models import Scope

    return Scope()


def cmd_stats(args: argparse.Namespace) -> int:
    eg = _open(args, write=False)
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
    if not args.user and not (args.channel and args.message):
        raise UserFacingError("give --user ID, or --channel ID --message ID")
    try:
        eg = _open(args)
    except DataDirBusy as busy:
        return _queue_forget(args, busy)
    try:
        eg.apply_requests()  # forgets queued earlier, while another process wrote
        if args.user:
            n = eg.forget_user(args.user)
            print(f"forgot {n} messages by {args.user}")
        else:
            platform, space = _space_of(eg, args.channel, None)
            ok = eg.forget_message(platform=platform, space=space, channel=args.channel,
                                   message_id=args.message)
            print("forgotten" if ok else "no such message (nothing stored for it)")
    finally:
        eg.close()
    return 0


def _queue_forget(args: argparse.Namespace, busy: DataDirBusy) -> int:
    """Another process (``egmem serve``) writes the data directory: hand the forget to it
    through the inbox. What this process can do safely it does now: the messages are
    buried (refused from now on) and their queued or dead-lettered text is scrubbed."""
    eg = _open(args, write=False)
    try:
        if args.user:
            n = eg.queue_forget_user(args.user)
            what = f"the forget of {n} stored messages by {args.user}"
        else:
            platform, space = _space_of(eg, args.channel, None)
            eg.queue_forget_message(platform=platform, space=space, channel=args.channel,
                                    message_id=args.message)
            what = f"the forget of message {args.message}"
    finally:
        eg.close()
    holder = busy.holder.describe() if busy.holder else "another egmem process"
    print(f"{holder} is writing this data directory, so {what} is queued for it: it applies "
          "it at its next drain (within seconds for `egmem serve`). Nothing of it is "
          "accepted from now on, and its queued text is already gone. `egmem stats` shows "
          "requests still pending.")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from bot.demo import run_demo

    return run_demo(_settings(args))


def cmd_eval(args: argparse.Namespace) -> int:
    if args.dataset == "scenarios":
        return _eval_scenarios(args)
    if args.dataset == "locomo-abstain":
        return _eval_abstain(args)
    from egmem_eval.harness import render_markdown, run_eval

    ablate = frozenset(args.ablate or ())
    trace = Path(args.trace) if args.trace else None
    result = run_eval(args.dataset, Path(args.path), k=args.k, limit=args.limit, ablate=ablate,
                      trace=trace)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(render_markdown(result))
    return 0


def _eval_abstain(args: argparse.Namespace) -> int:
    from egmem_eval.abstain import render_markdown, run_abstain

    trace = Path(args.trace) if args.trace else None
    result = run_abstain(Path(args.path), limit=args.limit, trace=trace)
    print(json.dumps(result, indent=2) if args.json else render_markdown(result))
    return 0


def _eval_scenarios(args: argparse.Namespace) -> int:
    from bot.scenarios import run_scenarios
    from egmem_eval.scenarios import render_markdown

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


def cmd_check_llm(args: argparse.Namespace) -> int:
    """Probe the configured endpoint; exit 0 when egmem can use it, 2 when it cannot."""
    from bot.app import build_llm
    from memory.llm.client import UsageMeter
    from memory.llm.probe import probe

    settings = _settings(args)
    client = build_llm(settings, UsageMeter(), max_retries=1)  # a probe, not a workload
    if client is None:
        raise UserFacingError("no LLM endpoint configured: set EGMEM_LLM_BASE_URL (and "
                              "EGMEM_LLM_MODEL, EGMEM_LLM_API_KEY if the server needs one)")
    with client:
        report = probe(client)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        _print_probe(report)
    return 0 if report.reachable and not report.error else 2


def _print_probe(report: Any) -> None:
    from memory.llm.probe import DEFAULT_BATCH, MIN_CONTEXT_TOKENS

    def yes(value: bool | None) -> str:
        return "unknown" if value is None else "yes" if value else "no"

    print(f"endpoint: {report.url}  model: {report.model}")
    if not report.reachable:
        print(f"not usable: {report.error}")
        return
    choice = {"named": "forced by name", "required": "\"required\"",
              "none": "not forced (the server ignores or refuses tool_choice)"}
    tools = yes(report.tools)
    if report.tools:
        tools += f" (tool choice {choice.get(report.tool_choice or '', 'unknown')})"
        if report.calls_in_content:
            tools += "; calls arrive as text in the reply and are recovered"
    print(f"tool calls: {tools}")
    print(f"several calls in one reply: {yes(report.parallel_calls)} (optional)")
    print(f"JSON mode: {yes(report.json_mode)}")
    if report.batch_fits:
        print(f"context: a default writer call ({DEFAULT_BATCH} messages) fits")
    elif report.batch_fits is False:
        size = f"{report.context_tokens} tokens" if report.context_tokens else "too small"
        print(f"context: {size}; a default writer call ({DEFAULT_BATCH} messages) does not "
              f"fit, the writer sends at most {report.max_call_messages} per call. At least "
              f"{MIN_CONTEXT_TOKENS} tokens are needed, 8192 recommended (docs/LLM.md)")
    path = {"tools": "tools: one batched proposal call per batch of messages",
            "json": "JSON replies: the proposal schema in the prompt, the reply parsed",
            "offline": "offline: the endpoint's replies are unusable; the offline proposer "
                       "writes"}
    print(f"writer path: {path.get(report.path or '', report.path)}")
    if report.error:
        print(f"stopped early: {report.error}")
    for note in report.notes:
        print(f"  learned: {note}")


def cmd_why(args: argparse.Namespace) -> int:
    from bot.render import print_why

    eg = _open(args, write=False)
    try:
        print_why(eg, args.id, as_json=args.json)
    finally:
        eg.close()
    return 0


def cmd_feedback(args: argparse.Namespace) -> int:
    from bot.feedback import entry_json

    eg = _open(args)
    try:
        entries = eg.feedback_entries()
    finally:
        eg.close()
    if args.json:
        print(json.dumps([entry_json(e) for e in entries], indent=2, ensure_ascii=False))
    else:
        for e in entries:
            print(f"{e.at:%Y-%m-%d %H:%M} {'👍' if e.vote == 'up' else '👎'} {e.question!r} "
                  f"(asked by {e.asker} in {e.space}/{e.channel}; cites "
                  f"{', '.join(e.node_ids) or 'nothing'})")
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
    sp.add_argument("--slack-url", dest="slack_url",
                    help="the workspace URL (https://acme.slack.com) for message links, when a "
                         "Slack export does not reveal it")
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

    sp = sub.add_parser("feedback", help="👍/👎 people gave answers (--json: evaluation cases)")
    sp.add_argument("--json", action="store_true")
    data(sp)
    sp.set_defaults(func=cmd_feedback)

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
    data(sp)
    sp.set_defaults(func=cmd_serve)

    sp = sub.add_parser("check-llm", help="probe the LLM endpoint: tools, JSON mode, context "
                        "size, and the path egmem takes with it")
    sp.add_argument("--json", action="store_true")
    data(sp)
    sp.set_defaults(func=cmd_check_llm)

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
