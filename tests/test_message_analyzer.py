"""The message analyzer: speech acts, typed values, subjects and reasons, each rule checked
on several wordings and on near misses it must not fire on."""

from __future__ import annotations

import pytest

from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalysis, MessageAnalyzer

A = MessageAnalyzer(Lexicon())
PEOPLE = ["Marcus Lee", "Priya Nair", "Björn Lindqvist", "Kwame Asante", "Sofia Greco"]


def analyze(text: str, speaker: str = "Sam Ortiz") -> MessageAnalysis:
    return A.analyze(text, speaker=speaker, people=PEOPLE)


def claims(text: str) -> list[tuple[str, str, str]]:
    """(kind, value, subject) of every claim."""
    return [(c.value.kind.value, c.value.text, c.subject) for c in analyze(text).claims]


# ---- speech acts ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "could we move standup to 10?",
    "how about The Lake?",
    "can we do 4 pm instead?",
    "what about eu-central-2 for dr?",
    "maybe Thursday works better",
    "proposing $18k across Meta + Apple Search Ads",
    "$12k?",
])
def test_proposals(text: str) -> None:
    assert analyze(text).act is SpeechAct.PROPOSAL


@pytest.mark.parametrize("text", [
    "when is the design review?",
    "who's got the cert renewal?",
    "does anyone know the wifi password?",
    "fyi the invite still says 04:00 end, stale?",
    "where are we having lunch",
])
def test_questions_that_suggest_nothing(text: str) -> None:
    a = analyze(text)
    assert a.act is SpeechAct.QUESTION
    assert a.question


@pytest.mark.parametrize("text", [
    "no, keep 02:00",
    "nah stay on frankfurt",
    "no, keeping 9:30",
    "sticking with tuesday, I'll record it for you",
    "let's not move it, Thursday stays",
])
def test_rejections(text: str) -> None:
    assert analyze(text).act is SpeechAct.REJECTION


@pytest.mark.parametrize("text", [
    "no problem",            # thanks, not a rejection
    "no more changes 🙏",    # closes a discussion
    "nope",
])
def test_rejection_near_misses_decide_nothing(text: str) -> None:
    assert not analyze(text).claims


@pytest.mark.parametrize(("text", "new", "old"), [
    ("correction: Dec 18, not the 20th", "Dec 18", "the 20th"),
    ("correction on the upgrade: target is 16.8 not 16.7", "16.8", "16.7"),
    ("going with eu-central-1 instead of eu-west-1", "eu-central-1", "eu-west-1"),
    ("it's build 415 going to Apple, not 412", "build 415", "412"),
    ("Postgres 16 instead of 15", "16", "15"),
    ("sorry, I meant Friday 3pm, not Thursday", "Friday 3pm", "Thursday"),
])
def test_corrections_name_the_replaced_value(text: str, new: str, old: str) -> None:
    a = analyze(text)
    assert a.act is SpeechAct.CORRECTION
    assert [v.text for v in a.values] == [new]
    assert old in [v.text for c in a.clauses for v in c.old]


@pytest.mark.parametrize(("text", "person", "subject"), [
    ("Handing the release notes over to Marcus", "Marcus", "release notes"),
    ("handing off the on-call pager to Priya", "Priya", "on-call pager"),
    ("Priya takes over on-call from Sam", "Priya", "on-call"),
    ("björn will drive the pg cutover", "björn", "pg cutover"),
    ("Kwame owns the launch checklist now", "Kwame", "launch checklist"),
])
def test_reassignments_and_owners(text: str, person: str, subject: str) -> None:
    got = [(v, s) for k, v, s in claims(text) if k == "person"]
    assert got == [(person, subject)]


@pytest.mark.parametrize(("text", "subject"), [
    ("push is mine now", "push"),
    ("I'll own QA signoff for 2.4", "QA signoff for 2.4"),
    ("I'll take the release notes", "release notes"),
    ("me, I'll do it next wed", ""),
    ("i got it", ""),
])
def test_first_person_claims_are_the_speaker(text: str, subject: str) -> None:
    people = [(v, s) for k, v, s in claims(text) if k == "person"]
    assert people == [("Sam Ortiz", subject)]


