"""Which clause of a message is its reason: a change before "so" is what "so" sums up, not
a reason; "so he can …" states a purpose, which is the reason."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.reader.extract import reason_in
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 4, 7, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 4, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", [
    "glacier can't do tuesdays anymore, their jungler has uni. moving the tuesday scrim to "
    "wednesday. so it's wed + thu, 21:00",
    "moving it to wednesday, so it's wed + thu",
])
def test_a_change_before_so_is_not_its_reason(text: str) -> None:
    assert "moving" not in MessageAnalyzer().analyze(text).reason


@pytest.mark.parametrize(("text", "reason"), [
    ("the supplier's changing their delivery run — from next week stuff arrives thursday "
     "morning, so the order cutoff moves to wednesday 15:00",
     "the supplier's changing their delivery run — from next week stuff arrives thursday "
     "morning"),
    ("ok team, quick one: the room is busy, so standup moves to 10", "the room is busy"),
    ("Moving standup to 10. The room is busy, so we go to the cafe", "The room is busy"),
    # one part back, never a whole preamble
    ("heads up everyone, I know this is super last minute, and I know a lot of you booked "
     "travel, but the caterer went bust, so the gala moves to the 29th",
     "but the caterer went bust"),
])
def test_the_sentence_before_so_is_the_reason(text: str, reason: str) -> None:
    # back over the parts of its sentence that decide nothing, never into a header
    assert MessageAnalyzer().analyze(text).reason == reason


def test_a_cause_before_so_is_the_reason() -> None:
    assert MessageAnalyzer().analyze(
        "the venue flooded, so we moved the party to friday").reason == "the venue flooded"


@pytest.mark.parametrize(("text", "reason"), [
    ("Kai asked to step back so he can focus on entry. huge thanks kai",
     "Kai asked to step back so he can focus on entry"),
    ("we pushed it a week so the client can review", "so the client can review"),
    ("the venue flooded, so we moved the party to friday", "the venue flooded"),
])
def test_a_purpose_after_so_is_part_of_the_reason(text: str, reason: str) -> None:
    assert reason in reason_in(text, blockers=DEFAULT_LEXICON.blockers)


def test_why_a_summed_up_move_happened_is_the_blocker(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "theo", "scrims are tue + thu 21:00 this month"),
        (600, "mika", "gg all"),
        (4000, "theo", "glacier can't do tuesdays anymore, their jungler has uni. moving the "
                       "tuesday scrim to wednesday. so it's wed + thu, 21:00"),
    ], start=T0, asked=ASKED)
    first = chat.first("why are we on wednesdays now instead of tuesdays")
    assert "uni" in first or "can't do tuesdays" in first


@pytest.mark.parametrize(("text", "reason"), [
    ("update from Osei's PA: her train got changed, now arrives 10:20. so keynote shifts to "
     "10:45, after the coffee break", "her train got changed"),
    ("correction on Beacon: Apple review is taking longer than expected, so Beacon 2.9 "
     "launches 6 Nov, not 4 Nov", "Apple review is taking longer than expected"),
])
def test_a_change_before_a_so_that_names_its_own_subject_is_the_reason(
        text: str, reason: str) -> None:
    assert reason in MessageAnalyzer().analyze(text).reason
