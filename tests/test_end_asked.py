""""What time does it finish" asks an end: a message giving only when it starts ("quiz
night thurs 7:30pm") does not answer it, and the memory says it holds no answer; a
message giving the end ("7:30-10pm", "finish time 10pm") does.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.chat_reader import channel_chat

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 3, 9, 0, tzinfo=UTC)


def test_a_start_time_does_not_answer_when_it_finishes(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [(0, "mel", "re quiz night - Sian says yes, thurs 7:30pm, "
                                              "max 6 teams")], start=START, asked=ASKED)
    assert chat.answer("what time does quiz night finish").abstained
    assert "7:30" in chat.first("what time does quiz night start")


@pytest.mark.parametrize("said", ["quiz night thurs 7:30-10pm, max 6 teams",
                                  "quiz night thurs 7:30pm, finish time 10pm"])
def test_an_end_said_answers_it(tmp_path: Path, said: str) -> None:
    chat = channel_chat(tmp_path, [(0, "mel", said)], start=START, asked=ASKED)
    assert "10" in chat.first("what time does quiz night finish")
