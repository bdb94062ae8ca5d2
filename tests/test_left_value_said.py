"""What it was before, in the changer's own words: a change that says what it replaced
("deposit is £20 pp not 15", "finals moving to 5pm not 6") answers "what was it before"
with that value (an hour taking the new one's am/pm), over a value the chain may have
misread.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.reader.before_anchor import said_left
from tests.support.chat_reader import channel_chat

START = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 9, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "current", "left"), [
    ("ps deposit is £20 pp not 15, they'd quoted last year's price", "£20", "15"),
    ("Could we start 2:30 instead of 3?", "2:30", "3"),
    ("fyi finals moving to 5pm not 6 - there's a private booking at 8", "5pm", "6pm"),
    ("review moved to thursday rather than friday", "thursday", "friday"),
    ("not sure, maybe 5", "5", ""),
    ("moving to 10:30, not 10", "10:30", "10"),
])
def test_said_left(text: str, current: str, left: str) -> None:
    assert said_left(text, current) == left


def test_the_changers_word_on_what_it_was(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ola", "Lotus Garden can do Fri 11 Dec, upstairs room, set menu £32.50pp. They "
                   "want a deposit of £20 each by 30 Oct"),
        (30, "ola", "ps the party deposit is £20 pp not 15, they'd quoted me last year's "
                    "price. edited above"),
    ], start=START, asked=ASKED)
    first = chat.first("what was the party deposit before ola corrected it")
    assert "15" in first


def test_the_llm_prompts_say_the_same() -> None:
    from memory.llm.prompts import WRITER_SYSTEM_PROMPT
    from memory.llm.reader_prompts import SYSTEM_PROMPT

    reader = " ".join(SYSTEM_PROMPT.split())
    writer = " ".join(WRITER_SYSTEM_PROMPT.split())
    assert "when that message says what it replaced ('£20 pp not 15'), that value" in reader
    assert "what stays the same ('same time same headcount') is no reason" in reader
    assert "a count ('9 confirmed') never replaces a place or a name" in writer
    assert "a reply that only agrees ('Correct', 'exactly') is no value" in writer
