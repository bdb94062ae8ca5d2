"""Prices written without their currency, visits planned on a day, and replies that only
put a number against a proposal:

- a rate by the hour in two digits ("35/h → 40/h") is an amount, the one before the arrow
  the value it replaces, and "room 35/h" names no room; a price question is answered by a
  rate or a bare number said where a price was asked ("day rate for the hall too?" → "hall
  day 140");
- "the electrician's coming tues", "courier arriving friday 10am" state when the visit is,
  and a pronoun after the thing ("the hvac guy, he's coming …") ends no subject; so a later
  "can't make wed, coming thu instead" moves the visit, not another thing held on wed;
- a number said against the thing proposed ("mugs 48" to "mugs $45, bowls $60?") revises
  that thing only;
- weekdays with their dates joined by "+" ("mon 23 + tue 24 feb") are one value;
- the reader: the time said right after the day of a plan ("sun 3 may, meet 4:30am"); "so"
  after a verb of being ("was so sweet") gives no reason; "in the first place" names
  nothing; a reply answering a proposed number with another and why ("10, people lose
  keys constantly") says why; a reply taking up the value ("9 is fine") accepts the
  proposal before it, whose reason may end at an emoji; the time a question names a thing
  by ("the 9:15 start") picks the message saying it; "need cover for …" asks someone to
  take a slot, and the slot the question names ("my thursday 7am") finds who took it.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.said_alone import bare_value
from memory.analysis.taking_words import TASK_REQUEST
from memory.analysis.value_types import Kind
from memory.decisions import _Context
from memory.proposer import _echoed
from memory.reader.coverage_values import other_period
from memory.reader.extract import reason_in
from memory.reader.reasons import accepts
from memory.reader.when_values import clock_beside
from memory.text import find_slots, joins_day_set
from tests.support.chat_reader import channel_chat

START = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 4, 28, 9, 0, tzinfo=UTC)
ANALYZER = MessageAnalyzer(Lexicon())
DAY = 60 * 24
ACCEPT = ("ok", "sure", "yes", "fine")


def _claims(text: str) -> list[tuple[str, str, Kind, bool]]:
    analysis = ANALYZER.analyze(text, speaker="x")
    return [(c.subject, c.value.text, c.value.kind, c.stated) for cl in analysis.clauses
            for c in cl.claims]


def _old(text: str) -> list[str]:
    analysis = ANALYZER.analyze(text, speaker="x")
    return [v.text for cl in analysis.clauses for v in cl.old]


def test_an_hourly_rate_without_currency_is_an_amount() -> None:
    claims = _claims("hire charges from june: court hire 28/h → 32/h")
    assert ("court hire", "32", Kind.MONEY, True) in claims
    assert _old("court hire 28/h → 32/h") == ["28"]
    assert not any(k is Kind.PLACE for _, _, k, _ in _claims("studio room 35/h for members"))
    # a room named by its number stays a place; a rate by the day in two digits is no amount
    assert any(k is Kind.PLACE for _, _, k, _ in _claims("we're in room 35 on tuesday"))
    assert not any(s.kind.value == "money" for s in find_slots("we ship 40/day at peak"))


def test_a_visit_planned_on_a_day_is_stated() -> None:
    assert ("electrician", "coming tues morning", Kind.DATE, True) in _claims(
        "the electrician's coming tues morning")
    assert ("hvac guy", "coming wed", Kind.DATE, True) in _claims(
        "rang the hvac guy, he's coming wed between 1 and 3")
    assert any(v == "friday 10am" and stated for _, v, _, stated in _claims(
        "courier arriving friday 10am"))


def test_weekdays_with_dates_joined_by_plus_are_one_value() -> None:
    assert "thu 9 + fri 10 july" in [v for _, v, _, _ in _claims(
        "the sander is booked for thu 9 + fri 10 july")]
    assert joins_day_set("mon 23", " + ", "tue 24 feb")
    # two dated days said apart by a slash are two values, as before ("tue 3rd / fri 6th")
    assert not joins_day_set("tue 3rd", " / ", "fri 6th")
    assert joins_day_set("mon", " / ", "wed")  # a set of weekdays still joins


def test_a_number_against_a_proposed_thing_is_its_value() -> None:
    bare = bare_value("candles 22")
    assert bare is not None and bare.text == "22" and bare.subject == "candles"
    assert bare_value("thanks 22") is None or bare_value("thanks 22").subject == ""  # type: ignore[union-attr]


def test_a_counter_number_revises_only_the_thing_it_names(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "fair stock prices: candles $20, soaps $8. shout if that's off"),
        (12, "ivan", "candles 22. soaps fine"),
    ], start=START, asked=ASKED, channel_name="shop")
    assert "22" in chat.first("how much are the candles for the fair?")
    assert "$8" in chat.first("how much are the soaps at the fair?")


def test_a_visit_moved_without_its_name_moves_the_visit(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "newsletter goes out thursday like always"),
        (DAY, "ana", "trying wed for the newsletter from next week"),
        (2 * DAY, "ben", "boiler in the back office is banging again"),
        (2 * DAY + 20, "ana", "rang the heating guy, he's coming wed between 1 and 3"),
        (3 * DAY, "ben", "heating guy called, can't make wed. coming thu 16th at 8am instead"),
    ], start=START, asked=ASKED, channel_name="office")
    assert "wed" in chat.first("what day does the newsletter go out now?").lower()
    assert "thu" in chat.first("when is the heating guy coming?").lower()


def test_an_hourly_rate_answers_a_rate_question(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kit", "hire for outside groups from may: court hire 28/h → 32/h. the nets "
                   "stay the same"),
        (DAY, "kit", "the fire alarm test is tuesday at 10"),
    ], start=START, asked=ASKED, channel_name="bookings")
    assert "32" in chat.first("what's the hourly rate for court hire from may?")
    assert "28" in chat.first("what was the court hire rate before may?")


def test_the_time_said_after_a_plans_day_is_part_of_when() -> None:
    assert clock_beside("bat walk at the old quarry: fri 12 june, meet 9:15pm by the "
                        "gate", "fri 12 june") == "9:15pm"
    assert clock_beside("bat walk fri 12 june. the pub quiz is at 8pm", "fri 12 june") == ""
    assert clock_beside("no date yet", "fri 12 june") == ""


def test_a_degree_is_no_consequence() -> None:
    assert reason_in("the ceilidh was so good, 40 people came") == ""
    assert reason_in("hall's booked that night, so we're doing the 14th") == (
        "hall's booked that night")


def test_a_reply_taking_up_the_value_accepts_it() -> None:
    assert accepts("10 is fine, saves us a trip", ACCEPT)
    assert accepts("thursday works for me", ACCEPT)
    assert not accepts("10 people came in the end", ACCEPT)


def test_need_cover_asks_someone_to_take_a_slot() -> None:
    assert TASK_REQUEST.search("away next week, need cover for mon 6pm spin")
    assert not TASK_REQUEST.search("we need coverage stats by friday")


def test_the_reader_on_proposals_counters_and_covers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lou", "ok so about tuesday circuits. a few people said 6am is grim in winter, "
                   "pitch black when they leave home. can we shift it to 7?"),
        (30, "max", "ok lets do it. tuesday circuits at 7 from the 14th"),
        (3 * DAY, "lou", "tuesday circuits was so fun today, 19 came 🙌"),
        (4 * DAY, "nia", "bike locks: i have 12 keys, members borrow them at the desk. 5 "
                         "deposit?"),
        (4 * DAY + 5, "max", "20, people walk off with them"),
        (4 * DAY + 7, "nia", "20 it is"),
        (5 * DAY, "max", "bakery can't drop off before 7:45 anymore 😩 push the members "
                         "breakfast to 8:15?"),
        (5 * DAY + 10, "lou", "8:15 is fine, more people can come anyway"),
        (6 * DAY, "nia", "away 20-24 april. need cover for tue 6pm spin and thu 7am row"),
        (6 * DAY + 30, "lou", "i can do the tue"),
        (6 * DAY + 50, "max", "i'll take thu 7am, i'm in early anyway"),
        (7 * DAY, "max", "ok 8:30 from the 25th for saturday yoga. this saturday stays 9 "
                         "since it's full"),
        (7 * DAY + 60, "lou", "saturday yoga is so full lately, lovely"),
    ], start=START, asked=ASKED, channel_name="gym")
    why_moved = chat.first("why did tuesday circuits move off 6am in the first place")
    assert "grim" in why_moved or "dark" in why_moved
    assert "walk off" in chat.first("why 20 for the lock deposit and not 5")
    assert "7:45" in chat.first("why did the members breakfast move to 8:15")
    assert "max" in chat.first("who's covering my thursday 7am while i'm away").lower()
    assert "25" in chat.first("from which saturday does the 8:30 yoga start")


def test_the_speakers_own_absence_is_named_after_them() -> None:
    analysis = ANALYZER.analyze("heads up i'm on leave 3-7 august (camping ⛺). someone needs "
                                "the key rota", speaker="Nina Holt")
    claims = [(c.subject, c.value.text, c.stated) for cl in analysis.clauses
              for c in cl.claims]
    assert ("Nina away on leave", "3-7 august", True) in claims
    # the speaker's own plans and appointments still decide nothing for the team
    for mine in ("i'm in at 10 tomorrow", "I have a dentist appointment at 2"):
        assert not ANALYZER.analyze(mine, speaker="Nina Holt").claims
    assert [(s.kind.value, s.text) for s in find_slots("away 16-27 march")] == [
        ("date", "16-27 march")]


def test_an_absence_is_not_moved_by_those_covering_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nina", "i'm away 3-7 august (camping ⛺). need cover for tue 6pm spin and thu "
                    "7am row"),
        (20, "max", "i can do tue 4th"),
        (45, "lou", "i'll take thu 7am, i'm in anyway"),
    ], start=START, asked=ASKED, channel_name="gym")
    for question in ("what dates is nina away", "when's nina on leave"):
        first = chat.first(question)
        assert "3-7 august" in first and "7am" not in first


def test_calling_off_a_thing_named_after_an_opener_cancels_it() -> None:
    for text, thing in (("ok cancelling quiz & curry night. we'll fold it into the summer "
                         "social instead", "quiz & curry night"),
                        ("calling off the bbq, forecast is awful", "bbq")):
        claims = _claims(text)
        assert any(s == thing and k is Kind.STATUS for s, _, k, _ in claims), claims


def test_a_value_answering_move_it_moves_what_was_just_set(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "bea", "newsletter copy deadline is fri 17th. reports and photos pls 📸"),
        (30, "gus", "can we push it a week? the treasurer's report isn't finished"),
        (40, "bea", "ok 24th then"),
    ], start=START, asked=ASKED, channel_name="newsletter")
    first = chat.first("when's the newsletter copy deadline now?")
    assert "24" in first and "17" not in first.split("(")[0]


def test_a_reaction_saying_a_value_again_decides_nothing() -> None:
    said = "so the coach leaves at 7:00 sharp — be there by 6:40 ☕"
    asked = "meet at the coach 6:40 ok?"

    def echoed(reply: str, before: str) -> bool:
        a = ANALYZER.analyze(reply, speaker="sam")
        claim = next(c for cl in a.clauses for c in cl.claims)
        ctx = _Context(replying=before, anchor_analysis=ANALYZER.analyze(before, speaker="dana"))
        return _echoed(claim, a, ctx)

    assert echoed("6:40 😵", said)
    assert not echoed("6:50 😵", said)  # another value: a counter, not an echo
    assert not echoed("6:40 👍", asked)  # an answer to a question takes it up


def test_a_rate_by_another_period_answers_no_rate_asked() -> None:
    assert other_period("what's the day rate for the small room?", "small room now 22/h")
    assert not other_period("what's the hourly rate for the hall?", "main hall 35/h → 40/h")
    assert not other_period("how much is the room per night?", "room is £80 a night")
    assert not other_period("how much is the room?", "room is £80 a night")  # none asked
