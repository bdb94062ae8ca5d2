"""A plan called off in a contraction ("glasgow's off"), an item pulled, and a date pulled
*forward* are changes of the thing named: "is X still …?" says no, and the particle is
never part of what changed ("pulled the launch forward" revises the launch)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.definitions import SpeechAct
from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 9, 15, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 9, 25, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("text, subject", [
    ("glasgow's off. promoter pulled out, off until further notice", "glasgow"),
    ("the gig's off for now", "gig"),
])
def test_a_contracted_call_off_cancels(text: str, subject: str) -> None:
    a = MessageAnalyzer().analyze(text, speaker="marcus")
    assert a.act is SpeechAct.CANCELLATION
    assert any(c.subject == subject for c in a.claims)


@pytest.mark.parametrize("text", ["it's official", "sam's off today",
                                  "team lunch thursday, it's off-site this time"])
def test_other_contractions_cancel_nothing(text: str) -> None:
    assert MessageAnalyzer().analyze(text, speaker="ana").act is not SpeechAct.CANCELLATION


@pytest.mark.parametrize("turns, question, opens", [
    ([(0, "marcus", "glasgow show is fri 10 oct at static bar"), (60, "jess", "yay"),
      (1440, "marcus", "glasgow's off. static bar promoter pulled out, venue's got licence "
                       "issues. off until further notice"),
      (1450, "jess", "noooo")],
     "is glasgow still happening?", "No"),
    ([(0, "yuki", "the Hallorans donated a signed cubs jersey for the auction!"),
      (1440, "yuki", "sad update: the Hallorans pulled the cubs jersey, they're moving. so "
                     "it's out of the auction.")],
     "Is the signed Cubs jersey still going in the auction?", "No — pulled"),
    ([(0, "ana", "launch is thursday"),
      (600, "bo", "we pulled the launch forward to wednesday")],
     "is the launch still thursday?", "No"),
    ([(0, "ed", "q3 offsite is in lisbon"),
      (1440, "fa", "the lisbon deal's off the table, the hotel fell through")],
     "is the offsite still in lisbon?", "No"),
    ([(0, "ana", "sofa move is saturday"),
      (600, "bo", "lou's off to ikea with max sat, sofa move is sunday now")],
     "is the sofa move still saturday?", "No — moved"),
    ([(0, "ana", "standup is 9:30 daily"), (600, "bo", "standup still 9:30 tomorrow?"),
      (602, "ana", "yep")],
     "is standup still at 9:30?", "Yes"),
])
def test_still_on(tmp_path: Path, turns: list[tuple[int, str, str]], question: str,
                  opens: str) -> None:
    chat = channel_chat(tmp_path, turns, start=T0, asked=ASKED)
    assert chat.first(question).startswith(opens)


def test_a_date_pulled_forward_revises_the_thing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "launch is thursday"),
        (600, "bo", "we pulled the launch forward to wednesday"),
    ], start=T0, asked=ASKED)
    assert "wednesday" in chat.first("when is the launch?").lower()


def test_a_thing_off_is_wrong_not_called_off() -> None:
    a = MessageAnalyzer().analyze("the timing's off, demo needs to start at 3pm not 2pm",
                                  speaker="x")
    assert a.act is not SpeechAct.CANCELLATION
