"""Values written the way a trade writes them: a count with words describing what it counts
("150 forest green tees"), a duration in hours and minutes ("2h40m"), a 24-hour time in
four digits where a time is meant ("gate opens 2130", "cutoff 1030 it is"), a span of days
("14–20 jul", "22nd-30th")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


def _claims(text: str) -> list[tuple[str, str]]:
    analysis = MessageAnalyzer().analyze(text, speaker="ana")
    return [(cl.value.text, cl.value.kind.value) for c in analysis.clauses for cl in c.claims]


@pytest.mark.parametrize(("text", "value", "kind"), [
    ("merch order placed ✅ 150 forest green tees + 50 totes", "150 forest green tees", "count"),
    ("ordering 3 new podmics from sweetwater", "3 new podmics", "count"),
    ("venue holds 1,500 people now", "1,500 people", "count"),
    ("dry run done ✅ 2h40m end to end, replica lag under 30s", "2h40m", "count"),
    ("the drive is 1 hr 30 min each way", "1 hr 30 min", "count"),
    ("gate opens 2130, first linehaul out 2200", "2130", "time"),
    ("R7B eta 1545 now, not 1510", "1545", "time"),
    ("thinking same day cutoff 1030 instead of 1100", "1030", "time"),
    ("ward round 0830 sharp, consultant's in", "0830", "time"),
    ("on-call rota: 7–13 jul chidi, 14–20 jul marco", "14–20 jul", "range"),
    ("aiyana is away 22nd-30th", "22nd-30th", "range"),
    ("marco covers the 3rd to the 9th of apr", "the 3rd to the 9th of apr", "range"),
])
def test_values_written_in_a_trades_way_are_read(text: str, value: str, kind: str) -> None:
    assert (value, kind) in _claims(text)


@pytest.mark.parametrize(("text", "value"), [
    ("LUMI hours used so far: 1150 of 2000", "1150"),   # a count, not a time
    ("gate code is 0815 btw", "0815"),                  # a code
    ("by 2025 we want all stores on the new tills", "2025"),  # a year
    ("mixer at 1000 rpm from now on", "1000"),          # a unit follows
    ("spend capped at 1500 per head", "1500"),
    ("call 0800 500 300 for the helpdesk", "0800"),     # a phone number
    ("meet at 14h30 in the lobby", "14h30"),            # a clock, not a duration
    ("2 of the tickets are gone", "2 of the tickets"),  # "of the" describes nothing
    ("see you at 7 then guys", "7 then guys"),          # a time, then people addressed
    ("python 3 still breaks the build", "3 still breaks"),
    ("the 2024 summer games", "2024 summer games"),     # a year before words
    ("level 2 support tickets are piling up", "2 support tickets"),  # a label's number
    ("rsvps by 20 july pls", "20 july pls"),            # a day, not a count of "pls"
    ("we won 3-2 on saturday", "3-2"),                  # a score, not a span of days
    ("1st-3rd place get medals", "1st-3rd"),            # places, not days
])
def test_numbers_that_are_no_such_value(text: str, value: str) -> None:
    claims = _claims(text)
    assert value not in [v for v, _ in claims]
    assert (value, "time") not in claims


def test_the_count_described_is_the_one_asked(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dev", "merch order placed ✅ 150 forest green tees + 50 totes, inkwell "
                   "delivering mon 6 oct"),
        (5, "jess", "🔥"),
    ], start=T0, asked=ASKED)
    assert chat.first("how many tees did we end up ordering").startswith("150")


def test_a_duration_in_hours_and_minutes_answers_how_long(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sara", "migration dry run starts tonight"),
        (600, "sara", "dry run done ✅ 2h40m end to end, replica lag under 30s"),
    ], start=T0, asked=ASKED)
    assert "2h40m" in chat.first("how long did the migration dry run take end to end")


def test_a_four_digit_time_answers_what_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "anj", "rmdr TUL nights start mon 24/11. gate opens 2130, first linehaul out 2200"),
        (5, "mick", "👍"),
    ], start=T0, asked=ASKED)
    assert chat.first("what time does the TUL gate open for nights?").startswith("2130")


def test_a_span_of_days_answers_when(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "hana", "on-call rota: 7–13 jul chidi, 14–20 jul marco. pd schedule updated"),
        (5, "marco", "👍"),
    ], start=T0, asked=ASKED)
    assert "14–20 jul" in chat.first("when is marco's on-call week")
