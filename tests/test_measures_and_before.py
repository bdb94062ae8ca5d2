"""A quantity keeps its unit ("1200g", "40mm", "a 7.5 tonner", "5 m/s": no version, no
£5m); a bare number said after it changes it in its unit ("ok bump it to 1.8" after
"1.6kg"); a bare hour moved ("make the meetup 7 not 6:30") is the time, with no replaced
clock added to it; "before going to X" asks the value before X was taken up, which a
message only asking about X ("X?") does not do; a contrast word ("rather than", "instead
of") in a question is no word of its subject; "…, so priya can do the school run" is what
a change is for.

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.definitions import QuestionKind
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.text import SlotKind, find_slots
from tests.support.chat_reader import channel_chat
from tests.support.claims import claims_of

DAY = 60 * 24
START = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)  # a Monday
ANALYZER = MessageAnalyzer()


def _slots(text: str) -> list[tuple[SlotKind, str]]:
    return [(s.kind, s.text) for s in find_slots(text)]


def _counts(text: str) -> list[str]:
    return [v for _, v, k in claims_of(text) if k is Kind.COUNT]


def test_a_quantity_keeps_its_unit_and_is_no_version_or_money() -> None:
    assert _slots("switching the kiln shelves to 19mm cordierite") == [
        (SlotKind.NUMBER, "19mm")]
    assert _slots("we hired a 3.5 tonner for the trip") == [(SlotKind.NUMBER, "3.5 tonner")]
    assert _slots("target climb ~4 m/s") == [(SlotKind.NUMBER, "4 m/s")]
    assert _slots("the pond liner is 6 m wide") == [(SlotKind.NUMBER, "6 m")]
    # money and versions written so stay what they were
    assert _slots("budget is 5m") == [(SlotKind.MONEY, "5m")]
    assert _slots("rent is 1.2k/month now") == [(SlotKind.MONEY, "1.2k")]
    assert (SlotKind.MONEY, "3m") in _slots("revenue target 3m by 2026")
    # a phone network, a pitch or a staff count is no weight, length or tonnage
    assert _slots("switching to 5g plan with vodafone") == []
    assert _slots("we need 2 FT devs and a PT tester") == []
    assert _slots("v2.1 ships friday")[0] == (SlotKind.VERSION, "v2.1")
    # a pitch surface or a phone network is no weight
    assert _slots("training on the 3G tonight") == [(SlotKind.DATE, "tonight")]


def test_a_measure_is_a_value_where_it_is_set_not_where_it_is_mentioned() -> None:
    assert _counts("going with 19mm for the shelves") == ["19mm"]
    assert _counts("ok 2.4kg it is") == ["2.4kg"]
    assert _counts("fill target: 2.2kg, should climb fine") == ["2.2kg"]
    assert _counts("anyone got a 2.5mm hex key") == []
    assert _counts("3.5t dropped at the garage") == []
    # a measure of a thing chosen leaves the thing the choice: "40mm netting"
    assert _counts("going with 40mm netting for the cage") == []
    assert _counts("we're at 40mm of rain today, pitch is off") == []


def test_a_bare_number_after_a_weight_changes_the_weight(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "kiln load for saturday: 14.5kg of bisque, glaze firing after"),
        (10, "omar", "with the new shelves i'd go 16kg, it all fits"),
        (12, "ines", "ok bump it to 16.5"),
    ], start=START, asked=datetime(2024, 5, 8, 12, 0, tzinfo=UTC))
    first = chat.first("how much bisque are we loading into the kiln?")
    assert "16.5" in first and "14.5" not in first


def test_a_bare_hour_moved_is_the_time_with_no_old_clock_beside_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "zoe", "dig day: meet at the lay-by on Mill Lane at 7:30, shovels provided"),
        (DAY, "zoe", "also the landowner won't open the gate till 8:15, so make the lay-by "
                     "meetup 8 not 7:30"),
    ], start=START, asked=datetime(2024, 5, 8, 12, 0, tzinfo=UTC))
    first = chat.first("what time do we meet on dig day?")
    assert "8" in first and "7:30" not in first


def test_before_going_to_a_value_asks_the_value_before_it_was_taken_up(tmp_path: Path) -> None:
    qa = analyze_question("what shelf size did we use before going to 19mm?")
    assert qa.kind is QuestionKind.PREVIOUS
    for event in ("what do we need before going to the vet?",
                  "what should we eat before going to 5 guys?"):
        assert analyze_question(event).kind is not QuestionKind.PREVIOUS
    chat = channel_chat(tmp_path, [
        (0, "omar", "19mm cordierite shelves? the 15mm ones are sagging a bit"),
        (5, "ines", "15mm is fine for bisque honestly, saves £60"),
        (8, "omar", "fair, 15mm it is"),
        (3 * DAY, "ines", "glaze loads are heavier now. switching the shelves to 19mm"),
        (3 * DAY + 4, "omar", "yep 19mm, good call"),
    ], start=START, asked=datetime(2024, 5, 13, 12, 0, tzinfo=UTC))
    answer = chat.answer("what shelves did we use before going to 19mm?")
    first = answer.answer.splitlines()[0]
    assert not answer.abstained and "15mm" in first and "19mm" not in first


def test_a_contrast_word_names_nothing_asked_about() -> None:
    qa = analyze_question("why is the tasting 6.30 rather than 5.30?")
    assert "rather" not in qa.terms and "tasting" in qa.terms
    qa = analyze_question("why are we using oak instead of pine")
    assert "instead" not in qa.terms


def test_what_a_change_is_for_is_its_reason() -> None:
    reason = ANALYZER.analyze("ok make it 6.30 then, so dev can finish the pickup first",
                              speaker="x").reason
    assert "so dev can finish the pickup first" in reason
    # a cause before "so" stays the reason, and what follows it is no purpose
    assert ANALYZER.analyze("the hall flooded, so we moved to the church",
                            speaker="x").reason == "the hall flooded"
    assert ANALYZER.analyze("the hall flooded, so we will move to the church",
                            speaker="x").reason == "the hall flooded"


def test_what_came_before_a_value_is_no_message_naming_it_or_asking(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "bruno", "venue status: Corn Exchange are holding 3-4 July for us, waiting on "
                     "their quote"),
        (3 * DAY, "gwen", "got a contact at the college, Harbour Campus do events over summer"),
        (5 * DAY, "gwen", "Harbour Campus: £4k for both days incl AV. and it's by the station"),
        (6 * DAY, "gwen", "bad news, harbour campus says catering has to be their in-house "
                          "team, it's in the venue rules"),
        (7 * DAY, "bruno", "site visit at Harbour Campus: tue 28th 2pm, who's coming?"),
    ], start=START, asked=datetime(2024, 5, 20, 12, 0, tzinfo=UTC))
    answer = chat.answer("which venue did we have before harbour campus")
    first = answer.answer.splitlines()[0]
    assert not answer.abstained and "Corn Exchange" in first and "Harbour" not in first
