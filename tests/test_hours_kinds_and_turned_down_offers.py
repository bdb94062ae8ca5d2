"""Hours, times and kinds as team chats write them, and replies that settle who or why:

- bare hours after a day or as opening hours ("sat mar 21, 10-2", "Saturday hours change
  to 8-2 (was 9-3)", "ok 9 till 2 then") are a span of hours: kept apart from a calendar
  day ("BBQ Sat 5 Sep, 12-4" is on the 5th), said with a weekday as its hours ("weds 6-9");
  a score after a day ("sat 3-1 win") and a span of days ("3-5 july") are not;
- a dotted quarter hour is a time in chat ("lets say 6.45 to be safe"), a version where the
  message speaks of software ("k8s staging 1.29 -> 1.30");
- a list numbered on one line ("notes: 1) … 2) …") is read item by item;
- a question naming one kind ("a *small* dog groom", "the *90s* windbreakers", "open on
  *weekdays*") is not answered by a message about another ("large dog full groom $90");
- "what are saturday hours" asks the hours; "the deposit for a piece over 4 hours" asks
  the deposit;
- "tariq you want to run it?" answered "sure" by tariq makes tariq the one running it;
- "why didn't we …" is answered by the reply that turned the proposal down with another
  offer or preference ("8pm ET is 1am for the EU people. saturday 3pm ET?", "I'd rather
  Lena");
- the day a why question names ("why did the van service move to the 18th?") counts toward
  the message naming it;
- "tmrw" is read as tomorrow.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.question_words import swapped_letters
from memory.analysis.value_types import Kind
from memory.reader.answer import value_day
from memory.reader.taking import _ADDRESS
from tests.support.chat_reader import channel_chat
from tests.support.claims import ANALYZER, claims_of, values_of

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 4, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def test_bare_hours_after_a_day_are_a_span_of_hours() -> None:
    assert values_of("sat mar 21, 10-2. they said bring a table", Kind.RANGE) == ["10-2"]
    assert values_of("BBQ fundraiser Sat 5 Sep, 12-4 at the clubhouse", Kind.DATE) == [
        "Sat 5 Sep"]
    assert values_of("weds 6-9 for the class", Kind.RANGE) == ["weds 6-9"]
    assert values_of("ok 9 till 2 then, starting with the first one", Kind.RANGE) == [
        "9 till 2"]
    assert values_of("sat 3-1 win", Kind.RANGE) == []
    assert values_of("Passed 5-1 (Hari against)", Kind.RANGE) == []
    assert values_of("lough gill, 3-5 july", Kind.RANGE) == ["3-5 july"]
    assert claims_of("hours change to 8-2 (was 9-3)") == [("", "8-2", Kind.RANGE)]


def test_a_dotted_quarter_hour_is_a_time_unless_software_is_spoken_of() -> None:
    assert values_of("lets say 6.45 to be safe ugh", Kind.TIME) == ["6.45"]
    assert values_of("first game 9.30 not 10. still ok leaving at 7?", Kind.TIME)[0] == "9.30"
    assert "6.30-7.30" in values_of("wed 6.30-7.30 at the leisure centre", Kind.RANGE)[0]
    assert values_of("k8s staging 1.29 -> 1.30 tmrw 10:00", Kind.VERSION) == ["1.30"]


def test_a_list_numbered_on_one_line_is_read_item_by_item() -> None:
    analysis = ANALYZER.analyze(
        "meeting notes: 1) Saturday hours change to 8-2 from Sept 27 (was 9-3) 2) PawBook "
        "booking system goes live Sept 22 3) costume contest Sat Oct 25 in the parking lot",
        speaker="x")
    claims = [(c.subject, c.value.text) for cl in analysis.clauses for c in cl.claims]
    assert ("PawBook booking system go-live", "Sept 22") in claims
    assert ("costume contest", "Sat Oct 25") in claims
    assert not any(s.startswith(("2 ", "3 ")) for s, _ in claims)


def test_a_question_naming_one_kind_is_not_answered_by_another(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pete", "large dog full groom at $90 starts today, site + board updated"),
        (DAY, "luis", "price for the 80s ski jackets? thinking £65"),
        (DAY + 10, "maya", "£55, a few of them have marks on the cuffs"),
        (2 * DAY, "ryo", "8am saturdays from next week, doors open at 8"),
        (3 * DAY, "rachel", "Travel fee per student is now $60 (was $75)"),
    ], start=START, asked=ASKED)
    assert chat.answer("how much does a small dog groom cost?").abstained
    assert "90" in chat.first("how much is a large dog groom?")
    assert chat.answer("what price are the 90s windbreakers listed at?").abstained
    assert chat.answer("what time do we open on weekdays?").abstained
    assert "60" in chat.first("how much is the travel fee per kid?")


def test_hours_asked_are_hours_and_a_length_is_no_time() -> None:
    assert analyze_question("what are saturday hours now?").asks_clock
    assert not analyze_question("what's the deposit for a piece over 4 hours").asks_clock


def test_an_offer_by_name_asks_that_person() -> None:
    request = QuestionLexicon().taking.request
    assert request.search("yes! swap table in the corner. tariq you want to run it?")
    assert request.search("Lena you wanna host it?")
    assert not request.search("do you want to see the photos?")
    assert _ADDRESS.search("swap table in the corner. tariq you want to run it?")


def test_the_one_asked_to_run_it_who_says_yes_runs_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "benji", "should we do a swap table at the meetup? people bring stuff to trade"),
        (10, "benji", "yes! swap table in the corner. tariq you want to run it?"),
        (11, "tariq", "sure"),
    ], start=START, asked=ASKED)
    assert chat.first("who's running the swap table?").startswith("tariq")


def test_why_not_is_the_reply_that_offered_another(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lena", "typing tournament idea: friday night on monkeytype, winner gets a prize"),
        (5, "rosa", "love it. Fri Nov 14 8pm ET?"),
        (10, "kai", "8pm ET is 1am for the EU people. saturday 3pm ET?"),
        (15, "rosa", "ok saturday 3pm ET it is"),
        (DAY, "kai", "we need another mod, too many hours nobody's online. thoughts? Tariq is "
                     "super active"),
        (DAY + 5, "rosa", "tariq's only been here 2 months. I'd rather Lena, she's been around "
                          "2 years"),
    ], start=START, asked=ASKED)
    assert "1am" in chat.first("why didn't we do the tournament friday at 8?")
    assert "2 months" in chat.first("why didn't we go with tariq for mod?")


def test_the_day_a_why_names_counts_for_the_message_naming_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ryo", "van's making that grinding noise again when I brake. booking it in"),
        (60, "ryo", "booked for tue 16th at Route 9 Auto"),
        (DAY, "ryo", "Route 9 Auto just called, they can't get the brake part till Wednesday. "
                     "van's booked in Thu 18th now instead of Tue 16th"),
        (2 * DAY, "ryo", "van day done, 5 dogs. brake noise is worse, glad it's going in thurs"),
        (3 * DAY, "ryo", "van dropped at Route 9. they say it'll be ready by 4pm"),
        (4 * DAY, "ryo", "van's back. new brake pads + rotors, $640"),
        (5 * DAY, "bea", "sunday's better anyway, no van runs"),
    ], start=datetime(2025, 9, 8, 9, 0, tzinfo=UTC),
        asked=datetime(2025, 9, 25, 9, 0, tzinfo=UTC))
    assert "part" in chat.first("why did the van service move to the 18th?")


def test_chat_spellings_of_tomorrow_are_read() -> None:
    said = datetime(2026, 1, 12, 19, 0, tzinfo=UTC)
    assert value_day("tmrw", said) == value_day("tomorrow", said) == "Tuesday 13 January 2026"


def test_a_count_ordered_is_no_new_price(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kai", "update: vendor says shipping costs went up so the base kit is now $118"),
        (10, "sven", "1 pls"),
        (12, "mei", "2 for me"),
    ], start=START, asked=ASKED)
    first = chat.first("how much is the base kit now?")
    assert "118" in first and "$1 " not in f"{first} " and "$2" not in first


def test_a_dotted_time_with_its_day_answers_what_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nadia", "first wed training tonight 6.30, westfield main hall"),
        (6 * DAY, "marcus", "reminder no training tonight (tue) - its weds now at st annes 6.30"),
    ], start=datetime(2026, 1, 21, 17, 0, tzinfo=UTC),
        asked=datetime(2026, 2, 2, 9, 0, tzinfo=UTC))
    assert "6.30" in chat.first("what time is training now?")


def test_a_task_taken_is_not_another_part_of_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "carla", "costume contest: we're also doing a raffle for the shelter, $5 tickets. "
                     "Theo can you run the raffle table?"),
        (5, "theo", "yep"),
        (30, "bea", "I'll get raffle tickets printed"),
    ], start=START, asked=ASKED)
    assert chat.first("who's running the raffle table?").startswith("theo")


def test_a_question_asked_back_is_answered_by_the_asker(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ollie", "anyone watching the vendor's twitch stream tonight? they're showing "
                     "production samples"),
        (5, "sven", "what time"),
        (6, "ollie", "9pm ET"),
    ], start=START, asked=ASKED)
    assert "9pm" in chat.answer("what time is the vendor twitch stream?").answer


def test_a_word_with_two_letters_swapped_is_the_word() -> None:
    assert swapped_letters("training", "trainign")
    assert not swapped_letters("form", "from")
    assert not swapped_letters("training", "trailing")
