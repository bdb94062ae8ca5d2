"""Question words a chat rarely repeats: the head of "gala *night*" (the chat says "the
gala") and verbs that say what happened to the subject ("*committing*", "*pledged*") are
answered by the thing and its value; a question about a thing never discussed still gets no
answer."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.chat_reader import channel_chat

T0 = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 2, 20, 9, 0, tzinfo=UTC)

CHAT = [
    (0, "marcus", "run of show v1: doors 6:30, dinner 7:30, live auction after dessert"),
    (60, "colette", "gala tickets are $140 general admission, $100 for educators"),
    (2000, "freya", "galloway confirmed ✅ same dates 4-6 april. trip price goes up to £52 "
                    "each tho, the coach is going a lot further"),
    (3000, "hari", "Northgate signed! $15,000 presenting sponsorship, up from the $10k they "
                   "floated."),
    (4000, "marcus", "Correction on run of show — doors open at 6pm, not 6:30."),
    # the subjects are said often, so their words weigh little beside a word never said
    *((5000 + i, "freya", f"trip note {i}: {what}") for i, what in enumerate((
        "coach seats are assigned", "bring boots for the trip", "trip playlist is up",
        "who has the trip first aid kit", "trip rota for cooking", "trip photos folder",
        "northgate logo for the trip banner", "northgate wants a table at the gala",
        "northgate rep is coming to the gala", "trip packing list v2"))),
]


@pytest.mark.parametrize(("question", "value"), [
    ("What time do doors open on gala night?", "6pm"),
    ("How much did Northgate end up committing?", "15,000"),
])
def test_words_a_chat_does_not_repeat_are_answered(tmp_path: Path, question: str,
                                                   value: str) -> None:
    chat = channel_chat(tmp_path, CHAT, start=T0, asked=ASKED)
    assert value in chat.first(question)


@pytest.mark.parametrize("question", [
    "what's the parking situation at the gala?",
    "how much is the hotel per night?",
])
def test_things_never_discussed_still_get_no_answer(tmp_path: Path, question: str) -> None:
    chat = channel_chat(tmp_path, CHAT, start=T0, asked=ASKED)
    assert chat.answer(question).abstained
