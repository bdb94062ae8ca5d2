"""Forget, then probe: nothing forgotten can be read back, by any path, from any byte on disk.

Each way of forgetting — a platform delete event, ``forget_message``, ``forget_user``
(offboarding) and retention — is followed by the same probe: every reader tool, ``ask``,
``history``, ``stats``, every column of every table, the lexical index's term dictionary,
the inbox, and a raw byte scan of every file under the data directory. Forgotten messages
carry distinctive marker words; the probe first proves it finds a marker before the forget
(so an empty probe cannot pass). Chains must be repaired (a state falls back to its previous
value), states re-derived, and other messages' rewrites must stop quoting what was forgotten.
A process SIGKILLed in the middle of ``forget_user`` must, after a restart and a second
``forget_user``, leave a consistent memory and no trace of the user's words.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import build
from bot.settings import Settings
from memory.models import Channel, Delete, EvidenceNode, Message, Scope, Verdict
from memory.service import Egmem

ROOT = Path(__file__).resolve().parents[1]
T0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)
SPACE = "T1"

# Marker words (lower-case, unstemmable), one per way of forgetting.
REVISION_MARKER = "wombatxq"  # in a revision that forget_message removes
CONTEXT_MARKER = "koalazv"  # in a message a short state-establishing reply quotes
DELETE_MARKER = "quolldk"  # in a message the platform deletes
USER_MARKER = "platypusjr"  # in everything Frank says (forget_user)
TOPIC_MARKER = "zebrafinch"  # in the words Frank's state topic is made of
OLD_MARKER = "numbatwk"  # in a message older than the retention period
REVISED_VALUE = "913,377"  # the value the forgotten revision set
FRANK = "UFRANK"
FRANK_NOTES = 40
FRANK_OTHER = 4  # Frank's messages besides the notes


def _m(i: int, user: str, text: str, *, channel: str = "C1", reply: str | None = None,
       ts: datetime | None = None) -> Message:
    return Message(platform="slack", space=SPACE, channel=channel, id=f"{i}",
                   user=f"U{user.upper()}", user_name=user, ts=ts or T0 + timedelta(minutes=i),
                   text=text, thread_id=reply, reply_to=reply,
                   channel_name={"C1": "dev", "C2": "ops", "C3": "launch"}.get(channel))


def corpus() -> tuple[list[Channel], list[Message]]:
    channels = [
        Channel(platform="slack", space=SPACE, id="C1", name="dev"),
        Channel(platform="slack", space=SPACE, id="C2", name="ops"),
        Channel(platform="slack", space=SPACE, id="C3", name="launch"),
        Channel(platform="slack", space=SPACE, id="D1", is_private=True,
                members=(FRANK, "UGINA")),
    ]
    msgs = [
        # A chain: $480k revised to $913,377; a "+1" restates the revision.
        _m(1, "Carol", "the offsite budget is $480k"),
        _m(2, "Dan", f"actually the offsite budget is now ${REVISED_VALUE} per the "
                     f"{REVISION_MARKER} sheet"),
        _m(3, "Erin", "+1 works for me", reply="2"),
        # A context message quoted by the short reply that establishes a state.
        _m(4, "Alice", f"we reviewed the {CONTEXT_MARKER} vendor list and the pricing sheet"),
        _m(5, "Bob", "let's deploy at 4 pm", reply="4"),
        # Frank: a state root, a message others quote, a DM, another channel, many notes.
        _m(6, "Frank", f"the demo is on Friday at 2 pm, {USER_MARKER} hosts it"),
        _m(7, "Gina", "demo moved to 3 pm instead"),
        _m(8, "Hank", "ok", reply="6"),
        _m(9, "Frank", f"{USER_MARKER} rotated the ops keys", channel="C2"),
        _m(10, "Kim", "thanks!", channel="C2", reply="9"),
        _m(11, "Frank", f"{USER_MARKER} in a DM: lunch on Thursday?", channel="D1"),
        _m(15, "Frank", f"{TOPIC_MARKER} says the launch is on Tuesday, {USER_MARKER}",
           channel="C3"),
        _m(16, "Gina", "launch slips to Wednesday", channel="C3"),
        # The platform deletes this one.
        _m(12, "Ivan", f"the wifi password for the offsite is {DELETE_MARKER}"),
        _m(13, "Jill", "noted, thanks", reply="12"),
        # Older than a year: retention removes it.
        _m(14, "Lee", f"archive note: the old vpn hostname was {OLD_MARKER}",
           ts=T0 - timedelta(days=400)),
    ]
    msgs += [_m(100 + i, "Frank", f"{USER_MARKER} note {i}: staging cluster healthy, "
                                  f"ticket {i * 7}") for i in range(FRANK_NOTES)]
    msgs += [_m(200 + i, "Gina", f"status {i}: nothing to report") for i in range(10)]
    return channels, msgs


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed memory of :func:`corpus`, closed; each test works on a copy."""
    data = tmp_path_factory.mktemp("forget-template")
    eg = build(Settings(data=str(data), embedder="hashing"))
    channels, msgs = corpus()
    eg.upsert_channels(channels)
    eg.submit(msgs)
    eg.drain()
    eg.close()
    return data


