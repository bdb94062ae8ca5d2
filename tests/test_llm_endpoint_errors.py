"""What endpoints say, sorted by meaning; URLs never shown with their secrets; tool calls
recovered from content; a deadline bounds every attempt. Real openai client, scripted server
answering as vLLM, Ollama, llama.cpp and OpenAI do."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from memory.errors import (
    ContextOverflow,
    EndpointError,
    EndpointUnavailable,
    RequestRejected,
    ToolsUnsupported,
)
from memory.llm import LLMClient, LLMSettings
from memory.llm.content_calls import calls_in_content, salvage_items
from memory.llm.endpoint import classify, redact_url
from memory.llm.profile import FileProfileStore, MemoryProfileStore
from tests.support.fake_openai import (
    EndpointMode,
    ScriptedOpenAIServer,
    error,
    text,
    tool_calls,
)

USER = [{"role": "user", "content": "standup moved to 10:30 on Tuesdays"}]
SAVE: dict[str, Any] = {"type": "function", "function": {
    "name": "save_state", "description": "Record a value.",
    "parameters": {"type": "object", "properties": {"topic": {"type": "string"},
                                                    "value": {"type": "string"}},
                   "required": ["topic", "value"], "additionalProperties": False}}}
NOTE: dict[str, Any] = {"type": "function", "function": {
    "name": "note", "description": "Keep a note.",
    "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                   "required": ["text"]}}}


class Clock:
    """A fake monotonic clock; ``sleep`` advances it."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def client_for(srv: ScriptedOpenAIServer, *, clock: Clock | None = None,
               base_url: str | None = None, **kw: Any) -> LLMClient:
    clock = clock or Clock()
    settings = LLMSettings(base_url=base_url or srv.base_url, api_key="sk-secret-key-123",
                           model="m", timeout_s=5.0, max_retries=kw.pop("max_retries", 3))
    return LLMClient(settings=settings, rng=random.Random(3), sleep=clock.sleep, clock=clock,
                     profiles=kw.pop("profiles", MemoryProfileStore()), **kw)


# ------------------------------------------------------------------------ secrets in URLs


@pytest.mark.parametrize(("url", "shown"), [
    ("http://user:pw@host:8000/v1", "http://***@host:8000/v1"),
    ("https://k3y@api.example.com/v1", "https://***@api.example.com/v1"),
    ("https://api.example.com/v1?key=abc&api-version=2024-02-01",
     "https://api.example.com/v1?key=***&api-version=2024-02-01"),
    ("http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"),
])
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def test_credentials_in_the_base_url_never_reach_errors_or_logs(
    fake_openai: ScriptedOpenAIServer, caplog: pytest.LogCaptureFixture,
) -> None:
    port = fake_openai.port
    fake_openai.stop()
    url = f"http://egmem-user:s3cr3t-pass@127.0.0.1:{port}/v1?token=qtok-9876"
    with caplog.at_level(logging.DEBUG):
        with client_for(fake_openai, base_url=url, max_retries=1) as client:
            with pytest.raises(EndpointUnavailable) as info:
                client.chat(operation="writer", messages=USER)
            shown = f"{info.value} {client.settings!r} {client.profile.get().key}"
    assert "Cannot reach" in str(info.value)
    assert f"http://***@127.0.0.1:{port}/v1?token=***" in str(info.value)
    everything = shown + " ".join(r.getMessage() for r in caplog.records)
    for secret in ("s3cr3t-pass", "qtok-9876", "egmem-user", "sk-secret-key-123"):
        assert secret not in everything


def test_server_reasons_are_scrubbed_of_url_secrets(fake_openai: ScriptedOpenAIServer) -> None:
    url = fake_openai.base_url.replace("http://", "http://bob:hunter22@")
    fake_openai.enqueue(error(400, {"error": {"message": f"bad request to {url}"}}))
    with client_for(fake_openai, base_url=url) as client:
        with pytest.raises(RequestRejected) as info:
            client.chat(operation="writer", messages=USER)
    assert "hunter22" not in str(info.value) and "bob" not in str(info.value)


# ------------------------------------------------------------------------ sorted by meaning


@pytest.mark.parametrize("flavor", ["vllm", "openai", "llamacpp"])
def test_context_overflow_is_not_retried(flavor: str) -> None:
    mode = EndpointMode(context_tokens=5, context_flavor=flavor)
    with ScriptedOpenAIServer(mode=mode, policy=lambda b: text("never")) as srv:
        clock = Clock()
        with client_for(srv, clock=clock) as client:
            with pytest.raises(ContextOverflow) as info:
                client.chat(operation="writer", messages=USER, max_tokens=100)
        assert len(srv.chat_requests()) == 1 and clock.sleeps == []
    assert info.value.limit == 5 and info.value.status == 400
    assert "cannot take a prompt this long" in str(info.value)


