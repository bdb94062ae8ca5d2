"""What a message opens with is not always what it is about: a greeting ("Welcome back
everyone!") or a label that only announces a change ("Small change:") names nothing, and
"same hall" keeps a value rather than stating one. Labels stay the words people would say."""

from __future__ import annotations

import pytest

from memory.analysis.message import MessageAnalyzer


def _claims(text: str) -> list[tuple[str, str]]:
    a = MessageAnalyzer().analyze(text, speaker="Harold")
    return [(c.subject, c.value.text) for clause in a.clauses for c in clause.claims]


def _labels(text: str) -> list[str]:
    """Each claim's subject with the heading a state's label would put before it."""
    a = MessageAnalyzer().analyze(text, speaker="Harold")
    return [f"{c.heading} {c.subject}".lower() for clause in a.clauses for c in clause.claims]


@pytest.mark.parametrize(("text", "noise"), [
    ("Welcome back everyone! Rehearsals restart after Easter on Tuesday 7 April, 7:30pm",
     "welcome"),
    ("thanks all! the meetup is on Friday 7pm", "thanks"),
    ("Small change: concert tickets are £12 (adults) and £6 for under-16s", "small"),
    ("big news: the offsite is in Lisbon", "big"),
])
def test_a_greeting_or_change_label_names_nothing(text: str, noise: str) -> None:
    labels = _labels(text)
    assert labels
    assert not [s for s in labels if noise in s]


def test_a_change_label_still_says_a_change() -> None:
    a = MessageAnalyzer().analyze("Small change: concert tickets are £12 this year",
                                  speaker="Harold")
    assert max(c.change for c in a.clauses if c.claims) > 0


def test_an_exclamation_naming_a_thing_stays_the_heading() -> None:
    assert ("summer trip", "lisbon") in _claims("ok summer trip!! proposal: lisbon, july 11-18")
    # events named in an exclamation (the hostile review's cases)
    assert [s for s in _labels("Happy hour! thursday 6pm at the Crown") if "happy" in s]
    assert [s for s in _labels("Cake for everyone! 3pm in the kitchen") if "cake" in s]


def test_a_size_label_is_no_change_label() -> None:
    assert [s for s in _labels("coffee cart prices — small: $3, big: $4.50") if "small" in s]


def test_same_keeps_a_value_and_states_none() -> None:
    claims = _claims("We're moving rehearsals to Wednesdays, same time (7:30), same hall.")
    assert ("rehearsals", "Wednesdays") in claims
    assert not [v for _, v in claims if v.lower().startswith("same")]
