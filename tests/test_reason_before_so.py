"""What comes before "so" is its reason only when it gives one: "the hall's booked on the
12th, so we'll do the 14th" does, "first wednesday of the month from march, so wed 4th"
only works the date out, and the reason is then the clause saying what stood in the way
("quite a few said tuesdays clash with choir"). A speaker saying where they will be ("i'll
be there after evensong, about 6:30") decides nothing for the team.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.models import Scope
from tests.support.chat_reader import ChannelChat, channel_chat, chat_author, written_reader

START = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
ANALYZER = MessageAnalyzer(Lexicon())


@pytest.mark.parametrize(("text", "reason"), [
    ("first wednesday of the month from march, so wed 4th", ""),
    ("the hall's booked on the 12th, so we'll do the 14th", "the hall's booked on the 12th"),
    ("it's £5 cheaper, so let's go with brightline", "it's £5 cheaper"),
    ("her train got changed, now arrives 10:20. so keynote shifts to 10:45, after the coffee "
     "break", "her train got changed, now arrives 10:20."),
])
def test_the_reason_before_so(text: str, reason: str) -> None:
    assert ANALYZER.analyze(text, speaker="x").reason == reason


def test_a_worked_out_date_is_no_reason(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "owen", "book club is last tuesday of the month, next one tues 24 feb"),
        (20000, "owen", "book club night's moving btw — quite a few said tuesdays clash with "
                        "choir. first wednesday of the month from march, so wed 4th"),
    ], start=START, asked=ASKED, channel_name="events")
    assert "choir" in chat.first("why did book club move off tuesdays?")


@pytest.mark.parametrize("text", [
    "i'll be there after evensong, about 6:30",
    "ok i'll be in at 9 to open up",
])
def test_where_the_speaker_will_be_decides_nothing(text: str) -> None:
    analysis = ANALYZER.analyze(text, speaker="x")
    assert analysis.act is not SpeechAct.DECISION
    assert not analysis.claims


def test_an_absence_moving_a_plan_still_moves_it() -> None:
    analysis = ANALYZER.analyze("I'll be away that weekend so the skills test is moving to "
                                "sat 20th june", speaker="x")
    assert any("20th" in c.value.text for c in analysis.claims)


def test_the_speakers_arrival_does_not_move_the_plan(tmp_path: Path) -> None:
    say = chat_author(space="T1", channel="C1", channel_name="general", start=START)
    plan = say(0, "pete", "setup's friday 3 july from 5pm, wessex are putting the marquees "
                          "up at 2. need bodies for tables & bunting")
    reply = say(10, "graham", "i'll be there after evensong, about 6:30").model_copy(
        update={"thread_id": plan.id})
    chat = ChannelChat(written_reader(tmp_path, [plan, reply]),
                       Scope(platform="slack", space="T1", channels=("C1",)), ASKED)
    first = chat.first("what time are the marquees going up?")
    assert "2" in first
    assert "6:30" not in first
