"""Import files: normalized JSONL, Slack workspace exports and DiscordChatExporter JSON.

:func:`iter_events` detects the format and yields :class:`~adapters.jsonl.JsonlItem` s in file
order. Problems with a file or an entry become error items naming the file (and the entry's
1-based index); they never stop an import and nothing here raises on bad input.

Slack export layout (a folder, or a zip read in place)::

    users.json  channels.json  groups.json  mpims.json  dms.json     (all optional)
    general/2024-03-01.json  general/2024-03-02.json  …              (one folder per channel)

Public channels and private groups live in folders named after the channel; DMs in folders
named after their id. A folder listed in none of the channel files is reported and skipped,
since its visibility is unknown. Channel events come first, then messages channel by channel,
day by day. Which workspace an export belongs to, its permalink base and which of its
messages were questions to egmem (skipped, as they are never stored live) come from what the
export says about itself (:mod:`adapters.slack.export_identity`).

DiscordChatExporter JSON is read by :mod:`adapters.discord.chat_exporter`.
"""

from __future__ import annotations

import logging
import re
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from adapters.discord.chat_exporter import iter_discord_export, looks_like_dce
from adapters.errors import PayloadError
from adapters.jsonl import JsonlItem, clean_str, decode_json, iter_jsonl
from adapters.slack.export_identity import SCAN_FILES, ExportIdentity, export_identity
from adapters.slack.normalize import PLATFORM as SLACK
from adapters.slack.normalize import normalize_message_event, skip_reason
from adapters.slack.payloads import message_event
from memory.errors import InputError
from memory.models import Channel, Delete

logger = logging.getLogger(__name__)

ExportFormat = Literal["jsonl", "slack_export", "discord_export"]

_SLACK_MARKERS = ("channels.json", "users.json")
_DAY_FILE = re.compile(r"^([^/]+)/(\d{4}-\d{2}-\d{2})\.json$")
QUESTION_SKIP = "a question to egmem"
# (file, is_private, folder key): DMs have no name, so their folder is their id.
_SLACK_CHANNEL_FILES = (
    ("channels.json", False, "name"),
    ("groups.json", True, "name"),
    ("mpims.json", True, "name"),
    ("dms.json", True, "id"),
)
# Everything a damaged zip or its members can raise while being read.
_READ_ERRORS = (
    OSError,
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    NotImplementedError,
    RuntimeError,
)


def detect_format(path: Path) -> ExportFormat:
    """Tell which importer reads ``path``.

    ``.jsonl``/``.ndjson`` → ``"jsonl"``; a folder or zip with ``channels.json`` or
    ``users.json`` at its root (or under one top folder in a zip) → ``"slack_export"``; a
    ``.json`` file whose top-level object has ``guild``, ``channel`` and ``messages`` →
    ``"discord_export"``. Raises :class:`InputError` saying what was expected otherwise.
    """
    if path.is_dir():
        if any((path / marker).is_file() for marker in _SLACK_MARKERS):
            return "slack_export"
        raise InputError(
            "folder is not a Slack export (no channels.json or users.json)", source=str(path)
        )
    if not path.is_file():
        raise InputError("no such file", source=str(path))
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                if _zip_prefix(archive.namelist()) is not None:
                    return "slack_export"
        except _READ_ERRORS as exc:
            raise InputError(f"cannot read zip: {exc}", source=str(path)) from exc
        raise InputError(
            "zip is not a Slack export (no channels.json or users.json)", source=str(path)
        )
    if suffix == ".json" and looks_like_dce(path):
        return "discord_export"
    raise InputError(
        "unknown format: expected a .jsonl file, a Slack export (folder or .zip with "
        "channels.json/users.json) or a DiscordChatExporter .json export",
        source=str(path),
    )


def iter_events(path: Path, *, slack_permalink_base: str | None = None) -> Iterator[JsonlItem]:
    """Yield the events of any supported import file, in file order (see module docstring).

    An unrecognized or unreadable path yields one error item with ``line=0``.
    ``slack_permalink_base`` (``https://acme.slack.com``) adds permalinks to Slack messages.
    """
    try:
        fmt = detect_format(path)
    except InputError as exc:
        yield JsonlItem(line=0, error=exc)
        return
    logger.info("importing %s as %s", path, fmt)
    if fmt == "jsonl":
        yield from iter_jsonl(path)
    elif fmt == "slack_export":
        yield from iter_slack_export(path, permalink_base=slack_permalink_base)
    else:
        yield from iter_discord_export(path)


# --- Slack workspace export --------------------------------------------------------------


class _Tree(Protocol):
    """Read access to an export's files by their ``/``-separated path from its root."""

    def names(self) -> list[str]: ...

    def read(self, name: str) -> bytes: ...

    def source(self, name: str) -> str: ...


