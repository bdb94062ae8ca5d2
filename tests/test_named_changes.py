"""A change that names its new value rather than a time or a price: "going with the
Anchor", "swapping North Reef for Kettle Cove", "black wins 14-6", "Dr. Hemi Walker is
stepping in", "Pete has the licence so he's driving", "Yusuf's on the stall instead"; what
a change leaves ("GLOW25 instead of WICK20", "from stall 14 to stall 23"); who reports a
change is no value of it ("community center says …"); an occasion named after its day
("Black Friday") is no day; a later message about another thing of the same kind
("committee meeting got moved") is no new value of the one asked about ("lab meeting").

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.matching import named_otherwise
from memory.analysis.message import MessageAnalyzer
from memory.analysis.value_types import Kind
from memory.reader.extract import replaced_at
from memory.reader.word_forms import spelled_out, unit_forms
from tests.support.chat_reader import channel_chat
from tests.support.claims import claims_of

DAY = 60 * 24
START = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)  # a Monday
ANALYZER = MessageAnalyzer()


def _values(text: str, kind: Kind, people: tuple[str, ...] = ()) -> list[str]:
    return [v for _, v, k in claims_of(text, people=people) if k is kind]


def _old(text: str, people: tuple[str, ...] = ()) -> list[str]:
    analysis = ANALYZER.analyze(text, speaker="x", people=people)
    return [o.text for c in analysis.clauses for o in c.old]


def test_a_name_chosen_after_a_lower_case_article_is_the_name() -> None:
    assert "Anchor" in _values("ok going with the Anchor, back room, still the 31st at 6pm",
                               Kind.CHOICE)
    assert "Boathouse pub" in _values("going with the Boathouse pub instead, same night 7pm",
                                      Kind.CHOICE)
    # "The Lake" written so is the whole name
    assert "The Lake" in _values("ok going with The Lake then", Kind.CHOICE)


def test_a_swap_takes_the_second_and_leaves_the_first() -> None:
    text = "one more change: swapping North Reef for Kettle Cove, Gull Rock stays"
    assert "Kettle Cove" in _values(text, Kind.CHOICE)
    assert "North Reef" in _old(text)
    assert "102 refractor" in _values("replacing the ETX with the 102 refractor.", Kind.CHOICE)
    # whom one swaps with, or a person swapped in, is no new value
    assert _values("can I swap shifts with Tom on friday", Kind.CHOICE) == []
    assert _values("swapping you in for lewis then", Kind.CHOICE) == []


def test_what_a_vote_settled_on_is_chosen_and_a_game_won_is_not() -> None:
    assert _values("shirts result: black wins 14-6. ordering next week", Kind.CHOICE) == [
        "black"]
    assert _values("poll closed, Ridgeway won the vote", Kind.CHOICE) == ["Ridgeway"]
    assert _values("Spurs won 2-0 lol", Kind.CHOICE) == []
    assert _values("we won 3-1 last night", Kind.CHOICE) == []


def test_someone_stepping_in_is_named_with_their_title() -> None:
    text = ("change for the 19th: Prof. Alvarez had to cancel (family thing), Dr. Hemi Walker "
            "is stepping in with a talk on meteorites same time")
    assert _values(text, Kind.PERSON) == ["Dr. Hemi Walker"]
    # a title ends no sentence, and names a person
    assert _values("talk on the 19th is Prof. Alvarez on variable stars", Kind.PERSON) == [
        "Prof. Alvarez"]
    assert _values("Sam will fill in for the first hour", Kind.PERSON) == ["Sam"]
    # a bare verb names nobody: "log EVERY fill in the book"
    assert _values("Until then log EVERY fill in the book pls", Kind.PERSON) == []


def test_he_or_she_doing_it_is_the_one_person_just_named() -> None:
    people = ("Pete Gallagher", "Mei Lin", "Tom Reilly")
    assert _values("Pete has the D1 licence so he's driving.", Kind.PERSON, people) == ["Pete"]
    # two people named: which one is not said; a condition gives nobody the task
    assert _values("Tom told Pete he's driving", Kind.PERSON, people) == []
    assert _values("Pete says it's fine if he takes the freeway", Kind.PERSON, people) == []


def test_someone_on_the_thing_instead_takes_it_over() -> None:
    people = ("Fran Doyle", "Yusuf Ali", "Tom Reilly")
    assert "Yusuf" in _values("so Yusuf's on the stall with me instead", Kind.PERSON, people)
    # someone on the train is going somewhere, not doing a task
    assert _values("Tom's on the train now, be there soon", Kind.PERSON, people) == []


def test_who_reports_a_change_is_no_value_of_it() -> None:
    text = ("community center says the heating in room B is broken, moving the workshop to "
            "the Grange. same date and time")
    claims = claims_of(text)
    assert ("community center" not in [v for _, v, _ in claims]
            and "Grange" in [v for _, v, k in claims if k is Kind.CHOICE])
    # a venue confirming is the one chosen
    assert "Fenwick Quay" in [v for _, v, _ in claims_of("Fenwick Quay confirmed, that's all "
                                                         "12 again")]


def test_an_occasion_named_after_its_day_is_no_day() -> None:
    assert _values("Black Friday goes live Fri 29 Nov 00:01", Kind.DATE) == [
        "Fri 29 Nov 00:01"]
    assert _values("ok, 30 hrs from 6 Jan. I'll tell her after Black Friday", Kind.DATE) == [
        "6 Jan"]
    assert _values("see you friday", Kind.DATE) == ["friday"]


def test_the_name_a_choice_is_instead_of_is_left() -> None:
    assert _old("code is GLOW25 instead of WICK20") == ["WICK20"]
    assert _old("going with a minibus instead of car-sharing.") == ["car-sharing"]
    # named once, left once
    assert _old("correction to the rules: the grand final is Bo7, not Bo5.") == ["Bo5"]


def test_a_number_moved_from_after_the_word_it_numbers_is_replaced() -> None:
    text = "we've been moved from stall 14 to stall 23"
    assert replaced_at(text, text.index("14"), text.index("14") + 2)
    assert not replaced_at(text, text.index("23"), text.index("23") + 2)


def test_a_measure_written_with_a_space_is_the_one_written_without() -> None:
    assert "12m" in unit_forms("capping it at 12 m, bottom time unchanged")
    assert "12 m" in spelled_out("12m")
    assert spelled_out("7pm") == ()


def test_another_thing_of_the_kind_names_its_own_word() -> None:
    asked = frozenset({"lab", "meet"})
    said = "committee meeting got moved, so it's now Tue 11 June"
    assert named_otherwise("committee meeting", "lab meeting", said, asked)
    # the word the question names it by is said: the same thing
    assert not named_otherwise("committee meeting", "lab meeting", said + " (lab too)", asked)
    # no word of its own: the same thing said shorter
    assert not named_otherwise("meeting", "lab meeting", said, asked)


def test_a_later_change_of_another_meeting_leaves_the_one_asked_about(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maya", "quick housekeeping: lab meeting stays mondays 10:00 in the seminar room"),
        (DAY, "maya", "change of plan for lab meetings: I'm teaching the Monday slot from next "
                      "week, so lab meeting moves to Wednesdays 2pm. same room"),
        (3 * DAY, "priya", "my thesis committee meeting is confirmed for Tue 4 June 10am"),
        (14 * DAY, "priya", "committee meeting got moved, one of the externals can't do the "
                            "4th, so it's now Tue 11 June, still 10am"),
    ], start=START, asked=datetime(2024, 5, 28, 12, 0, tzinfo=UTC))
    answer = chat.answer("when's lab meeting these days?")
    first = answer.answer.splitlines()[0].lower()
    assert not answer.abstained and "wednesday" in first and "june" not in first


def test_a_venue_chosen_after_a_proposal_is_the_current_one(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maya", "end of season BBQ: proposing Fri 31 May at the beach hut, 6pm. objections?"),
        (40, "aoife", "forecast for the 31st looks grim tbh, what about the Anchor instead"),
        (50, "maya", "ok going with the Anchor, back room, still the 31st at 6pm"),
    ], start=START, asked=datetime(2024, 5, 20, 12, 0, tzinfo=UTC))
    answer = chat.answer("where's the end of season bbq happening?")
    first = answer.answer.splitlines()[0]
    assert not answer.abstained and "Anchor" in first and "beach hut" not in first


def test_the_deed_said_with_no_one_named_is_the_speakers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mei", "we need a minibus for saturday, can someone book one?"),
        (10, "pete", "I can drive it, got the licence"),
        (20, "rosa", "minibus booked ✅ pickup from Riverside Van Hire Fri 27th at 5pm, Pete "
                     "collecting"),
        (30, "tom", "Sam booked the hall for the party on the 30th"),
    ], start=START, asked=datetime(2024, 5, 20, 12, 0, tzinfo=UTC))
    assert chat.first("who booked the minibus?").lower().startswith("rosa")
    # a deed said of someone named is theirs, though they never spoke
    assert chat.first("who booked the hall?").lower().startswith("sam")


def test_words_that_look_like_the_new_rules_but_are_not() -> None:
    people = ("Dan", "Sam", "Tom", "Mei", "Jo")
    # a word opening the sentence is no first name; a possessor is not who does it
    assert _values("Today Dan is stepping in as ref", Kind.PERSON, people) == ["Dan"]
    assert _values("Sam's brother has the van so he's driving", Kind.PERSON, people) == []
    # on the bus or a form filled in gives no one a task
    assert _values("Tom's on the bus instead, will be 20 late", Kind.PERSON, people) == []
    assert _values("Mum will fill in the form tonight", Kind.PERSON, people) == []
    # a swap for nothing named, a game's result, a doubt after a choice
    assert _values("swapped the batteries for new ones, mic works now", Kind.CHOICE) == []
    assert _values("FT result: Rovers won 3-1", Kind.CHOICE) == []
    assert _old("going with Luigi's, not sure what time yet") == []
    # a place before "says" later in the clause stays the value; "good friday" in lower
    # case is a Friday
    assert "Studio 2" in _values("standup moving to Studio 2 says Jo, same time", Kind.PLACE)
    assert _values("looks good friday 7pm works for me", Kind.DATE) == ["friday 7pm"]
