"""A queued event corrected after the ack (names or the channel looked up later): the
pending entry is replaced in place, never duplicated, and never touched once committed."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.models import Delete, Edit, MessageKey
from memory.store.inbox import Inbox
from tests.support.memory import T0, msg


@pytest.fixture
def inbox(tmp_path: Path) -> Inbox:
    return Inbox(tmp_path / "inbox.sqlite3")


def _pending(inbox: Inbox, channel: str = "C1") -> list[object]:
    return [p.event for p in inbox.pending(("slack", "T1", channel))]


def test_a_pending_message_is_replaced_in_place_and_a_retry_adds_nothing(inbox: Inbox) -> None:
    raw = msg(1, "", "ask <@U2> about it").model_copy(update={"user_name": "",
                                                             "channel_name": None})
    fixed = msg(1, "Alice", "ask @Bob about it")
    later = msg(2, "Carol", "ok")
    assert inbox.submit([raw, later]) == 2
    seqs = [p.seq for p in inbox.pending(("slack", "T1", "C1"))]
    assert inbox.amend(raw, fixed)
    pending = inbox.pending(("slack", "T1", "C1"))
    assert [(p.seq, p.event) for p in pending] == list(zip(seqs, [fixed, later], strict=True))
    assert inbox.submit([raw]) == 0 and inbox.submit([fixed]) == 0  # the same key
    assert inbox.count(kind="message") == 2


def test_nothing_is_amended_once_committed_deleted_or_never_queued(inbox: Inbox) -> None:
    first, second = msg(1, "", "a"), msg(2, "", "b")
    inbox.submit([first, second])
    (p1, p2) = inbox.pending(("slack", "T1", "C1"))
    inbox.mark_done([p1.seq])
    assert not inbox.amend(first, msg(1, "Alice", "a"))
    inbox.submit([Delete(platform="slack", space="T1", channel="C1", id="2", ts=T0)])
    assert not inbox.amend(second, msg(2, "Bob", "b"))
    assert inbox.queued_text(second.key) is None
    assert not inbox.amend(msg(3, "", "c"), msg(3, "Carol", "c"))
    assert inbox.count(kind="message") == 2
    assert [type(e).__name__ for e in _pending(inbox)] == ["Delete"]


def test_an_edit_takes_the_key_of_its_corrected_text(inbox: Inbox) -> None:
    raw = Edit(platform="slack", space="T1", channel="C1", id="1", text="ask @U2", ts=T0)
    fixed = raw.model_copy(update={"text": "ask @Bob"})
    inbox.submit([raw])
    assert inbox.amend(raw, fixed)
    assert _pending(inbox) == [fixed]
    assert inbox.submit([fixed]) == 0  # a retry that came with the names is a no-op
    # A retry without the names arrives, and its own correction finds the edit queued.
    assert inbox.submit([raw]) == 1
    assert inbox.amend(raw, fixed)
    assert _pending(inbox) == [fixed]


def test_a_correction_may_move_an_event_to_its_channel_or_withdraw_it(inbox: Inbox) -> None:
    provisional = Delete(platform="slack", space="T1", channel="THREAD", id="1", ts=T0)
    located = provisional.model_copy(update={"channel": "C1"})
    inbox.submit([msg(1, "Alice", "secret plan")])
    inbox.submit([provisional])
    assert inbox.amend(provisional, located)
    # the delete now buries the message where it lives: its queued text is gone
    assert inbox.queued_text(MessageKey(platform="slack", space="T1", channel="C1",
                                        message_id="1")) is None
    assert inbox.buried([MessageKey(platform="slack", space="T1", channel="C1",
                                    message_id="1")])
    assert _pending(inbox) == [located] and _pending(inbox, "THREAD") == []
    edit = Edit(platform="slack", space="T1", channel="PRIVATE", id="9", text="x", ts=T0)
    inbox.submit([edit])
    assert inbox.amend(edit, None)
    assert _pending(inbox, "PRIVATE") == []
    assert inbox.submit([edit]) == 0  # withdrawn for good


def test_an_amendment_must_be_of_the_same_message(inbox: Inbox) -> None:
    inbox.submit([msg(1, "", "a")])
    with pytest.raises(ValueError):
        inbox.amend(msg(1, "", "a"), msg(2, "", "a"))
