"""What a message does to the channel's states, through the real writer (propose → verify →
commit on LanceDB/Tantivy in a temp dir): each rule on several wordings, with near misses."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.models import EvidenceNode, Message, Scope, Verdict
from memory.registry import chain_of
from memory.store import MemoryStore
from memory.writer import Writer
from tests.support.memory import msg, open_memory

KEY = ("slack", "T1", "C1")


def _run(tmp_path: Path, messages: list[Message]) -> tuple[MemoryStore, Writer,
                                                             dict[str, EvidenceNode]]:
    store, writer = open_memory(tmp_path)
    writer.write(messages)
    return store, writer, {n.message_id: n for n in store.find_nodes(Scope(space="T1"))}


def _chain(store: MemoryStore, state_id: str | None) -> list[str]:
    assert state_id is not None
    return [n.value for n in chain_of(store.state_nodes([state_id]))]


def _states(writer: Writer) -> dict[str, str]:
    return {rec.topic: rec.value for rec in writer.registry.states(KEY)}


REVIEW = "Atlas design review is Thursday at 3 pm"


# ---- proposals are not decisions -----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "could we move the design review to 4 pm?",
    "can we do the review at 4 pm instead?",
    "how about 4 pm for the review?",
    "maybe the review at 4 pm works better?",
    "what if we push the review to Friday?",
])
def test_a_proposal_changes_no_decision(tmp_path: Path, text: str) -> None:
    store, _, nodes = _run(tmp_path, [msg(1, "Alice", REVIEW), msg(2, "Bob", text)])
    assert nodes["2"].verdict is Verdict.CONTEXT
    assert _chain(store, nodes["1"].state_id) == ["Thursday at 3 pm"]


@pytest.mark.parametrize("accept", [
    "sure, let's do that",
    "ok let's do that",
    "ok moving it, invite updated",
    "sounds good, moving it",
    "deal",
])
def test_an_acceptance_carries_the_proposal_value(tmp_path: Path, accept: str) -> None:
    store, _, nodes = _run(tmp_path, [
        msg(1, "Alice", REVIEW),
        msg(2, "Bob", "could we do 4 pm instead? I have a call at 3"),
        msg(3, "Alice", accept),
    ])
    assert nodes["3"].verdict is Verdict.REVISE
    assert _chain(store, nodes["1"].state_id) == ["Thursday at 3 pm", "4 pm"]
    assert nodes["3"].speaker == "Alice"


@pytest.mark.parametrize("support", ["+1", "same", "agreed"])
def test_support_for_a_proposal_decides_nothing(tmp_path: Path, support: str) -> None:
    store, _, nodes = _run(tmp_path, [
        msg(1, "Alice", REVIEW),
        msg(2, "Bob", "could we do 4 pm instead?"),
        msg(3, "Carol", support),
    ])
    assert nodes["3"].verdict is not Verdict.REVISE
    assert _chain(store, nodes["1"].state_id) == ["Thursday at 3 pm"]


def test_a_suggestion_where_nothing_is_tracked_opens_a_state(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Dan", "team outing venue: how about The Lake?"),
        msg(2, "Erin", "Outing decided: bowling alley"),
    ])
    assert nodes["1"].verdict is Verdict.ESTABLISH
    assert nodes["2"].verdict is Verdict.REVISE
    assert _chain(store, nodes["1"].state_id) == ["The Lake", "bowling alley"]


# ---- rejections restate --------------------------------------------------------------------

@pytest.mark.parametrize("reject", [
    "no, keeping 3 pm",
    "no, keep it at 3 pm",
    "nah, the review stays Thursday at 3 pm",
    "let's not move it, 3 pm stays",
    "sticking with 3 pm, sorry",
])
def test_a_rejection_restates(tmp_path: Path, reject: str) -> None:
    store, _, nodes = _run(tmp_path, [
        msg(1, "Alice", REVIEW),
        msg(2, "Bob", "can we start the review at 4 pm instead?"),
        msg(3, "Alice", reject),
    ])
    assert nodes["3"].verdict is Verdict.RESTATE
    assert nodes["3"].state_id == nodes["1"].state_id
    assert _chain(store, nodes["1"].state_id) == ["Thursday at 3 pm"]


# ---- corrections and "X instead of Y" revise the state whose value is Y ----------------------

@pytest.mark.parametrize("correction", [
    "correction: Dec 18, not the 20th",
    "sorry, typo: it's Dec 18 not Dec 20",
    "it's Dec 18, not the 20th",
    "Dec 18 instead of Dec 20",
    "ship date is Dec 18 rather than the 20th",
])
def test_a_correction_revises_the_state_holding_the_replaced_value(
        tmp_path: Path, correction: str) -> None:
    store, _, nodes = _run(tmp_path, [
        msg(1, "Alice", "the 3.2 ship date is Dec 20"),
        msg(2, "Bob", "Atlas design review is Dec 19 at 3 pm"),
        msg(3, "Alice", correction),
    ])
    assert nodes["3"].verdict is Verdict.REVISE
    assert nodes["3"].state_id == nodes["1"].state_id
    assert _chain(store, nodes["2"].state_id) == ["Dec 19 at 3 pm"]


def test_a_ship_date_revises_a_ship_date_never_a_version(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Alice", "3.2 ships December 10"),
        msg(2, "Bob", "the next release is 3.2"),
        msg(3, "Alice", "Since the review got bounced, 3.2 now ships December 18"),
    ])
    assert nodes["3"].verdict is Verdict.REVISE
    assert nodes["3"].state_id == nodes["1"].state_id
    assert nodes["3"].value == "December 18"
    assert _chain(store, nodes["2"].state_id) == ["3.2"]
    assert nodes["3"].proposal is not None
    assert nodes["3"].proposal.reason == "the review got bounced"


# ---- postponements and cancellations --------------------------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    ("the 16 upgrade is postponed until January", "January"),
    ("Postgres upgrade pushed to next Saturday", "next Saturday"),
    ("the upgrade slips to Jan 10", "Jan 10"),
    ("moving the postgres upgrade to Sunday night", "Sunday night"),
    ("upgrade delayed → Feb 3", "Feb 3"),
])
def test_a_postponement_revises(tmp_path: Path, text: str, value: str) -> None:
    store, _, nodes = _run(tmp_path, [
        msg(1, "Alice", "Postgres 16 upgrade scheduled for Saturday night"),
        msg(2, "Bob", text),
    ])
    assert nodes["2"].verdict is Verdict.REVISE
    assert _chain(store, nodes["1"].state_id)[-1] == value


@pytest.mark.parametrize(("first", "cancel"), [
    ("the offsite is in Lisbon", "offsite postponed indefinitely"),
    ("the hackathon budget is $5k", "the hackathon is cancelled"),
    ("release 2.5 goes out as v2.5.0", "release 2.5 is called off"),
    ("the vendor demo is Thursday at 2pm", "vendor demo scrapped, they pulled out"),
    ("team dinner at Pho Saigon", "team dinner is off, too many people out"),
])
def test_a_cancellation_ends_a_state_of_any_kind(tmp_path: Path, first: str,
                                                 cancel: str) -> None:
    store, _, nodes = _run(tmp_path, [msg(1, "Alice", first), msg(2, "Bob", cancel)])
    assert nodes["1"].state_id is not None
    assert nodes["2"].verdict is Verdict.REVISE
    assert nodes["2"].state_id == nodes["1"].state_id


def test_one_cancelled_meeting_does_not_end_a_weekly_series(tmp_path: Path) -> None:
    store, _, nodes = _run(tmp_path, [
        msg(1, "Carmen", "Weekly design sync: Mondays 11:30"),
        msg(2, "Carmen", "Design sync today is cancelled, nothing on the agenda"),
    ])
    assert nodes["2"].verdict is not Verdict.REVISE
    assert _chain(store, nodes["1"].state_id) == ["Mondays 11:30"]


# ---- reassignments change the owner ----------------------------------------------------------

@pytest.mark.parametrize("handover", [
    "Handing the release notes over to Marcus",
    "Marcus takes over the release notes",
    "release notes are Marcus's now",
    "Marcus will own the release notes from now on",
    "reassigning the release notes to Marcus",
])
def test_a_reassignment_changes_the_owner(tmp_path: Path, handover: str) -> None:
    store, _, nodes = _run(tmp_path, [
        msg(1, "Lena", "I'll own the release notes"),
        msg(2, "Marcus", "ok"),
        msg(3, "Lena", handover),
    ])
    assert nodes["1"].value == "Lena"
    assert nodes["3"].verdict is Verdict.REVISE
    assert _chain(store, nodes["1"].state_id) == ["Lena", "Marcus"]


# ---- reminders and acknowledgements open no state --------------------------------------------

@pytest.mark.parametrize("text", [
    "reminder: bring the review checklist",
    "don't forget the checklist before the review",
    "friendly reminder that expense reports are due Friday",
    "ack",
    "thanks!",
])
def test_reminders_and_acknowledgements_open_no_state(tmp_path: Path, text: str) -> None:
    _, writer, nodes = _run(tmp_path, [msg(1, "Alice", REVIEW), msg(2, "Bob", text)])
    assert nodes["2"].verdict is not Verdict.ESTABLISH
    assert list(_states(writer)) == ["atlas design review"]


# ---- unthreaded conversation ----------------------------------------------------------------

def test_an_unthreaded_answer_is_linked_to_its_question_and_carries_the_value(
        tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Li", "wildcard cert expires fri 28th. who's got the renewal?"),
        msg(2, "Kwame", "lol the coffee machine is broken again"),
        msg(3, "Ana", "me, I'll do it next wed"),
    ])
    answer = nodes["3"]
    assert answer.proposal is not None and answer.proposal.answers == "1"
    assert "who's got the renewal" in answer.context
    assert answer.verdict is Verdict.ESTABLISH and answer.value == "Ana"
    # Its date is when Ana renews, not a new expiry.
    assert _chain(store, nodes["1"].state_id) == ["fri 28th"]


@pytest.mark.parametrize("line", [
    "micah uploaded a file: Screen Shot 2016-05-03 at 16.34.09.png",
    "alice has joined the channel",
    "see https://example.com/reply=225363078",
    "new data jam posted: jam-notes-2016-05-03.pdf",
])
def test_platform_lines_urls_and_files_open_no_state(tmp_path: Path, line: str) -> None:
    _, writer, nodes = _run(tmp_path, [msg(1, "Micah", line)])
    assert nodes["1"].verdict is Verdict.CONTEXT
    assert _states(writer) == {}


# ---- labels -----------------------------------------------------------------------------------

def test_a_state_is_named_by_its_subject_and_keeps_it_along_its_chain(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Sam", "Harbor onboarding design review is on the calendar: Thursday Oct 17, "
                      "3pm, conf room B"),
        msg(2, "Sam", "review moves again → Tue Oct 22, 2pm"),
        msg(3, "Sam", "Poll's closed: Tue Oct 22, 2:30pm it is"),
    ])
    state = nodes["1"].state_id
    assert nodes["1"].topic == "harbor onboarding design review"
    assert {n.topic for n in chain_of(store.state_nodes([state]))} == {
        "harbor onboarding design review"}
    assert not any("poll" in topic for topic in _states(writer))


def test_a_message_stating_several_things_opens_several_states(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Maya", "Board meeting is Thursday Nov 7. Deck draft due Nov 1, Raj owns the "
                       "product section"),
        msg(2, "Maya", "Deck draft moved to Nov 4"),
        msg(3, "Maya", "Priya takes over the product section"),
    ])
    states = _states(writer)
    assert states["board meeting"] == "Thursday Nov 7"
    assert states["product section"] == "Priya"
    deck = next(rec for rec in writer.registry.states(KEY) if rec.topic.startswith("deck"))
    assert _chain(store, deck.state_id) == ["Nov 1", "Nov 4"]


@pytest.mark.parametrize("move", [
    "the offsite moves to Bathurst Hall and the date is now Aug 24",
    "offsite update: new venue Bathurst Hall, new date Aug 24",
    "change of plan: offsite at Bathurst Hall on Aug 24",
])
def test_a_message_revising_two_states_revises_both(tmp_path: Path, move: str) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Vexa", "the offsite is Saturday Aug 17 at Pixel Pit"),
        msg(2, "Vexa", move),
    ])
    chains = {rec.value_family: _chain(store, rec.state_id)
              for rec in writer.registry.states(KEY)}
    assert chains["when"][-2:] == ["Saturday Aug 17", "Aug 24"]
    assert chains["where"][0] == "Pixel Pit" and chains["where"][-1] == "Bathurst Hall"
    assert len(chains) == 2


def test_forgetting_a_message_that_revised_two_states_repairs_both(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Vexa", "the offsite is Saturday Aug 17 at Pixel Pit"),
        msg(2, "Vexa", "the offsite moves to Bathurst Hall and the date is now Aug 24"),
    ])
    writer.forget([nodes["2"].node_id])
    values = sorted(rec.value for rec in writer.registry.states(KEY))
    assert values == ["Pixel Pit", "Saturday Aug 17"]
    rows = store.states.listed()
    assert sorted(r["value"] for r in rows) == ["Pixel Pit", "Saturday Aug 17"]
    assert all("Bathurst" not in r["description"] for r in rows)
