"""A *when* answer from a state made whole: the day said with a time of day alone, the time
said with a day alone.

"when is the pt session?" of a state holding only a day gives the time kept beside it (a
"pt session time" facet, or the time its message says right after the day); "when is the
meetup?" of a state holding only "1–5pm" gives the day its message says with those hours
("📍 meetup TOMORROW: …, 1–5pm")."""

from __future__ import annotations

import dataclasses

from memory.analysis.definitions import TIME_FACET, QuestionKind
from memory.analysis.question import QuestionAnalysis
from memory.dates import weekday_day
from memory.models import EvidenceNode, State
from memory.reader.answer import citation, current_value
from memory.reader.answer_parts import Composed, chain_line, entry_value
from memory.reader.coverage import Coverage
from memory.reader.when_values import (
    calendar_date,
    clock_beside,
    day_beside,
    has_clock,
    has_day,
)

__all__ = ["with_time"]


def with_time(qa: QuestionAnalysis, state: State, composed: Composed, verdict: Coverage,
              nodes: dict[str, EvidenceNode]) -> Composed:
    """"when is the pt session?": a day said with the time kept beside it ("pt session
    time", written when a time was agreed for a plan holding only a day); a time said
    with the day beside it."""
    if qa.kind not in (QuestionKind.CURRENT, QuestionKind.WHEN) or qa.past \
            or qa.family != "when" or qa.asks_clock or not state.chain:
        return composed
    if has_clock(current_value(state)):
        return _with_day(state, composed, nodes)
    facet = f"{state.topic} {TIME_FACET}"
    timed = next((u.state for _, u in verdict.units if u.state is not None
                  and u.state.topic == facet and u.state.channel == state.channel
                  and u.state.chain and has_clock(current_value(u.state))), None)
    if timed is None or timed.chain[-1].ts < state.chain[-1].ts:
        # a time agreed before the day moved is not known to hold; the one said with the
        # day is ("sun 3 may, meet 4:30am")
        node = nodes.get(state.chain[-1].node_id)
        clock = clock_beside(node.text, state.chain[-1].value) if node is not None else ""
        if not clock:
            return composed
        return dataclasses.replace(composed, lines=[f"{composed.lines[0]}, {clock}",
                                                    *composed.lines[1:]],
                                   short=f"{composed.short}, {clock}")
    clock = entry_value(timed.chain[-1])
    lines = [f"{composed.lines[0]}, {clock}", *composed.lines[1:2], chain_line(timed),
             *composed.lines[2:]]
    node = nodes.get(timed.chain[-1].node_id)
    cites = [*composed.citations, *([citation(node)] if node is not None else [])]
    return dataclasses.replace(composed, lines=lines, short=f"{composed.short}, {clock}",
                               citations=cites, states=[*composed.states, timed])


def _with_day(state: State, composed: Composed, nodes: dict[str, EvidenceNode]) -> Composed:
    """"when is the meetup?" of a state holding a time of day alone: the day its message
    says with that time beside it ("📍 meetup TOMORROW: …, 1–5pm"), else the day it held
    before its hours moved."""
    value = current_value(state)
    node = nodes.get(state.chain[-1].node_id)
    if has_day(value) or node is None:
        return composed
    day = day_beside(node.text, value, node.ts)
    if not day and not has_day(node.text):
        # "start at 4:30 instead of 5" moves the hours of the day held before: that day,
        # if it is still ahead of the move (a day gone by was one of a series, or is past)
        held = next((d for e in reversed(state.chain[:-1]) if e.value and has_day(e.value)
                     and (d := calendar_date(e.value, e.ts, short=True)) is not None), None)
        day = weekday_day(held, "") if held is not None and held >= node.ts.date() else ""
    if not day:
        return composed
    return dataclasses.replace(composed, lines=[f"{composed.lines[0]}, {day}",
                                                *composed.lines[1:]],
                               short=f"{composed.short}, {day}")
