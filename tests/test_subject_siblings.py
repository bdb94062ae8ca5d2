"""Two things of one thing are two states: "playtest feedback survey closes wed sep 3"
does not move the playtest, while "the playtest slides to fri aug 29" does; and a question
about the playtest is answered by the playtest's state, not by the survey's."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.analysis.matching import siblings as _siblings
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.models import Scope
from memory.reader.offline import OfflineReader
from memory.reader.word_forms import unit_forms
from tests.support.chat_reader import chat_author, written_reader

T0 = datetime(2025, 8, 4, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 8, 30, 9, 0, tzinfo=UTC)
m = chat_author(space="T1", channel="C1", channel_name="general", start=T0)
SCOPE = Scope(platform="slack", space="T1", channels=("C1",))


@pytest.mark.parametrize(("a", "b", "two"), [
    ("playtest feedback survey", "playtest", True),
    ("playtest build", "playtest feedback survey", True),
    ("van insurance", "van", True),
    ("half plot", "full plots", True),
    ("adult tickets", "student tickets", True),
    ("first match", "final match", True),
    ("team lunch", "friday lunch", False),
    ("playtest slides", "playtest", False),
    ("Atlas design review", "review", False),
    ("ledger migration", "migration", False),
    ("summit venue", "summit", False),
    ("offsite", "team retreat", False),
])
def test_two_things_of_one_thing(a: str, b: str, two: bool) -> None:
    assert _siblings(a, b) is two
    assert _siblings(b, a) is two


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> OfflineReader:
    path: Path = tmp_path_factory.mktemp("playtest")
    return written_reader(path, [
        m(0, "noor", "draft plan: playtest runs fri aug 22 – sun aug 24 on steam. 500 keys"),
        m(600, "noor", "heads up: the playtest slides to fri aug 29 – sun aug 31. gives us "
                       "a week of QA"),
        m(900, "noor", "playtest feedback survey closes wed sep 3, link goes in the "
                       "welcome msg"),
        m(1000, "dani", "~350 ppl signed up for keys so far"),
    ])


def first(reader: OfflineReader, question: str) -> str:
    return reader.answer(question, scope=SCOPE, reference=ASKED).answer.splitlines()[0]


def test_a_thing_of_the_playtest_does_not_move_it(reader: OfflineReader) -> None:
    line = first(reader, "when is the playtest?")
    assert "29" in line and "sep 3" not in line.lower()


def test_the_survey_keeps_its_own_date(reader: OfflineReader) -> None:
    assert "sep 3" in first(reader, "when does the feedback survey close?").lower()


def test_chat_shorthand_covers_the_word_it_stands_for(reader: OfflineReader) -> None:
    assert "peopl" in unit_forms("~350 ppl signed up")
    answer = reader.answer("how many people signed up for keys?", scope=SCOPE, reference=ASKED)
    assert not answer.abstained and "350" in answer.answer.splitlines()[0]


@pytest.mark.parametrize(("question", "terms"), [
    ("who pushed the audit back", ("audit",)),
    ("who kept moving the keynote around", ("keynote",)),
    ("whose idea was it to swap out the opener", ("opener",)),
])
def test_particles_and_frames_are_not_subject_words(question: str,
                                                    terms: tuple[str, ...]) -> None:
    assert analyze_question(question, DEFAULT_LEXICON).terms == terms


@pytest.mark.parametrize(("text", "items"), [
    ("plot fees for 2025: $35 full plot, $20 half plot. due may 1",
     {"$35": "full plot", "$20": "half plot"}),
    ("new price list from monday: sourdough $7, baguette stays $3.50, croissant $4",
     {"$7": "sourdough", "$3.50": "baguette", "$4": "croissant"}),
])
def test_each_item_of_a_price_list_is_its_own_thing(text: str, items: dict[str, str]) -> None:
    claims = {c.value.text: c.subject for c in MessageAnalyzer().analyze(text).claims}
    assert {v: claims.get(v) for v in items} == items


def test_a_revised_price_moves_only_its_own_item(tmp_path: Path) -> None:
    reader = written_reader(tmp_path, [
        m(0, "pete", "plot fees for 2025: $35 full plot, $20 half plot. due may 1"),
        m(5, "rosa", "👍"),
        m(600, "pete", "update: full plots are $40 this year, the water bill went way up. "
                       "half plots stay $20"),
    ])
    half = reader.answer("how much is a half plot?", scope=SCOPE, reference=ASKED)
    full = reader.answer("how much is a full plot now?", scope=SCOPE, reference=ASKED)
    assert half.answer.startswith("$20") and "$40" not in half.answer.splitlines()[1]
    assert full.answer.startswith("$40")
    assert "was $35" in full.answer.splitlines()[1]  # the full plot's own chain

