""""What time …?" is answered by a time of day: when the message naming the subject's day
also states one time (in another sentence, or joined to a weekday), that time answers with
it; a message stating several times is not guessed from."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.reader.when_values import when_in
from tests.support.chat_reader import channel_chat

T0 = datetime(2025, 2, 10, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 2, 20, 9, 0, tzinfo=UTC)


def test_the_one_time_a_plan_states_answers_what_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "grace", "sat 2/22 practice: first time driving the real bot!! aux gym 10am"),
        (5, "leo", "🔥"),
    ], start=T0, asked=ASKED)
    assert "10am" in chat.first("what time is practice on the 22nd?")


def test_the_time_said_with_a_past_event_answers_what_time(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "helena", "reminder: fire alarm test wednesday 11am, nobody panic"),
        (5, "marco", "👍"),
    ], start=T0, asked=ASKED)
    assert "11am" in chat.first("what time was the fire alarm test")


def test_a_message_with_several_times_gives_none_of_them(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "helena", "reminder: fire drill wednesday, 9am for floor 1, 2pm for floor 2"),
        (5, "marco", "👍"),
    ], start=T0, asked=ASKED)
    first = chat.first("what time was the fire drill")
    assert "9am" not in first.split(",")[0] or "2pm" in first


def test_the_day_in_the_part_naming_the_thing_asked_answers(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "ines", "kiln arrives wed the 12th, so the glaze workshop gets pushed back a "
                    "couple of days to saturday the 15th"),
        (5, "omar", "noted"),
    ], start=T0, asked=ASKED)
    assert "15" in chat.first("when is the glaze workshop?").split("(")[0]
    assert "12" in chat.first("when does the kiln arrive?").split("(")[0]


def test_when_in_takes_the_day_of_the_part_naming_the_thing_asked() -> None:
    said = "kiln arrives wed the 12th, so the glaze workshop gets pushed back a couple of " \
           "days to saturday the 15th"
    workshop = analyze_question("when is the glaze workshop?", DEFAULT_LEXICON)
    kiln = analyze_question("when does the kiln arrive?", DEFAULT_LEXICON)
    assert when_in(workshop, said, T0, prefer="future")[0] == "saturday the 15th"
    assert when_in(kiln, said, T0, prefer="future")[0] == "wed the 12th"


def test_a_moment_opening_the_sentence_belongs_to_what_follows() -> None:
    said = "Thursday 6pm, the book club meets at the library to finish the novel we started " \
           "on the 1st"
    club = analyze_question("when does the book club meet?", DEFAULT_LEXICON)
    assert when_in(club, said, T0, prefer="future")[0] == "Thursday 6pm"