@pytest.fixture
def memory(template: Path, tmp_path: Path) -> Iterator[tuple[Egmem, Path]]:
    data = tmp_path / "data"
    shutil.copytree(template, data)
    eg = build(Settings(data=str(data), embedder="hashing"))
    try:
        yield eg, data
    finally:
        eg.close()


# ---- the probe -------------------------------------------------------------------------------


def _files_containing(root: Path, needle: str) -> list[str]:
    want = needle.lower().encode()
    return [str(p.relative_to(root)) for p in sorted(root.rglob("*"))
            if p.is_file() and want in p.read_bytes().lower()]


def leaks(eg: Egmem, data: Path, needle: str, *, files: bool = True) -> list[str]:
    """Every place ``needle`` can still be read from (case-insensitive)."""
    low = needle.lower()
    found: list[str] = []

    def check(where: str, blob: object) -> None:
        if low in str(blob).lower():
            found.append(where)

    everything = Scope(platform="slack", space=SPACE)
    s = eg.tools.session(everything)
    check("search_evidence", [(n.text, n.rewrite, n.topic, n.value)
                              for n in s.search_evidence(needle, k=100)])
    check("lookup_phrase", [n.text for n in s.lookup_phrase(needle, k=1000)])
    check("read_current_state", [st.model_dump_json() for st in
                                 s.read_current_state(needle, k=100)])
    for user, channel in ((None, None), ("UGINA", "C1")):
        a = eg.ask(f"what was said about {needle}?", platform="slack", space=SPACE,
                   user=user, channel=channel, widen=True)
        check(f"ask[{user}]", a.model_dump_json())
        check(f"history[{user}]", [st.model_dump_json() for st in eg.history(
            needle, platform="slack", space=SPACE, user=user, channel=channel, widen=True,
            k=100)])
    check("stats", json.dumps(eg.stats(), default=str))
    check("nodes table", eg.store.inspection().node_rows())
    check("states table", eg.store.states.listed())
    token = "".join(ch for ch in low if ch.isalnum())
    if token.isalpha():
        check("lexical terms", eg.store.lexical.body_terms(token))
    check("inbox", eg.inbox.inspection().rows())
    if files:
        found += [f"file {f}" for f in _files_containing(data, needle)]
    return found


def _nodes(eg: Egmem) -> dict[str, EvidenceNode]:
    return {n.message_id: n for n in eg.store.find_nodes(Scope())}


def _assert_consistent(eg: Egmem) -> None:
    """No reference to a node that is gone; the index holds exactly the table's nodes."""
    nodes = eg.store.find_nodes(Scope())
    ids = {n.node_id for n in nodes}
    for n in nodes:
        assert n.supersedes is None or n.supersedes in ids, n.message_id
        assert n.reply_to_node is None or n.reply_to_node in ids, n.message_id
        assert set(n.context_ids) <= ids, n.message_id
    for st in eg.store.states.listed():
        assert st["active_node_id"] in ids, st["state_id"]
    assert eg.store.lexical.count() == len(ids)


# ---- the probe can see (positive controls) ---------------------------------------------------


