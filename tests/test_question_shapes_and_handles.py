"""A question's shape, names written as handles, and measures written either way:

- after "how often do backups" / "when did zed" comes the verb saying what happens ("run",
  "become"): it names no thing, so a chat saying "backups go … every 6 hours" answers;
- how far a change moved something ("delayed *a week*") is said of the change, not asked;
- a value noun inside a name the chat writes in capitals ("Small Hours", a show) names the
  thing, not the kind of value asked ("what day does small hours come out");
- "mara" is the "@urbanjunglemara" a chat mentions; "6h" the "every 6 hours" it says;
- "200k views" counts views, no amount of money; "60-second clip" is a length; "4x Rode
  PodMic" counts four;
- "Ines recording is now 10:30 not 10" replaces a time, and a plan's time said alone is
  answered with the day the plan was set for;
- "what's Ines's mobile number" asks a number a record is known by, not a day;
- "We'll drop Otter at the end of the month" calls Otter off; "who are we hosted with"
  asks a business, not a person; "She's" / "she’s" names no subject.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.analysis.definitions import SpeechAct
from memory.analysis.question import analyze_question, words
from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.analysis.question_verbs import change_amounts, subject_verbs
from memory.analysis.value_types import Kind
from memory.reader.coverage_names import in_handles, name_cased
from memory.reader.word_forms import spelled_out, unit_forms
from memory.text import find_slots
from tests.support.chat_reader import channel_chat
from tests.support.claims import ANALYZER, claims_of

START = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def _verbs(question: str) -> tuple[str, ...]:
    lows = [w.low for w in words(question)]
    return subject_verbs(lows, 0, skip=DEFAULT_LEXICON.question_words)


def test_the_verb_after_a_questions_subject_is_read_by_its_shape() -> None:
    assert _verbs("how often do backups run now") == ("run",)
    assert _verbs("when did zed become a full mod?") == ("become",)
    assert _verbs("when will the vans arrive") == ("arrive",)
    assert _verbs("when did kwame's van get fixed") == ("get", "fixed")
    assert _verbs("when does dune go live?") == ("go",)
    assert _verbs("sale still ending on the 15th?") == ("ending",)
    # the question word is the subject, or "did" is the verb: no verb after a subject; what
    # the asker does is what they ask about ("where do we park")
    assert _verbs("who will run the stall") == ()
    assert _verbs("who did the flyers") == ()
    assert _verbs("where do we park at the venue?") == ()
    assert analyze_question("how often do backups run now").verbs == ("run",)


def test_a_verb_the_chat_never_says_does_not_block_the_answer(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "toaster", "region file corrupted, restoring from last night's backup. we lose ~14h"),
        (20, "toaster", "restored. and after this, backups go from once a day at 4am to every "
                        "6 hours. not losing 14h of progress again"),
        (40, "kestrel", "good call"),
        (DAY, "pablo", "spawn islands are like 40% done, builders need more time"),
    ], start=START, asked=START + timedelta(days=3))
    answer = chat.answer("how often do backups run now")
    assert not answer.abstained and "6 hours" in chat.first("how often do backups run now")
    # "6h" is the "6 hours" the chat spelled out
    assert not chat.answer("why are backups every 6h now").abstained


def test_how_far_a_change_moved_it_is_not_its_subject() -> None:
    lows = [w.low for w in words("why did training get pushed back two days")]
    assert change_amounts(lows, lambda w: w == "pushed") == {6, 7}
    assert analyze_question("why was s5 delayed a week?").terms == ("s5",)
    assert analyze_question("why did the deadline slip by 3 days").terms == ("deadline",)


def test_a_value_noun_inside_a_name_names_the_thing(tmp_path: Path) -> None:
    named = analyze_question("what day does Small Hours come out now?")
    assert "hours" not in named.attributes and named.asks_day and not named.asks_clock
    texts = ["ok, Small Hours goes out on Thursdays starting 5 March.",
             "Small Hours gets its best numbers on a Thursday", "we work long hours lol"]
    lexicon = DEFAULT_LEXICON
    assert name_cased("what day does small hours come out now?", texts, lexicon.attributes,
                      skip=lexicon.question_words) == "what day does Small Hours come out now?"
    assert name_cased("how many hours did we log", texts, lexicon.attributes,
                      skip=lexicon.question_words) == "how many hours did we log"
    chat = channel_chat(tmp_path, [
        (0, "priya", "Pulled the analytics: Small Hours does best when it drops on a "
                     "Thursday. Proposal: switch release day to Thursday"),
        (60, "maya", "ok let's do it, Small Hours goes out on Thursdays starting 5 March"),
        (17 * DAY, "maya", "No point fighting Dirt Roads for the same ears. Let's make Small "
                           "Hours a Wednesday show instead, first Wednesday drop 4 March"),
    ], start=START, asked=START + timedelta(days=20))
    assert "Wednesday" in chat.first("what day does small hours come out now?")


def test_a_name_may_be_part_of_a_handle(tmp_path: Path) -> None:
    assert in_handles(["mara", "zed", "creeperking", "box"],
                      "@urbanjunglemara; welcome zeddy_zz; xXcreeperkingXx; boxco") == {
        "mara", "zed", "creeperking"}
    assert [s.kind.value for s in find_slots("Mara's reel hit 200k views")] == ["number"]
    assert [s.kind.value for s in find_slots("budget is 20k")] == ["money"]
    chat = channel_chat(tmp_path, [
        (0, "hannah", "Replacement influencer: @urbanjunglemara, 42k followers but real ones. "
                      "£450 for 2 reels + stories. Booked for sale week"),
        (20 * DAY, "hannah", "Mara's reel hit 200k views 👀 best thing we've ever put out"),
    ], start=START, asked=START + timedelta(days=25))
    assert "42k" in chat.first("how many followers does mara have")


def test_measures_written_short_or_spelled_out_are_one() -> None:
    assert spelled_out("6h")[0] == "6 hours" and spelled_out("shed") == ()
    forms = unit_forms("backups go to every 6 hours, standup is 30 mins")
    assert {"6h", "6hrs", "30min"} <= forms
    # "4x Rode PodMic" counts four of them ("how many podmics did we get")
    assert [(s.kind.value, s.text) for s in find_slots("Let's get 4x Rode PodMic instead")
            ] == [("number", "4x")]


def test_lengths_and_replaced_times_are_read_as_such() -> None:
    assert [value for _, value, _ in claims_of(
        "Reels plan: 60-second clip from each episode, posted the day after release")] == [
        "60-second"]
    clause = next(c for c in ANALYZER.analyze(
        "Heads up: Ines recording is now 10:30 not 10, I've updated the pinned confirmation",
        speaker="lena").clauses if c.old)
    assert [(o.text, o.kind) for o in clause.old] == [("10", Kind.TIME)]


def test_a_time_said_alone_is_answered_with_its_day(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "lena", "Studio A it is. Ines recording confirmed: Wed 11 March, 10am, Studio A"),
        (30, "jonah", "👍 I'll prep the octopus questions"),
        (7 * DAY, "lena", "Heads up: Ines recording is now 10:30 not 10, I've updated the "
                          "pinned confirmation"),
    ], start=datetime(2026, 3, 2, 14, 40, tzinfo=UTC),
        asked=datetime(2026, 3, 10, 9, 0, tzinfo=UTC))
    first = chat.first("when are we recording with Ines")
    assert "10:30" in first and "11 March" in first


def test_a_phone_number_is_a_number_a_record_is_known_by(tmp_path: Path) -> None:
    assert analyze_question("what's Ines's mobile number?").record
    chat = channel_chat(tmp_path, [
        (0, "lena", "Confirmed with Ines: Wed 11 March, 10:30am, Studio A"),
        (10, "tomasz", "booked"),
    ], start=datetime(2026, 3, 2, 14, 40, tzinfo=UTC),
        asked=datetime(2026, 3, 10, 9, 0, tzinfo=UTC))
    assert chat.answer("what's Ines's mobile number?").abstained


def test_what_we_will_drop_is_called_off() -> None:
    acts = [c.act for c in ANALYZER.analyze("We'll drop Otter at the end of the billing month",
                                            speaker="maya").clauses]
    assert SpeechAct.CANCELLATION in acts
    assert SpeechAct.CANCELLATION not in [
        c.act for c in ANALYZER.analyze("we'll drop by later", speaker="maya").clauses]


def test_who_we_are_hosted_with_is_a_business() -> None:
    qa = analyze_question("who are we hosted with now?")
    assert qa.role == "supplier" and qa.family == "name"


def test_a_pronoun_with_its_verb_is_no_subject() -> None:
    # "She's in London the week of 9 March" says where and when she is, about no "she's";
    # chat apps type the apostrophe curly as often as straight
    for text in ("Dr Ines Alvarado said yes for ep 42! She's in London the week of 9 March",
                 "she’s in Leeds on friday", "He’s off until the 14th"):
        assert all(subject == "" for subject, _, _ in claims_of(text)), text