@pytest.mark.parametrize("text", [
    "The Harbor review went well",           # a capitalised noun, no doer verb
    "submitting 2.4 build 412 to App Review",
    "Android 2.4 is in internal testing on Play now",
    "Prod is on 2.2.3",
    "any chance we can move the Harbor review?",
])
def test_person_near_misses(text: str) -> None:
    assert not [c for c in claims(text) if c[0] == "person"]


@pytest.mark.parametrize(("text", "value"), [
    ("standup is cancelled this week", "cancelled"),
    ("redis maint thu is called off", "called off"),
    ("offsite postponed indefinitely", "postponed indefinitely"),
    ("the hackathon is off", "off"),
    ("we scrapped the Friday demo", "scrapped"),
])
def test_cancellations_end_a_plan(text: str, value: str) -> None:
    a = analyze(text)
    assert a.act is SpeechAct.CANCELLATION
    assert [v.text for v in a.values] == [value]


@pytest.mark.parametrize("text", [
    "the launch is postponed until Tuesday Nov 12",   # a new date, not an end
    "standup moves to 10 tomorrow",
    "we cancelled the old card and moved billing to Friday",
])
def test_cancellation_near_misses(text: str) -> None:
    assert analyze(text).act is not SpeechAct.CANCELLATION


@pytest.mark.parametrize("text", [
    "reminder: review tomorrow at 3",
    "Reminder: offsite prep in room B all day today",
    "don't forget the checklist before the review",
    "friendly reminder that expense reports are due Friday",
    "just a reminder: the freeze starts at 18:00",
])
def test_reminders(text: str) -> None:
    assert analyze(text).act is SpeechAct.REMINDER


@pytest.mark.parametrize("text", ["+1", "ok", "sounds good", "works for me", "ack", "👍 sure"])
def test_acknowledgements_agree(text: str) -> None:
    a = analyze(text)
    assert a.agrees
    assert not a.claims


# ---- values --------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "kind", "value"), [
    ("booked Mama Ife's ✅ deposit sent", "choice", "Mama Ife's"),
    ("that's wild. halibut instead of cod on the summer menu", "choice", "halibut"),
    ("ok change of plan — the brass quartet instead!!", "choice", "brass quartet"),
    ("kinloch confirmed ✅ same dates", "choice", "kinloch"),
    ("hired Brightframe for the launch shoot", "choice", "Brightframe"),
    ("window sat 15th 02:00-04:00 cet", "range", "sat 15th 02:00-04:00 cet"),
    ("moved to Fri Oct 18 at 11am", "date", "Fri Oct 18 at 11am"),
    ("embargo moved to the 12th 6am PT", "date", "the 12th 6am PT"),
    ("Launch date is now Tuesday 26 Nov", "date", "Tuesday 26 Nov"),
    ("the team lunch is next Friday (the 15th)", "date", "next Friday (the 15th)"),
    ("the 16 upgrade is postponed until January", "date", "January"),
    ("review is in conf room B", "place", "conf room B"),
    ("costume contest in the kitchen", "place", "the kitchen"),
    ("the staging cluster goes in us-east-1", "region", "us-east-1"),
    ("launch ads capped at $15k", "money", "$15k"),
    ("we settled on 3 screens", "count", "3 screens"),
    ("that'll be build 418", "version", "build 418"),
    ("switching to Taqueria Luna", "choice", "Taqueria Luna"),
])
def test_value_kinds(text: str, kind: str, value: str) -> None:
    assert (kind, value) in [(k, v) for k, v, _ in claims(text)]