def test_probe_finds_every_marker_before_forgetting(memory: tuple[Egmem, Path]) -> None:
    eg, data = memory
    for marker in (REVISION_MARKER, CONTEXT_MARKER, DELETE_MARKER, USER_MARKER, OLD_MARKER):
        where = leaks(eg, data, marker)
        assert "lookup_phrase" in where and "nodes table" in where, (marker, where)
        assert "lexical terms" in where, (marker, where)
        assert any(w.startswith("file lance/nodes.lance") for w in where), (marker, where)
    # The memory under test has the structure the forget tests rely on.
    nodes = _nodes(eg)
    assert nodes["2"].verdict is Verdict.REVISE and nodes["3"].verdict is Verdict.RESTATE
    assert nodes["5"].verdict is Verdict.ESTABLISH and CONTEXT_MARKER in nodes["5"].rewrite
    assert REVISION_MARKER in nodes["3"].rewrite and USER_MARKER in nodes["8"].rewrite
    assert nodes["7"].verdict is Verdict.REVISE and nodes["7"].supersedes == nodes["6"].node_id


# ---- ways of forgetting ----------------------------------------------------------------------


def test_platform_delete_event_leaves_no_trace(memory: tuple[Egmem, Path]) -> None:
    eg, data = memory
    before = eg.stats()["evidence_nodes"]
    eg.submit([Delete(platform="slack", space=SPACE, channel="C1", id="12")])
    report = eg.drain()
    assert report.deletes == 1
    assert leaks(eg, data, DELETE_MARKER) == []
    assert eg.stats()["evidence_nodes"] == before - 1
    nodes = _nodes(eg)
    assert "12" not in nodes and "13" in nodes
    # Redelivery of the original message (a retry, a re-import) does not bring it back.
    original = next(m for m in corpus()[1] if m.id == "12")
    assert eg.submit([original]) == 0
    eg.drain()
    assert leaks(eg, data, DELETE_MARKER) == []
    _assert_consistent(eg)


def test_forget_message_repairs_the_chain(memory: tuple[Egmem, Path]) -> None:
    eg, data = memory
    assert eg.forget_message(platform="slack", space=SPACE, channel="C1", message_id="2")
    assert leaks(eg, data, REVISION_MARKER) == []
    states = eg.history("offsite budget", platform="slack", space=SPACE, user=None,
                        channel=None)
    budget = next(s for s in states if s.topic == "offsite budget")
    assert budget.value == "$480k"
    assert [e.value for e in budget.chain] == ["$480k"]
    a = eg.ask("what is the offsite budget now?", platform="slack", space=SPACE, user=None,
               channel=None)
    assert "$480k" in a.answer and REVISED_VALUE not in a.answer
    # The "+1" that replied to the forgotten revision no longer quotes it.
    assert REVISION_MARKER not in _nodes(eg)["3"].rewrite
    _assert_consistent(eg)
    # Forgetting twice is harmless.
    assert not eg.forget_message(platform="slack", space=SPACE, channel="C1", message_id="2")


def test_forget_message_rederives_what_restated_it(memory: tuple[Egmem, Path]) -> None:
    eg, data = memory
    eg.forget_message(platform="slack", space=SPACE, channel="C1", message_id="2")
    # The "+1" restated $913,377; that value came only from the forgotten message.
    assert _nodes(eg)["3"].value != f"${REVISED_VALUE}"
    assert leaks(eg, data, REVISED_VALUE) == []


def test_forgotten_context_leaves_state_descriptions(memory: tuple[Egmem, Path]) -> None:
    eg, data = memory
    assert eg.forget_message(platform="slack", space=SPACE, channel="C1", message_id="4")
    nodes = _nodes(eg)
    assert CONTEXT_MARKER not in nodes["5"].rewrite
    assert nodes["5"].verdict is Verdict.ESTABLISH, "the reply's own state survives"
    assert leaks(eg, data, CONTEXT_MARKER) == []


