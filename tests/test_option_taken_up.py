"""A choice decided with no subject of its own ("let's go blackbird for now") is about what
the turn that put that option forward was about ("caterer: blackbird kitchen did my
cousin's wedding … anyone against?"): the writer opens that state, so a later switch
("switching to saffron & sage, can someone tell blackbird?") revises it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.models import Verdict
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 5, 5, 12, 0, tzinfo=UTC)
ASKED = datetime(2025, 6, 1, 9, 0, tzinfo=UTC)


def test_the_option_put_forward_names_the_decision(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "caterer: blackbird kitchen did my cousin's wedding and it was so good. "
                     "anyone against?"),
        (4, "sophie", "their lamb was insane"),
        (35, "tom", "let's go blackbird for now and judge at the tasting"),
        (3000, "raj", "had a call with the people at Saffron & Sage, proper indian menu"),
        (3028, "priya", "ok switching to saffron & sage. cheaper and the food works for both "
                        "families. dad can u let blackbird know?"),
    ], start=T0, asked=ASKED)
    answer = chat.answer("which caterer did we pick?")
    assert answer.answer.split("\n")[0].lower().startswith("saffron & sage"), answer.answer
    chain = answer.states[0].chain
    assert answer.states[0].topic == "caterer"
    assert [e.value.lower() for e in chain] == ["blackbird", "saffron & sage"]
    assert chain[-1].verdict is Verdict.REVISE


def test_an_option_nobody_put_forward_opens_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tom", "long week, who's around saturday?"),
        (5, "priya", "let's go blackbird for now"),
    ], start=T0, asked=ASKED)
    assert chat.answer("which caterer did we pick?").states == []


def test_a_label_naming_the_option_is_no_subject(tmp_path: Path) -> None:
    # the option's turn is headed by the option itself: no subject to borrow
    chat = channel_chat(tmp_path, [
        (0, "sophie", "blackbird kitchen option: they did my cousins wedding, anyone against?"),
        (5, "tom", "let's go blackbird for now"),
    ], start=T0, asked=ASKED)
    topics = [row["topic"].lower() for row in chat.reader.tools.store.states.listed()]
    assert all("blackbird" not in t for t in topics), topics


def test_a_place_named_in_passing_changes_no_state(tmp_path: Path) -> None:
    # "see u all at TUL" names a place an earlier turn named beside another value
    chat = channel_chat(tmp_path, [
        (0, "shaz", "all: night linehaul moves LAV -> TUL starting mon 17/11"),
        (60, "shaz", "TUL nights: same shift times as LAV, linehaul loads from dock B"),
        (120, "anj", "see u all at TUL 🚚"),
    ], start=T0, asked=ASKED)
    store = chat.reader.tools.store
    ids = [row["state_id"] for row in store.states.listed()]
    assert ids
    assert all(n.speaker != "anj" for n in store.state_nodes(ids))
