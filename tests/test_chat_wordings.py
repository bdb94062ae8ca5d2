"""Judgement on chat worded the way teams write it.

Replies that carry only a value ("14 it is", "side door then", "ok bay 2"): the writer gives
the value the kind and the subject of the state the conversation is on, so the reply revises
it. What a message set but a later one replaced is not read as current; a count is not a
price; a later correction says what a fact is; a numbered label ("draft 3") and an event
("came on board") mark the change a "before" question asks about; a proposal turned down
holds why it did not happen; a name after a label is the label's value."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.said_alone import bare_value
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "value", "numeric", "settled"), [
    ("14 it is", "14", True, True),
    ("fine, 9 then", "9", True, True),
    ("make it 3", "3", True, True),
    ("side door then", "side door", False, True),
    ("ok bay 2 👍", "bay 2", False, True),
    ("the boathouse", "the boathouse", False, False),
    ("40", "40", True, False),
])
def test_a_value_said_alone_is_read_without_a_kind(text: str, value: str, numeric: bool,
                                                    settled: bool) -> None:
    bare = bare_value(text)
    assert bare is not None
    assert (bare.text, bare.numeric, bare.settled) == (value, numeric, settled)


@pytest.mark.parametrize("text", [
    "same", "me too", "sounds fun", "ok 👍", "the big one", "bay 2?", "not me", "lol",
    "ok makes sense",
    "thanks!", "ya grab a spare", "works for me",
])
def test_talk_is_not_a_value_said_alone(text: str) -> None:
    assert bare_value(text) is None


def test_a_number_said_alone_revises_the_count_the_turn_before_spoke_of(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "borrowing 6 tents from the scout hut"),
        (300, "omar", "6 won't cut it, 11 signed up. get 8"),
        (302, "ines", "8 it is"),
        (400, "pia", "anyone seen my headlamp"),
    ], start=T0, asked=ASKED)
    first = chat.first("how many tents are we borrowing?")
    assert "8" in first and "6" not in first


def test_a_place_said_alone_replaces_the_one_the_turn_before_ruled_out(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "pickup sat: meet at the east car park 7:15, vans leave 7:30"),
        (120, "omar", "east car park is closed for resurfacing this weekend"),
        (123, "ines", "side gate then"),
    ], start=T0, asked=ASKED)
    first = chat.first("where do we meet for pickup?")
    assert "side gate" in first and "east car park" not in first


def test_a_value_said_alone_answers_the_question_it_follows(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "photographer is Lumen Studio for the launch party"),
        (600, "omar", "lumen just cancelled on us. who else could do it?"),
        (610, "pia", "ok Brightframe"),
    ], start=T0, asked=ASKED)
    first = chat.first("which photographer is doing the launch party?")
    assert "Brightframe" in first


def test_a_value_said_alone_without_a_conversation_on_it_changes_nothing(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "borrowing 6 tents from the scout hut"),
        (300, "omar", "how many of you are coming to the pub quiz tonight?"),
        (302, "pia", "4"),
        (305, "ines", "8 then"),
    ], start=T0, asked=ASKED)
    first = chat.first("how many tents are we borrowing?")
    assert "6" in first and "8" not in first and "4" not in first


def test_a_number_said_alone_is_no_hour_of_a_day_plan(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "retro is thursday 14 march"),
        (30, "omar", "what about moving retro?"),
        (31, "ines", "3 then"),
    ], start=T0, asked=ASKED)
    first = chat.first("when is the retro?")
    assert "14" in first or "thursday" in first.lower()


def test_how_many_is_not_answered_by_a_price(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "ordering 6 lanyards for the volunteers"),
        (10, "omar", "ya add a spare. 7"),
        (40, "ines", "ordered: 1 extra lanyard $4, rest came in the bundle"),
    ], start=T0, asked=ASKED)
    first = chat.first("how many lanyards are we getting?")
    assert "7" in first and "$4" not in first


def test_a_value_lifted_to_a_new_one_revises_its_state(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "let's set the raffle target for the fair at $4,000"),
        (30, "omar", "the bakery is sponsoring prizes now"),
        (35, "ines", "great, then let's lift the target for the fair to $5,500"),
    ], start=T0, asked=ASKED)
    first = chat.first("what's the raffle target for the fair?")
    assert "$5,500" in first and "$4,000" not in first


def test_a_later_correction_says_what_a_fact_is(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "Quarter close: petty cash on hand as of June 30 was $312.40."),
        (90, "ines", "Correction, I missed the bake sale envelope. June 30 petty cash is $389.40."),
    ], start=T0, asked=ASKED)
    first = chat.first("what was our June 30 petty cash on hand?")
    assert "389.40" in first and "312.40" not in first


def test_before_a_numbered_label_is_the_value_before_the_message_naming_it(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "Costume budget draft 2 is locked: $2,300 all-in."),
        (600, "omar", "after the fitting: costume budget draft 3 is $2,750. needs approval"),
        (610, "pia", "approved"),
    ], start=T0, asked=ASKED)
    first = chat.first("what did the costume budget come to before draft 3?")
    assert "2,300" in first and "2,750" not in first


def test_why_something_did_not_happen_is_in_the_reply_that_turned_it_down(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "what if we held the book club at Corner Cafe? comfier chairs"),
        (5, "omar", "nah, they close at 6 and we run till 8. staying at the library"),
        (9, "pia", "ok"),
    ], start=T0, asked=ASKED)
    first = chat.first("why couldn't we hold the book club at Corner Cafe?")
    assert "close at 6" in first


def test_a_name_after_a_label_is_its_value_and_who_supplies_it_follows_the_chain(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "marquee hire for the fete: Canvas Kings, 2 x 6m, setup fri 13/6"),
        (600, "omar", "canvas kings cant do the 6m ones. switching marquee hire to "
                      "Tentworks Ltd, same sizes"),
    ], start=T0, asked=ASKED)
    first = chat.first("who are we hiring the marquees from?")
    assert "Tentworks" in first and "Canvas Kings" not in first


def test_before_a_number_the_chain_never_reached_is_its_last_value(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "brunch plate price is $14.20 on the menu"),
        (60, "omar", "fine, brunch plate price to $17"),
        (120, "pia", "ugh ok, twenty then"),
    ], start=T0, asked=ASKED)
    first = chat.first("what was the brunch plate price before we settled on 20?")
    assert "$17" in first and "14.20" not in first


def test_a_subject_cut_short_revises_the_state_it_names(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "conference registration closes 30 May"),
        (120, "omar", "client wants late signups — extending conf reg to 4 june"),
    ], start=T0, asked=ASKED)
    first = chat.first("when does conference registration close now?")
    assert "4 june" in first.lower() and "30 may" not in first.lower()


def test_a_headcount_said_now_is_a_count() -> None:
    from memory.analysis.message import MessageAnalyzer

    claims = MessageAnalyzer().analyze("they want distributors too. headcount now 450",
                                       speaker="Sara").claims
    assert [(c.value.kind.value, c.value.text) for c in claims] == [("count", "450")]


def test_a_day_written_as_ambiguous_numbers_is_still_the_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "forklift recert for the night crew is on 4/3"),
        (30, "omar", "trainer cant do 4/3, moving recert to 11/3"),
        (31, "pia", "ok"),
    ], start=T0, asked=ASKED)
    assert chat.first("when is the forklift recert?").startswith("11/3")
