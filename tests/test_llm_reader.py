"""The LLM reader's tool loop against the scripted OpenAI-compatible server."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from memory.llm import LLMClient, LLMSettings
from memory.reader.llm_reader import PROMPT_VERSION, SYSTEM_PROMPT, TOOLS, LLMReader
from memory.reader.search import ABLATE_SINGLE_ROUND
from memory.reader.tools import ReaderTools
from tests.support.fake_openai import (
    ScriptedOpenAIServer,
    iter_tool_names,
    text,
    tool_calls,
)
from tests.support.reader_memory import PRIVATE_PHRASE, PUBLIC, Memory, build

ASKED = datetime(2024, 11, 8, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return build(tmp_path_factory.mktemp("llm"))


def reader_for(srv: ScriptedOpenAIServer, mem: Memory, **kw: Any) -> LLMReader:
    client = LLMClient(settings=LLMSettings(base_url=srv.base_url, model="fake-model",
                                            max_retries=0, timeout_s=10))
    return LLMReader(client=client, tools=ReaderTools(store=mem.store, embedder=mem.embedder),
                     **kw)


def final(answer: str, citations: list[str], abstain: bool = False) -> str:
    return json.dumps({"answer": answer, "citations": citations, "abstain": abstain})


def tool_outputs(req: Any) -> list[str]:
    return [m["content"] for m in req["messages"] if m.get("role") == "tool"]


def test_multi_round_loop_with_validated_citations(fake_openai: ScriptedOpenAIServer,
                                                   mem: Memory) -> None:
    current, earlier = mem.node("C1.8"), mem.node("C1.3")
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": "atlas design review time"})]),
        tool_calls([("read_current_state", {"query": "atlas design review"}),
                    ("resolve_date", {"expression": "yesterday"})]),
        text(final("Friday 10am (was 4 pm)", [current, earlier, "n_invented000000000"])),
    )
    ans = reader_for(fake_openai, mem).answer("When is the Atlas design review?",
                                              scope=PUBLIC, reference=ASKED)
    assert ans.answer == "Friday 10am (was 4 pm)"
    assert not ans.abstained
    assert ans.rounds == 2
    assert [c.node_id for c in ans.citations] == [current, earlier]  # invented id dropped
    assert ans.citations[0].speaker == "Alice"
    assert [s.topic for s in ans.states] == ["atlas design review"]

    reqs = fake_openai.chat_requests()
    assert len(reqs) == 3 and fake_openai.unscripted == 0
    first = reqs[0]
    assert first["messages"][0]["content"] == SYSTEM_PROMPT
    assert PROMPT_VERSION in SYSTEM_PROMPT
    # The question travels as data, not as instructions.
    assert json.loads(first["messages"][1]["content"]) == {
        "question": "When is the Atlas design review?", "asked_on": "2024-11-08"}
    assert set(iter_tool_names(first)) == {t["function"]["name"] for t in TOOLS}
    # Each request carries every earlier observation.
    second, third = tool_outputs(reqs[1]), tool_outputs(reqs[2])
    assert len(second) == 1 and (current in second[0] or earlier in second[0])
    assert third[0] == second[0] and len(third) == 3
    assert "Friday 10am" in third[1] and "Thursday at 3 pm" in third[1]
    assert third[2] == "yesterday = 2024-11-07 (day)"


def test_budget_is_respected_then_a_final_answer_is_forced(fake_openai: ScriptedOpenAIServer,
                                                           mem: Memory) -> None:
    def policy(body: dict[str, Any]) -> Any:
        if body.get("tools"):
            n = sum(1 for m in body["messages"] if m.get("role") == "tool")
            return tool_calls([("search_evidence", {"query": f"review {n}", "k": 2})])
        seen = [m["content"] for m in body["messages"] if m.get("role") == "tool"]
        ids = [w.strip("[]") for s in seen for w in s.split() if w.startswith("[n_")]
        return text(final("out of budget", ids[:1]))

    fake_openai.policy = policy
    ans = reader_for(fake_openai, mem, max_rounds=3).answer("review?", scope=PUBLIC,
                                                            reference=ASKED)
    reqs = fake_openai.chat_requests()
    assert len(reqs) == 4
    assert all(r.body.get("tools") for r in reqs[:3])
    assert "tools" not in reqs[3].body
    assert reqs[3]["messages"][-1]["role"] == "user"
    assert ans.rounds == 3 and ans.answer == "out of budget"
    assert len(ans.citations) == 1 and ans.citations[0].node_id in ans.gathered
    # Suppression: three searches never showed a passage twice.
    assert len(ans.gathered) == len(set(ans.gathered)) == 6


def test_single_round_ablation_allows_one_tool_turn(fake_openai: ScriptedOpenAIServer,
                                                    mem: Memory) -> None:
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": "release version"}),
                    ("lookup_phrase", {"phrase": "calling it"})]),
        text(final("2.4", [mem.node("C1.9")])),
    )
    ans = reader_for(fake_openai, mem).answer("Which version?", scope=PUBLIC,
                                              ablate=frozenset({ABLATE_SINGLE_ROUND}))
    reqs = fake_openai.chat_requests()
    assert len(reqs) == 2 and "tools" not in reqs[1].body
    assert ans.rounds == 1 and [c.message_id for c in ans.citations] == ["C1.9"]


def test_out_of_scope_requests_cannot_reach_other_channels(fake_openai: ScriptedOpenAIServer,
                                                           mem: Memory) -> None:
    private = mem.node("C2.1", channel="C2")
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": PRIVATE_PHRASE, "channels": ["C2"]}),
                    ("lookup_phrase", {"phrase": PRIVATE_PHRASE}),
                    ("search_evidence", {"query": f"{PRIVATE_PHRASE} HR drive", "k": 20}),
                    ("read_current_state", {"query": PRIVATE_PHRASE, "k": 5})]),
        text(final("Draft salary bands are in the HR drive", [private])),
    )
    ans = reader_for(fake_openai, mem).answer("Where are the salary bands?", scope=PUBLIC)
    outputs = tool_outputs(fake_openai.chat_requests()[1])
    assert len(outputs) == 4
    assert all(private not in o and PRIVATE_PHRASE not in o for o in outputs)
    assert outputs[0] == "no new passages" and outputs[1] == "no new passages"
    assert ans.citations == []  # the id was never observed in this scope
    assert private not in ans.gathered


def test_bad_tool_calls_become_error_observations(fake_openai: ScriptedOpenAIServer,
                                                  mem: Memory) -> None:
    fake_openai.enqueue(
        tool_calls([("search_evidence", "{not json"), ("search_evidence", {"k": 3}),
                    ("drop_tables", {}), ("search_evidence", {"query": "x", "from": "soon"})]),
        text("I could not find it."),
    )
    ans = reader_for(fake_openai, mem).answer("anything?", scope=PUBLIC)
    outputs = tool_outputs(fake_openai.chat_requests()[1])
    assert [o.split(":")[0] for o in outputs] == ["error"] * 4
    assert "unknown tool" in outputs[2]
    # A reply that is not the JSON asked for is kept as text but cites nothing.
    assert ans.answer == "I could not find it." and ans.citations == []


def test_abstention_is_reported(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": "capital of Mongolia"})]),
        text("```json\n" + final("No evidence in memory.", [mem.node("C1.1")], True) + "\n```"),
    )
    ans = reader_for(fake_openai, mem).answer("What is the capital of Mongolia?",
                                              scope=PUBLIC)
    assert ans.abstained and ans.citations == []
    assert ans.answer == "No evidence in memory."


def test_max_rounds_must_be_positive(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    with pytest.raises(ValueError):
        reader_for(fake_openai, mem, max_rounds=0)
