"""Two ways an answer can be about something else than the question, and abstain instead.

* A question typed in lower case names a thing the chat writes as a name ("durham open" /
  "Durham Open is 18-19 april"): a message naming another such thing and not this one
  ("Maiden Cup sign-ups … £2/person") does not answer what the Durham Open costs.
* A question asking an amount ("how much is a pint of pink slip") is not answered by a line
  holding none ("on it").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.lexicon import default_lexicon
from memory.analysis.question import analyze_question
from memory.analysis.values import find_values
from memory.reader.coverage_names import capitalised_words, misses_a_written_name, written_names
from memory.reader.coverage_values import tells_a_sum
from tests.support.chat_reader import channel_chat

START = datetime(2026, 2, 16, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)

DEBATING = [
    (0, "aisha", "Maiden Cup sign-ups are open — 18 teams max, £2/person (covers lunch). "
                 "CA is me (Aisha), motions by me & Josh. Sat 14 March, 10am registration"),
    (60, "niamh", "can i still enter maiden cup if i broke at warwick novice?"),
    (65, "aisha", "yes! novices only means first year"),
    (8000, "josh", "me + sanjay for warwick? we did durham together last year"),
    (14000, "josh", "heads up: Durham Open is 18-19 april, apps close mon 30 march. same "
                    "deal, society covers 75%"),
]

TAPROOM = [
    (0, "priya", "menu board update for sun 3/1: crooked fence pints go from $7 to $7.50. "
                 "luis can you redo the chalkboard sat night after close?"),
    (5, "luis", "on it"),
    (900, "dana", "pink slip is kegged, tapping at the release party"),
]

FAIR = [
    (0, "sue", "how much should we charge for raffle tickets, £2 a strip?"),
    (5, "tom", "let's decide at the meeting"),
    (900, "dana", "cake stall is sorted, bring tins"),
]


@pytest.mark.parametrize(("question", "texts", "names"), [
    # a capitalised run opening a sentence is a name; one lower-case mention does not undo it
    (["durham", "open", "registration"],
     ["heads up: Durham Open is 18-19 april", "we did durham last year",
      "sign-ups are open", "registration is at 9"], [("durham", "open")]),
    (["maiden", "cup", "final"], ["Maiden Cup is on Sat 14 March!!", "see you at maiden cup"],
     [("maiden", "cup")]),
    # a word capitalised only where a sentence starts is no name
    (["training", "room"], ["Training moves to room 2.14", "training is at 6"], []),
    # shouting is no name; a short acronym is
    (["agm", "moving"], ["the AGM is MOVING to tuesday"], [("agm",)]),
])
def test_written_names(question: list[str], texts: list[str],
                       names: list[tuple[str, ...]]) -> None:
    assert written_names(question, texts) == names


def test_a_name_is_said_by_its_telling_part() -> None:
    assert not misses_a_written_name([("lind", "amara")], frozenset({"lind", "ep"}))
    assert misses_a_written_name([("durham", "open")], frozenset({"open", "registration"}))
    assert misses_a_written_name([("durham",)], frozenset({"open", "registration"}))


def test_capitalised_words() -> None:
    # (a capital opening a sentence alone says nothing: "CA is me")
    assert capitalised_words("Maiden Cup sign-ups are open. CA is me (Aisha)") == {
        "maiden", "cup", "aisha"}


def test_another_named_thing_does_not_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, DEBATING, start=START, asked=ASKED,
                        channel_name="competitions")
    fee = chat.answer("how much is durham open registration per team")
    assert fee.abstained
    assert "£2" not in fee.answer
    closes = chat.first("when do durham open apps close")
    assert "30" in closes


def test_the_named_thing_still_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, DEBATING, start=START, asked=ASKED,
                        channel_name="competitions")
    assert "£2" in chat.first("how much is maiden cup registration")


@pytest.mark.parametrize(("question", "short", "told"), [
    ("how much is a pint of pink slip going to be", "on it", False),
    ("how much is a pint of pink slip going to be", "$7.50", True),
    ("how many tents did we order", "three tents", True),
    ("how many tents did we order", "we sorted the tents", False),
    ("how many raffle tickets have we sold", "tickets $5 each", False),  # a price, no count
    ("how often do invoices go out", "fortnightly", True),
    ("how much is entry", "free entry", True),
    ("how much is entry", "a fiver on the door", True),
    ("how much is entry", "the usual, see the poster", False),
    ("how much do we owe the hall", "nothing, it's paid", True),
    ("how many volunteers have we got", "a handful so far", True),
    ("when is the release party", "soon", True),  # no amount asked
    ("why did the price go up", "the malt costs more", True),
])
def test_tells_a_sum(question: str, short: str, told: bool) -> None:
    assert tells_a_sum(analyze_question(question), short) is told


def test_an_amount_asked_is_not_answered_without_one(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, FAIR, start=START, asked=ASKED, channel_name="fair")
    raffle = chat.answer("how much are the raffle tickets")
    assert raffle.abstained
    assert "meeting" not in raffle.answer


def test_a_correction_beside_a_request_tells_the_value(tmp_path: Path) -> None:
    # the reply takes up the request ("on it"), not the price; the price is the message's
    chat = channel_chat(tmp_path, TAPROOM, start=START, asked=ASKED, channel_name="taproom")
    assert chat.first("how much is a pint of crooked fence now").startswith("$7.50")


def test_a_share_asked_is_the_share_not_the_sum(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "josh", "Warwick IV is sat 28 feb. 3 team slots. society covers 50% of reg 👀"),
        (20000, "harriet", "good news: society now covering 75% of warwick reg instead of "
                           "half, so it's £11.25 per team from you. thanks to our new sponsor"),
    ], start=START, asked=ASKED, channel_name="competitions")
    first = chat.first("what % of warwick reg is the soc paying")
    assert first.startswith("75%")
    assert "11.25" not in first


@pytest.mark.parametrize(("text", "place"), [
    ("Training moves to Lecture Theatre B (Kingsley) from Wed 11 Feb", "Lecture Theatre B"),
    ("still in Lecture Theatre B 👍", "Lecture Theatre B"),
    ("meet at Riverside Park I think", "Riverside Park"),
])
def test_a_place_keeps_the_letter_telling_it_apart(text: str, place: str) -> None:
    assert [v.text for v in find_values(text, default_lexicon()) if v.kind.value == "place"] \
        == [place]

