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
