"""The reader's judgement in wordings its fixtures do not use: the kind of value asked
constrains the answer, a report that something happened dates it, a hand-over answers who
holds a task, and whoever a revision accepts made the change.

One unthreaded chat through the real write path (hashing embedder), asked as a member.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.models import Answer, Scope
from memory.reader.offline import OfflineReader
from tests.support.chat_reader import chat_author, written_reader

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)  # a Monday
ASKED = datetime(2025, 3, 20, 12, tzinfo=UTC)
SCOPE = Scope(platform="slack", space="T9", channels=("C9",))
m = chat_author(space="T9", channel="C9", channel_name="club", start=T0)


CHAT = [
    m(0, "Nadia", "Spring open day is Saturday March 15, doors at 10am, in the main hall"),
    m(60, "Omar", "Kiln workshop plan: in Porto, starting next week"),
    m(90, "Pia", "changed my mind on the kiln workshop, let's run it in Lisbon, Porto is "
                 "short-staffed"),
    m(100, "Omar", "ok, updating the kiln workshop plan to Lisbon"),
    m(200, "Quinn", "the glaze order is mine for now"),
    m(260, "Quinn", "handing the glaze order over to Rafa, I'm off next week"),
    m(300, "Rafa", "yep, glaze order's with me from Monday"),
    m(400, "Nadia", "Members' newsletter goes out March 12"),
    m(7200, "Nadia", "Members' newsletter is out, check your inbox"),
]


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> OfflineReader:
    return written_reader(tmp_path_factory.mktemp("generalizes"), CHAT)


def ask(reader: OfflineReader, question: str) -> Answer:
    return reader.answer(question, scope=SCOPE, reference=ASKED)


def first(ans: Answer) -> str:
    return ans.answer.splitlines()[0]


def test_what_time_is_answered_by_a_time_of_day(reader: OfflineReader) -> None:
    ans = ask(reader, "what time does the spring open day start?")
    assert not ans.abstained and "10am" in first(ans)


def test_when_did_it_happen_is_the_day_it_was_reported_done(reader: OfflineReader) -> None:
    ans = ask(reader, "when did the members' newsletter go out?")
    assert not ans.abstained and "8 March" in first(ans), ans.answer


def test_whoever_a_revision_accepts_made_the_change(reader: OfflineReader) -> None:
    ans = ask(reader, "who changed the kiln workshop location?")
    assert not ans.abstained and "Pia" in first(ans), ans.answer


def test_an_addressee_is_not_part_of_the_question(reader: OfflineReader) -> None:
    ans = ask(reader, "what time does the spring open day start? @channel")
    assert not ans.abstained and "10am" in first(ans)