@pytest.mark.parametrize(("text", "subject", "value"), [
    ("Since the review got bounced, 3.2 now ships December 18", "3.2 ship date",
     "December 18"),
    ("2.4 slips to Tuesday Oct 29", "2.4", "Tuesday Oct 29"),
    ("Atlas design review moved again: Friday at 11 am in room Vega", "atlas design review",
     "Friday at 11 am"),
    ("finance cut the RI budget to €36k", "RI budget", "€36k"),
    ("Outing decided: bowling alley", "outing", "bowling alley"),
    ("Target for the iOS App Store release is Thursday Oct 24", "iOS App Store release",
     "Thursday Oct 24"),
    ("We decided the release will be version 2.3", "release version", "2.3"),
])
def test_subjects_are_what_people_would_say(text: str, subject: str, value: str) -> None:
    assert (value, subject) in [(v, s) for _, v, s in claims(text)]


@pytest.mark.parametrize("text", [
    "Poll's closed: Friday 10am it is",
    "Final answer: Friday 10am",
    "Update: Friday 10am",
    "Reminder: Friday 10am",
    "ok so, final: Friday 10am",
    "Save the date: Friday 10am",
])
def test_procedural_labels_name_no_subject(text: str) -> None:
    assert all(s == "" for _, _, s in claims(text))


@pytest.mark.parametrize("text", ["let's walk instead", "venue confirmed for friday",
                                  "going with eu-central-1 instead of eu-west-1",
                                  "harbour hotel booked: 3 rooms, 2 twins each",
                                  "the hall is booked out 2-4 may",
                                  "going with a 3-screen onboarding instead of 5 screens"])
def test_no_lower_case_choice_in_a_verb_or_a_subject(text: str) -> None:
    assert "choice" not in [k for k, _, _ in claims(text)]


@pytest.mark.parametrize("text", [
    "ya I got it",
    "yea I'll take it",
])
def test_a_reply_word_names_no_subject(text: str) -> None:
    assert all(s == "" for _, _, s in claims(text))


def test_a_number_alone_names_no_subject() -> None:
    assert A.analyze("the 405 is jammed, 6 works", speaker="Sara").subject == ""


@pytest.mark.parametrize(("text", "reason"), [
    ("review slips to Friday because Grace is travelling", "Grace is travelling"),
    ("Since the review got bounced, 3.2 now ships December 18", "the review got bounced"),
    ("Friday's all-hands is cancelled due to Maya being out sick", "Maya being out sick"),
    ("the sync engine changes the storage format, so we're calling it 2.4",
     "the sync engine changes the storage format"),
    ("launch slipped a week over the HealthKit crash", "the HealthKit crash"),
])
def test_reasons(text: str, reason: str) -> None:
    assert analyze(text).reason == reason


@pytest.mark.parametrize("text", [
    "since Monday the build is green",    # "since" as time
    "after lunch I'll check",             # "after" as time
    "Priya takes over on-call from Sam",  # "over" of "take over"
])
def test_reason_near_misses(text: str) -> None:
    assert analyze(text).reason == ""


# ---- lines that never bear state --------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "micah stubbs uploaded a file: Screen Shot 2016-05-03 at 16.34.09.png",
    "alice has joined the channel",
    "bob set the channel topic: releases on Fridays",
    "carol pinned a message to this channel.",
    "dan shared a file: roadmap-v2.pdf",
])
def test_platform_lines_are_system(text: str) -> None:
    a = analyze(text)
    assert a.system and not a.claims


@pytest.mark.parametrize("text", [
    "see https://example.com/reply=225363078 for details",
    "notes in <https://wiki.acme.io/pm/2024-11-07|the postmortem>",
    "attached report-2024-11-05.pdf",
    "<@U04DEV> ping",
])
def test_urls_and_file_names_are_never_values(text: str) -> None:
    assert not analyze(text).claims


def test_bounded_input_on_adversarial_text() -> None:
    """Every pattern runs on input cut to the lexicon's bound, so a pathological message is
    read (and its tail ignored) rather than stalling the writer."""
    hostile = ("1" * 5000 + " to " + "a-" * 5000 + " room " + "B" * 3000 + " " +
               "Monday, " * 2000 + "12:00-" * 2000)
    a = analyze(hostile)
    assert len(a.text) <= A.lexicon.max_chars
