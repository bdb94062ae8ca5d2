"""A message about the thing asked may state its value where the analyzer gives the value
another subject: in a clause opening with a pronoun for it ("byte café replied!! they'll
sponsor us £200 for their logo"), or as the only amount the message states ("jersey order
goes in tomorrow … kitbash did us a bulk price, £28 each now"). A *previous* question that
names the change ("before the bulk deal") reads what was said about the thing before that
change, where the change's words never appear. And a *who* answer is never the question's
own object ("who booked Kettle Drum Collective?")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.support.chat_reader import channel_chat

T0 = datetime(2026, 3, 30, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def test_a_pronoun_clause_states_the_value_of_the_thing_before_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "byte café replied!! they'll sponsor us £200 for their logo on the "
                     "jersey sleeve"),
        (5, "dre", "W"),
        (3000, "priya", "byte café said yes to £250 if overlays are included 🙏"),
    ], start=T0, asked=ASKED, channel_name="staff")
    assert chat.first("what did byte café offer at first").startswith("£200")


def test_the_one_amount_of_a_message_about_the_thing_is_its_value(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "jerseys 👕 got mockups from kitbash (£32 each) and owayo (£38). vote "
                     "on colour!"),
        (60, "mia", "purple gold is so clean"),
        (20000, "priya", "jersey order goes in tomorrow (fri 17th). last call for sizes! "
                         "kitbash did us a bulk price, £28 each now we're ordering"),
    ], start=T0, asked=ASKED, channel_name="general")
    assert chat.first("how much r the jerseys each now").startswith("£28")
    assert chat.first("how much were jerseys before the bulk deal").startswith("£32")


def test_a_day_beside_the_thing_is_not_taken_as_its_value(tmp_path: Path) -> None:
    # only an amount is read this way: a day in a message may be another thing's
    chat = channel_chat(tmp_path, [
        (0, "jake", "I'll add it to thursday's order. we still going through MedVet Direct?"),
        (8, "priya", "yes for now. cutoff's thursday 2pm for friday delivery"),
        (2900, "priya", "heads up, MedVet have changed their cutoff - orders have to be in "
                        "by wednesday 12 noon now"),
        (2902, "jake", "oh great so... today basically 😬"),
        (23000, "megan", "fyi the weekly order's going in on tuesdays from now on. still well "
                         "before medvet's wednesday noon cutoff"),
    ], start=T0, asked=ASKED, channel_name="orders")
    assert "thursday 2pm" in chat.first("what was medvet's cutoff before they changed it?")


def test_who_acted_on_a_thing_is_not_the_thing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "who's free to headline? need a band for 5–7"),
        (120, "finn", "asked Kettle Drum Collective, they're free on the 11th!! headline "
                      "slot 5–7"),
        (125, "rosa", "KDC are brilliant"),
    ], start=T0, asked=ASKED, channel_name="bands")
    assert chat.first("who booked kettle drum collective").lower().startswith("finn")


def test_the_words_leading_to_a_value_name_what_it_is_of(tmp_path: Path) -> None:
    # the value's own subject is the message's heading ("baby due"); the words leading up
    # to it say it is the leave's start
    chat = channel_chat(tmp_path, [
        (0, "tomasz", "heads up – baby due any day now, i'm off on paternity leave from mon "
                      "23rd for 3 weeks. handover: Dan takes Millbrook"),
        (5, "helen", "🎉 good luck!! dan, ellie – sit with tom before he goes"),
        (60, "raj", "tom's quayside drawings are on the server"),
        (120, "raj", "tom, ellie – cladding ideas by thurs pls"),
    ], start=datetime(2026, 2, 16, 9, 30, tzinfo=UTC), asked=ASKED, channel_name="general")
    assert "23rd" in chat.first("when does tom's paternity leave start")


def test_the_one_amount_is_not_a_duration_asked(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "wil", "spoke to dan about the website. he's quoted 2k, and it'll take 6 weeks"),
    ], start=T0, asked=ASKED, channel_name="general")
    assert "2k" not in chat.first("how long will the website take?")


def test_a_who_question_naming_its_candidate_keeps_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ab", "Kettle Drum Collective are playing the fundraiser 🥁"),
    ], start=T0, asked=ASKED, channel_name="general")
    first = chat.first("who's playing the fundraiser, Kettle Drum Collective?")
    assert first.startswith("Kettle Drum Collective")
