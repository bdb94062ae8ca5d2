"""Plain-text and JSON renderings of answers, timelines and audits for the CLI.

Chat text reaches the operator's terminal here: every piece of it printed as plain text
goes through :func:`printable`, which drops C0 and C1 control characters (escape sequences
could retitle the window, hide text or rewrite lines) but keeps newlines and tabs. JSON
output escapes them already.
"""

from __future__ import annotations

import json
import re
from typing import Any

from memory.models import Answer, State
from memory.ports import OperatorService
from memory.text import shorten

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: object) -> str:
    """``text`` without control characters other than newline and tab."""
    return _CONTROL.sub("", str(text))


def _ts(dt: Any) -> str:
    return str(dt.isoformat().replace("+00:00", "Z"))


def state_json(s: State) -> dict[str, Any]:
    active = next((c for c in s.chain if c.node_id == s.active_node_id), None)
    return {
        "state_id": s.state_id,
        "topic": s.topic,
        "value": s.value,
        "channel": s.channel,
        "active_message_id": active.message_id if active else None,
        "history": [
            {"message_id": c.message_id, "value": c.value, "speaker": c.speaker,
             "ts": _ts(c.ts), "quote": c.quote}
            for c in s.chain
        ],
    }


def answer_json(a: Answer) -> dict[str, Any]:
    return {
        "answer": a.answer,
        "abstained": a.abstained,
        "citations": [
            {"node_id": c.node_id, "message_id": c.message_id, "channel": c.channel,
             "speaker": c.speaker, "ts": _ts(c.ts), "quote": c.quote,
             "permalink": c.permalink}
            for c in a.citations
        ],
        "states": [state_json(s) for s in a.states],
        "rounds": a.rounds,
    }


def chain_line(s: State) -> str:
    parts = []
    for i, c in enumerate(reversed(s.chain)):
        when = c.ts.strftime("%b %d %H:%M")
        parts.append(("" if i == 0 else "was ") + f"{c.value} — {c.speaker}, {when}")
    return printable(" · ".join(parts))


def print_answer(a: Answer) -> None:
    print(printable(a.answer))
    for s in a.states:
        if len(s.chain) > 1:
            print(f"  {printable(s.topic)}: {chain_line(s)}")
    for c in a.citations:
        where = f"#{c.channel_name}" if c.channel_name else c.channel
        print(printable(f"  [{c.speaker}, {where}, {c.ts.strftime('%Y-%m-%d %H:%M')}] "
                        f"\"{shorten(c.quote, 140)}\""
                        + (f" <{c.permalink}>" if c.permalink else "")))


def print_history(states: list[State]) -> None:
    if not states:
        print("No matching decision found.")
    for s in states:
        print(printable(f"{s.topic} — now: {s.value}"))
        for c in reversed(s.chain):
            mark = "  *" if c.node_id == s.active_node_id else "   "
            print(printable(f"{mark} {c.ts.strftime('%Y-%m-%d %H:%M')}  {c.value:<24} "
                            f"{c.speaker}: \"{shorten(c.quote, 100)}\" ({c.message_id})"))


def print_why(eg: OperatorService, ident: str, *, as_json: bool) -> None:
    """The audit of a state or node: proposal, verification (with reasons) and evidence."""
    nodes = eg.why(ident, platform="", space="", user=None, channel=None)
    feedback = {n.node_id: [e.as_json() for e in eg.feedback_entries(node_id=n.node_id)]
                for n in nodes}
    out: list[dict[str, Any]] = [
        {
            "node_id": n.node_id, "message_id": n.message_id, "channel": n.channel,
            "speaker": n.speaker, "ts": _ts(n.ts), "text": n.text, "rewrite": n.rewrite,
            "state_id": n.state_id, "verdict": n.verdict.value, "value": n.value,
            "supersedes": n.supersedes,
            "proposal": n.proposal.model_dump(mode="json") if n.proposal else None,
            "verification": n.verification.model_dump(mode="json") if n.verification else None,
            "feedback": feedback[n.node_id],
        }
        for n in nodes
    ]
    if as_json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return
    if not out:
        print(printable(f"nothing stored under {ident!r}"))
    for o in out:
        print(printable(f"{o['node_id']} ({o['speaker']}, {o['ts']}): "
                        f"\"{shorten(o['text'], 120)}\""))
        prop = o["proposal"] or {}
        print(printable(f"  proposed by {prop.get('proposer', '?')}: {prop.get('verdict')} "
                        f"topic={prop.get('topic')!r} quote={prop.get('source_quote')!r} "
                        f"prior={prop.get('prior_state_id')}"))
        ver = o["verification"] or {}
        print(printable(f"  verified: {ver.get('outcome')} as {ver.get('verdict')}"
                        + (f" — {'; '.join(ver.get('reasons') or [])}"
                           if ver.get("reasons") else "")))
        print(printable(f"  committed: {o['verdict']} state={o['state_id']} "
                        f"value={o['value']!r} supersedes={o['supersedes']}"))
        for fb in o["feedback"]:
            print(printable(f"  feedback: {'👍' if fb['vote'] == 'up' else '👎'} from "
                            f"{fb['rater']} on {fb['question']!r} ({fb['at']})"))
