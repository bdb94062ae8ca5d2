"""A "still …?" question is answered "No" from the message that ends the plan it names
("glasgow is off", "drone opener is cancelled"), even when another message about something
else was read first; a plan called off and then rebooked is on again, and a cancellation of
something else ends nothing asked."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from memory.analysis.value_types import Kind
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 9, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 9, 30, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "ends"), [
    ("glasgow is off. promoter has licence issues", True),
    ("the gig is off, sorry all", True),
    ("the sponsor withdrew from the hackathon", True),
    ("we pulled the plug on the podcast", True),
    ("we're off to the venue now", False),
    ("i'm off tomorrow", False),
    # said of a thing that is not a plan: nothing ends
    ("the timing's off, demo needs to start at 3pm not 2pm", False),
    ("we pulled out the old cabinets today", False),
    ("the hackathon is ending at 5pm friday", False),
])
def test_what_ends_a_plan(text: str, ends: bool) -> None:
    analysis = MessageAnalyzer().analyze(text, speaker="x")
    statuses = [c.value.text for cl in analysis.clauses for c in cl.claims
                if c.value.kind is Kind.STATUS]
    assert bool(statuses) is ends, statuses


def test_a_plan_called_off_answers_no(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "marcus", "tour dates locked: thu 9 oct bristol, fri 10 oct leeds, "
                      "tue 14 oct glasgow"),
        (3000, "marcus", "glasgow is off. promoter has licence issues, i'll try to rebook "
                         "next year"),
        (3010, "jess", "gutted"),
    ], start=T0, asked=ASKED)
    first = chat.first("is glasgow still happening?")
    assert first.startswith("No"), first
    assert "off" in first


def test_the_ending_wins_over_a_newer_message_about_something_else(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "theo", "opener plan: drone shot over the bluff at 7:00, call at 6:30"),
        (1500, "theo", "drone opener is cancelled. the airspace waiver didn't come back "
                       "in time, we'll shoot the opener on steadicam"),
        (2900, "dez", "correction: the cafe call is 7:30 not 7:00, their door opens "
                      "at 7:15"),
    ], start=T0, asked=ASKED)
    first = chat.first("is the drone opener still on?")
    assert first.startswith("No"), first
    assert "cancel" in first


def test_a_plan_rebooked_after_it_was_called_off_is_on(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "marcus", "glasgow show is tue 14 oct at the static bar"),
        (2000, "marcus", "the glasgow show's off, the venue lost its licence"),
        (5000, "marcus", "good news: glasgow show is back on, now tue 21 oct at the "
                         "static bar"),
    ], start=T0, asked=ASKED)
    first = chat.first("is the glasgow show still happening?")
    assert not first.startswith("No — called off"), first


def test_a_cancellation_of_something_else_ends_nothing_asked(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dana", "cpr training is fri 13 june at st anne's hall"),
        (1000, "dana", "st anne's confirmed for the training. cancelling the hilton "
                       "booking"),
    ], start=T0, asked=ASKED)
    first = chat.first("is the cpr training still at st anne's?")
    assert first.startswith("Yes"), first
