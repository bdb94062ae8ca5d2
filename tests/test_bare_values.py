"""Values written without a cue word: a bare amount where it is set or changed ("cap goes up
to 60 then", "fine. 98 then", "fits 60, not 40"), weekdays listed as one recurring set
("mon/wed/fri 6am", "wed + thu"), each one value whose revision replaces the whole of it,
and a lower-case choice a vote decided ("kielder wins!!")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.lexicon import default_lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.values import find_values, mask
from memory.text import find_slots
from tests.support.chat_reader import channel_chat

LEX = default_lexicon()
A = MessageAnalyzer(LEX)
T0 = datetime(2025, 9, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 10, 20, 9, 0, tzinfo=UTC)


def values(text: str) -> list[tuple[str, str]]:
    return [(v.kind.value, v.text) for v in find_values(mask(text, LEX), LEX)]


@pytest.mark.parametrize(("text", "value"), [
    ("cap goes up to 60 then, we had 12 on the waitlist", "60"),
    ("fine. 98 then but that's IT", "98"),
    ("capping it at 250", "250"),
    ("good news, the space fits 60, not 40", "60"),
    ("headcount = 45", "45"),
])
def test_a_bare_amount_set_or_changed_is_a_count(text: str, value: str) -> None:
    assert ("count", value) in values(text)


@pytest.mark.parametrize("text", [
    "move standup to 10?",          # an hour: a time
    "released in 2025.",            # a year
    "see ticket #123 then",         # an id
    "we had 12 on the waitlist",    # said in passing, not set
    "it went up to 3.5 then",       # a decimal is no count of this kind
])
def test_numbers_that_are_not_a_bare_amount_set(text: str) -> None:
    assert not [v for k, v in values(text) if k == "count" and "." not in v]


def test_a_bare_amount_replaces_the_one_it_names_as_old() -> None:
    clause = next(c for c in A.analyze("the space fits 60, not 40", speaker="Rhys").clauses
                  if c.values)
    assert [v.text for v in clause.values] == ["60"]
    assert [v.text for v in clause.old] == ["40"]


@pytest.mark.parametrize(("text", "value"), [
    ("reprogrammed the drip timer: mon/wed/fri 6am", "mon/wed/fri 6am"),
    ("so it's wed + thu, 21:00", "wed + thu, 21:00"),
    ("we meet tue & thu", "tue & thu"),
    ("office days are mon, wed and fri", "mon, wed and fri"),
])
def test_weekdays_listed_together_are_one_value(text: str, value: str) -> None:
    assert ("date", value) in values(text)
    assert value in [s.text for s in find_slots(text)]


@pytest.mark.parametrize("text", ["friday or saturday?", "moved from tue to thu"])
def test_alternative_days_stay_apart(text: str) -> None:
    assert len([v for k, v in values(text) if k == "date"]) == 2


def test_a_revised_set_of_days_replaces_the_whole_set(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    chat = channel_chat(tmp_path_factory.mktemp("days"), [
        (0, "rosa", "ok new watering schedule: drip timer tues/thurs/sat at 6am"),
        (5, "gabe", "👍"),
        (600, "rosa", "correction from the city letter: so mon/wed/fri at 6am, NOT "
                      "tue/thu/sat. sorry!"),
        (660, "gabe", "reprogrammed the drip timer: mon/wed/fri 6am ✅"),
    ], start=T0, asked=ASKED, channel_name="garden")
    now = chat.first("what days does the drip timer run now?")
    assert "mon/wed/fri" in now and "tue" not in now
    assert "tues/thurs/sat" in chat.first("what days did the drip timer run before?")


def test_a_bare_amount_revises_the_count_it_replaces(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    chat = channel_chat(tmp_path_factory.mktemp("cap"), [
        (0, "fatima", "hackathon registration open! cap is 40 people"),
        (300, "ali", "anyone got the projector adapter?"),
        (900, "rhys", "good news, facilities say the space fits 60, not 40"),
        (905, "fatima", "cap goes up to 60 then, we had 12 on the waitlist"),
    ], start=T0, asked=ASKED, channel="C2", channel_name="hackathon")
    answer = chat.answer("how many people can sign up for the hackathon?").answer.splitlines()
    assert answer[0].startswith("60")
    assert "40 people" in answer[1]  # the chain keeps what it replaced


@pytest.mark.parametrize(("text", "choice"), [
    ("kielder wins!! ringing them today about group bookings", "kielder"),
    ("poll closed: arran wins", "arran"),
])
def test_a_lower_case_choice_a_vote_decided_is_a_value(text: str, choice: str) -> None:
    assert ("choice", choice) in values(text)


@pytest.mark.parametrize("text", ["everyone wins", "arsenal wins the cup",
                                  "honk squad wins by 3"])
def test_winning_a_match_is_no_choice(text: str) -> None:
    assert not [v for k, v in values(text) if k == "choice"]



def test_a_value_alone_after_the_speakers_change_without_one_revises(tmp_path: Path) -> None:
    # the turn before names a change ("moving the guest session") but its only value is
    # another clause's (the day the studio is double-booked): the value alone completes it
    chat = channel_chat(tmp_path, [
        (0, "priya", "guest episode: recording thurs at soundhaus, Studio B, 2pm"),
        (60, "priya", "studio update: soundhaus double-booked studio B on thursday. "
                      "moving the guest session"),
        (61, "priya", "the annex"),
        (62, "maya", "wait where's the annex"),
    ], start=T0, asked=ASKED)
    assert chat.first("which room is the guest episode recording in?").startswith("the annex")
