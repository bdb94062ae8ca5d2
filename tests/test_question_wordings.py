"""Questions asked the way people type them: a short form of a word the chat spells out
("when does reg close?"), days said in chat forms ("fri 18th", "end of april", "the
22nd-30th"), and a terse answer found by the question it answers ("7:45 from july on")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.analysis.question import analyze_question
from memory.reader.when_values import when_in
from tests.support.chat_reader import ChannelChat, channel_chat

T0 = datetime(2025, 4, 7, 9, 0, tzinfo=UTC)
ASKED = datetime(2025, 4, 10, 9, 0, tzinfo=UTC)


def reader_of(factory: pytest.TempPathFactory, channel_name: str,
              chat: list[tuple[int, str, str]]) -> ChannelChat:
    return channel_chat(factory.mktemp(channel_name), chat, start=T0, asked=ASKED,
                        channel_name=channel_name)


def test_a_short_form_of_a_word_the_chat_spells_out_is_that_word(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    reader = reader_of(tmp_path_factory, "esports", [
        (0, "theo", "Spring Clash registration closes fri 18th. fee is €50 per team"),
        (5, "mika", "ok"),
    ])
    assert "18th" in reader.first("when does reg close?")
    assert reader.first("what's the wifi pwd?").startswith("Not mentioned")


@pytest.mark.parametrize(("sentence", "question", "value", "day"), [
    ("registration is open. deadline fri 18th", "when is the registration deadline?",
     "fri 18th", "18 April 2025"),
    ("got the erasmus spot, leaving end of april", "when is ravi leaving?",
     "end of april", "April 2025"),
    ("I'm travelling for work the 22nd-30th", "when is aiyana away?", "the 22nd-30th",
     "22 April 2025 – 30 April 2025"),
    ("heads up I'm off the week of may 26", "when is bram off?", "week of may 26",
     "Monday 26 May 2025"),
])
def test_days_in_chat_forms_are_read_and_resolved(sentence: str, question: str, value: str,
                                                   day: str) -> None:
    text, resolved = when_in(analyze_question(question), sentence, T0, prefer="future")
    assert text.startswith(value)
    assert resolved == day


def test_an_answer_is_about_what_its_question_asked(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    # "7:45 from july on" names no meeting: the question it answers does
    reader = reader_of(tmp_path_factory, "clinic", [
        (0, "dana", "staff mtg in 20, staff room. bagels are here"),
        (600, "lena", "anyone seen the spare handpiece?"),
        (1440, "raj", "can the staff meetings start earlier? they always run into my first pt"),
        (1445, "dana", "7:45 from july on"),
        (1500, "mia", "nice"),
    ])
    assert reader.first("what time are staff meetings starting from july?") == "7:45"
    assert reader.first("what's the wifi password?").startswith("Not mentioned")


def test_a_kind_of_value_the_scope_never_names_weighs_less_than_a_missing_subject(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    # "which repair *company*": the value answers "company", a word nobody types in chat;
    # "which *flamingo*" names a thing memory never heard of
    reader = reader_of(tmp_path_factory, "clinic", [
        (0, "dana", "ok cancelled midwest. techserv coming mon 8am for the steri"),
    ])
    terms = {t.word: t for t in reader.reader.coverage.terms(
        analyze_question("which repair company or flamingo fixed the steri?"), reader.scope)}
    assert terms["company"].absent and terms["flamingo"].absent
    assert terms["company"].weight < terms["flamingo"].weight
