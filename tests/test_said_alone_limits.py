"""What a short reply or a plain clause may and may not set: "Correct" agrees and is no value;
"8 confirmed" says how many, never where; "we start at 8:30am" times the start when no other
subject is said; "before the 14 deal" names a change, not a day.
"""

from __future__ import annotations

import numpy as np
import pytest

from memory.analysis.definitions import QuestionKind
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.analysis.said_alone import Bare, bare_value
from memory.registry import StateRecord
from memory.terse_replies import _fits


@pytest.mark.parametrize("text", ["Correct", "Exactly", "Indeed", "Confirmed"])
def test_agreeing_words_are_no_value(text: str) -> None:
    assert bare_value(text) is None


@pytest.mark.parametrize(("reply", "fits"), [
    ("8 confirmed", False), ("12 ppl so far", False), ("Cedar Lake", True),
])
def test_a_count_said_alone_is_no_place(reply: str, fits: bool) -> None:
    bare = Bare(reply, numeric=False, settled=True)
    camp = StateRecord(state_id="s1", platform="slack", space="T1", channel="C1",
                       topic="campsite", description="", value="Pine Flats",
                       value_family="where", active_node_id="n1", revision_count=0,
                       created_ts=0.0, updated_ts=0.0, vector=np.zeros(4))
    assert _fits(bare, camp, frozenset()) is fits


@pytest.mark.parametrize(("text", "subject"), [
    ("From Monday 4 May we start at 8:30am sharp (not 9)", "start"),
    ("ok so we finish at 9:30 on the night", "finish"),
])
def test_a_gathering_timed_by_its_verb(text: str, subject: str) -> None:
    analysis = MessageAnalyzer().analyze(text)
    assert any(c.subject == subject and c.claims for c in analysis.clauses)


def test_a_number_before_a_noun_after_before_names_a_change() -> None:
    qa = analyze_question("how many crates were we ordering before the 14 deal",
                          DEFAULT_LEXICON)
    assert qa.kind is QuestionKind.PREVIOUS
    day = analyze_question("what was the deadline before the 21st", DEFAULT_LEXICON)
    assert day.kind is QuestionKind.PREVIOUS
