"""Why a plan was left: a later message naming what was left and what stood in its way ("the
26th is the half marathon, the roads are shut", "buzzsprout doesn't do ad insertion") is the
reason, not the plan itself nor an unrelated sentence beside the change."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.analysis.message import MessageAnalyzer
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.models import EvidenceNode
from memory.reader.reasons import Reasons
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 4, 7, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 4, 30, 9, 0, tzinfo=UTC)


def test_a_problem_named_with_the_value_left_is_why_it_moved_off_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ros", "spring swap planning starts now. proposing Sat 26 April at the church "
                   "hall, 10-1"),
        (60, "gus", "works for me, I'll bring tables"),
        (1440, "bethan", "hmm the 26th is the half marathon, half the roads round the hall "
                          "are shut"),
        (1500, "ros", "ok sat 3 may then, same place"),
        (1510, "omar", "👍"),
    ], start=T0, asked=ASKED)
    first = chat.first("why did the swap move off the 26th")
    assert "marathon" in first


def test_a_problem_with_the_thing_dropped_is_why_it_was_dropped(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "fyi hosting: we're moving everything off libsyn to buzzsprout end of "
                     "month. dev owns the migration"),
        (120, "tom", "nice, their stats page is way better"),
        (4320, "dev", "hosting migration: turns out buzzsprout doesn't do dynamic ad "
                        "insertion the way we need. ok if we go transistor?"),
        (4380, "priya", "yes go transistor"),
    ], start=T0, asked=ASKED)
    first = chat.first("why did we drop buzzsprout")
    assert "ad insertion" in first


def _node(i: int, text: str) -> EvidenceNode:
    return EvidenceNode(node_id=f"n{i}", seq=i, platform="slack", space="T1", channel="C1",
                        message_id=str(i), speaker_id="UT", speaker="Tom",
                        ts=T0 + timedelta(days=i), text=text)


def test_the_first_mention_of_a_thing_is_its_plan_not_its_problem() -> None:
    reasons = Reasons(lexicon=DEFAULT_LEXICON, analyzer=MessageAnalyzer())
    plan = _node(0, "Bella TPLO booked for next tuesday the 20th. admit 8:30am not 9")
    problem = _node(3, "the TPLO can't go ahead tuesday, the plate supplier is late")
    found, source = reasons.reported([plan, problem], {"tplo"})
    assert source is problem
    assert "supplier" in found
    assert reasons.reported([plan], {"tplo"}) == ("", None)


def test_a_change_that_agrees_after_a_filler_takes_its_reason_from_the_turn_before(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tessa", "spring release party idea: sat apr 26, fog horn cans + pils on draft, "
                     "food truck, band. thoughts?"),
        (600, "mira", "love it"),
        (12960, "hank", "the release party, are we cutting it too close? if the canning line "
                         "slips again we've got no cans"),
        (12970, "tessa", "honestly yeah. i'd rather push it a week. sat may 3?"),
        (12980, "hank", "👍"),
    ], start=T0, asked=ASKED)
    first = chat.first("why'd the release party get pushed back")
    assert "canning" in first


def test_a_change_nobody_chained_takes_its_reason_from_a_blocker_just_before_it(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "charity day is sat 7th at riverside hall, 10-3"),
        (20, "megan", "great, I'll do the poster"),
        (20160, "jake", "henley just rang, the vaccines won't land till the 10th of june now"),
        (20180, "priya", "ok rather than scramble let's shift the charity day back a week "
                           "to sat 14th. riverside is free then, I checked"),
    ], start=T0, asked=ASKED)
    first = chat.first("why was the charity day pushed back a week")
    assert "vaccines" in first