def test_an_old_llama_cpp_overflow_answered_500_is_not_retried(
    fake_openai: ScriptedOpenAIServer,
) -> None:
    fake_openai.enqueue(error(500, {"error": {
        "code": 500, "message": "the request exceeds the available context size. try "
        "increasing the context size or enable context shift",
        "type": "exceed_context_size_error", "n_prompt_tokens": 1407, "n_ctx": 256}}))
    with client_for(fake_openai) as client:
        with pytest.raises(ContextOverflow) as info:
            client.chat(operation="writer", messages=USER)
    assert (info.value.limit, info.value.requested) == (256, 1407)
    assert len(fake_openai.chat_requests()) == 1


@pytest.mark.parametrize(("status", "body"), [
    (400, {"error": {"message": "registry.ollama.ai/library/gemma3:4b does not support tools",
                     "type": "api_error", "param": None, "code": None}}),
    (400, {"object": "error", "message": "\"auto\" tool choice requires "
           "--enable-auto-tool-choice and --tool-call-parser to be set",
           "type": "BadRequestError", "param": None, "code": 400}),
    (500, {"code": 500, "message": "Unsupported param: tools", "type": "server_error"}),
])
def test_no_tools_is_its_own_error(fake_openai: ScriptedOpenAIServer, status: int,
                                   body: dict[str, Any]) -> None:
    fake_openai.enqueue(error(status, body))
    with client_for(fake_openai) as client:
        with pytest.raises(ToolsUnsupported):
            client.chat(operation="writer", messages=USER, tools=[SAVE])
    assert len(fake_openai.chat_requests()) == 1


