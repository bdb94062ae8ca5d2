"""Tests for adapters.exports: format detection, Slack exports (folder and zip), DCE JSON."""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.exports import detect_format, iter_events
from adapters.jsonl import JsonlItem
from memory.errors import InputError
from memory.models import Channel, Message

EXPORTS = Path(__file__).parent / "fixtures" / "exports"
SLACK = EXPORTS / "slack_export"
DCE = EXPORTS / "discord_dce.json"
GUILD = "1042338871355334656"
DEPLOYS = "1042338871967703080"


def zip_folder(folder: Path, target: Path, *, prefix: str = "") -> Path:
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, prefix + path.relative_to(folder).as_posix())
    return target


def copy_slack(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SLACK, tmp_path / "export"))


def events(items: list[JsonlItem]) -> list[Any]:
    """The imported events (records skipped on purpose, each with a reason, left out)."""
    assert [i.error for i in items if i.error is not None] == []
    assert all(i.skipped for i in items if i.event is None)
    return [i.event for i in items if i.event is not None]


def errors(items: list[JsonlItem]) -> list[InputError]:
    return [i.error for i in items if i.error is not None]


def read_json(path: Path) -> Any:
    return json.loads(path.read_text())


def write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value))


# --- detection -----------------------------------------------------------------------------


def test_detect_formats(tmp_path: Path) -> None:
    assert detect_format(SLACK) == "slack_export"
    assert detect_format(zip_folder(SLACK, tmp_path / "a.zip")) == "slack_export"
    assert detect_format(zip_folder(SLACK, tmp_path / "b.zip", prefix="Acme Slack export/")) == (
        "slack_export"
    )
    assert detect_format(DCE) == "discord_export"
    assert detect_format(EXPORTS / "jsonl" / "good.jsonl") == "jsonl"


def test_detect_dce_whose_messages_key_is_far_into_the_file(tmp_path: Path) -> None:
    path = tmp_path / "late.json"
    write_json(
        path, {"messages": [], "pad": "x" * 100_000, "guild": {"id": "1"}, "channel": {"id": "2"}}
    )
    assert detect_format(path) == "discord_export"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("data.json", '{"guild": {}, "channel": {}}', "unknown format"),
        ("data.json", "[1, 2]", "unknown format"),
        ("notes.txt", "hello", "unknown format"),
        ("other.zip", None, "zip is not a Slack export"),
    ],
)
def test_detect_rejects_unknown_files(
    tmp_path: Path, name: str, content: str | None, reason: str
) -> None:
    path = tmp_path / name
    if content is None:
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("readme.txt", "not slack")
    else:
        path.write_text(content)
    with pytest.raises(InputError, match=reason):
        detect_format(path)


def test_detect_rejects_missing_path_and_plain_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        detect_format(tmp_path / "missing.jsonl")
    with pytest.raises(InputError, match="not a Slack export"):
        detect_format(tmp_path)


def test_iter_events_reports_undetectable_path_as_one_error(tmp_path: Path) -> None:
    [item] = list(iter_events(tmp_path / "missing.zip"))
    assert item.line == 0 and item.event is None
    assert item.error is not None and "no such file" in str(item.error)


# --- Slack export --------------------------------------------------------------------------


