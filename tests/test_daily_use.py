"""The daily-use service features on the real memory (LanceDB + Tantivy in a temp dir): the
share check, recent changes, history ranking, pending counts and forgetting a workspace."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memory.access import SpaceAccess
from memory.daily_use import rank_history
from memory.models import Answer, ChainEntry, Channel, Message, State, Verdict
from memory.reader.answer import citation

T0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)
SPACE = "T0ACME"


def msg(i: int, channel: str, user: str, text: str, *, minutes: int) -> Message:
    return Message(platform="slack", space=SPACE, channel=channel, id=f"{i}", user=user,
                   user_name=user.title(), ts=T0 + timedelta(minutes=minutes), text=text)


@pytest.fixture
def eg(tmp_path: Path) -> Iterator[Any]:
    from bot.app import build
    from bot.settings import Settings

    service = build(Settings(data=str(tmp_path / "data"), embedder="hashing"))
    service.upsert_channels([
        Channel(platform="slack", space=SPACE, id="CGEN", name="general"),
        Channel(platform="slack", space=SPACE, id="GLEAD", name="leadership", is_private=True,
                members=("grace", "hugo", "alice")),
        Channel(platform="slack", space=SPACE, id="GEXEC", name="exec", is_private=True,
                members=("grace", "hugo")),
        Channel(platform="slack", space=SPACE, id="GOPS", name="ops", is_private=True,
                members=("dev", "bob")),
    ])
    # the adapter read the workspace's directory: nobody reads less than the public channels
    service.set_space_access(SpaceAccess(platform="slack", space=SPACE, complete=True))
    service.submit([
        msg(1, "CGEN", "dev", "The AWS budget alert is $8,000 for November", minutes=0),
        msg(2, "GLEAD", "grace", "Hiring budget for 2025 is $480k", minutes=1),
        msg(3, "GLEAD", "hugo", "Board trimmed it: the hiring budget is now $360k", minutes=60),
    ])
    service.process()
    try:
        yield service
    finally:
        service.close()


def node_id(eg: Any, channel: str, mid: str) -> str:
    node = eg.store.find_message(channel=channel, message_id=mid)
    assert node is not None
    return str(node.node_id)


def citing(eg: Any, *keys: tuple[str, str]) -> Answer:
    """An answer that cites the given (channel, message id) messages, as memory has them."""
    nodes = [eg.store.find_message(channel=c, message_id=m) for c, m in keys]
    return Answer(answer="…", citations=[citation(n) for n in nodes if n is not None])


def test_share_check_allows_only_what_everyone_in_the_channel_may_read(eg: Any) -> None:
    public, private = ("CGEN", "1"), ("GLEAD", "3")

    def check(answer: Answer, channel: str, user: str = "dev") -> Any:
        return eg.share_check(answer, platform="slack", space=SPACE, channel=channel,
                              user=user, widen=False)

    refused = check(citing(eg, public, private), "CGEN")
    assert not refused.ok and refused.withheld == ("GLEAD",) and refused.answer is None
    assert check(citing(eg, public), "CGEN").ok
    # into the private channel itself, or one whose members all read #leadership
    assert check(citing(eg, private), "GLEAD", user="grace").ok
    assert check(citing(eg, private, public), "GEXEC", user="grace").ok
    assert not check(citing(eg, private), "GOPS", user="bob").ok
    assert not check(citing(eg, private), "CNEW").ok
    # composed with #leadership in scope: not shareable in #general even citing #general
    widened = eg.share_check(citing(eg, public), platform="slack", space=SPACE,
                             channel="CGEN", user="grace", widen=True)
    assert not widened.ok and widened.private_scope
    # a cited message forgotten since: the answer is no longer what was seen
    answer = citing(eg, public)
    eg.forget_message(platform="slack", space=SPACE, channel="CGEN", message_id="1")
    gone = check(answer, "CGEN")
    assert not gone.ok and gone.missing == 1


def test_recent_changes_are_scoped_and_ordered(eg: Any) -> None:
    since = T0 - timedelta(days=1)
    grace = eg.recent_changes(platform="slack", space=SPACE, user="grace", channel=None,
                              since=since)
    assert [s.channel for s in grace] == ["GLEAD"]
    assert [e.value for e in grace[0].chain][-1] == "$360k"
    assert eg.recent_changes(platform="slack", space=SPACE, user="bob", channel=None,
                             since=since) == []
    assert eg.recent_changes(platform="slack", space=SPACE, user="grace", channel=None,
                             since=T0 + timedelta(days=1)) == []
    # the digest of one channel reads that channel only
    assert eg.recent_changes(platform="slack", space=SPACE, user=None, channel="CGEN",
                             since=since, widen=False) == []


def test_pending_counts_what_is_not_committed(eg: Any) -> None:
    eg.submit([msg(9, "CGEN", "dev", "bumping the alert to $9,500", minutes=120)])
    assert eg.pending_in(platform="slack", space=SPACE, channel="CGEN") == 1
    assert eg.pending_in(platform="slack", space=SPACE, channel="GLEAD") == 0


def _state(sid: str, topic: str, values: list[str]) -> State:
    chain = [ChainEntry(node_id=f"{sid}{i}", message_id=str(i), value=v, speaker="A",
                        ts=T0 + timedelta(hours=i), quote=v,
                        verdict=Verdict.REVISE if i else Verdict.ESTABLISH)
             for i, v in enumerate(values)]
    return State(state_id=sid, platform="slack", space=SPACE, channel="C", topic=topic,
                 value=values[-1], active_node_id=chain[-1].node_id,
                 revision_count=len(values) - 1, updated_at=chain[-1].ts, chain=chain)


def test_history_ranks_the_decision_the_topic_names_first() -> None:
    states = [_state("s1", "review starting orca remote", ["now"]),
              _state("s2", "bring review checklist", ["pinned"]),
              _state("s3", "atlas design review", ["3 pm", "4 pm", "Friday 10am"]),
              _state("s4", "design sync", ["Mondays"])]
    ranked = rank_history(states, "design review")
    assert [s.state_id for s in ranked] == ["s3", "s1", "s2", "s4"]


def test_forgetting_a_person_deletes_their_feedback_too(eg: Any) -> None:
    from memory.ports import FeedbackEntry

    def vote(asker: str, rater: str) -> FeedbackEntry:
        return FeedbackEntry(platform="slack", space=SPACE, channel="CGEN", asker=asker,
                             rater=rater, vote="down", question=f"{asker}'s secret question",
                             at=T0)

    for entry in (vote("dev", "dev"), vote("grace", "dev"), vote("grace", "grace")):
        eg.record_feedback(entry)
    eg.forget_user("dev")
    assert [(e.asker, e.rater) for e in eg.feedback_entries()] == [("grace", "grace")]
    blob = (Path(eg.inbox.path).parent / "feedback.sqlite3").read_bytes()
    assert b"dev's secret question" not in blob
