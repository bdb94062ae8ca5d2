"""LLMClient against a real local HTTP server through the real openai client."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest

from bot.app import build_llm
from bot.settings import Settings
from memory.errors import ConfigError, EndpointError
from memory.llm import ChatResult, LLMClient, LLMSettings, UsageMeter, parse_tool_arguments
from memory.llm.profile import MemoryProfileStore
from tests.support.fake_openai import (
    ScriptedOpenAIServer,
    count_tokens,
    deterministic_vector,
    embeddings,
    error,
    hang,
    iter_tool_names,
    prompt_tokens_of,
    text,
    tool_calls,
)

API_KEY = "sk-test-very-secret-key-1234"

SAVE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "save_state",
        "description": "Record the current value of a topic.",
        "parameters": {
            "type": "object",
            "properties": {"topic": {"type": "string"}, "value": {"type": "string"}},
            "required": ["topic", "value"],
        },
    },
}

USER_MSG = [{"role": "user", "content": "standup moved to 10:30 on Tuesdays"}]


class SleepRecorder:
    """Stands in for time.sleep: records the delays, returns at once."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def make_client(srv: ScriptedOpenAIServer, sleep: SleepRecorder, **overrides: Any) -> LLMClient:
    params: dict[str, Any] = {"base_url": srv.base_url, "api_key": API_KEY,
                              "model": "fake-model", "timeout_s": 5.0, "max_retries": 3,
                              "backoff_base_s": 0.5, "max_backoff_s": 20.0}
    params.update(overrides)
    return LLMClient(settings=LLMSettings(**params), rng=random.Random(7), sleep=sleep)


# --------------------------------------------------------------------------- happy paths


def test_text_reply(fake_openai: ScriptedOpenAIServer) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(text("Standup is at 10:30."))
    with make_client(fake_openai, sleep) as client:
        result = client.chat(operation="reader", messages=USER_MSG)

    assert isinstance(result, ChatResult)
    assert result.content == "Standup is at 10:30."
    assert result.tool_calls == []
    assert result.finish_reason == "stop"
    assert result.completion_tokens == 4
    assert result.prompt_tokens == count_tokens(USER_MSG[0]["content"])
    (req,) = fake_openai.requests
    assert req.path == "/v1/chat/completions"
    assert req["model"] == "fake-model"
    assert req["messages"] == USER_MSG
    assert req["temperature"] == 0.0
    assert "tools" not in req.body and "max_tokens" not in req.body
    assert req.headers["authorization"] == f"Bearer {API_KEY}"
    assert sleep.calls == []


def test_tool_calls_parsed_and_malformed_arguments_recorded(
    fake_openai: ScriptedOpenAIServer,
) -> None:
    fake_openai.enqueue(tool_calls([
        ("save_state", {"topic": "standup", "value": "10:30"}),
        ("save_state", '{"topic": "standup", "value": '),  # truncated JSON
        ("save_state", "[1, 2]"),  # valid JSON, not an object
    ]))
    with make_client(fake_openai, SleepRecorder()) as client:
        result = client.chat(operation="writer", messages=USER_MSG, tools=[SAVE_TOOL],
                             tool_choice="auto", max_tokens=200)

    assert result.finish_reason == "tool_calls"
    assert result.content is None
    good, truncated, not_object = result.tool_calls
    assert good.name == "save_state"
    assert good.arguments == {"topic": "standup", "value": "10:30"}
    assert good.error is None
    assert good.id == "call_1_0"
    assert truncated.arguments is None
    assert truncated.arguments_raw == '{"topic": "standup", "value": '
    assert truncated.error is not None and "JSON" in truncated.error
    assert not_object.arguments is None and not_object.error is not None
    assert "list" in not_object.error

    (req,) = fake_openai.requests
    assert req["tools"] == [SAVE_TOOL]
    assert list(iter_tool_names(req)) == ["save_state"]
    assert req["tool_choice"] == "auto"
    assert req["max_tokens"] == 200