def test_slack_export_folder() -> None:
    got = events(list(iter_events(SLACK, slack_permalink_base="https://acme.slack.com")))
    channels, messages = got[:3], got[3:]
    assert channels == [
        Channel(
            platform="slack",
            space="T0ACME001",
            id="C01GENERAL",
            name="general",
            members=("U01ALICE", "U02BOB", "U03CARA"),
        ),
        Channel(
            platform="slack",
            space="T0ACME001",
            id="C02RANDOM",
            name="random",
            members=("U01ALICE", "U02BOB"),
        ),
        Channel(
            platform="slack",
            space="T0ACME001",
            id="G03LEADS",
            name="leads",
            is_private=True,
            members=("U01ALICE", "U02BOB"),
        ),
    ]
    assert all(isinstance(m, Message) for m in messages)
    # Joins and bot posts are dropped; channel by channel, day by day, in file order.
    assert [(m.channel, m.id) for m in messages] == [
        ("C01GENERAL", "1709542800.000100"),
        ("C01GENERAL", "1709543100.000200"),
        ("C01GENERAL", "1709632800.000400"),
        ("C01GENERAL", "1709636400.000500"),
        ("C02RANDOM", "1709552700.000600"),
        ("G03LEADS", "1709650800.000700"),
        ("G03LEADS", "1709650860.000800"),
    ]
    parent, reply, edited, shared, lunch, budget, _ = messages
    assert parent == Message(
        platform="slack",
        space="T0ACME001",
        channel="C01GENERAL",
        id="1709542800.000100",
        user="U01ALICE",
        user_name="alice",
        ts=datetime(2024, 3, 4, 9, 0, 0, 100, tzinfo=UTC),
        text="Release freeze starts Friday. Owner: @Bob Stone",
        thread_id="1709542800.000100",
        channel_name="general",
        permalink="https://acme.slack.com/archives/C01GENERAL/p1709542800000100",
    )
    assert (reply.reply_to, reply.user_name, reply.text) == (
        "1709542800.000100",
        "Bob Stone",
        "Ack & I'll post the checklist",
    )
    assert edited.edited and edited.user_name == "cara"  # users.json: no profile names → name
    assert (
        edited.text == "Freeze moved to Monday, see the freeze page (https://wiki.acme.dev/freeze)"
    )
    assert shared.text == "Checklist attached\n[file: Freeze checklist]"
    assert lunch.text == "Lunch at noon? @here" and lunch.channel_name == "random"
    assert budget.channel_name == "leads"


@pytest.mark.parametrize("prefix", ["", "Acme Slack export Mar 4 2024/"])
def test_slack_export_zip_reads_like_the_folder(tmp_path: Path, prefix: str) -> None:
    archive = zip_folder(SLACK, tmp_path / "export.zip", prefix=prefix)
    assert events(list(iter_events(archive))) == events(list(iter_events(SLACK)))


def test_slack_export_reports_bad_files_and_entries_and_keeps_the_rest(tmp_path: Path) -> None:
    root = copy_slack(tmp_path)
    day = root / "general" / "2024-03-04.json"
    entries = read_json(day)
    del entries[1]["ts"]  # the thread parent
    entries.insert(2, "not a message")
    write_json(day, entries)
    (root / "random" / "2024-03-04.json").write_text("[{broken")
    channels = read_json(root / "channels.json")
    channels.append({"name": "no-id"})
    write_json(root / "channels.json", channels)
    (root / "ghost").mkdir()
    write_json(
        root / "ghost" / "2024-03-04.json",
        [{"type": "message", "user": "U1", "text": "hi", "ts": "1.0"}],
    )

    items = list(iter_events(root))
    problems = {
        (Path(e.source or "").name, i.line): str(e) for i in items if (e := i.error) is not None
    }
    assert problems.keys() == {
        ("channels.json", 3),
        ("ghost", 0),
        ("2024-03-04.json", 2),
        ("2024-03-04.json", 3),
        ("2024-03-04.json", 0),
    }
    assert "entry 3: missing field 'id'" in problems[("channels.json", 3)]
    assert "not listed in channels.json" in problems[("ghost", 0)]
    assert (
        "entry 2: malformed Slack message: missing field 'ts'" in problems[("2024-03-04.json", 2)]
    )
    assert "entry 3: not a message object" in problems[("2024-03-04.json", 3)]
    assert "invalid JSON" in problems[("2024-03-04.json", 0)]
    broken = next(
        e for i in items if (e := i.error) is not None and i.line == 0 and "JSON" in str(e)
    )
    assert broken.source == str(root / "random" / "2024-03-04.json")
    ids = [i.event.id for i in items if isinstance(i.event, Message)]
    assert ids == [
        "1709543100.000200",
        "1709632800.000400",
        "1709636400.000500",
        "1709650800.000700",
        "1709650860.000800",
    ]


