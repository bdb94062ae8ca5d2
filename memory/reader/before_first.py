"""The value a state had before its first entry: a plan a first change left, or the value its
first message names as replaced.

A state whose first value was reached by a change ("ok, migration moves to sat 19 july
then") had a plan before it that was never decided outright ("proposing the migration for
sat 12 july"); a first message may name the value it replaces ("tasting menu goes from £65
to £75", "up to $250 (was $100)"). Either is the chain's first value for *previous*,
*original*, *who* and *why* questions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.definitions import SpeechAct
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import QuestionAnalysis
from memory.models import ChainEntry, EvidenceNode, State
from memory.reader.answer_parts import OVERRIDE_CHANGE, _said_of
from memory.reader.word_forms import forms, unit_forms
from memory.text import find_slots, has_revision_cue, shorten

# "what did marcus first want to move it *to*?" asks the first value reached, not the one
# before it.
_ASKS_DESTINATION = re.compile(r"\b(?:to|into)\W{0,10}$", re.IGNORECASE)


def left_by_first(state: State, analyzer: MessageAnalyzer) -> str:
    """The value a state's first message names as the one it replaces, of the same kind;
    "" if none."""
    if not state.chain or not state.chain[0].value:
        return ""
    first = state.chain[0]
    analysis = analyzer.analyze(first.quote, speaker=first.speaker)
    for clause in analysis.clauses:
        stated = [v for v in clause.values if v.text == first.value]
        if stated:
            left = [o for o in clause.old if o.family == stated[0].family
                    and unit_forms(o.text) != unit_forms(first.value)]
            return left[0].text if left else ""
    return ""


def with_value_before(qa: QuestionAnalysis, state: State, covering: Sequence[EvidenceNode],
                      analyzer: MessageAnalyzer) -> State:
    """``state`` with the value before its first entry prepended, when one is known: the
    value its first message names as replaced, else the latest earlier message among
    ``covering`` stating a value of that kind about the same thing, when the first entry
    was reached by a change."""
    first = state.chain[0]
    left = "" if _ASKS_DESTINATION.search(qa.text) else left_by_first(state, analyzer)
    if left:
        was = first.model_copy(update={"value": left})
        return state.model_copy(update={"chain": [was, *state.chain]})
    analysis = analyzer.analyze(first.quote, speaker=first.speaker)
    if analysis.changes < OVERRIDE_CHANGE and not has_revision_cue(first.quote):
        return state
    kinds = {sl.family for sl in find_slots(first.value)}
    if not kinds:
        return state
    about = unit_forms(state.topic) | {f for t in qa.terms for f in forms(t)}
    ids = {e.node_id for e in state.chain}
    earlier = sorted((n for n in covering if n.ts < first.ts and n.node_id not in ids),
                     key=lambda n: (n.ts, n.seq), reverse=True)
    for node in earlier:
        said = analyzer.analyze(node.text, speaker=node.speaker)
        if said.act in (SpeechAct.REJECTION, SpeechAct.QUESTION):
            continue
        for claim in said.claims:
            value = claim.value.text
            if (claim.value.family not in kinds
                    or unit_forms(value) <= unit_forms(first.value)
                    or not (_said_of(said, value, about)
                            or unit_forms(state.topic) <= unit_forms(node.text))):
                continue
            plan = ChainEntry(node_id=node.node_id, message_id=node.message_id,
                              value=value, speaker=node.speaker, ts=node.ts,
                              quote=shorten(node.text, 300), verdict=first.verdict,
                              act=said.act.value)
            return state.model_copy(update={"chain": [plan, *state.chain]})
    return state
