"""What is in force now may be settled in the turns right after the answer's message without
naming its subject again ("hotel: looking at the hampton inn" → "hampton is sold out,
booking comfort inn instead"; "can we push it later?" → "4pm"). The reader follows those
turns; a turn about another thing, a number labelling something, or a value only put
forward leaves the answer alone."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import analyze_question
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 9, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 9, 20, 9, 0, tzinfo=UTC)
Turns = list[tuple[int, str, str]]


@pytest.mark.parametrize("turns, question, now, was", [
    # a named choice replaced in the next turns, the subject not named again
    ([(0, "dara", "retro venue: thinking the Brass Monkey upstairs room, 14 of us"),
      (3, "ines", "nice"),
      (40, "dara", "brass monkey is booked that night. going with The Crown instead, same "
                   "street")],
     "which pub is the retro at?", "crown", "brass monkey"),
    # an hour said alone, in the unit of the time it replaces
    ([(0, "kemal", "standup moves to thursdays, 10:30 in the small room"),
      (20, "kemal", "actually make it 11, the small room is taken till then")],
     "what time is standup?", "11", "10:30"),
    # a value said alone right after a change was asked for
    ([(0, "noor", "reminder: board sync tuesday 2pm in the glass room"),
      (10, "raf", "can we push it later? I'm at the dentist till 3"),
      (12, "noor", "4pm")],
     "what time is the board sync?", "4pm", "2pm"),
    # a count settled in a reply
    ([(0, "lou", "hoodies: ordering 30 for the volunteers, navy"),
      (30, "lou", "printer only has 20 blanks left in navy. 20 then")],
     "how many hoodies are we getting?", "20", "30"),
])
def test_a_following_turn_settles_the_value(tmp_path: Path, turns: Turns, question: str,
                                            now: str, was: str) -> None:
    chat = channel_chat(tmp_path, turns, start=T0, asked=ASKED)
    answer = chat.answer(question).answer
    first = answer.split("\n")[0].lower()
    assert now in first and was not in first, answer
    assert was in answer.lower(), answer  # the replaced value stays in view


@pytest.mark.parametrize("turns, question, held, other", [
    # the next turn moves another thing
    ([(0, "ana", "deploy window: friday 6pm, freeze from noon"),
      (15, "ana", "marco's 1:1 moves to 3pm")],
     "when is the deploy window?", "6pm", "3pm"),
    # a number labelling something is no new value
    ([(0, "ivo", "retro is tuesday at 3pm"),
      (5, "ivo", "ok, moving us to booth 4 for it")],
     "what time is the retro?", "3pm", "4"),
    # the same kind of thing with another qualifier ("full plots" is not the half plot)
    ([(0, "pete", "plot fees for 2025: $35 full plot, $20 half plot, due may 1"),
      (30, "pete", "update: full plots are $40 this year, the water bill went way up. half "
                   "plots stay $20")],
     "half plot fee?", "$20", "$40"),
    # another item of the answer's own message
    ([(0, "ana", "friday: team lunch 12:30 at nandos, board review at 3pm"),
      (30, "ana", "board review moves to 4pm instead, cfo is late")],
     "what time is team lunch?", "12:30", "4pm"),
    # a short reply to a question about another thing
    ([(0, "zoe", "offsite: bus leaves 8am from the office"),
      (10, "al", "breakfast is 7am then?"),
      (11, "zoe", "yep 7am, coffee in lobby")],
     "what time does the bus leave?", "8am", "7am"),
    # numbers counting or naming another thing
    ([(0, "dom", "each volunteer brings 2 trays"),
      (5, "dom", "actually 4 people signed up so far")],
     "how many trays does each volunteer bring?", "2", "4"),
    ([(0, "ivo", "retro tuesday 3pm in room 2"),
      (5, "ivo", "actually the room is 4, 2 is taken")],
     "what time is the retro?", "3pm", "4"),
    ([(0, "pia", "ordering 40 hoodies for the volunteers"),
      (5, "pia", "and 25 caps then")],
     "how many hoodies are we ordering?", "40", "25"),
    ([(0, "na", "ep 17 records wednesday 2pm"),
      (3, "na", "ep 18 switching to thursday 11am instead")],
     "when does ep 17 record?", "2pm", "thursday"),
    # a hypothetical, the speaker's own plans, another event settled in passing
    ([(0, "ann", "choir practice wednesday 7pm"),
      (5, "bob", "if we moved it to 6 we'd miss the bus from work")],
     "what time is choir practice?", "7pm", "6"),
    ([(0, "eva", "standup 9:30 tomorrow"),
      (3, "fitz", "actually i'm in at 10 tomorrow, physio")],
     "what time is standup?", "9:30", "10"),
    ([(0, "wa", "next sprint demo is on the 20th"),
      (5, "xi", "cool, so the planning is the 21st then")],
     "when is the sprint demo?", "20th", "the 21st"),
    # a change taken back
    ([(0, "kem", "standup moves to thursdays, 10:30"),
      (20, "kem", "actually make it 11"),
      (22, "kem", "sorry no, ignore me, 10:30 stands. wrong calendar")],
     "what time is standup?", "10:30", "11"),
    # a value only put forward
    ([(0, "sam", "lunch order goes in at 11:30"),
      (5, "pat", "could we do 12 instead?")],
     "what time does the lunch order go in?", "11:30", "12"),
])
def test_other_turns_leave_the_answer(tmp_path: Path, turns: Turns, question: str,
                                      held: str, other: str) -> None:
    chat = channel_chat(tmp_path, turns, start=T0, asked=ASKED)
    first = chat.first(question).lower()
    assert held in first and not first.startswith(other), first


@pytest.mark.parametrize("question, kind", [
    ("how long is my talk supposed to be now?", QuestionKind.CURRENT),
    ("what time are we meant to arrive?", QuestionKind.WHEN),
    ("when was the demo supposed to be?", QuestionKind.PREVIOUS),
    ("where were we meant to meet before the change?", QuestionKind.PREVIOUS),
])
def test_supposed_to_asks_the_past_only_in_the_past_tense(question: str,
                                                         kind: QuestionKind) -> None:
    assert analyze_question(question).kind is kind


def test_the_llm_reader_is_told_the_same() -> None:
    from memory.llm.reader_prompts import SYSTEM_PROMPT

    told = " ".join(SYSTEM_PROMPT.split())
    assert "settled in the turns right after it without naming its subject again" in told
    assert "a hypothetical, someone's own plans or part of the value said again" in told
