"""The ``egmem`` commands that feed memory and ask it (ingest, ask, history, stats, why,
feedback, demo), and what every command shares: settings, opening the memory, the space a
question is asked in."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.app import build
from bot.render import answer_json, print_answer, print_history, state_json
from bot.settings import Settings
from memory.errors import UserFacingError
from memory.ports import Directory, OperatorService


def settings_for(args: argparse.Namespace) -> Settings:
    s = Settings.from_env()
    return s.with_overrides(data=getattr(args, "data", None),
                            writer=getattr(args, "writer", None))


def open_memory(args: argparse.Namespace, *, write: bool = True) -> OperatorService:
    """The memory for a command: a writer takes the data directory's lock (another writer
    gets a DataDirBusy naming the holder); a reader takes none and writes nothing."""
    return build(settings_for(args), read_only=not write, command=_command(args))


def _command(args: argparse.Namespace) -> str:
    """How a lock holder is named to others: the command, never its arguments' text."""
    platform = getattr(args, "platform", None)
    return f"egmem {args.command}" + (f" {platform}" if platform else "")


def space_of(eg: Directory, channel: str | None, space: str | None,
              user: str | None = None) -> tuple[str, str]:
    """The platform/space of the asking channel, or of ``space`` (questions never cross
    spaces). Without either, the operator's view spans everything; a question asked as a
    user needs its space, which is taken from the memory when it holds only one."""
    if channel:
        for platform, sp, ch in eg.evidence_channels():
            if ch == channel and (space is None or sp == space):
                return platform, sp
        for c in eg.channel_records():
            if c.id == channel:
                return c.platform, c.space
        raise UserFacingError(f"no channel {channel!r} in this memory; see `egmem stats`")
    spaces = {(p, sp) for p, sp, _ in eg.evidence_channels()}
    spaces |= {(c.platform, c.space) for c in eg.channel_records()}
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


def cmd_ingest(args: argparse.Namespace) -> int:
    from bot.ingest import ingest_path

    eg = open_memory(args)
    try:
        report = ingest_path(eg, Path(args.path), progress=sys.stderr.isatty(),
                             slack_url=args.slack_url)
        writer = eg.writer_stats()
        if writer is not None:
            report["writer"] = _writer_summary(writer)
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
    eg = open_memory(args, write=False)
    try:
        platform, space = space_of(eg, args.channel, args.space, args.as_user)
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
    eg = open_memory(args, write=False)
    try:
        platform, space = space_of(eg, args.channel, args.space, args.as_user)
        states = eg.history(args.topic, platform=platform, space=space, user=args.as_user,
                            channel=args.channel, widen=args.widen)
    finally:
        eg.close()
    if args.json:
        print(json.dumps([state_json(s) for s in states], indent=2, ensure_ascii=False))
    else:
        print_history(states)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    eg = open_memory(args, write=False)
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


def cmd_why(args: argparse.Namespace) -> int:
    from bot.render import print_why

    eg = open_memory(args, write=False)
    try:
        print_why(eg, args.id, as_json=args.json)
    finally:
        eg.close()
    return 0


def cmd_feedback(args: argparse.Namespace) -> int:
    eg = open_memory(args)
    try:
        entries = eg.feedback_entries()
    finally:
        eg.close()
    if args.json:
        print(json.dumps([e.as_json() for e in entries], indent=2, ensure_ascii=False))
    else:
        for e in entries:
            print(f"{e.at:%Y-%m-%d %H:%M} {'👍' if e.vote == 'up' else '👎'} {e.question!r} "
                  f"(asked by {e.asker} in {e.space}/{e.channel}; cites "
                  f"{', '.join(e.node_ids) or 'nothing'})")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from bot.demo import run_demo

    return run_demo(settings_for(args))
