"""What the first line says when the value asked sits beside other words.

* A day a thing is booked for is a plan when said, however past the question asks it ("when
  was the aircon guy booked for" → the 2nd after the message, not before it).
* "when is the meetup?" of a time alone gives the day its message says with it.
* A bound crossed ("we passed 120 units") is no count, unless a bound is asked.
* A deposit, rent or takings is an amount of money.
* With no value found anywhere, a message saying the question's words answers before a
  reply borrowing them ("of course!").
* "total's now £515" right after the order's £420 settles the order's new sum.
* "who are we ordering ink from this time?" asks a supplier.

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import QuestionLexicon
from memory.reader.when_values import day_beside
from memory.text import find_slots
from tests.support.chat_reader import channel_chat

DAY = 60 * 24


def test_a_day_booked_for_is_ahead_of_its_message(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rae", "aircon guy is booked for the 2nd"),
        (60, "nico", "finally"),
        (2 * DAY, "nico", "we did the stock count on the 27th, all fine"),
    ], start=datetime(2025, 5, 26, 18, 0, tzinfo=UTC),
        asked=datetime(2025, 6, 20, 12, 0, tzinfo=UTC))
    assert "2 June" in chat.first("when was the aircon guy booked for")
    # a day a thing was done on stays behind its message
    assert "27 May" in chat.first("when did we do the stock count")


def test_a_time_alone_is_given_with_its_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nyx", "found one: Lincoln Square community center, same day."),
        (10, "nyx", "oh and they only have it 1–5 so we're starting at 1pm not 2"),
        (7 * DAY, "nyx", "📍 meetup TOMORROW: Lincoln Square community center, 1–5pm, $5 at "
                         "the door. pizza's on the server 🍕"),
    ], start=datetime(2025, 4, 18, 18, 0, tzinfo=UTC),
        asked=datetime(2025, 4, 25, 20, 0, tzinfo=UTC))
    first = chat.first("when is the meetup?")
    assert "1–5pm" in first and "26 April" in first
    # the day of the sentence saying that very time ("1pm" is not in "11pm")
    assert day_beside("Sat: doors 11pm. Sun: brunch 1pm", "1pm",
                      datetime(2025, 4, 18, tzinfo=UTC)).startswith("Sun")


def test_a_bound_crossed_is_no_count(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "thock", "IC results: sage 41 / navy 22. e-white gets added as a 3rd if we pass "
                     "120 units total"),
        (3 * DAY, "caps", "we did 60 units day one"),
        (10 * DAY, "thock", "126 units!!! e-white is happening"),
        (10 * DAY + 5, "thock", "3rd colorway UNLOCKED 🥳 we passed 120 units so e-white is "
                                "getting made alongside sage + navy"),
    ], start=datetime(2025, 4, 12, 18, 0, tzinfo=UTC),
        asked=datetime(2025, 4, 28, 20, 0, tzinfo=UTC))
    assert "126" in chat.first("how many units are we at?")
    assert "120" in chat.first("how many units do we need for e-white?")


def test_a_deposit_is_money(tmp_path: Path) -> None:
    lexicon = QuestionLexicon()
    for question in ("deposit for a normal booking now?", "what's the rent now",
                     "how much were the takings"):
        assert analyze_question(question, lexicon).family == "money", question
    chat = channel_chat(tmp_path, [
        (0, "rae", "from 1 june deposits go up to £60 (from £50). we lost 6 bookings to "
                   "no-shows in may"),
        (5, "hal", "do existing bookings keep £50?"),
        (9, "rae", "yep anything booked before the 1st stays at £50"),
        (2 * DAY - 5, "nico", "also full-day sessions (5h+) should be £100 deposit, £60 "
                              "doesn't cover a lost day"),
        (2 * DAY, "rae", "agreed. so £60 standard, £100 full day. I'll update the booking "
                         "form"),
    ], start=datetime(2025, 5, 26, 10, 0, tzinfo=UTC),
        asked=datetime(2025, 6, 20, 12, 0, tzinfo=UTC))
    assert "£60" in chat.first("deposit for a normal booking now?")


def test_words_of_the_question_over_a_borrowed_reply(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nico", "card machines: switching from sumup to square from 1st june, lower fees "
                    "on the big sessions"),
        (20, "tomas", "do we need new readers?"),
        (25, "rae", "square are posting 2 readers, should be here fri"),
        (13 * DAY, "yuki", "can I use my own machine?"),
        (13 * DAY + 2, "nico", "of course!"),
    ], start=datetime(2025, 5, 28, 10, 0, tzinfo=UTC),
        asked=datetime(2025, 6, 20, 12, 0, tzinfo=UTC))
    assert "square" in chat.first("which card machine are we using now")


def test_a_new_total_right_after_the_order(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rae", "inkhaus are out of the REACH compliant reds till july 🙄 so this order's "
                   "going to northgate supply instead. £420"),
        (5, "tomas", "add cartridges pls, 9RL + 14 mag"),
        (30, "rae", "added, total's now £515"),
        (35, "kit", "did we get medium nitrile gloves?"),
        (37, "rae", "10 boxes yes"),
    ], start=datetime(2025, 5, 30, 11, 0, tzinfo=UTC),
        asked=datetime(2025, 6, 20, 12, 0, tzinfo=UTC))
    assert "£515" in chat.first("how much is the ink order now")


def test_who_we_order_from_this_time_is_a_supplier() -> None:
    qa = analyze_question("who are we ordering ink from this time?", QuestionLexicon())
    assert qa.role == "supplier"


def test_a_reply_taking_up_a_request_happens_when_the_request_says(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dev", "anyone free for a PL<>EN GP appointment in Salford tmrw 2pm? ~1h. our "
                   "usual polish freelancer is off sick"),
        (15, "marta", "I'll do it, been a while 😅"),
        (20, "dev", "thank you 🙏"),
    ], start=datetime(2025, 3, 4, 14, 10, tzinfo=UTC),
        asked=datetime(2025, 3, 20, 12, 0, tzinfo=UTC))
    first = chat.first("when did marta do the salford GP appointment?")
    assert "5 March" in first and "2pm" in first


def test_an_amount_with_its_sign_after_and_a_bare_reply_to_it(tmp_path: Path) -> None:
    assert [(sl.kind.value, sl.text) for sl in find_slots("5€ deposit?")] == [("money", "5€")]
    assert [(sl.kind.value, sl.text) for sl in find_slots("10 € each")] == [("money", "10 €")]
    chat = channel_chat(tmp_path, [
        (0, "aisha", "locker keys: i have 24 sets, members sign them out at the desk. 5€ "
                     "deposit?"),
        (10, "lena", "10, people lose keys constantly"),
        (12, "aisha", "10 it is"),
    ], start=datetime(2026, 2, 18, 16, 0, tzinfo=UTC),
        asked=datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    first = chat.first("what's the locker key deposit")
    assert first.startswith("10")
