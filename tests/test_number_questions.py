"""A question asking how many, or for a number ("what's the planning ref number"), is
answered by a number that is neither a day nor a time ("the Ferry Inn wants bread from mon
11 may, 7am drop" counts nothing), and for an identifying number not an amount either; a
word with emphasis after it ("wrong place!!"), a mention or a channel is no secret."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question_lexicon import SECRET_VALUE
from tests.support.chat_reader import ChannelChat, channel_chat

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def bakery(tmp_path_factory: pytest.TempPathFactory) -> ChannelChat:
    return channel_chat(tmp_path_factory.mktemp("bakery"), [
        (0, "dev", "new wholesale customer 🙌 the Ferry Inn wants bread from mon 11 may, "
                   "rolls + sourdough, 7am drop. sorting quantities with their chef"),
        (10, "maggie", "brilliant dev 👏"),
        (600, "maggie", "sorry wrong place!! ask me or pete for the new safe code"),
        (900, "dan", "Millbrook submitted on the portal ✅ ref to follow, fee was £462"),
        (1200, "sal", "bluebird wants 24 sourdough on tue + fri from next week"),
    ], start=T0, asked=ASKED, channel_name="general")


@pytest.mark.parametrize("question", [
    "how many sourdough does the ferry inn take",
    "what's the new safe code?",
    "what's the planning ref number for millbrook",
])
def test_no_number_of_the_kind_asked_abstains(bakery: ChannelChat, question: str) -> None:
    assert bakery.answer(question).abstained


def test_a_count_is_still_answered(bakery: ChannelChat) -> None:
    answer = bakery.answer("how many sourdough does bluebird want")
    assert not answer.abstained
    assert "24" in answer.answer.splitlines()[0]


@pytest.mark.parametrize("text", ["sorry wrong place!! ask me", "ping @channel now",
                                  "see #general", "wow!!!"])
def test_emphasis_mentions_and_channels_are_no_secret(text: str) -> None:
    assert SECRET_VALUE.search(text) is None


@pytest.mark.parametrize("text", ["wifi is hunter2!", "pw: Tr0ub4dor&3", "the code is 4417",
                                  "guest wifi password is Welcome!",
                                  "wifi: network CoffeeHouse, password Espresso!!",
                                  "alarm code is #Gunners"])
def test_secrets_are_still_secrets(text: str) -> None:
    assert SECRET_VALUE.search(text) is not None


def test_a_version_is_a_build_number(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [(0, "hoa", "build 1.8.2 is on testflight now")],
                        start=T0, asked=ASKED, channel_name="mobile")
    assert "1.8.2" in chat.first("what's the latest build number?")


@pytest.fixture
def supplies(tmp_path: Path) -> ChannelChat:
    return channel_chat(tmp_path, [
        (0, "kate", "first MedPlus order placed, i normally do the weekly order on thursdays"),
        (60, "priya", "fyi i'm off 11-15th, monday's order is already queued in medplus"),
        (120, "kate", "medplus rep says our discount is 12% from june"),
        (180, "kate", "new courier booked, collection 1430 on fridays"),
    ], start=T0, asked=ASKED)


@pytest.mark.parametrize("question", [
    "what's our medplus account number",
    "medplus customer no?",
    "whats the tracking number for the medplus order",
])
def test_a_record_number_is_never_a_day_a_share_or_a_time(supplies: ChannelChat,
                                                          question: str) -> None:
    assert supplies.answer(question).abstained


def test_a_record_number_is_answered(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kate", "medplus set us up, account no. 40177823 - quote it on every order"),
        (30, "raj", "tracking for the glove order is MP-55120"),
    ], start=T0, asked=ASKED)
    assert "40177823" in chat.first("what's our medplus account number")
    assert "55120" in chat.first("tracking number for the glove order?")


def test_a_four_digit_order_number_is_a_record_number(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [(0, "ivy", "hoodies ordered, order number is 4471")],
                        start=T0, asked=ASKED)
    assert "4471" in chat.first("what's the order number for the hoodies?")
