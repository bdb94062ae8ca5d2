"""A code given as digits ("door code for the commissary is 4417", "changed the lockbox code
to 7734") is a code: memory answers "what's the door code" from it instead of abstaining, and
still abstains where the chat holds no such code: a number that only follows "code" ("error
code 504", "area code 415") or counts something ("code down to 1200 lines") is none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.analysis.question_lexicon import SECRET_VALUE
from tests.support.chat_reader import ChannelChat, channel_chat

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 4, 20, 9, 0, tzinfo=UTC)

CHAT = [
    (0, "Harold", "Concert tickets will be £10 again this year."),
    (60, "Pete", "great"),
    (2000, "Harold", "Small change: concert tickets are £12 this year, the church hire has "
                     "gone up. Sorry all!"),
    (3000, "Priya", "new door code for the commissary is 4417, old one stops working friday"),
    (3010, "Lou", "got it"),
    (4000, "Fatima", "changed the 2A lockbox code to 7734, the showing agent left it open"),
    (5000, "Sam", "helix 1.5 shipped this morning"),
    (6000, "Leo", "code freeze moved to april 5, two more days for the auto"),
]


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> ChannelChat:
    return channel_chat(tmp_path_factory.mktemp("codes"), CHAT, start=T0, asked=ASKED)


@pytest.mark.parametrize(("question", "expect"), [
    ("whats the door code for the commissary", "4417"),
    ("what's the lockbox code on 2A", "7734"),
])
def test_answered(chat: ChannelChat, question: str, expect: str) -> None:
    answer = chat.answer(question)
    assert not answer.abstained
    assert expect in answer.answer.splitlines()[0]


@pytest.mark.parametrize("question", [
    "what's the wifi password?",
    "what's the alarm code for the storage unit?",
])
def test_still_abstains(chat: ChannelChat, question: str) -> None:
    assert chat.answer(question).abstained


@pytest.mark.parametrize(("text", "code"), [
    ("new door code for the commissary is 4417 (typo before, sorry)", True),
    ("changed the 2A lockbox to 7734", True),
    ("1379 is the gate code", True),
    ("pin: 0420", True),
    ("code freeze april 5", False),
    ("prod threw error code 504 again", False),
    ("area code 415", False),
    ("code review for pr 8812", False),
    ("refactor brought the billing code down to 1200 lines", False),
    ("gate code 1379", True),
    ("the code review for 2026", False),
    ("we need 300 codes", False),
])
def test_a_code_in_digits_is_a_secret(text: str, code: bool) -> None:
    assert bool(SECRET_VALUE.search(text)) is code
