"""Which value holds now, read from the messages themselves: a clause of the same message
that changes the value ("… cancelled tonight … rebooked for thu 30 april"), "now it's …"
said of the thing later, a turn right after that gives a value of another thing ("from next
week the library opens at 10": not the game night's day), a count of other things ("800 +
20 spares"), a small number said for another ("we've got 9 not 11"), pence ("50p"), and an
amount of another name restated beside a decision ("account's at €1,840")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.embeddings import MiniLMEmbedder
from memory.models import Scope
from memory.proposer import OfflineProposer
from memory.reader.offline import OfflineReader
from memory.reader.tools import offline_tools
from memory.store import open_store
from memory.writer import open_writer
from tests.support.chat_reader import ChannelChat, channel_chat, chat_author

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 4, 20, 9, 0, tzinfo=UTC)


def test_a_later_clause_changing_the_value_is_the_one_in_force(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mo", "SafeStart Training can do the first aid refresher wed 11 march 6pm, here "
                  "in the office. everyone please come"),
        (12, "tom", "6 is fine"),
        (12960, "mo", "first aid training is OFF tonight, the trainer's van broke down. "
                      "rebooked for thu 19 march, same time 6pm"),
        (12963, "tom", "ok"),
    ], start=T0, asked=ASKED)
    assert "19 march" in chat.first("first aid refresher is when now?")


def test_a_turn_after_about_another_thing_does_not_change_the_value(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "board game night is confirmed for thu 19 march, bring snacks"),
        (30, "ben", "from next monday the library opening hours go to 10am instead of 9am. "
                    "the council cut the budget again"),
    ], start=T0, asked=ASKED)
    assert "19 march" in chat.first("when is board game night")


def test_now_its_said_later_changes_the_count(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kim", "disco: partyco rang, 120 glow sticks same as last year. deadline fri 20th"),
        (1000, "kim", "partyco again, sign-ups are up so they want 150 glow sticks not 120"),
        (3000, "kim", "disco AGAIN - late sign-ups, now it's 200 sticks. same deadline"),
        (4000, "lou", "disco sticks packed, 200 + 15 spares"),
    ], start=T0, asked=ASKED)
    assert chat.first("how many glow sticks are we doing for the disco").startswith("200")


def test_a_small_number_said_for_another_is_the_count(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sam", "guesthouse booked for the away weekend, 11 rooms"),
        (2000, "sam", "the guesthouse took 2 rooms back for a wedding so we've got 9 not 11"),
    ], start=T0, asked=ASKED)
    assert chat.first("how many rooms have we got at the guesthouse").startswith("9")


def test_pence_are_money(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "joe", "tombola: tickets 50p each like last year? prize table by the gate"),
        (10, "fay", "50p feels low tbh"),
        (60, "joe", "fine, £1 a ticket then"),
    ], start=T0, asked=ASKED)
    assert chat.first("how much were tombola tickets going to be before").startswith("50p")


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    embedder = MiniLMEmbedder()
    try:
        embedder.load()
    except Exception as exc:  # pragma: no cover - the model ships with the package
        pytest.skip(f"MiniLM not available: {exc}")
    return embedder


def test_an_amount_of_another_name_does_not_revise_the_fee(tmp_path: Path,
                                                            minilm: MiniLMEmbedder) -> None:
    # "account" and "membership" are near in meaning; the balance is no new fee
    say = chat_author(space="T1", channel="C1", channel_name="committee", start=T0)
    turns = [say(0, "chiara", "insurance renewal came in: premium up from €380 to €520 a "
                              "year, we need to talk about the membership fee"),
             say(10, "anke", "ugh. €25 → €30 from january?"),
             say(12, "dario", "30 is fine, still cheap"),
             say(20, "anke", "ok then, membership €30 from jan 2027, we announce it at the AGM"),
             say(30, "felix", "paid the €200 deposit to the hut today btw"),
             say(34, "chiara", "account's at €1,840 after the hut deposit")]
    store = open_store(uri=str(tmp_path / "lance"), lexical_dir=tmp_path / "lex",
                       dim=minilm.dim)
    open_writer(store=store, embedder=minilm, proposer=OfflineProposer()).write(turns)
    chat = ChannelChat(OfflineReader(tools=offline_tools(store, minilm)),
                       Scope(platform="slack", space="T1", channels=("C1",)), ASKED)
    first = chat.first("whats the membership fee going to be from january")
    assert "30" in first and "1,840" not in first


def test_a_later_value_of_another_thing_of_the_kind_does_not_win(tmp_path: Path) -> None:
    # "sponsor forms" are other forms than the "consent forms" asked about
    chat = channel_chat(tmp_path, [
        (0, "anita", "letters going home today: y4 trip to the castle wed 17 june, £10 per "
                     "child. consent forms + payment back by wed 10 june"),
        (180, "omar", "sponsor forms + money back to me by fri 12 june please, i'm counting "
                      "it all"),
        (26000, "anita", "38/45 consent forms back. deadline wednesday!"),
    ], start=T0, asked=ASKED)
    assert "10 june" in chat.first("when do consent forms need to be in")
    assert "12 june" in chat.first("when are sponsor forms due back")


def test_the_clock_said_now_is_no_new_value(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "caterer delivering at 2pm to the hall"),
        (130, "ben", "now it's 4pm and still no sign of the caterer 🙄"),
    ], start=T0, asked=ASKED)
    assert "2pm" in chat.first("what time is the caterer delivering?")


def test_a_day_opening_a_joined_clause_stays_its_own(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "team lunch is thu 5 march at the canteen"),
        (600, "ben", "from thursday the canteen is closed for a refit so team lunch moves to "
                     "fri 6 march"),
    ], start=T0, asked=ASKED)
    assert "6 march" in chat.first("when is team lunch?")