@dataclass
class _DirTree:
    root: Path

    def names(self) -> list[str]:
        return sorted(
            p.relative_to(self.root).as_posix() for p in self.root.rglob("*.json") if p.is_file()
        )

    def read(self, name: str) -> bytes:
        return (self.root / name).read_bytes()

    def source(self, name: str) -> str:
        return str(self.root / name)


@dataclass
class _ZipTree:
    path: Path
    archive: zipfile.ZipFile
    prefix: str

    def names(self) -> list[str]:
        return sorted(
            n[len(self.prefix) :]
            for n in self.archive.namelist()
            if n.startswith(self.prefix) and not n.endswith("/")
        )

    def read(self, name: str) -> bytes:
        return self.archive.read(self.prefix + name)

    def source(self, name: str) -> str:
        return f"{self.path}/{self.prefix}{name}"


def _zip_prefix(names: list[str]) -> str | None:
    """The folder holding the export inside a zip: root, or a single top-level folder."""
    roots = [
        n[: -len(marker)]
        for n in names
        for marker in _SLACK_MARKERS
        if (n == marker or n.endswith("/" + marker)) and n.count("/") <= 1
    ]
    return min(roots, key=len) if roots else None


@dataclass
class _SlackChannel:
    id: str
    name: str
    folder: str
    is_private: bool
    members: tuple[str, ...]
    line: int
    days: list[str] = field(default_factory=list)
    is_dm: bool = False


def iter_slack_export(path: Path, *, permalink_base: str | None = None) -> Iterator[JsonlItem]:
    """Yield a Slack export's Channel events, then its messages (see module docstring)."""
    if path.is_dir():
        yield from _iter_slack_tree(_DirTree(path), permalink_base=permalink_base)
        return
    try:
        archive = zipfile.ZipFile(path)
    except _READ_ERRORS as exc:
        yield JsonlItem(line=0, error=InputError(f"cannot read zip: {exc}", source=str(path)))
        return
    with archive:
        prefix = _zip_prefix(archive.namelist())
        if prefix is None:
            error = InputError("zip has no channels.json or users.json", source=str(path))
            yield JsonlItem(line=0, error=error)
            return
        tree = _ZipTree(path=path, archive=archive, prefix=prefix)
        yield from _iter_slack_tree(tree, permalink_base=permalink_base)


def _iter_slack_tree(tree: _Tree, *, permalink_base: str | None) -> Iterator[JsonlItem]:
    try:
        names = tree.names()
    except _READ_ERRORS as exc:
        yield JsonlItem(
            line=0, error=InputError(f"cannot list export: {exc}", source=tree.source(""))
        )
        return
    present = set(names)
    errors: list[JsonlItem] = []

    users_list = _read_list(tree, "users.json", present, errors)
    users = _slack_user_names(users_list)
    channels = _slack_channels(tree, present, errors)
    yield from errors

    yield from _file_days(tree, names, channels)

    # Citations link to their messages: the workspace's URL comes from the caller or, as
    # Slack exports do not state it, from the workspace's own links inside the export.
    facts = export_identity(users_list, {c.id for c in channels},
                            days=_scanned_days(tree, channels), permalink_base=permalink_base)
    team = facts.team
    for channel in channels:
        yield JsonlItem(
            line=channel.line,
            event=Channel(
                platform=SLACK,
                space=team,
                id=channel.id,
                name=channel.name,
                is_private=channel.is_private,
                members=channel.members,
            ),
        )
    for channel in channels:
        for day in channel.days:
            yield from _slack_day(tree, day, channel, team=team, users=users, facts=facts)


def _slack_channels(tree: _Tree, present: set[str], errors: list[JsonlItem]
                    ) -> list[_SlackChannel]:
    """The channels the export's channel files list; bad entries join ``errors``."""
    channels: list[_SlackChannel] = []
    for filename, is_private, folder_key in _SLACK_CHANNEL_FILES:
        entries = _read_list(tree, filename, present, errors)
        for index, entry in enumerate(entries, start=1):
            parsed = _slack_channel(entry, is_private=is_private, folder_key=folder_key, line=index)
            if isinstance(parsed, str):
                error = InputError(f"entry {index}: {parsed}", source=tree.source(filename))
                errors.append(JsonlItem(line=index, error=error))
            else:
                channels.append(parsed)
    return channels


def _file_days(tree: _Tree, names: list[str], channels: list[_SlackChannel]
               ) -> Iterator[JsonlItem]:
    """Append each day file to its channel's days; yield an error per folder no channel
    file lists."""
    by_folder = {c.folder: c for c in channels}
    unlisted: set[str] = set()
    for name in names:
        m = _DAY_FILE.match(name)
        if m is None:
            continue
        channel = by_folder.get(m.group(1))
        if channel is None:
            unlisted.add(m.group(1))
        else:
            channel.days.append(name)
    for folder in sorted(unlisted):
        message = (
            f"folder {folder!r} is not listed in channels.json, groups.json, mpims.json or "
            "dms.json; its visibility is unknown, so it was skipped"
        )
        yield JsonlItem(line=0, error=InputError(message, source=tree.source(folder)))