def test_usage_meter_matches_server_reported_usage(fake_openai: ScriptedOpenAIServer) -> None:
    fake_openai.enqueue(
        text("one two three"),
        tool_calls([("save_state", {"topic": "a", "value": "b c"})]),
        text("four"),
    )
    with make_client(fake_openai, SleepRecorder()) as client:
        r1 = client.chat(operation="reader", messages=USER_MSG)
        r2 = client.chat(operation="writer", messages=USER_MSG, tools=[SAVE_TOOL])
        r3 = client.chat(operation="reader", messages=[
            *USER_MSG,
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_x", "type": "function",
                 "function": {"name": "save_state", "arguments": '{"topic": "a"}'}}]},
            {"role": "tool", "tool_call_id": "call_x", "content": "saved ok"},
        ])
        snap = client.meter.snapshot()

    reqs = fake_openai.requests
    expected_prompts = [prompt_tokens_of(r.body) for r in reqs]
    assert [r1.prompt_tokens, r2.prompt_tokens, r3.prompt_tokens] == expected_prompts
    # The tool schema counts towards the prompt, and the tool call towards the completion.
    assert r2.prompt_tokens > r1.prompt_tokens
    assert r2.completion_tokens == count_tokens("save_state") + count_tokens(
        json.dumps({"topic": "a", "value": "b c"}))
    assert snap == {
        "reader": {"calls": 2, "prompt_tokens": r1.prompt_tokens + r3.prompt_tokens,
                   "completion_tokens": 3 + 1, "retries": 0, "failures": 0},
        "writer": {"calls": 1, "prompt_tokens": r2.prompt_tokens,
                   "completion_tokens": r2.completion_tokens, "retries": 0, "failures": 0},
    }


# --------------------------------------------------------------------------- retries


def test_429_honours_retry_after_then_succeeds(fake_openai: ScriptedOpenAIServer) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(error(429, headers={"Retry-After": "3"}), text("ok"))
    with make_client(fake_openai, sleep) as client:
        result = client.chat(operation="writer", messages=USER_MSG)

    assert result.content == "ok"
    assert sleep.calls == [3.0]
    assert len(fake_openai.requests) == 2
    assert client.meter.snapshot()["writer"]["retries"] == 1
    assert client.meter.snapshot()["writer"]["failures"] == 0


def test_retry_after_is_capped(fake_openai: ScriptedOpenAIServer) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(error(429, headers={"Retry-After": "3600"}), text("ok"))
    with make_client(fake_openai, sleep, max_backoff_s=4.0) as client:
        client.chat(operation="writer", messages=USER_MSG)
    assert sleep.calls == [4.0]


def test_500_twice_then_success_uses_jittered_exponential_backoff(
    fake_openai: ScriptedOpenAIServer,
) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(error(500), error(502), text("recovered"))
    with make_client(fake_openai, sleep, backoff_base_s=0.5) as client:
        result = client.chat(operation="rerank", messages=USER_MSG)

    assert result.content == "recovered"
    same_rng = random.Random(7)
    expected = [0.5 * same_rng.uniform(0.5, 1.0), 1.0 * same_rng.uniform(0.5, 1.0)]
    assert sleep.calls == pytest.approx(expected)
    assert 0.25 <= sleep.calls[0] <= 0.5 and 0.5 <= sleep.calls[1] <= 1.0
    assert client.meter.snapshot()["rerank"] == {
        "calls": 1, "prompt_tokens": result.prompt_tokens, "completion_tokens": 1,
        "retries": 2, "failures": 0}
    assert len(fake_openai.requests) == 3


def test_persistent_429_exhausts_retries(fake_openai: ScriptedOpenAIServer) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(*[error(429, headers={"Retry-After": "1"}) for _ in range(4)])
    with make_client(fake_openai, sleep, max_retries=3) as client:
        with pytest.raises(EndpointError) as info:
            client.chat(operation="writer", messages=USER_MSG)
    assert "429" in str(info.value)
    assert fake_openai.base_url in str(info.value)
    assert sleep.calls == [1.0, 1.0, 1.0]
    assert client.meter.snapshot()["writer"]["retries"] == 3
    assert client.meter.snapshot()["writer"]["failures"] == 1


def test_timeout_is_retried(fake_openai: ScriptedOpenAIServer) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(hang(3.0), text("in time"))
    with make_client(fake_openai, sleep, timeout_s=0.3) as client:
        result = client.chat(operation="reader", messages=USER_MSG)
    assert result.content == "in time"
    assert len(sleep.calls) == 1
    assert client.meter.snapshot()["reader"]["retries"] == 1


