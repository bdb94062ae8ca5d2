""""Who are we getting our logs from?" asks a business, not a person in the chat: the name
given after "from", "with" or a verb of buying, the one taken up rather than the one
dropped ("get a pallet from ashdown and we'll drop hodges"), and before a change the one
used then.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import analyze_question
from memory.analysis.supplier_words import supplier_replaced, suppliers_in
from tests.support.chat_reader import channel_chat

START = datetime(2026, 4, 14, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 5, 20, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("question", "kind"), [
    ("who are we getting our logs from these days?", QuestionKind.CURRENT),
    ("who did we used to buy firewood from?", QuestionKind.PREVIOUS),
    ("who was the bouncy castle booked with originally?", QuestionKind.ORIGINAL),
    ("who did we use for marquees before?", QuestionKind.PREVIOUS),
    ("who's our veg supplier", QuestionKind.CURRENT),
])
def test_a_supplier_question(question: str, kind: QuestionKind) -> None:
    qa = analyze_question(question)
    assert (qa.role, qa.family, qa.kind) == ("supplier", "name", kind)


@pytest.mark.parametrize("question", [
    "who's co-presenting the Porto talk with Ines?",
    "who got the shirt supplier to speed up",
    "who swapped on-call with sofia",
    "who did you hear that from?",
    "who did Chloe get the spare keys from?",
])
def test_not_a_supplier_question(question: str) -> None:
    assert analyze_question(question).role != "supplier"


@pytest.mark.parametrize(("text", "stated", "dropped"), [
    ("get a pallet from ashdown and we'll drop hodges", ["ashdown"], ["hodges"]),
    ("we're moving ordering from Carrow to Brightline", ["Brightline"], ["Carrow"]),
    ("bouncy castle booked from jump4fun £120", ["jump4fun"], []),
    ("marquees: coombe marquees quoted £650 same as last yr", ["coombe marquees"], []),
    ("can we sort it from next week", [], []),
])
def test_suppliers_in(text: str, stated: list[str], dropped: list[str]) -> None:
    slots = suppliers_in(text)
    assert [sl.text for sl in slots if not supplier_replaced(text, sl)] == stated
    assert [sl.text for sl in slots if supplier_replaced(text, sl)] == dropped


def test_the_supplier_taken_up_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dev", "re firewood — hodges logs are soaking, split one and it's wet right "
                   "through the middle. can we try ashdown? kiln dried"),
        (35, "geoff", "they're a bit dearer but fine, get a pallet of logs from ashdown and "
                      "we'll drop hodges"),
    ], start=START, asked=ASKED, channel_name="grounds")
    first = chat.first("who are we getting our logs from these days?")
    assert "ashdown" in first.lower()
    assert "hodges" not in first.lower()


def test_the_supplier_before_the_change_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "pete", "marquees: coombe marquees quoted £650 same as last yr, for the 2 big ones"),
        (11000, "pete", "wessex tents quoted £540 for the same 2 marquees AND they put them "
                        "up. reckon we go with them over coombe"),
        (11030, "margaret", "agreed, book wessex pete"),
    ], start=START, asked=ASKED, channel_name="logistics")
    assert "coombe" in chat.first("who did we use for marquees before?").lower()
