"""A day written day.month after a weekday ("thu 13.3", "back Mon 17.3."), as much of Europe
writes it, is a day; "13.3" alone stays a version or a number."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memory.dates import find_date_expressions, resolve_date
from memory.text import SlotKind, find_slots
from tests.support.chat_reader import channel_chat

REF = date(2025, 3, 5)  # a Wednesday


@pytest.mark.parametrize("text, day", [
    ("pilot slides to Thu 13.3", date(2025, 3, 13)),
    ("back Mon 17.3. Mikko signs off meanwhile", date(2025, 3, 17)),
    ("stocktake sat 5.4.", date(2025, 4, 5)),
])
def test_a_weekday_and_day_month_is_a_day(text: str, day: date) -> None:
    found = find_date_expressions(text)
    assert len(found) == 1
    resolved = resolve_date(found[0], reference=REF, prefer="future")
    assert resolved is not None and resolved.start == day
    assert [s.kind for s in find_slots(text) if s.kind is SlotKind.DATE]


@pytest.mark.parametrize("text", ["release 2.9 is out", "bumped to 13.3 on friday",
                                  "pH was 7.4 thursday"])
def test_day_month_without_its_weekday_is_no_day(text: str) -> None:
    assert not any("." in e for e in find_date_expressions(text))


def test_when_someone_is_back_reads_the_dotted_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sanna", "at auditor training in Tampere all of wk 11, back Mon 17.3. "
                     "Mikko covers sign-off"),
        (5, "mikko", "ok"),
    ], start=datetime(2025, 3, 5, 10, 0, tzinfo=UTC),
        asked=datetime(2025, 3, 8, 10, 0, tzinfo=UTC))
    assert "17 March" in chat.first("when is Sanna back from Tampere?")
