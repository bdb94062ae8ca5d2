"""What a question asks, in the shapes people type: "y" opening a question is "why", "the
first stage quote" asks the original quote as "the first quote" does, and "before the
*price* change" asks a price even when nothing else in the question names one."""

from __future__ import annotations

import pytest

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import analyze_question


@pytest.mark.parametrize("question", ["y icebox now", "y'd we switch to premier inn",
                                      "y is the venue changed?"])
def test_y_opening_a_question_asks_why(question: str) -> None:
    assert analyze_question(question).kind is QuestionKind.WHY


@pytest.mark.parametrize("question", ["is plan y still on?", "what's on the y axis",
                                      "Y hall booked for when?"])
def test_y_elsewhere_is_a_letter(question: str) -> None:
    assert analyze_question(question).kind is not QuestionKind.WHY


@pytest.mark.parametrize(("question", "subject"), [
    ("what was the first stage quote", "stage quote"),
    ("whats the first venue plan", "venue"),
])
def test_first_before_a_named_cue_asks_the_original(question: str, subject: str) -> None:
    qa = analyze_question(question)
    assert qa.kind is QuestionKind.ORIGINAL
    assert qa.subject == subject


@pytest.mark.parametrize("question", ["when is the first shipment", "who was the first speaker",
                                      "where's the first aid kit",
                                      "what's the first team training time?",
                                      "when's the first match date?"])
def test_first_of_a_thing_is_no_original(question: str) -> None:
    assert analyze_question(question).kind is not QuestionKind.ORIGINAL


def test_the_value_noun_of_a_change_names_the_value_asked() -> None:
    qa = analyze_question("what was sourdough before the price change")
    assert qa.kind is QuestionKind.PREVIOUS
    assert qa.family == "price"


def test_a_change_noun_asks_no_value_in_a_why_question() -> None:
    assert analyze_question("Why was the price change delayed?").family == ""


@pytest.mark.parametrize("question", ["what was the menu before the date change?",
                                      "what was the theme before the date change?"])
def test_a_date_change_names_the_change_not_the_value_asked(question: str) -> None:
    assert analyze_question(question).family != "when"


@pytest.mark.parametrize(("question", "word"), [
    ("what was the planning date before it moved to march", "planning"),
    ("why did millbrook planning slip to the 27th", "planning"),
    ("what's the going rate for a dj", "going"),
])
def test_a_light_ing_word_before_a_noun_names_a_kind_of_thing(question: str, word: str) -> None:
    assert word in analyze_question(question).terms


@pytest.mark.parametrize("question", ["what are we planning for friday",
                                      "are we going to the pub", "who is doing face painting",
                                      "when is Kestrel going live?",
                                      "what time does the bls thing finish"])
def test_a_light_ing_word_doing_something_names_nothing(question: str) -> None:
    assert not {"planning", "going", "doing", "thing"} & set(analyze_question(question).terms)


@pytest.mark.parametrize("question", ["hut price before the surcharge?",
                                      "room rate before the rise?",
                                      "deadline before the extension"])
def test_a_kind_of_value_before_a_change_asks_the_earlier_value(question: str) -> None:
    # asked with no verb at all: still the value as it was
    assert analyze_question(question).kind is QuestionKind.PREVIOUS


@pytest.mark.parametrize("question", ["lunch before the workshop?",
                                      "what needs doing before the launch"])
def test_a_thing_before_an_event_asks_no_earlier_value(question: str) -> None:
    assert analyze_question(question).kind is not QuestionKind.PREVIOUS


@pytest.mark.parametrize("question", ["who asked for the reminders to go 24h before",
                                      "what time do we meet the night before",
                                      "do we pack two days before?"])
def test_a_length_of_time_before_before_is_no_earlier_value(question: str) -> None:
    assert analyze_question(question).kind is not QuestionKind.PREVIOUS


def test_just_before_still_asks_the_earlier_value() -> None:
    assert analyze_question("who had the rota just before").kind is QuestionKind.PREVIOUS


@pytest.mark.parametrize(("question", "terms"), [
    ("why arent we doing the gorge anymore", ("gorge",)),
    ("why cant we use the hall", ("hall",)),
    ("when didnt the van come", ("van",)),
])
def test_contractions_typed_without_apostrophes_name_nothing(question: str,
                                                              terms: tuple[str, ...]) -> None:
    assert analyze_question(question).terms == terms


@pytest.mark.parametrize("question", ["warm-up time before kickoff?",
                                      "room rate before tax?"])
def test_a_time_or_an_amount_before_an_event_asks_no_earlier_value(question: str) -> None:
    assert analyze_question(question).kind is not QuestionKind.PREVIOUS
