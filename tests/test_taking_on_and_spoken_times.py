"""Who holds a task after it changed hands, what counted against a thing, and times and
headcounts as chats say them:

- a task given up ("can't do the station run"; not "she can't do the teas") is taken by
  whoever commits next, also by a pronoun ("I'll get them");
- its holder handing it back long after ("can't quizmaster") opens it again;
- someone else committing to it of their own accord later ("so I'll meet the plumber")
  holds it;
- a name the message opens by addressing is not who turned something down; who was
  against a thing is who turned it down;
- "what was the problem with X?" asks why X was not taken: the message turning it down;
- "half 12", "quarter past 2" are times of day; "24 of us" is a headcount; "ok friday it
  is" decides Friday, not "ok friday"; "Mr." ends no sentence;
- a day said beside a time replaces the day, not a time alone; "Cloud backup is Sun 21"
  names no person; "what did we settle on per jar" asks the price in force.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.value_types import Kind
from memory.text import find_slots, time_of_day
from tests.support.chat_reader import channel_chat
from tests.support.claims import ANALYZER, values_of

START = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 7, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def test_a_task_given_up_is_taken_by_whoever_commits_next(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "the Hendersons land Friday 6pm, someone needs the big car"),
        (DAY, "marek", "rosa I'm working late friday, can't do the station run"),
        (DAY + 15, "ines", "I'll get them, the van's free"),
        (DAY + 40, "rosa", "thank you ines!"),
    ], start=START, asked=ASKED)
    first = chat.first("who's doing the station run?")
    assert first.startswith("ines")
    # someone else unable gives nothing up
    giving_up = QuestionLexicon().taking.giving_up
    assert giving_up.search("I can't move it, the car's in for its MOT")
    assert not giving_up.search("Maureen's back is bad so she can't do the teas this year")

def test_a_holder_handing_a_task_back_opens_it_again(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "yvonne", "quiz night fri 26th at the village hall. who's asking the questions?"),
        (5, "phil", "i'll be quizmaster again 🎤"),
        (9 * DAY, "phil", "bad news, work are sending me away that week 😩 can't quizmaster"),
        (9 * DAY + 15, "bea", "i'll do it, i've got the loudest voice anyway"),
        (9 * DAY + 30, "yvonne", "bea ur a star"),
    ], start=START, asked=ASKED)
    first = chat.first("who's quizmaster on the 26th?")
    assert first.startswith("bea")

def test_someone_committing_of_their_own_accord_later_holds_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nadia", "plumber comes Tue 8am to fix the boiler. Owen, can you meet the plumber?"),
        (20, "owen", "yep no worries"),
        (3 * DAY, "kasia", "Owen's at his sister's on Tuesday remember, so I'll meet the "
                           "plumber"),
    ], start=START, asked=ASKED)
    first = chat.first("who's meeting the plumber?")
    assert first.startswith("kasia")


def test_the_name_a_refusal_addresses_did_not_refuse(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "owen", "the Brightline rep offered 15% off if we move the printer lease to them"),
        (60, "nadia", "Owen, no to Brightline — their contract locks us in for five years"),
    ], start=START, asked=ASKED)
    first = chat.first("who said no to Brightline?")
    assert first.startswith("nadia")


def test_what_counted_against_a_thing_is_why_it_was_not_taken(tmp_path: Path) -> None:
    assert analyze_question("what was the problem with Brightline?").kind is QuestionKind.WHY
    # (what is wrong with a thing is its fault, not why it was dropped)
    assert analyze_question("what's wrong with the old boiler?").kind is not QuestionKind.WHY
    chat = channel_chat(tmp_path, [
        (0, "owen", "the Brightline rep offered 15% off if we move the printer lease to them. "
                    "worth it?"),
        (30, "kasia", "anyone seen my charger"),
        (60, "nadia", "Owen, no to Brightline — their contract locks us in for five years"),
    ], start=START, asked=ASKED)
    first = chat.first("what was the problem with Brightline?")
    assert "five years" in first


def test_times_said_as_spoken() -> None:
    assert time_of_day("so its half 12 start not 1") == "half 12"
    assert time_of_day("moved me to the 10th at quarter past 2") == "quarter past 2"
    assert time_of_day("doors half past seven") == "half past seven"
    # "half" of a number is no time
    assert not [s for s in find_slots("we need half 12 bags") if s.kind.value == "time"]
    assert not [s for s in find_slots("cut it in half 2 times") if s.kind.value == "time"]


def test_a_headcount_of_the_group() -> None:
    assert values_of("Sunday: the Crown, 1pm, 24 of us", Kind.COUNT) == ["24"]
    assert values_of("2 of you still haven't paid", Kind.COUNT) == []


def test_an_opener_is_no_part_of_the_choice_taken_up() -> None:
    values = [c.value.text for cl in ANALYZER.analyze("ok friday it is!!", speaker="x").clauses
              for c in cl.claims]
    assert values == ["friday"]


def test_a_title_ends_no_sentence() -> None:
    clauses = [c.text for c in ANALYZER.analyze(
        "moved to Friday. Mr. Vos is fine with Friday", speaker="x").clauses]
    assert "Mr. Vos is fine with Friday" in clauses


def test_who_was_against_a_thing_is_who_turned_it_down(tmp_path: Path) -> None:
    assert analyze_question("who was against the marquee?").role == "rejecter"
    assert analyze_question("who didn't want the marquee?").role == "rejecter"
    assert analyze_question("who wanted the marquee?").role == "proposer"
    chat = channel_chat(tmp_path, [
        (0, "owen", "thinking ahead to the fete: marquee on the green again?"),
        (20, "kasia", "I can ask the scouts"),
        (60, "nadia", "not the marquee this year please, it took 9 of us 3 hours to put up"),
        (DAY, "owen", "fine, gazebos then"),
    ], start=START, asked=ASKED)
    assert chat.first("who was against the marquee?").startswith("nadia")


def test_a_day_beside_a_time_does_not_replace_a_time_alone(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "Summer star party: Sat Aug 16, Kettle Hill car park, gates open 8:30pm"),
        (2 * DAY, "marek", "small tweak: gates open 8pm rather than 8:30, sunset's early"),
        (5 * DAY, "rosa", "CHANGE: star party is now Friday Aug 15, same place, from 8pm"),
    ], start=START, asked=ASKED)
    first = chat.first("what day was the star party originally?")
    assert "16" in first or "Sat" in first
    first = chat.first("what time were the gates going to open before the tweak?")
    assert "8:30" in first


def test_a_word_before_a_role_and_is_names_what_the_role_is_for() -> None:
    assert values_of("Cloud backup is Sun 21.", Kind.PERSON) == []
    assert values_of("Sofia is secondary", Kind.PERSON) == ["Sofia"]


def test_what_was_settled_per_thing_asks_a_price() -> None:
    qa = analyze_question("what did we settle on per jar?")
    assert qa.kind is QuestionKind.CURRENT
    assert qa.family == "price"
    # a number per thing that is a limit is no price
    assert analyze_question("what's the max per team?").family != "price"
