"""Telling one thing from another when their words are alike.

* A thing of one month ("Feb dark-sky night") is not the one of another ("January dark-sky
  night"), whether the month is written short or in full.
* Two values weighed against each other ("3 weeks vs 10 is a no brainer") decide neither.
* "switching from Pett Level to Winchelsea Beach" names the place it goes from, though no
  pattern knows that name.
* "Taking over the lift chasing from Declan" is the speaker's; "Ciara's collecting" is
  Ciara's.
* "someone posted seashell2025 … new one is tidepool88": the new one is the value given.
* A question about "the 4th of july weekend" asks about that weekend, not this one.

Real write path (offline proposer, HashingEmbedder) and the offline reader; the analyzer
where only a message's reading is asked."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.reader.coverage_days import question_days
from memory.reader.when_values import calendar_day
from memory.subject_marks import other_month
from tests.support.chat_reader import channel_chat
from tests.support.claims import claims_of

DAY = 60 * 24
_A = MessageAnalyzer()


def _claims(text: str, speaker: str = "Fatima Rahman") -> list[tuple[str, str, str]]:
    """(kind, value, subject) of every claim, said in a chat of Declan, Ciara and
    ``speaker``."""
    return [(k.value, v, s) for s, v, k in claims_of(
        text, speaker=speaker, people=["Declan Murphy", "Ciara Doyle", speaker])]


def _old(text: str) -> list[str]:
    return [o.text for c in _A.analyze(text, speaker="zoe").clauses for o in c.old]


def test_a_month_short_or_long_names_its_own_instance() -> None:
    assert other_month("feb dark-sky night", "january dark-sky night")
    assert other_month("sept newsletter", "august newsletter")
    assert not other_month("jan dark-sky night", "January dark-sky night")
    assert not other_month("feb general meeting", "feb general meeting speaker")


def test_next_months_night_leaves_this_months_alone(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dan", "January dark-sky night: Sat Jan 25 at Miller's farm. Observing from "
                   "7:30pm"),
        (3 * DAY, "arjun", "nice, I'll bring the big dob"),
        (20 * DAY, "dan", "Feb dark-sky night will be the 22nd, details next week"),
    ], start=datetime(2025, 1, 8, 9, 0, tzinfo=UTC),
        asked=datetime(2025, 1, 29, 12, 0, tzinfo=UTC))
    first = chat.first("what day is the january dark-sky night?")
    assert "25" in first and "22" not in first


def test_values_weighed_against_each_other_decide_neither() -> None:
    assert _claims("👍 3 weeks vs 10 is a no brainer") == []
    assert [c[1] for c in _claims("$450 vs $1,400. I'll take it")] == ["Fatima Rahman"]
    # a day before an opponent named after "vs" stays the day
    assert ("date", "tomorrow", "scrim") in _claims("scrim tomorrow vs Pulse, 7:30")
    # what something is compared to is only its measure: the first value stands
    assert [c[1] for c in _claims("it's £40 compared to £55 last year")] == ["£40"]


def test_a_comparison_revises_no_length_of_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "leo", "honestly 2 weeks in January is nothing. From now on loaner checkout is "
                   "4 weeks"),
        (6 * DAY, "leo", "Change of plan on the recoat: Majestic's turnaround is 8-10 weeks, "
                         "Spectrum can do it in 3. Sending it to Spectrum instead"),
        (6 * DAY + 20, "dan", "👍 3 weeks vs 10 is a no brainer"),
    ], start=datetime(2025, 1, 16, 18, 0, tzinfo=UTC),
        asked=datetime(2025, 2, 1, 12, 0, tzinfo=UTC))
    first = chat.first("how long is loaner checkout now?")
    assert "4 weeks" in first and "3 weeks" not in first


def test_the_name_a_place_goes_from_is_the_old_one() -> None:
    text = "So we're switching from Pett Level to Winchelsea Beach. He's fine with us there"
    assert _old(text) == ["Pett Level"]
    assert ("place", "Winchelsea Beach", "") in _claims(text)
    assert _old("moving from The Anchor to the Crown Inn on friday") == ["The Anchor"]
    # lower-case words are no name the place goes from
    assert _old("switching from the usual spot to Winchelsea Beach") == []


def test_who_takes_a_task_over(tmp_path: Path) -> None:
    assert ("person", "Fatima Rahman", "lift chasing") in _claims(
        "Taking over the lift chasing from Declan since he's away next week.")
    assert ("person", "Ciara", "collecting") in _claims(
        "so it's €5 per flat instead of €10. Ciara's collecting")
    assert ("person", "Sam", "teas") in _claims("Sam's on teas this week")
    assert not any(c[0] == "person" for c in _claims("Sam's on holiday till the 3rd"))
    # nobody in particular holds a task; a client collected for does not
    assert not any(c[0] == "person" for c in _claims("Everything's sorting itself out"))
    assert not any(c[0] == "person" for c in _claims("Mrs Cooper collecting at 5:30"))
    chat = channel_chat(tmp_path, [
        (0, "declan", "I've logged it with Apex, ref APX-55817. I'll keep chasing them"),
        (10 * DAY, "fatima", "Taking over the lift chasing from Declan since he's away next "
                             "week. Just spoke to Apex: engineer is coming Monday"),
        (10 * DAY + 30, "declan", "thanks Fatima 🙏"),
    ], start=datetime(2024, 4, 8, 9, 0, tzinfo=UTC),
        asked=datetime(2024, 4, 30, 12, 0, tzinfo=UTC))
    assert chat.first("who is chasing the lift now").startswith("fatima")


def test_the_value_said_new_is_the_one_given(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "jamal", "guest wifi password is still seashell2025 right?"),
        (5, "marco", "yep seashell2025"),
        (13 * DAY, "jamal", "Changing the guest wifi password today, someone posted "
                            "seashell2025 in a Google review 🤦 new one is tidepool88, "
                            "printing new cards"),
    ], start=datetime(2025, 5, 6, 13, 0, tzinfo=UTC),
        asked=datetime(2025, 5, 30, 12, 0, tzinfo=UTC))
    assert "tidepool88" in chat.first("whats the guest wifi password")


def test_a_weekend_named_by_its_day_is_that_weekend() -> None:
    asked = datetime(2025, 5, 30, 12, 0, tzinfo=UTC)
    days = question_days(analyze_question(
        "how many rooms are we holding for 4th of july weekend"), asked)
    assert days and all(d.start.month == 7 for d, _ in days)
    days = question_days(analyze_question("who is working this weekend"), asked)
    assert [d.start.day for d, _ in days] == [31]
    # dues are money
    assert analyze_question("what are dues going up to this year?").family == "money"


def test_a_venue_noun_keeps_the_name_after_it() -> None:
    claims = _claims("Switching catering to Bistro Marée, they've confirmed ✅")
    assert ("place", "Bistro Marée", "catering") in claims
    # the verb opening the sentence is nobody
    assert not any(c[0] == "person" for c in claims)
    # a day after a name is no part of it
    assert ("place", "Cafe Nero", "") in _claims("we're at Cafe Nero Tuesday")
    assert ("date", "Tuesday", "") in _claims("we're at Cafe Nero Tuesday")


def test_a_short_weekday_held_is_given_its_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "maya", "Read-through: Thursday 12 Sept, 7pm at mine"),
        (60, "dev", "The Crown's back room is booked on Thursday. Read-through moves to wed"),
    ], start=datetime(2024, 9, 5, 9, 0, tzinfo=UTC),
        asked=datetime(2024, 9, 9, 12, 0, tzinfo=UTC))
    first = chat.first("when's the read-through")
    assert "wed" in first and "11 September" in first
    # a weekday beside a day of the month does not say the day alone
    assert calendar_day("tues 23rd", datetime(2024, 9, 9, 12, tzinfo=UTC), short=True) == ""



def test_a_title_and_its_full_stop_stay_with_the_name() -> None:
    claims = _claims("Feb general meeting: Thu Feb 6, 7pm. Speaker is Dr. Elena Ruiz from "
                     "Vassar on exoplanet transits!")
    assert any(c[1] == "Dr. Elena Ruiz" for c in claims)
    assert not any(c[1] == "Dr" for c in claims)


def test_hours_moved_keep_the_day_held(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ruth", "Library Kids' Astronomy Night is ON 🎉 Sat Feb 1, 5–7pm at Beacon "
                    "library. I need 4 scopes + a few volunteers"),
        (14 * DAY, "ruth", "Kids astronomy night now starts at 4:30 instead of 5 so the "
                           "little ones can see the crescent"),
    ], start=datetime(2025, 1, 6, 10, 0, tzinfo=UTC),
        asked=datetime(2025, 1, 25, 12, 0, tzinfo=UTC))
    first = chat.first("when is the library astronomy night")
    assert "4:30" in first and "1 February" in first


def test_a_name_said_to_be_now_the_thing_is_its_value() -> None:
    claims = _claims("Off the back of last night: v8 (blue pages) is now the shooting script, "
                     "please bin v7.")
    assert ("choice", "v8", "shooting script") in claims
    assert ("choice", "The Albion", "venue") in _claims("The Albion is now the venue")
    # what something in lower case is now stays its value
    assert ("choice", "Albion", "venue") in _claims("the venue is now the Albion")
    assert ("choice", "kiosk", "") in _claims("ok meeting point for sunday is now the kiosk at "
                                              "the top of the slipway instead")


def test_what_the_new_rules_leave_alone() -> None:
    # a new value weighed against what it was is still the new value
    assert [c[1] for c in _claims("studio rent is going up to £1,450 vs £1,300 now")] == [
        "£1,450"]
    assert [c[1] for c in _claims("Unit cost is now £3.20 vs £2.90 before")] == ["£3.20"]
    # a pronoun is no name a thing is now
    assert ("choice", "final version", "") in _claims("This is now the final version.")
    # time off, an outside body chasing someone, a question: no holder
    for text in ("Priya's on mute", "Jo's on lunch", "HMRC's chasing the VAT return",
                 "Legal's chasing us for the signed NDA",
                 "Taking over the lift chasing from Declan?"):
        assert not any(c[0] == "person" for c in _claims(text)), text
    # a name ending in -ing with a verb of its own is a name
    assert ("person", "Yiming", "") in _claims("Yiming will take the minutes")
    # a route is no change of place
    assert _old("Shuttle from Pett Level to Winchelsea Beach leaves at 6") == []
    # a day after a titled name is no part of it
    assert any(c[1] == "Dr. Patel" for c in _claims("Speaker is Dr. Patel Thursday"))
    # a month's instance is the state whose value is in that month
    assert not other_month("oct board meeting", "board meeting", "Thursday 16 Oct, 6pm")
    # a weekday with more than its time is no one day; said on that weekday it is that day
    said = datetime(2025, 5, 7, 9, tzinfo=UTC)  # a Wednesday
    assert calendar_day("wed nights", said, short=True) == ""
    assert calendar_day("sat or sun", said, short=True) == ""
    assert "7 May" in calendar_day("wed 7pm", said, short=True)
    # a short weekday in running text is no day unless it is known to be one
    assert calendar_day("wed 7pm", said) == ""
    # a weekend named by no day is this weekend
    days = question_days(analyze_question("who's working the long weekend?"), said)
    assert [d.start.day for d, _ in days] == [10]


def test_a_day_gone_by_is_not_added_to_moved_hours(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "Choir practice is Wed 7pm"),
        (20 * DAY, "ana", "choir practice now starts at 7:30 instead of 7"),
    ], start=datetime(2025, 5, 1, 10, 0, tzinfo=UTC),
        asked=datetime(2025, 5, 28, 12, 0, tzinfo=UTC))
    first = chat.first("when is choir practice?")
    assert "7:30" in first and "May" not in first
