"""What a question's verbs weigh, praise that names nothing, and one change in other words:

- a verb the chat never says ("is the cleaner *still coming*", "why are we *sticking with*
  rivendell", "when does it *wrap up*", "brought *forward*", "what did it *finally* come to")
  says what happens to the subject, so the subject's messages still answer;
- "why did training get *delayed*" is asked of the change told as "*pushed back* a week",
  not of a later move told in other words;
- "we can't" puts nothing forward; "…, so we can get in at 4pm instead of 6pm" is settled,
  not a proposal; "Can we shift the radiothon to …" says a change;
- "Good spot. Yes, let's go for the 21st." under a proposal to move the radiothon takes the
  radiothon's date up, not a state called "spot";
- "we're going back to navy" and "I'm thinking four Shure SM7Bs" name their choice.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.analysis.definitions import SpeechAct
from memory.analysis.value_types import Kind
from tests.support.chat_reader import channel_chat, written_reader
from tests.support.claims import ANALYZER, claims_of
from tests.support.memory import msg, thread_first

START = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
DAY = 60 * 24


def _acts(text: str) -> list[SpeechAct]:
    return [c.act for c in ANALYZER.analyze(text, speaker="x").clauses]


def test_a_verb_never_said_does_not_outweigh_the_subject(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kiri", "thinking we get a cleaner every fortnight, $120 a visit so $24 each. "
                    "thoughts?"),
        (30, "lena", "yes pls, the bathroom is a crime scene"),
        (2 * DAY, "hannah", "Radiothon start time – can we go 10am instead of 8am? Nobody "
                            "is free at 8 on a Saturday"),
        (2 * DAY + 15, "priya", "Agreed, 10am to 10pm then."),
        (4 * DAY, "priya", "Staying on Rivendell: the mAirList licence alone is more than our "
                           "whole tech budget for the year."),
        (6 * DAY, "karl", "Big change on Vireo: their stand at the Munich trade fair got moved "
                          "up, so they need the catalogue a week earlier. New final delivery is "
                          "Friday 7 March."),
    ], start=START, asked=START + timedelta(days=8))
    assert not chat.answer("is the cleaner still coming every fortnight?").abstained
    assert "10pm" in chat.first("what time does the radiothon wrap up")
    assert "budget" in chat.first("why are we sticking with rivendell")
    assert "fair" in chat.first("why did vireo get brought forward")


def test_a_change_asked_in_other_words_is_the_one_told_so() -> None:
    from memory.analysis.question import analyze_question
    from memory.analysis.question_lexicon import QuestionLexicon
    from memory.models import ChainEntry, Verdict
    from memory.reader.answer_parts import _changed_by

    def entry(i: int, value: str, quote: str) -> ChainEntry:
        return ChainEntry(node_id=f"n{i}", message_id=str(i), value=value, speaker="sofia",
                          ts=START + timedelta(days=i), quote=quote, verdict=Verdict.REVISE)

    chain = [
        entry(1, "Saturday 24 May", "Bit of a snag: half the new volunteers are students with "
                                    "exams that weekend. Training's pushed back a week to "
                                    "Saturday 24 May, still 10am."),
        entry(2, "Tuesdays", "Volunteer training is moving to Tuesdays, same 6pm, from next "
                             "week – the yoga group has the green room on Saturdays now."),
    ]
    qa = analyze_question("why did training get delayed a week?")
    families = QuestionLexicon().change_families
    assert _changed_by(chain, qa) is None
    found = _changed_by(chain, qa, families)
    assert found is not None and found.message_id == "1"
    assert _changed_by(chain, analyze_question("why did training get moved to tuesdays?"),
                       families) is chain[1]


def test_what_follows_or_cannot_be_is_no_proposal() -> None:
    assert SpeechAct.PROPOSAL not in _acts("then we can't use the 12th. pushing cryo-EM to "
                                           "Feb 19, scope 1")
    assert SpeechAct.PROPOSAL not in _acts("the yoga class finishes early that Friday, so we "
                                           "can get in at 4pm instead of 6pm.")
    assert SpeechAct.PROPOSAL in _acts("so we can do 4pm?")
    shift = ANALYZER.analyze("Can we shift the radiothon to Saturday 21 June?", speaker="x")
    assert max(c.change for c in shift.clauses) >= 0.5


def test_praise_for_a_proposal_names_no_subject(tmp_path: Path) -> None:
    first = thread_first(tmp_path, [
        msg(1, "hannah", "Radiothon kick-off! Proposing Saturday 14 June for the radiothon, "
                         "fundraising target £5,000."),
        msg(2, "priya", "Works for me.", thread="1", reply_to="1", minutes=10),
        msg(3, "hannah", "Uh oh. Just realised the city carnival is on Saturday 14 June – the "
                         "high street is shut. Can we shift the radiothon to Saturday 21 June?",
            minutes=3000),
        msg(4, "priya", "Good spot. Yes, let's go for the 21st.", thread="3", reply_to="3",
            minutes=3010),
    ])
    assert "21" in first("so what date is the radiothon now?")
    spot = [c for c in ANALYZER.analyze("Good spot. Yes, let's go for the 21st.",
                                        speaker="x").clauses if c.text.startswith("Good")]
    assert spot and spot[0].act is SpeechAct.CONFIRMATION


def test_a_choice_taken_again_or_thought_of_is_named() -> None:
    assert any(v == "navy" for _, v, _ in claims_of("we're going back to navy. sorry for the "
                                                     "whiplash"))
    assert not claims_of("I'm going back to bed")
    assert any(v == "four Shure SM7Bs" for _, v, _ in claims_of(
        "I'm thinking four Shure SM7Bs, they're the standard for talk radio."))


def test_a_meeting_named_by_procedural_words_is_the_subject() -> None:
    assert [s for s, _, _ in claims_of("Weekly status call stays Mondays at 9:30, same "
                                       "link.")] == ["weekly status call"]
    assert [s for s, _, _ in claims_of("Status call: any chance we push it to 10:00?")
            ] == ["status call"]
    assert all("call" not in s for s, _, _ in claims_of("good call, friday it is"))


def test_the_sentence_before_so_is_the_whole_reason() -> None:
    reading = ANALYZER.analyze(
        'The coworking space just told me Tuesdays are now their "community events" day – '
        "loud, and the big table's taken. So our office day is Thursday from this week.",
        speaker="mia")
    assert "community events" in reading.reason and "table" in reading.reason


def test_a_name_made_of_the_questions_words_is_the_thing_not_who(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "hannah", "Bad news: Harbour Books have pulled out of sponsoring. Working on "
                      "alternatives."),
        (3 * DAY, "hannah", "We have a new headline sponsor! Kestrel Credit Union are in, and "
                            "they'll cover the prize draw."),
        (3 * DAY + 5, "declan", "Hannah you absolute machine"),
    ], start=START, asked=START + timedelta(days=5))
    assert "hannah" in chat.first("who landed the credit union sponsorship?").lower()


def test_a_date_asked_before_a_move_skips_the_hours_in_its_chain(tmp_path: Path) -> None:
    from memory.analysis.question import analyze_question
    from memory.models import ChainEntry, State, Verdict

    def entry(i: int, value: str) -> ChainEntry:
        return ChainEntry(node_id=f"n{i}", message_id=str(i), value=value, speaker="hannah",
                          ts=START + timedelta(days=i), quote=value,
                          verdict=Verdict.ESTABLISH if i == 0 else Verdict.REVISE)

    chain = [entry(0, "Saturday 14 June"), entry(1, "the 21st"), entry(2, "10am to 10pm")]
    state = State(state_id="s1", platform="slack", space="T1", channel="C1",
                  topic="radiothon", value="10am to 10pm", active_node_id="n2",
                  updated_at=START + timedelta(days=2), chain=chain)
    composer = written_reader(tmp_path, []).composer
    asked = analyze_question("what was the radiothon date before it got moved?")
    assert composer.previous_entry(asked, state).value == "Saturday 14 June"
    assert composer.previous_entry(
        analyze_question("what was the radiothon before it got moved?"), state
    ).value == "the 21st"
    foray = state.model_copy(update={"chain": [entry(0, "Sat Oct 3"), entry(1, "10th"),
                                               entry(2, "SUN Oct 11")]})
    assert composer.previous_entry(
        analyze_question("what date was the foray before it moved to sunday"), foray
    ).value == "10th"


def test_a_change_of_plan_on_a_thing_names_the_thing() -> None:
    reading = ANALYZER.analyze("Change of plan on the mics. The SM7Bs need a proper preamp, so "
                               "we're swapping to four Rode PodMics.", speaker="tom")
    assert reading.clauses[0].subject == "mics"


def test_a_plan_dropped_by_those_who_made_it_is_cancelled() -> None:
    dropped = claims_of("no stress at all. let's drop the cleaner and just do a proper "
                        "cleaning rota ourselves")
    assert [(s, v) for s, v, k in dropped if k is Kind.STATUS] == [("cleaner", "drop")]
    assert not [v for _, v, k in claims_of("let's drop by the office at 3") if k is Kind.STATUS]
    assert not [v for _, v, k in claims_of("we're dropping the price to 10")
                if k is Kind.STATUS]


def test_a_week_or_part_of_a_month_is_a_date() -> None:
    from memory.text import find_slots

    for said in ("arriving the first week of October", "the last week of March works",
                 "mid-June"):
        assert any(s.kind.value == "date" for s in find_slots(said)), said
        assert any(k is Kind.DATE for _, _, k in claims_of(said)), said


def test_a_choice_taken_by_its_pronoun_is_the_name_before_it() -> None:
    assert any(v == "Northwind Logistics" and k is Kind.CHOICE for _, v, k in claims_of(
        "Northwind Logistics came in cheaper, going with them"))
    assert all("reckon" not in s for s, _, _ in claims_of(
        "internet: reckon we go with Wattle Net, 100 Mbps for $75/month."))
