"""Short forms, headers, amounts and spans as team chats write them:

- a short form nothing in scope says ("the FD shirts") is read as the phrase the chat
  spells it with ("field day"), when more than one message (or the channel's name) does;
- a header that only announces a change ("Slight change:", "Small change:") names no
  subject, and a list of names in a header ("qualifiers for Dev, Harriet and Joe:") stays
  in the phrase it belongs to;
- an amount with its period or head written onto it ("£60pp", "£700pcm") is money;
- "Ok St Abbs it is" decides St Abbs, not "Ok St Abbs"; "navy wins" names no subject
  "wins"; "Looking at …" names nothing;
- an amount said to fall short ("£10 each a month isnt cutting it, upping to £12") is the
  one replaced, and the amount after it still stands;
- "open 10-6 weekdays", "hours are now 9-12" are spans of hours, "6 weekdays" no count;
- "talk tmrw kicks off 7.45" is the talk's time, not the time of "kicks";
- "2moro" is a day, and "2moro at 8" its time;
- "it" in a clause with no subject of its own ("bike store is £5/month. i'd propose cutting
  it to £3") is the subject of the last value of its kind before it;
- someone who has (kindly) agreed or offered to take a task over takes it over;
- "whose call was it to …" asks who decided, and "call" is no word of its subject;
- "Terrace then, same time." takes the terrace up; "on Malvarrosa beach" is a place;
- a venue named in capitals and ending in what it is ("Ocean Room can do Sat 8 March",
  "the Crab House") is a place, and one that "can't take" the group is the one replaced;
- a message listing hours for several days answers each day with its own part ("open 10-6
  weekdays, saturday hours go to 9-1, still closed sundays").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.reader.acronyms import spell_out
from memory.reader.when_values import when_in
from memory.text import SlotKind, find_slots
from tests.support.chat_reader import channel_chat
from tests.support.claims import ANALYZER, claims_of, values_of

START = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 7, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def test_a_short_form_is_read_as_the_phrase_the_chat_spells() -> None:
    texts = ["field day is 4 weeks out", "planning call for field day next wed",
             "we fixed the deal"]
    assert spell_out("what colour are the FD shirts?", texts, lambda w: False) == \
        "what colour are the field day shirts?"
    # said once is no spelling; a short form the scope says stays as it is
    assert spell_out("when is the FD?", ["fixed deal ends"], lambda w: False) == \
        "when is the FD?"
    assert spell_out("when is the FD?", texts, lambda w: w == "fd") == "when is the FD?"
    # a small word inside the phrase gives its letter too
    assert spell_out("who's managing FOH?", ["front of house needs 2", "front of house: sue"],
                     lambda w: False) == "who's managing front of house?"


def test_a_question_in_short_form_finds_the_chat_in_full(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jo", "field day is 4 weeks out, jo's running it again"),
        (DAY, "jo", "shirts for field day! vote: safety orange or navy"),
        (2 * DAY, "jo", "navy wins, ordering 24"),
    ], start=START, asked=ASKED, channel_name="field-day")
    answer = chat.answer("what colour are the FD shirts going to be?")
    assert not answer.abstained
    assert "navy" in answer.answer.splitlines()[0]


def test_a_header_announcing_a_change_names_no_subject() -> None:
    analysis = ANALYZER.analyze(
        "Slight change: BSAC put the cert fee up so it's £135 not £120. Still Sat 22nd",
        speaker="x")
    assert analysis.clauses[0].subject == ""
    assert all(s != "slight" for s, _, _ in claims_of(
        "Slight change: the fee is £135 not £120"))
    assert all(s != "small" for s, _, _ in claims_of(
        "Small change: session 3 will be Thurs 6 Feb instead of Tues 4th"))


def test_names_listed_in_a_header_stay_in_its_phrase() -> None:
    claims = claims_of("Open water qualifiers for Dev, Harriet and Joe: Sat 15 March at "
                       "Vobster Quay.")
    assert ("open water qualifiers", "Sat 15 March", Kind.DATE) in claims


def test_an_amount_with_its_period_written_on_is_money() -> None:
    assert values_of("Deposit £60pp to hold a place", Kind.MONEY) == ["£60pp"]
    assert values_of("rent is £700pcm from march", Kind.MONEY) == ["£700pcm"]


def test_an_opener_is_no_part_of_the_choice_and_looking_at_names_nothing() -> None:
    claims = claims_of("Ok St Abbs it is, 9 votes vs 3 for the Farnes. Looking at Sat–Sun "
                       "12–13 April.")
    assert ("", "St Abbs", Kind.CHOICE) in claims
    assert all(s != "looking" for s, _, _ in claims)
    assert claims_of("navy wins, ordering 24")[0] == ("", "navy", Kind.CHOICE)


def test_an_amount_falling_short_is_replaced_by_the_one_after_it() -> None:
    claims = claims_of("kitty: out of loo roll AGAIN. £10 each a month isnt cutting it, "
                       "upping to £12 from this month pls")
    money = [(s, v) for s, v, k in claims if k is Kind.MONEY]
    assert money == [("kitty", "£12")]
    assert [v for _, v, k in claims_of("the £10 isnt enough, raising it to £12")
            if k is Kind.MONEY] == ["£12"]


def test_bare_hours_after_open_or_hours_are_spans() -> None:
    assert values_of("open 10-6 weekdays, still closed sundays", Kind.RANGE) == ["10-6"]
    assert values_of("open 10-6 weekdays", Kind.COUNT) == []
    assert values_of("hours are now 9-12 (was 9-1)", Kind.RANGE) == ["9-12"]


def test_a_timing_verb_names_no_subject_of_its_own() -> None:
    claims = claims_of("talk tmrw kicks off 7.45 not 7.30, Dr Hewitt's train gets in late")
    assert ("talk", "7.45", Kind.TIME) in claims


def test_two_moro_is_a_day_and_a_bare_hour_after_it_its_time() -> None:
    assert [s.text for s in find_slots("going to the timber yard 2moro for offcuts")
            if s.kind is SlotKind.DATE] == ["2moro"]
    assert values_of("going to the timber yard 2moro at 8 for offcuts", Kind.DATE) == [
        "2moro at 8"]
    assert values_of("see u sat at 2 people", Kind.TIME) == []


def test_it_is_the_subject_of_the_last_value_of_its_kind() -> None:
    claims = claims_of("bike store is £5/month per bike currently. i'd propose cutting it to "
                       "£3 since the lock upgrade's paid off")
    assert [(s, v) for s, v, k in claims if k is Kind.MONEY] == [
        ("bike store", "£5"), ("bike store", "£3")]


def test_agreeing_to_take_a_task_over_takes_it() -> None:
    assert ("qualifiers", "Kit", Kind.PERSON) in claims_of(
        "I can't do the 29th. Kit has kindly agreed to take over the qualifiers")
    assert claims_of("Kit offered to take over the rota") == [("rota", "Kit", Kind.PERSON)]


def test_whose_call_asks_who_decided() -> None:
    qa = analyze_question("whose call was it to go with Aquatec?")
    assert qa.role == "decider"
    assert "call" not in qa.terms


def test_a_choice_taken_up_by_then_and_a_named_beach() -> None:
    assert values_of("Terrace then, same time. Fri 1 Aug 19:00", Kind.CHOICE) == ["Terrace"]
    assert values_of("see you then.", Kind.CHOICE) == []
    assert values_of("ok then", Kind.CHOICE) == []
    assert values_of("party: Fri 1 Aug on Malvarrosa beach, 19:00", Kind.PLACE) == [
        "Malvarrosa beach"]


def test_hours_listed_for_several_days_answer_each_day_with_its_own() -> None:
    listed = ("Opening hours from September: open 10-6 weekdays, saturday hours go to 9-1, "
              "still closed sundays.")
    said = datetime(2024, 8, 26, 9, 0, tzinfo=UTC)
    saturday, _ = when_in(analyze_question("What are the Saturday opening hours?"), listed,
                          said, prefer="future")
    weekday, _ = when_in(analyze_question("what are the weekday hours?"), listed, said,
                         prefer="future")
    assert saturday == "saturday 9-1"
    assert weekday == "10-6"


def test_a_venue_named_in_capitals_is_a_place_and_one_that_cannot_take_us_is_replaced() -> None:
    text = ("Update: Crab House can't take 30 on a Saturday in March. Ocean Room can do Sat 8 "
            "March, £42pp for 3 courses. Booking it unless someone screams")
    assert values_of(text, Kind.PLACE) == ["Ocean Room"]
    assert values_of("Candidates: The Crab House or the Ocean Room", Kind.PLACE) == [
        "The Crab House", "Ocean Room"]
    assert values_of("Rehearsal dinner update: the Oak Room only holds 20 and we're 26, so "
                     "I've booked the Orchard Barn instead.", Kind.PLACE) == ["Orchard Barn"]


def test_when_is_answered_with_the_bare_hour_after_the_day() -> None:
    said = datetime(2024, 9, 9, 17, 30, tzinfo=UTC)
    when, day = when_in(analyze_question("When is Gus going to the timber yard?"),
                        "going to the timber yard 2moro at 8 for offcuts if anyone wants "
                        "anything", said, prefer="future")
    assert (when, day) == ("2moro at 8", "Tuesday 10 September 2024")


def test_a_short_form_spelled_only_far_from_the_question_and_a_where_never_a_number(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "amara", "Venue is CONFIRMED: Fernhill House, Sat 13 Sept. Ceremony 1.30 in the "
                     "Orangery, then the reception."),
        (DAY, "chioma", "Maid of honour duty #1: a spreadsheet of everyone's dietary needs, "
                        "send me yours"),
        (2 * DAY, "amara", "Tiny change: ceremony's now at 2, the registrar can't do 1.30."),
        (3 * DAY, "amara", "invites go out this week. Maid of honour Chioma is on stamp duty"),
    ], start=START, asked=ASKED)
    assert "chioma" in chat.first("Who's the MOH?").lower()
    assert chat.first("Where's the ceremony?").split(" (")[0].strip() != "2"
