"""Who put a change forward: "who proposed raising the ticket price" names whoever first
said the value the price moved to, not whoever first named the price; "who asked for the
discount to be cut" names who asked for the lower one, not who agreed to it.

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.support.chat_reader import channel_chat

DAY = 60 * 24


def test_who_proposed_a_rise_is_who_first_said_the_new_price(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maeve", "Fair tickets same as last year unless anyone objects: adults £4, "
                     "kids free"),
        (6 * DAY, "conor", "the marquee hire's up £150 so I'm proposing adult tickets go to "
                           "£5"),
        (6 * DAY + 20, "maeve", "agreed, £5. I'll fix the flyer"),
    ], start=datetime(2025, 3, 3, 9, 0, tzinfo=UTC),
        asked=datetime(2025, 3, 20, 12, 0, tzinfo=UTC))
    first = chat.first("who proposed raising the ticket price?")
    assert "conor" in first.lower() and "maeve" not in first.lower()
    # who first named the price is still who suggested it, asked without a change
    assert "maeve" in chat.first("who suggested kids go free?").lower()


def test_who_asked_for_a_cut_is_who_asked_for_the_lower_value(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ida", "Opening discount: 25% off all classes for the first month, code OPEN25"),
        (15, "saul", "can we make it 10%? I'd rather not give away 25 with the roof repair due"),
        (40, "ines", "10% then. OPEN10"),
    ], start=datetime(2025, 6, 2, 9, 0, tzinfo=UTC),
        asked=datetime(2025, 6, 20, 12, 0, tzinfo=UTC))
    first = chat.first("who asked for the opening discount to be cut?")
    assert "saul" in first.lower()


def test_a_change_named_with_its_value_asks_who_first_said_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "Proposal: from next Monday standup moves to 10, the 9:30 clashes with "
                   "school drop-off"),
        (30, "ben", "agreed, 10 from Monday"),
        (20 * DAY, "cal", "standup moving to 10:30 from April"),
    ], start=datetime(2025, 3, 3, 9, 0, tzinfo=UTC),
        asked=datetime(2025, 4, 20, 12, 0, tzinfo=UTC))
    assert "ana" in chat.first("who suggested moving standup to 10?").lower()
