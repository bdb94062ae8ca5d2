"""Instances named by their month, edits that keep an old value only in passing, and who
said or wanted a thing:

- an edit saying the old value only in passing ("going up to $750 (was going to be $600
  …)") holds the new value, not the old one;
- a choice taken up in a thread whose first message named the option ("NOS is cheapest")
  is about the thread's subject, not named by the option itself; a count raised to a bare
  number is a count ("bumping the booth order to 4"), a meeting bumped to one is a time;
  "After the survey I'm bumping …" names the booth order, not the survey; "OK, approved:"
  and "Hit a wall with X:" are no subjects; "shud" is a function word;
- "the May launch" is another launch than "the April launch": it neither revises nor
  overrides it, and a previous question is answered by the chain that changed;
- "who took connor's spot" asks who holds it ("spot" is a noun there); "who said X" asks
  who said it first; "who wanted it till 8:30" is whoever first said 8:30;
- "why not Bowlero" is answered by the sentence about Bowlero in the message that left it;
- a function word is no misspelling of a question word ("theme" is not "there");
- an altitude is asked as a number ("8,500 ft"), "FAA came back:" heads no subject, and
  "8500" asked is the "8,500" written; "the 2nd floor" is no date; "Since the booths are
  in:" heads no subject, and hours extended to "9–13" are that range.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.models import Edit, Scope
from memory.pipeline import Pipeline
from memory.store.inbox import Inbox
from tests.support.chat_reader import ChannelChat, channel_chat, chat_author, written_reader
from tests.support.claims import claims_of
from tests.support.memory import T0, msg, open_memory

START = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 6, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def test_an_edit_naming_the_old_value_in_passing_holds_the_new_one(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    inbox = Inbox(tmp_path / "inbox.sqlite3")
    pipe = Pipeline(inbox=inbox, writer=writer, store=store)
    inbox.submit([msg(1, "grace", "Referral bonus is going up to $600 from today for any "
                                  "placed candidate referral. Share widely")])
    pipe.drain()
    inbox.submit([Edit(platform="slack", space="T1", channel="C1", id="1", ts=T0,
                       text="Referral bonus is going up to $750 from today for any placed "
                            "candidate referral (was going to be $600, Aisha approved "
                            "more). Share widely")])
    pipe.drain()
    node = {n.message_id: n for n in store.find_nodes(Scope(space="T1"))}["1"]
    assert node.value == "$750"


def test_a_choice_in_a_thread_is_about_the_thread_not_the_option(tmp_path: Path) -> None:
    say = chat_author(space="T1", channel="C1", channel_name="facilities", start=START)
    root = say(0, "rafael", "Our internet contract runs out 30 June. Got quotes from MEO, NOS "
                            "and Vodafone. NOS is cheapest at €210/month.")
    replies = [(60, "ines", "Let's go with NOS then, unless someone objects by Wednesday."),
               (3 * DAY, "rafael", "Bad news: NOS can't install the fibre before 15 July. "
                                   "Going with Vodafone instead, €235/month.")]
    chat = [root, *(say(*r).model_copy(update={"thread_id": root.id}) for r in replies)]
    reader = written_reader(tmp_path, chat)
    asked = ChannelChat(reader, Scope(platform="slack", space="T1", channels=("C1",)), ASKED)
    assert "Vodafone" in asked.first("which provider are we switching the internet to?")
    assert "NOS" in asked.first("who was the internet going to be with before vodafone")


def test_a_count_raised_to_a_bare_number() -> None:
    assert ("booth order", "4", Kind.COUNT) in claims_of(
        "After the survey I'm bumping the booth order to 4.")
    assert any(v == "4" and k is Kind.TIME for _, v, k in claims_of("bumping the meeting to 4"))


def test_openers_and_chat_spellings_name_no_subject() -> None:
    assert all(s != "approved" for s, _, _ in claims_of(
        "OK, approved: we move to Recruiterflow before the Bullhorn renewal."))
    assert all("wall" not in s for s, _, _ in claims_of(
        "Hit a wall with Recruiterflow: no Outlook sync. Going with Loxo instead."))
    assert all(s != "shud" for s, _, _ in claims_of(
        "honestly think we shud switch to redken, the gloss is so much better"))


def test_a_month_names_which_launch(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "hollis", "April launch is penciled in for Saturday April 12 at Miller Ranch."),
        (2 * DAY, "beth", "Launch times: we're switching to an 8am start, range closes at 3pm."),
        (9 * DAY, "hollis", "The county extended the burn ban through April 15. April launch "
                            "moves to Saturday April 19."),
        (20 * DAY, "beth", "Looking ahead: May launch on Saturday May 17?"),
        (20 * DAY + 30, "priya", "the 17th is graduation weekend, every road will be packed"),
        (20 * DAY + 60, "beth", "good point. May launch → Saturday May 24 then."),
    ], start=START, asked=ASKED)
    assert "19" in chat.first("which saturday is the april launch on now?")
    assert "12" in chat.first("what was the april launch date before the burn ban thing")
    assert "8am" in chat.first("what time do launches start now")


def test_who_roles_said_and_taken() -> None:
    assert analyze_question("who took connor's spot at the fair?").role == "owner"
    assert analyze_question("who said the roof has to be capped at 80").role == "proposer"
    assert analyze_question("who said no to the marquee").role == "rejecter"
    assert analyze_question("who said they'd bring the cake").role != "proposer"
    assert "move" in analyze_question("what was the move date originally").terms


def test_who_wanted_a_value_is_who_first_said_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jess", "first thing: late nite stays thurs til 8 for now"),
        (3 * DAY, "amira", "but we need til 8:30 honestly, the 6:30 colours couldnt finish"),
        (3 * DAY + 20, "jess", "ok late nite til 8:30 from next wk then"),
    ], start=START, asked=ASKED)
    assert chat.first("who wanted late nite to go till 8:30").startswith("amira")


def test_why_not_an_option_is_what_was_said_of_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "olivia", "Holiday party: proposing Bowlero Yorkdale, Friday December 12."),
        (5 * DAY, "olivia", "Bowlero wants a $3,000 minimum spend for the private lanes on a "
                            "Friday in December. We're 14 people. Going with The Rec Room "
                            "instead, no minimum for groups under 20. Still Friday Dec 12."),
    ], start=START, asked=ASKED)
    assert "minimum" in chat.first("why not bowlero")


def test_a_function_word_is_no_misspelling_of_a_question_word(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "chloe", "lol that jacket has been there since March"),
        (DAY, "tom", "Party RSVPs: 85 so far. Capping at 100 for the roof."),
        (2 * DAY, "chloe", "Party roles: I'll do music + decor."),
        (3 * DAY, "daniel", "party budget is €900, bar included"),
        (4 * DAY, "tom", "party starts 7:30pm on the roof"),
        (5 * DAY, "chloe", "who's got the party playlist?"),
        (6 * DAY, "rafael", "party recap: great night, thanks all"),
    ], start=START, asked=ASKED)
    assert chat.answer("what's the theme for the party?").abstained


def test_a_measure_asked_by_its_noun_is_the_number_said(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "beth", "Waiver: I'm asking the FAA for 10,000 ft AGL this time"),
        (10, "tobias", "10k would be amazing"),
        (12 * DAY, "beth", "FAA came back: waiver approved for 8,500 ft AGL, not 10k. "
                           "Apparently the DFW approach corridor shifted. So 8,500 it is."),
    ], start=START, asked=ASKED)
    assert "8,500" in chat.first("what altitude did the waiver end up at")
    # the number asked as "8500" is the one the chat wrote "8,500"
    assert not chat.answer("why is the waiver only 8500 and not 10k").abstained


def test_an_ordinal_floor_is_no_date_and_a_reason_heads_no_subject() -> None:
    assert analyze_question("what are the 2nd floor quiet hours currently").dates == ()
    assert analyze_question("what's on the 2nd").dates == ("the 2nd",)
    assert ("quiet zone hours", "9–13 from Monday", Kind.RANGE) in claims_of(
        "Since the booths are in: quiet zone hours extend to 9–13 from Monday")
