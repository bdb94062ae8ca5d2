"""Who a message says does something: the person something belongs to ("ben's billing")
is not who does it, unless the question asks whose it is."""

from __future__ import annotations

import pytest

from memory.analysis.question import analyze_question
from memory.reader.extract import Person, person_answer


@pytest.mark.parametrize(("question", "text", "person"), [
    ("who ended up doing the billing macros?",
     "did ben's billing + shipping ones too since he's off", "Diego Ramos"),
    ("who's covering the late shift?", "I'll cover kat’s late shift", "Diego Ramos"),
    ("who's covering the late shift?", "kat's late shift goes to ben", "Ben Adeyemi"),
    ("whose idea was the merge?", "merging the runs was ben's idea", "Ben Adeyemi"),
    ("who's running the market stall?", "market stall saturday: ben's running it",
     "Ben Adeyemi"),
    ("who's got the key?", "kat's got the key till friday", "Kat Nowak"),
])
def test_the_person_something_belongs_to_does_not_do_it(
        question: str, text: str, person: str) -> None:
    people = [Person("Ben Adeyemi", frozenset({"ben", "adeyemi"})),
              Person("Kat Nowak", frozenset({"kat", "nowak"})),
              Person("Diego Ramos", frozenset({"diego", "ramos"}))]
    assert person_answer(text, "Diego Ramos", people, analyze_question(question)) == person
