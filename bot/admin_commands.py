"""The operator's ``egmem`` commands: reindex, retry, forget, eval, serve, backfill,
check-llm."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bot.commands import open_memory, settings_for, space_of
from memory.errors import UserFacingError
from memory.store.lock import DataDirBusy


def cmd_reindex(args: argparse.Namespace) -> int:
    eg = open_memory(args)
    try:
        n = eg.reindex()
    finally:
        eg.close()
    print(f"lexical index rebuilt from {n} evidence nodes")
    return 0


def cmd_retry(args: argparse.Namespace) -> int:
    eg = open_memory(args)
    try:
        n = eg.retry_dead(args.seq or None)
        report = eg.drain()
    finally:
        eg.close()
    print(f"requeued {n} dead letters; committed {report.committed}, still failing {report.failed}")
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    if not args.user and not (args.channel and args.message):
        raise UserFacingError("give --user ID, or --channel ID --message ID")
    try:
        eg = open_memory(args)
    except DataDirBusy as busy:
        return _queue_forget(args, busy)
    try:
        eg.apply_requests()  # forgets queued earlier, while another process wrote
        if args.user:
            n = eg.forget_user(args.user)
            print(f"forgot {n} messages by {args.user}")
        else:
            platform, space = space_of(eg, args.channel, None)
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
    eg = open_memory(args, write=False)
    try:
        if args.user:
            n = eg.queue_forget_user(args.user)
            what = f"the forget of {n} stored messages by {args.user}"
        else:
            platform, space = space_of(eg, args.channel, None)
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

    return serve(settings_for(args), args)


def cmd_backfill(args: argparse.Namespace) -> int:
    from bot.serve import backfill

    return backfill(settings_for(args), args)


def cmd_check_llm(args: argparse.Namespace) -> int:
    """Probe the configured endpoint; exit 0 when egmem can use it, 2 when it cannot."""
    from bot.app import build_llm
    from memory.llm.client import UsageMeter
    from memory.llm.probe import probe

    settings = settings_for(args)
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
