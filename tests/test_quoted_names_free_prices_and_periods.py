"""Values written in ways the slot patterns did not read, and subjects that share only what
happens to them:

- a name in quotes, as titles and products are written ('title: "Under the Old Bridge"'),
  is a named choice, and its first word ("Under", "When") opens no question; words quoted
  in lower case ('the ban is "a joke"') are no name;
- a price set to nothing ("it's free with a donation", "free entry") is an amount, and a
  value said to be dropped ("dropping the $6") is the one replaced; being free to do
  something ("are you free tuesday?", "the room is free at 3") is no price;
- a period set or changed in days, weeks or months ("cut the trial from 3 months to 6
  weeks") and a temperature ("over 28°C") are amounts;
- two subjects sharing only a word of what happens ("prints arriving", "kayak arrives")
  name two things: a new date for one never revises the other;
- a turn just before a change naming the weekdays it leaves with what gets in their way
  ("junior swim tue + thu afternoons … would clash") is why it changed;
- whom the speaker got a thing from ("got the key off tom") no longer holds it;
- a clause opened by what it is about ("re bar staff pay, …", "regarding the float, …")
  names its subject as a header would;
- "I'll do them, I've got the files already" takes on the task the talk is about (a
  pronoun's task), not one named by the words after it;
- a value naming the thing before the word of its change ("why was the course on the 16th
  cancelled") is the value the change left, so the change asked is the one leaving it;
- a change verb opening a question with its new value ("cut his trial from 3 months to 6
  weeks?") puts the change forward, and a yes with a remark of its own ("yes. tell her on
  friday") takes up the value put forward;
- caps ("max 5", "5 max."), a short first name ("sky" for Skylar, not "max"), the time right
  after a day ("tonight! 7pm") and "the first deadline" (the original value).

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.definitions import QuestionKind
from memory.analysis.matching import same_counted, shared_verbs_only
from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.reader.extract import Person, short_for
from memory.reader.when_values import clock_beside
from memory.text import content_terms
from tests.support.chat_reader import channel_chat
from tests.support.claims import ANALYZER, claims_of, values_of

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 7, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def test_a_quoted_name_is_a_choice_and_asks_nothing() -> None:
    text = 'final name: "When Lanterns Fall". moody but not grim'
    assert ("name", "When Lanterns Fall", Kind.CHOICE) in claims_of(text)
    analysis = ANALYZER.analyze(text, speaker="x")
    assert not analysis.question and not analysis.asks
    assert "Harbour Mist" in values_of('going with "Harbour Mist" for the walls', Kind.CHOICE)
    assert values_of('he said the ban is "a joke" tbh', Kind.CHOICE) == []
    assert values_of('tagline ideas: "Built to be handed down"', Kind.CHOICE) == []
    # a real question still asks
    assert ANALYZER.analyze("when is the launch party?", speaker="x").question


def test_a_price_set_to_nothing_is_an_amount() -> None:
    claims = claims_of("kids craft hour pricing: dropping the $6, it's free with a gold coin "
                       "donation now")
    assert _money(claims) == ["free"]
    assert "free" in values_of("museum late: free entry for members", Kind.MONEY)
    for not_a_price in ("are you free tuesday?", "the room is free at 3",
                        "i'm free all afternoon", "feel free to swap shifts"):
        assert values_of(not_a_price, Kind.MONEY) == [], not_a_price


def _money(claims: list[tuple[str, str, Kind]]) -> list[str]:
    return [v for _, v, k in claims if k is Kind.MONEY]


def test_periods_and_temperatures_are_amounts() -> None:
    assert "6 weeks" in values_of("cut the trial period from 3 months to 6 weeks", Kind.COUNT)
    assert "45 days" in values_of("ban is now 45 days", Kind.COUNT)
    assert "28°C" in values_of("new rule: over 28°C, no midday sessions", Kind.COUNT)
    assert "30 degrees" in values_of("it's 30 degrees in the hall", Kind.COUNT)


def test_subjects_sharing_only_what_happens_are_two_things(tmp_path: Path) -> None:
    assert shared_verbs_only(set(content_terms("prints arriving")),
                             set(content_terms("kayak arrives")))
    assert not shared_verbs_only(set(content_terms("kayak arriving")),
                                 set(content_terms("kayak arrives")))
    chat = channel_chat(tmp_path, [
        (0, "ruth", "Rowing Club said yes! kayak arrives 6 july, they'll drop it off"),
        (9 * DAY, "ruth", "archive update: scanning finished early, prints arriving 13 july"),
    ], start=START, asked=ASKED, channel_name="exhibition")
    answer = chat.answer("when does the kayak arrive?")
    assert "6 july" in answer.answer.splitlines()[0].lower()
    assert "13 july" not in answer.answer.splitlines()[0].lower()


def test_a_free_price_replaces_the_dropped_one(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "holiday workshops: tue + thu 10am, $8 a kid"),
        (5 * DAY, "priya", "workshop pricing: dropping the $8, it's free with a gold coin "
                           "donation. more families will come"),
    ], start=START, asked=ASKED, channel_name="education")
    first = chat.first("how much do the holiday workshops cost per kid now?")
    assert "free" in first.lower() and "$8" not in first


def test_a_clash_on_the_weekdays_left_is_why_they_moved(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "nell", "kids clay club: tue + thu 4pm, £5 a go"),
        (2 * DAY, "nell", "hmm the leisure centre runs junior swim tue + thu afternoons. "
                          "half our families would clash"),
        (2 * DAY + 10, "nell", "moving kids clay club to mon + wed, still 4pm"),
    ], start=START, asked=ASKED, channel_name="classes")
    assert "swim" in chat.first("why did kids clay club change days?")


def test_whom_a_thing_came_from_no_longer_holds_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tom", "I've got the Greens' key. can't do their walks from next week so ana can "
                   "you take them + the key?"),
        (DAY, "ana", "sure, I'll grab it off you friday"),
        (3 * DAY, "ana", "got the Greens' key off tom ✅"),
    ], start=START, asked=ASKED, channel_name="keys")
    assert chat.first("who's got the greens key now?").lower().startswith("ana")


def test_a_clause_opened_by_what_it_is_about_names_its_subject() -> None:
    assert ("bar staff pay", "£12.50", Kind.MONEY) in claims_of(
        "re bar staff pay, I'd like to go from £11.90 to £12.50 an hour from may")
    assert any(s == "float" and v == "£200" for s, v, _ in claims_of(
        "regarding the float, £200 from now on"))
    # "re" as a word of its own is no header
    assert not any(s == "doing" for s, _, _ in claims_of("we're re doing it, fine"))


def test_taking_a_task_by_its_pronoun_names_no_other_task() -> None:
    claims = claims_of("I'll do them, I've got the illustrator files already")
    assert [(s, k) for s, _, k in claims] == [("", Kind.PERSON)]
    assert [(s, k) for s, _, k in claims_of("I'll do it, I know the printer")] == [
        ("", Kind.PERSON)]
    assert ("poster", Kind.PERSON) in [(s, k) for s, _, k in claims_of("I'll do the poster")]


def test_a_value_naming_the_thing_before_its_change_word_is_the_one_left(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "hana", "also: dog first aid course sat 16 May 9am-1pm at the village hall. "
                    "everyone's going, it's paid"),
        (9 * DAY, "hana", "bad news, the first aid trainer's got flu so tomorrow's course is "
                          "cancelled. she's offered sat 30th instead"),
    ], start=START, asked=ASKED, channel_name="team")
    assert "flu" in chat.first("why was the first aid course on the 16th cancelled?")


def test_a_change_put_forward_as_a_question_and_taken_up_by_a_yes(tmp_path: Path) -> None:
    for text in ("cut his trial from 3 months to 6 weeks?", "push the stocktake to friday?"):
        assert ANALYZER.analyze(text, speaker="x").act.value == "proposal", text
    chat = channel_chat(tmp_path, [
        (0, "hana", "ola's doing really well. cut her trial period from 3 months to 6 weeks?"),
        (5, "joel", "yes. tell her on friday"),
    ], start=START, asked=ASKED, channel_name="owners")
    assert "6 weeks" in chat.first("how long is ola's trial period now?")


def test_counts_caps_short_names_and_firstvalues_of() -> None:
    # a count of one thing is no new count of another; units of time are one measure
    assert not same_counted("7 heats", "4 pilots")
    assert same_counted("6 weeks", "3 months")
    assert same_counted("150 forest green tees", "100 black tees")
    assert "5" in values_of("group walks still max 5, licence is in", Kind.COUNT)
    assert "5" in values_of("5 max. I know the licence says 6", Kind.COUNT)
    assert values_of("doors close at max 5pm", Kind.COUNT) == []
    sky = Person("Skylar Benton", frozenset({"skylar", "benton"}))
    sam = [Person("Samira Haddad", frozenset({"samira", "haddad"})),
           Person("Samuel Ito", frozenset({"samuel", "ito"}))]
    assert short_for("sky", [sky, *sam]) == [sky]
    assert short_for("sam", sam) == []  # two names it cuts short
    assert short_for("max", [Person("Maxine Ruiz", frozenset({"maxine", "ruiz"}))]) == []
    assert clock_beside("karaoke tonight! 7pm, Lucky Voice", "tonight") == "7pm"
    assert analyze_question("what was the first deadline for the prop order?").kind is (
        QuestionKind.ORIGINAL)
