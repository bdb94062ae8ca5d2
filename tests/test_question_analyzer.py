"""The question analyzer: what a question asks, in many wordings, and its near misses."""

from __future__ import annotations

import pytest

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import MAX_QUESTION_CHARS, analyze_question

K = QuestionKind


@pytest.mark.parametrize("question", [
    "What was the design review time before it slipped to Friday?",
    "what was the PH date before it got pushed?",
    "who had the push notif work before devon?",
    "what build number did we submit before apple rejected it?",
    "where were we supposed to meet in feb before the move?",
    "What did the standup used to be?",
    "what was the previous deadline?",
    "who ran cobalt before?",
    "what was the sso date before the 21st?",
    "what was the raffle target before the bakery came on board?",
    "where was the shoot before the forecast changed?",
])
def test_previous_value(question: str) -> None:
    assert analyze_question(question).kind is K.PREVIOUS


@pytest.mark.parametrize("question", [
    "What was the original 2.4 target?",
    "what day was the onboarding review originally?",
    "which region did kwame originally want for dr?",
    "When was the launch first planned?",
    "what was the initial budget?",
    "where was the cup supposed to be originally?",
    "where did ana first book the team dinner?",
    "what was tom's very first estimate for the build?",
    "what did the printer first quote us?",
])
def test_original_value(question: str) -> None:
    assert analyze_question(question).kind is K.ORIGINAL


@pytest.mark.parametrize("question", [
    # "before" naming a day or another event scopes the question; it asks no earlier value
    "What did Maria participate in last weekend before April 10, 2023?",
    "What did Jean go through before meeting Maria?",
    "What needs to be done before the launch?",
    # "first" as an ordinal, not a plan
    "When did John have his first firefighter call-out?",
    "What kind of dance piece did Gina's team perform to win first place?",
])
def test_near_misses_of_previous_and_original(question: str) -> None:
    assert analyze_question(question).kind not in (K.PREVIOUS, K.ORIGINAL)


@pytest.mark.parametrize(("question", "role"), [
    ("Who moved the 3.2 release date?", "changer"),
    ("who pushed the review to the 22nd?", "changer"),
    ("Who decided on frankfurt for dr?", "decider"),
    ("who signed off on calling beacon 2.9?", "decider"),
    ("who made the call to postpone the launch?", "changer"),
    ("Who suggested Taqueria Luna?", "proposer"),
    ("whose idea was bo7 for the final?", "proposer"),
    ("who came up with the name?", "proposer"),
    ("who found the kelvin library room?", "proposer"),
    ("who spotted the typo in the menu?", "proposer"),
    ("who shot down the ipad idea?", "rejecter"),
    ("who said no to charging at the door?", "rejecter"),
    ("who owns push notifications now?", "owner"),
    ("who's driving the pg cutover?", "owner"),
    ("Who's on call this week?", "owner"),
    ("who won the cup?", "doer"),
    ("who did the ledger-api rollback?", "doer"),
])
def test_who_and_the_role_asked(question: str, role: str) -> None:
    qa = analyze_question(question)
    assert qa.kind is K.WHO and qa.family == "person"
    assert qa.role == role


@pytest.mark.parametrize("question", [
    "Why did the 3.2 release slip?",
    "why'd we ditch pixel pit?",
    "what caused tuesday's 502s?",
    "how come the review moved?",
    "What's the reason for the region change?",
    "why did the fair go into the gym in the first place?",  # not "original"
    "What led to the budget cut?",
])
def test_why(question: str) -> None:
    assert analyze_question(question).kind is K.WHY


@pytest.mark.parametrize(("question", "kind", "family"), [
    ("When is the platform budget review?", K.WHEN, "when"),
    ("what time does check-in open?", K.WHEN, "when"),
    ("what night was the quiz?", K.WHEN, "when"),
    ("which weekend is the retreat?", K.WHEN, "when"),
    ("when did we resubmit to the app store?", K.WHEN, "when"),
    ("when's the harbor review now?", K.CURRENT, "when"),
    ("What's the release date for 2.4?", K.CURRENT, "when"),
    ("which region is dr going in for the new cluster?", K.CURRENT, "where"),
    ("Where is the team lunch on Friday?", K.CURRENT, "where"),
    ("what pg version are we upgrading ledger to?", K.CURRENT, "version"),
    ("how much is entry per team?", K.CURRENT, "money"),
    ("What is the November AWS budget alert set to?", K.CURRENT, ""),
    ("What's the hiring budget for 2025?", K.CURRENT, "money"),
    ("how many onboarding screens did the review settle on?", K.CURRENT, "count"),
    ("what's the new office wifi password?", K.CURRENT, "secret"),
    ("is the grand final bo5 or bo7?", K.CURRENT, ""),
    ("which venues were considered?", K.LIST, "where"),
    ("What did Caroline research?", K.FACT, ""),
])
def test_kind_and_kind_of_value(question: str, kind: QuestionKind, family: str) -> None:
    qa = analyze_question(question)
    assert (qa.kind, qa.family) == (kind, family)


