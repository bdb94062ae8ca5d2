"""The reason a changing message gives beside its change: what stood in the way comes
before a sentence that states another value, and the change itself is never its own
reason."""

from __future__ import annotations

import pytest

from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.reader.extract import reason_in

BLOCKERS = DEFAULT_LEXICON.blockers


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
