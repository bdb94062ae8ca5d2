"""Which of a message's values answers: the one said of the question's subject, not one
said of nothing ("thanks all for tonight … pizza on saturdays"); a time said for the
weekday the question names ("on saturdays", not the sundays' time); a time range whole
("sundays 9–10am"); the closing asked, not a closing the question mentions in passing
("… while kingsmere's closed"); and a weekday asked as the day ("which sunday's the gala").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.time_bounds import bound_cue, clock_span
from memory.text import weekdays_in
from tests.support.chat_reader import channel_chat

START = datetime(2026, 9, 7, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 10, 20, 9, 0, tzinfo=UTC)


def test_the_value_said_of_the_subject_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rose", "thanks all for tonight. notes: fob deposit £20, pizza on saturdays. "
                    "minutes on the noticeboard"),
    ], start=START, asked=ASKED)
    assert "saturday" in chat.first("which night's pizza night on?").lower()


def test_the_weekday_asked_scopes_the_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "claire", "heads up: kingsmere can't open the pool till 7:15 from next week. so "
                      "junior squad will be 7:30–8:30am from sat 19th"),
        (31000, "claire", "hollins can't do saturdays, so juniors go to sundays 9–10am there "
                          "while kingsmere's shut"),
    ], start=START, asked=ASKED)
    assert "7:30" in chat.first("what time's junior squad on saturdays now?")
    assert "9–10am" in chat.first("what time are juniors on sundays while kingsmere's closed?")


def test_a_closing_in_passing_is_not_the_end_asked() -> None:
    assert bound_cue("what time are juniors on sundays while kingsmere's closed?") == ("", "")
    assert bound_cue("what time does the shop close on sundays") == ("end", "close")
    assert bound_cue("on tuesdays, once hockey are off, what time do we finish?") == (
        "end", "finish")


@pytest.mark.parametrize(("text", "at", "span"), [
    ("juniors go to sundays 9–10am there", "10am", "9–10am"),
    ("open 10am-4pm on saturdays", "4pm", "10am-4pm"),
    ("doors at 7pm", "7pm", ""),
])
def test_clock_span(text: str, at: str, span: str) -> None:
    start = text.index(at)
    assert clock_span(text, start, start + len(at)) == span


def test_a_weekday_asked_is_the_day_asked() -> None:
    qa = analyze_question("which sunday's the gala on now?")
    assert qa.family == "when"
    assert qa.asks_day
    # a thing named by its day is no day asked
    assert analyze_question("which saturday team is Josh in?").family != "when"


@pytest.mark.parametrize(("text", "place"), [
    ("masters moving to hollins school pool for that stretch", "hollins school"),
    ("meet at the church at 10", "the church"),
    ("the Byrd is too chilly as a first piece in that church", None),
])
def test_a_place_named_by_its_kind(text: str, place: str | None) -> None:
    analysis = MessageAnalyzer(Lexicon()).analyze(text, speaker="x")
    places = [c.value.text for c in analysis.claims if c.value.kind.value == "place"]
    assert places == ([place] if place else [])


@pytest.mark.parametrize(("text", "days"), [
    ("sundays 9–10am", {"sun"}),
    ("Thursday nets, tues and weds", {"thu", "tue", "wed"}),
    ("the sundae bar", set()),
])
def test_weekdays_in(text: str, days: set[str]) -> None:
    assert weekdays_in(text) == days
