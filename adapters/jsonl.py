"""The normalized JSONL import format, and the small value parsers every adapter shares.

One JSON object per line, discriminated by ``"type"``:

* ``message`` — required: ``platform``, ``space``, ``channel``, ``id``, ``user``, ``ts``,
  ``text`` (non-blank); optional: ``user_name`` (default ``""``), ``thread_id``, ``reply_to``,
  ``channel_name``, ``permalink``, ``is_bot``, ``edited``.
* ``channel`` — required: ``platform``, ``space``, ``id``, ``name``, ``is_private`` (a
  boolean: visibility is never guessed, since guessing "public" would leak); optional
  ``members`` (a list of user ids).
* ``edit`` — required: ``channel``, ``id``, ``text``, ``ts``; optional ``platform``, ``space``.
* ``delete`` — required: ``channel``, ``id``, ``ts``; optional ``platform``, ``space``.

Ids may be JSON strings or integers (Discord snowflakes are often written as numbers); they
become strings. ``ts`` is ISO 8601 (naive means UTC) or epoch seconds as an int, a float or a
numeric string. Unknown keys are ignored so producers can add fields.

Text is kept as given except that NUL characters are removed, unpaired surrogates become
``U+FFFD`` (they cannot be stored as UTF-8), and text longer than :data:`MAX_TEXT_CHARS`
characters is cut to its first :data:`MAX_TEXT_CHARS` characters without any marker.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from pydantic import ValidationError

from adapters.errors import PayloadError
from memory.errors import InputError
from memory.models import Channel, Delete, Edit, Event, JsonlRecordType, Message, utc
from memory.store.inbox import time_problem

logger = logging.getLogger(__name__)

MAX_TEXT_CHARS = 200_000
"""Longest text kept for one message; longer text is truncated to this many characters."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MAX_EPOCH = Decimal(253_402_300_799)  # 9999-12-31T23:59:59Z, the last second datetime holds
_NUMERIC = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class JsonlItem:
    """One outcome of reading an input file: an event, an error, or a record skipped on
    purpose (``skipped`` says why: a bot's message, a system notice, …); one of them.

    ``line`` is the 1-based position of the record in its source: the line number in a JSONL
    file, the entry's index in an export file's list, or 0 for a problem with a whole file.
    """

    line: int
    event: Event | None = None
    error: InputError | None = None
    skipped: str | None = None


def parse_ts(value: object) -> datetime:
    """Parse a timestamp into an aware UTC datetime.

    Accepts a ``datetime`` (naive means UTC), epoch seconds as ``int``/``float`` or a numeric
    string (Slack's ``"1712345678.123456"`` is parsed exactly, to the microsecond), or an ISO
    8601 string (``Z`` and offsets allowed; naive means UTC). Raises ``ValueError`` with a
    readable message for anything else, including booleans, NaN and out-of-range values.
    """
    if isinstance(value, datetime):
        return utc(value)
    if isinstance(value, bool):
        raise PayloadError(f"timestamp must be ISO 8601 or epoch seconds, not {value!r}")
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            raise PayloadError(f"timestamp is not a finite number: {value!r}")
        return _from_epoch(Decimal(repr(value)) if isinstance(value, float) else Decimal(value))
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise PayloadError("timestamp is empty")
        if _NUMERIC.fullmatch(text):
            try:
                return _from_epoch(Decimal(text))
            except ArithmeticError as exc:
                raise PayloadError(f"timestamp is not a number: {value!r}") from exc
        try:
            return utc(datetime.fromisoformat(text))
        except ValueError as exc:
            raise PayloadError(
                f"timestamp {_preview(text)} is neither ISO 8601 nor epoch seconds"
            ) from exc
    raise PayloadError(f"timestamp must be a string or a number, not {type(value).__name__}")


def _from_epoch(seconds: Decimal) -> datetime:
    # Checked before converting: int(Decimal("1e999999999")) would build a giant integer.
    if not seconds.is_finite() or seconds.copy_abs() > _MAX_EPOCH:
        raise PayloadError(f"timestamp {_preview(str(seconds))} is out of range")
    try:
        micros = int(seconds.scaleb(6).to_integral_value())
        return _EPOCH + timedelta(microseconds=micros)
    except (ArithmeticError, ValueError) as exc:  # decimal's signals are ArithmeticErrors
        raise PayloadError(f"timestamp {_preview(str(seconds))} is out of range") from exc


