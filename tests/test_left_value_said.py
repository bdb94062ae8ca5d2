"""What it was before, in the changer's own words: a change that says what it replaced
("deposit is £20 pp not 15", "finals moving to 5pm not 6") answers "what was it before"
with that value (an hour taking the new one's am/pm), over a value the chain may have
misread.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.models import ChainEntry, State, Verdict
from memory.reader.before_anchor import said_left
from tests.support.chat_reader import turn_node, written_reader

START = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "current", "left"), [
    ("ps deposit is £20 pp not 15, they'd quoted last year's price", "£20", "15"),
    ("Could we start 2:30 instead of 3?", "2:30", "3"),
    ("fyi finals moving to 5pm not 6 - there's a private booking at 8", "5pm", "6pm"),
    ("review moved to thursday rather than friday", "thursday", "friday"),
    ("not sure, maybe 5", "5", ""),
    ("moving to 10:30, not 10", "10:30", "10"),
])
def test_said_left(text: str, current: str, left: str) -> None:
    replaced = [v.text for c in MessageAnalyzer().analyze(text).clauses for v in c.old]
    assert said_left(replaced, current) == left


def test_the_changers_word_over_a_misread_chain(tmp_path: Path) -> None:
    """The chain read the set menu's price as the deposit; the change itself says the
    deposit was 15."""
    texts = ["Lotus Garden can do Fri 11 Dec, set menu £32.50pp. They want a deposit of £20 "
             "each by 30 Oct", "ps deposit is £20 pp not 15, they'd quoted me last year's "
             "price. edited above"]
    nodes = {f"n{i}": turn_node(i, "ola", t, start=START) for i, t in enumerate(texts)}
    chain = [ChainEntry(node_id=f"n{i}", message_id=f"m{i}", value=v, speaker="ola",
                        ts=nodes[f"n{i}"].ts, quote=v,
                        verdict=Verdict.REVISE if i else Verdict.ESTABLISH)
             for i, v in enumerate(["£32", "£20"])]
    state = State(state_id="s1", platform="slack", space="T1", channel="C1", topic="deposit",
                  value="£20", active_node_id="n1", revision_count=1, updated_at=chain[-1].ts,
                  chain=chain)
    composer = written_reader(tmp_path, []).composer
    qa = analyze_question("what was the deposit before ola corrected it", DEFAULT_LEXICON)
    assert composer.from_state(qa, state, nodes, []).short == "15"


def test_the_llm_prompts_say_the_same() -> None:
    from memory.llm.prompts import WRITER_SYSTEM_PROMPT
    from memory.llm.reader_prompts import SYSTEM_PROMPT

    reader = " ".join(SYSTEM_PROMPT.split())
    writer = " ".join(WRITER_SYSTEM_PROMPT.split())
    assert "when that message says what it replaced ('£20 pp not 15'), that value" in reader
    assert "what stays the same ('same time same headcount') is no reason" in reader
    assert "a count ('9 confirmed') never replaces a place or a name" in writer
    assert "a reply that only agrees ('Correct', 'exactly') is no value" in writer
