"""The reason a changing message gives beside its change: what stood in the way comes
before a sentence that states another value, and the change itself is never its own
reason."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.message import MessageAnalyzer
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.reader.extract import reason_in
from memory.reader.reasons import names_reached
from tests.support.chat_reader import channel_chat

BLOCKERS = DEFAULT_LEXICON.blockers
T0 = datetime(2026, 5, 13, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "value", "reason"), [
    ("update: full plots are $40 this year, the water bill went way up. half plots stay $20",
     "$40", "the water bill went way up"),
    ("glacier can't do tuesdays anymore, their jungler has uni. moving the tuesday scrim to "
     "wednesday. so it's wed + thu, 21:00", "wednesday", "glacier can't do tuesdays anymore"),
    ("compost update: GreenCycle's truck broke down 🙄 delivery is now tuesday the 15th",
     "tuesday the 15th", "GreenCycle's truck broke down"),
    ("moved to friday 🙃 the hall flooded", "friday", "the hall flooded"),
])
def test_the_reason_beside_a_change(text: str, value: str, reason: str) -> None:
    assert reason_in(text, value=value, blockers=BLOCKERS).startswith(reason)


def test_what_comes_before_so_is_no_reason_when_it_is_the_change() -> None:
    text = "moving the tuesday scrim to wednesday so it's wed + thu"
    assert "moving" not in reason_in(text, value="wednesday", blockers=BLOCKERS)


def test_a_reason_word_still_wins() -> None:
    text = "standup moves to 10 because the platform sync runs at 9:30. notes as usual"
    assert reason_in(text, value="10", blockers=BLOCKERS) == "the platform sync runs at 9:30"


def test_a_reason_told_in_two_sentences_before_the_change() -> None:
    text = ("furnace update: carrier distributor says 3 weeks lead time. elm 414 can't wait "
            "that long on space heaters. switching to a Trane, in stock at ferguson")
    assert reason_in(text, value="Trane", blockers=DEFAULT_LEXICON.blockers) == (
        "carrier distributor says 3 weeks lead time. elm 414 can't wait that long on "
        "space heaters")


def test_a_reason_beside_other_news_stays_one_sentence() -> None:
    text = "moving the market to sunday. the truck broke down again. see you all there"
    assert reason_in(text, value="sunday",
                     blockers=DEFAULT_LEXICON.blockers) == "the truck broke down again"


def test_a_header_holding_the_new_value_is_the_change() -> None:
    text = "retro friday 4pm: half the team is at the conference thursday"
    assert reason_in(text, value="friday 4pm", blockers=DEFAULT_LEXICON.blockers) == (
        "half the team is at the conference thursday")


def test_a_change_to_a_value_before_so_is_the_change_not_its_reason() -> None:
    text = ("raffle draw moved to 4:45 so it's before KDC go on at 5pm – finn doesn't want "
            "announcements during their set")
    assert "moved" not in reason_in(text)
    assert "moved" not in MessageAnalyzer().analyze(text, speaker="Jo").reason
    assert reason_in(text, value="4:45", blockers=BLOCKERS).startswith("finn doesn't want")


def test_a_change_without_a_value_before_so_is_still_the_reason() -> None:
    assert MessageAnalyzer().analyze("her train got changed. so keynote shifts to 10:45",
                                     speaker="Ana").reason.startswith("her train got changed")


def test_why_a_value_is_answered_by_the_message_reaching_it(tmp_path: Path) -> None:
    # the chain holds another change of the cake's time (10am, the florists); the question
    # names 9:30, which a message asked for with its reason and a reply accepted
    chat = channel_chat(tmp_path, [
        (0, "maggie", "wedding cake for the barn: delivery 11am sat"),
        (600, "maggie", "oh and the barn want the cake set up by 10am not 11, the florists "
                        "go in at 11"),
        (5000, "maggie", "hannah emailed – her photographer wants cake shots at 10, so can "
                         "it be set up by 9:30? pete ok?"),
        (5030, "pete", "9:30 fine, i'll leave at 8:45"),
    ], start=T0, asked=ASKED, channel_name="orders")
    assert "photographer" in chat.first("why 9:30 for the cake")


@pytest.mark.parametrize(("text", "day", "named"), [
    ("work day moves to sun 21 june. rest of the plan same", "sunday", True),
    ("ok, on thu then", "thursday", True),
    ("we sat down at 9 and sorted it", "saturday", False),
    ("the sun is out, see you at the lake", "sunday", False),
])
def test_a_weekday_is_named_by_its_short_form_where_it_is_a_day(text: str, day: str,
                                                                 named: bool) -> None:
    # "why did path work move to sunday" reads the change that says "sun 21 june"
    assert names_reached(text, day) is named
