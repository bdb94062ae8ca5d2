"""Revisions said around the value rather than beside a cue, and values that only look like
an earlier one:

- a clause naming its own subject ("delivery fee within 5km going from $15 to $18", "their
  weekly standing order from Monday to Tuesday") revises nothing of another subject that
  happens to hold the value it replaces;
- "ok moving it." before a sentence that only states a value ("Thursday 12th, 2pm.") moves
  what the talk was about;
- a reply to a reported question ("parking q: guest asking if the £12 a night is per car or
  per room") that states a value of the kind asked ("per car. and it's £15 now since …") is
  about what was asked, and its "since …" is the reason;
- an edit that names the old value as a typo ("$135 (not 153, fat fingers)") no longer
  holds it, and its new value is the one of the same measure ("$135", not "20%");
- a quantity raised or lowered to a bare number ("raising the Smash cap to 48") is a count;
  who got the thing ("Jordan got us the gym instead of room B") names no subject; a thing
  switched to two words ("the palette to peach + ivory after …") is its value; a palette
  asks a colour;
- the reader: the time beside the thing asked ("ceremony at 3"), no week for a date asked,
  a password after "pw", "what was the old X" (previous),
  who was unhappy (raised it first), "i'll open applications thursday" (the one after),
  a value said again within the hour follows its chain.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.colour_words import COLOUR_NOUNS, colours_in
from memory.analysis.definitions import QuestionKind
from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.models import Edit, Scope
from memory.pipeline import Pipeline
from memory.reader.extract import typo_named
from memory.reader.word_forms import unit_forms
from memory.store.inbox import Inbox
from tests.support.chat_reader import channel_chat, turn_node
from tests.support.claims import claims_of
from tests.support.memory import T0, msg, open_memory

START = datetime(2026, 2, 4, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)
ANALYZER = MessageAnalyzer(Lexicon())
DAY = 60 * 24


def test_a_value_replaced_under_another_subject_revises_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "cole", "Valentine's pricing locked in: dozen red roses $120, half dozen $70, "
                    "single stem wrapped $15."),
        (DAY, "cole", "ok same-day cutoff moves to 12pm from Monday. I'll update the website"),
        (11 * DAY, "cole", "delivery fee within 5km going from $15 to $18 from March 1. fuel "
                           "+ the new tolls on Manny's route"),
        (12 * DAY, "josie", "Little Fig café want to move their weekly standing order from "
                            "Monday to Tuesday — they're closed Mondays now"),
        (14 * DAY, "cole", "revising the cutoff again: 12:30pm, not 12. we're losing too many "
                           "lunch-break orders"),
    ], start=START, asked=ASKED, channel_name="orders")
    stem = chat.first("how much is a single stem for valentine's?")
    assert "$15" in stem and "$18" not in stem
    assert "$18" in chat.first("what's the delivery fee within 5km now?")
    assert "12:30" in chat.first("what's the same-day cutoff now?")


def test_ok_moving_it_moves_what_the_talk_was_about(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "fiona", "All-staff meeting Wed 11th 3pm in the breakfast room. 30 mins."),
        (5, "gus", "can't do 3, I'm at the builders' merchants wed afternoon"),
        (15, "rory", "also I'm asleep at 3pm nights"),
        (30, "fiona", "ok moving it. Thursday 12th, 2pm. Rory I'll send you notes"),
    ], start=datetime(2026, 3, 9, 14, 0, tzinfo=UTC), asked=ASKED, channel_name="general")
    first = chat.first("when is the all-staff meeting now?")
    assert "Thursday 12th" in first and "3pm" not in first


@pytest.mark.parametrize("text", ["can we move it? thursday 2pm?",
                                  "moving it is a pain. thursday 2pm works for me?"])
def test_a_move_asked_or_a_question_lends_no_change(text: str) -> None:
    analysis = ANALYZER.analyze(text, speaker="x")
    assert all(c.change < 0.5 for c in analysis.clauses if c.claims)


def test_an_answer_to_a_reported_question_is_about_what_was_asked(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tomasz", "parking q: guest asking if the £12 a night for the back yard spaces "
                      "is per car or per room"),
        (5, "fiona", "per car. and it's £15 now since the council permit went up, sorry, "
                     "should've said. website's done"),
    ], start=datetime(2026, 3, 16, 11, 30, tzinfo=UTC), asked=ASKED, channel_name="desk")
    assert "£15" in chat.first("how much is parking a night now?")
    assert "council permit" in chat.first("why did parking go up?")


def test_a_reported_question_asks() -> None:
    assert ANALYZER.analyze("guest asking if the £12 a night is per car or per room",
                            speaker="x").question
    assert not ANALYZER.analyze("if the van is late we start at 10", speaker="x").question


def test_an_edit_naming_the_old_value_as_a_typo_drops_it(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    inbox = Inbox(tmp_path / "inbox.sqlite3")
    pipe = Pipeline(inbox=inbox, writer=writer, store=store)
    inbox.submit([
        msg(1, "cole", "Valentine's pricing locked in: dozen red roses $120, half dozen $70"),
        msg(2, "cole", "bad news: KWR price on reds is up 20%. dozen reds goes to $153, "
                       "half dozen $79"),
    ])
    pipe.drain()
    inbox.submit([Edit(platform="slack", space="T1", channel="C1", id="2", ts=T0,
                       text="bad news: KWR price on reds is up 20%. dozen reds goes to $135 "
                            "(not 153, fat fingers), half dozen $79")])
    pipe.drain()
    nodes = {n.message_id: n for n in store.find_nodes(Scope(space="T1"))}
    edited = nodes["2"]
    values = [edited.value, *(f.source_quote for f in (edited.proposal.facets
                                                        if edited.proposal else []))]
    # the dozen's new price is the one of its measure, and the typo is gone
    assert "$135" in values and "$153" not in values


@pytest.mark.parametrize(("text", "value"), [
    ("bigger space so I'm raising the Smash cap to 48", "48"),
    ("bumping the guest list to 60 since the hall is bigger", "60"),
])
def test_a_quantity_raised_to_a_bare_number_is_a_count(text: str, value: str) -> None:
    assert any(v == value and kind is Kind.COUNT for _, v, kind in claims_of(text))


@pytest.mark.parametrize("text", ["moving it to 3", "I'm cutting my hours to 20"])
def test_no_count_from_a_move_or_ones_own_hours(text: str) -> None:
    assert not any(kind is Kind.COUNT for _, _, kind in claims_of(text))


def test_who_got_the_thing_is_no_subject() -> None:
    analysis = ANALYZER.analyze("Jordan got us the gym instead of room B!!", speaker="x")
    (claim,) = analysis.claims
    assert claim.value.text == "gym" and claim.subject == ""
    assert [v.text for c in analysis.clauses for v in c.old] == ["room B"]


def test_a_thing_switched_to_two_words() -> None:
    assert any(v == "peach + ivory" for _, v, _ in claims_of(
        "Patel-Nguyen: bride's switched the palette to peach + ivory after seeing the "
        "bridesmaid dresses in person"))


def test_a_palette_asks_a_colour() -> None:
    assert "palette" in COLOUR_NOUNS
    assert [s.text for s in colours_in("palette peach + ivory")] != []


def test_the_time_beside_the_thing_asked(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nadia", "Patel-Nguyen setup at the venue: 10am Sat 28th, ceremony at 3"),
    ], start=datetime(2026, 2, 18, 9, 0, tzinfo=UTC), asked=ASKED, channel_name="weddings")
    first = chat.first("what time was the Patel-Nguyen ceremony?")
    assert "3" in first and "10am" not in first


def test_a_week_is_no_new_date(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priti", "Season opener BBQ: Saturday 2 May at the clubhouse. Families welcome"),
        (25 * DAY, "priti", "BBQ moving to Saturday 9 May — we've now got a cup game away on "
                            "the 2nd"),
        (35 * DAY, "kaz", "correction on BBQ plates: £5 not £4, Pickering's put their prices "
                          "up this week. kids still free"),
    ], start=datetime(2026, 4, 3, 9, 0, tzinfo=UTC), asked=datetime(2026, 5, 8, 12, 0,
                                                                    tzinfo=UTC),
        channel_name="general")
    assert "9 May" in chat.first("what date is the BBQ now?")


def test_the_value_beside_the_word_asked_moves_on(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sue", "Subs for 2026: adult £120, student/under-21 £60, juniors £45. Match fees "
                   "£8 a game"),
        (7 * DAY, "sue", "Update on subs: adult is now £130 (pavilion insurance went up a "
                         "lot). student & junior unchanged"),
    ], start=datetime(2026, 4, 1, 9, 0, tzinfo=UTC), asked=ASKED, channel_name="general")
    first = chat.first("adult subs this season?")
    assert "£130" in first and "£120" not in first


def test_why_suppliers_were_switched(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ben", "Kit order: going with Crease & Co again. playing shirts £32"),
        (10 * DAY, "ben", "Kit change: Crease & Co can't do the sponsor print in time. "
                          "Switching to Northbridge Sports, same prices"),
    ], start=datetime(2026, 4, 7, 9, 0, tzinfo=UTC), asked=ASKED, channel_name="general")
    assert "sponsor print" in chat.first("why did we switch kit suppliers?")


def test_a_password_given_after_pw(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rory", "Wifi — there's a review that literally quotes our guest password and the "
                    "flat next door is on it, bandwidth dies every night. I've changed it. New "
                    "guest wifi pw: LeithTide26 (capital L and T)"),
    ], start=datetime(2026, 3, 4, 23, 0, tzinfo=UTC), asked=ASKED, channel_name="desk")
    assert "LeithTide26" in chat.first("guest wifi password atm?")


@pytest.mark.parametrize("question", ["what was the old guest wifi pw?",
                                      "what were the old opening hours?"])
def test_the_old_one_asked_in_the_past_is_the_previous(question: str) -> None:
    assert analyze_question(question).kind is QuestionKind.PREVIOUS


def test_the_old_thing_asked_now_is_current() -> None:
    assert analyze_question("where is the old van parked?").kind is not QuestionKind.PREVIOUS


@pytest.mark.parametrize("question", ["who was unhappy with the 1pm cutoff?",
                                      "who complained about the parking?"])
def test_who_was_unhappy_raised_it(question: str) -> None:
    qa = analyze_question(question)
    assert qa.role == "proposer" and not {"unhappy", "complained"} & set(qa.terms)


def test_a_day_someone_will_do_it_is_the_one_after(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "bex", "ugh fine. $60 it is, i'll open applications thursday"),
    ], start=datetime(2026, 4, 6, 19, 50, tzinfo=UTC), asked=datetime(2026, 4, 20, 9, 0,
                                                                      tzinfo=UTC),
        channel_name="vendors")
    assert "9 April" in chat.first("what day did applications open?")


def test_a_hyphenated_word_covers_its_closed_form() -> None:
    assert "preorders" in unit_forms("pre-orders capped at 120 bouquets")
    assert "preorder" in unit_forms("pre-order")


@pytest.mark.parametrize(("text", "replaced", "typo"), [
    ("non-resident breakfast going to £14 from next Monday (typo before, 14 not 41)", "41",
     True),
    ("dozen reds goes to $135 (not 153, fat fingers), half dozen $79", "153", True),
    ("from thursday 1st Oct white sourdough goes up from £4.20 to £4.50", "£4.20", False),
])
def test_an_edit_names_its_typo_not_an_earlier_value(text: str, replaced: str,
                                                     typo: bool) -> None:
    node = turn_node(1, "cole", text, start=START)
    assert not typo_named(node, replaced)  # (not edited: any value named is an earlier one)
    assert typo_named(node.model_copy(update={"edited": True}), replaced) is typo
