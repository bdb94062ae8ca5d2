"""A which/what question headed by a noun naming no kind of value asks which named thing
the team chose; a question of what a named person did, or one opening with a verb, does
not (it asks a fact, answered from what was said, not from a claimed choice)."""

from __future__ import annotations

import pytest

from memory.analysis.question import analyze_question


@pytest.mark.parametrize("question", [
    "which roofer did we pick",
    "what engine are we on",
    "which hotel did Dana book?",            # booking is choosing for the team
    "which caterer did Priya go with?",
    "what tank is the pils in",              # no person does it: the team's choice
    "which plumber sorted the block B boiler",
    "what book is the club reading now",     # the value in force
])
def test_a_teams_choice_is_asked_by_name(question: str) -> None:
    assert analyze_question(question).family == "name"


@pytest.mark.parametrize("question", [
    "What book did Caroline recommend to Melanie?",  # what a person did
    "What pets does Melanie have?",
    "What instruments does Melanie play?",
    "What motivated Caroline to pursue counseling?",  # "what" + a verb and its object
    "what caused tuesday's 502s?",
    "what closes the main set",
])
def test_what_a_person_did_or_a_verb_is_not_a_named_choice(question: str) -> None:
    assert analyze_question(question).family != "name"

