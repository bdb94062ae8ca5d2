"""Wordings the coverage test must not refuse: a day written the chat's way ("sat 12th"),
an amount of a thing ("how much compost"), an abbreviation made a verb ("MCing")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from memory.reader.coverage_days import day_expressions, numeric_days
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 4, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 4, 9, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "days"), [
    ("approved. kwame closing sat 12th", ("sat 12th",)),
    ("deadline fri 18th, no later", ("fri 18th",)),
    ("moved to Friday 14 March, not the 12th", ("Friday 14 March", "the 12th")),
    ("see you at 12", ()),
])
def test_the_days_a_message_names_include_chat_forms(text: str, days: tuple[str, ...]) -> None:
    assert day_expressions(text) == days


@pytest.mark.parametrize(("question", "family"), [
    ("how much compost did we end up getting?", "count"),
    ("how much flour do we need for saturday", "count"),
    ("how much is the trip per person", "money"),
    ("How much did Northgate end up committing?", "money"),
    ("how much budget is left", "money"),
    ("how much money did we raise", "money"),
])
def test_how_much_of_a_thing_asks_an_amount_not_money(question: str, family: str) -> None:
    assert analyze_question(question).family == family


def test_an_abbreviation_made_a_verb_is_the_abbreviation() -> None:
    qa = analyze_question("who's MCing the hackathon?")
    assert "mc" in qa.terms
    assert qa.named == ("MC",)


def test_a_day_named_the_chat_way_covers_the_question(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "josh", "can anyone close sat 12th? brother's stag"),
        (600, "kwame", "I'll take it, you do my tues 15th"),
        (900, "rosa", "approved. kwame closing sat 12th"),
        (3600, "nadia", "table 12 said yes, table 4 said maybe"),
    ], start=T0, asked=ASKED)
    first = chat.first("who's closing sat the 12th")
    assert "kwame" in first.lower()


def test_an_amount_of_a_thing_is_answered_with_its_quantity(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "ordered compost for the beds, 6 yards, arriving the 15th"),
        (600, "rosa", "also upped the order to 8 yards, the east beds need topping up"),
        (1440, "gabe", "compost is here! 8 yards. dumped by the north gate"),
    ], start=T0, asked=ASKED)
    first = chat.first("how much compost did we end up getting?")
    assert "8 yards" in first


def test_a_dropped_head_noun_does_not_refuse_the_question(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sara", "payouts were down 40 min last night, root cause was the replica lag"),
        (600, "hana", "postmortem thu 10 apr 15:00, i'll send the invite"),
        (900, "ben", "ok"),
    ], start=T0, asked=ASKED)
    first = chat.first("when's the postmortem meeting")
    assert "10 apr" in first.lower()


def test_a_head_noun_alone_in_the_question_still_needs_its_thing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sara", "payouts were down 40 min last night, root cause was the replica lag"),
        (600, "hana", "postmortem thu 10 apr 15:00, i'll send the invite"),
    ], start=T0, asked=ASKED)
    assert chat.answer("when's the budget meeting").abstained


def test_a_bare_numeric_day_is_not_read_as_any_year() -> None:
    assert day_expressions("Calling volunteers for the cleanup on 4/22!") == ()


@pytest.mark.parametrize(("said", "reply", "question"), [
    # a head naming its own thing is not dropped (a guard: so it was before)
    ("reserve takes a bit more of a hit but it's doable", "roof quote approved",
     "how much is in the reserve fund?"),
    # how many is answered by a number, not by a message that names none
    ("bringing chairs from the hall for the party", "nice",
     "how many chairs are we bringing for the party?"),
    # what time is not answered by a day alone
    ("ceremony is on 1 August at the botanic gardens", "amazing",
     "what time does the ceremony start?"),
])
def test_what_the_question_asks_is_not_there(tmp_path: Path, said: str, reply: str,
                                             question: str) -> None:
    chat = channel_chat(tmp_path, [(0, "kwame", said), (600, "amara", reply)],
                        start=T0, asked=ASKED)
    assert chat.answer(question).abstained


def test_a_time_of_day_answers_what_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "ceremony is on 1 August at 2pm at the botanic gardens"),
    ], start=T0, asked=ASKED)
    assert "2pm" in chat.first("what time does the ceremony start?")


def test_a_day_written_as_numbers_in_one_order_only_is_a_day(tmp_path: Path) -> None:
    told = datetime(2025, 6, 1, tzinfo=UTC)
    assert [r.start.isoformat() for _, r in numeric_days("updated: 6/14 Mia, 6/21 Jay", told)] \
        == ["2025-06-14", "2025-06-21"]
    assert numeric_days("the 10/4 pickup", told) == []  # either order is a day
    assert numeric_days("score 3/4, half 1/2 price", told) == []
    chat = channel_chat(tmp_path, [
        (0, "anj", "rmdr: PODs in the app before 1800"),
        (600, "shaz", "LAV lease ends 31/1, landlord wont renew"),
    ], start=T0, asked=ASKED)
    assert "31/1" in chat.first("when does the LAV lease end?")



@pytest.mark.parametrize(("question", "key"), [
    ("who was the quizmaster at trivia night?", (("quizmaster",),)),
    ("who's our contact at voltway?", (("contact",),)),
    ("who's the captain now", (("captain",),)),
    ("who is the vendor on Kestrel now?", ()),  # a company answers it without the word
])
def test_who_is_the_role_asks_the_role(question: str, key: tuple[tuple[str, ...], ...]) -> None:
    assert analyze_question(question).key == key


def test_a_role_nobody_named_is_not_answered_by_its_event(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Diane", "Trivia night raised $2,340!! thanks all"),
        (30, "Sam", "uploaded a file: trivia_night_flyer_v2.pdf (Grange Hall, $15)"),
        (60, "Ana", "who's bringing the extension leads for trivia night?"),
        (65, "Mo", "me"),
    ], start=T0, asked=ASKED)
    assert chat.answer("who was the quizmaster at trivia night?").abstained


def test_a_role_named_with_its_event_is_answered(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Diane", "Trivia night raised $2,340!! thanks all"),
        (60, "Ana", "huge thanks to Mo, our quizmaster for trivia night"),
    ], start=T0, asked=ASKED)
    assert "Mo" in chat.first("who was the quizmaster at trivia night?")
