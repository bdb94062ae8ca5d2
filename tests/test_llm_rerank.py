"""The LLM reranker against the scripted OpenAI-compatible server, and its wiring in the app."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.app import build
from bot.settings import Settings
from memory.errors import ConfigError
from memory.llm import LLMClient, LLMSettings
from memory.reader.rerank import FeatureReranker, LLMReranker
from memory.reader.search import EvidenceSearch
from tests.support.fake_openai import ScriptedOpenAIServer, error, text
from tests.support.reader_memory import PUBLIC, Memory
from tests.support.reader_memory import build as build_memory

QUESTION = "which database did Hal recommend?"


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return build_memory(tmp_path_factory.mktemp("rerank"))


def searcher(srv: ScriptedOpenAIServer, mem: Memory) -> EvidenceSearch:
    client = LLMClient(settings=LLMSettings(base_url=srv.base_url, model="fake-model",
                                            max_retries=0, timeout_s=10))
    return EvidenceSearch(store=mem.store, embedder=mem.embedder,
                          reranker=LLMReranker(client=client, depth=5))


def _passages(prompt: str) -> dict[int, str]:
    return {int(n): body for n, body in re.findall(r"^(\d+)\. (.*)$", prompt, re.MULTILINE)}


def test_model_ratings_decide_the_order(fake_openai: ScriptedOpenAIServer, mem: Memory) -> None:
    offline = EvidenceSearch(store=mem.store, embedder=mem.embedder,
                             reranker=FeatureReranker()).search_ranked(QUESTION, PUBLIC, k=5)
    # Rate the passage the offline reranker put last of its top five highest.
    fake_openai.enqueue(text(json.dumps({"scores": {"1": 2, "2": 1, "3": 0, "4": 0, "5": 10}})))
    hits = searcher(fake_openai, mem).search_ranked(QUESTION, PUBLIC, k=5)
    req = fake_openai.chat_requests()[-1]
    prompt = req.body["messages"][-1]["content"]
    shown = _passages(prompt)
    assert len(shown) == 5 and QUESTION in prompt
    assert offline[4].node.text[:40] in shown[5]
    assert hits[0].node.node_id == offline[4].node.node_id


def test_endpoint_failure_falls_back_to_offline_scores(fake_openai: ScriptedOpenAIServer,
                                                       mem: Memory) -> None:
    offline = EvidenceSearch(store=mem.store, embedder=mem.embedder,
                             reranker=FeatureReranker()).search_ranked(QUESTION, PUBLIC, k=5)
    fake_openai.enqueue(error(500))
    hits = searcher(fake_openai, mem).search_ranked(QUESTION, PUBLIC, k=5)
    assert [h.node.node_id for h in hits] == [h.node.node_id for h in offline]
    fake_openai.enqueue(text("no json here"))
    again = searcher(fake_openai, mem).search_ranked(QUESTION, PUBLIC, k=5)
    assert [h.node.node_id for h in again] == [h.node.node_id for h in offline]


def test_app_builds_the_reranker_the_settings_name(fake_openai: ScriptedOpenAIServer,
                                                   tmp_path: Path) -> None:
    base = Settings(data=str(tmp_path / "a"), embedder="hashing")
    eg = build(base)
    try:
        assert isinstance(eg.tools.search.reranker, FeatureReranker)
    finally:
        eg.close()
    llm = Settings(data=str(tmp_path / "b"), embedder="hashing", llm_base_url=fake_openai.base_url,
                   llm_api_key="test-key", rerank="llm")
    eg = build(llm)
    try:
        assert isinstance(eg.tools.search.reranker, LLMReranker)
    finally:
        eg.close()
    with pytest.raises(ConfigError, match="EGMEM_RERANK=llm needs"):
        build(Settings(data=str(tmp_path / "c"), embedder="hashing", rerank="llm"))
    assert Settings.from_env({"EGMEM_RERANK": "LLM"}).rerank == "llm"
    with pytest.raises(ConfigError, match="EGMEM_RERANK"):
        Settings.from_env({"EGMEM_RERANK": "cross-encoder"})
