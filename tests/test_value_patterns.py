"""Both slot pattern sets (memory.text and the analyzer's lexicon) read amounts the same way,
in the ways people write them; a question's addressee is not what it asks."""

from __future__ import annotations

import pytest

from memory.analysis.lexicon import default_lexicon
from memory.analysis.question import analyze_question, strip_address
from memory.analysis.values import find_values
from memory.text import find_slots


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("The Q3 budget for Initech is 4.2 million dollars", "money", "4.2 million dollars"),
    ("raise it to 1.5M", "money", "1.5M"),
    ("it came to about 40 grand", "money", "40 grand"),
    ("EUR 300 per seat", "money", "EUR 300"),
    ("$4.2 million in total", "money", "$4.2 million"),
    ("Project Falcon budget is 7 million", "money", "7 million"),
    ("costs 300 euros", "money", "300 euros"),
    ("we passed 4.2 million users", "count", "4.2 million"),
])
def test_amounts_are_read_alike_by_both_pattern_sets(text: str, kind: str, value: str) -> None:
    slots = [(s.kind.value, s.text) for s in find_slots(text)]
    values = [(v.kind.value, v.text) for v in find_values(text, default_lexicon())]
    assert (kind, value) in values
    assert ({"count": "number"}.get(kind, kind), value) in slots
    assert not any(k == "version" for k, _ in slots + values)  # "4.2" is no version here


@pytest.mark.parametrize(("question", "asked"), [
    ("when is the deploy window? @channel", "when is the deploy window?"),
    ("<@U1> when is the deploy window? <!here>", "when is the deploy window?"),
    ("@bob, who owns the launch?", "who owns the launch?"),
])
def test_whom_a_question_is_addressed_to_is_not_its_subject(question: str, asked: str) -> None:
    assert strip_address(question) == asked
    assert analyze_question(strip_address(question)).terms == analyze_question(asked).terms
    assert "channel" not in analyze_question(strip_address(question)).terms


def test_a_mention_inside_a_question_stays() -> None:
    assert strip_address("what did @bob decide about the venue?") == \
        "what did @bob decide about the venue?"


@pytest.mark.parametrize(("text", "value"), [
    ("borrowing 6 tents from the scout hut", "6 tents"),
    ("4 NEOs from rev for the drive", "4 NEOs"),
    ("we're down to 3 boxes of gloves", "3 boxes"),
    ("twelve chairs for the hall", "twelve chairs"),
])
def test_a_number_counts_the_plural_after_it(text: str, value: str) -> None:
    found = [(v.kind.value, v.text) for v in find_values(text, default_lexicon())]
    assert ("count", value) in found


@pytest.mark.parametrize(("text", "wrong"), [
    ("7 works for me", "7 works"),
    ("fees are $40 this year", "40 this"),
    ("takes 3 hours door to door", "3 hours"),
    ("2 sounds fine", "2 sounds"),
])
def test_a_unit_or_a_verb_after_a_number_is_not_what_it_counts(text: str, wrong: str) -> None:
    assert wrong not in [v.text for v in find_values(text, default_lexicon())]


@pytest.mark.parametrize(("text", "value"), [
    ("pro SLA goes to 3h, not 2", "3h"),
    ("the brewline read is 45 sec now", "45 sec"),
    ("first response target is 4 hours", "4 hours"),
])
def test_a_duration_set_or_changed_is_a_value(text: str, value: str) -> None:
    found = [(v.kind.value, v.text) for v in find_values(text, default_lexicon())]
    assert ("count", value) in found