def test_slack_export_zip_error_names_the_member(tmp_path: Path) -> None:
    root = copy_slack(tmp_path)
    write_json(root / "leads" / "2024-03-05.json", {"not": "a list"})
    archive = zip_folder(root, tmp_path / "export.zip")
    [error] = errors(list(iter_events(archive)))
    assert error.source == f"{archive}/leads/2024-03-05.json"
    assert "expected a JSON array" in str(error)


def test_slack_team_falls_back_to_users_then_constant(tmp_path: Path) -> None:
    root = copy_slack(tmp_path)
    for day in root.glob("*/*.json"):
        write_json(day, [{k: v for k, v in m.items() if k != "team"} for m in read_json(day)])
    first = next(iter_events(root)).event
    assert isinstance(first, Channel) and first.space == "T0ACME001"  # users.json team_id
    write_json(root / "users.json", [])
    spaces = {i.event.space for i in iter_events(root) if i.event is not None}
    assert spaces == {"slack-export"}


def test_slack_export_with_dms_and_mpims(tmp_path: Path) -> None:
    root = copy_slack(tmp_path)
    write_json(
        root / "dms.json", [{"id": "D01AB", "created": 1, "members": ["U01ALICE", "U02BOB"]}]
    )
    write_json(
        root / "mpims.json",
        [
            {
                "id": "G09MP",
                "name": "mpdm-alice--bob--cara-1",
                "members": ["U01ALICE", "U02BOB", "U03CARA"],
            }
        ],
    )
    (root / "D01AB").mkdir()
    write_json(
        root / "D01AB" / "2024-03-06.json",
        [{"type": "message", "user": "U02BOB", "text": "psst", "ts": "1709700000.000100"}],
    )
    got = events(list(iter_events(root)))
    dm_channel = next(e for e in got if isinstance(e, Channel) and e.id == "D01AB")
    assert (
        dm_channel.is_private
        and dm_channel.name == ""
        and dm_channel.members == ("U01ALICE", "U02BOB")
    )
    mpim = next(e for e in got if isinstance(e, Channel) and e.id == "G09MP")
    assert mpim.is_private
    dm = got[-1]
    assert isinstance(dm, Message)
    assert (dm.channel, dm.channel_name, dm.text, dm.user_name) == (
        "D01AB",
        None,
        "psst",
        "Bob Stone",
    )


# --- DiscordChatExporter -------------------------------------------------------------------


def test_dce_export() -> None:
    items = list(iter_events(DCE))
    got = events(items)
    assert [i.line for i in items if i.event] == [1, 3, 5]  # join (2) and bot (4) skipped
    assert [i.line for i in items if i.skipped] == [2, 4]  # ... and counted as such
    first, reply, attachment_only = got
    assert first == Message(
        platform="discord",
        space=GUILD,
        channel=DEPLOYS,
        id="1213048081612931077",
        user="80351110224678912",
        user_name="Nel (ops)",
        ts=datetime(2024, 3, 1, 9, 0, tzinfo=UTC),
        text="Deploy window is Thursday 14:00 UTC",
        channel_name="deploys",
        permalink=f"https://discord.com/channels/{GUILD}/{DEPLOYS}/1213048081612931077",
    )
    assert reply.reply_to == "1213048081612931077"
    assert reply.edited and reply.user_name == "Ann K"
    assert (
        reply.text == "@Nel (ops) agreed, moving it to Friday 10:00 :shipit:\n[file: rollout.png]"
    )
    assert attachment_only.text == "[file: diagram.svg]"


def test_dce_thread_export_is_keyed_under_parent(tmp_path: Path) -> None:
    data = read_json(DCE)
    data["channel"] = {
        "id": "1225890300000000001",
        "type": "GuildPublicThread",
        "categoryId": DEPLOYS,
        "category": "deploys",
        "name": "rollback",
        "topic": None,
    }
    path = tmp_path / "thread.json"
    write_json(path, data)
    first = events(list(iter_events(path)))[0]
    assert (first.channel, first.thread_id, first.channel_name) == (
        DEPLOYS,
        "1225890300000000001",
        "deploys",
    )
    assert first.permalink.endswith("/1225890300000000001/1213048081612931077")


