"""A question may name its thing by the event ("garbage *pickup*", where's training
*held*") while the chat names it by the day or the room: the event word is said by the
value, not by the message's words. A past event is shown with the time said with its day.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.support.chat_reader import channel_chat

START = datetime(2026, 1, 20, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)


def test_where_a_thing_is_held(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "femi", "Training restarts Wed 28 Jan, 6pm, Hawthorn 2.14. Novices welcome"),
        (12000, "aisha", "📢 Training moves to Lecture Theatre B (Kingsley) from Wed 11 Feb "
                         "and starts at 6:30pm, not 6. Hawthorn 2.14 is double-booked"),
        (40000, "tom", "Training update: from Wed 18 March we're back to a 6pm start, still "
                       "in Lecture Theatre B 👍"),
    ], start=START, asked=ASKED, channel_name="announcements")
    assert "Lecture Theatre B" in chat.first("where's training held now?")


def test_when_an_event_named_by_its_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "omar", "garbage day moves to wednesdays starting mar 11, city sent a flyer"),
        (15, "kwame", "recycling too?"),
        (20, "omar", "yep both wednesdays"),
    ], start=datetime(2026, 3, 7, 10, 0, tzinfo=UTC), asked=ASKED, channel_name="general")
    assert "wednesday" in chat.first("what day's garbage pickup").lower()


def test_a_past_event_is_shown_with_the_time_said(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "josh", "motion prep for warwick teams: sun 22 feb 3pm at mine (14 Crookes Rd), "
                    "not 2 — i have a shift til 2:30. snacks provided"),
        (30, "harriet", "see you there"),
    ], start=datetime(2026, 2, 18, 10, 0, tzinfo=UTC), asked=ASKED,
        channel_name="competitions")
    first = chat.first("when was the warwick prep session at josh's")
    assert "3pm" in first
    assert "22 February 2026" in first
