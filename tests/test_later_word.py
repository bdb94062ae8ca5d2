"""A later word on the subject, a price per item, and a value said of the words before "which".

* A change said after the answer in fewer of the question's words ("fair pushed to …" after
  "the spring fair opens …") is what is in force; a change of another thing that shares a
  name ("Holm logo pushed back") is not.
* "$150 per classified" prices the classified, not the rate card's first item.
* A value said in a clause opened by "which" is said of the words before it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.message import MessageAnalyzer
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 3, 20, 9, 0, tzinfo=UTC)


def test_a_later_change_in_fewer_of_the_questions_words_is_current(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maja", "reminder: the spring craft fair opens sat 12 april at the rec ground"),
        (30, "olu", "nice, I'll bring the gazebo"),
        (200, "ken", "who has the float tin?"),
        (240, "olu", "me. fair warning, it's empty"),
        (300, "ken", "fair enough"),
        (400, "olu", "the fair trade coffee ran out btw"),
        (2000, "maja", "rain forecast all weekend. fair pushed to sat 19 april"),
        (2030, "ken", "👍"),
    ], start=T0, asked=ASKED)
    answer = chat.answer("when does the spring craft fair at the rec ground open?")
    first = answer.answer.splitlines()[0]
    assert "19" in first and "12" not in first
    # the value it replaced stays in view
    assert "12 april" in answer.answer


def test_the_value_before_a_later_change_is_the_one_it_replaced(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maja", "reminder: the spring craft fair opens sat 12 april at the rec ground"),
        (240, "olu", "fair warning, the float tin is empty"),
        (300, "ken", "fair enough"),
        (400, "olu", "the fair trade coffee ran out btw"),
        (2000, "maja", "rain forecast all weekend. fair pushed to sat 19 april"),
    ], start=T0, asked=ASKED)
    first = chat.first("what date was the spring craft fair at the rec ground before it moved?")
    assert "12" in first and "19" not in first


def test_a_change_of_another_thing_sharing_a_name_is_not_the_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "time change on the Holm review: 11:30, not 10"),
        (20, "noor", "ok"),
        (1500, "noor", "Holm final logo pushed back to Friday March 21 for another colour round"),
    ], start=T0, asked=ASKED)
    first = chat.first("what time is the Holm review?")
    assert "11:30" in first and "21" not in first


def test_a_proposal_after_the_answer_changes_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maja", "the spring craft fair opens sat 12 april at the rec ground"),
        (2000, "olu", "could the fair move to sat 19 april instead?"),
        (2030, "maja", "no, posters are printed"),
    ], start=T0, asked=ASKED)
    first = chat.first("when does the spring craft fair open?")
    assert "12" in first and "19" not in first


def test_a_price_per_item_names_the_item() -> None:
    analysis = MessageAnalyzer().analyze(
        "rate card: $400 per main slot, $150 per classified, $90 per person for the gala")
    subjects = {cl.value.text: cl.subject for c in analysis.clauses for cl in c.claims}
    assert "classified" in subjects["$150"]
    assert "main slot" in subjects["$400"]
    assert "person" not in subjects["$90"]  # a unit of rate, not an item


def test_the_price_of_the_item_asked_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "rate card: $400 per main slot, $150 per classified. sending it out today"),
    ], start=T0, asked=ASKED)
    first = chat.first("what do we charge for a classified?")
    assert "150" in first and "400" not in first


def test_a_thing_never_said_still_abstains(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "hana", "field budget: car hire £1,100, bunkhouse £1,650, contingency £300"),
        (600, "rory", "contingency drops to £130 after the dry ice"),
    ], start=T0, asked=ASKED)
    assert chat.answer("what's the wifi password at the bunkhouse?").abstained


def test_a_value_after_which_is_said_of_the_words_before_it() -> None:
    analysis = MessageAnalyzer().analyze(
        "shipping goes up to £520 with the dry ice, taking it out of contingency, which"
        " drops to £130")
    subjects = {cl.value.text: cl.subject for c in analysis.clauses for cl in c.claims}
    assert subjects["£130"] == "contingency"
    assert subjects["£520"] == "shipping"


def test_a_change_said_in_passing_of_another_line_is_current(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "hana", "field budget: car hire £1,100, bunkhouse £1,650, contingency £300"),
        (600, "rory", "shipping goes up to £520 with the dry ice, taking it out of contingency,"
                      " which drops to £130"),
        (700, "hana", "ugh ok"),
    ], start=T0, asked=ASKED)
    first = chat.first("how much contingency do we have now?")
    assert "130" in first and "300" not in first


def test_a_state_of_another_number_in_the_series_does_not_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ali", "ok: #27 moves to thu 25 sept, kelvin library room 2, 6:30pm"),
        (30, "fatima", "👍"),
        (3000, "ali", "#28 planning: thinking thursday 23 october, back at merchant works?"),
        (3100, "fatima", "#28 → thursday 6 november then"),
        (4000, "ali", "merchant works says the space is back. #28 is there, thu 6 nov 🎉"),
    ], start=T0, asked=ASKED)
    answer = chat.answer("where's meetup #28 happening?")
    assert "room 2" not in answer.answer.splitlines()[0]
    assert "#28" in answer.citations[0].quote


def test_a_reaction_is_no_answer_however_late(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tobias", "drinks friday for Marco's birthday? the Anchor at 6"),
        (20, "priya", "🍻"),
    ], start=T0, asked=ASKED)
    first = chat.first("where are marco's bday drinks")
    assert "Anchor" in first


def test_a_message_naming_no_number_of_the_series_may_still_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ali", "meetup #27 is booked: thursday 18 september at merchant works, pizza as"
                   " usual"),
        (3000, "fatima", "pizza for thursday: going with paesano, 12 pizzas"),
        (9000, "fatima", "#27 was great!! 31 people, a record"),
    ], start=T0, asked=ASKED)
    assert "paesano" in chat.first("where did we get the pizza from for #27").lower()
