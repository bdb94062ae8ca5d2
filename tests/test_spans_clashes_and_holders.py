"""Spans of days, clashes, named role holders, and what a question's words ask for:

- "14th-16th", "may 3-4", "3rd to 9th" are spans of days ("9-5" stays hours);
- the day a thing "clashes with" is the other thing's, never a value decided for it; a
  garage that "cancelled on us, now thurs 9th" moved the booking rather than ending it;
- "when does Alex start" is the day in the part naming Alex, not another part's "from";
- a role named by its holder's name ("Inspector is Morag from the county") answers who
  held it, and a day is nobody ("Sunday 22 March" names no person);
- "how many" is never answered by a price; "handbuilding" is no word of change; what a
  person does in a role ("teaching") is answered by who took it on in other words;
- "why'd it get postponed" is the reason given where it was postponed; "sticking with"
  the one we had turns a suggestion down; "who bumped it up to 60" is who set 60;
- "no change to" keeps; "15mm" is no money; "#10 bolts" counts nothing asked, a day or a
  street after its number is nobody.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.dates import resolve_date
from memory.models import Scope
from tests.support.chat_reader import ChannelChat, channel_chat, chat_author, written_reader
from tests.support.claims import ANALYZER, claims_of, values_of

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 6, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def test_spans_of_days_resolve_from_first_to_last() -> None:
    said = datetime(2026, 4, 9, 7, 0, tzinfo=UTC)
    span = resolve_date("15th-16th", said, prefer="future")
    assert span is not None and (span.start, span.end) == (date(2026, 4, 15), date(2026, 4, 16))
    span = resolve_date("may 3-4", said, prefer="future")
    assert span is not None and (span.start, span.end) == (date(2026, 5, 3), date(2026, 5, 4))
    span = resolve_date("30th to 2nd", said, prefer="future")
    assert span is not None and (span.start, span.end) == (date(2026, 4, 30), date(2026, 5, 2))
    assert resolve_date("9-5", said, prefer="future") is None


def test_a_clash_names_the_other_things_day() -> None:
    claims = claims_of("Heads up: the audit clashes with the open day on the 12th. Moving "
                       "the audit to Friday 19th, 10am.")
    assert all("12th" not in v for _, v, _ in claims)
    assert any("19th" in v for _, v, _ in claims)
    moved = claims_of("Garage cancelled on us, now thurs 9th 9am same place.")
    assert any(k is Kind.DATE and "9th" in v for _, v, k in moved)
    assert all(k is not Kind.STATUS for _, _, k in moved)


def test_a_start_is_the_day_said_beside_who_starts(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maeve", "Interviewed two people for the Saturday kids class. I liked Alex Moreno "
                     "most."),
        (30, "dev", "Yes please, start date Saturday 11 April."),
        (2000, "maeve", "Minutes from today: subs go to £72 from 1 May, Alex starts 11 April, "
                        "autumn rota signed off."),
    ], start=START, asked=ASKED)
    assert "11 April" in chat.first("When does Alex start?")


def test_a_role_held_by_a_name_nobody_in_the_chat_has(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "amara", "Inspection day: Sunday 15 March, 9am. Inspector is Morag from the "
                     "county."),
        (2 * DAY, "amara", "Heads up: inspection day clashes with the fun run on the 15th. "
                           "Moving the inspection to Sunday 22 March, 9am."),
        (4 * DAY, "amara", "Inspector change for 22 March: Morag's away, Callum Reid from the "
                           "county will inspect instead."),
    ], start=START, asked=datetime(2025, 3, 10, 9, 0, tzinfo=UTC))
    assert "Morag" in chat.first("who was the original inspector")
    assert "22" in chat.first("when's the inspection?")
    assert chat.first("who's inspecting us on the 22nd").startswith("Callum")


def test_how_many_is_never_a_price(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pip", "Save the date: Awards Night Saturday 28 March at the clubhouse. Tickets "
                   "$45."),
        (7 * DAY, "pip", "Tombola for awards night: 1st prize is a hamper donated by the deli. "
                         "Tickets $5 or 3 for $10."),
        (21 * DAY, "pip", "Awards night tickets going to $50 — the Bowls Club charges more for "
                          "catering. Still a bargain"),
        (28 * DAY, "pip", "Tombola tickets are in, grab a book from the clubhouse bar"),
    ], start=START, asked=ASKED)
    assert "$" not in chat.first("how many tombola tickets have we sold so far?")


def test_what_someone_does_in_a_role_is_who_took_it_on(tmp_path: Path) -> None:
    assert analyze_question("how many places are on the handbuilding class?").changes == ()
    chat = channel_chat(tmp_path, [
        (0, "tom", "Bad news, I've done my wrist in. Off for a fortnight."),
        (10, "priya", "Tuesday life drawing: I'm covering for Tom until the end of March."),
        (20 * DAY, "tom", "Back earlier than expected! I'll take Tuesday life drawing again "
                          "from this week. Thanks Priya for covering"),
        (21 * DAY, "jo", "Welcome back!"),
    ], start=START, asked=datetime(2025, 4, 1, 9, 0, tzinfo=UTC))
    assert "tom" in chat.first("who's teaching tuesday life drawing at the moment?").lower()


def test_why_postponed_is_the_reason_given_where_it_was_postponed(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "natasha", "Bayside Juniors Regatta is Sunday 8 Feb at Shelly Cove. Entries close "
                       "30 Jan."),
        (3 * DAY, "natasha", "Regatta entries in: 22 kids across U9 and U11."),
        (5 * DAY, "ben", "Regatta update from the league: postponed to Sunday 15 Feb due to the "
                         "big storm forecast for the 8th."),
        (11 * DAY, "ben", "Regatta on the 15th: meet at the boathouse 6:45am, bus leaves 7am "
                          "for Shelly Cove."),
    ], start=START, asked=datetime(2025, 3, 20, 9, 0, tzinfo=UTC))
    assert "storm" in chat.first("why'd the regatta get postponed")


def test_sticking_with_the_one_we_had_turns_a_suggestion_down(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pip", "Awards night entertainment: face painter booked, Face Art Fran."),
        (DAY, "rhys", "Can we get a magician instead of the face painter? My uncle does "
                      "shows."),
        (DAY + 20, "pip", "Love it but they'd be £600 vs £150 for face painting. Sticking "
                          "with Face Art Fran."),
    ], start=START, asked=ASKED)
    assert "600" in chat.first("why aren't we getting the magician?")


def test_who_bumped_it_up_is_who_set_the_new_number(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jo", "Placing the chair order with Hirecraft today — 40 folding chairs. Shout "
                  "if you need more."),
        (25, "tom", "Actually make it 60 chairs, the choir's coming."),
        (30, "jo", "ok 60 it is"),
        (DAY, "jo", "Scrap the 60 — Hirecraft only have 50 till April, so I've ordered 50 "
                    "chairs. Delivery Friday."),
        (4 * DAY, "jo", "Chairs have arrived, 50 stacked in the hall. Don't take more than 2 "
                        "without signing the sheet."),
    ], start=START, asked=ASKED)
    assert "tom" in chat.first("who bumped the chair order up to 60?").lower()


def test_a_month_names_which_instance_a_previous_question_asks(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dev", "Next bisque firing is Thursday 12 March. Load by Wednesday 11th at 6pm."),
        (3 * DAY, "dev", "Pushing the bisque firing to Friday 13th — the electrician can only "
                         "come Thursday."),
        (27 * DAY, "dev", "April bisque firing: Friday 10 April. Load by Thursday 9th 6pm."),
        (34 * DAY, "dev", "Swapping the April firings round: bisque now Saturday 11 April."),
    ], start=START, asked=ASKED)
    assert "12" in chat.first("What was the original date for the March bisque firing?")


def test_a_later_message_naming_little_of_the_question_is_no_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "carla", "Stall sign-up: 31 of 48 pitches taken so far. Deadline to reserve a "
                     "pitch is May 8."),
        (6 * DAY, "carla", "Heads up: the fairground changed our times. Stall setup is now 7am, "
                           "gates open at 9am."),
    ], start=START, asked=datetime(2025, 3, 20, 9, 0, tzinfo=UTC))
    assert "May 8" in chat.first("whats the deadline to reserve a stall pitch")


def test_a_call_for_two_volunteers_is_taken_by_both(tmp_path: Path) -> None:
    say = chat_author(space="T1", channel="C1", channel_name="market", start=START)
    root = say(0, "hanna", "Next one: the Harbour Craft Fair, Saturday 13 June. Need 2 "
                           "volunteers.")
    replies = [say(20, "ellis", "me! I owe you one"), say(25, "tom", "I'll do it too")]
    chat = [root, *(r.model_copy(update={"thread_id": root.id}) for r in replies),
            say(60, "tom", "Thursday class is full for the rest of term.")]
    reader = written_reader(tmp_path, chat)
    asked = ChannelChat(reader, Scope(platform="slack", space="T1", channels=("C1",)), ASKED)
    first = asked.first("who volunteered for the harbour craft fair?")
    assert "ellis" in first and "tom" in first


def test_which_of_two_alternatives_is_the_one_decided(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pip", "Awards Night tickets going to $50 — the hall charges more for catering."),
        (20, "rhys", "Can we get a live band instead of a DJ? My cousin's band does covers."),
        (40, "pip", "Love it but they'd be $1,200 vs $400 for the DJ. Sticking with DJ Marlo."),
        (DAY, "pip", "Awards Night timing: drinks 6:30pm, dinner 7pm, awards 8:30pm."),
    ], start=START, asked=ASKED)
    assert "dj" in chat.first("are we having a band or a DJ at awards night").lower()


def test_no_change_keeps_and_millimetres_are_no_money() -> None:
    assert ANALYZER.analyze("so no change to sat hours", speaker="x").changes < 0.5
    assert values_of("Merchants order going in today. 20 lengths 15mm copper, 10 x 22mm.",
                     Kind.MONEY) == []
    assert values_of("raised $2mm in seed", Kind.MONEY) == ["$2mm"]


def test_labels_days_and_streets_are_no_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "leo", "4 NEOs from rev for the drive, $60 each so $240"),
        (DAY, "leo", "put 6 NEOs @ $60 on the order sheet = $360"),
        (DAY + 10, "nadia", "ya add a spare, so 7"),
        (2 * DAY, "leo", "ordered: 1 NEO $60, 2 yd red cordura, 1 pack #10 bolts. rev order "
                         "#RV-88213"),
        (3 * DAY, "diane", "Change of plans: the library is closed tomorrow. Board meeting "
                           "pushed to Thursday Jan 12, 7pm, at my place (44 Alder Ct)."),
    ], start=START, asked=ASKED)
    neos = chat.first("how many neos are we at total now?")
    assert "10" not in neos and "88213" not in neos
    host = chat.first("who hosted the board meeting?")
    assert host.startswith("diane")