def clean_text(text: str) -> str:
    """Return message text safe to store: no NULs, no lone surrogates, capped length."""
    if "\x00" in text:
        text = text.replace("\x00", "")
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    return text[:MAX_TEXT_CHARS]


def clean_str(text: str) -> str:
    """Clean a short string field (id, name) the same way as text, without the length cap."""
    return _SURROGATE.sub("\ufffd", text.replace("\x00", ""))


def _preview(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


# --- record fields -------------------------------------------------------------------------


def _req_id(rec: Mapping[str, object], key: str) -> str:
    if key not in rec or rec[key] is None:
        raise PayloadError(f"missing required field {key!r}", field=key)
    return _id_value(rec[key], key)


def _opt_id(rec: Mapping[str, object], key: str, default: str | None = None) -> str | None:
    if rec.get(key) is None:
        return default
    return _id_value(rec[key], key)


def _id_value(value: object, key: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise PayloadError(f"field {key!r} must be a string, not {type(value).__name__}", field=key)
    text = clean_str(str(value)).strip()
    if not text:
        raise PayloadError(f"field {key!r} is empty", field=key)
    return text


def as_mapping(value: object, what: str) -> Mapping[str, object]:
    """``value`` as a JSON object, or ValueError naming ``what`` (shared by the normalizers)."""
    if not isinstance(value, Mapping):
        raise PayloadError(f"{what} is not an object")
    return value


def opt_str(rec: Mapping[str, object], key: str) -> str | None:
    """An optional string field, cleaned; ValueError for any other type."""
    value = rec.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise PayloadError(f"field {key!r} must be a string, not {type(value).__name__}", field=key)
    return clean_str(value)


def _opt_bool(rec: Mapping[str, object], key: str) -> bool:
    value = rec.get(key, False)
    if not isinstance(value, bool):
        raise PayloadError(f"field {key!r} must be true or false, not {value!r}", field=key)
    return value


def _req_text(rec: Mapping[str, object], key: str = "text") -> str:
    if key not in rec or rec[key] is None:
        raise PayloadError(f"missing required field {key!r}", field=key)
    value = rec[key]
    if not isinstance(value, str):
        raise PayloadError(f"field {key!r} must be a string, not {type(value).__name__}", field=key)
    text = clean_text(value)
    if not text.strip():
        raise PayloadError(f"field {key!r} is empty", field=key)
    return text


def _req_ts(rec: Mapping[str, object], key: str = "ts", *, said: bool = True) -> datetime:
    """The record's time; with ``said``, it must be a time a message can have been said
    (from 1970 up to now): a year-1 or year-9999 stamp is a broken export."""
    if key not in rec or rec[key] is None:
        raise PayloadError(f"missing required field {key!r}", field=key)
    try:
        ts = parse_ts(rec[key])
    except ValueError as exc:
        raise PayloadError(f"bad {key!r}: {exc}") from exc
    problem = time_problem(ts) if said else None
    if problem is not None:
        raise PayloadError(f"bad {key!r}: {problem}")
    return ts


def _members(rec: Mapping[str, object]) -> tuple[str, ...]:
    value = rec.get("members")
    if value is None:
        return ()
    if not isinstance(value, list):
        raise PayloadError("field 'members' must be a list of user ids")
    return tuple(_id_value(m, "members") for m in value)


def parse_record(record: object) -> Event:
    """Turn one decoded JSONL object into its event.

    Raises ``ValueError`` (message suitable for a person) when the record is not an object,
    has an unknown ``type``, misses a required field or has a value of the wrong kind.
    """
    if not isinstance(record, dict):
        raise PayloadError(f"expected a JSON object, got {_json_kind(record)}")
    kind = record.get("type")
    if kind is None:
        raise PayloadError("missing required field 'type'")
    if not isinstance(kind, str) or kind not in _KINDS:
        known = ", ".join(sorted(_KINDS))
        raise PayloadError(f"unknown type {_preview(str(kind))} (expected one of: {known})")
    try:
        return _BUILDERS[JsonlRecordType(kind)](record)
    except ValidationError as exc:
        # Every field is checked above; this is a backstop so a model constraint we did not
        # mirror still yields a readable error instead of an exception escaping the importer.
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        reason = first.get("msg", "invalid")
        raise PayloadError(f"invalid {kind} record: {where}: {reason}") from exc


# Slack gives integrations ids of their own, beginning with "B" (people's begin with U or W):
# a record from one is a bot's even when the export did not say so.
_SLACK_BOT_ID = re.compile(r"B[A-Z0-9]{4,20}")


def _message(rec: Mapping[str, object]) -> Message:
    user = _req_id(rec, "user")
    platform = _req_id(rec, "platform")
    return Message(
        platform=platform,
        space=_req_id(rec, "space"),
        channel=_req_id(rec, "channel"),
        id=_req_id(rec, "id"),
        user=user,
        user_name=opt_str(rec, "user_name") or "",
        ts=_req_ts(rec),
        text=_req_text(rec),
        thread_id=_opt_id(rec, "thread_id"),
        reply_to=_opt_id(rec, "reply_to"),
        channel_name=opt_str(rec, "channel_name"),
        permalink=opt_str(rec, "permalink"),
        is_bot=_opt_bool(rec, "is_bot") or (
            platform == "slack" and _SLACK_BOT_ID.fullmatch(user) is not None),
        edited=_opt_bool(rec, "edited"),
    )


def _channel(rec: Mapping[str, object]) -> Channel:
    is_private = rec.get("is_private")
    if not isinstance(is_private, bool):
        raise PayloadError("field 'is_private' is required and must be true or false")
    return Channel(
        platform=_req_id(rec, "platform"),
        space=_req_id(rec, "space"),
        id=_req_id(rec, "id"),
        name=_req_id(rec, "name"),
        is_private=is_private,
        members=_members(rec),
    )


def _edit(rec: Mapping[str, object]) -> Edit:
    return Edit(
        platform=_opt_id(rec, "platform", "") or "",
        space=_opt_id(rec, "space", "") or "",
        channel=_req_id(rec, "channel"),
        id=_req_id(rec, "id"),
        text=_req_text(rec),
        ts=_req_ts(rec),
    )


def _delete(rec: Mapping[str, object]) -> Delete:
    return Delete(
        platform=_opt_id(rec, "platform", "") or "",
        space=_opt_id(rec, "space", "") or "",
        channel=_req_id(rec, "channel"),
        id=_req_id(rec, "id"),
        ts=_req_ts(rec, said=False),  # a delete is honoured whatever its time says
    )


_KINDS = frozenset(t.value for t in JsonlRecordType)
_BUILDERS: dict[JsonlRecordType, Callable[[Mapping[str, object]], Event]] = {
    JsonlRecordType.MESSAGE: _message,
    JsonlRecordType.CHANNEL: _channel,
    JsonlRecordType.EDIT: _edit,
    JsonlRecordType.DELETE: _delete,
}


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__


def decode_json(data: bytes | str) -> object:
    """Decode JSON text, raising ``ValueError`` with a short reason on any failure.

    Bytes must be UTF-8 (a leading byte-order mark is allowed). Absurdly deep nesting, which
    makes the stdlib parser recurse out of stack, is reported like any other bad JSON.
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise PayloadError(f"invalid UTF-8 at byte {exc.start}") from exc
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise PayloadError(f"invalid JSON: {exc.msg} at column {exc.colno}") from exc
    except RecursionError as exc:
        raise PayloadError("invalid JSON: nested too deeply") from exc
    except ValueError as exc:  # e.g. an integer literal longer than Python's digit limit
        raise PayloadError(f"invalid JSON: {exc}") from exc


def iter_jsonl(path: Path) -> Iterator[JsonlItem]:
    """Yield one :class:`JsonlItem` per non-blank line of ``path``, in file order.

    A bad line (invalid UTF-8 or JSON, not an object, unknown type, missing or empty required
    field, bad timestamp) yields an item whose :class:`InputError` names the file and line; it
    never stops the iteration. A file that cannot be read yields a single error item with
    ``line=0``. Lines may end in ``\\n`` or ``\\r\\n``; blank lines are skipped.
    """
    source = str(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        error = InputError(f"cannot read file: {exc.strerror or exc}", source=source)
        yield JsonlItem(line=0, error=error)
        return
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                event = parse_record(decode_json(raw))
            except ValueError as exc:
                logger.debug("skipping %s:%d: %s", source, number, exc)
                yield JsonlItem(line=number, error=InputError(str(exc), source=source, line=number))
                continue
            yield JsonlItem(line=number, event=event)