def test_when_a_question_is_past_or_a_plan() -> None:
    assert analyze_question("when did 2.4 go live on the app store?").past
    assert not analyze_question("when does the android version go public?").past


def test_subject_leaves_out_question_and_cue_words() -> None:
    qa = analyze_question("What was the design review time before it slipped to Friday?")
    assert qa.terms == ("design", "review", "time")
    assert qa.anchor == "it slipped to Friday"
    who = analyze_question("who made the call to postpone the launch?")
    assert who.terms == ("launch",) and who.changes == ("postpone",)


def test_named_things() -> None:
    assert analyze_question("When is the Android 4.0 launch?").named == ("4.0", "Android")
    assert analyze_question("What does John like about Lebron James?").named == (
        "John", "Lebron James")
    assert analyze_question('When did she read "nothing is impossible"?').named[0] == (
        "nothing is impossible")
    assert analyze_question("what's the ledger_admin password?").named == ("ledger_admin",)
    # days and times are matched as dates, not as words
    assert analyze_question("who moved the review to the 22nd at 3pm?").named == ()
    assert analyze_question("who moved the review to the 22nd?").dates == ("the 22nd",)
    assert analyze_question("when's the april meetup?").dates == ("april",)


def test_key_words_an_answer_must_state() -> None:
    assert analyze_question("what's the new office wifi password?").key == (("password",),)
    # a value noun of the kind asked is answered by a value: the thing it belongs to counts
    assert analyze_question("what kafka version are we on?").key == (("kafka",),)
    # a when question names a thing and an event
    assert analyze_question("when does dune go live?").key == (("dune",), ("live",))


def test_fillers_before_the_question_word() -> None:
    assert analyze_question("hey quick q: who owns the release notes?").kind is K.WHO
    assert analyze_question("do you know when the offsite is?").kind is K.WHEN
    assert analyze_question("who covered primary when kwame's kid was sick?").family == "person"


def test_long_input_is_read_as_a_bounded_prefix() -> None:
    hostile = "what " + "before it moved " * 20000 + "?"
    qa = analyze_question(hostile)
    assert len(qa.text) <= MAX_QUESTION_CHARS
    assert qa.kind is K.PREVIOUS


@pytest.mark.parametrize(("typed", "meant"), [
    ("who's captain rn", "who's captain now"),
    ("where r we meeting rn?", "where are we meeting now?"),
    ("hw much is the ticket atm", "how much is the ticket now"),
    ("wat time do scrims start pls", "what time do scrims start"),
])
def test_chat_shorthand_asks_what_it_stands_for(typed: str, meant: str) -> None:
    got, want = analyze_question(typed), analyze_question(meant)
    assert (got.kind, got.family, got.terms, got.role) == (
        want.kind, want.family, want.terms, want.role)


def test_a_capital_letter_is_no_shorthand() -> None:
    assert analyze_question("what's the R rating").text == "what's the R rating"


@pytest.mark.parametrize(("question", "final"), [
    ("when's the spring clash final?", True),
    ("who won the final?", True),
    ("when is the cup final on saturday", True),
    ("what's the final venue?", False),
])
def test_a_final_is_a_match_unless_it_asks_for_the_value_in_force(question: str,
                                                                   final: bool) -> None:
    assert ("final" in analyze_question(question).terms) is final


@pytest.mark.parametrize(("question", "measure"), [
    ("how many shirts are we ordering?", "count"),
    ("how much is the hall hire?", "money"),
    ("how big is the prize pool?", ""),
])
def test_what_an_amount_question_measures(question: str, measure: str) -> None:
    assert analyze_question(question).measure == measure
