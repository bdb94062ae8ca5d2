"""A choice made among the options one message listed: quotes with a price each, or two
names joined by "or"; the turns after it pick one ("Hertz then"), maybe again ("ok, budget
vans."). Asked which was chosen, the answer is the option picked last (first, for what was
picked first), as the offer wrote it.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.models import EvidenceNode
from memory.reader.offered_choice import offer_in, picked
from tests.support.chat_reader import channel_chat

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def _node(i: int, text: str, minutes: int = 0) -> EvidenceNode:
    return EvidenceNode(node_id=f"n{i}", platform="slack", space="T1", channel="C1",
                        message_id=f"m{i}", speaker="sam", speaker_id="U1",
                        ts=START + timedelta(minutes=minutes), text=text)


def test_a_message_listing_priced_names_offers_them() -> None:
    offer = offer_in(_node(1, "van hire quotes back: Budget Vans £180 and Hertz £210 for "
                              "the weekend"))
    assert offer is not None and [o for o, _ in offer.options] == ["Budget Vans", "Hertz"]
    either = offer_in(_node(2, "venue for the social: The Crown (£300) or Star Inn (£250)"))
    assert either is not None and [o for o, _ in either.options] == ["The Crown", "Star Inn"]
    assert offer_in(_node(3, "standup moves to 10:30 from monday")) is None


def test_picks_name_one_option_and_take_it() -> None:
    offer = offer_in(_node(1, "van hire quotes back: Budget Vans £180 and Hertz £210"))
    assert offer is not None
    turns = [_node(2, "did hertz do the last one?", 5),  # a question picks nothing
             _node(3, "hertz then, the extra £30 is worth it for the tail lift", 10),
             _node(4, "rang budget about insurance, they need a scan of the licence", 20),
             _node(5, "ok, budget vans. hertz can't do saturday after all", 60)]
    assert [(o, n.node_id) for o, n in picked(offer, turns)] == [("Hertz", "n3"),
                                                                  ("Budget Vans", "n5")]


def test_the_option_picked_last_is_the_choice(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "sam", "van hire quotes back: Budget Vans £180 and Hertz £210 for the weekend"),
        (15, "ana", "hertz then, the extra £30 is worth it for the tail lift"),
        (2 * DAY, "sam", "rang hertz to confirm, they've double booked the only luton"),
        (2 * DAY + 10, "ana", "ugh. budget vans then, book it today"),
        (3 * DAY, "sam", "budget vans confirmed for sat 8am pickup"),
    ], start=START, asked=START + timedelta(days=5))
    assert "budget vans" in chat.first("which van company are we using?").lower()
    assert "hertz" in chat.first("which van company did we pick first").lower()


def test_a_thing_none_of_the_options_names_can_be_chosen_after_all(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rafa", "Coffee machine died again. Shortlist for the replacement: La Marzocco "
                    "Linea Mini or Sage Oracle Touch."),
        (15, "tom", "Linea Mini. People literally ask about the coffee on tours"),
        (30, "ines", "Fine by me, Linea Mini. Rafa can you order it?"),
        (7 * DAY, "rafa", "Ordering snag: the Linea Mini comes to €5,900 with the plumbing "
                          "kit. We said max 3k on coffee this year."),
        (7 * DAY + 10, "mariana", "way over. Rocket Giotto is ~€2,300 and decent, why not that"),
        (7 * DAY + 20, "ines", "Coffee machine: going with the Rocket Giotto then. Sorry Tom"),
    ], start=START, asked=START + timedelta(days=10))
    first = chat.first("what coffee machine did we end up getting")
    assert "giotto" in first.lower() and "linea" not in first.lower()
