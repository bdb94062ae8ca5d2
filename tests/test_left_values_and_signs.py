"""What a change leaves and what it takes, in more wordings: a value "sold out" or before
an arrow ("gents 18 -> 20") is left; "swapping the finale to dax on the lure instead" and
"yeah go vallotti" take a choice; a number below zero keeps its sign ("bump it to -12");
a value is read beside the words asked by its nearer end ("0.75 lb/bbl el dorado, 1 lb was
too much"); "as long as …" is a condition, not a reason; what one can do after a change
("we can day trip to lisbon") is not why it was made.

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.message import MessageAnalyzer
from memory.analysis.value_types import Kind
from memory.reader.extract import reason_in, replaced_at
from memory.text import SlotKind, find_slots
from tests.support.chat_reader import channel_chat
from tests.support.claims import claims_of

START = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)  # a Monday
ANALYZER = MessageAnalyzer()


def _left(text: str, value: str) -> bool:
    at = text.index(value)
    return replaced_at(text, at, at + len(value))


def test_a_value_sold_out_or_before_an_arrow_is_left() -> None:
    text = "Tee update: forest green is sold out in XL, going with olive instead"
    assert _left(text, "forest green") and not _left(text, "olive")
    prices = "price rise from june: wash & cut 30 -> 34, kids 12 → 14"
    assert _left(prices, "30") and _left(prices, "12") and not _left(prices, "34")
    # a room full of chairs is no value left
    assert not _left("the hall is full of chairs", "hall")


def test_a_choice_swapped_to_or_given_the_go_ahead_is_taken() -> None:
    people = ("Rhodri", "Marek")
    assert [v for _, v, k in claims_of(
        "right, kestrel's out for saturday. swapping the opener to merlin on the glove instead",
        people=people) if k is Kind.CHOICE] == ["merlin"]
    assert [v for _, v, k in claims_of("yeah go meantone. i'll ring the organist")
            if k is Kind.CHOICE] == ["meantone"]
    # going home or going ahead chooses nothing
    assert [v for _, v, k in claims_of("go home guys, great session") if k is Kind.CHOICE] == []
    assert [v for _, v, k in claims_of("ok go ahead and book it") if k is Kind.CHOICE] == []


def test_a_number_below_zero_keeps_its_sign() -> None:
    assert [(s.kind, s.text) for s in find_slots("ok -18 👍")] == [(SlotKind.NUMBER, "-18")]
    assert [v for _, v, k in claims_of("let's bump the chiller to -4. less frost")
            if k is Kind.COUNT] == ["-4"]
    # a range or a dash between words is no sign
    assert [s.text for s in find_slots("10-12 people")] != ["-12"]


def test_a_value_is_read_beside_the_words_asked_by_its_nearer_end(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dana", "dry hopping hazy IPA on thursday — 0.5 lb/bbl citra, 1 lb was way too "
                    "much on the pilot batch"),
    ], start=START, asked=datetime(2024, 5, 7, 12, 0, tzinfo=UTC))
    first = chat.first("how much citra are we dry hopping the hazy IPA with")
    assert "0.5" in first and "1 lb" not in first


def test_a_condition_or_what_follows_is_no_reason() -> None:
    assert ANALYZER.analyze("Apistan's fine as long as it isn't roasting",
                            speaker="x").reason == ""
    reason = reason_in("ok let's do seville instead of madrid, trains are half the price. we "
                       "can day trip to madrid", value="seville")
    assert "half the price" in reason and "day trip" not in reason
