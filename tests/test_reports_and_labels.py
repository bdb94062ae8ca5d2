"""Reports, labels and reasons said without a reason word.

* A thing reported as carried out ("tesco 9pm done, quiet nite") plans nothing: it does not
  revise the collection time the team agreed; "needs to be done by fri 3rd" still plans.
* "(from £50)" beside a new amount is the amount it replaces; "(from 7pm)" after a day is a
  start time.
* A word or two in brackets after a value names what it is of ("£12 (adults) and £6 for
  under-16s").
* Works, a shortage or demand said beside a change is its reason ("new depot delivery
  schedule makes mondays their busiest").
* "the number for the lidl manager" asks a number to call, not a count.

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.definitions import SpeechAct
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import analyze_question
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.reason_words import BLOCKER_WORDS
from memory.reader.extract import reason_in
from tests.support.chat_reader import channel_chat

START = datetime(2026, 1, 6, 18, 0, tzinfo=UTC)
DAY = 60 * 24
ASKED = datetime(2026, 2, 20, 12, 0, tzinfo=UTC)


def _claims(text: str) -> list[tuple[str, str]]:
    analysis = MessageAnalyzer().analyze(text, speaker="Ruth")
    return [(cl.value.text, cl.subject) for c in analysis.clauses for cl in c.claims]


def _old(text: str) -> list[str]:
    analysis = MessageAnalyzer().analyze(text, speaker="Ruth")
    return [o.text for c in analysis.clauses for o in c.old]


def test_a_report_of_a_thing_done_plans_nothing() -> None:
    analyzer = MessageAnalyzer()
    for report in ("tesco 9pm done, quiet nite", "lidl tues run done 🥦",
                   "sat run done, lidl was rammed.", "First 6:30 start done ✅"):
        assert analyzer.analyze(report, speaker="Priya").act is SpeechAct.CHATTER, report
    for plan in ("needs to be done by fri 3rd", "booking done for sat 7pm",
                 "IT day 2 for brightwell sorted: Giulia Conti",
                 # a deal struck, a plan of one's own
                 "team dinner booked for sat 7pm, all sorted", "ok sat 7pm at the Crown, done",
                 "I'll get the 5pm slides done", "need the 3pm deck finished"):
        assert analyzer.analyze(plan, speaker="Priya").act is not SpeechAct.CHATTER, plan


def test_a_run_reported_does_not_move_the_collection(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "bev", "tesco run is 9.30pm from now on, theyre moving reduce to clear late"),
        (3 * DAY, "sean", "tesco 9.30 run done, 6 bags bread"),
        (5 * DAY, "priya", "tesco 9pm run done, quiet nite"),
    ], start=START, asked=ASKED)
    first = chat.first("what time is the tesco run now?")
    assert "9.30" in first and "9pm" not in first


def test_the_amount_in_brackets_after_from_is_replaced() -> None:
    assert _old("from 1 june deposits go up to £60 (from £50). we lost 6 bookings") == ["£50"]
    assert _old("party is sat 14th (from 7pm) at the hall") == []
    # an amount of another thing in brackets is no old value
    assert _old("we got 12 signups (from 40 invites)") == []


def test_the_deposit_before_it_went_up(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "rae", "from 1 june deposits go up to £60 (from £50). we lost 6 bookings to "
                   "no-shows in may"),
        (30, "nico", "agreed"),
    ], start=START, asked=ASKED)
    assert "£50" in chat.first("what was the deposit before it went up?")


def test_a_bracket_names_the_value_before_it() -> None:
    claims = dict(_claims("concert tickets are £12 (adults) and £6 for under-16s this year"))
    assert "adults" in claims["£12"]
    assert "adults" not in claims["£6"]
    # a hedge or an owner in brackets names nothing
    assert dict(_claims("budget £500 (approx)"))["£500"] == "budget"
    assert dict(_claims("tickets £20 (thanks)"))["£20"] == "tickets"
    assert dict(_claims("Atlas go-live Mon 28 Oct (Callum)"))["Mon 28 Oct"] == "atlas go-live"


def test_the_adult_ticket_price(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "harold", "Concert tickets will be £10 again this year."),
        (DAY, "harold", "Small change: concert tickets are £12 (adults) and £6 for under-16s "
                        "this year, the church hire has gone up. Sorry all!"),
    ], start=START, asked=ASKED)
    assert "£12" in chat.first("how much are adult tickets")


def test_a_reason_said_beside_a_change_without_a_reason_word() -> None:
    text = ("lidl moving us to tuesdays from w/c 20th, new depot delivery schedule makes "
            "mondays their busiest. first tues run is the 21st")
    assert "depot" in reason_in(text, value="tuesdays", blockers=BLOCKER_WORDS)
    works = ("moving the quiz to thursday, the pub is doing a refurb that week. first round "
             "starts 8pm")
    assert "refurb" in reason_in(works, value="thursday", blockers=BLOCKER_WORDS)


def test_the_number_for_someone_is_theirs_to_call() -> None:
    lexicon = QuestionLexicon()
    assert analyze_question("whats the number for the lidl manager?", lexicon).record
    assert analyze_question("number for the plumber pls", lexicon).record
    assert not analyze_question("what is the number of drivers", lexicon).record
    assert not analyze_question("number for the drivers", lexicon).record
    # a headcount given to someone is a count
    assert not analyze_question("whats the final number for the caterer?", lexicon).record


def test_a_count_is_no_number_to_call(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "priya", "lidl run done, 11 crates"),
        (DAY, "bev", "lidl manager says they can keep doing tuesdays"),
    ], start=START, asked=ASKED)
    assert chat.answer("whats the number for the lidl manager?").abstained
