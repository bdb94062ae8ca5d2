"""Deleted and forgotten messages never come back.

A tombstone (a hash of the message key, never of its text) is recorded for every deleted
or forgotten message and checked when an event is submitted and again when a message is
committed. These tests bring a message back by every route that used to work: a delete
that arrives before its message (a late Slack retry, a delete earlier in the same file, a
second import), a dead letter retried after offboarding, a backfill after `forget --user`,
and a retry racing a delete into the writer.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import build
from bot.ingest import ingest_path
from bot.settings import Settings
from memory.models import Channel, Delete, Edit, Message, Scope
from memory.service import Egmem
from tests.support.memory import T0
from tests.support.probe import leaks

SPACE = "T1"
MARKER = "quokkavx"
EXPORTS = Path(__file__).parent / "fixtures" / "exports"


def _m(i: int, user: str = "alice", text: str = f"the {MARKER} launch is Friday 3pm",
       *, channel: str = "C1") -> Message:
    return Message(platform="slack", space=SPACE, channel=channel, id=f"{i}.000100",
                   user=f"U{user}", user_name=user, ts=T0 + timedelta(minutes=i), text=text)


def _delete(i: int, *, minutes: int | None = None, named: bool = True) -> Delete:
    return Delete(platform="slack" if named else "", space=SPACE if named else "", channel="C1",
                  id=f"{i}.000100",
                  ts=T0 + timedelta(minutes=i if minutes is None else minutes))


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[tuple[Egmem, Path]]:
    data = tmp_path / "data"
    eg = build(Settings(data=str(data), embedder="hashing"))
    eg.upsert_channels([Channel(platform="slack", space=SPACE, id="C1", name="dev")])
    try:
        yield eg, data
    finally:
        eg.close()


def _ids(eg: Egmem) -> set[str]:
    return {n.message_id for n in eg.store.find_nodes(Scope())}


def _gone(eg: Egmem, data: Path) -> None:
    assert "1.000100" not in _ids(eg)
    ans = eg.ask("when is the quokkavx launch?", platform="slack", space=SPACE, user=None,
                 channel=None)
    assert not ans.citations and MARKER not in ans.answer
    assert leaks(eg, data, MARKER) == []


def test_control_the_message_is_found_when_nothing_deleted_it(mem: tuple[Egmem, Path]) -> None:
    eg, data = mem
    eg.submit([_m(1)])
    eg.drain()
    assert "1.000100" in _ids(eg)
    assert "lookup_phrase" in leaks(eg, data, MARKER, files=False)


def test_a_delete_before_its_message_keeps_it_out(mem: tuple[Egmem, Path]) -> None:
    """A late Slack retry of the message, after the delete was processed."""
    eg, data = mem
    eg.submit([_delete(1)])
    eg.drain()
    assert eg.submit([_m(1)]) == 0
    eg.drain()
    _gone(eg, data)


def test_a_delete_that_names_only_channel_and_id_buries_the_message(
        mem: tuple[Egmem, Path]) -> None:
    """Export files may give a delete without platform or space."""
    eg, data = mem
    eg.submit([_delete(1, named=False)])
    eg.drain()
    eg.submit([_m(1)])
    eg.drain()
    _gone(eg, data)


def test_a_delete_earlier_in_time_in_the_same_file(mem: tuple[Egmem, Path],
                                                   tmp_path: Path) -> None:
    eg, data = mem
    path = tmp_path / "chat.jsonl"
    lines = [
        {"type": "message", "platform": "slack", "space": SPACE, "channel": "C1",
         "id": "1.000100", "user": "Ualice", "user_name": "alice",
         "ts": (T0 + timedelta(minutes=5)).isoformat(), "text": f"the {MARKER} launch"},
        {"type": "delete", "channel": "C1", "id": "1.000100", "ts": T0.isoformat()},
        {"type": "message", "platform": "slack", "space": SPACE, "channel": "C1",
         "id": "2.000100", "user": "Ubob", "user_name": "bob",
         "ts": (T0 + timedelta(minutes=6)).isoformat(), "text": "unrelated note"},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    ingest_path(eg, path)
    assert _ids(eg) == {"2.000100"}
    _gone(eg, data)


def test_a_second_import_does_not_bring_a_deleted_message_back(
        mem: tuple[Egmem, Path], tmp_path: Path) -> None:
    eg, data = mem
    deletes = tmp_path / "deletes.jsonl"
    deletes.write_text(json.dumps({"type": "delete", "channel": "C1", "id": "1.000100",
                                   "ts": T0.isoformat()}) + "\n")
    ingest_path(eg, deletes)
    export = tmp_path / "export.jsonl"
    export.write_text(json.dumps({
        "type": "message", "platform": "slack", "space": SPACE, "channel": "C1",
        "id": "1.000100", "user": "Ualice", "user_name": "alice",
        "ts": (T0 + timedelta(minutes=1)).isoformat(), "text": f"the {MARKER} launch"}) + "\n")
    report = ingest_path(eg, export)
    assert report["committed"] == 0
    _gone(eg, data)


def test_an_edit_cannot_revive_a_deleted_message(mem: tuple[Egmem, Path]) -> None:
    eg, data = mem
    eg.submit([_m(1)])
    eg.drain()
    eg.submit([_delete(1, minutes=2)])
    eg.drain()
    eg.submit([Edit(platform="slack", space=SPACE, channel="C1", id="1.000100",
                    text=f"the {MARKER} launch moved", ts=T0 + timedelta(minutes=3))])
    eg.drain()
    _gone(eg, data)


def test_the_writer_refuses_a_buried_message_at_commit(mem: tuple[Egmem, Path]) -> None:
    """A retry already queued (or handed to the writer) when the delete lands."""
    eg, data = mem
    eg.submit([_m(1)])
    eg.store.bury([_m(1).key])  # a delete applied by another request, after the submit
    report = eg.drain()
    assert report.committed == 0 and report.refused == 1
    _gone(eg, data)


def test_tombstones_hold_no_text(mem: tuple[Egmem, Path]) -> None:
    eg, data = mem
    eg.submit([_m(1)])
    eg.drain()
    assert eg.forget_message(platform="slack", space=SPACE, channel="C1",
                             message_id="1.000100")
    keys = eg.inbox.inspection().tombstone_keys()
    assert keys and all(MARKER not in k and "1.000100" not in k for k in keys)


# ---- offboarding ----------------------------------------------------------------------------


def _dead_letter(eg: Egmem, message: Message) -> None:
    """Put ``message`` in the dead-letter state, as repeated writer failures do."""
    eg.submit([message])
    seq = next(p.seq for p in eg.inbox.pending(("slack", SPACE, message.channel))
               if p.event == message)
    for _ in range(eg.inbox.max_attempts):
        eg.inbox.mark_failed([seq], "RuntimeError: writer failed")
    assert [d.message_id for d in eg.inbox.dead_letters()] == [message.id]


def test_forget_user_scrubs_dead_letters_and_retry_cannot_revive_them(
        mem: tuple[Egmem, Path]) -> None:
    eg, data = mem
    eg.submit([_m(5, "bob", "unrelated note")])
    eg.drain()
    _dead_letter(eg, _m(1))
    assert "inbox" in leaks(eg, data, MARKER, files=False)
    eg.forget_user("Ualice")
    assert leaks(eg, data, MARKER) == []
    eg.inbox.retry_dead()
    eg.drain()
    _gone(eg, data)
    assert _ids(eg) == {"5.000100"}


def test_a_worker_with_a_fresh_inbox_refuses_a_forgotten_message_at_commit(
        tmp_path: Path) -> None:
    """On shared storage each worker has its own inbox: one that never saw the delete
    still accepts the message at submit, and the commit check must refuse it."""
    data = tmp_path / "data"
    eg = build(Settings(data=str(data), embedder="hashing"))
    eg.submit([_m(1), _m(2, "bob", "unrelated note")])
    eg.drain()
    assert eg.forget_user("Ualice") == 1
    eg.close()
    for f in data.glob("inbox.sqlite3*"):  # the worker's own, empty inbox
        f.rename(tmp_path / f.name)
    worker = build(Settings(data=str(data), embedder="hashing"))
    try:
        assert worker.submit([_m(1)]) == 1  # this inbox has never heard of it
        report = worker.drain()
        assert report.committed == 0 and report.refused == 1
        _gone(worker, data)
    finally:
        worker.close()


def test_a_slack_export_tombstone_buries_a_message_an_earlier_import_stored(
        tmp_path: Path) -> None:
    """A thread parent deleted while its replies remain is a "tombstone" placeholder in the
    next export: importing that export removes what the earlier one stored."""
    export = Path(shutil.copytree(EXPORTS / "slack_export", tmp_path / "export"))
    day = export / "general" / "2024-03-05.json"
    data = tmp_path / "data"
    eg = build(Settings(data=str(data), embedder="hashing"))
    try:
        ingest_path(eg, export)
        entries = json.loads(day.read_text())
        parent = entries[0]
        assert eg.store.find_message(channel="C01GENERAL", message_id=parent["ts"]) is not None
        entries[0] = {"type": "message", "subtype": "tombstone", "ts": parent["ts"],
                      "thread_ts": parent["ts"], "text": "This message was deleted.",
                      "user": "USLACKBOT", "reply_count": 1}
        day.write_text(json.dumps(entries))
        ingest_path(eg, export)
        assert eg.store.find_message(channel="C01GENERAL", message_id=parent["ts"]) is None
        assert leaks(eg, data, "Freeze moved to Monday", space=parent["team"]) == []
        assert leaks(eg, data, "This message was deleted", files=False) == []
    finally:
        eg.close()


def test_a_slack_retry_that_arrives_after_the_delete_stays_out(tmp_path: Path) -> None:
    """Through the real Slack endpoint: the message's first delivery timed out, its delete
    arrives, then Slack's retry of the message (``X-Slack-Retry-Num``) lands."""
    from tests.test_slack_app import BOB, GENERAL, envelope, message, running_app

    data = tmp_path / "data"
    service = build(Settings(data=str(data), embedder="hashing"))
    try:
        with running_app(service) as slack:
            slack.event(envelope(message("the deploy window is Thursday 14:00 UTC",
                                         ts="1712000001.000100"), event_id="E1"))
            slack.event(envelope({"type": "message", "subtype": "message_deleted",
                                  "channel": GENERAL, "channel_type": "channel",
                                  "deleted_ts": "1712000002.000100",
                                  "ts": "1712000100.000100", "hidden": True}, event_id="E3"))
            slack.drain()
            assert _wait(lambda: not service.inbox.count(status="pending"))  # delete applied
            status, _ = slack.event(envelope(message(
                f"the {MARKER} window moves to Friday 10:00 UTC", ts="1712000002.000100",
                user=BOB), event_id="E2"), retry_num=1)
            assert status == 200  # acknowledged (Slack must stop retrying), not stored
            slack.drain()
            assert _wait(lambda: not service.inbox.count(status="pending"))
            ids = {n.message_id for n in service.store.find_nodes(Scope())}
            assert ids == {"1712000001.000100"}
            assert leaks(service, data, MARKER, space=service.store.channels()[0].space) == []
    finally:
        service.close()


def _wait(what: Callable[[], bool], within: float = 30.0) -> bool:
    import time

    end = time.monotonic() + within
    while time.monotonic() < end and not what():
        time.sleep(0.05)
    return what()