# --------------------------------------------------------------------------- failures


def test_server_down_raises_endpoint_error_after_retries(
    fake_openai: ScriptedOpenAIServer,
) -> None:
    sleep = SleepRecorder()
    base_url = fake_openai.base_url
    fake_openai.stop()
    with make_client(fake_openai, sleep, max_retries=2) as client:
        with pytest.raises(EndpointError) as info:
            client.chat(operation="reader", messages=USER_MSG)

    message = str(info.value)
    assert base_url in message
    assert "EGMEM_LLM_BASE_URL" in message
    assert API_KEY not in message
    assert len(sleep.calls) == 2
    assert client.meter.snapshot()["reader"] == {
        "calls": 1, "prompt_tokens": 0, "completion_tokens": 0, "retries": 2, "failures": 1}


def test_server_restart_recovers(fake_openai: ScriptedOpenAIServer) -> None:
    fake_openai.stop()
    with make_client(fake_openai, SleepRecorder(), max_retries=0) as client:
        with pytest.raises(EndpointError):
            client.chat(operation="reader", messages=USER_MSG)
        fake_openai.start()
        fake_openai.enqueue(text("back"))
        assert client.chat(operation="reader", messages=USER_MSG).content == "back"


@pytest.mark.parametrize("status", [401, 403])
def test_auth_error_is_not_retried(fake_openai: ScriptedOpenAIServer, status: int) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(error(status, {"error": {
        "message": f"Incorrect API key provided: {API_KEY}", "type": "invalid_request_error"}}))
    with make_client(fake_openai, sleep) as client:
        with pytest.raises(EndpointError) as info:
            client.chat(operation="writer", messages=USER_MSG)

    message = str(info.value)
    assert fake_openai.base_url in message
    assert "EGMEM_LLM_API_KEY" in message
    assert API_KEY not in message
    assert sleep.calls == []
    assert len(fake_openai.requests) == 1
    assert client.meter.snapshot()["writer"]["failures"] == 1
    assert client.meter.snapshot()["writer"]["retries"] == 0


def test_unknown_model_404_names_the_model(fake_openai: ScriptedOpenAIServer) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(error(404, {"error": {"message": "model 'fake-model' not found"}}))
    with make_client(fake_openai, sleep) as client:
        with pytest.raises(EndpointError) as info:
            client.chat(operation="writer", messages=USER_MSG)
    assert "fake-model" in str(info.value)
    assert "EGMEM_LLM_MODEL" in str(info.value)
    assert sleep.calls == []


def test_bad_request_is_not_retried_and_scrubs_key(fake_openai: ScriptedOpenAIServer) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue(error(400, {"error": {"message": f"tools unsupported {API_KEY}"}}))
    with make_client(fake_openai, sleep) as client:
        with pytest.raises(EndpointError) as info:
            client.chat(operation="writer", messages=USER_MSG, tools=[SAVE_TOOL])
    assert "tools unsupported ***" in str(info.value)
    assert API_KEY not in str(info.value)
    assert sleep.calls == []


# --------------------------------------------------------------------------- policy, threads


def test_policy_serves_concurrent_callers_and_meter_is_exact() -> None:
    def policy(body: dict[str, Any]) -> Any:
        return text("echo " + body["messages"][-1]["content"])

    with ScriptedOpenAIServer(policy=policy) as srv:
        client = make_client(srv, SleepRecorder())
        results: list[ChatResult] = []
        lock = threading.Lock()

        def worker(n: int) -> None:
            for i in range(5):
                r = client.chat(operation=f"op{n % 2}",
                                messages=[{"role": "user", "content": f"w{n} i{i} x"}])
                with lock:
                    results.append(r)

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        client.close()
        assert srv.unscripted == 0
        assert len(srv.chat_requests()) == 30

    assert {r.content.split()[0] for r in results if r.content} == {"echo"}
    totals = client.meter.totals()
    assert totals["calls"] == 30
    assert totals["prompt_tokens"] == sum(r.prompt_tokens for r in results) == 30 * 3
    assert totals["completion_tokens"] == 30 * 4
    assert set(client.meter.snapshot()) == {"op0", "op1"}


