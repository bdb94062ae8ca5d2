"""The turns a *why* question reads around the changes it may ask about: the changes
themselves (a state's revisions, the best covering messages, the messages taking the
alternative a question names), the turns just before each (where a blocker said by someone
else is often the reason) and the turn explaining it when someone asked why just after."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from memory.analysis.question import QuestionAnalysis
from memory.models import EvidenceNode, State
from memory.reader.alternatives import chosen_over
from memory.reader.coverage import Coverage
from memory.reader.reasons import Reasons
from memory.reader.tools import ReaderSession, ReaderTools
from memory.reader.word_forms import forms, unit_forms

__all__ = ["REASON_SOURCES", "REASON_TURNS", "REASON_WITHIN", "asked_after", "changes",
           "turns_before"]

# How many turns before a change, and how far back, may hold its reason.
REASON_TURNS = 3
REASON_WITHIN = timedelta(hours=6)
# ... and before how many of the best covering messages.
REASON_SOURCES = 3


def changes(qa: QuestionAnalysis, session: ReaderSession, states: Sequence[State],
            verdict: Coverage) -> list[EvidenceNode]:
    """The changes a why may ask about: those of the states read, the best covering
    messages (a change the writer did not chain), and those naming the alternative a
    question says was taken ("why ArtMove and not Nordvik")."""
    ids = [e.node_id for s in states for e in s.chain[1:]]
    ids += [u.node.node_id for _, u in verdict.units[:REASON_SOURCES] if u.node is not None]
    pair = chosen_over(qa.text)
    if pair is not None:
        taken = forms(pair[0].lower())
        ids += [u.node.node_id for s, u in verdict.units
                if u.node is not None and s > 0 and taken & unit_forms(u.node.text)]
    return [n for i in dict.fromkeys(ids) if (n := session.nodes.get(i)) is not None]


def turns_before(tools: ReaderTools, session: ReaderSession,
                 changed: Sequence[EvidenceNode]) -> dict[str, list[EvidenceNode]]:
    """The turns just before each change, newest first, where a blocker said by someone
    else is often the reason ("we can't have the ledger down that night" → "ok, the 19th
    then")."""
    out: dict[str, list[EvidenceNode]] = {}
    for node in changed:
        turns = tools.turns_before(node, session.scope, n=REASON_TURNS, within=REASON_WITHIN)
        for turn in turns:
            session.nodes.setdefault(turn.node_id, turn)
        out[node.node_id] = turns
    return out


def asked_after(tools: ReaderTools, reasons: Reasons, session: ReaderSession,
                changed: Sequence[EvidenceNode]) -> dict[str, EvidenceNode]:
    """For each change, the turn explaining it when someone asked why just after."""
    out: dict[str, EvidenceNode] = {}
    for node in changed:
        # (in its thread too: "adult tickets going up to £14" → "why the jump?")
        turns = tools.replies_after(node, session.scope, n=REASON_TURNS + 1,
                                    within=REASON_WITHIN)
        told = reasons.asked_after(node, turns)
        if told is not None:
            session.nodes.setdefault(told.node_id, told)
            out[node.node_id] = told
    return out
