"""The offline reader: fixed tool policy, extractive answers with chains, citations, abstention."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory.reader.offline import NOT_FOUND, OfflineReader
from memory.reader.rerank import FeatureReranker
from memory.reader.search import ABLATE_SINGLE_ROUND, ABLATE_VERSIONED_STATE, EvidenceSearch
from memory.reader.tools import ReaderTools, offline_tools
from tests.support.reader_memory import PUBLIC, T0, Memory, build, chat, msg

ASKED = datetime(2024, 11, 8, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return build(tmp_path_factory.mktemp("offline"))


@pytest.fixture(scope="module")
def reader(mem: Memory) -> OfflineReader:
    return OfflineReader(tools=offline_tools(mem.store, mem.embedder))


def test_state_question_answers_current_value_with_its_chain(mem: Memory,
                                                             reader: OfflineReader) -> None:
    ans = reader.answer("What time is the Atlas design review now?", scope=PUBLIC,
                        reference=ASKED)
    assert not ans.abstained
    first, chain = ans.answer.splitlines()[:2]
    assert first == "Friday 10am (8 November 2024)"  # the value in force, alone
    assert chain.startswith("atlas design review: now Friday 10am (8 November 2024; Alice, ")
    assert "· was 4 pm (Alice, Nov 4) · was Thursday at 3 pm" in chain
    assert [s.topic for s in ans.states][:1] == ["atlas design review"]
    cited = [c.message_id for c in ans.citations]
    assert cited[:3] == ["C1.8", "C1.3", "C1.1"]  # current value first, then history
    first = ans.citations[0]
    assert (first.speaker, first.channel, first.node_id) == ("Alice", "C1", mem.node("C1.8"))
    assert first.permalink == "https://example.invalid/C1/8"
    assert "checklist" not in ans.answer  # a state sharing the topic is not merged in


def test_version_question(reader: OfflineReader) -> None:
    ans = reader.answer("Which version is the release?", scope=PUBLIC, reference=ASKED)
    first, chain = ans.answer.splitlines()[:2]
    assert first == "2.4"
    assert chain == "release version: now 2.4 (Frank, Nov 4) · was 2.3 (Eve, Nov 4)"


def test_plain_question_answers_from_best_sentence(mem: Memory, reader: OfflineReader) -> None:
    ans = reader.answer("Which database did Hal recommend?", scope=PUBLIC, reference=ASKED)
    assert "ClickHouse" in ans.answer
    assert ans.citations[0].node_id == mem.node("C1.11")
    assert ans.citations[0].quote.startswith("Honestly ClickHouse")
    assert ans.states == []


def test_abstains_when_nothing_is_relevant(reader: OfflineReader) -> None:
    ans = reader.answer("What is the capital of Mongolia?", scope=PUBLIC, reference=ASKED)
    assert ans.abstained
    assert ans.answer == NOT_FOUND
    assert ans.citations == []


def test_gathered_is_every_node_once_in_gather_order(mem: Memory, reader: OfflineReader) -> None:
    ans = reader.answer("Which database did Hal recommend?", scope=PUBLIC, reference=ASKED)
    assert ans.rounds == 2
    assert len(ans.gathered) == len(set(ans.gathered))
    assert len(ans.gathered) > 10  # the second round added passages the first had not shown
    assert ans.gathered[0] in {mem.node("C1.10"), mem.node("C1.11")}
    assert {c.node_id for c in ans.citations} <= set(ans.gathered)


def ablated(reader: OfflineReader, *names: str) -> OfflineReader:
    search = EvidenceSearch(store=reader.tools.store, embedder=reader.tools.embedder,
                            reranker=FeatureReranker(), ablate=frozenset(names))
    tools = ReaderTools(store=reader.tools.store, embedder=reader.tools.embedder,
                        search=search, ablate=frozenset(names))
    return OfflineReader(tools=tools, k=reader.k)


def test_single_round_ablation(reader: OfflineReader) -> None:
    ans = ablated(reader, ABLATE_SINGLE_ROUND).answer(
        "Which database did Hal recommend?", scope=PUBLIC, reference=ASKED)
    assert ans.rounds == 1
    assert len(ans.gathered) <= reader.k


def test_versioned_state_ablation_answers_from_evidence(reader: OfflineReader) -> None:
    ans = ablated(reader, ABLATE_VERSIONED_STATE).answer(
        "What time is the Atlas design review now?", scope=PUBLIC, reference=ASKED)
    assert ans.states == []
    assert "was 4 pm" not in ans.answer


def test_dates_in_the_question_steer_the_evidence(tmp_path: Path) -> None:
    day = timedelta(days=1)
    messages = chat() + [
        msg(50, "Omar", "the deploy went smoothly, no incidents", minutes=60 * 24 * -3),
        msg(51, "Omar", "the deploy went badly, we rolled back", minutes=60 * 24 * 2),
    ]
    mem = build(tmp_path, messages)
    reader = OfflineReader(tools=offline_tools(mem.store, mem.embedder))
    asked = T0 + 5 * day
    for when, expected in (("on Nov 1", "C1.50"), ("on Nov 6", "C1.51"),
                           ("on Wednesday", "C1.51")):
        ans = reader.answer(f"How did the deploy go {when}?", scope=PUBLIC, reference=asked)
        assert ans.gathered[0] == mem.node(expected), when
        assert ans.citations[0].message_id == expected


def test_short_answers_name_the_value_date_or_clause(tmp_path: Path) -> None:
    from tests.support.memory import msg as chat_msg
    from tests.support.memory import open_memory

    store, writer = open_memory(tmp_path)
    writer.write([
        chat_msg(1, "Dana", "I went to the pottery workshop yesterday, it was lovely"),
        chat_msg(2, "Eli", "Guess what, I adopted a puppy named Biscuit!", minutes=60 * 30),
        chat_msg(3, "Gil", "Researching adoption agencies — it's been a dream to have a "
                           "family", minutes=60 * 50),
        chat_msg(4, "Hana", "The offsite is on Thursday at 3 pm", minutes=60 * 70),
        chat_msg(5, "Hana", "offsite moved to 4 pm instead", minutes=60 * 71),
    ])
    r = OfflineReader(tools=offline_tools(store, writer.embedder))
    scope = PUBLIC.model_copy(update={"space": "T1", "channels": ("C1",)})
    asked = datetime(2024, 11, 9, tzinfo=UTC)

    pottery = r.answer("When did Dana go to the pottery workshop?", scope=scope,
                       reference=asked)
    assert pottery.short == "3 November 2024"  # "yesterday", said on Monday 4 November
    assert pottery.answer.splitlines()[0] == "Sunday 3 November 2024"
    assert pottery.answer.splitlines()[1].startswith(
        'Dana (#atlas-dev, Nov 4): "I went to the pottery workshop')

    puppy = r.answer("When did Eli adopt a puppy?", scope=scope, reference=asked)
    assert puppy.short == "5 November 2024"  # no date in the message: the day it was said

    research = r.answer("What did Gil research?", scope=scope, reference=asked)
    assert research.short == "Researching adoption agencies"

    offsite = r.answer("What time is the offsite now?", scope=scope, reference=asked)
    assert offsite.short == "4 pm"
    assert offsite.answer.splitlines()[0] == "4 pm"
    assert offsite.answer.splitlines()[1].startswith("offsite")

    assert r.answer("What is the capital of Mongolia?", scope=scope).short == ""


def test_best_clause_and_spoken_dates() -> None:
    from datetime import date

    from memory.dates import DateResolution, resolve_date
    from memory.reader.answer import best_clause

    assert best_clause("What did Gil research?", "Well, researching agencies; fun") == (
        "researching agencies")
    assert best_clause("Who won?", "No shared words here.") == "No shared words here."
    ref = date(2023, 5, 8)
    spoken = {e: r.spoken() for e in ("yesterday", "last year", "last month", "last week")
              if (r := resolve_date(e, ref)) is not None}
    assert spoken == {"yesterday": "7 May 2023", "last year": "2022",
                      "last month": "April 2023", "last week": "the week of 1 May 2023"}
    span = DateResolution(start=date(2023, 5, 1), end=date(2023, 5, 3), granularity="day",
                          text="x")
    assert span.spoken() == "1 May 2023 – 3 May 2023"


def test_relevance_terms_share_stems_across_word_forms() -> None:
    from memory.reader.features import relevance_terms

    assert set(relevance_terms("What did John get promoted to?")) & set(
        relevance_terms("I finally got a promotion at work")) == {"promot"}
    assert relevance_terms("Melanie's paintings", skip={"melanie's"}) == ["paint"]
    assert relevance_terms("what is the") == []
