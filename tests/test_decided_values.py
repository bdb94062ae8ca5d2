"""The value a decision names, as people write it: the thing a change verb takes ("we'll use
the library instead", "switching wheels to andymark", "moving the whole order to patterson",
"getting the cat flu vax from Henley Wholesale now"), the date a clash takes away as the value
replaced ("double-booked us for the 20th … now saturday the 27th"), a quantity by weight or
volume ("4L") and an amount with its unit said alone ("yeah 60s")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from memory.analysis.said_alone import bare_value
from tests.support.chat_reader import channel_chat
from tests.support.memory import msg, open_memory

T0 = datetime(2025, 9, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 9, 20, 9, 0, tzinfo=UTC)


def _claims(text: str) -> list[tuple[str, str]]:
    a = MessageAnalyzer().analyze(text, speaker="Dana")
    return [(c.subject, c.value.text) for clause in a.clauses for c in clause.claims]


@pytest.mark.parametrize(("text", "value"), [
    ("big meeting room is booked on the 20th 🙄 we'll use the library instead", "library"),
    ("vex shipping is 2 weeks. switching wheels to andymark, $11 each", "andymark"),
    ("moving the whole order to patterson, they have stock", "patterson"),
    ("also getting the cat flu vax from Henley Wholesale now", "Henley Wholesale"),
    ("decision: going w/ Kuusi Muovi over Plastiform for HX-40 enclosures", "Kuusi Muovi"),
])
def test_what_a_change_verb_takes_is_the_value(text: str, value: str) -> None:
    assert value in [v for _, v in _claims(text)]


def test_a_verb_after_a_pronoun_names_no_subject() -> None:
    assert ("", "library") in _claims("we'll use the library instead")
    # the verb of a pronoun stays the subject when its object is no value
    assert ("", "tonight") not in _claims("I'll drop it at yours tonight")


@pytest.mark.parametrize(("text", "wrong"), [
    ("switching suppliers to keep costs down", "keep costs down"),
    ("maybe the review at 4 pm works better?", "review"),
    # a purpose after "to" (the hostile review's cases)
    ("moving the hackathon to support the new API launch", "support the new API launch"),
    ("switching the workshop to focus on testing", "focus"),
    ("switching the workshop to testing (instead of deployment)", "testing"),
    ("moving the party to celebrate both birthdays together? thoughts", "celebrate"),
    ("projector is dead. take the whiteboard instead", "whiteboard"),
])
def test_a_purpose_or_a_place_in_a_proposal_is_no_choice(text: str, wrong: str) -> None:
    assert not [v for _, v in _claims(text) if v.startswith(wrong)]


def test_a_model_number_is_no_count() -> None:
    assert "40 enclosures" not in [v for _, v in _claims("going w/ Kuusi for HX-40 enclosures")]


@pytest.mark.parametrize(("text", "value"), [
    ("ordering model resin today, 4L", "4L"),
    ("need 20 kg of flour", "20 kg"),
    ("grab 3 gal of the floor cleaner", "3 gal"),
])
def test_a_quantity_by_weight_or_volume_is_a_value(text: str, value: str) -> None:
    assert value in [v for _, v in _claims(text)]


@pytest.mark.parametrize("text", [
    "recipe says 250ml milk but I'm doubling it for 12 people",
    "2 kg of potatoes for the 10 of us",
])
def test_a_weight_said_in_passing_is_no_value(text: str) -> None:
    assert not [v for _, v in _claims(text) if v.startswith(("250", "2 kg"))]


def test_a_clash_names_the_value_it_takes_away() -> None:
    a = MessageAnalyzer().analyze(
        "carpet people double-booked us for the 20th 🙄 now saturday the 27th", speaker="Lisa")
    assert [c.value.text for cl in a.clauses for c in cl.claims] == ["saturday the 27th"]
    assert "the 20th" in [v.text for cl in a.clauses for v in cl.old]


@pytest.mark.parametrize("text", [
    "great news, we're fully booked for the 14th! waitlist opening for the 21st session",
    "hotels are fully booked for the 9th so book your rooms for the 8th",
])
def test_fully_booked_is_no_clash_of_ours(text: str) -> None:
    a = MessageAnalyzer().analyze(text, speaker="Lisa")
    assert not [v for cl in a.clauses for v in cl.old]


def test_a_clash_and_the_new_date_revise_the_plan(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Lisa", "carpet cleaning is saturday sep 20, lab closed all day"),
        (4000, "Lisa", "carpet people double-booked us for the 20th 🙄 now saturday the 27th"),
    ], start=T0, asked=ASKED)
    first = chat.first("when is the carpet cleaning?")
    assert "27th" in first and "sep 20" not in first.lower()


def test_a_request_and_its_acceptance_keep_the_holder(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Frank", "reminder I've got the shed key, text me if you need in"),
        (5000, "Aiyana", "I'm travelling for work the 22nd-30th 😩 gabe can you take the shed "
                         "key? I'll drop it at yours tonight"),
        (5015, "Gabe", "yep no problem"),
    ], start=T0, asked=ASKED)
    assert "Gabe" in chat.first("who has the shed key right now?")


def test_an_amount_with_its_unit_said_alone_revises_the_amount(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Eli", "i'll cut the trailer, thinking 90s, gameplay heavy"),
        msg(2, "Rhea", "love. eli owns trailer then"),
        msg(30, "Dani", "honestly 90s is long for a steam trailer, ppl bounce after like a "
                        "minute. can we do 60?"),
        msg(31, "Rhea", "yeah 60s. tighter is better"),
    ])
    chains = [[n.value for n in sorted(store.state_nodes([s["state_id"]]), key=lambda n: n.seq)]
              for s in store.states.listed(space="T1")]
    assert ["90s", "60s"] in chains


@pytest.mark.parametrize(("text", "hour"), [
    ("actually start is 9, instructor emailed. same end time", "9"),
    ("call time's 6 now", "6"),
    ("doors is 7 now", "7"),
])
def test_a_bare_hour_said_of_a_start_is_a_time(text: str, hour: str) -> None:
    a = MessageAnalyzer().analyze(text, speaker="Priya")
    assert (hour, "time") in [(c.value.text, c.value.kind.value) for cl in a.clauses
                              for c in cl.claims]


@pytest.mark.parametrize("text", ["the start is 9 days away", "pickup is 2 now, budget cuts"])
def test_a_number_of_days_or_pickups_is_no_hour(text: str) -> None:
    a = MessageAnalyzer().analyze(text, speaker="Priya")
    assert "time" not in [c.value.kind.value for cl in a.clauses for c in cl.claims]


def test_an_acknowledged_number_before_other_talk_changes_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "Ana", "need 8 volunteers for the food drive on saturday"),
        (30, "Ben", "ok 2, sec, my kid is yelling, will sort the rest of the list later tonight"),
    ], start=T0, asked=ASKED)
    assert "8" in chat.first("how many volunteers do we need for the food drive?")


@pytest.mark.parametrize(("text", "value"), [
    ("25's fine i guess", "25"),
    ("navy's fine", "navy"),
    ("40 is ok", "40"),
])
def test_a_value_said_to_be_fine_is_said_alone(text: str, value: str) -> None:
    bare = bare_value(text)
    assert bare is not None and bare.text == value and bare.settled


@pytest.mark.parametrize("text", ["that's fine", "it's fine i guess"])
def test_fine_alone_is_no_value(text: str) -> None:
    assert bare_value(text) is None


def test_boxes_and_cases_written_short_are_counted() -> None:
    values = [v for _, v in _claims(
        "order placed w schein: 20 bx medium nitrile, 2 cs saliva ejectors. ETA thurs")]
    assert "20 bx" in values and "2 cs" in values
