"""Tests for adapters.jsonl: parse_ts, record parsing and iter_jsonl's error reporting."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.jsonl import MAX_TEXT_CHARS, JsonlItem, iter_jsonl, parse_record, parse_ts
from memory.errors import InputError
from memory.models import Channel, Delete, Edit, Message

FIXTURES = Path(__file__).parent / "fixtures" / "exports" / "jsonl"

GOOD_MESSAGE = {
    "type": "message",
    "platform": "slack",
    "space": "T1",
    "channel": "C1",
    "id": "1.1",
    "user": "U1",
    "user_name": "ann",
    "ts": "2024-01-02T03:04:05Z",
    "text": "hello",
}


# --- parse_ts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-01-02T03:04:05Z", datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)),
        ("2024-01-02T04:04:05+01:00", datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)),
        ("2024-01-02 03:04:05", datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)),  # naive = UTC
        ("2024-01-02", datetime(2024, 1, 2, tzinfo=UTC)),
        (1704164645, datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)),
        (1704164645.5, datetime(2024, 1, 2, 3, 4, 5, 500000, tzinfo=UTC)),
        ("1704164645", datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)),
        (" 1704164645.25 ", datetime(2024, 1, 2, 3, 4, 5, 250000, tzinfo=UTC)),
        ("0", datetime(1970, 1, 1, tzinfo=UTC)),
        (datetime(2024, 1, 2, 3, 4, 5), datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)),
        (
            datetime(2024, 1, 2, 5, 4, 5, tzinfo=timezone(timedelta(hours=2))),
            datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC),
        ),
    ],
)
def test_parse_ts_accepts_iso_and_epoch(value: object, expected: datetime) -> None:
    got = parse_ts(value)
    assert got == expected
    assert got.utcoffset() == timedelta(0)


def test_parse_ts_slack_ts_is_exact_to_the_microsecond() -> None:
    # A float would round 1712345678.000001 to ...678.000000 or ...678.000002.
    assert parse_ts("1712345678.000001").microsecond == 1
    assert parse_ts("1712345678.999999").microsecond == 999999


@pytest.mark.parametrize(
    "value",
    [True, None, "", "  ", "next tuesday", "1e400", float("nan"), float("inf"), 10**20, [], {}],
)
def test_parse_ts_rejects_with_value_error(value: object) -> None:
    with pytest.raises(ValueError):
        parse_ts(value)


def test_parse_ts_rejects_huge_exponent_quickly() -> None:
    # Must fail on range, not try to build a billion-digit integer.
    with pytest.raises(ValueError, match="out of range"):
        parse_ts("1e999999999")


@given(st.one_of(st.text(), st.integers(), st.floats(), st.none(), st.booleans()))
def test_parse_ts_only_ever_raises_value_error(value: object) -> None:
    try:
        got = parse_ts(value)
    except ValueError:
        return
    assert got.tzinfo is not None and got.utcoffset() == timedelta(0)


@given(st.datetimes(timezones=st.just(UTC)))
def test_parse_ts_round_trips_iso_and_epoch(dt: datetime) -> None:
    assert parse_ts(dt.isoformat()) == dt
    micros = (dt - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
    assert parse_ts(str(Decimal(micros).scaleb(-6))) == dt


# --- records -------------------------------------------------------------------------------


def test_message_record_all_fields() -> None:
    event = parse_record(
        {
            **GOOD_MESSAGE,
            "thread_id": "1.0",
            "reply_to": "1.0",
            "channel_name": "general",
            "permalink": "https://x/p1",
            "edited": True,
        }
    )
    assert event == Message(
        platform="slack",
        space="T1",
        channel="C1",
        id="1.1",
        user="U1",
        user_name="ann",
        ts=datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC),
        text="hello",
        thread_id="1.0",
        reply_to="1.0",
        channel_name="general",
        permalink="https://x/p1",
        edited=True,
    )


def test_numeric_ids_become_strings_and_user_name_defaults_empty() -> None:
    record = {**GOOD_MESSAGE, "space": 104233887135533465, "id": 7, "user": 42}
    del record["user_name"]
    event = parse_record(record)
    assert isinstance(event, Message)
    assert (event.space, event.id, event.user, event.user_name) == (
        "104233887135533465",
        "7",
        "42",
        "",
    )


def test_text_strips_nul_and_is_capped() -> None:
    event = parse_record({**GOOD_MESSAGE, "text": "a\x00b" + "x" * (MAX_TEXT_CHARS + 10)})
    assert isinstance(event, Message)
    assert event.text.startswith("abx")
    assert len(event.text) == MAX_TEXT_CHARS
    assert "\x00" not in event.text


def test_lone_surrogate_is_replaced_so_text_encodes() -> None:
    event = parse_record({**GOOD_MESSAGE, "text": "bad \ud800 pair"})
    assert isinstance(event, Message)
    assert event.text == "bad \ufffd pair"
    event.text.encode("utf-8")


def test_channel_edit_delete_records() -> None:
    channel = parse_record(
        {
            "type": "channel",
            "platform": "slack",
            "space": "T1",
            "id": "G1",
            "name": "leads",
            "is_private": True,
            "members": ["U1", 2],
        }
    )
    assert channel == Channel(
        platform="slack", space="T1", id="G1", name="leads", is_private=True, members=("U1", "2")
    )
    edit = parse_record({"type": "edit", "channel": "C1", "id": "1.1", "text": "new", "ts": 0})
    assert edit == Edit(channel="C1", id="1.1", text="new", ts=datetime(1970, 1, 1, tzinfo=UTC))
    delete = parse_record(
        {
            "type": "delete",
            "platform": "slack",
            "space": "T1",
            "channel": "C1",
            "id": "1.1",
            "ts": 60,
        }
    )
    assert delete == Delete(
        platform="slack",
        space="T1",
        channel="C1",
        id="1.1",
        ts=datetime(1970, 1, 1, 0, 1, tzinfo=UTC),
    )


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([1], "expected a JSON object, got an array"),
        ("text", "expected a JSON object, got a string"),
        ({"platform": "slack"}, "missing required field 'type'"),
        ({"type": "reaction"}, "unknown type 'reaction'"),
        ({"type": 3}, "unknown type '3'"),
        ({**GOOD_MESSAGE, "channel": ""}, "field 'channel' is empty"),
        ({**GOOD_MESSAGE, "user": None}, "missing required field 'user'"),
        ({**GOOD_MESSAGE, "id": True}, "field 'id' must be a string"),
        ({**GOOD_MESSAGE, "text": 5}, "field 'text' must be a string"),
        ({**GOOD_MESSAGE, "text": " \n "}, "field 'text' is empty"),
        ({**GOOD_MESSAGE, "ts": "soon"}, "bad 'ts'"),
        ({**GOOD_MESSAGE, "thread_id": ["x"]}, "field 'thread_id' must be a string"),
        ({**GOOD_MESSAGE, "edited": "yes"}, "field 'edited' must be true or false"),
        (
            {"type": "channel", "platform": "s", "space": "T", "id": "C", "name": "n"},
            "'is_private' is required",
        ),
        (
            {"type": "channel", "platform": "s", "space": "T", "id": "C", "is_private": False},
            "missing required field 'name'",
        ),
        (
            {
                "type": "channel",
                "platform": "s",
                "space": "T",
                "id": "C",
                "name": "n",
                "is_private": False,
                "members": "U1",
            },
            "'members' must be a list",
        ),
        ({"type": "delete", "channel": "C1", "id": "1"}, "missing required field 'ts'"),
        ({"type": "edit", "channel": "C1", "id": "1", "ts": 1}, "missing required field 'text'"),
    ],
)
def test_bad_records_say_what_is_wrong(record: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        parse_record(record)


# --- iter_jsonl ----------------------------------------------------------------------------


def test_good_file_yields_every_event_in_order() -> None:
    items = list(iter_jsonl(FIXTURES / "good.jsonl"))
    assert [i.error for i in items] == [None] * 7
    assert [i.line for i in items] == [1, 2, 3, 4, 5, 6, 7]
    kinds = [type(i.event).__name__ for i in items]
    assert kinds == ["Channel", "Channel", "Message", "Message", "Message", "Edit", "Delete"]
    discord = items[4].event
    assert isinstance(discord, Message)
    assert discord.space == "1042338871355334656"
    assert discord.ts == datetime(2024, 3, 1, 9, 0, 0, 500000, tzinfo=UTC)
    edit = items[5].event
    assert isinstance(edit, Edit) and edit.ts == datetime(2024, 3, 4, 9, 0, tzinfo=UTC)


def test_bad_lines_are_reported_with_line_numbers_and_good_lines_survive() -> None:
    path = FIXTURES / "mixed.jsonl"
    items = list(iter_jsonl(path))
    by_line = {i.line: i for i in items}
    assert 2 not in by_line  # blank line skipped
    assert sorted(by_line) == [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    good = {line for line, i in by_line.items() if i.event is not None}
    assert good == {1, 10, 12}
    for item in items:
        assert (item.event is None) != (item.error is None)
    expected = {
        3: "invalid JSON",
        4: "unknown type 'reaction'",
        5: "missing required field 'user'",
        6: "field 'text' is empty",
        7: "bad 'ts'",
        8: "expected a JSON object",
        9: "invalid UTF-8",
        11: "'is_private' is required",
    }
    for line, fragment in expected.items():
        error = by_line[line].error
        assert error is not None
        assert error.line == line and error.source == str(path)
        assert fragment in str(error)
        assert str(error).startswith(f"{path}:{line}: ")
    crlf = by_line[10].event
    assert isinstance(crlf, Message) and crlf.text == "nul byte removed"
    assert isinstance(by_line[12].event, Delete)


def test_missing_file_is_one_error_item(tmp_path: Path) -> None:
    items = list(iter_jsonl(tmp_path / "nope.jsonl"))
    assert len(items) == 1
    assert items[0].line == 0 and items[0].error is not None
    assert "cannot read file" in str(items[0].error)


def test_byte_order_mark_on_first_line_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD_MESSAGE).encode() + b"\n")
    [item] = list(iter_jsonl(path))
    assert isinstance(item.event, Message)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
RECORD_LIKE = st.fixed_dictionaries(
    {"type": st.sampled_from(["message", "channel", "edit", "delete", "other"])},
    optional={
        key: JSON_VALUES | st.text(max_size=12)
        for key in (
            "platform",
            "space",
            "channel",
            "id",
            "user",
            "user_name",
            "ts",
            "text",
            "name",
            "is_private",
            "members",
            "thread_id",
            "reply_to",
            "permalink",
            "edited",
        )
    },
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(
        st.one_of(st.binary(max_size=60), JSON_VALUES.map(json.dumps), RECORD_LIKE.map(json.dumps)),
        max_size=8,
    )
)
def test_iter_jsonl_never_raises(tmp_path: Path, lines: list[bytes | str]) -> None:
    raw = [line.encode() if isinstance(line, str) else line for line in lines]
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(b"\n".join(raw))
    items = list(iter_jsonl(path))
    for item in items:
        assert isinstance(item, JsonlItem)
        assert (item.event is None) != (item.error is None)
        if item.error is not None:
            assert isinstance(item.error, InputError) and item.error.line == item.line
    assert [i.line for i in items] == sorted({i.line for i in items})


@given(RECORD_LIKE)
def test_parse_record_raises_only_value_error(record: dict[str, object]) -> None:
    try:
        event = parse_record(record)
    except ValueError:
        return
    assert isinstance(event, Message | Channel | Edit | Delete)
