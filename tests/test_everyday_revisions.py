"""Everyday wordings of a revision and of who holds a task: a retraction ("scrap that,
£350"), a price per head ("£5 adults"), a hand-over to someone not yet in the channel
("priya's taking over lighting"), a fixture named with its opponent ("scrims vs leeds are
wed 7pm"); and two things of one kind ("watch party" / "lan party") kept apart."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


def _claims(text: str) -> list[tuple[str, str, bool]]:
    a = MessageAnalyzer().analyze(text, speaker="x")
    return [(c.value.text, c.value.family, c.stated) for cl in a.clauses for c in cl.claims]


@pytest.mark.parametrize(("text", "value"), [
    ("fine, £5 adults. kids stay £3", "£5"),
    ("tickets £6 adults, £3 kids", "£6"),
])
def test_a_price_per_head_is_money(text: str, value: str) -> None:
    assert (value, "amount", True) in _claims(text)


def test_a_number_of_things_is_still_a_count() -> None:
    assert ("40 chairs", "amount", True) in _claims("we need 40 chairs")


@pytest.mark.parametrize(("text", "person"), [
    ("can't do the 14th. priya's taking over lighting for that week", "priya"),
    ("rhys campbell is taking over community sponsorship", "rhys campbell"),
    ("tom will take over the lights from now on", "tom"),
])
def test_whoever_takes_over_holds_it(text: str, person: str) -> None:
    assert (person, "who", True) in _claims(text)


@pytest.mark.parametrize("text", [
    "this is taking over my life",
    "the agency is taking over",
    "honestly the weather's taking over",
])
def test_a_thing_taking_over_is_nobody(text: str) -> None:
    assert not [c for c in _claims(text) if c[1] == "who"]


def test_a_fixture_named_with_its_opponent_states_its_time() -> None:
    assert ("wednesday 7pm", "when", True) in _claims("scrims vs leeds are wednesday 7pm")


def test_a_double_booking_is_no_choice() -> None:
    assert not [c for c in _claims("lan party pushed back, the hall's double booked")
                if c[1] == "name"]


def test_a_retraction_revises_the_value_just_said(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jen", "costume budget is £400"),
        (5, "olu", "nice"),
        (10, "maya", "scrap that, make it £350, that's the max"),
    ], start=T0, asked=ASKED)
    first = chat.first("what's the costume budget?")
    assert "£350" in first and "£400" not in first.split("·")[0], first


def test_a_handover_to_a_newcomer_changes_the_owner(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maya", "lighting: sam runs the desk for the show"),
        (200, "sam", "can't do show week, parents evening. priya's taking over lighting"),
    ], start=T0, asked=ASKED)
    first = chat.first("who's running lighting?").lower()
    assert first.startswith("priya"), first


def test_two_things_of_one_kind_keep_their_own_values(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kai", "lan party is saturday 15 march in the sports hall"),
        (200, "rio", "watch party for the finals: friday 7pm, union bar"),
        (300, "rio", "watch party moved again: saturday 4pm in the union bar"),
    ], start=T0, asked=ASKED)
    when = chat.first("when is the lan party?").lower()
    assert "15 march" in when and "4pm" not in when, when
    where = chat.first("where is the lan party?").lower()
    assert "sports hall" in where and "union" not in where, where
    assert "4pm" in chat.first("when's the watch party?").lower()


@pytest.mark.parametrize(("said", "revised", "question", "now"), [
    ("costume budget is £400", "scrap that, £350", "what's the costume budget?", "£350"),
    ("set build day is saturday the 8th", "wait no, sunday the 9th", "when is set build?",
     "sunday"),
    ("programme run: 200 copies from printwise", "ignore that, it's 150 copies",
     "how many programmes are we printing?", "150"),
])
def test_a_retraction_with_only_a_value_revises(tmp_path: Path, said: str, revised: str,
                                                question: str, now: str) -> None:
    chat = channel_chat(tmp_path, [(0, "maya", said), (3, "olu", "nice"),
                                   (6, "maya", revised)], start=T0, asked=ASKED)
    first = chat.first(question)
    assert now in first.split("·")[0].lower(), first
    assert "was" in chat.answer(question).answer, "no chain"


def test_a_move_named_as_a_thing_keeps_its_chain(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "amir", "depot move is 14 nov"),
        (300, "amir", "depot move slipped to 28 nov"),
    ], start=T0, asked=ASKED)
    answer = chat.answer("when's the depot move?").answer
    assert answer.splitlines()[0].startswith("28 nov"), answer
    states = list(chat.reader.tools.store.states.find(chat.scope))
    assert [(r["value"], r["revision_count"]) for r in states] == [("28 nov", 1)], states


def test_staying_with_a_choice_names_no_subject() -> None:
    a = MessageAnalyzer().analyze("ugh. ok we'll stay with GLS then", speaker="x")
    assert [(c.value.text, c.subject) for cl in a.clauses for c in cl.claims] == [("GLS", "")]


@pytest.mark.parametrize(("text", "value", "subject"), [
    ("Regarding the manure, I propose we order from Hillside Farm again this year",
     "Hillside Farm", "manure"),
    ("Unfortunately they can't deliver. I have arranged for Brook Stables to deliver "
     "instead, same price.", "Brook Stables", ""),
    ("as for the rota, priya's taking it over", "priya", "rota"),
    ("I have spoken to the office and the AGM will be held on Tuesday 12th March at 7.30pm",
     "Tuesday 12th March at 7.30pm", "AGM"),
])
def test_a_formal_wording_names_its_value_and_subject(text: str, value: str,
                                                      subject: str) -> None:
    a = MessageAnalyzer().analyze(text, speaker="x")
    assert (value, subject) in [(c.value.text, c.subject) for cl in a.clauses
                                for c in cl.claims if c.stated], text


def test_a_name_from_someone_in_passing_is_no_value() -> None:
    assert not _claims("got a quote from Dana Lee yesterday")[1:], _claims(
        "got a quote from Dana Lee yesterday")


@pytest.mark.parametrize(("text", "act"), [
    ("Let's settle on £42 then, with the pensioner discount kept at 10%.", "decision"),
    ("let's keep it at 9:30", "rejection"),
    ("ok let's keep the 3pm slot", "rejection"),
])
def test_a_value_decided_before_another_kept_is_a_decision(text: str, act: str) -> None:
    assert MessageAnalyzer().analyze(text, speaker="x").act.value == act


def test_a_supplier_replaced_in_formal_wording(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "derek", "Regarding the manure, I propose we order from Hillside Farm again "
                     "this year, they were very reliable."),
        (5, "joan", "Agreed."),
        (200, "derek", "Unfortunately Hillside Farm are not delivering this spring as their "
                       "tractor has broken down. I have arranged for Brook Stables to "
                       "deliver instead, same price."),
    ], start=T0, asked=ASKED)
    first = chat.first("where's the manure coming from?")
    assert first.startswith("Brook Stables"), first
    assert "tractor" in chat.first("why did we change manure supplier?")
