"""The LLM reader's tool loop against the scripted OpenAI-compatible server."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from memory.llm import LLMClient, LLMSettings
from memory.llm.profile import MemoryProfileStore
from memory.llm.reader_prompts import FORCE_ANSWER, MAX_PASSAGE_CHARS, REASK_UNCITED
from memory.reader.llm_reader import (
    FALLBACK_NOTICE,
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    TOOLS,
    LLMReader,
)
from memory.reader.search import ABLATE_SINGLE_ROUND
from memory.reader.tools import offline_tools
from tests.support.fake_openai import (
    EndpointMode,
    RecordedRequest,
    Reply,
    ScriptedOpenAIServer,
    error,
    iter_tool_names,
    text,
    tool_calls,
)
from tests.support.reader_memory import PRIVATE_PHRASE, PUBLIC, Memory, build

ASKED = datetime(2024, 11, 8, 12, tzinfo=UTC)
NAME = re.compile(r"\[(E\d+)\]")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return build(tmp_path_factory.mktemp("llm"))


def reader_for(srv: ScriptedOpenAIServer, mem: Memory, *, clock: Clock | None = None,
               **kw: Any) -> LLMReader:
    client = LLMClient(settings=LLMSettings(base_url=srv.base_url, model="fake-model",
                                            max_retries=0, timeout_s=10),
                       clock=clock or Clock(), sleep=lambda s: None,
                       profiles=MemoryProfileStore())
    return LLMReader(client=client, tools=offline_tools(mem.store, mem.embedder),
                     **kw)


def answer(text_: str, citations: list[str] | str, abstain: Any = False) -> Reply:
    return tool_calls([("answer", {"answer": text_, "citations": citations,
                                   "abstain": abstain})])


def tool_outputs(req: RecordedRequest | dict[str, Any]) -> list[str]:
    body = req.body if isinstance(req, RecordedRequest) else req
    return [m["content"] for m in body["messages"] if m.get("role") == "tool"]


def names(body: dict[str, Any], fragment: str) -> list[str]:
    """The passage names (E1, ...) the request's observations gave lines holding
    ``fragment``."""
    return [m.group(1) for out in tool_outputs(body) for line in out.splitlines()
            if fragment in line and (m := NAME.search(line))]


def test_multi_round_loop_with_validated_citations(fake_openai: ScriptedOpenAIServer,
                                                   mem: Memory) -> None:
    current, earlier = mem.node("C1.8"), mem.node("C1.3")

    def model(body: dict[str, Any]) -> Reply:
        turns = sum(1 for m in body["messages"] if m["role"] == "assistant")
        if turns == 0:
            return tool_calls([("search_evidence", {"query": "atlas design review time"})])
        if turns == 1:
            return tool_calls([("read_current_state", {"query": "atlas design review"}),
                               ("resolve_date", {"expression": "yesterday"})])
        cited = names(body, "Friday 10am")[:1] + names(body, "4 pm instead")[:1] + ["E99"]
        return answer("Friday 10am (was 4 pm)", cited)

    fake_openai.policy = model
    ans = reader_for(fake_openai, mem).answer("When is the Atlas design review?",
                                              scope=PUBLIC, reference=ASKED)
    assert ans.answer == "Friday 10am (was 4 pm)"
    assert not ans.abstained
    assert ans.rounds == 2
    assert [c.node_id for c in ans.citations] == [current, earlier]  # invented name dropped
    assert ans.citations[0].speaker == "Alice"
    assert [s.topic for s in ans.states] == ["atlas design review"]

    reqs = fake_openai.chat_requests()
    assert len(reqs) == 3 and fake_openai.unscripted == 0
    first = reqs[0]
    assert PROMPT_VERSION in SYSTEM_PROMPT
    # The question travels as data, not as instructions.
    assert json.loads(first["messages"][1]["content"]) == {
        "question": "When is the Atlas design review?", "asked_on": "2024-11-08",
        "tool_rounds": 10}
    for r in reqs:  # the same prefix on every call: prompt-cache friendly
        assert r["messages"][0]["content"] == SYSTEM_PROMPT and r["tools"] == TOOLS
    # Passages go by name: no node id reaches the model.
    everything = json.dumps([r.body for r in reqs])
    assert current not in everything and earlier not in everything
    second, third = tool_outputs(reqs[1]), tool_outputs(reqs[2])
    assert len(second) == 1 and "[9 tool rounds left]" in second[0]
    assert third[0] == second[0] and len(third) == 3
    assert "Friday 10am" in third[1] and "Thursday at 3 pm" in third[1]
    assert third[2].startswith("yesterday = 2024-11-07 (day)")


def test_the_model_is_told_who_asks(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    """The member asking travels with the question, by the name they speak under, so a
    model does not answer "who moved it?" with its asker (as the offline reader does not)."""
    fake_openai.policy = lambda body: answer("Alice", names(body, "Friday 10am")[:1] or ["E1"])
    reader = reader_for(fake_openai, mem)
    reader.answer("Who moved the review?", scope=PUBLIC, reference=ASKED, asker="Bob")
    reader.answer("Who moved the review?", scope=PUBLIC, reference=ASKED, asker="U-NOBODY")
    told = [json.loads(r["messages"][1]["content"]) for r in fake_openai.chat_requests()]
    assert told[0]["asked_by"] == "Bob"
    assert "asked_by" not in told[-1]  # a member who never spoke: nothing to tell
    assert '"asked_by"' in SYSTEM_PROMPT
    # nor is a member the question names who did it, as offline
    assert "the question itself" in SYSTEM_PROMPT
    # a measure asked needs one said, as the offline coverage test and answer fit
    assert "a temperature by degrees, a phone number" in SYSTEM_PROMPT
    # a bound is no count, "is there X" needs X, a day booked for is ahead (statements)
    assert "is no count" in SYSTEM_PROMPT and "needs parking said" in SYSTEM_PROMPT
    assert "booked for is ahead" in SYSTEM_PROMPT
    # a task taken over from someone is the speaker's; a value said new is current (people,
    # extract.value_in)
    assert "not Declan" in SYSTEM_PROMPT and '"new one is Y": Y' in SYSTEM_PROMPT


def test_rounds_left_are_told_and_the_answer_is_forced(fake_openai: ScriptedOpenAIServer,
                                                       mem: Memory) -> None:
    def policy(body: dict[str, Any]) -> Reply:
        if body.get("tool_choice") != FORCE_ANSWER:
            n = sum(1 for m in body["messages"] if m.get("role") == "tool")
            return tool_calls([("search_evidence", {"query": f"review {n}", "k": 2})])
        seen = [w for out in tool_outputs(body) for w in NAME.findall(out)]
        return answer("out of budget", seen[:1])

    fake_openai.policy = policy
    ans = reader_for(fake_openai, mem, max_rounds=3).answer("review?", scope=PUBLIC,
                                                            reference=ASKED)
    reqs = fake_openai.chat_requests()
    assert len(reqs) == 4
    assert [r.body.get("tool_choice") for r in reqs] == ["required"] * 3 + [FORCE_ANSWER]
    assert all(r["tools"] == TOOLS for r in reqs)  # tools kept on the final call
    notes = [out.splitlines()[-1] for out in tool_outputs(reqs[3])]
    assert notes == ["[2 tool rounds left]", "[1 tool round left]",
                     "[no tool rounds left: call answer now]"]
    assert ans.rounds == 3 and ans.answer == "out of budget"
    assert len(ans.citations) == 1 and ans.citations[0].node_id in ans.gathered
    # Suppression: three searches never showed a passage twice.
    assert len(ans.gathered) == len(set(ans.gathered)) == 6


def test_single_round_ablation_allows_one_tool_turn(fake_openai: ScriptedOpenAIServer,
                                                    mem: Memory) -> None:
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": "release version"}),
                    ("lookup_phrase", {"phrase": "calling it"})]))
    fake_openai.policy = lambda body: answer("2.4", names(body, "calling it")[:1])
    ans = reader_for(fake_openai, mem, ablate=frozenset({ABLATE_SINGLE_ROUND})).answer(
        "Which version?", scope=PUBLIC)
    reqs = fake_openai.chat_requests()
    assert len(reqs) == 2 and reqs[1]["tool_choice"] == FORCE_ANSWER
    assert ans.rounds == 1 and [c.message_id for c in ans.citations] == ["C1.9"]


def test_out_of_scope_requests_cannot_reach_other_channels(fake_openai: ScriptedOpenAIServer,
                                                           mem: Memory) -> None:
    private = mem.node("C2.1", channel="C2")
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": PRIVATE_PHRASE, "channels": ["C2"]}),
                    ("search_evidence", {"query": PRIVATE_PHRASE,
                                         "channels": ["#hr-private"]}),
                    ("lookup_phrase", {"phrase": PRIVATE_PHRASE}),
                    ("read_current_state", {"query": PRIVATE_PHRASE, "k": 5})]),
        answer("Draft salary bands are in the HR drive", [private, "E1"]),
        answer("Draft salary bands are in the HR drive", [private]),
    )
    ans = reader_for(fake_openai, mem).answer("Where are the salary bands?", scope=PUBLIC)
    outputs = tool_outputs(fake_openai.chat_requests()[1])
    assert len(outputs) == 4
    assert all(private not in o and PRIVATE_PHRASE not in o for o in outputs)
    # Out of scope by id or by name: the same answer as a channel that does not exist.
    assert outputs[0].startswith("error: unknown channel 'C2'")
    assert outputs[1].startswith("error: unknown channel '#hr-private'")
    assert ans.citations == [] and ans.abstained  # nothing cited was shown in this scope
    assert private not in ans.gathered


def test_channel_filters_accept_names(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": "release version",
                                         "channels": ["#atlas-dev"]}),
                    ("lookup_phrase", {"phrase": "calling it", "channels": "atlas-dev"})]),
        answer("2.4", "E1"))
    reader_for(fake_openai, mem).answer("Which version?", scope=PUBLIC)
    search, lookup = tool_outputs(fake_openai.chat_requests()[1])
    assert "#atlas-dev" in search and "version" in search
    assert "calling it" in lookup


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
    assert ans.abstained and ans.citations == []  # a prose "could not find" abstains


def test_per_round_and_per_result_budgets(fake_openai: ScriptedOpenAIServer,
                                          mem: Memory) -> None:
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": f"review {i}", "k": 20}) for i in range(6)]),
        answer("nothing", [], True))
    reader_for(fake_openai, mem).answer("review?", scope=PUBLIC)
    outputs = tool_outputs(fake_openai.chat_requests()[1])
    assert len(outputs) == 6
    assert [o.startswith("not run: at most 4 tool calls") for o in outputs] == [False] * 4 + [
        True] * 2
    passages = [line for o in outputs for line in o.splitlines() if NAME.match(line)]
    assert 0 < len(passages) <= 4 * 8
    assert all(len(line) < MAX_PASSAGE_CHARS + 120 for line in passages)


# ---------------------------------------------------------------------------- final answers


def test_string_booleans_are_coerced(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    fake_openai.enqueue(tool_calls([("search_evidence", {"query": "release version"})]))
    fake_openai.policy = lambda body: answer("2.4", names(body, "calling it"), "false")
    ans = reader_for(fake_openai, mem).answer("Which version?", scope=PUBLIC)
    assert not ans.abstained and ans.answer == "2.4"
    assert [c.message_id for c in ans.citations] == ["C1.9"]


def test_string_booleans_mode_end_to_end(mem: Memory) -> None:
    def model(body: dict[str, Any]) -> Reply:
        if not tool_outputs(body):
            return tool_calls([("search_evidence", {"query": "release version"})])
        return answer("2.4", names(body, "calling it"), False)

    with ScriptedOpenAIServer(policy=model, mode=EndpointMode(string_booleans=True)) as srv:
        ans = reader_for(srv, mem).answer("Which version?", scope=PUBLIC)
    assert not ans.abstained and ans.citations


def test_a_prose_i_dont_know_abstains(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    fake_openai.enqueue(text("I don't know."))
    ans = reader_for(fake_openai, mem).answer("What is the capital of Mongolia?",
                                              scope=PUBLIC)
    assert ans.abstained and ans.citations == []
    assert len(fake_openai.chat_requests()) == 1


def test_an_uncited_answer_is_asked_once_more(fake_openai: ScriptedOpenAIServer,
                                              mem: Memory) -> None:
    fake_openai.enqueue(tool_calls([("search_evidence", {"query": "release version"})]),
                        answer("2.4", []))
    fake_openai.policy = lambda body: answer("2.4", names(body, "calling it"))
    ans = reader_for(fake_openai, mem).answer("Which version?", scope=PUBLIC)
    reqs = fake_openai.chat_requests()
    assert len(reqs) == 3 and tool_outputs(reqs[2])[-1] == REASK_UNCITED
    assert reqs[2]["tool_choice"] == FORCE_ANSWER
    assert not ans.abstained and [c.message_id for c in ans.citations] == ["C1.9"]


def test_an_answer_whose_citations_are_all_dropped_abstains(
    fake_openai: ScriptedOpenAIServer, mem: Memory,
) -> None:
    fake_openai.enqueue(tool_calls([("search_evidence", {"query": "release version"})]),
                        answer("2.4", ["E77", "n_0123456789abcdef0123"]),
                        answer("2.4", ["E78"]))
    ans = reader_for(fake_openai, mem).answer("Which version?", scope=PUBLIC)
    assert ans.abstained and ans.citations == []
    assert len(fake_openai.chat_requests()) == 3


def test_an_uncited_prose_answer_is_asked_once_then_abstains(
    fake_openai: ScriptedOpenAIServer, mem: Memory,
) -> None:
    fake_openai.enqueue(text("It is version 2.4."), text("Version 2.4, I am sure."))
    ans = reader_for(fake_openai, mem).answer("Which version?", scope=PUBLIC)
    reqs = fake_openai.chat_requests()
    assert len(reqs) == 2 and reqs[1]["messages"][-1]["content"] == REASK_UNCITED
    assert ans.abstained and ans.citations == []


def test_abstention_is_reported(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": "capital of Mongolia"})]),
        text("```json\n" + json.dumps({"answer": "No evidence in memory.",
                                       "citations": ["E1"], "abstain": True}) + "\n```"),
    )
    ans = reader_for(fake_openai, mem).answer("What is the capital of Mongolia?",
                                              scope=PUBLIC)
    assert ans.abstained and ans.citations == []
    assert ans.answer == "No evidence in memory."


# ---------------------------------------------------------------------------- endpoint failures


def test_a_deadline_is_honoured(mem: Memory) -> None:
    clock = Clock()

    def slow_model(body: dict[str, Any]) -> Reply:
        return tool_calls([("search_evidence", {"query": "review"})])

    mode = EndpointMode(delay_s=25.0, sleep=clock.advance)  # each reply takes 25 s (fake)
    with ScriptedOpenAIServer(policy=slow_model, mode=mode) as srv:
        ans = reader_for(srv, mem, clock=clock, deadline_s=60.0).answer(
            "When is the review?", scope=PUBLIC)
        calls = len(srv.chat_requests())
    # 0 s: round 1; 25 s: round 2; 50 s: past half the deadline, the answer is forced
    # (the model keeps searching); 75 s: past the deadline, the offline reader answers.
    assert calls == 3
    assert FALLBACK_NOTICE in ans.answer
    assert clock.now == 75.0


def test_an_overflow_mid_loop_keeps_the_evidence_and_says_nothing_of_the_url(
    fake_openai: ScriptedOpenAIServer, mem: Memory,
) -> None:
    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": "atlas design review"})]),
        error(400, {"object": "error", "message": "This model's maximum context length is 2048 "
                    "tokens. However, you requested 2300 tokens (1700 in the messages, 600 "
                    "in the completion).", "type": "BadRequestError", "param": None,
                    "code": 400}))
    reader = reader_for(fake_openai, mem)
    ans = reader.answer("When is the Atlas design review?", scope=PUBLIC, reference=ASKED)
    assert ans.answer.endswith(FALLBACK_NOTICE)
    assert fake_openai.base_url not in ans.answer and "127.0.0.1" not in ans.answer
    assert "Friday 10am" in ans.answer and ans.citations  # the offline reader's answer
    first_search = tool_outputs(fake_openai.chat_requests()[1])[0]
    assert all(mem.store.get_nodes([n]) for n in ans.gathered)
    assert len(ans.gathered) >= len(NAME.findall(first_search))
    assert reader.client.profile.get().context_tokens == 2048


def test_an_unreachable_endpoint_falls_back(fake_openai: ScriptedOpenAIServer,
                                            mem: Memory) -> None:
    reader = reader_for(fake_openai, mem)
    fake_openai.stop()
    ans = reader.answer("Which version are we releasing?", scope=PUBLIC)
    assert ans.answer.endswith(FALLBACK_NOTICE) and "2.4" in ans.answer


def test_no_tools_endpoint_answers_from_json(mem: Memory) -> None:
    def model(body: dict[str, Any]) -> Reply:
        observed = body["messages"][-1]["content"]
        found = [line for line in observed.splitlines() if "calling it" in line]
        cited = NAME.findall(found[0]) if found else []
        return answer("2.4", cited)

    with ScriptedOpenAIServer(policy=model, mode=EndpointMode(tools=False)) as srv:
        reader = reader_for(srv, mem)
        ans = reader.answer("Which version are we releasing now?", scope=PUBLIC)
        reqs = srv.chat_requests()
    assert [bool(r.body.get("tools")) for r in reqs] == [True, False]
    assert reqs[1]["response_format"] == {"type": "json_object"}
    assert not ans.abstained and [c.message_id for c in ans.citations] == ["C1.9"]
    assert reader.client.profile.get().path == "json"


def test_max_rounds_must_be_positive(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    with pytest.raises(ValueError):
        reader_for(fake_openai, mem, max_rounds=0)


def test_tools_schema() -> None:
    answer_tool = next(t for t in TOOLS if t["function"]["name"] == "answer")
    assert answer_tool["function"]["strict"] is True
    assert list(iter_tool_names(RecordedRequest("/", {}, {"tools": TOOLS}))) == [
        "search_evidence", "lookup_phrase", "read_current_state", "resolve_date", "answer"]


def test_a_refused_tool_choice_is_weakened_not_fatal(fake_openai: ScriptedOpenAIServer,
                                                     mem: Memory) -> None:
    fake_openai.enqueue(
        error(400, {"error": {"message": "tool_choice 'required' is not supported",
                              "type": "invalid_request_error", "param": "tool_choice"}}),
        tool_calls([("search_evidence", {"query": "release version"})]))
    fake_openai.policy = lambda body: answer("2.4", names(body, "calling it"))
    reader = reader_for(fake_openai, mem, max_rounds=1)
    ans = reader.answer("Which version?", scope=PUBLIC)
    reqs = fake_openai.chat_requests()
    assert [r.body.get("tool_choice") for r in reqs] == ["required", None, FORCE_ANSWER]
    assert reader.client.profile.get().tool_choice == "named"
    assert not ans.abstained and FALLBACK_NOTICE not in ans.answer


def test_a_cut_answer_is_asked_for_again(fake_openai: ScriptedOpenAIServer,
                                         mem: Memory) -> None:
    from tests.support.fake_openai import ToolCallsReply

    fake_openai.enqueue(
        tool_calls([("search_evidence", {"query": "release version"})]),
        ToolCallsReply(calls=(("answer", '{"answer": "It is version 2.4 as Frank'),),
                       finish_reason="length"))
    fake_openai.policy = lambda body: answer("2.4", names(body, "calling it"))
    ans = reader_for(fake_openai, mem).answer("Which version?", scope=PUBLIC)
    reqs = fake_openai.chat_requests()
    assert len(reqs) == 3 and tool_outputs(reqs[2])[-1].startswith("rejected: unreadable")
    assert not ans.abstained and [c.message_id for c in ans.citations] == ["C1.9"]
