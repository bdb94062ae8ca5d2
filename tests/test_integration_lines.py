"""Lines integrations write are evidence, never a decision nor the person a who-question
asks for: a Slack bot id, a known integration's name, an event line after an emoji."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from adapters.jsonl import parse_record
from memory.analysis.message import MessageAnalyzer
from memory.models import Message
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 9, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 9, 20, 9, 0, tzinfo=UTC)


def _record(platform: str, user: str) -> dict[str, object]:
    return {"type": "message", "platform": platform, "space": "T1", "channel": "C1",
            "id": "m1", "user": user, "user_name": "x", "ts": "2025-09-01T09:00:00Z",
            "text": "hello"}


@pytest.mark.parametrize(("platform", "user", "bot"), [
    ("slack", "B03GH12AB", True),     # Slack's ids for integrations begin with B
    ("slack", "U02AMSTN1", False),
    ("slack", "W0123ABCD", False),
    ("discord", "889102938475610297", False),
])
def test_a_slack_integration_id_marks_the_record_a_bot(platform: str, user: str,
                                                       bot: bool) -> None:
    msg = parse_record(_record(platform, user))
    assert isinstance(msg, Message)
    assert msg.is_bot is bot


@pytest.mark.parametrize(("speaker", "text", "system"), [
    ("Community", "📅 Event updated: **Spring Work Day** → Saturday, April 26, 10:00 AM", True),
    ("Stripe", "Product updated: Insider → Field Pass · $10.00/month", True),
    ("googlecalendar", "Reminder: Board meeting Tue, January 10, 7:00pm", True),
    ("Dana", "poll: pizza or tacos friday?", False),
    ("Dana", "order updated: 30 boxes now", False),
])
def test_integration_lines_are_system_lines(speaker: str, text: str, system: bool) -> None:
    assert MessageAnalyzer().analyze(text, speaker=speaker).system is system


def test_who_decided_is_never_an_integration(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "euan", "which theme for the hackathon: transport, housing or health?"),
        (30, "fatima", "transport it is, the council data is best there"),
        (60, "euan", "👍"),
        (600, "GitHub", "[opendataglasgow/hackathon] Euan pushed 3 commits to main: "
                        "\"decided on transport theme, add dataset list\""),
    ], start=T0, asked=ASKED)
    first = chat.first("who decided on the transport theme?")
    assert "fatima" in first.lower()
    assert "github" not in first.lower()


@pytest.mark.parametrize(("speaker", "text", "system"), [
    ("HealthRoster", "HealthRoster: Roster change — 14/06 LD charge cover reassigned to T. "
                     "Hewitt", True),
    ("Tom", "Tom: moving standup to 10", False),
    ("dana", "dana: I will take it", False),
])
def test_an_integration_signs_its_line_with_its_name(speaker: str, text: str,
                                                     system: bool) -> None:
    assert MessageAnalyzer().analyze(text, speaker=speaker).system is system