def test_unscripted_request_is_a_visible_failure(fake_openai: ScriptedOpenAIServer) -> None:
    with make_client(fake_openai, SleepRecorder(), max_retries=0) as client:
        with pytest.raises(EndpointError):
            client.chat(operation="reader", messages=USER_MSG)
    assert fake_openai.unscripted == 1


# --------------------------------------------------------------------------- embeddings


def test_embeddings_base64_round_trip(fake_openai: ScriptedOpenAIServer) -> None:
    fake_openai.embedding_dim = 8
    with make_client(fake_openai, SleepRecorder()) as client:
        vectors = client.embed(operation="embed", texts=["alpha beta", "gamma"],
                               model="fake-embed")
    (req,) = fake_openai.embedding_requests()
    assert req["encoding_format"] == "base64"  # what openai-python asks for by default
    assert vectors == [deterministic_vector("alpha beta", 8), deterministic_vector("gamma", 8)]
    assert client.meter.snapshot()["embed"]["prompt_tokens"] == 3


def test_embeddings_scripted_vectors_and_errors(fake_openai: ScriptedOpenAIServer) -> None:
    sleep = SleepRecorder()
    fake_openai.enqueue_embeddings(error(503), embeddings([[1.0, 0.0], [0.0, 1.0]]))
    with make_client(fake_openai, sleep) as client:
        vectors = client.embed(operation="embed", texts=["a", "b"], model="fake-embed")
    assert vectors == [[1.0, 0.0], [0.0, 1.0]]
    assert len(sleep.calls) == 1


# --------------------------------------------------------------------------- settings, parsing


def test_settings_from_env() -> None:
    """The EGMEM_LLM_* variables are read once, by Settings, and build the client's
    settings in the composition root."""
    assert not Settings.from_env({}).llm_configured
    assert not Settings.from_env({"EGMEM_LLM_MODEL": "m"}).llm_configured

    local = Settings.from_env({"EGMEM_LLM_BASE_URL": " http://localhost:8000/v1 ",
                               "EGMEM_LLM_MODEL": "qwen", "EGMEM_LLM_TIMEOUT": "12.5"})
    assert (local.llm_base_url, local.llm_api_key, local.llm_model, local.llm_timeout_s) == (
        "http://localhost:8000/v1", None, "qwen", 12.5)
    client = build_llm(local, UsageMeter(), profiles=MemoryProfileStore())
    assert client is not None
    assert (client.settings.base_url, client.settings.timeout_s) == (
        "http://localhost:8000/v1", 12.5)

    fallback = Settings.from_env({"OPENAI_API_KEY": API_KEY})
    assert fallback.llm_configured and fallback.llm_api_key == API_KEY
    assert API_KEY not in repr(fallback)
    client = build_llm(fallback, UsageMeter(), profiles=MemoryProfileStore())
    assert client is not None and client.settings.base_url.startswith("https://")
    assert API_KEY not in repr(client.settings)

    own = Settings.from_env({"OPENAI_API_KEY": "other", "EGMEM_LLM_API_KEY": API_KEY})
    assert own.llm_api_key == API_KEY

    for bad in ("soon", "-1", "0", "nan", "inf"):
        with pytest.raises(ConfigError, match="EGMEM_LLM_TIMEOUT"):
            Settings.from_env({"EGMEM_LLM_API_KEY": "k", "EGMEM_LLM_TIMEOUT": bad})


def test_no_api_key_works_against_local_server(fake_openai: ScriptedOpenAIServer) -> None:
    fake_openai.enqueue(text("fine"))
    with make_client(fake_openai, SleepRecorder(), api_key=None) as client:
        assert client.chat(operation="reader", messages=USER_MSG).content == "fine"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("", {}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('Sure! {"a": [1, 2]} hope that helps', {"a": [1, 2]}),
    ],
)
def test_parse_tool_arguments_lenient(raw: str, expected: dict[str, Any]) -> None:
    assert parse_tool_arguments(raw) == (expected, None)


@pytest.mark.parametrize("raw", ['{"a": ', "null", "42", "{'a': 1}"])
def test_parse_tool_arguments_rejects(raw: str) -> None:
    value, err = parse_tool_arguments(raw)
    assert value is None and err


def test_usage_meter_rejects_unknown_counter() -> None:
    with pytest.raises(ValueError):
        UsageMeter().add("writer", tokens=1)
