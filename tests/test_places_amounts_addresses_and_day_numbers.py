"""Values read where the chat writes them in its own way, and answers that keep to the kind
of value asked:

- a garage, shop, yard or depot is a place ("booked it in at hillside garage"), and so is a
  saint's hall ("st brendan's parish hall"); a street named by an ordinal ("on 3rd ave") or
  an ordinal floor is no day;
- bare numbers an amount verb changes ("cut the fox order from 6 to 4") are counts, the
  first one replaced; "moved dinner from 6 to 7" stays a time;
- a span of days ("feb 9–13 clashes with …") is not cut short by a count of its last day;
- "health inspection booked thu jan 22" names what was booked for that day, not a choice;
- a value said not to work ("thu 22 doesn't work for them anymore. moved to tue jan 27")
  is the one replaced, and "thu 22" names the state's "thu jan 22, 10am";
- a day or time right after a place stated is stated too ("at the yard tues 28th 4pm");
- an address asked ("what's the address of druckhaus nord") is answered by a street,
  postcode or email written out, or not at all; the original of a change whose first
  message names what it replaced is that replaced value, unless the question asks what
  someone first put forward;
- "the saturday 14th shift" is said where the chat writes "sat 14", "72 hours" where it
  writes "72h"; "4th place" is no day;
- a later change naming the value it replaced, when that is not the value answered ("thu
  22 doesn't work … moved to tue jan 27" after the guest spot's "feb 16–20"), does not
  revise the answer;
- a place said by its common noun ("the yard") names no company;
- "who set up the account" asks who did it;
- a change put forward as a question ("€109 → €119 per group from april?") that someone else
  says yes to is stated; a header saying only who got in touch ("…called:") labels nothing.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.matching import values_match
from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.reader.word_forms import unit_forms
from tests.support.chat_reader import channel_chat
from tests.support.claims import ANALYZER, claims_of, values_of

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 4, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def test_businesses_and_saints_halls_are_places_and_ordinal_streets_no_days() -> None:
    assert "hillside garage" in values_of("booked it in at hillside garage fri 13th 9am",
                                        Kind.PLACE)
    assert "the depot" in values_of("parcels go to the depot from monday", Kind.PLACE)
    assert "st brendan's parish hall" in values_of(
        "auction is now sat may 16 at st brendan's parish hall", Kind.PLACE)
    assert values_of("ready for pickup may 7 at inkwell print on 3rd ave", Kind.DATE) == [
        "may 7"]
    assert values_of("we moved to the 3rd floor", Kind.DATE) == []


def test_bare_numbers_an_amount_verb_changes_are_counts() -> None:
    analysis = ANALYZER.analyze("so i've cut the fox order from 6 to 4", speaker="x")
    claims = [(c.subject, c.value.text, c.value.kind) for cl in analysis.clauses
              for c in cl.claims]
    assert claims == [("fox order", "4", Kind.COUNT)]
    assert [(v.text, v.kind) for cl in analysis.clauses for v in cl.old] == [
        ("6", Kind.COUNT)]
    assert values_of("dinner moved from 6 to 7", Kind.COUNT) == []


def test_a_span_of_days_keeps_its_last_day() -> None:
    text = "kai emailed: feb 9–13 clashes with flash day so he'd rather come feb 16–20"
    assert values_of(text, Kind.COUNT) == []
    analysis = ANALYZER.analyze(text, speaker="x")
    assert [v.text for cl in analysis.clauses for v in cl.old] == ["feb 9–13"]
    assert "feb 16–20" in values_of(text, Kind.RANGE)


def test_what_is_booked_for_a_day_is_no_choice() -> None:
    assert claims_of("health inspection booked thu jan 22, 10am.") == [
        ("health inspection", "thu jan 22, 10am", Kind.DATE)]
    assert values_of("ok, galloway booked ✅", Kind.CHOICE) == ["galloway"]


def test_a_value_ruled_out_is_the_one_replaced(tmp_path: Path) -> None:
    assert values_match("thu 22", "thu jan 22, 10am")
    analysis = ANALYZER.analyze("inspector's office called: thu 22 doesn't work for them "
                                "anymore. moved to tue jan 27, 2pm", speaker="x")
    assert [v.text for v in analysis.clauses[1].old] == ["thu 22"]
    chat = channel_chat(tmp_path, [
        (0, "marisol", "kai's guest spot confirmed feb 9–13, station 4"),
        (DAY, "bex", "health inspection booked thu jan 22, 10am. i'll be here for it"),
        (7 * DAY, "bex", "kai emailed: feb 9–13 clashes with flash day so he'd rather come "
                         "feb 16–20"),
        (8 * DAY, "bex", "inspector's office called: thu 22 doesn't work for them anymore. "
                         "moved to tue jan 27, 2pm"),
    ], start=datetime(2026, 1, 5, 9, 0, tzinfo=UTC), asked=datetime(2026, 1, 25, 9, 0,
                                                                      tzinfo=UTC))
    assert "27" in chat.first("what day is the health inspection now?")
    kai = chat.first("what dates is kai here now?")
    assert "16" in kai and "27" not in kai


def test_a_time_right_after_a_place_is_stated_too() -> None:
    analysis = ANALYZER.analyze("harness inspection at the yard tues 28th 4pm. bring ur kit",
                                speaker="x")
    claims = [(c.value.text, c.stated) for cl in analysis.clauses for c in cl.claims]
    assert claims[:2] == [("the yard", True), ("tues 28th 4pm", True)]


def test_an_address_is_written_out_or_not_answered(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "flyers for the new room: 500 from druckhaus nord for €85"),
        (DAY, "ines", "We signed! New office: Lohmühlenstraße 65, 12435 Berlin"),
        (DAY + 30, "ines", "Correction: it's Lohmühlenstraße 56, not 65"),
        (2 * DAY, "pete", "quiz night at flynn's on thursday, 8pm"),
    ], start=START, asked=ASKED)
    assert chat.answer("what's the address of druckhaus nord?").abstained
    assert chat.answer("whats the address for flynn's").abstained
    assert "Lohmühlenstraße 56" in chat.first("what's the address of the new office?")


def test_the_original_is_what_the_first_change_replaced(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lena", "inverter order: bell house job is cancelled so i've cut the fox order "
                    "from 6 to 4"),
        (DAY, "marisol", "dues proposal: $45 → $55/mo from Jan"),
    ], start=START, asked=ASKED)
    assert chat.first("how many inverters were on the original fox order?").startswith("6")
    assert "$55" in chat.first("what did marisol first propose for dues?")


def test_days_and_measures_written_short_are_said(tmp_path: Path) -> None:
    assert "72" in unit_forms("agree 72h")
    chat = channel_chat(tmp_path, [
        (0, "felix", "i'm on the sat 14 evening shift but have an exam, could anyone swap?"),
        (20, "malik", "i can take it if you do my sunday 22nd"),
        (40, "lea", "rota updated: malik sat 14 evening, felix sun 22"),
        (DAY, "theo", "reschedules need 48h notice. ok 72h notice from now, people keep "
                      "bailing the day before"),
        (2 * DAY, "vexa", "groups: 4 groups of 4, round robin"),
    ], start=START, asked=ASKED)
    assert not chat.answer("who has the saturday 14th evening shift now?").abstained
    assert not chat.answer("why'd we go to 72 hours notice?").abstained
    assert chat.answer("what does 4th place get?").abstained


def test_a_day_said_elsewhere_in_the_message_answers_when(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sofia", "navy wins, $18 each"),
        (DAY, "owen", "shirts ordered! 30 navy, ready for pickup may 7 at inkwell print"),
    ], start=datetime(2026, 4, 20, 9, 0, tzinfo=UTC),
        asked=datetime(2026, 4, 25, 9, 0, tzinfo=UTC))
    assert "may 7" in chat.first("when can the shirts be picked up?").lower()


def test_a_common_place_names_no_company(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "shaz", "harness + lanyard inspection at the yard tues 28th 4pm. bring ur kit"),
    ], start=datetime(2026, 4, 20, 9, 0, tzinfo=UTC),
        asked=datetime(2026, 4, 25, 9, 0, tzinfo=UTC))
    assert chat.answer("which company does the harness inspections?").abstained
    assert "28" in chat.first("when is the harness inspection?")


def test_who_set_it_up_asks_who_did_it() -> None:
    assert analyze_question("who set up the black cat account?").role == "doer"
    assert analyze_question("who decided on black cat?").role == "decider"


def test_a_change_put_as_a_question_and_taken_up_is_stated(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lea", "thinking about weekend prices. we're the cheapest in town by far. "
                   "€109 → €119 per group sat/sun from april?"),
        (20, "jonas", "yes but announce it in march, not before valentine's"),
    ], start=datetime(2026, 2, 9, 9, 0, tzinfo=UTC),
        asked=datetime(2026, 2, 20, 9, 0, tzinfo=UTC))
    assert "€119" in chat.first("what's the weekend group price going to be?")


def test_a_header_saying_who_got_in_touch_labels_nothing() -> None:
    analysis = ANALYZER.analyze("inspector's office called: thu 22 doesn't work for them "
                                "anymore. moved to tue jan 27, 2pm", speaker="x")
    assert [c.label for c in analysis.clauses] == ["", "", ""]
    assert ANALYZER.analyze("Outing decided: bowling alley", speaker="x").clauses[1].label
