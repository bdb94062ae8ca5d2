"""A proposal that names no subject of its own, taken up by someone else.

In unthreaded chat the proposal often says what is wrong with the current plan and puts a
new value forward in one breath ("5th is bad. shall we do the 12th?"); the reply that takes
it on may only say the value back ("12th 👍"). Real write path (offline proposer,
HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.decisions import closed_compounds
from tests.support.chat_reader import channel_chat

START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 20, 9, 0, tzinfo=UTC)


def test_a_proposal_calling_the_current_value_a_problem_revises_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "inspection visit tues 10am"),
        (30, "eli", "printer on floor 2 is jammed again"),
        (60, "ben", "tues is bad, ofsted are in. could it be weds?"),
        (70, "cat", "ok weds"),
    ], start=START, asked=ASKED)
    assert "weds" in chat.first("when is the inspection visit?").lower()


def test_a_reply_saying_the_value_back_takes_the_proposal_on(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "summer party sat 5th at the rugby club"),
        (60, "ben", "5th clashes w half term for loads of ppl. should the party be on the 12th?"),
        (80, "dan", "12th 👍"),
    ], start=START, asked=ASKED)
    assert "12th" in chat.first("when is the summer party?").lower()


def test_the_only_plan_of_its_kind_just_before_is_the_one_proposed_for(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "quiz night is on the 12th"),
        (60, "cat", "could we do the 19th?"),
        (70, "dan", "yes"),
    ], start=START, asked=ASKED)
    assert "19th" in chat.first("when is quiz night?").lower()


def test_a_proposal_between_two_plans_of_its_kind_changes_neither(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "quiz night is on the 12th"),
        (30, "ben", "bbq is saturday the 6th"),
        (60, "cat", "could we do the 19th?"),
        (70, "dan", "yes"),
    ], start=START, asked=ASKED)
    assert "12th" in chat.first("when is quiz night?").lower()
    assert "6th" in chat.first("when is the bbq?").lower()


def test_a_turned_down_or_asked_back_proposal_changes_nothing(tmp_path: Path) -> None:
    for reply in ("nah", "19th?"):
        chat = channel_chat(tmp_path / reply.strip("?"), [
            (0, "ana", "quiz night is on the 12th"),
            (60, "cat", "could we do the 19th?"),
            (70, "dan", reply),
        ], start=START, asked=ASKED)
        assert "12th" in chat.first("when is quiz night?").lower()


def test_a_verb_and_its_particle_said_apart_are_the_closed_compound() -> None:
    assert closed_compounds("kick off moved to 3pm") == {"kickoff"}
    assert closed_compounds("Dana hands over on friday") == {"handover"}
    # the verb alone is no compound: "work drinks" is no "workout", "check-in" no checkout
    assert closed_compounds("work drinks moved to 7pm") == set()
    assert "checkout" not in closed_compounds("check-in is 3pm")


def test_kick_off_revises_the_kickoff(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "match kickoff 2pm saturday"),
        (60, "ben", "kick off moved to 3pm, ref is late"),
    ], start=START, asked=ASKED)
    assert "3pm" in chat.first("what time is kickoff?").lower()


def test_a_number_put_forward_alone_does_not_replace_a_choice(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dana", "moving the whole glove order to patterson, they have stock"),
        (5, "mia", "can we do 30 on those? we burned thru a ton last month"),
        (10, "dana", "sure, 30"),
    ], start=START, asked=ASKED)
    assert "patterson" in chat.first("which supplier is the glove order going through?").lower()


def test_a_value_of_other_things_or_a_request_is_no_proposal_for_the_plan(
        tmp_path: Path) -> None:
    for name, turns, question, held in [
        ("people", [(0, "ho", "dinner 7pm sat, table for 8"),
                    (3, "al", "can the 6pm people still come?"),
                    (6, "ho", "yes of course")], "what time is dinner on saturday?", "7pm"),
        ("delivery", [(0, "of", "all hands thurs 11am"),
                      (3, "al", "can someone grab the 2pm delivery? i'm out"),
                      (6, "bo", "yep")], "what time is all hands?", "11am"),
    ]:
        chat = channel_chat(tmp_path / name, turns, start=START, asked=ASKED)
        assert held in chat.first(question).lower()


def test_a_compound_sharing_only_its_verb_is_another_thing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "check-in is 3pm"),
        (30, "ben", "checkout is 11am"),
        (60, "cat", "workout 7am tomorrow"),
        (90, "dan", "work drinks moved to 7pm"),
    ], start=START, asked=ASKED)
    assert "3pm" in chat.first("what time is check-in?").lower()
    assert "7am" in chat.first("what time is the workout?").lower()
