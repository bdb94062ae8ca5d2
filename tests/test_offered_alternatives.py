"""A question offering two alternatives is answered by the one the newest deciding message
names alone ("is millbrook a pitched or flat roof now" → "flat", never the opening's "5m"),
and a remark on the other settles nothing; a fee
set as a share answers a fee question ("let's go 9%"); and "what start time … before" is
answered by a time, never by a day someone said in passing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.question import analyze_question
from memory.reader.alternatives import alternatives
from tests.support.chat_reader import channel_chat

T0 = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("question", "pair"), [
    ("is millbrook a pitched or flat roof now", ("pitched", "flat")),
    ("so are we doing a band or a dj in the end", ("band", "dj")),
    ("are group matches bo3 or bo5?", ("bo3", "bo5")),
])
def test_the_alternatives_a_question_offers(question: str, pair: tuple[str, str]) -> None:
    assert alternatives(analyze_question(question)) == pair


@pytest.mark.parametrize("question", ["are we using minis at session zero or not?",
                                      "can ppl pay by card or is it cash only",
                                      "r we still doing bleach on the kennels or what"])
def test_or_without_two_values_offers_none(question: str) -> None:
    assert alternatives(analyze_question(question)) is None


def test_the_newest_message_naming_one_alternative_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tomasz", "millbrook: pitched roof over the rear extension, 4m opening"),
        (9000, "tomasz", "site visit done. the okafors now want the rear opening widened to "
                         "5m and they're asking about a flat roof w/ a rooflight"),
        (9100, "helen", "flat roof is better for the neighbour's light anyway"),
        (20000, "dan", "okafors confirmed: flat roof w/ rooflight + the 5m opening. that's "
                       "a redraw of the millbrook roof plan"),
    ], start=T0, asked=ASKED, channel_name="proj-millbrook")
    assert chat.first("is millbrook a pitched or flat roof now").startswith("flat")


def test_a_fee_set_as_a_share_answers_a_fee_question(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "helen", "Raj – Quayside fee. I've drafted it at 8.5% of construction cost. "
                     "thoughts?"),
        (3000, "raj", "re quayside fee – let's go 9%. the extra consultation round alone is "
                      "~3 weeks of work"),
        (3010, "helen", "agreed, 9% it is. i'll update the letter"),
    ], start=T0, asked=ASKED, channel_name="partners")
    assert chat.first("what fee did we settle on for quayside in the end").startswith("9%")


def test_a_start_time_before_is_a_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lena", "hey all — hollow pine is holding sat+sun may 17–18 for you. 10am starts "
                    "both days"),
        (300, "maya", "can we rehearse thu?"),
        (305, "kit", "thu works"),
        (9000, "lena", "hollow pine confirmed for the 24th-25th. 10am starts both days"),
        (9500, "kit", "can we do noon? i work till 11 on saturday"),
        (9600, "lena", "noon"),
    ], start=T0, asked=ASKED, channel_name="general")
    assert "10am" in chat.first("what start time did lena give before we asked for noon")


@pytest.mark.parametrize(("turns", "question", "expected"), [
    ([(0, "pay", "we're going with stripe for payments"),
      (1440, "qa", "paypal fees are mental, glad we didn't")],
     "are we on stripe or paypal?", "stripe"),
    ([(0, "cd", "should we do secret santa or a raffle this year?"),
      (1440, "de", "secret santa pls"), (1444, "cd", "ok secret santa it is, £15 limit")],
     "are we doing secret santa or a raffle?", "secret santa"),
])
def test_a_remark_on_the_other_alternative_settles_nothing(
        tmp_path: Path, turns: list[tuple[int, str, str]], question: str, expected: str) -> None:
    chat = channel_chat(tmp_path, turns, start=T0, asked=ASKED, channel_name="general")
    assert chat.first(question).lower().startswith(expected)