def test_a_refused_temperature_is_dropped_for_good(fake_openai: ScriptedOpenAIServer,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    fake_openai.enqueue(
        error(400, {"error": {"message": "Unsupported parameter: 'temperature' is not "
                              "supported with this model.", "type": "invalid_request_error",
                              "param": "temperature", "code": "unsupported_parameter"}}),
        error(400, {"error": {"message": "Unsupported parameter: 'max_tokens' is not "
                              "supported with this model. Use 'max_completion_tokens' "
                              "instead.", "type": "invalid_request_error",
                              "param": "max_tokens", "code": "unsupported_parameter"}}),
        text("one"), text("two"))
    store = MemoryProfileStore()
    with caplog.at_level(logging.WARNING):
        with client_for(fake_openai, profiles=store) as client:
            assert client.chat(operation="reader", messages=USER, max_tokens=50).content == "one"
            assert client.chat(operation="reader", messages=USER, max_tokens=50).content == "two"
    reqs = fake_openai.chat_requests()
    assert "temperature" in reqs[0].body and "temperature" not in reqs[1].body
    assert [("max_tokens" in r.body, r.body.get("max_completion_tokens")) for r in reqs[2:]] == [
        (False, 50), (False, 50)]
    notes = [r.getMessage() for r in caplog.records if "refuses" in r.getMessage()]
    assert len(notes) == 2
    saved = store.load(client.settings.profile_key)
    assert saved is not None and set(saved.dropped_params) == {"temperature", "max_tokens"}


def test_other_4xx_is_a_rejected_request(fake_openai: ScriptedOpenAIServer) -> None:
    fake_openai.enqueue(error(422, {"error": {"message": "messages[3].content is invalid"}}))
    with client_for(fake_openai) as client:
        with pytest.raises(RequestRejected) as info:
            client.chat(operation="writer", messages=USER)
    assert type(info.value) is RequestRejected and info.value.status == 422
    assert len(fake_openai.chat_requests()) == 1


@pytest.mark.parametrize("status", [401, 404])
def test_configuration_errors_are_plain_endpoint_errors(fake_openai: ScriptedOpenAIServer,
                                                        status: int) -> None:
    fake_openai.enqueue(error(status))
    with client_for(fake_openai) as client:
        with pytest.raises(EndpointError) as info:
            client.chat(operation="writer", messages=USER)
    assert type(info.value) is EndpointError


def test_a_429_burst_is_waited_out() -> None:
    mode = EndpointMode(rate_limit=(4, 2), retry_after_s=2.0)
    with ScriptedOpenAIServer(mode=mode, policy=lambda b: text("fine")) as srv:
        clock = Clock()
        with client_for(srv, clock=clock) as client:
            results = [client.chat(operation="writer", messages=USER).content for _ in range(3)]
    assert results == ["fine"] * 3
    assert clock.sleeps == [2.0, 2.0, 2.0, 2.0]  # two bursts of two 429s, Retry-After honoured


# ------------------------------------------------------------------------ deadline


def test_the_deadline_bounds_retries_without_waiting(fake_openai: ScriptedOpenAIServer) -> None:
    fake_openai.policy = lambda body: error(503)
    clock = Clock()
    with client_for(fake_openai, clock=clock, max_retries=50) as client:
        with pytest.raises(EndpointUnavailable):
            client.chat(operation="reader", messages=USER, deadline=clock.now + 3.0)
        attempts = len(fake_openai.chat_requests())
        assert 1 <= attempts <= 4 and clock.now <= 100.0 + 3.0
        with pytest.raises(EndpointUnavailable, match="deadline"):
            client.chat(operation="reader", messages=USER, deadline=clock.now - 1)
    assert len(fake_openai.chat_requests()) == attempts  # past the deadline: nothing sent


# ------------------------------------------------------------------------ calls in content


CALL = {"name": "save_state", "arguments": {"topic": "standup", "value": "10:30"}}


@pytest.mark.parametrize("content", [
    json.dumps(CALL),
    "<|python_tag|>" + json.dumps({"name": "save_state",
                                   "parameters": CALL["arguments"]}),
    "<tool_call>\n" + json.dumps(CALL) + "\n</tool_call>",
    "Sure!\n```json\n" + json.dumps([CALL]) + "\n```",
    "[TOOL_CALLS] " + json.dumps([{**CALL, "arguments": json.dumps(CALL["arguments"])}]),
    json.dumps({"topic": "standup", "value": "10:30"}),  # bare arguments of the one match
])
def test_calls_in_content_are_recovered(content: str) -> None:
    assert calls_in_content(content, [SAVE, NOTE]) == [
        ("save_state", {"topic": "standup", "value": "10:30"})]


def test_content_that_names_no_offered_tool_is_not_a_call() -> None:
    assert calls_in_content(json.dumps({"name": "drop_tables", "arguments": {}}), [SAVE]) == []
    assert calls_in_content("I would call save_state here.", [SAVE]) == []
    assert calls_in_content(json.dumps(CALL), []) == []
    assert calls_in_content("{" * 50_000 + "[" * 50_000, [SAVE]) == []


def test_salvage_keeps_the_complete_items() -> None:
    raw = '{"proposals": [{"a": 1}, {"a": {"b": 2}}, {"a": "cut'
    assert salvage_items(raw, "proposals") == [{"a": 1}, {"a": {"b": 2}}]
    assert salvage_items('[{"a": 1}, {"a', "proposals") == [{"a": 1}]
    assert salvage_items("nothing here", "proposals") == []


def test_recovered_calls_continue_the_conversation_as_text(
    fake_openai: ScriptedOpenAIServer,
) -> None:
    fake_openai.mode = EndpointMode(calls_in_content=True)
    fake_openai.enqueue(tool_calls([("save_state", {"topic": "a", "value": "b"}),
                                    ("note", {"text": "x"})]))
    with client_for(fake_openai) as client:
        result = client.chat(operation="writer", messages=USER, tools=[SAVE, NOTE])
    assert [(c.name, c.from_content) for c in result.tool_calls] == [
        ("save_state", True), ("note", True)]
    assert result.as_message() == {"role": "assistant", "content": result.content}
    (turn,) = result.followup(["saved", "noted"])
    assert turn["role"] == "user" and "save_state: saved" in turn["content"]


def test_string_booleans_and_one_call_modes(fake_openai: ScriptedOpenAIServer) -> None:
    fake_openai.mode = EndpointMode(one_call=True, string_booleans=True)
    fake_openai.enqueue(tool_calls([("note", {"text": "x", "flag": True}),
                                    ("note", {"text": "y"})]))
    with client_for(fake_openai) as client:
        result = client.chat(operation="writer", messages=USER, tools=[NOTE])
    (call,) = result.tool_calls
    assert call.arguments == {"text": "x", "flag": "true"}


# ------------------------------------------------------------------------ profiles


def test_the_profile_is_kept_across_runs(fake_openai: ScriptedOpenAIServer,
                                         tmp_path: Path) -> None:
    store = FileProfileStore(tmp_path / "llm_endpoint.json")
    with client_for(fake_openai, profiles=store) as client:
        client.profile.learn("it does not accept tools; the writer asks for JSON replies",
                             path="json")
    reopened = FileProfileStore(tmp_path / "llm_endpoint.json")
    with client_for(fake_openai, profiles=reopened) as again:
        assert again.profile.get().path == "json"
        assert again.profile.get().notes == (
            "it does not accept tools; the writer asks for JSON replies",)
    (tmp_path / "llm_endpoint.json").write_text("not json")
    with client_for(fake_openai, profiles=store) as fresh:
        assert fresh.profile.get().path == "tools"


@pytest.mark.parametrize(("status", "message", "kind"), [
    (400, "This model's maximum context length is 8192 tokens. However, you requested 8203 "
          "tokens (7691 in the messages, 512 in the completion).", "overflow"),
    (400, "Unsupported value: 'temperature' does not support 0.2 with this model.", "param"),
    (400, "response_format json_object is not supported", "param"),
    (400, "content filter triggered", "other"),
])
def test_classify(status: int, message: str, kind: str) -> None:
    assert classify(status, {"error": {"message": message}}).kind == kind


def test_the_embeddings_endpoint_is_shown_without_credentials(
    fake_openai: ScriptedOpenAIServer,
) -> None:
    import openai

    from memory.embeddings import OpenAIEmbedder

    port = fake_openai.port
    fake_openai.stop()
    client = openai.OpenAI(base_url=f"http://emb-user:emb-pass@127.0.0.1:{port}/v1",
                           api_key="x", max_retries=0)
    embedder = OpenAIEmbedder(client=client, model="m", dim=16)
    with pytest.raises(EndpointError) as info:
        embedder.embed_batch(["hello"])
    assert "emb-pass" not in str(info.value) and "emb-user" not in str(info.value)
    assert f"***@127.0.0.1:{port}" in str(info.value)
