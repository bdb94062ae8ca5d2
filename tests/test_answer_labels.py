"""What an answer prints says each thing once: someone who took a task on themself is not
named twice beside it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 2, 10, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 2, 20, 9, 0, tzinfo=UTC)


def test_a_self_named_owner_is_named_once(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "marco", "who owns the release notes for 3.2?"),
        (5, "elena", "release notes owner: elena"),
        (90, "tom", "reminder: freeze is friday"),
    ], start=T0, asked=ASKED)
    text = chat.answer("who owns the release notes?").answer
    assert "elena" in text.lower()
    assert "elena (elena" not in text.lower()

