"""Changes said in ways the cue words alone miss: the replaced value named in its own clause
("scratch the 19th — new date is …"), a value said to be the thing *now* ("the venue is
now Albion House"), and the reason for a change said by someone else just before it
("we can't have the ledger down that night" → "ok, the 19th then")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.models import Scope
from memory.reader.offline import OfflineReader
from memory.reader.word_forms import forms
from tests.support.chat_reader import ChannelChat, channel_chat, chat_author, written_reader

A = MessageAnalyzer(Lexicon())
T0 = datetime(2025, 7, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 7, 20, 9, 0, tzinfo=UTC)
m = chat_author(space="T1", channel="C1", channel_name="backend", start=T0)


@pytest.mark.parametrize(("text", "new", "old"), [
    ("scratch the 19th — new date for the cutover is sat 26 july", "sat 26 july", "the 19th"),
    ("forget thursday. the review is friday 10am", "friday 10am", "thursday"),
    ("ditch the 3pm slot, standup moves to 4pm", "4pm", "3pm"),
    ("the instructor can't do the 13th. first aid day is now fri 6/20", "fri 6/20",
     "the 13th"),
])
def test_a_replaced_value_in_its_own_clause_is_lent_to_the_decision(
        text: str, new: str, old: str) -> None:
    deciding = [c for c in A.analyze(text, speaker="Sara").clauses
                if new in [v.text for v in c.values]]
    assert deciding, text
    assert old in [v.text for v in deciding[0].old]


@pytest.mark.parametrize(("text", "value"), [
    ("the venue is now Albion House", "Albion House"),
    ("caterer is Saffron & Salt now", "Saffron & Salt"),
    ("the opener is now low tide", "low tide"),
])
def test_what_a_thing_is_now_is_its_value(text: str, value: str) -> None:
    assert value in [v.text for v in A.analyze(text, speaker="Sara").values]


@pytest.mark.parametrize("text", ["it's now or never", "he is now on leave"])
def test_now_without_a_value_states_none(text: str) -> None:
    assert not A.analyze(text, speaker="Sara").values


def test_an_ordinal_day_matches_the_day_said_in_a_date() -> None:
    assert "26" in forms("26th")
    assert "26" not in forms("26ers")


def ledger_chat() -> list:
    return [
        m(0, "sara", "proposing the ledger pg 13 → 16 migration for sat 12 july, 02:00-05:00"),
        m(60, "ben", "lunch anyone?"),
        m(120, "olga", "heads up: northbank moved their settlement run to sat 12 july. "
                       "we can't have the ledger down that night"),
        m(130, "sara", "ok, ledger migration moves to sat 19 july then. same window"),
        m(3000, "chidi", "deploy of the payouts service is done"),
        m(4000, "sara", "scratch the 19th — new date for the cutover is sat 26 july. "
                        "gives me a week to fix the replica lag"),
    ]


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> OfflineReader:
    path: Path = tmp_path_factory.mktemp("ledger")
    return written_reader(path, ledger_chat())


def channel_reader(factory: pytest.TempPathFactory, channel: str,
                   chat: list[tuple[int, str, str]]) -> ChannelChat:
    """A reader over ``chat`` ((minutes, user, text) turns) written into its own channel."""
    return channel_chat(factory.mktemp(channel), chat, start=T0, asked=ASKED, channel=channel,
                        channel_name=channel.lower())


def ask(reader: OfflineReader, question: str) -> str:
    scope = Scope(platform="slack", space="T1", channels=("C1",))
    return reader.answer(question, scope=scope, reference=ASKED).answer.splitlines()[0]


def test_the_correction_naming_the_old_value_revises_its_state(reader: OfflineReader) -> None:
    first = ask(reader, "when is the ledger migration?")
    assert "26" in first and "19" not in first


@pytest.mark.parametrize("question", [
    "why did the ledger migration move off the 12th?",
    "why couldn't we do the migration on the 12th?",
])
def test_the_reason_is_the_blocker_said_just_before_the_change(
        reader: OfflineReader, question: str) -> None:
    first = ask(reader, question)
    assert "northbank" in first.lower()
    assert first.rstrip().endswith(")") and "olga" in first.lower()  # her words, hers


def test_the_reason_for_reaching_a_day_is_beside_that_change(reader: OfflineReader) -> None:
    assert "replica lag" in ask(reader, "why did the migration slip to the 26th?")


def test_the_plan_a_first_move_left_is_the_original_value(reader: OfflineReader) -> None:
    # "proposing … for sat 12 july" decided nothing by itself, but "ok, … moves to sat 19
    # july then" moved it: the 12th was the plan
    assert "12 july" in ask(reader, "what was the original migration date?")


@pytest.mark.parametrize(("text", "person"), [
    ("priya could you take over badges? templates are done", "priya"),
    ("can you take over badges, priya?", "priya"),
    ("kat can you just take over the van stuff then?", "kat"),
])
def test_a_request_names_who_it_hands_the_task_to(text: str, person: str) -> None:
    a = A.analyze(text, speaker="Liam O'Brien", people=["Priya Nair", "Kat Nowak"])
    assert [c.value.text for c in a.claims if c.value.kind.value == "person"] == [person]


@pytest.mark.parametrize("text", ["priya can you send me the file?",
                                  "can you believe it, priya?"])
def test_a_request_for_something_else_hands_nothing_over(text: str) -> None:
    a = A.analyze(text, speaker="Liam O'Brien", people=["Priya Nair"])
    assert not [c for c in a.claims if c.value.kind.value == "person"]


def test_the_addressee_accepting_a_handover_becomes_the_owner(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    chat = channel_reader(tmp_path_factory, "C2", [
        (0, "liam", "I'll handle badges, templates are in the drive"),
        (5, "maya", "thanks liam"),
        (60, "liam", "priya could you take over badges? templates are done, i'll walk "
                     "you through it before i go"),
        (64, "priya", "sure, happy to"),
    ])
    assert "priya" in chat.first("who's on badges now?").lower()
    assert "liam" in chat.first("who had badges before?").lower()


def test_the_reason_a_value_was_left_is_the_sentence_naming_it_with_its_blocker(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    chat = channel_reader(tmp_path_factory, "C3", [
        (0, "sam", "Harbor design review is on the calendar: Thursday Oct 17, 3pm, room B"),
        (600, "sam", "sure, pushing the harbor review to Fri Oct 18 at 11am, same room"),
        (2000, "sam", "bad news: room B is booked all day friday for the offsite prep. "
                      "harbor review moves again → Tue Oct 22, 2:30pm (2pm clashed with "
                      "Nina's 1:1s)"),
    ])
    first = chat.first("why couldn't we keep the friday slot for the harbor review?")
    assert "booked" in first and "clashed" not in first  # that sentence, not the next change


def test_a_schedule_lists_each_place_with_its_day_and_venue() -> None:
    a = A.analyze("tour dates locked: thu 9 oct bristol (lantern cellar), fri 10 oct "
                  "birmingham (hare & anchor), sat 11 oct manchester", speaker="Marcus")
    got = {(c.subject, c.value.text) for c in a.claims}
    assert {("bristol", "thu 9 oct"), ("bristol venue", "lantern cellar"),
            ("birmingham", "fri 10 oct"), ("birmingham venue", "hare & anchor"),
            ("manchester", "sat 11 oct")} <= got


@pytest.mark.parametrize("text", ["rota: mon anna, tue ben, wed cy",
                                  "dates: thu 9 oct, fri 10 oct, sat 11 oct"])
def test_a_list_without_places_is_no_schedule_of_places(text: str) -> None:
    a = A.analyze(text, speaker="Marcus")
    assert not [c for c in a.claims if c.subject.endswith("venue")]
    assert not [c for c in a.claims if c.value.kind.value == "date"
                and c.subject in {"anna", "ben", "cy"}]


@pytest.mark.parametrize(("text", "new", "old"), [
    ("agents can approve refunds up to $250 without sign-off (was $100)", "$250", "$100"),
    ("Northgate signed! $15,000 presenting sponsorship, up from the $10k they floated",
     "$15,000", "$10k"),
    ("fees are $40 this year, down from $45", "$40", "$45"),
])
def test_the_value_a_message_says_it_replaces_is_old(text: str, new: str, old: str) -> None:
    clause = next(c for c in A.analyze(text, speaker="Sara").clauses if new in
                  [v.text for v in c.values])
    assert [v.text for v in clause.old] == [old]


def test_the_value_a_first_message_replaces_is_the_value_before(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    chat = channel_reader(tmp_path_factory, "C7", [
        (0, "marcus", "heads up: tasting menu goes from £65 to £75 with the spring menu. "
                      "scallops and lamb are up ~20% from our suppliers"),
        (5, "elena", "hmm ok"),
    ])
    first = chat.first
    assert first("how much was the tasting menu originally?").startswith("£65")
    assert first("what price did marcus first want to move the tasting menu to?"
                 ).startswith("£75")
    assert first("what did the tasting menu cost before?").startswith("£65")
    assert first("how much is the tasting menu now?").startswith("£75")
    assert "suppliers" in first("why did the tasting menu go up?")


def test_why_a_change_reached_a_value_is_asked_of_the_chain_that_reached_it(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    chat = channel_reader(tmp_path_factory, "C8", [
        (0, "hannah", "shipping is £350"),
        (60, "aiko", "shipping date: wed 11 jun"),
        (1440 * 8, "aiko", "shipping slides to wed 18 jun since BOC can't get dry ice until "
                           "the 17th"),
        (1440 * 9, "hannah", "shipping goes up to £520 because of the DHL frozen surcharge"),
    ])
    first = chat.first
    assert first("why did shipping slip to the 18th?").startswith("BOC can't get dry ice")
    assert first("why did shipping go up to £520?").startswith("the DHL frozen surcharge")


def test_weds_is_a_weekday_a_change_moves_off() -> None:
    # "weds" (British shorthand) is Wednesday: the value left, not the subject
    a = MessageAnalyzer().analyze("dentals moving off weds to fridays from next week")
    clause = a.clauses[0]
    assert clause.subject == "dentals"
    assert [v.text for v in clause.old] == ["weds"]
