"""A reason given when someone asks: "why?" just after a change, answered by whoever made
it (not by a bystander's guess). A question typed without its mark ("what do you reckon")
asks what to do: it is no reason for the change that answers it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


def test_a_why_asked_after_the_change_is_answered_by_its_author(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "amir", "depot move is 14 nov"),
        (300, "amir", "depot move slipped to 28 nov"),
        (301, "lena", "why?"),
        (302, "amir", "landlord hasn't finished the racking"),
        (310, "tom", "fine by me"),
    ], start=T0, asked=ASKED)
    assert "racking" in chat.first("why did the depot move slip?")


def test_an_answer_by_someone_else_is_no_reason_of_the_change(tmp_path: Path) -> None:
    # the why is answered by a bystander guessing, not by who changed it
    chat = channel_chat(tmp_path, [
        (0, "amir", "depot move is 14 nov"),
        (300, "amir", "depot move slipped to 28 nov"),
        (301, "lena", "why?"),
        (302, "tom", "no idea tbh, maybe the vans"),
    ], start=T0, asked=ASKED)
    assert "no idea" not in chat.first("why did the depot move slip?")


def test_a_question_typed_without_its_mark_is_no_reason(tmp_path: Path) -> None:
    # "what do you reckon" asks what to do; the problem said before it is why
    chat = channel_chat(tmp_path, [
        (0, "amir", "depot move is 14 nov"),
        (300, "amir", "bad news, the landlord hasn't finished the racking at the new depot"),
        (305, "lena", "oh no. what do you reckon"),
        (310, "amir", "ok let's push the depot move to 28 nov then"),
    ], start=T0, asked=ASKED)
    first = chat.first("why did the depot move get pushed?")
    assert "racking" in first and "reckon" not in first, first
