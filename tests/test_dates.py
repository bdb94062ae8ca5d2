"""Tests for memory.dates: resolve_date, find_date_expressions, format_day."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from memory.dates import (
    DateResolution,
    add_months,
    find_date_expressions,
    format_day,
    resolve_date,
)

# Wednesday 10 May 2023.
REF = date(2023, 5, 10)

# (expression, expected iso(), expected granularity), all against REF.
CASES: list[tuple[str, str, str]] = [
    ("today", "2023-05-10", "day"),
    ("yesterday", "2023-05-09", "day"),
    ("tomorrow", "2023-05-11", "day"),
    ("the day before yesterday", "2023-05-08", "day"),
    ("day after tomorrow", "2023-05-12", "day"),
    ("tonight", "2023-05-10", "day"),
    ("last night", "2023-05-09", "day"),
    # weekdays: last = strictly before, next = strictly after, this = in REF's week
    ("last Tuesday", "2023-05-09", "day"),
    ("last Wednesday", "2023-05-03", "day"),
    ("next Wednesday", "2023-05-17", "day"),
    ("next weds", "2023-05-17", "day"),
    ("next Thursday", "2023-05-11", "day"),
    ("this Friday", "2023-05-12", "day"),
    ("this Monday", "2023-05-08", "day"),
    ("this coming Sunday", "2023-05-14", "day"),
    ("Tuesday", "2023-05-09", "day"),
    ("Wednesday", "2023-05-03", "day"),
    ("on Monday", "2023-05-08", "day"),
    ("Fri", "2023-05-05", "day"),
    ("Friday next week", "2023-05-19", "day"),
    ("Monday last week", "2023-05-01", "day"),
    ("Friday 10am", "2023-05-05", "day"),
    ("Thursday at 3 pm", "2023-05-04", "day"),
    ("tomorrow morning", "2023-05-11", "day"),
    # periods
    ("last week", "2023-05-01..2023-05-07", "week"),
    ("this week", "2023-05-08..2023-05-14", "week"),
    ("next week", "2023-05-15..2023-05-21", "week"),
    ("last month", "2023-04-01..2023-04-30", "month"),
    ("this month", "2023-05-01..2023-05-31", "month"),
    ("next month", "2023-06-01..2023-06-30", "month"),
    ("last year", "2022-01-01..2022-12-31", "year"),
    ("this year", "2023-01-01..2023-12-31", "year"),
    ("next year", "2024-01-01..2024-12-31", "year"),
    ("last weekend", "2023-05-06..2023-05-07", "week"),
    ("this weekend", "2023-05-13..2023-05-14", "week"),
    ("next weekend", "2023-05-13..2023-05-14", "week"),
    ("the weekend", "2023-05-06..2023-05-07", "week"),
    ("over the weekend", "2023-05-06..2023-05-07", "week"),
    # offsets: the whole unit containing the shifted day
    ("3 days ago", "2023-05-07", "day"),
    ("three days ago", "2023-05-07", "day"),
    ("a couple of days ago", "2023-05-08", "day"),
    ("a few days ago", "2023-05-07", "day"),
    ("twelve days ago", "2023-04-28", "day"),
    ("a week ago", "2023-05-01..2023-05-07", "week"),
    ("two weeks ago", "2023-04-24..2023-04-30", "week"),
    ("a fortnight ago", "2023-04-24..2023-04-30", "week"),
    ("a month ago", "2023-04-01..2023-04-30", "month"),
    ("a year ago", "2022-01-01..2022-12-31", "year"),
    ("2 years ago", "2021-01-01..2021-12-31", "year"),
    ("in 2 days", "2023-05-12", "day"),
    ("in a week", "2023-05-15..2023-05-21", "week"),
    ("in three weeks", "2023-05-29..2023-06-04", "week"),
    ("in a couple of months", "2023-07-01..2023-07-31", "month"),
    ("5 days later", "2023-05-15", "day"),
    ("two weeks later", "2023-05-22..2023-05-28", "week"),
    ("3 days from now", "2023-05-13", "day"),
    ("the week before", "2023-05-01..2023-05-07", "week"),
    ("the week after", "2023-05-15..2023-05-21", "week"),
    ("the day after", "2023-05-11", "day"),
    ("the following month", "2023-06-01..2023-06-30", "month"),
    # month names; without a year, the nearest at or before REF
    ("May 8", "2023-05-08", "day"),
    ("May 10", "2023-05-10", "day"),
    ("May 11", "2022-05-11", "day"),
    ("8 May 2023", "2023-05-08", "day"),
    ("May 8th, 2022", "2022-05-08", "day"),
    ("the 8th of May", "2023-05-08", "day"),
    ("Nov 3", "2022-11-03", "day"),
    ("Nov. 3", "2022-11-03", "day"),
    ("next May 8", "2024-05-08", "day"),
    ("Feb 29", "2020-02-29", "day"),
    ("May 2023", "2023-05-01..2023-05-31", "month"),
    ("September, 2021", "2021-09-01..2021-09-30", "month"),
    ("in June", "2022-06-01..2022-06-30", "month"),
    ("next June", "2023-06-01..2023-06-30", "month"),
    ("last June", "2022-06-01..2022-06-30", "month"),
    ("this June", "2023-06-01..2023-06-30", "month"),
    ("in May", "2023-05-01..2023-05-31", "month"),
    ("last May", "2022-05-01..2022-05-31", "month"),
    ("April", "2023-04-01..2023-04-30", "month"),
    ("the 8th", "2023-05-08", "day"),
    ("the 15th", "2023-04-15", "day"),
    # ISO and years
    ("2023-05-07", "2023-05-07", "day"),
    ("2023-05-07T14:30:00Z", "2023-05-07", "day"),
    ("2023-05", "2023-05-01..2023-05-31", "month"),
    ("in 2021", "2021-01-01..2021-12-31", "year"),
    # the format_day form, and a yearless one whose weekday picks the coming year
    ("Monday, 8 May 2023", "2023-05-08", "day"),
    ("Friday, May 12", "2023-05-12", "day"),
    ("Friday the 12th", "2023-05-12", "day"),
    ("Sunday the 7th", "2023-05-07", "day"),
    ("fri 12th", "2023-05-12", "day"),  # chat drops "the"
    ("the week of May 8", "2023-05-08", "day"),
    ("wk of may 8", "2023-05-08", "day"),
    ("this Sat", "2023-05-13", "day"),
]


@pytest.mark.parametrize(("expression", "iso", "granularity"), CASES)
def test_resolve_table(expression: str, iso: str, granularity: str) -> None:
    got = resolve_date(expression, REF)
    assert got is not None, expression
    assert (got.iso(), got.granularity) == (iso, granularity)
    assert got.text == expression


@pytest.mark.parametrize(
    "expression",
    [
        "",
        "   ",
        "hello",
        "banana",
        "next",
        "last banana",
        "Feb 30",
        "May 32",
        "2023-13-01",
        "2023-02-29",
        "3 pm",
        "eu-west-1",
        "2.4",
        "someday",
        "in a while",
        "Atlas design review",
    ],
)
def test_non_dates_resolve_to_none(expression: str) -> None:
    assert resolve_date(expression, REF) is None


def test_case_whitespace_and_punctuation_are_ignored_but_text_is_kept() -> None:
    got = resolve_date("  LAST   tuesday? ", REF)
    assert got is not None
    assert got.iso() == "2023-05-09"
    assert got.text == "LAST   tuesday"


def test_datetime_reference_uses_its_own_calendar_date() -> None:
    late = datetime(2023, 5, 10, 23, 59, tzinfo=UTC)
    assert resolve_date("yesterday", late) == resolve_date("yesterday", REF)
    # 2023-05-11 01:00 in UTC+5 is still 10 May in UTC; the datetime's own date counts.
    east = datetime(2023, 5, 11, 1, 0, tzinfo=timezone(timedelta(hours=5)))
    got = resolve_date("today", east)
    assert got is not None and got.iso() == "2023-05-11"


@pytest.mark.parametrize(
    ("expression", "iso"),
    [
        ("Friday", "2023-05-12"),
        ("Wednesday", "2023-05-17"),
        ("June", "2023-06-01..2023-06-30"),
        ("May", "2023-05-01..2023-05-31"),
        ("April", "2024-04-01..2024-04-30"),
        ("May 8", "2024-05-08"),
        ("Nov 3", "2023-11-03"),
        ("the 8th", "2023-06-08"),
        ("the weekend", "2023-05-13..2023-05-14"),
    ],
)
def test_prefer_future(expression: str, iso: str) -> None:
    got = resolve_date(expression, REF, prefer="future")
    assert got is not None and got.iso() == iso


# --- month ends and year boundaries -------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [
        (date(2023, 1, 31), 1, date(2023, 2, 28)),
        (date(2024, 1, 31), 1, date(2024, 2, 29)),
        (date(2023, 3, 31), -1, date(2023, 2, 28)),
        (date(2023, 5, 31), 1, date(2023, 6, 30)),
        (date(2024, 2, 29), 12, date(2025, 2, 28)),
        (date(2023, 12, 15), 1, date(2024, 1, 15)),
        (date(2023, 1, 15), -1, date(2022, 12, 15)),
        (date(2023, 5, 10), 0, date(2023, 5, 10)),
    ],
)
def test_add_months_clamps_to_month_end(start: date, months: int, expected: date) -> None:
    assert add_months(start, months) == expected


@pytest.mark.parametrize(
    ("expression", "reference", "iso"),
    [
        # a naive day overflow would land in March; clamping keeps February
        ("in 1 month", date(2023, 1, 31), "2023-02-01..2023-02-28"),
        ("a month later", date(2024, 1, 31), "2024-02-01..2024-02-29"),
        ("a month ago", date(2023, 3, 31), "2023-02-01..2023-02-28"),
        ("last month", date(2023, 3, 31), "2023-02-01..2023-02-28"),
        ("next month", date(2023, 1, 31), "2023-02-01..2023-02-28"),
        ("a year ago", date(2024, 2, 29), "2023-01-01..2023-12-31"),
        ("the day after", date(2024, 2, 28), "2024-02-29"),
        ("the day after", date(2023, 2, 28), "2023-03-01"),
        ("the 31st", date(2023, 5, 10), "2023-03-31"),
        ("the 30th", date(2023, 3, 10), "2023-01-30"),
    ],
)
def test_month_end_edges(expression: str, reference: date, iso: str) -> None:
    got = resolve_date(expression, reference)
    assert got is not None and got.iso() == iso


@pytest.mark.parametrize(
    ("expression", "reference", "iso"),
    [
        ("yesterday", date(2023, 1, 1), "2022-12-31"),
        ("tomorrow", date(2022, 12, 31), "2023-01-01"),
        ("last week", date(2023, 1, 2), "2022-12-26..2023-01-01"),
        ("next week", date(2022, 12, 28), "2023-01-02..2023-01-08"),
        ("this week", date(2023, 1, 1), "2022-12-26..2023-01-01"),
        ("last month", date(2023, 1, 2), "2022-12-01..2022-12-31"),
        ("next month", date(2022, 12, 15), "2023-01-01..2023-01-31"),
        ("next year", date(2022, 12, 31), "2023-01-01..2023-12-31"),
        ("last Friday", date(2023, 1, 2), "2022-12-30"),
        ("next Monday", date(2022, 12, 31), "2023-01-02"),
        ("Dec 25", date(2023, 1, 2), "2022-12-25"),
        ("Jan 3", date(2023, 1, 2), "2022-01-03"),
        ("in January", date(2022, 12, 20), "2022-01-01..2022-01-31"),
        ("next January", date(2022, 12, 20), "2023-01-01..2023-01-31"),
        ("last December", date(2023, 1, 5), "2022-12-01..2022-12-31"),
        ("3 days ago", date(2023, 1, 2), "2022-12-30"),
        ("in 2 weeks", date(2022, 12, 25), "2023-01-02..2023-01-08"),
        ("last weekend", date(2023, 1, 2), "2022-12-31..2023-01-01"),
        ("the second week of November", date(2023, 12, 1), "2023-11-08..2023-11-14"),
        ("the last week of June", date(2023, 12, 1), "2023-06-24..2023-06-30"),
        ("first week of May 2021", date(2023, 12, 1), "2021-05-01..2021-05-07"),
        ("the 4th week of February", date(2024, 3, 1), "2024-02-22..2024-02-28"),
        ("between August 11 and August 15 2023", date(2024, 1, 10), "2023-08-11..2023-08-15"),
        ("between 3 May and 9 May", date(2024, 1, 10), "2023-05-03..2023-05-09"),
    ],
)
def test_year_boundaries(expression: str, reference: date, iso: str) -> None:
    got = resolve_date(expression, reference)
    assert got is not None and got.iso() == iso


@pytest.mark.parametrize(
    ("reference", "last", "this", "next_"),
    [
        # Saturday and Sunday references: "last" is the previous week's, "next" the coming week's
        (date(2023, 5, 13), "2023-05-06", "2023-05-13", "2023-05-20"),
        (date(2023, 5, 14), "2023-05-06", "2023-05-13", "2023-05-20"),
        (date(2023, 5, 8), "2023-05-06", "2023-05-13", "2023-05-13"),
    ],
)
def test_weekend_rules(reference: date, last: str, this: str, next_: str) -> None:
    starts = [resolve_date(f"{word} weekend", reference) for word in ("last", "this", "next")]
    assert [s.start.isoformat() if s else None for s in starts] == [last, this, next_]
    bare = resolve_date("the weekend", reference)
    expected_bare = this if reference.weekday() >= 5 else last
    assert bare is not None and bare.start.isoformat() == expected_bare


def test_a_week_ago_equals_last_week_across_a_month() -> None:
    for offset in range(40):
        ref = date(2023, 2, 20) + timedelta(days=offset)
        ago, last = resolve_date("a week ago", ref), resolve_date("last week", ref)
        assert ago is not None and last is not None
        assert (ago.start, ago.end, ago.granularity) == (last.start, last.end, last.granularity)


# --- DateResolution and format_day --------------------------------------------------------


def test_resolution_is_frozen_and_checks_order() -> None:
    got = resolve_date("last month", REF)
    assert got is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.start = REF  # type: ignore[misc]
    with pytest.raises(ValueError):
        DateResolution(start=REF, end=REF - timedelta(days=1), granularity="day", text="x")


def test_iso_and_contains() -> None:
    week = DateResolution(
        start=date(2023, 5, 1), end=date(2023, 5, 7), granularity="week", text="last week"
    )
    assert week.iso() == "2023-05-01..2023-05-07"
    assert week.contains(date(2023, 5, 1)) and week.contains(date(2023, 5, 7))
    assert not week.contains(date(2023, 5, 8))
    assert week.contains(datetime(2023, 5, 7, 23, 59, tzinfo=UTC))
    day = DateResolution(start=REF, end=REF, granularity="day", text="today")
    assert day.iso() == "2023-05-10"


@pytest.mark.parametrize(
    ("day", "text"),
    [
        (date(2023, 5, 8), "Monday, 8 May 2023"),
        (date(2024, 2, 29), "Thursday, 29 February 2024"),
        (datetime(2023, 12, 31, 22, 0, tzinfo=UTC), "Sunday, 31 December 2023"),
    ],
)
def test_format_day(day: date, text: str) -> None:
    assert format_day(day) == text


def test_format_day_round_trips_through_resolve() -> None:
    for offset in range(0, 400, 7):
        day = date(2023, 1, 1) + timedelta(days=offset)
        got = resolve_date(format_day(day), REF)
        assert got is not None and (got.start, got.end) == (day, day)


# --- find_date_expressions ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what did we decide last Tuesday about the review?", ["last Tuesday"]),
        ("Atlas design review Thursday 3 pm", ["Thursday"]),
        (
            "review slips to Friday 10am, and the retro is next week",
            ["Friday", "next week"],
        ),
        ("we may ship in 2 days", ["in 2 days"]),
        ("May 8 or 8 May 2023 or 2023-05-07", ["May 8", "8 May 2023", "2023-05-07"]),
        ("it was the day before yesterday", ["the day before yesterday"]),
        ("Let's meet in June, or in may", ["June", "may"]),
        ("what happened over the weekend?", ["the weekend"]),
        ("ping me Friday last week", ["Friday last week"]),
        ("Monday, 8 May 2023 was busy", ["Monday, 8 May 2023"]),
        ("launch slipped a couple of weeks ago; budget for 2024", ["a couple of weeks ago"]),
        ("budget locked in 2024, revisit next month", ["2024", "next month"]),
        ("the week after the launch, Nov 3", ["the week after", "Nov 3"]),
        ("Yesterday and tomorrow", ["Yesterday", "tomorrow"]),
        ("June was quiet", ["June"]),
        ("on the 15th", ["the 15th"]),
        ("due this Friday. Then January.", ["this Friday", "January"]),
        ("Nov. 3 or next Fri. works", ["Nov. 3", "next Fri."]),
        ("lunch Friday the 15th at 12:30", ["Friday the 15th"]),
        # ordinary words, versions, regions and times are not dates
        ("I sat down. Sun is out. We may go. May I ask?", []),
        ("version 2.4 in eu-west-1 at 3 pm, 2000 users, port 8080", []),
        ("the march to 1.0 continues; wed to the plan", []),
        ("Feb 30 is not a day", []),
        ("", []),
    ],
)
def test_find_date_expressions(text: str, expected: list[str]) -> None:
    assert find_date_expressions(text) == expected


def test_everything_found_resolves_and_is_a_substring() -> None:
    text = (
        "Review moved from Thursday 3 pm to Friday 10am. Two weeks ago we said 2.3; "
        "next Tuesday we ship 2.4 in eu-west-1, the day after tomorrow is the demo, "
        "launch May 20, 2023, retro in a few days, offsite in September, the 8th of May."
    )
    found = find_date_expressions(text)
    assert len(found) == 9
    for expression in found:
        assert expression in text
        assert resolve_date(expression, REF) is not None, expression


def test_a_day_in_parentheses_pins_a_relative_date() -> None:
    """"next Friday (the 15th)" said on Tuesday 5 Nov means the 15th, whichever reading of
    "next" one prefers; the parenthesis is part of the decided value, not a second date."""
    from memory.dates import resolved_dates
    from memory.text import find_slots

    said = datetime(2024, 11, 5, 9, tzinfo=UTC)
    text = "Team lunch next Friday (the 15th)! Where should we go?"
    got = resolved_dates(text, said)
    assert [(e, r.start) for e, r in got] == [("next Friday", date(2024, 11, 15))]
    assert [s.text for s in find_slots(text)] == ["next Friday (the 15th)"]
    assert [r.start for _, r in resolved_dates("next Friday", said)] == [date(2024, 11, 8)]
    # A day that is not that weekday a week either side changes nothing.
    assert [r.start for _, r in resolved_dates("Friday (the 30th)", said, prefer="future")] == [
        date(2024, 11, 8)]


def test_last_week_of_a_month_is_not_last_week() -> None:
    """"the last week of June" names June's last seven days, not the week before."""
    assert find_date_expressions("ship it in the last week of June") == [
        "the last week of June"]


