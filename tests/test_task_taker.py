"""*Who is doing it* names the person who took a task on when someone asked for it to be
taken: the addressee of "marco can you start the contract stuff" who answered "yep", the
volunteer who committed to the slot asked about, not the person who asked."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.models import EvidenceNode
from memory.reader.extract import people_of
from memory.reader.taking import addressee, taker_of
from tests.support.chat_reader import channel_chat, turn_node

T0 = datetime(2025, 7, 14, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 7, 30, 9, 0, tzinfo=UTC)
Turns = list[tuple[int, str, str]]


@pytest.mark.parametrize("turns, question, taker", [
    # addressed, taken by a bare "yep"
    ([(0, "olga", "legal came back: documents have to be stored in the EU, kyra is US only"),
      (45, "hana", "ok switching to verifly for KYC. marco can you start the contract stuff"),
      (46, "marco", "yep"),
      (60, "chidi", "back from lagos, wedding was amazing")],
     "who's handling the verifly contract", "marco"),
    # a call for anyone: the first to take it
    ([(0, "megan", "can someone chase pharmacy about the bay 3 TTOs, waiting since yesterday"),
      (5, "tom", "on it")],
     "who is chasing pharmacy?", "tom"),
    # a list of slots: the reply naming the slot asked about
    ([(0, "marcus", "Calling volunteers for the cleanup! Need:\n• 1 person with a pickup to "
                    "haul bags\n• 1-2 people on the sign-in table\n• someone to bring coffee"),
      (17, "bill", "My F-150 is at your service."),
      (30, "luis", "I'll do sign-in")],
     "who's on the sign-in table?", "luis"),
    # the addressee said no; the one who then took it
    ([(0, "ayo", "Lena, could you take the sponsor calls this week?"),
      (5, "lena", "sorry, swamped, can't"),
      (7, "max", "I'll take the sponsor calls")],
     "who is doing the sponsor calls?", "max"),
])
def test_the_taker_holds_the_task(tmp_path: Path, turns: Turns, question: str,
                                  taker: str) -> None:
    chat = channel_chat(tmp_path, turns, start=T0, asked=ASKED)
    first = chat.first(question)
    assert first.lower().startswith(taker), first


def test_the_answer_quotes_the_part_asking(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "marcus", "Calling volunteers for the cleanup! Need:\n• 1-2 people on the sign-in "
                      "table\n• someone to bring coffee"),
        (30, "luis", "I'll do sign-in"),
    ], start=T0, asked=ASKED)
    first = chat.first("who's on the sign-in table?")
    assert "taking on marcus's" in first and "sign-in table" in first.split("taking on")[1]


def _node(i: int, speaker: str, text: str) -> EvidenceNode:
    return turn_node(i, speaker, text, start=T0)


def test_only_the_addressee_takes_an_addressed_request() -> None:
    request = _node(0, "ayo", "Lena, could you take the sponsor calls this week?")
    replies = [_node(1, "max", "ok"), _node(2, "lena", "sure thing")]
    people = people_of([request, *replies])
    person = addressee(request, people)
    assert person is not None and person.name == "lena"
    taker = taker_of(request, [], replies, frozenset({"sponsor", "call"}), DEFAULT_LEXICON,
                     people)
    assert taker is not None and taker.speaker == "lena"


@pytest.mark.parametrize("text", [
    "should we move the sponsor calls to thursday?",  # a proposal, not a request to take
    "the sponsor calls are done for this week",
])
def test_no_request_no_taker(text: str) -> None:
    request = _node(0, "ayo", text)
    replies = [_node(1, "lena", "yes")]
    assert taker_of(request, [], replies, frozenset({"sponsor"}), DEFAULT_LEXICON,
                    people_of([request, *replies])) is None


def test_a_question_back_takes_nothing() -> None:
    request = _node(0, "ayo", "can someone chase pharmacy?")
    replies = [_node(1, "lena", "me? which ward?"), _node(2, "ben", "nope")]
    assert taker_of(request, [], replies, frozenset({"pharmacy"}), DEFAULT_LEXICON,
                    people_of([request, *replies])) is None


def test_who_brings_it_asked_and_answered(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mei", "who's bringing the urn for tea at the swap?"),
        (10, "bethan", "i've got one"),
        (30, "gus", "i'll do the cake stall if no one else is"),
    ], start=T0, asked=ASKED)
    assert chat.first("who's bringing the tea urn").lower().startswith("bethan")


def test_taking_it_then_asking_a_detail_takes_it() -> None:
    request = _node(0, "nadia", "Clara I want you on the deep-dive. Bram, can you take over "
                                "the tuesday issue?")
    replies = [_node(2, "bram", "yes! happy to. so my first one is the 13th?")]
    taker = taker_of(request, [], replies, frozenset({"tuesday", "issu"}), DEFAULT_LEXICON,
                     people_of([request, *replies]))
    assert taker is not None and taker.speaker == "bram"


def test_a_reply_naming_someone_else_is_not_taking_it() -> None:
    request = _node(0, "omar", "who's writing the Atlas customer update?")
    replies = [_node(2, "callum", "Beatriz, since she's taking it through go-live. I'll send "
                                  "her my draft"), _node(3, "beatriz", "yep")]
    asked = frozenset({"atlas", "go-live", "go", "live"})  # "who's taking atlas through go-live"
    taker = taker_of(request, [], replies, asked, DEFAULT_LEXICON,
                     people_of([request, *replies]))
    assert taker is None or taker.speaker == "beatriz"


@pytest.mark.parametrize("turns, question, holder", [
    # a question that asks no one to take a task, answered "yep"
    ([(0, "ana", "jo owns the venue booking"), (100, "jo", "viewing is tuesday"),
      (300, "bo", "can you see the venue booking email? outlook is being weird"),
      (301, "kim", "yep")],
     "who's handling the venue booking?", "jo"),
    ([(0, "lee", "Jo runs the retro from now on"),
      (300, "bo", "will you be at the retro thursday?"), (302, "sam", "yeah")],
     "who's running the retro?", "jo"),
    # the holder said it of themself
    ([(0, "pat", "I'm handling the insurance renewal"),
      (300, "quinn", "can someone grab the van details for the insurance renewal?"),
      (302, "rob", "yep, reg is on the v5")],
     "who's handling the insurance renewal?", "pat"),
    # asked to pass the task on: the third person does it
    ([(0, "hana", "kim, can you ask raj to do the supplier invoices?"), (1, "kim", "sure"),
      (5, "raj", "ok will do them tonight")],
     "who's doing the supplier invoices?", "raj"),
    # the asker's own pledge beside the request
    ([(0, "tim", "can u bring wine? I'll do snacks"), (2, "una", "ya")],
     "who's doing snacks?", "tim"),
    # a later request for a part of the task is not the task
    ([(0, "ana", "Priya owns the billing migration"),
      (600, "bo", "can someone review Priya's billing PR?"),
      (605, "sam", "on it")],
     "who owns the billing migration?", "priya"),
    # a request about something else, then the holder named
    ([(0, "bo", "kim can you send me the retro notes?"), (2, "kim", "sure"),
      (300, "lee", "Jo runs the retro from now on")],
     "who's running the retro now?", "jo"),
])
def test_requests_that_move_no_task(tmp_path: Path, turns: Turns, question: str,
                                    holder: str) -> None:
    chat = channel_chat(tmp_path, turns, start=T0, asked=ASKED)
    assert chat.first(question).lower().startswith(holder)


def test_a_bare_ok_yields_to_a_reply_naming_the_task() -> None:
    request = _node(0, "ben", "need someone to pick up the banners from the printers tmrw")
    replies = [_node(1, "cara", "ok"), _node(2, "cara", "also the wifi code changed"),
               _node(30, "dev", "i can grab the banners on my way in")]
    taker = taker_of(request, [], replies, frozenset({"banner"}), DEFAULT_LEXICON,
                     people_of([request, *replies]))
    assert taker is not None and taker.speaker == "dev"


def test_asking_around_takes_nothing() -> None:
    request = _node(0, "ben", "anyone free to cover the bar shift saturday?")
    replies = [_node(2, "cara", "I'll ask around")]
    assert taker_of(request, [], replies, frozenset({"bar", "shift"}), DEFAULT_LEXICON,
                    people_of([request, *replies])) is None


def test_the_model_reader_is_told_the_same_definition() -> None:
    # LLM mode answers "who is doing it" by the same rule the offline reader follows
    from memory.llm.reader_prompts import SYSTEM_PROMPT
    assert "whoever took it on in a reply" in " ".join(SYSTEM_PROMPT.split())
