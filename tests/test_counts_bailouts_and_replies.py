"""Values a chat says without the usual cue words, and answers that sit in the turn next to
the one that changed something:

- a head count after its label ("final wedding count: 148") is a count, and revises the count
  said before, not the wedding's venue;
- the dates a supplier backed out of ("bailed on june 8-12") and a day said to have no
  meeting ("no meeting today, first wednesday one is …") are what a plan left;
- the one named as doing a part ("Hal Brodsky playing", "ravi you're building it up w me")
  is who does it;
- a price asked by what it is paid per ("quote the wedding per head", "making per hour") is
  a price, and a sum asked is not answered by a count of things or a day ("w 2 fewer
  classes", "sat 10am");
- a bare yes ("yessss") takes a suggestion up: the suggestion holds the value;
- a "why the jump?" asked in a change's thread, and answered, gives its reason; so does the
  turn a change accepts ("fair. 10 servers for the gala"); a request ("aisha can you tell
  them") gives none.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.people import people_values
from memory.analysis.question import analyze_question
from memory.analysis.reason_words import says_no_reason
from memory.analysis.value_types import Kind
from memory.models import Message, Scope
from memory.reader.coverage_values import tells_a_sum
from tests.support.chat_reader import channel_chat, written_reader

START = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 20, 9, 0, tzinfo=UTC)
ANALYZER = MessageAnalyzer(Lexicon())


def _claims(text: str) -> list[tuple[str, Kind]]:
    analysis = ANALYZER.analyze(text, speaker="x")
    return [(c.value.text, c.value.kind) for cl in analysis.clauses for c in cl.claims]


def _old(text: str) -> list[str]:
    analysis = ANALYZER.analyze(text, speaker="x")
    return [v.text for cl in analysis.clauses for v in cl.old]


@pytest.mark.parametrize(("text", "count"), [
    ("final wedding count: 148. 4 regrets came in", "148"),
    ("wedding headcount update: 152, they added the groom's cousins", "152"),
    ("rsvps so far: 64", "64"),
])
def test_a_count_after_its_label(text: str, count: str) -> None:
    assert (count, Kind.COUNT) in _claims(text)


def test_a_label_without_a_count_word_gives_no_count() -> None:
    assert not any(kind is Kind.COUNT for _, kind in _claims("table plan: 12, by the window"))


@pytest.mark.parametrize(("text", "old", "new"), [
    ("seat vendor bailed on june 8-12, they can only do june 15-19 now", "june 8-12",
     "june 15-19"),
    ("no meeting today, first wednesday one is this wed 9:30", "today", "this wed 9:30"),
    ("no class on the 5th, back on the 12th", "the 5th", "the 12th"),
])
def test_what_a_plan_left(text: str, old: str, new: str) -> None:
    assert old in _old(text)
    assert new in [v for v, _ in _claims(text)]


@pytest.mark.parametrize("text", ["no worries thursday works", "no rush, friday is fine",
                                  "rain again. no ridge till thurs"])
def test_no_worries_leaves_nothing(text: str) -> None:
    assert _old(text) == []


@pytest.mark.parametrize(("text", "person"), [
    ("The General (1926), Hal Brodsky playing", "Brodsky"),
    ("Vertigo's here. 6 reels, looks clean. ravi you're building it up w me wed", "ravi"),
    ("Ines moderating, Coral on the door", "Ines"),
])
def test_who_does_a_part(text: str, person: str) -> None:
    found = [v.text for v in people_values(text, speaker="Marcus",
                                           people=["Ravi Dutta", "Luis", "Gabby R"])]
    assert any(person in f for f in found)


@pytest.mark.parametrize("text", ["ravi you're right", "luis is in the office today",
                                  "Luis is in charge of nothing"])
def test_no_part_given(text: str) -> None:
    assert people_values(text, speaker="Marcus", people=["Ravi Dutta", "Luis"]) == []


def test_a_request_to_someone_named_is_no_reason() -> None:
    assert says_no_reason("aisha can you tell them")
    assert not says_no_reason("the caterer can't do the 14th")


def test_the_count_revises_the_count(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "aisha", "Hartwell wedding is locked: sat oct 4 at The Foundry, 140 guests"),
        (60 * 24 * 10, "aisha", "wedding headcount update: 152, they added the groom's "
                                "cousins"),
        (60 * 24 * 16, "aisha", "final wedding count: 148. 4 regrets came in"),
    ], start=START, asked=ASKED, channel_name="events")
    assert "148" in chat.first("what's the final headcount for the hartwell wedding")
    assert "Foundry" in chat.first("where is the hartwell wedding?")


def test_a_bare_yes_takes_the_suggestion_up(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "helen", "great week all. staff drinks fri 19 june after close at the crown?"),
        (5, "sofia", "yessss"),
        (6, "jamal", "🍻"),
    ], start=START + timedelta(days=66), asked=ASKED, channel_name="general")
    assert "19 june" in chat.first("when are staff drinks?").lower()


def test_the_turn_a_change_accepts_gives_its_reason(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "8 is enough for the gala, it's standing room"),
        (60 * 24 * 13, "aisha", "gala update: client added a raw bar, oysters + shrimp. "
                                "still 250"),
        (60 * 24 * 13 + 10, "lena", "ok raw bar + passed means i need 10. someone has to shuck and "
                     "someone has to babysit the ice"),
        (60 * 24 * 13 + 20, "rosa", "fair. 10 servers for the gala"),
    ], start=START, asked=ASKED, channel_name="events")
    assert "shuck" in chat.first("why are we doing 10 servers at the gala and not 8?")


def test_why_asked_in_the_thread_of_a_change(tmp_path: Path) -> None:
    def say(minutes: int, user: str, text: str, *, thread: str | None = None) -> Message:
        return Message(platform="slack", space="T1", channel="C1", channel_name="showcase",
                       id=f"C1.{minutes}", user=f"U{user.upper()}", user_name=user,
                       ts=START + timedelta(minutes=minutes), text=text, thread_id=thread)
    reader = written_reader(tmp_path, [
        say(0, "helen", "showcase tickets: £12 adults, £8 kids"),
        say(60 * 24 * 17, "helen", "adult tickets going up to £14. kids stay £8"),
        say(60 * 24 * 17 + 5, "megan", "why the jump?", thread=f"C1.{60 * 24 * 17}"),
        say(60 * 24 * 17 + 10, "helen", "plaza's added a 10% booking fee this year, wasn't "
                                        "there last year", thread=f"C1.{60 * 24 * 17}"),
        say(60 * 24 * 17 + 11, "megan", "ah ok", thread=f"C1.{60 * 24 * 17}"),
    ])
    answer = reader.answer("why are adult tickets more expensive this year?",
                           scope=Scope(platform="slack", space="T1", channels=("C1",)),
                           reference=ASKED)
    assert "booking fee" in answer.answer.splitlines()[0]


def test_the_first_digits_of_a_number_are_no_time() -> None:
    assert all(kind is not Kind.TIME for _, kind in _claims("screen 2 lamp is at 2,900 hrs"))


def test_a_day_something_goes_out_is_stated() -> None:
    analysis = ANALYZER.analyze("weekly lineup post is going out mondays on insta from now on",
                                speaker="coral")
    assert [(c.value.text, c.stated) for cl in analysis.clauses for c in cl.claims] == [
        ("mondays", True)]


@pytest.mark.parametrize("question", [
    "what did aisha first quote the wedding per head?",
    "what were servers making per hour before october",
    "what's the rate per night at the inn",
])
def test_a_price_asked_by_what_it_is_paid_per(question: str) -> None:
    assert analyze_question(question).family in ("price", "money")


@pytest.mark.parametrize(("short", "holds"), [
    ("one show won't fit all the families, we sold out last year w 2 fewer classes", False),
    ("sat 10am", False),
    ("$14", True), ("20 quid", True), ("5 each", True), ("12.50", True), ("free", True),
])
def test_a_sum_is_no_count_of_things_nor_a_day(short: str, holds: bool) -> None:
    assert tells_a_sum(analyze_question("how much did last year's showcase make?"),
                       short) is holds


@pytest.mark.parametrize(("question", "short"), [
    ("what was the animal cap before we raised it", "cap it at 80 animals i reckon"),
    ("how much are we selling adult refurbs for", "50 yeah"),
])
def test_a_count_of_what_is_asked_or_a_bare_number_is_a_sum(question: str, short: str) -> None:
    assert tells_a_sum(analyze_question(question), short)


def test_a_labelled_count_is_no_new_price(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mei", "ISMB hotel is $189/night, booking 4 rooms for jul 12-16"),
        (60 * 25, "mei", "headcount update: 25"),
    ], start=START, asked=ASKED, channel_name="general")
    first = chat.first("what's the ISMB hotel rate per night?")
    assert "189" in first
    assert "25" not in first
