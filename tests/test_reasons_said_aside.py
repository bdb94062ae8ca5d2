"""A reason said aside: in brackets beside the change ("moves to Wednesday 7pm (rowing
club has the pontoon on Tuesdays now)"), as the state reached that a change is for ("so
it's properly cured"), and the sentence before a few words saying no one that a "so"
follows ("I twisted my knee. out for 3-4 weeks so I can't drum")."""

from __future__ import annotations

from memory.analysis.message import MessageAnalyzer
from memory.reader.extract import reason_in

ANALYZER = MessageAnalyzer()


def test_an_aside_in_brackets_beside_the_change_is_its_reason() -> None:
    text = ("CHANGE: from next week weekday training moves from Tuesday to Wednesday 7pm "
            "(rowing club has the pontoon on Tuesdays now). first Wed session is 11 Sept. "
            "Saturday stays the same")
    assert reason_in(text, value="Wednesday 7pm") == (
        "rowing club has the pontoon on Tuesdays now")


def test_the_state_a_change_is_for_is_its_reason() -> None:
    text = ("ah. that kills the 8th then. postponing the Fig & Cedar launch until Fri 22 Nov "
            "so it's properly cured")
    assert "properly cured" in reason_in(text)
    # a value worked out after "so" is the change going on, not what it is for
    assert reason_in("moving it to wednesday, so it is wed + thu") == ""


def test_what_follows_is_no_purpose() -> None:
    # "so I can't drum" says what follows from being out, not what being out is for
    said = reason_in("bad news guys, I twisted my knee at football. out for 3-4 weeks so I "
                     "can't drum at Dorney")
    assert "knee" in said and "drum" not in said
    assert reason_in("Kai asked to step back so he can focus on entry") == (
        "Kai asked to step back so he can focus on entry")


def test_the_sentence_before_words_saying_no_one_is_the_cause() -> None:
    analysis = ANALYZER.analyze("bad news guys, I twisted my knee at football. out for 3-4 "
                                "weeks so I can't drum at Dorney", speaker="kwame")
    assert "knee" in analysis.reason and "3-4 weeks" in analysis.reason
    # a change said before is no cause
    assert reason_in("moving the scrim. to wednesday, so it is wed + thu") == ""
    # words saying who: the part before "so" is the reason alone
    assert ANALYZER.analyze("the van is booked. we are short on drivers so the trip moves "
                            "to sunday", speaker="x").reason == "we are short on drivers"


def test_what_follows_a_reason_is_not_its_purpose_nor_a_greeting_its_cause() -> None:
    # "so it's cancelled" says what follows: the reason is what comes before it
    assert reason_in("Rain forecast all weekend so it's cancelled, refunds going out") == (
        "Rain forecast all weekend")
    # a part with a verb of its own is the whole reason; a greeting is no cause
    said = reason_in("Morning all, quick one from me. pitch is flooded again so training "
                     "moves to the sports hall thursday 6pm")
    assert said == "pitch is flooded again"


def test_an_aside_telling_readers_what_stays_is_no_reason() -> None:
    text = "standup moves to 9:30 (same zoom link). Sarah has the school run now"
    assert reason_in(text, value="9:30") == "Sarah has the school run now"