def test_dce_dm_export_yields_private_channel(tmp_path: Path) -> None:
    data = read_json(DCE)
    data["guild"] = {"id": "0", "name": "Direct Messages"}
    data["channel"] = {
        "id": "555000000000000001",
        "type": "DirectTextChat",
        "categoryId": None,
        "category": "Private",
        "name": "nelly",
        "topic": None,
    }
    path = tmp_path / "dm.json"
    write_json(path, data)
    got = events(list(iter_events(path)))
    assert got[0] == Channel(
        platform="discord",
        space="@me",
        id="555000000000000001",
        name="nelly",
        is_private=True,
        members=(
            "175928847299117063",
            "300000000000000001",
            "400000000000000001",
            "80351110224678912",
        ),
    )
    assert {m.space for m in got[1:]} == {"@me"}


def test_dce_bad_entries_are_reported_by_index(tmp_path: Path) -> None:
    data = read_json(DCE)
    del data["messages"][0]["id"]
    data["messages"][2]["timestamp"] = "someday"
    data["messages"].append(42)
    path = tmp_path / "bad.json"
    write_json(path, data)
    items = list(iter_events(path))
    problems = {i.line: str(i.error) for i in items if i.error is not None}
    assert problems.keys() == {1, 3, 6}
    assert problems[1].startswith(f"{path}: entry 1: malformed Discord message: missing field 'id'")
    assert "entry 3: malformed Discord message: bad timestamp" in problems[3]
    assert "entry 6: not a message object" in problems[6]
    assert [i.line for i in items if i.event is not None] == [5]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"guild": [], "channel": {}, "messages": []}', "'guild' and 'channel' must be objects"),
        (
            '{"guild": {"id": "1"}, "channel": {"id": "2"}, "messages": {}}',
            "'messages' must be a list",
        ),
        ('{"guild": {"id": "1"}, "channel": {}, "messages": []}', "channel has no 'id'"),
        ('{"guild": {"id": "1"}, "channel": {"id": "2"}, "messages": [', "cannot read export"),
    ],
)
def test_dce_bad_file_is_one_error(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    [item] = list(iter_events(path))
    assert item.line == 0 and item.error is not None and reason in str(item.error)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)
DCE_MESSAGE = st.fixed_dictionaries(
    {},
    optional={
        "id": st.sampled_from(["1213048081612931077", "x"]) | JSON,
        "type": st.sampled_from(["Default", "Reply", "19", "Call"]) | JSON,
        "timestamp": st.just("2024-03-01T10:00:00+01:00") | JSON,
        "content": st.text(max_size=20) | JSON,
        "author": st.fixed_dictionaries({}, optional={"id": JSON, "name": JSON, "isBot": JSON})
        | JSON,
        "mentions": st.lists(JSON, max_size=2) | JSON,
        "attachments": st.lists(st.fixed_dictionaries({}, optional={"fileName": JSON}), max_size=2)
        | JSON,
        "reference": st.fixed_dictionaries({}, optional={"type": JSON, "messageId": JSON}) | JSON,
    },
)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(DCE_MESSAGE | JSON, max_size=5), channel=JSON)
def test_dce_import_never_raises(tmp_path: Path, messages: list[Any], channel: Any) -> None:
    path = tmp_path / "fuzz.json"
    write_json(
        path,
        {
            "guild": {"id": "1"},
            "channel": channel if channel else {"id": "2"},
            "messages": messages,
        },
    )
    for item in iter_events(path):
        assert [item.event, item.error, item.skipped].count(None) == 2


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=JSON, users=JSON)
def test_slack_export_never_raises(tmp_path: Path, entries: Any, users: Any) -> None:
    root = tmp_path / "fuzz"
    (root / "general").mkdir(parents=True, exist_ok=True)
    write_json(root / "users.json", users)
    write_json(root / "channels.json", [{"id": "C1", "name": "general"}])
    write_json(root / "general" / "2024-01-01.json", entries)
    for item in iter_events(root):
        assert [item.event, item.error, item.skipped].count(None) == 2