def test_between_two_days_is_one_range_only_when_ordered() -> None:
    assert find_date_expressions("Where was John between August 11 and August 15 2023?") == [
        "between August 11 and August 15 2023"]
    # Reversed days are not a range: each day stays its own expression.
    assert find_date_expressions("between May 9 and May 3") == ["May 9", "May 3"]


@pytest.mark.parametrize(("expression", "iso"), [
    ("6/20", "2023-06-20"),        # only month/day is a day
    ("20/6", "2023-06-20"),        # only day/month is a day
    ("fri 6/23", "2023-06-23"),    # the weekday agrees with month/day
    ("thu 6/7/2023", "2023-07-06"),  # the weekday says day/month
    ("11/28/25", "2025-11-28"),
])
def test_days_written_as_numbers(expression: str, iso: str) -> None:
    got = resolve_date(expression, REF, prefer="future")
    assert got is not None and got.iso() == iso


@pytest.mark.parametrize("expression", ["6/7", "13/13", "fri 6/7"])
def test_a_day_written_as_numbers_is_not_guessed(expression: str) -> None:
    assert resolve_date(expression, REF, prefer="future") is None


def test_only_the_weekday_form_is_picked_out_of_running_text() -> None:
    text = "rehearsal is now fri 6/23. we're 6/6 on the checklist, open 24/7"
    assert find_date_expressions(text) == ["fri 6/23"]
