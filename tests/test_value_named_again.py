"""Replies that do not name their subject, linked by what they answer or by the value they
repeat.

* A later turn naming the value in force and changing it ("18 is too many … can we drop
  them to 16?" → "16 from tomorrow then"; "they'll be £3 not £2.80") changes what the
  answer held, though it names neither the thing nor its buyer; turned down, it does not.
* A value asked alone in reply ("cant do 20 … 19.50?") is put forward on the talk, and
  "ok 19.50" settles it; "what rate did we agree" asks what was agreed, which holds now.
* "why didn't it go to 100": the reply pushing back on the 100 put forward says why.
* A reply is about what the turn it answers asked ("so when do the pies start?" →
  "launching sat, £2.80 each"); the latest answer deciding the kind asked is what holds
  ("… at The Plough?" → "plough's back room is taken" → "ha. star inn it is"); a message
  deciding a value before asking something else ("ditchley common it is. meet 8pm?")
  answers with that value.
* A question's word ending a compound the chat says matches it ("flush" / "powerflush");
  a share asked ("what fee %") is not answered by an amount.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.lexicon import default_lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.analysis.values import find_values
from tests.support.chat_reader import channel_chat
from tests.support.memory import msg, thread_first

START = datetime(2026, 9, 7, 8, 0, tzinfo=UTC)
ASKED = datetime(2026, 10, 2, 9, 0, tzinfo=UTC)
DAY = 24 * 60
LEX = default_lexicon()

BAGELS = [
    (0, "ollie", "the deli wants more bagels, they sell out by 10. can we go from 12 to 18 "
                 "a day from monday?"),
    (15, "dev", "18 no probs"),
    (3 * DAY, "ollie", "deli on 18 from today, dropped them at 7"),
    (12 * DAY, "ollie", "Jas says 18 is too many, had 3 left over fri and sat. can we drop "
                        "them to 16?"),
]


def test_a_later_turn_changing_the_value_in_force_is_a_change_of_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [*BAGELS, (12 * DAY + 20, "dev", "16 from tomorrow then")],
                        start=START, asked=ASKED)
    first = chat.first("how many bagels are we sending the deli a day now")
    assert "16" in first and "18" not in first


def test_a_change_put_forward_and_turned_down_leaves_the_value(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [*BAGELS, (12 * DAY + 20, "dev",
                                             "nah keep it at 18, the weekend was a one off")],
                        start=START, asked=ASKED)
    assert "16" not in chat.first("how many bagels are we sending the deli a day now")


TARTS = [
    (0, "jodie", "so when do the pear tarts start? 👀"),
    (20, "margot", "launching sat 3rd oct, £2.80 each"),
    (5 * DAY, "margot", "after costing them up properly they'll be £3 not £2.80. still a "
                        "bargain"),
]


def test_an_amount_named_as_replaced_gives_way(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, TARTS, start=START, asked=ASKED)
    first = chat.first("how much are the pear tarts")
    assert "£3" in first and "2.80" not in first
    # … and it is the value before
    assert "2.80" in chat.first("what was the pear tart price before it went up")


def test_a_counter_offer_settled_holds_and_what_was_agreed_is_now(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dave", "Liam's review. thinking £20/hr from March, he's been solid"),
        (20, "kerry", "cant do 20 without doing same for Pawel next yr. 19.50?"),
        (40, "dave", "ok 19.50. I'll tell him friday"),
    ], start=START, asked=ASKED)
    assert analyze_question("what rate did we agree for liam").past is False
    assert analyze_question("when did we agree on the venue").past is True
    # someone's own past choice is still the past
    assert analyze_question("what book did Melanie pick for the trip").past is True
    assert "19.50" in chat.first("what rate did we agree for liam from march")


def test_the_reply_pushing_back_on_a_value_says_why_it_was_not_taken(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dave", "out of hours callout going up from feb. currently 85, thinking 100. "
                    "been 85 since 2022"),
        (30, "kerry", "100 is alot, the regulars will walk"),
        (60, "dave", "fine 95 then. from 1st feb"),
    ], start=START, asked=ASKED)
    assert "regulars" in chat.first("why didnt the callout go to 100")


def test_the_latest_answer_deciding_the_kind_asked_holds(tmp_path: Path) -> None:
    first = thread_first(tmp_path, [
        msg(1, "rashida", "xmas social! fri 18th dec at The Plough? 🎄"),
        msg(2, "kofi", "🙋", thread="1", reply_to="1"),
        msg(3, "helen", "plough's back room is taken that friday. the Star Inn has space, "
                        "and come on, it's called the Star 😂", thread="1", reply_to="1",
            minutes=600),
        msg(4, "fin", "ha. star inn it is", thread="1", reply_to="1", minutes=610),
    ])
    assert "star inn" in first("which pub for the xmas social").lower()


def test_a_value_decided_before_another_question_answers(tmp_path: Path) -> None:
    first = thread_first(tmp_path, [
        msg(1, "fin", "Meteor night!! thinking sun 13 dec at Brockhurst Farm. thoughts?"),
        msg(2, "mei", "top field's waterlogged, I know the ranger at the common", thread="1",
            reply_to="1", minutes=300),
        msg(3, "fin", "brilliant, ditchley common it is. meet 8pm?", thread="1",
            reply_to="1", minutes=600),
        msg(4, "greg", "I'd say 9, not much happens at 8", thread="1", reply_to="1",
            minutes=620),
    ])
    assert "ditchley" in first("where's the meteor night").lower()


def test_interjections_are_no_subject_and_a_name_going_on_is_no_choice() -> None:
    analyzer = MessageAnalyzer()
    decided = analyzer.analyze("brilliant, ditchley common it is", speaker="fin")
    assert [(c.value.text, c.subject) for c in decided.claims] == [("ditchley common", "")]
    said = "the Star Inn has space, and come on, it's called the Star"
    assert not [v for v in find_values(said, LEX) if v.kind is Kind.CHOICE]
    assert [v.text for v in find_values("ok fair, pizza it is then", LEX)
            if v.kind is Kind.CHOICE] == ["pizza"]


def test_a_word_ending_a_compound_said_matches_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [(0, "kerry", "dental powerflush moved to sat 7th")],
                        start=START, asked=ASKED)
    assert "7th" in chat.first("when is the dental flush")
    assert chat.answer("when's the hayward boiler flush").abstained


def test_a_share_asked_is_not_answered_by_an_amount(tmp_path: Path) -> None:
    said = [(0, "helen", "quayside fee went in at £68k, fingers crossed")]
    chat = channel_chat(tmp_path, said, start=START, asked=ASKED)
    assert chat.answer("what fee % did we put in for quayside?").abstained
    assert "68" in chat.first("what fee did we put in for quayside?")


def test_a_compound_written_open_in_the_question_is_covered_whole(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dave", "new tool shed key is in the office, box by the door"),
        (30, "kerry", "toolbox talk moves to fridays 3.30 from next week"),
        (60, "zoe", "talk about the van rota later?"),
    ], start=START, asked=ASKED)
    answer = chat.answer("when's the tool box talk")
    # every word of the question is said by the toolbox message, none left to chance
    assert answer.coverage is not None and answer.coverage >= 0.99
    assert "fridays" in answer.answer.splitlines()[0]


def test_a_task_handed_over_in_a_thread_is_held_by_who_took_it(tmp_path: Path) -> None:
    first = thread_first(tmp_path, [
        msg(1, "dev", "hartley anniversary cake confirmed for sat 17th. 3 tiers, pickup 10am. "
                      "I'm on it"),
        msg(2, "sian", "4 tiers now! wait aren't you away that week", thread="1",
            reply_to="1", minutes=600),
        msg(3, "dev", "ah. yes. could you take it over Sian? I'll leave you the timings",
            thread="1", reply_to="1", minutes=620),
        msg(4, "sian", "go on then. mine now 🎂", thread="1", reply_to="1", minutes=640),
    ])
    assert first("who's doing the hartley anniversary cake now").startswith("sian")


def test_a_request_in_a_thread_is_about_the_threads_subject(tmp_path: Path) -> None:
    first = thread_first(tmp_path, [
        msg(1, "rashida", "Hilltop Primary said yes to a stargazing evening! Thu 19th, 6pm on "
                          "the school field"),
        msg(2, "rashida", "argh. work are sending me to Leeds that week. Mei would you lead "
                          "hilltop?", thread="1", reply_to="1", minutes=900),
        msg(3, "mei", "sure, happy to. send me your running order", thread="1", reply_to="1",
            minutes=930),
    ])
    assert first("who's running the school evening now?").startswith("mei")


def test_the_value_a_later_turn_changed_is_the_one_before(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [*BAGELS, (12 * DAY + 20, "dev", "16 from tomorrow then")],
                        start=START, asked=ASKED)
    first = chat.first("how many bagels did the deli get a day before the change")
    assert first.startswith("18")


def test_how_many_is_not_answered_by_an_amount_of_money(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [(0, "margot", "pear tarts launching sat 3rd oct, £2.80 each")],
                        start=START, asked=ASKED)
    assert chat.answer("how many pear tarts are we baking a day at launch").abstained
    assert "2.80" in chat.first("how much are the pear tarts")


@pytest.mark.parametrize("turns, question, held", [
    ([(0, "jonas", "budget update: the client approved an uplift, total is now £210k"),
      (9 * DAY, "jonas", "catering line is now £47k after the final quote, total still under "
                         "the 210")],
     "whats the total budget for the summit at this point", "210"),
    ([(0, "marcus", "ok tasting menu: £72 not 75. wine pairing stays £40"),
      (7 * DAY, "elena", "new rep bumped prices so pairing goes to £45 from launch. tasting "
                         "stays 72")],
     "how much is the tasting menu now?", "72"),
    ([(0, "marcus", "huddle 8:30 sharp from now on"),
      (5 * DAY, "ruth", "late nights are getting trimmed to 8pm. the HVAC shuts off at 8:30 "
                        "after hours and it gets freezing")],
     "what time is huddle these days", "8:30"),
])
def test_a_value_named_as_still_holding_beside_another_change_stays(
        tmp_path: Path, turns: list[tuple[int, str, str]], question: str, held: str) -> None:
    chat = channel_chat(tmp_path, turns, start=START, asked=ASKED)
    assert held in chat.first(question)


def test_a_message_asking_the_thing_asked_is_answered_by_its_reply(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ro", "offsite venue: lovely, the barn it is. and caterer for the offsite, "
                  "Greens or Pinch?"),
        (10, "bea", "pinch"),
    ], start=START, asked=ASKED)
    assert "pinch" in chat.first("which caterer for the offsite?").lower()


def test_a_reply_asking_the_thing_asked_is_not_its_answer_in_athread_first(tmp_path: Path) -> None:
    first = thread_first(tmp_path, [
        msg(1, "ro", "offsite in march — which venue?"),
        msg(2, "bea", "the barn at Hollins?", thread="1", reply_to="1", minutes=5),
        msg(3, "ro", "lovely, the barn it is. and caterer, Greens or Pinch?", thread="1",
            reply_to="1", minutes=7),
        msg(4, "bea", "pinch", thread="1", reply_to="1", minutes=10),
    ])
    assert "pinch" in first("which caterer for the offsite?").lower()