def _slack_day(
    tree: _Tree,
    name: str,
    channel: _SlackChannel,
    *,
    team: str,
    users: Mapping[str, str],
    facts: ExportIdentity,
) -> Iterator[JsonlItem]:
    source = tree.source(name)
    bot_dm = channel.is_dm and facts.is_bot_dm(channel.members)
    try:
        entries = _load_list(tree, name)
    except ValueError as exc:
        yield JsonlItem(line=0, error=InputError(str(exc), source=source))
        return
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping):
            error = InputError(f"entry {index}: not a message object", source=source)
            yield JsonlItem(line=index, error=error)
            continue
        # Export messages do not repeat the channel they were posted in.
        event_dict = {**entry, "channel": entry.get("channel") or channel.id}
        if entry.get("subtype") == "tombstone" and isinstance(entry.get("ts"), str):
            # A thread parent deleted while its replies remain: the export keeps a
            # placeholder. Its message is gone, so it is buried, not skipped: an earlier
            # import or backfill of it must not survive this one.
            yield JsonlItem(line=index, event=Delete(
                platform=SLACK, space=team, channel=str(event_dict["channel"]),
                id=str(entry["ts"])))
            continue
        text = entry.get("text")
        if bot_dm or (isinstance(text, str) and facts.asks_egmem(text)):
            yield JsonlItem(line=index, skipped=QUESTION_SKIP)
            continue
        try:
            event = normalize_message_event(
                event_dict,
                team_id=team,
                users=users,
                channel_name=channel.name or None,
                permalink_base=facts.permalink_base,
                strict=True,
            )
        except InputError as exc:
            yield JsonlItem(line=index, error=InputError(f"entry {index}: {exc}", source=source))
            continue
        if event is not None:
            yield JsonlItem(line=index, event=event)
        else:
            # The normalizer took it without error, so it narrows.
            yield JsonlItem(line=index, skipped=skip_reason(message_event(event_dict)))


def _load_list(tree: _Tree, name: str) -> list[object]:
    """The JSON array in ``name``; ``ValueError`` with a readable reason otherwise."""
    try:
        data = tree.read(name)
    except _READ_ERRORS as exc:
        raise PayloadError(f"cannot read file: {exc}") from exc
    value = decode_json(data)
    if not isinstance(value, list):
        raise PayloadError("expected a JSON array")
    return value


def _read_list(tree: _Tree, name: str, present: set[str], errors: list[JsonlItem]) -> list[object]:
    if name not in present:
        return []
    try:
        return _load_list(tree, name)
    except ValueError as exc:
        errors.append(JsonlItem(line=0, error=InputError(str(exc), source=tree.source(name))))
        return []


def _slack_user_names(entries: list[object]) -> dict[str, str]:
    names: dict[str, str] = {}
    for entry in entries:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
            continue
        profile = entry.get("profile")
        candidates = []
        if isinstance(profile, Mapping):
            candidates += [profile.get("display_name"), profile.get("real_name")]
        candidates += [entry.get("real_name"), entry.get("name")]
        for value in candidates:
            if isinstance(value, str) and value.strip():
                names[entry["id"]] = clean_str(value.strip())
                break
    return names


def _slack_channel(
    entry: object, *, is_private: bool, folder_key: str, line: int
) -> _SlackChannel | str:
    """The channel an entry describes, or why it cannot be used."""
    if not isinstance(entry, Mapping):
        return "not a channel object"
    cid = entry.get("id")
    if not isinstance(cid, str) or not cid.strip():
        return "missing field 'id'"
    name = entry.get("name")
    name = clean_str(name) if isinstance(name, str) else ""
    folder = name if folder_key == "name" and name else cid
    members = entry.get("members")
    member_ids = (
        tuple(m for m in members if isinstance(m, str)) if isinstance(members, list) else ()
    )
    return _SlackChannel(
        id=clean_str(cid),
        name=name,
        folder=folder,
        is_private=is_private,
        members=member_ids,
        line=line,
        is_dm=folder_key == "id",
    )


def _scanned_days(tree: _Tree, channels: list[_SlackChannel]) -> Iterator[list[object]]:
    """The parsed day files an export's identity is read from (at most
    :data:`~adapters.slack.export_identity.SCAN_FILES`; unreadable ones are reported when
    imported)."""
    scanned = 0
    for channel in channels:
        for day in channel.days:
            if scanned >= SCAN_FILES:
                return
            scanned += 1
            try:
                yield _load_list(tree, day)
            except ValueError:
                continue
