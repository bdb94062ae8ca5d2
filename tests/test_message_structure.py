"""Message structure the analyzer reads before any value: list items with their own
subjects and owners, a header that scopes the whole message, a person's own affairs, place
names, spans versus changes, and the grammar of "make it X", "X's with me", a reason's own
change words. Each rule on several wordings, with near misses it must not fire on."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalysis, MessageAnalyzer
from memory.models import EvidenceNode, Message, Scope, Verdict
from memory.registry import chain_of
from memory.store import MemoryStore
from memory.writer import Writer
from tests.support.memory import msg, open_memory

A = MessageAnalyzer(Lexicon())
PEOPLE = ["Callum Reid", "Yuki Mori", "Beatriz Santos", "Amara Obi", "Lauren", "Rosa",
          "Steph", "Dev", "Felix Wagner", "Owen", "Priya Nair", "Marcus Lee", "Jo"]


def analyze(text: str, speaker: str = "Sam Ortiz") -> MessageAnalysis:
    return A.analyze(text, speaker=speaker, people=PEOPLE)


def claims(text: str, speaker: str = "Sam Ortiz") -> list[tuple[str, str, str]]:
    """(family, value, subject) of every claim."""
    return [(c.value.family, c.value.text, c.subject)
            for c in analyze(text, speaker).claims]


def subject_of(text: str, value: str) -> str:
    return next(s for _, v, s in claims(text) if v == value)


# ---- list items ----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("Weekly roll-up: Atlas 11 Nov, Beacon 2.9 on 4 Nov, Garnet SSO 21 Oct",
     {"11 Nov": "atlas", "4 Nov": "Beacon", "21 Oct": "Garnet SSO"}),
    ("Recap of what's locked: Atlas go-live Mon 28 Oct, Beacon on Mon 4 Nov, Iris wiki "
     "launches Tue 1 Oct", {"Mon 28 Oct": "atlas go-live", "Mon 4 Nov": "Beacon"}),
    ("status this week: Kestrel review Friday, Orchard shoot on Tuesday, Pylon copy due Mar 3",
     {"Friday": "Kestrel review", "Tuesday": "Orchard shoot"}),
    ("where we landed: Helix 1.5, Juniper pilot Lisbon from 14 Oct, Fjord Norway first",
     {"1.5": "Helix", "14 Oct": "Juniper pilot", "Norway": "Fjord"}),
    ("Q4 budgets for sign-off: Cobalt £240k, Juniper £60k, Atlas £410k",
     {"£240k": "cobalt Q4 budgets", "£60k": "Juniper Q4 budgets"}),
])
def test_each_list_item_keeps_its_own_subject(text: str, expected: dict[str, str]) -> None:
    got = {v: s for _, v, s in claims(text)}
    for value, subject in expected.items():
        assert got[value].lower() == subject.lower(), (value, got)


@pytest.mark.parametrize("text", [
    "Atlas go-live Mon 28 Oct (Callum), Beacon on Mon 4 Nov (Yuki), Iris Tue 1 Oct (Beatriz)",
    "Roll-up: Atlas 11 Nov (Callum), Beacon 4 Nov (Yuki)",
    "plan: Atlas launch Nov 11 (Callum), Beacon launch Nov 4 (Yuki), Iris launch Oct 1",
    "timeline: Atlas go-live 11 Nov ( Callum ), Beacon 4 Nov (Yuki)",
    "Atlas 11 Nov (Callum), Beacon 2.9 on 4 Nov (Yuki), Garnet 21 Oct",
])
def test_a_name_in_brackets_owns_its_item(text: str) -> None:
    owners = {v: s for f, v, s in claims(text) if f == "who"}
    assert "Callum" in owners and "atlas" in owners["Callum"].lower()
    assert "Yuki" in owners and "beacon" in owners["Yuki"].lower()


@pytest.mark.parametrize("text", [
    "the venue (Hatch) is booked for Friday",  # a venue named in brackets, no person
    "Atlas go-live moves to 11 Nov (see Callum's note)",
    "launch is Nov 11 (Callum said so)",
    "if Atlas slips to 18 Nov (Callum), we tell sales",
    "Atlas 11 Nov (tentative)",
])
def test_brackets_that_hold_more_than_a_name_give_no_owner(text: str) -> None:
    assert not [v for f, v, _ in claims(text) if f == "who"]


@pytest.mark.parametrize(("text", "owners"), [
    ("Bake sale sign up!! So far: Lauren brownies, Rosa tres leches, Steph cupcakes",
     {"Lauren": "brownies", "Rosa": "tres leches", "Steph": "cupcakes"}),
    ("ok so: Lauren snacks, Dev drinks, Rosa plates", {"Lauren": "snacks", "Dev": "drinks"}),
    ("potluck list: Steph salad, Owen bread, Jo dessert", {"Steph": "salad", "Jo": "dessert"}),
    ("sign-ups so far: Dev setup, Rosa cleanup, Lauren face painting",
     {"Dev": "setup", "Lauren": "face painting"}),
    ("Lauren brownies, Rosa tres leches, Steph cupcakes (4 dozen), Dev lemon bars",
     {"Steph": "cupcakes", "Dev": "lemon bars"}),
])
def test_a_sign_up_list_gives_each_person_their_task(text: str, owners: dict[str, str]) -> None:
    got = {v: s for f, v, s in claims(text) if f == "who"}
    for person, task in owners.items():
        assert task in got[person].lower(), (person, got)


@pytest.mark.parametrize("text", [
    "Dev, can you book it?",
    "thanks Rosa, great job",
    "Lauren said she's in, Dev too",
    "On Friday, we'll meet at 3, then go to dinner",
    "I called Jump Zone for the bouncy castle, $275 for 4 hours plus $40 delivery",
])
def test_sentences_with_commas_are_not_lists(text: str) -> None:
    got = claims(text)
    assert not [v for f, v, _ in got if f == "who" and v in {"Dev", "Rosa", "Lauren"}]


# ---- a header scopes the message -----------------------------------------------------------

@pytest.mark.parametrize(("text", "value", "subject"), [
    ("Atlas: bad news. Data cleansing is way behind. Go-live moves to Mon 11 Nov.",
     "Mon 11 Nov", "atlas go-live"),
    ("Fjord: first market is Sweden. Kickoff in Copenhagen on 17 Sep", "Sweden",
     "fjord first market"),
    ("Dune: the venue is now Leeds", "Leeds", "dune venue"),
    ("re the Dune kickoff: most partners are up north. Changing the venue to the Manchester "
     "office", "Manchester office", "dune kickoff venue"),
    ("Garnet (SSO): target is everyone on Okta by Tue 15 Oct.", "Tue 15 Oct", "garnet target"),
])
def test_an_aspect_under_a_header_is_the_headers_thing(text: str, value: str,
                                                        subject: str) -> None:
    assert subject_of(text, value).lower() == subject


@pytest.mark.parametrize("text", [
    "Garnet: the Okta contract is stuck in procurement. SSO for all staff slips to Tue 22 Oct",
    "Atlas: CRM cleanup is behind, so the go-live slips to 18 Nov",
    "Garnet update: heads up, the SSO cutover moves to Oct 22",
])
def test_claims_carry_the_header_as_scope(text: str) -> None:
    a = analyze(text)
    assert any(c.scope for c in a.claims) or any(
        "garnet" in c.subject.lower() or "atlas" in c.subject.lower() for c in a.claims)


@pytest.mark.parametrize(("text", "value", "wrong"), [
    ("Minutes: the budget is $5k", "$5k", "minutes"),
    ("Weekly roll-up: Atlas 11 Nov", "11 Nov", "weekly"),
    ("Morning notes: standup moves to 10", "10", "notes"),
    ("Recap: lunch is at noon", "noon", "recap"),
    ("Daily digest: the cert expires Apr 14", "Apr 14", "digest"),
])
def test_reporting_headers_and_verbs_name_no_subject(text: str, value: str,
                                                     wrong: str) -> None:
    assert wrong not in subject_of(text, value).lower()


# ---- a person's own affairs ----------------------------------------------------------------

@pytest.mark.parametrize(("text", "value", "subject"), [
    ("Atlas: Callum is off on paternity leave from 1 Nov, so Beatriz takes Atlas",
     "1 Nov", "Callum's paternity leave"),
    ("fyi Priya is out on vacation from the 3rd to the 10th", "the 3rd to the 10th",
     "Priya's vacation"),
    ("Marcus will be away at a conference Tuesday", "Tuesday", "Marcus's conference"),
    ("Jo starts her new role on Monday", "Monday", "Jo's new role"),
    ("Owen starts in Richmond on March 14", "March 14", "Owen's start"),
    ("happy to. Callum and I are doing the handover Thursday", "Thursday", "Callum's handover"),
])
def test_a_person_doing_something_is_their_affair(text: str, value: str, subject: str) -> None:
    assert subject_of(text, value) == subject


@pytest.mark.parametrize(("text", "value"), [
    ("Callum owns the release", "Callum"),
    ("Priya Nair is primary now", "Priya Nair"),
    ("Atlas launch moves to Nov 18", "Nov 18"),
    ("Marcus's team ships on Friday", "Friday"),
    ("the venue is Owen's pick: Hatch on Friday", "Friday"),
])
def test_a_name_that_is_not_the_doer_keeps_its_subject(text: str, value: str) -> None:
    assert "'s conference" not in subject_of(text, value)


# ---- place names, spans and changes ---------------------------------------------------------

@pytest.mark.parametrize(("text", "place"), [
    ("Fjord change: Norway goes first, not Sweden.", "Norway"),
    ("Juniper pilot plan: Ireland first with the Dublin support team", "Ireland"),
    ("Let's run it in Portugal", "Portugal"),
    ("region-wise we're doing UK first", "UK"),
    ("ok Berlin it is", "Berlin"),
])
def test_place_names_are_places(text: str, place: str) -> None:
    assert ("where", place) in [(f, v) for f, v, _ in claims(text)]


@pytest.mark.parametrize(("text", "name"), [
    ("The Oslo partner bank is ready now", "Oslo"),
    ("the Lisbon support team has spare capacity", "Lisbon"),
    ("Dublin office wifi is down again", "Dublin"),
    ("London weather is awful today", "London"),
    ("Paris trip photos are up", "Paris"),
])
def test_a_place_name_before_a_noun_is_not_a_value(text: str, name: str) -> None:
    assert name not in [v for _, v, _ in claims(text)]


@pytest.mark.parametrize(("text", "span"), [
    ("fyi Priya is out on vacation from the 3rd to the 10th", "the 3rd to the 10th"),
    ("offsite runs from the 3rd to the 5th", "the 3rd to the 5th"),
    ("review from Tuesday to Thursday", "Tuesday to Thursday"),
    ("I'm away from Monday to Wednesday", None),
    ("the freeze lasts from Dec 20 to Jan 3", "Dec 20 to Jan 3"),
])
def test_from_to_without_a_change_is_a_span(text: str, span: str | None) -> None:
    a = analyze(text)
    assert not any(c.old for c in a.clauses)
    if span is not None:
        assert span in [v for _, v, _ in claims(text)]


@pytest.mark.parametrize(("text", "old", "new"), [
    ("standup moved from 9:30 to 10", "9:30", "10"),
    ("we are pushing the launch from the 3rd to the 10th", "the 3rd", "the 10th"),
    ("budget from $10k to $12k", "$10k", "$12k"),
    ("shifting the review from Tuesday to Thursday", "Tuesday", "Thursday"),
    ("rescheduled the demo from Mar 3 to Mar 5", "Mar 3", "Mar 5"),
])
def test_from_to_after_a_change_names_the_old_value(text: str, old: str, new: str) -> None:
    a = analyze(text)
    assert old in [v.text for c in a.clauses for v in c.old]
    assert new in [v for _, v, _ in claims(text)]


# ---- small grammar of change ----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "good point. make it the 21st then",
    "make it 4pm",
    "let's make that Thursday",
    "ok make it the Birmingham office",
    "fine, make it $2,100",
])
def test_make_it_x_changes_what_was_discussed(text: str) -> None:
    a = analyze(text)
    clause = next(c for c in a.clauses if c.claims)
    assert clause.change >= 0.5
    assert not clause.claims[0].subject or "make" not in clause.claims[0].subject


@pytest.mark.parametrize("text", [
    "Come to London. Please?", "see everyone on the field at 11!", "join us at 6 in the lobby",
    "bring snacks on Friday", "ping me at 3",
])
def test_a_bare_verb_is_never_a_subject(text: str) -> None:
    assert all(s.lower().split()[:1] != [text.split()[0].lower()] for _, _, s in claims(text))


@pytest.mark.parametrize(("text", "speaker"), [
    ("yep, Cobalt's with me from Monday", "Amara Obi"),
    ("the keys are with me till friday", "Amara Obi"),
    ("Cobalt is with me now", "Felix Wagner"),
    ("the cash box stays with me", "Rosa"),
    ("the projector's with me this week", "Dev"),
])
def test_with_me_makes_the_speaker_the_holder(text: str, speaker: str) -> None:
    assert speaker in [v for f, v, _ in claims(text, speaker) if f == "who"]


@pytest.mark.parametrize("text", [
    "come sit with me at lunch",
    "who's with me on this?",
    "talk with me before friday",
    "Cobalt is done, thanks for bearing with me",
    "bear with me",
])
def test_with_me_in_passing_names_no_holder(text: str) -> None:
    assert not [v for f, v, _ in claims(text, "Dev") if f == "who"]


@pytest.mark.parametrize("text", [
    "Atlas overspend forecast is £35k because of the slip",
    "the deposit is $500 thanks to the venue change",
    "headcount is 12 because hiring slipped",
    "rent is $4,050 due to the delayed repairs",
    "attendance was 31 because the date changed",
])
def test_a_change_in_the_reason_is_not_the_clauses_change(text: str) -> None:
    a = analyze(text)
    assert all(c.change < 0.5 for c in a.clauses if c.claims)


@pytest.mark.parametrize("text", ["happy to.", "glad to!", "happy to", "can do", "with pleasure"])
def test_happy_to_alone_agrees(text: str) -> None:
    a = analyze(text)
    assert a.agrees
    assert not a.question


# ---- through the writer --------------------------------------------------------------------

def _run(tmp_path: Path, messages: list[Message]) -> tuple[MemoryStore, Writer,
                                                             dict[str, EvidenceNode]]:
    store, writer = open_memory(tmp_path)
    writer.write(messages)
    return store, writer, {n.message_id: n for n in store.find_nodes(Scope(space="T1"))}


def _chains(store: MemoryStore, writer: Writer) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for rec in writer.registry.states(("slack", "T1", "C1")):
        out[(rec.topic.lower(), rec.value_family)] = [
            n.value for n in chain_of(store.state_nodes([rec.state_id]))]
    return out


KNOWN = [msg(0, "Callum", "morning"), msg(1, "Yuki", "hi all")]


def test_a_roll_up_revises_each_items_own_state(tmp_path: Path) -> None:
    store, writer, _ = _run(tmp_path, [
        *KNOWN,
        msg(3, "Grace", "Recap of what's locked: Atlas go-live Mon 28 Oct (Callum), "
                        "Beacon on Mon 4 Nov (Yuki)"),
        msg(4, "Callum", "Atlas: bad news, CRM cleanup is behind. Go-live moves to Mon 11 Nov."),
        msg(5, "Yuki", "correction on Beacon: review is slow, so Beacon launches 6 Nov, "
                       "not 4 Nov"),
    ])
    chains = _chains(store, writer)
    assert chains[("atlas go-live", "when")] == ["Mon 28 Oct", "Mon 11 Nov"]
    assert chains[("beacon", "when")] == ["Mon 4 Nov", "6 Nov"]
    assert chains[("atlas go-live owner", "who")] == ["Callum"]


@pytest.mark.parametrize("handover", [
    "Atlas: Callum is off on paternity leave from 1 Nov, so Beatriz takes Atlas through go-live",
    "Beatriz takes over Atlas from next week",
    "Handing Atlas over to Beatriz, Callum is on leave",
])
def test_a_handover_changes_the_items_owner_not_its_date(tmp_path: Path, handover: str) -> None:
    store, writer, _ = _run(tmp_path, [
        *KNOWN,
        msg(3, "Grace", "Roll-up: Atlas go-live 11 Nov (Callum), Beacon 4 Nov (Yuki)"),
        msg(4, "Grace", handover),
    ])
    chains = _chains(store, writer)
    assert chains[("atlas go-live", "when")] == ["11 Nov"]
    assert chains[("atlas go-live owner", "who")][-1] == "Beatriz"


@pytest.mark.parametrize("restate", [
    "Garnet: SSO rollout on Tue 22 Oct confirmed, staff comms go out today",
    "Garnet: still Tue 22 Oct for everyone",
])
def test_a_header_naming_the_state_restates_its_value(tmp_path: Path, restate: str) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Yuki", "Garnet (SSO): target is everyone on Okta by Tue 15 Oct."),
        msg(2, "Yuki", "Garnet: the contract is stuck in procurement. SSO for all staff slips "
                       "to Tue 22 Oct"),
        msg(3, "Yuki", restate),
    ])
    assert nodes["2"].verdict is Verdict.REVISE
    assert nodes["3"].verdict is Verdict.RESTATE
    assert _chains(store, writer)[("garnet target", "when")] == ["Tue 15 Oct", "Tue 22 Oct"]


def test_an_item_about_another_thing_never_revises_by_a_shared_value(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Grace", "Atlas go-live 4 Nov"),
        msg(2, "Yuki", "correction on Beacon: Beacon 2.9 launches 6 Nov, not 4 Nov"),
    ])
    assert _chains(store, writer)[("atlas go-live", "when")] == ["4 Nov"]


def test_a_name_replacing_another_revises_the_state_holding_it(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Henrik", "Fjord: first market is Sweden."),
        msg(2, "Henrik", "Fjord change: Norway goes first, not Sweden."),
    ])
    assert nodes["2"].verdict is Verdict.REVISE
    assert _chains(store, writer)[("fjord first market", "where")] == ["Sweden", "Norway"]


# ---- an announced thing heads the message; rises and drops ---------------------------------

@pytest.mark.parametrize(("text", "value", "word"), [
    ("📣 **FROSTBYTE CUP 2024** is happening!! 3v3 LAN, Saturday August 17 at Pixel Pit",
     "Saturday August 17", "frostbyte"),
    ("the offsite is on! Lisbon, May 12-14, hotel TBD", "Lisbon", "offsite"),
    ("Bowling night is booked. Thursday 7pm at Strike Zone", "Thursday 7pm", "bowling"),
    ("Hack week is back!! Mar 3-7, all teams", "Mar 3-7", "hack"),
    ("The summer party is confirmed. Friday June 20 at the Boathouse", "Friday June 20", "party"),
])
def test_an_announced_thing_heads_what_follows(text: str, value: str, word: str) -> None:
    a = analyze(text)
    claim = next(c for c in a.claims if c.value.text == value)
    assert claim.stated
    assert word in claim.subject.lower() or word in claim.scope


@pytest.mark.parametrize("text", [
    "lunch is on me today",
    "the heating is on again, finally",
    "Maya is back from leave Monday",
    "it's set to 9:30 in the invite",
    "who is on call this weekend? Sam I think",
])
def test_a_sentence_that_only_looks_like_an_announcement_heads_nothing(text: str) -> None:
    a = analyze(text)
    assert not any(c.heading for c in a.claims)


@pytest.mark.parametrize(("text", "value"), [
    ("The prize pool goes up to $2,500 and entry drops to $20 per team", "$20"),
    ("entry fee dropped to $15", "$15"),
    ("budget went up to $12k", "$12k"),
    ("the cap rises to 40 people", None),
    ("ticket price fell to $30 after the sponsor came in", "$30"),
])
def test_rising_and_dropping_to_a_value_is_a_change_not_a_cancellation(
        text: str, value: str | None) -> None:
    a = analyze(text)
    assert all(v.family != "status" for v in a.values)
    assert any(c.change >= 0.5 for c in a.clauses)
    if value is not None:
        assert value in [v.text for v in a.values]


@pytest.mark.parametrize("text", [
    "the welcome carousel is dropped",
    "we dropped the pilot",
    "Friday's sync is cancelled",
    "the demo got called off",
    "offsite is off",
])
def test_a_dropped_plan_still_ends(text: str) -> None:
    assert any(v.family == "status" for v in analyze(text).values)


def test_a_word_with_its_own_verb_is_its_own_subject() -> None:
    got = {v: s for _, v, s in claims(
        "The prize pool goes up to $2,500 and entry drops to $20 per team")}
    assert got["$2,500"] == "prize pool"
    assert got["$20"] == "entry"
    got = {v: s for _, v, s in claims("the offsite moves to Bathurst Hall and the date is now "
                                      "Aug 24")}
    assert "offsite" in got["Aug 24"]


# ---- what a state is described by, and its history -----------------------------------------

def test_a_state_of_a_many_item_message_is_described_by_its_own_item() -> None:
    from memory.registry import around

    text = ("Grace Liu in #pmo: Weekly roll-up: Atlas 11 Nov (Callum), Beacon 2.9 on 4 Nov "
            "(Yuki), Garnet SSO 21 Oct, Helix 1.5 in Oct, Juniper pilot Lisbon from 14 Oct, "
            "Ember on hold, Fjord Norway first")
    assert around(text, "21 Oct").endswith("Weekly roll-up: Garnet SSO 21 Oct")
    assert "Beacon" not in around(text, "on hold")
    assert around("short: Atlas 11 Nov", "11 Nov") == "short: Atlas 11 Nov"


@pytest.mark.parametrize(("values", "told"), [
    (["Tue 15 Oct", "Tue 22 Oct", "the 21st", "21 Oct"], ["Tue 15 Oct", "Tue 22 Oct", "21 Oct"]),
    (["Felix", "Amara", "Amara Obi"], ["Felix", "Amara Obi"]),
    (["Friday", "Friday at 12:30"], ["Friday at 12:30"]),
    (["Friday", "Monday"], ["Friday", "Monday"]),
    (["Bo5", "Bo7", "Bo7"], ["Bo5", "Bo7"]),
])
def test_a_revision_that_only_makes_a_value_exact_is_no_change(values: list[str],
                                                               told: list[str]) -> None:
    from memory.registry import history

    nodes = [EvidenceNode(node_id=f"n{i}", seq=i, platform="slack", space="T1", channel="C1",
                          message_id=str(i), speaker_id="US", speaker="Sam",
                          ts=msg(i, "Sam", "x").ts,
                          text=v, value=v, verdict=Verdict.REVISE if i else Verdict.ESTABLISH)
             for i, v in enumerate(values)]
    assert [n.value for n in history(nodes)] == told


def test_a_subject_named_in_the_states_own_words_revises_it(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Vexa", "📣 **FROSTBYTE CUP 2024** is happening!! 3v3 Rocket League LAN, "
                       "Saturday August 17 at Pixel Pit"),
        msg(2, "Vexa", "📣 Update: the Frostbyte Cup is moving to the Bathurst Community "
                       "Centre and the date is now Saturday August 24"),
    ])
    chains = {f: c for (_, f), c in _chains(store, writer).items()}
    assert chains["when"] == ["Saturday August 17", "Saturday August 24"]
    assert chains["where"] == ["Pixel Pit", "Bathurst Community Centre"]


# ---- deciding in few words; proposals with their reasons -----------------------------------

@pytest.mark.parametrize(("text", "value"), [
    ("ok fair, basket it is", "basket"),
    ("so pizza it is", "pizza"),
    ("alright, thai food it is then", "thai food"),
    ("fine, tuesday it is", "tuesday"),
    ("ok 11-3 it is 👍", "11-3"),
])
def test_x_it_is_decides_x(text: str, value: str) -> None:
    a = analyze(text)
    assert value in [v.text for v in a.values]
    assert any(c.change >= 0.45 for c in a.clauses if c.claims)


@pytest.mark.parametrize("text", [
    "that's how it is", "it is what it is", "yeah it is", "so it is", "which it is, honestly",
])
def test_it_is_without_a_decided_thing_decides_nothing(text: str) -> None:
    assert not analyze(text).values


@pytest.mark.parametrize("text", [
    "can we do 11 to 3 instead? families are at the diamond til 11",
    "could we move it to 4pm? I have a dentist appointment at 2",
    "should we do Thursday instead? the room is free till 5",
    "can we push standup to 10? half the team is in at 9:45 on mondays",
    "what if we do the 24th? the hall is open till 10pm",
])
def test_a_proposal_with_its_reason_is_a_proposal(text: str) -> None:
    from memory.analysis.definitions import SpeechAct

    assert analyze(text).act is SpeechAct.PROPOSAL


def test_a_question_asks_for_what_its_asking_sentence_asks() -> None:
    a = analyze("ok planning time! Big items: venue, raffle, food, volunteers. "
                "Time: 10am-2pm like last year?")
    assert "who" not in a.asks


def test_accepting_a_counter_proposal_decides_what_was_first_asked(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Steph", "raffle idea: grand prize an iPad?? kids would go nuts"),
        msg(2, "Jenny", "love the energy but an iPad is way too pricey for us 😅 how about "
                        "a family movie night basket"),
        msg(3, "Steph", "ok fair, basket it is"),
    ])
    assert nodes["3"].verdict is Verdict.ESTABLISH
    assert nodes["3"].topic == "raffle grand prize"
    assert nodes["3"].value == "family movie night basket"


@pytest.mark.parametrize("accept", ["ok 11-3 it is 👍", "sure, let's do that", "ok 11 to 3 then"])
def test_accepting_a_proposal_two_turns_back_revises(tmp_path: Path, accept: str) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Jenny", "ok planning time! Big items: venue, raffle, volunteers. "
                        "Time: 10am-2pm like last year?"),
        msg(2, "Mo", "can we do 11 to 3 instead? families are at the diamond til 11"),
        msg(3, "Rosa", "+1 for 11-3"),
        msg(4, "Jenny", accept),
    ])
    assert nodes["2"].verdict is Verdict.CONTEXT
    assert nodes["4"].verdict is Verdict.REVISE
    assert nodes["4"].state_id == nodes["1"].state_id


@pytest.mark.parametrize(("text", "value", "subject"), [
    ("group meeting this week: Thursday 2pm, room 4.12", "Thursday 2pm", "group meeting"),
    ("standup today: 9:45 in the small room", "9:45", "standup"),
    ("offsite next week: Tuesday, Lisbon office", "Tuesday", "offsite"),
    ("planning meeting this week: Wed 3pm", "Wed 3pm", "planning meeting"),
    ("lab meeting tomorrow: 11am, room 2.01", "11am", "lab meeting"),
])
def test_a_headers_period_frames_the_value_after_it(text: str, value: str, subject: str) -> None:
    got = claims(text)
    assert not [v for _, v, _ in got if v in {"this week", "today", "next week", "tomorrow"}]
    assert subject_of(text, value) == subject


@pytest.mark.parametrize(("first", "second"), [
    ("will need the new ligand batch by the 10th",
     "ligand batch came out contaminated 😞 re-running synthesis, earliest is the 14th"),
    ("the vendor quote is due by the 10th", "vendor quote is late again, earliest is the 14th"),
    ("the router delivery is due the 10th", "router delivery got stuck in customs. new date is "
                                             "the 14th"),
])
def test_an_aspect_word_is_an_aspect_of_what_was_spoken_of(tmp_path: Path, first: str,
                                                           second: str) -> None:
    store, writer, nodes = _run(tmp_path, [msg(1, "Cho", first), msg(2, "Dev", second)])
    assert nodes["2"].verdict is Verdict.REVISE
    assert nodes["2"].state_id == nodes["1"].state_id


@pytest.mark.parametrize("later", [
    "Rain call: WE'RE ON! forecast is sunny. see everyone on the field at 11!",
    "Rain call: we're on!! doors open at 10, see you there",
    "Rain call: it's a go. gates at 11",
    "rain call: all good! setup crew at 7:45",
])
def test_a_value_under_a_header_without_a_change_keeps_the_headers_state(
        tmp_path: Path, later: str) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Jenny", "I'll make the rain call the night before, Friday the 16th at 6pm"),
        msg(2, "Jenny", later),
    ])
    assert nodes["2"].verdict is not Verdict.REVISE or nodes["2"].state_id != nodes["1"].state_id
    assert _chains(store, writer)[("rain call the night", "when")] == ["Friday the 16th at 6pm"]


@pytest.mark.parametrize("later", [
    "Rain call: moved to Saturday 7am, forecast changed",
    "Rain call: pushed to Friday at 8pm",
    "rain call update: now Friday 7pm",
])
def test_a_value_under_a_header_with_a_change_revises(tmp_path: Path, later: str) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Jenny", "I'll make the rain call the night before, Friday the 16th at 6pm"),
        msg(2, "Jenny", later),
    ])
    assert nodes["2"].verdict is Verdict.REVISE
    assert len(_chains(store, writer)[("rain call the night", "when")]) == 2


@pytest.mark.parametrize(("short", "long", "same"), [
    ("JC", "journal club", True),
    ("DR region", "disaster recovery", True),
    ("PH launch", "Product Hunt launch", True),
    ("the SLA", "service level agreement", True),
    ("OKRs", "objectives and key results", False),  # a plural acronym is left alone
    ("SSO for all staff", "Garnet target", False),
    ("IT", "the offsite", False),
    ("jc", "journal club", False),  # lower case is a word, not initials
])
def test_initials_name_what_they_abbreviate(short: str, long: str, same: bool) -> None:
    from memory.analysis.matching import abbreviates

    assert abbreviates(short, long) is same


def test_an_abbreviation_revises_the_state_it_names(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Sofia", "journal club thurs 4pm, I'm presenting the mamba paper"),
        msg(2, "Eva", "ok JC moves to fridays 3pm, same room (B204)"),
    ])
    assert nodes["2"].verdict is Verdict.REVISE
    assert nodes["2"].state_id == nodes["1"].state_id


@pytest.mark.parametrize(("question", "answer", "value"), [
    ("do they deliver tuesdays too?", "wednesdays, 5am", "wednesdays, 5am"),
    ("is the delivery still tuesday?", "thursdays now", "thursdays"),
    ("still tuesday for deliveries?", "nope, wednesday", None),
    ("tuesday delivery as usual?", "wednesday this week, they're short a driver", "wednesday"),
])
def test_an_answer_to_a_question_quoting_a_value_is_about_its_state(
        tmp_path: Path, question: str, answer: str, value: str | None) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Ines", "flour order goes to Millstone as usual, delivery tuesday before 6am"),
        msg(2, "Marco", question),
        msg(3, "Ines", answer),
    ])
    delivery = next(c for (t, f), c in _chains(store, writer).items() if f == "when")
    assert delivery[0] == "tuesday"
    if value is not None:
        assert delivery[-1].startswith(value)
    assert nodes["2"].verdict is Verdict.CONTEXT


def test_an_answer_to_a_question_quoting_no_value_opens_nothing_new(tmp_path: Path) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Ines", "flour order goes to Millstone as usual, delivery tuesday before 6am"),
        msg(2, "Marco", "how was the croissant batch?"),
        msg(3, "Ines", "great, 5am start paid off"),
    ])
    delivery = next(c for (t, f), c in _chains(store, writer).items() if f == "when")
    assert delivery == ["tuesday"]


@pytest.mark.parametrize(("text", "value", "subject"), [
    ("agreed. Beacon ships as 2.9, we keep 3.0 for the redesign", "2.9", "beacon"),
    ("ok, Helix goes out as 1.5, we'll save 2.0 for the rewrite", "1.5", "helix"),
    ("fine: the app ships as 4.2, they can have 5.0 later", "4.2", "app"),
])
def test_a_value_ending_its_phrase_is_stated_and_a_comma_sentence_is_its_own(
        text: str, value: str, subject: str) -> None:
    got = {v: s for _, v, s in claims(text)}
    assert got[value].lower() == subject
    a = analyze(text)
    clause = next(c for c in a.clauses if value in [v.text for v in c.values])
    assert len(clause.values) == 1


@pytest.mark.parametrize("text", [
    "I'd actually like to call this one 2.9",
    "i'd really like to go with Lisbon",
    "I'd love to do Friday instead",
    "id like to push it to 4pm",
    "I'd rather we keep 9:30",
])
def test_a_wish_puts_a_value_forward(text: str) -> None:
    from memory.analysis.definitions import SpeechAct

    a = analyze(text)
    assert a.act in (SpeechAct.PROPOSAL, SpeechAct.REJECTION)
    assert a.values


@pytest.mark.parametrize(("text", "owner", "task"), [
    ("QA signoff for 2.4, Jo owns it", "Jo", "QA signoff for 2.4"),
    ("the release notes, Owen will do them", "Owen", None),
    ("cupcakes: Rosa", "Rosa", "cupcakes"),
])
def test_an_owner_with_a_verb_owns_the_sentences_subject(text: str, owner: str,
                                                         task: str | None) -> None:
    got = {v: s for f, v, s in claims(text) if f == "who"}
    assert owner in got
    assert got[owner].lower() not in {"owns", "has", "have"}
    if task is not None:
        assert got[owner].lower() == task.lower()


@pytest.mark.parametrize("change", [
    "actually we're calling it 2.4, the storage format changed",
    "change of plan, it'll be 2.4",
    "scratch that, 2.4 it is",
    "renamed to 2.4 since the format changed",
    "we're switching to 2.4 instead",
])
def test_a_distinctive_value_said_with_a_change_revises_the_latest_of_its_kind(
        tmp_path: Path, change: str) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Eve", "We decided the release will be version 2.3"),
        msg(2, "Alice", "Heads up: review slips to Friday 10am."),
        msg(3, "Frank", change),
    ])
    assert nodes["3"].verdict is Verdict.REVISE, nodes["3"].verification
    assert nodes["3"].state_id == nodes["1"].state_id


@pytest.mark.parametrize("passing", [
    "2.4 looks good on my machine",
    "the 2.4 beta of terraform is out",
    "node 20 works fine btw",
])
def test_a_distinctive_value_said_in_passing_revises_nothing(tmp_path: Path,
                                                             passing: str) -> None:
    store, writer, nodes = _run(tmp_path, [
        msg(1, "Eve", "We decided the release will be version 2.3"),
        msg(2, "Frank", passing),
    ])
    assert nodes["2"].verdict is not Verdict.REVISE


# ---- casual chat: lower case, exclamations, terse answers --------------------------------

@pytest.mark.parametrize(("text", "place"), [
    ("ok let's do porto instead of lisbon", "porto"),
    ("proposal: lisbon, july 11-18, 5 of us", "lisbon"),
    ("how about berlin this year", "berlin"),
    ("moving the offsite to madrid", "madrid"),
    ("we're in dublin next week", "dublin"),
])
def test_lower_case_place_names_are_places(text: str, place: str) -> None:
    assert ("where", place) in [(f, v) for f, v, _ in claims(text)]


@pytest.mark.parametrize("text", [
    "let us know", "turkey sandwiches at noon", "chile con carne friday", "nice work all",
    "reading group at 4",
])
def test_lower_case_words_that_are_also_places_are_not(text: str) -> None:
    assert not [v for f, v, _ in claims(text) if f == "where" and v in {
        "us", "turkey", "chile", "nice", "reading"}]


@pytest.mark.parametrize(("text", "value", "subject"), [
    ("ok summer trip!! proposal: lisbon, july 11-18, 5 of us", "lisbon", "summer trip"),
    ("team dinner!! thursday at 7, Luigi's", "thursday at 7", "team dinner"),
    ("sprint review! friday 3pm in the big room", "friday 3pm", "sprint review"),
])
def test_a_short_exclamation_heads_the_message(text: str, value: str, subject: str) -> None:
    assert subject_of(text, value).lower() == subject


@pytest.mark.parametrize(("text", "value", "subject"), [
    ("airbnb host moved check-in to 4pm, cleaning crew schedule", "4pm", "check-in"),
    ("the vendor pushed delivery to friday", "friday", "delivery"),
    ("legal moved the signing to Tuesday", "Tuesday", "signing"),
    ("we moved the review to Friday", "Friday", "review"),
    ("finance cut the RI budget to €36k", "€36k", "RI budget"),
])
def test_what_a_change_verb_moves_is_the_subject(text: str, value: str, subject: str) -> None:
    assert subject_of(text, value) == subject


@pytest.mark.parametrize(("text", "value"), [
    ("burn is ~$140k/mo with the two new hires", "$140k"),
    ("budget is about $5k", "$5k"),
    ("rent is roughly €2,100/month", "€2,100"),
])
def test_approximate_and_per_unit_amounts_are_stated(text: str, value: str) -> None:
    a = analyze(text)
    assert any(c.value.text == value and c.stated for c in a.claims)


def test_me_with_an_exclamation_claims_for_the_speaker() -> None:
    assert ("who", "Lia") in [(f, v) for f, v, _ in claims("me! found one in ribeira", "Lia")]
    assert not [v for f, v, _ in claims("tell me, when is it?", "Lia") if f == "who"]


@pytest.mark.parametrize("text", [
    "protolabs quote came back way high. trying Xometry instead",
    "we're switching to Xometry",
    "going w/ Xometry for tooling",
])
def test_trying_a_vendor_instead_names_the_choice(text: str) -> None:
    assert "Xometry" in [v for _, v, _ in claims(text)]


# ---- which turn an unthreaded reply answers --------------------------------------------------

@pytest.mark.parametrize(("between", "linked"), [
    (["+1"], True),
    (["lol nice"], True),
    (["same"], True),
    (["Well, we certainly are alone tonight."], False),
    (["the staging console is flaky again, restarting it now"], False),
])
def test_a_bare_yes_answers_the_proposal_only_across_asides(
        tmp_path: Path, between: list[str], linked: bool) -> None:
    msgs = [msg(1, "Dan", "how about The Lake for the outing?")]
    msgs += [msg(2 + i, f"P{i}", t) for i, t in enumerate(between)]
    msgs.append(msg(9, "Erin", "yes!"))
    store, writer, nodes = _run(tmp_path, msgs)
    answered = nodes["9"].proposal.answers if nodes["9"].proposal else None
    assert (answered == "1") is linked


@pytest.mark.parametrize("text", [
    "maybe I'll just go home", "perhaps I'm wrong", "maybe i'll skip lunch",
])
def test_maybe_with_i_is_no_proposal(text: str) -> None:
    from memory.analysis.definitions import SpeechAct

    assert analyze(text).act is not SpeechAct.PROPOSAL
