"""Yes/no questions and paraphrased predicates: "is X still on …?" is answered from the
latest change of X's state, a question's verbs weigh less than its subject (a chat says
what happens to a thing in its own words), and a yes/no question whose verb memory never
heard is not answered by a message that only names its subject.

One unthreaded chat through the real write path (hashing embedder), asked as a member.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.analysis.question import analyze_question
from memory.models import Answer, Scope
from memory.reader.offline import OfflineReader
from tests.support.chat_reader import chat_author, written_reader

T0 = datetime(2025, 4, 7, 13, 0, tzinfo=UTC)  # a Monday
ASKED = datetime(2025, 4, 15, 12, tzinfo=UTC)
SCOPE = Scope(platform="slack", space="T8", channels=("C8",))
m = chat_author(space="T8", channel="C8", channel_name="ops", start=T0)


CHAT = [
    m(0, "Dana", "vendor says the new kiln comes april 16"),
    m(30, "Sam", "exam logistics: Thursday Oct 9, 7pm, Kresge 200. bring pencils"),
    m(60, "Lee", "team offsite thursday at the boathouse, 10am"),
    m(1440, "Dana", "offsite is postponed to next month, the boathouse double booked us"),
    m(1500, "Sam", "the chairs shipment is arriving on the 22nd"),
    m(4320, "Lee", "chairs shipment moved to the 29th, warehouse backlog"),
    m(4400, "Sam", "lunch order is in, tacos today"),
]


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> OfflineReader:
    return written_reader(tmp_path_factory.mktemp("confirms"), CHAT)


def ask(reader: OfflineReader, question: str) -> Answer:
    return reader.answer(question, scope=SCOPE, reference=ASKED)


def first(ans: Answer) -> str:
    return ans.answer.splitlines()[0]


def test_the_analyzer_tells_still_questions_and_yes_no_questions() -> None:
    still = analyze_question("is the offsite still on for thursday?")
    assert still.confirm and still.polar
    plain = analyze_question("are we curving the exam?")
    assert plain.polar and not plain.confirm
    assert not analyze_question("is the fair inside or outside?").polar
    assert not analyze_question("when is the offsite now?").confirm


def test_still_on_after_a_postponement_says_no_with_the_change(reader: OfflineReader) -> None:
    ans = ask(reader, "is the offsite still on for thursday?")
    line = first(ans)
    assert not ans.abstained and line.startswith("No") and "postponed" in line, ans.answer
    assert "Dana" in line


def test_still_on_a_day_that_moved_says_no_with_the_new_day(reader: OfflineReader) -> None:
    ans = ask(reader, "is the chairs shipment still arriving on the 22nd?")
    line = first(ans)
    assert not ans.abstained and line.startswith("No") and "29th" in line, ans.answer


def test_still_the_same_value_says_yes(reader: OfflineReader) -> None:
    ans = ask(reader, "is the lunch order still tacos?")
    assert not ans.abstained and first(ans).startswith("Yes"), ans.answer


def test_a_paraphrased_predicate_does_not_hide_the_subject(reader: OfflineReader) -> None:
    ans = ask(reader, "when is the kiln getting delivered?")
    assert not ans.abstained and "16" in first(ans), ans.answer


def test_a_yes_no_question_about_something_never_said_abstains(reader: OfflineReader) -> None:
    ans = ask(reader, "are we curving the exam?")
    assert ans.abstained, ans.answer
