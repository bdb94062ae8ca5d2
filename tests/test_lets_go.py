""""let's go X" chooses X, as "let's go with X" does; "let's go to the pub" and "let's go
ahead" do not name a choice."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 4, 28, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 5, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "value"), [
    ("ok let's go foundry rooms. tomas can you put a hold on 12 june", "foundry rooms"),
    ("let's go blackbird for now and judge at the tasting", "blackbird"),
])
def test_lets_go_names_the_choice(text: str, value: str) -> None:
    a = MessageAnalyzer().analyze(text)
    assert any(v.text == value and v.kind.value == "choice"
               for c in a.clauses for v in c.values)


@pytest.mark.parametrize("text", ["let's go ahead with it", "let's go!!", "let's go home"])
def test_lets_go_alone_names_nothing(text: str) -> None:
    a = MessageAnalyzer().analyze(text)
    assert not any(v.kind.value == "choice" for c in a.clauses for v in c.values)


def test_the_caterer_we_went_with_first(tmp_path: Path) -> None:
    # A guard of the reader over such a chat (it passed before "let's go X" was read as a
    # choice too: the shortlist names Blackbird first); the readings above are the change.
    chat = channel_chat(tmp_path, [
        (0, "priya", "caterer shortlist: Blackbird, Saffron & Sage, Olive Tree"),
        (60, "tom", "let's go blackbird for now and judge at the tasting"),
        (20000, "priya", "tasting was meh. switching caterer to saffron & sage"),
    ], start=T0, asked=ASKED)
    assert "blackbird" in chat.first("what caterer were we going with originally").lower()
