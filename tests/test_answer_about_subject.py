"""What is in force now comes from a message about the thing asked: a later change of
something else ("first aid training moving … Now Tue 20 Oct, 5:30pm") is no new time for
the phones; a place asked is not answered by the days a place is used ("fridays"); a
label number asked ("our pitch number") is not answered by a count ("2 pitches"); a
person the question names ("Joel's interview") is not who it asks for.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.reader.coverage import node_unit
from memory.reader.coverage_values import numbered_noun, says_a_numbered
from memory.reader.state_choice import _asked_of
from tests.support.chat_reader import channel_chat, turn_node

START = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 10, 20, 9, 0, tzinfo=UTC)


def test_a_later_change_of_another_thing_is_no_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pia", "From Mon 12th the phones will open at 8:00 instead of 8:30 - we're "
                   "missing loads of calls first thing"),
        (10, "ola", "I can do the 8am start Mon-Weds"),
        (3000, "pia", "Staff meeting today 1pm! agenda: rota, phones, first aid"),
        (6000, "pia", "First aid training moving - the trainer's double booked. Now Tue 20 "
                      "Oct, 5:30pm. Sorry if that messes anyone about"),
    ], start=START, asked=ASKED)
    first = chat.first("What time do the phones open now?")
    assert "8" in first
    assert "5:30" not in first


def test_days_a_place_is_used_do_not_answer_where(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rosa", "seaholm said yes, mon-fri lunch 11-2, $40/day"),
        (6000, "rosa", "no fridays at seaholm from next week, they got the farmers mkt. "
                       "fridays we go to republic square"),
        (6010, "hec", "republic sq is decent on fridays"),
    ], start=START, asked=ASKED)
    assert "republic" in chat.first("where do we go fridays").lower()


def test_a_count_does_not_answer_a_label_number(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sam", "campsite update - Pine Flats is full, booked 2 pitches at Cedar Lake "
                   "instead, $45/night per pitch, we'll split it"),
        (60, "kai", "cedar lake 🤩"),
    ], start=START, asked=ASKED)
    assert chat.answer("whats our pitch number at cedar lake").abstained
    assert not chat.answer("how much is the pitch at cedar lake").abstained


@pytest.mark.parametrize(("question", "value", "asked"), [
    ("who's sitting in on Joel's interview with Priya?", "Joel", True),
    ("who replaced Sam on the rota", "Sam", True),
    ("who replaced Sam on the rota", "Dana", False),
    ("who is running the raffle", "Priya", False),
])
def test_a_person_the_question_names_is_not_its_answer(question: str, value: str,
                                                        asked: bool) -> None:
    assert _asked_of(analyze_question(question, DEFAULT_LEXICON), value) is asked


def test_a_state_holding_a_day_names_no_company(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "shaz", "harness + lanyard inspection at the yard tues 28th 4pm. everyone bring "
                    "ur kit"),
        (600, "shaz", "inspection bloke cant do tues, now wed 29th same time 4pm"),
        (610, "dean", "ok"),
    ], start=START, asked=ASKED)
    assert chat.answer("which company does the harness inspections").abstained
    assert not chat.answer("when is the harness inspection").abstained


@pytest.mark.parametrize(("text", "numbered"), [
    ("team locker at the gym is no. 9, code 4471", True),
    ("locker number is 12", True),
    ("booked locker 7 for the season", True),
    ("2 lockers booked, code 4471", False),
])
def test_a_label_number_is_said_of_its_thing(text: str, numbered: bool) -> None:
    unit = node_unit(turn_node(1, "tom", text, start=START))
    assert says_a_numbered(unit, numbered_noun("whats our locker number at the gym")) \
        is numbered
