"""Places named in lower case, links without their scheme, changes announced before they
are said, and the turns around a decision:

- a lower-case name after a verb that puts something somewhere ("moves to the red lion",
  "chairs moved to the old scout hut", "the tasting is at the copper kettle") or after a
  day or time ("tue 16 sept at the crown, 7:45") is a place; "at the moment", "moved to
  the 14th", "moves to the afternoon", "switching to the new booking system", where people
  are ("geoff and i are at the trade show") and what a place costs ("to cover hall hire")
  name none, and a word of talk ("tbh") is no choice;
- a header whose head is a pronoun ("quick one:") names no subject, a header naming a facet
  "for" a thing ("venue change for the semi") names the thing, and a day the change takes
  effect on opening the clause ("from march the yoga class moves …") neither is the subject
  nor, beside the thing's new weekday, its value; "the last friday at the old hall will be
  27 march" is no last week's friday;
- a correction under a header naming only a facet ("correction on the venue news: it's
  fridays …, not tuesdays") revises the state holding the value it names as replaced, and
  the time asked of the day it moved to is the one kept ("still 6pm");
- a link written without its scheme ("bit.ly/fair-signup-v3") is never a value;
- a thread opened by a blocker naming a plan's day ("can't have 20 people in a freezing
  studio on the 14th") is about that plan: "sat 21st then, same 10am" moves its day (the
  time kept does not undo it), and the blocker is why;
- a time told as something that happened ("moaning they came down at 10:05") is no value;
- the reader: the time said right after the question's own word ("gates 6:45") over the
  first one; a value of a pass or a bundle named before it ("pass of 10 classes £100");
  the latest answer deciding the value asked over the value the asking turn gave; the
  reason beside the value the message changes to, not its first; an announcement ("ok one
  more tweak", "bit of a change") and the speaker's next step ("i'll tell the 9 who've
  booked") are no reason; whose idea a value was is who put it forward before someone took
  it up; "someone needs to bring …" asks for a taker; "be out of the hall" asks when a
  span ends; a day asked is read from the message that says it; who holds something is not
  answered by a value naming nobody ("gym").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.lexicon import Lexicon
from memory.analysis.reason_words import says_no_reason
from memory.analysis.taking_words import TASK_REQUEST
from memory.analysis.time_bounds import bound_cue, bound_time
from memory.analysis.value_types import Kind
from memory.models import Scope
from memory.reader.extract import reason_in
from memory.subject_marks import spoken_of
from tests.support.chat_reader import ChannelChat, channel_chat, chat_author, written_reader
from tests.support.claims import claims_of

START = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
ASKED = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def _places(text: str) -> list[str]:
    return [v for _, v, k in claims_of(text) if k is Kind.PLACE]


def test_a_lower_case_name_where_something_is_put_is_a_place() -> None:
    assert "the red lion" in _places("from june the book club moves to the red lion")
    assert "the old scout hut" in _places("spare tables moved to the old scout hut, top shelf")
    assert "the copper kettle" in _places("reminder the tasting is at the copper kettle")
    assert "the crown" in _places("cup draw: us vs the owls, tue 16 sept at the crown, 7:45")
    assert "the copper kettle" in _places("venue change for the semi: it's at the copper "
                                          "kettle now")
    assert ("semi", "the copper kettle", Kind.PLACE) in claims_of(
        "venue change for the semi: it's at the copper kettle now")
    for none in ("we're at the limit for this month", "standup moved to the 14th",
                 "see you friday at the latest", "geoff and i are at the trade show",
                 "we're switching to the new booking system (Bookwise) on mon 16 feb",
                 "the launch moved to the new booking system",
                 "the review moves to the afternoon", "it is at the moment"):
        assert _places(none) == [], none


def test_an_announcing_header_and_an_effective_day_name_no_subject() -> None:
    claims = claims_of("📢 quick one: from march the yoga class moves to tuesdays at 6pm")
    assert ("yoga class", "tuesdays at 6pm", Kind.DATE) in claims
    assert not any(v == "march" for _, v, _ in claims)  # only when the change starts
    assert not any(s in ("quick", "march") for s, _, _ in claims)
    # a day said "from" to "to" is a range of a change, not when it takes effect
    assert ("standup", "10", Kind.TIME) in claims_of("moving standup from 9 to 10")


def test_a_correction_under_a_facet_header_revises_the_value_it_names(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ana", "yoga class is mondays 7pm at the church hall"),
        (DAY, "ana", "📢 big one: from march the yoga class moves to tuesdays at 6pm"),
        (2 * DAY, "ana", "correction on the venue news: it's FRIDAYS at the church hall from "
                         "march, not tuesdays — they have choir on tues. still 6pm"),
    ], start=START, asked=ASKED, channel_name="studio")
    answer = chat.answer("what day is the yoga class going to be?")
    assert "fri" in answer.answer.splitlines()[0].lower()
    assert [e.value for e in answer.states[0].chain] == [
        "mondays 7pm", "tuesdays at 6pm", "FRIDAYS"]
    # the day moved keeps its time ("still 6pm")
    assert "6pm" in chat.first("what time does the yoga class start now?")


def test_a_link_without_its_scheme_is_no_value() -> None:
    markup = Lexicon().markup
    for link in ("bit.ly/fair-signup-v3", "forms.gle/kx-spring-rapid", "eventbrite.com"):
        assert markup.search(f"sign up here {link} pls"), link
    for no_link in ("v2.3 ships friday", "e.g. the hall", "£6.50 each", "mail a@b.com"):
        assert not markup.search(no_link), no_link
    assert not any(v == "v3" for _, v, _ in claims_of("new sign-up form: bit.ly/fair-signup-v3"))


def test_an_announcement_is_no_reason() -> None:
    for header in ("ok one more tweak", "bit of a change 😬", "small change", "change of plan"):
        assert says_no_reason(header), header
    assert not says_no_reason("the hall flooded so no session")
    reason = reason_in("ok one more tweak — dana pointed out that with the ferry at 11:40 we "
                       "need to be packed by 11:15, so let's start at 8:30 instead of 9",
                       value="8:30")
    assert "ferry" in reason


def test_the_reader_on_the_thing_asked_and_the_change_it_gave(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "yv", "7:30 kick-off it is, gates 6:45"),
        (DAY, "mo", "class prices from march: £12 a class, pass of 10 classes £100"),
        (2 * DAY, "bea", "bit of a change 😬 the hall on sat 14th has a wedding so there's "
                         "no room for us. moving the swap shop to sunday 15th — doors 10am"),
    ], start=START, asked=ASKED, channel_name="club")
    assert "6:45" in chat.first("what time do the gates open?")
    assert "£100" in chat.first("how much is a pass of 10?")
    assert "wedding" in chat.first("why did the swap shop move to the sunday?")


def test_the_answer_deciding_the_value_over_the_asking_turns(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "bea", "book club thurs as usual? the red lion 8pm"),
        (30, "phil", "heads up from the landlord: book club starts 8:30 from this week not 8, "
                     "they moved the food service later"),
    ], start=START, asked=ASKED, channel_name="books")
    # (the asking turn names more of the question's words than the answer)
    assert "8:30" in chat.first("what time does the thursday book club kick off at the red "
                                "lion now?")


def test_a_day_said_blocked_in_a_thread_root_is_the_plan_a_reply_moves(tmp_path: Path) -> None:
    say = chat_author(space="T1", channel="C1", channel_name="bookings", start=START)
    root = say(DAY, "shona", "bad news, studio boiler has packed in and the engineer can't "
                             "come till the 17th. can't have 20 people in a freezing studio on "
                             "the 14th")
    threaded = [m.model_copy(update={"thread_id": root.id}) for m in (
        say(DAY + 8, "karim", "push it a week?"),
        say(DAY + 15, "shona", "sat 21st then, same 10am. i'll tell the 9 who've booked"))]
    reader = written_reader(tmp_path, [
        say(0, "shona", "first aid course is sat 14 feb, 10am at the studio, 20 places"),
        root, *threaded])
    chat = ChannelChat(reader, Scope(platform="slack", space="T1", channels=("C1",)), ASKED)
    answer = chat.answer("what date is the first aid course now?")
    assert "21st" in answer.answer.splitlines()[0]
    assert [e.value for e in answer.states[0].chain][-1] == "sat 21st"
    assert "boiler" in chat.first("why did the first aid course get moved back a week?")
    assert spoken_of("can't have 20 people in a freezing studio on the 14th", "the 14th")
    # a day someone is free on is no plan they speak of
    assert not spoken_of("free on the 14th to help me move", "the 14th")


def test_the_speakers_next_step_is_no_reason() -> None:
    for step in ("i'll tell the 9 who've booked", "will update the poster", "ok i'll rebook"):
        assert says_no_reason(step), step
    assert not says_no_reason("i'll be away that week so can't run it")


def test_whose_idea_is_the_turn_that_put_the_value_forward(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lin", "entry fee? we did £5 last year"),
        (3, "yv", "could we do £8 this time? costs are up"),
        (6, "phil", "£8 might put people off"),
        (9, "lin", "£6 and throw in a tea or coffee?"),
        (14, "yv", "ok £6 incl a cuppa, done"),
    ], start=START, asked=ASKED, channel_name="fundraiser")
    assert chat.first("whose idea was the £6 entry with a cuppa?").startswith("lin")


def test_someone_needs_to_asks_for_a_taker(tmp_path: Path) -> None:
    assert TASK_REQUEST.search("slides: using the old deck, someone needs to bring the projector")
    assert not TASK_REQUEST.search("someone needed a lift so i drove")
    chat = channel_chat(tmp_path, [
        (0, "fi", "scoring: using the app again, someone needs to bring the club tablet"),
        (10, "sam", "i'll bring it"),
    ], start=START, asked=ASKED, channel_name="tournament")
    assert chat.first("who's bringing the tablet for scoring?").startswith("sam")


def test_a_places_cost_and_a_word_of_talk_are_no_values() -> None:
    assert claims_of("we need the entry money to cover hall hire tbh, free doesn't work") == []
    assert "the church hall" in _places("moving it to the church hall")
    assert _places("who has the church hall keys?") == []


def test_being_out_of_a_place_asks_when_it_ends() -> None:
    cue = bound_cue("what time do we have to be out of the scout hall?")
    assert cue == ("end", "out")
    assert bound_time("caretaker says we have to be out by 10:45 sharp, last time we overran "
                      "to 11", *cue) == "10:45"
    assert bound_time("they need us out of the function room by 6:15 so they can flip it",
                      *cue) == "6:15"
    assert bound_cue("when do the results come out?") == ("", "")


def test_the_last_of_a_series_told_by_a_date_is_no_date() -> None:
    claims = claims_of("last friday at the old hall will be 27 march, then the first friday at "
                     "the new place is 3 april")
    assert not any(v.lower().endswith("friday") for _, v, _ in claims)
    assert any(v == "27 march" for _, v, _ in claims)
    assert any(v == "last friday" for _, v, _ in claims_of("we met last friday"))


def test_a_time_told_in_passing_in_a_reply_changes_nothing(tmp_path: Path) -> None:
    say = chat_author(space="T1", channel="C1", channel_name="front-desk", start=START)
    root = say(0, "fiona", "Heads up team: from Mon 9th breakfast will finish at 10:30 instead "
                           "of 10am. Start stays 7.")
    reply = say(20, "priya", "about time 🙌 we've had 4 reviews this month moaning they came "
                             "down at 10:05 and the buffet was already cleared")
    reader = written_reader(tmp_path, [root, reply.model_copy(update={"thread_id": root.id})])
    chat = ChannelChat(reader, Scope(platform="slack", space="T1", channels=("C1",)), ASKED)
    assert "10:30" in chat.first("what time does breakfast finish these days?")
    assert not any(v == "10:05" for _, v, _ in claims_of(reply.text))
    assert any(v == "10:05" for _, v, _ in claims_of("they'll come down at 10:05 from now on"))


def test_a_day_asked_is_read_from_the_message_saying_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "yv", "right, charity quiz! village hall is booked fri 25 sept. thinking 7:30 "
                  "start, tables of up to 6"),
        (2 * DAY, "lin", "start at 7 then instead of 7:30?"),
        (2 * DAY + 5, "yv", "7pm start it is, doors 6:30"),
    ], start=START, asked=ASKED, channel_name="quiz")
    assert "25" in chat.first("what's the date of the charity quiz?")


def test_who_is_not_answered_by_a_value_naming_nobody(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "tariq", "gaming room: Room B, 32 players max"),
        (DAY, "tariq", "ok power problem SOLVED. Jordan got us the gym instead of room B!! "
                       "gaming room = the gym"),
    ], start=START, asked=ASKED, channel_name="programming")
    assert not chat.first("who got us the gym?").lower().startswith("gym")

