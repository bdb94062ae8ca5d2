"""Thread subjects, reasons reported beside a change, and days said again:

- the state a terse reply revises does not depend on the interpreter's string hash: "3 it
  is" under "Ordering 2 new rescue boards …, $1,650 each" is the count, under every seed;
- a thread's reply is about the thread's subject though it never says it;
- a value followed by a comma and "looks …" is still the value ("bumping to Tue 28th, looks
  settled"); "the Tuesday meeting" names which meeting, no date; "ok, locking in:" and
  "Thought after this morning:" name no subject; "nudge" moves a value;
- "dropping it, so 10 ponds": what comes before "so" is the change, so the reason is the
  report beside it ("P7 is bone dry");
- "switching the whole order to Echo Rentals" after "Nightwing only have 2 units free"
  replaces the Nightwing hire; "pushing to fri 6 march" after a header "redcliffe update"
  is the trip's new date, over a day only reported beside it, and "redcliffe fri!!" two
  days before the 6th says that day again.

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.analysis.value_types import Kind
from tests.support.chat_reader import channel_chat
from tests.support.claims import ANALYZER, claims_of
from tests.support.memory import msg, thread_first

START = datetime(2026, 2, 2, 9, 0, tzinfo=UTC)
DAY = 60 * 24
ROOT = Path(__file__).resolve().parent.parent

BOARDS = """
import sys
from pathlib import Path
from tests.support.memory import msg, thread_first
first = thread_first(Path(sys.argv[1]), [
    msg(1, "rhys", "Ordering 2 new rescue boards from Cobra, $1,650 each. Anyone object?"),
    msg(2, "kate", "Make it 3 Rhys, the old yellow one's cracked right through.", thread="1",
        reply_to="1", minutes=10),
    msg(3, "rhys", "3 it is", thread="1", reply_to="1", minutes=25),
])
print(first("how many rescue boards are we getting?"))
"""


def test_a_terse_reply_revises_the_same_state_under_every_string_hash(tmp_path: Path) -> None:
    answers = []
    for seed in ("0", "1"):
        out = subprocess.run(
            [sys.executable, "-c", BOARDS, str(tmp_path / seed)], cwd=ROOT, check=True,
            capture_output=True, text=True,
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)})
        answers.append(out.stdout.strip())
    assert answers[0] == answers[1]
    assert answers[0].startswith("3")


def test_a_reply_is_about_its_threads_subject(tmp_path: Path) -> None:
    first = thread_first(tmp_path, [
        msg(1, "tom", "Hallow Farm barns: client's confirmed access 🎉 Plan: 3 dusk emergence "
                      "+ 1 dawn re-entry between late April and May"),
        msg(2, "holly", "Thursday works for me", thread="1", reply_to="1", minutes=20),
        msg(3, "tom", "sorted, 23rd. meet at the layby by St Mary's church at 19:45, sunset's "
                      "20:12", thread="1", reply_to="1", minutes=40),
        msg(4, "tom", "farmer's asked us not to use the layby on the 23rd, there's a funeral at "
                      "St Mary's that afternoon. new meet point: farm gate on Pitt Lane, and "
                      "let's make it 19:30 so there's time to walk up",
            thread="1", reply_to="1", minutes=3000),
    ])
    assert "layby" in first("where were we meeting for hallow before the funeral thing")


def test_a_value_before_a_comma_and_looks_is_still_the_value() -> None:
    claims = claims_of("ugh, too cold and windy on the 23rd. bumping to Tue 28th, looks "
                       "settled with a 12° forecast")
    assert any(v == "Tue 28th" and k is Kind.DATE for _, v, k in claims)
    assert any(v == "£465" for _, v, _ in claims_of("insurance renewal is £465, was £410"))


def test_a_weekday_naming_which_meeting_is_no_date_and_headers_name_no_subject() -> None:
    nudged = claims_of("can we nudge the Tuesday meeting to 10? half of you roll in late")
    assert all(v != "Tuesday" for _, v, _ in nudged)
    assert any(v == "10" and "meeting" in s for s, v, _ in nudged)
    locked = claims_of("ok, locking in: weekly is Tuesdays 9:30 from next week")
    assert locked and all("lock" not in s for s, _, _ in locked)
    thought = claims_of("Thought after this morning: shall we shift the weekly to Tuesday 9:30?")
    assert thought and all("thought" not in s.lower() for s, _, _ in thought)
    assert any(v == "Tue 28th" for _, v, _ in claims_of("moving it to the Tue 28th, fine"))


def test_the_reason_is_the_report_beside_a_change_said_with_so(tmp_path: Path) -> None:
    reading = ANALYZER.analyze("pond update: P7 is bone dry, farmer says it's been dry since "
                               "February. dropping it, so 10 ponds", speaker="elin")
    assert reading.reason != "dropping it"
    chat = channel_chat(tmp_path, [
        (0, "elin", "GCN plan: desk study shows 11 ponds within 500m. eDNA first."),
        (3 * DAY, "elin", "pond update: P7 is bone dry, farmer says it's been dry since "
                          "February. dropping it, so 10 ponds"),
    ], start=START, asked=START + timedelta(days=10))
    assert "dry" in chat.first("why did we drop a pond")


def test_switching_the_order_replaces_the_choice_named_beside_it(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "amara", "Detector hire for the season: Nightwing quoted £38/unit/night, Echo "
                     "Rentals £45. Going with Nightwing"),
        (DAY, "tom", "nice, cheaper"),
        (6 * DAY, "amara", "bad news, Nightwing only have 2 units free in late April, the rest "
                           "are out on a wind farm job. switching the whole order to Echo "
                           "Rentals — splitting suppliers isn't worth the hassle"),
    ], start=START, asked=START + timedelta(days=10))
    answer = chat.first("who are we hiring the detectors from now?")
    assert "Echo" in answer and "Nightwing" not in answer.split("(")[0]


def test_a_change_said_after_a_header_is_the_new_date_and_a_weekday_says_it_again(
        tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (16 * DAY, "lorraine", "redcliffe update — BOM says 38 on the 27th. not taking our "
                               "oldies out in that. pushing to fri 6 march"),
        (23 * DAY, "lorraine", "redcliffe 6 mar final list: 10 + waitlist of 2"),
        (30 * DAY + 360, "lorraine", "redcliffe fri!! pickups 8:15, lunch at the jetty 12"),
    ], start=START, asked=START + timedelta(days=31))
    assert "6 mar" in chat.first("what date is redcliffe").lower()


def test_rand_amounts_hours_till_and_a_choice_locked_in() -> None:
    assert [v for _, v, k in claims_of("price list update: dining chair re-cover goes from "
                                       "R850 to R950 from July") if k is Kind.MONEY] == ["R950"]
    assert not [v for _, v, k in claims_of("meet in room R101 at 3") if k is Kind.MONEY]
    hours = claims_of("winter hours from next week: Saturdays 9 till 12 (was 9–1)")
    assert any(v == "Saturdays 9 till 12" for _, v, _ in hours)
    locked = claims_of("ok locking in CapeFoam for the year at 8% off. Zanele sign it")
    assert any(v == "CapeFoam" and k is Kind.CHOICE for _, v, k in locked)
    assert not claims_of("took that one down, hana says it's not locked in yet, sorry!")
    assert not [v for _, v, k in claims_of("most of us are in Paris that weekend")
                if k is Kind.PLACE]


def test_a_value_noun_before_who_chose_it_asks_that_kind(tmp_path: Path) -> None:
    from memory.analysis.question import analyze_question

    assert analyze_question("what was the original foray spot kenji picked").family == "where"
    assert analyze_question("what was the very first date kenji suggested for the foray"
                            ).family == "when"
    chat = channel_chat(tmp_path, [
        (0, "kenji", "FALL FORAY planning 🧺 proposing Sat Oct 3 at Cedar Hollow trailhead, "
                     "meet 9am. thoughts?"),
        (20, "marisol", "yeah I'm at NAMA on the 3rd too. can we do the 10th?"),
        (40, "kenji", "10th works for me. Sat Oct 10 then, Cedar Hollow, 9am"),
    ], start=datetime(2026, 9, 1, 17, 0, tzinfo=UTC), asked=datetime(2026, 9, 5, 9, 0, tzinfo=UTC))
    assert "Oct 3" in chat.first("what was the very first date kenji suggested for the foray")


def test_a_question_asked_without_its_mark_answers_nothing(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "kareem", "who took my 10mm spanner"),
        (DAY, "sipho", "lunch was great today, thanks Zanele"),
        (2 * DAY, "pieter", "the chessie frame is stripped, springs go in tomorrow"),
    ], start=START, asked=START + timedelta(days=3))
    assert chat.answer("who took my 10mm spanner in the end").abstained


def test_an_edited_value_is_replaced_by_the_one_sharing_its_words() -> None:
    from memory.analysis.lexicon import Lexicon
    from memory.analysis.values import find_values
    from memory.write_support import replacement_of

    text = ("Thanks for coming tonight. Decided: public open house Saturday June 6, 10am–3pm. "
            "Marisol's running the helix demo.")
    found = find_values(text, Lexicon())
    new = replacement_of("Saturday June 6, 10am–4pm", "when", found)
    assert new is not None and new.text == "Saturday June 6, 10am–3pm"


def test_a_thing_then_now_then_a_value_says_a_change() -> None:
    def change(text: str) -> float:
        return max(c.change for c in ANALYZER.analyze(text, speaker="x").clauses)

    assert change("kedron motors again 🙄 parts on backorder, service now thurs 19th") >= 0.5
    assert change("I'm now at the office") < 0.5