def test_forget_user_removes_their_words(memory: tuple[Egmem, Path]) -> None:
    eg, data = memory
    # A message of Frank's still queued when he is offboarded must never be committed.
    eg.submit([_m(999, "Frank", f"{USER_MARKER} late message, still queued")])
    frank_nodes = [n for n in eg.store.find_nodes(Scope()) if n.speaker_id == FRANK]
    others_before = {k for k, n in _nodes(eg).items() if n.speaker_id != FRANK}
    evidence_before = eg.stats()["evidence_nodes"]
    assert len(frank_nodes) == FRANK_NOTES + FRANK_OTHER

    assert eg.forget_user(FRANK) == len(frank_nodes)
    eg.drain()

    nodes = _nodes(eg)
    assert not [n for n in nodes.values() if n.speaker_id == FRANK]
    assert set(nodes) == others_before, "nobody else's messages were touched"
    assert eg.stats()["evidence_nodes"] == evidence_before - len(frank_nodes)
    # Gina's revision of Frank's state is now the root: the state keeps her value.
    demo = next(s for s in eg.history("demo", platform="slack", space=SPACE, user=None,
                                      channel=None) if s.topic == "demo")
    assert demo.value == "3 pm" and [e.message_id for e in demo.chain] == ["7"]
    assert nodes["7"].verdict is Verdict.ESTABLISH
    assert nodes["7"].supersedes is None
    for mid in ("8", "10"):
        assert USER_MARKER not in nodes[mid].rewrite
    _assert_consistent(eg)
    assert leaks(eg, data, USER_MARKER) == []


def test_forget_user_leaves_no_words_in_states_they_rooted(
        memory: tuple[Egmem, Path]) -> None:
    """Frank's states survive through others' revisions, but their topics and descriptions
    must be re-derived from what remains: not his words, not his (overridden) values."""
    eg, data = memory
    eg.forget_user(FRANK)
    launch = next(s for s in eg.history("launch", platform="slack", space=SPACE, user=None,
                                        channel=None) if s.channel == "C3")
    assert launch.value == "Wednesday"
    assert leaks(eg, data, TOPIC_MARKER) == []
    assert leaks(eg, data, "Friday at 2 pm") == []


def test_retention_forgets_only_old_messages(memory: tuple[Egmem, Path]) -> None:
    eg, data = memory
    before = eg.stats()["evidence_nodes"]
    assert eg.enforce_retention(365, now=T0 + timedelta(days=1)) == 1
    assert leaks(eg, data, OLD_MARKER) == []
    assert eg.stats()["evidence_nodes"] == before - 1
    assert eg.enforce_retention(365, now=T0 + timedelta(days=1)) == 0
    _assert_consistent(eg)


# ---- SIGKILL in the middle of forget_user ----------------------------------------------------

_CHILD = """
import os, signal, sys
from bot.app import build
from bot.settings import Settings

data, target, user = sys.argv[1:4]
eg = build(Settings(data=data, embedder="hashing"))

def die(frame, event, arg):
    if event == "call" and frame.f_code.co_qualname == target:
        os.kill(os.getpid(), signal.SIGKILL)

sys.setprofile(die)
eg.forget_user(user)
sys.setprofile(None)
print("finished without reaching", target)
"""

# Kill points, in the order forget_user reaches them: before anything is deleted, between the
# table delete and the index delete, before chains are repaired, and before the purge.
KILL_POINTS = ["Writer.forget", "LexicalIndex.delete", "Repair._refresh", "MemoryStore.purge"]


@pytest.fixture(scope="module")
def killed(template: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One copy of the template per kill point, each with a forget_user SIGKILLed there
    (the children run in parallel)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs: dict[str, tuple[Path, subprocess.Popen[bytes]]] = {}
    for point in KILL_POINTS:
        data = tmp_path_factory.mktemp("killed") / "data"
        shutil.copytree(template, data)
        runs[point] = (data, subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(data), point, FRANK], cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for point, (_, proc) in runs.items():
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == -signal.SIGKILL, (point, (out + err).decode()[-2000:])
    return {point: data for point, (data, _) in runs.items()}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kill_at", KILL_POINTS)
def test_sigkill_during_forget_user_then_restart(killed: dict[str, Path], kill_at: str) -> None:
    data = killed[kill_at]
    eg = build(Settings(data=str(data), embedder="hashing"))
    try:
        others = {n.message_id for n in eg.store.find_nodes(Scope())
                  if n.speaker_id != FRANK}
        assert len(others) == len(corpus()[1]) - FRANK_NOTES - FRANK_OTHER, "nothing else lost"
        eg.forget_user(FRANK)
        nodes = eg.store.find_nodes(Scope())
        assert not [n for n in nodes if n.speaker_id == FRANK]
        assert {n.message_id for n in nodes} == others
        _assert_consistent(eg)
        assert leaks(eg, data, USER_MARKER) == []
    finally:
        eg.close()
    assert _files_containing(data, USER_MARKER) == []
