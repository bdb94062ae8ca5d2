"""Words a chat writes its own way, replies in threads, and alternatives a *why* names:

- hedges ("roughly", "approximately") and "allowed" are no words of the subject;
- a root made another word covers it ("shearing" / "shearers"), and chat short forms
  cover the word ("dims", "28pp");
- a name the question gives that begins a handle ("Lena's" / "lenapark") is that person;
- "how long is the list" is answered by how many entries it has;
- an amount right after the word for it ("opening budget 2,600") is money, a number after
  "count" a count, and a grouped number ("came down to 37,900") a bare amount;
- an aside in brackets names no subject;
- "what was the pickup date originally" asks a date;
- what a value was before is read in the chain of the best message, whatever its topic;
- a reply in the thread of an offer turns it down whatever it names; why it was turned
  down is that reply;
- "why X and not Y": the reason the message taking X gives, or the turn it follows from;
  "true but …" is no agreement; "I'm booking X" decides X;
- "who has the keys?" asks someone to claim them (whoever says "me" holds them).

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.analysis.definitions import SpeechAct
from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.taking_words import TASK_REQUEST
from memory.analysis.value_types import Kind
from memory.models import Message, Scope
from memory.reader.reasons import accepts
from memory.reader.word_forms import unit_forms
from tests.support.chat_reader import ChannelChat, channel_chat, written_reader
from tests.support.claims import ANALYZER, claims_of, values_of

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 4, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def test_hedges_and_allowed_name_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ida", "Kestrel Freight confirmed for the 13th: 8am at the depot, here ~2pm"),
        (DAY, "ida", "crates are in the bay, do NOT open before fri 11am"),
        (2 * DAY, "sami", "bay is clear for the van, keys with me"),
    ], start=START, asked=ASKED)
    assert not chat.answer("roughly what time does Kestrel get here?").abstained
    assert not chat.answer("when are we allowed to open the crates").abstained


def test_word_forms_chats_use() -> None:
    assert "dimensions" in unit_forms("box dims: 12x12x3in")
    assert "pages" in unit_forms("rulebook is now 28pp")


def test_a_derived_word_and_a_short_form_cover_the_question(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "gwen", "clippers booked: Rees & Sons, 16 June, £2.10 a head"),
        (DAY, "omar", "box dims: we're at 12x12x3in, mock at 11x11x2.5 fits"),
    ], start=START, asked=ASKED)
    answer = chat.answer("who's doing the clipping this year?")
    assert not answer.abstained
    assert "Rees" in answer.answer
    assert not chat.answer("what are the box dimensions?").abstained


def test_a_question_naming_the_start_of_a_handle_names_that_person(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lenapark", "cover art final due from me fri 21 Mar"),
        (DAY, "omar_h", "card backs done"),
    ], start=START, asked=ASKED)
    answer = chat.answer("what was Lena's cover deadline?")
    assert not answer.abstained
    assert "21" in answer.answer.splitlines()[0]


def test_how_long_a_list_is_counts_its_entries(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jules", "guest list is at 240 names rn 😬"),
        (20, "felix", "hall is 200 max for fire"),
        (40, "maren", "cap it at 170 then"),
    ], start=START, asked=ASKED)
    answer = chat.answer("how long was the guest list before the cap?")
    assert not answer.abstained
    assert "240" in answer.answer.splitlines()[0]


def test_amounts_written_after_their_word() -> None:
    assert "2,600" in values_of("agreed. 4,500 to Agnes, launch budget 2,600", Kind.MONEY)
    assert values_of("final rsvp count 176", Kind.COUNT) == ["176"]
    assert "37,900" in [v for _, v, _ in claims_of("dealer came down to 37,900 w the part-ex")]
    # a number counting something after the money word is no amount
    assert values_of("the budget 200 copies", Kind.MONEY) == []


def test_an_aside_in_brackets_names_no_subject() -> None:
    subjects = [s for s, _, _ in claims_of(
        "because of the loan delay (their registrar's off sick) we're moving the opening "
        "to Fri 23 May")]
    assert subjects == ["opening"]


def test_a_value_noun_before_originally_heads_the_question() -> None:
    assert analyze_question("what was the courier pickup date originally?").family == "when"
    assert analyze_question("what's the launch date now?").family == "when"


def test_what_it_was_before_is_read_in_the_chain_of_the_best_message(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jules", "catalogue: printer quoted 400 copies, 48pp, ready 9 May"),
        (6 * DAY, "jules", "catalogue: going up to 700 copies, unit cost drops at that run"),
    ], start=START, asked=ASKED)
    first = chat.first("what was the catalogue print run before Jules upped it")
    assert "400" in first
    assert "700" not in first


def _thread_chat(tmp_path: Path, turns: list[tuple[int, str, str, int | None]]) -> ChannelChat:
    """``turns`` (minutes, user, text, index of the thread's first turn or None)."""
    msgs: list[Message] = []
    for minutes, user, text, parent in turns:
        mid = f"C1.{minutes}"
        msgs.append(Message(platform="slack", space="T1", channel="C1", channel_name="money",
                            id=mid, user=f"U{user.upper()}", user_name=user,
                            ts=START + timedelta(minutes=minutes), text=text,
                            thread_id=msgs[parent].id if parent is not None else None))
    reader = written_reader(tmp_path, msgs)
    return ChannelChat(reader, Scope(platform="slack", space="T1", channels=("C1",)), ASKED)


def test_a_reply_in_an_offers_thread_turns_it_down(tmp_path: Path) -> None:
    chat = _thread_chat(tmp_path, [
        (0, "graham", "sponsorship offered: £400 from Castle Estates", None),
        (15, "ruth", "no. they've got the quarry appeal in, we can't take their cash", 0),
        (20, "pete", "agree, decline. Graham pls send a polite no", 0),
        (DAY, "sam", "leaflet run 2 goes out sat", None),
    ])
    who = chat.first("who turned down the Castle Estates money")
    assert who.startswith("ruth")
    why = chat.answer("remind me why we said no to Castle Estates?").answer
    assert "quarry" in why.splitlines()[0]


def test_why_one_alternative_and_not_the_other(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "yuki", "survey tool: Formly or Pollster? Formly pricier but exports to sheets"),
        (10, "hugh", "Formly charges per response over 500 tho"),
        (15, "yuki", "Pollster then. the agency says their import works fine"),
        (DAY, "ida", "courier quotes in: Swiftline £900, Atlas Carriers £700. both insured"),
        (DAY + 20, "tobias", "Swiftline did the last show, they were great"),
        (DAY + 30, "ida", "true but Atlas Carriers has the tail-lift van and they're 200 "
                          "cheaper. I'm booking Atlas Carriers"),
    ], start=START, asked=ASKED)
    first = chat.first("why Pollster and not Formly")
    assert "per response" in first
    first = chat.first("why Atlas and not Swiftline?")
    assert "cheaper" in first or "tail-lift" in first


def test_a_concession_turned_by_but_takes_nothing_up() -> None:
    lex = QuestionLexicon()
    assert accepts("true, that works", lex.accept, lex.fillers)
    assert not accepts("true but the other van has a tail-lift", lex.accept, lex.fillers)


def test_booking_a_named_choice_decides_it() -> None:
    analysis = ANALYZER.analyze("I'm booking Atlas Carriers", speaker="ida")
    assert analysis.act is SpeechAct.DECISION
    assert values_of("switching to Bank of the West then", Kind.CHOICE) == ["Bank of the West"]


def test_asking_who_has_a_thing_asks_someone_to_claim_it() -> None:
    assert TASK_REQUEST.search("who has the loading bay keys? lift ppl need letting in fri")
    assert TASK_REQUEST.search("who's got the van this weekend?")
    assert not TASK_REQUEST.search("who has been to the new site")  # no question asked
