"""The composition root: the one place that turns Settings into concrete classes."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot.settings import Settings
from memory.analysis.lexicon import Lexicon
from memory.analysis.message import MessageAnalyzer
from memory.browse import Browser
from memory.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder, OpenAIEmbedder
from memory.errors import ConfigError
from memory.faults import FaultPoints
from memory.gate import StateGate
from memory.llm.client import LLMClient, LLMSettings, UsageMeter
from memory.llm.profile import FileProfileStore, ProfileStore
from memory.pipeline import Pipeline
from memory.proposer import OfflineProposer, Proposer
from memory.reader.offline import OfflineReader
from memory.reader.rerank import FeatureReranker, LLMReranker, Reranker
from memory.reader.search import EvidenceSearch
from memory.reader.tools import ReaderTools
from memory.registry import Registry
from memory.registry_search import RegistrySearch
from memory.service import Egmem
from memory.store import open_store
from memory.store.inbox import Inbox
from memory.store.lock import DataLock
from memory.worker import WriterWorker
from memory.writer import Writer

logger = logging.getLogger(__name__)

#: Where what egmem learned about the LLM endpoint is kept, in the local data directory.
PROFILE_FILE = "llm_endpoint.json"


def build_llm(settings: Settings, meter: UsageMeter, *,
              profiles: ProfileStore | None = None,
              max_retries: int | None = None) -> LLMClient | None:
    """The shared client; ``profiles`` keeps what is learned about the endpoint (default:
    ``llm_endpoint.json`` in the data directory)."""
    if not settings.llm_configured:
        return None
    llm = LLMSettings(
        base_url=settings.llm_base_url or "https://api.openai.com/v1",
        api_key=settings.llm_api_key,
        model=settings.llm_model,
        timeout_s=settings.llm_timeout_s,
    )
    if max_retries is not None:
        llm = replace(llm, max_retries=max_retries)
    if profiles is None:
        profiles = FileProfileStore(settings.local_path / PROFILE_FILE)
    return LLMClient(settings=llm, meter=meter, profiles=profiles)


def llm_usage(meter: UsageMeter, llm: LLMClient | None) -> dict[str, Any]:
    """What ``egmem stats`` shows under "llm": usage per operation and, with an endpoint,
    what egmem learned about it (the writer's path and why)."""
    out: dict[str, Any] = dict(meter.snapshot())
    if llm is not None:
        out["endpoint"] = llm.profile.get().as_dict()
    return out


def build_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "hashing":
        return HashingEmbedder(dim=settings.embedding_dim)
    if settings.embedder == "openai":
        import openai

        if not settings.llm_configured or not settings.embedding_model:
            raise ConfigError(
                "EGMEM_EMBEDDER=openai needs EGMEM_LLM_BASE_URL (or an API key) and "
                "EGMEM_EMBEDDING_MODEL"
            )
        client = openai.OpenAI(base_url=settings.llm_base_url, api_key=settings.llm_api_key
                               or "no-key", max_retries=2)
        return OpenAIEmbedder(client=client, model=settings.embedding_model,
                              dim=settings.embedding_dim)
    return MiniLMEmbedder()


def build_proposer(settings: Settings, llm: LLMClient | None, *,
                   analyzer: MessageAnalyzer | None = None) -> Proposer:
    analyzer = analyzer or MessageAnalyzer(Lexicon())
    offline = OfflineProposer(analyzer=analyzer)
    if settings.writer == "llm":
        if llm is None:
            raise ConfigError(
                "--writer llm needs an OpenAI-compatible endpoint: set EGMEM_LLM_BASE_URL "
                "(and EGMEM_LLM_API_KEY / OPENAI_API_KEY, EGMEM_LLM_MODEL)"
            )
        from memory.llm.writer_agent import LLMProposer

        return LLMProposer(llm, gate=StateGate(analyzer=analyzer), fallback=offline)
    return offline


def build_reranker(settings: Settings, llm: LLMClient | None) -> Reranker:
    """The offline feature reranker, or the endpoint rating candidates on top of it."""
    if settings.rerank != "llm":
        return FeatureReranker()
    if llm is None:
        raise ConfigError("EGMEM_RERANK=llm needs an OpenAI-compatible endpoint: set "
                          "EGMEM_LLM_BASE_URL (and EGMEM_LLM_API_KEY / OPENAI_API_KEY)")
    return LLMReranker(client=llm, base=FeatureReranker())


def build(settings: Settings, *, embedder: Embedder | None = None,
          verification: bool = True, read_only: bool = False,
          command: str = "egmem", commit_window_s: float = 0.0) -> Egmem:
    """The memory service over ``settings.data``. A writer (the default) takes the data
    directory's lock for ``command`` (:class:`DataDirBusy` names the holder if another
    process writes it) and finishes any interrupted commit or forget; ``read_only`` takes
    no lock and writes nothing, so it can run beside a writer (``ask``, ``stats``, ...).
    ``commit_window_s``: kicked commit runs start at most this often (see
    :class:`memory.worker.WriterWorker`)."""
    meter = UsageMeter()
    llm = build_llm(settings, meter)
    reranker = build_reranker(settings, llm)  # settings errors before anything is opened
    emb = embedder or build_embedder(settings)
    local = settings.local_path
    local.mkdir(parents=True, exist_ok=True)
    lock = None if read_only else DataLock.acquire(local, command=command)
    try:
        return _build(settings, meter=meter, llm=llm, reranker=reranker, emb=emb,
                      verification=verification, read_only=read_only, lock=lock,
                      commit_window_s=commit_window_s)
    except BaseException:
        if lock is not None:
            lock.release()
        raise


def _build(settings: Settings, *, meter: UsageMeter, llm: LLMClient | None,
           reranker: Reranker, emb: Embedder, verification: bool, read_only: bool,
           lock: DataLock | None, commit_window_s: float) -> Egmem:
    local = settings.local_path
    uri = settings.data if settings.is_remote else str(local / "lance")
    try:
        faults = FaultPoints.parse(settings.fault)
    except ValueError as exc:
        raise ConfigError(f"EGMEM_FAULT: {exc}") from exc
    # Opening connects; only the writing process repairs (a reader writes nothing).
    store = open_store(uri=uri, lexical_dir=local / "lexical", dim=emb.dim,
                       storage_options=dict(settings.storage_options) or None,
                       read_only=read_only, faults=faults)
    store.claim_embedder(emb.name)
    inbox = Inbox(local / "inbox.sqlite3")
    # The one lexicon of cue words, slot patterns and weights every judgement reads.
    analyzer = MessageAnalyzer(Lexicon())
    registry = Registry(store=store, weights=analyzer.lexicon.weights)
    writer = Writer(store=store, embedder=emb,
                    proposer=build_proposer(settings, llm, analyzer=analyzer),
                    registry=registry, lookup=RegistrySearch(registry, emb),
                    verification=verification, faults=faults, analyzer=analyzer)
    if not read_only:
        writer.recover()  # finishes an interrupted commit, forget or edit
    pipeline = Pipeline(inbox=inbox, writer=writer, store=store, faults=faults)
    search = EvidenceSearch(store=store, embedder=emb, reranker=reranker)
    tools = ReaderTools(store=store, embedder=emb, search=search)
    offline = OfflineReader(tools=tools, analyzer=analyzer)
    reader: Any = offline
    if llm is not None:
        from memory.reader.llm_reader import LLMReader

        reader = LLMReader(client=llm, tools=tools, max_rounds=settings.reader_rounds,
                           fallback=offline)
    worker = WriterWorker(pipeline, window_s=commit_window_s)
    return Egmem(store=store, inbox=inbox, writer=writer, pipeline=pipeline, worker=worker,
                 reader=reader, tools=tools, browser=Browser(store=store, embedder=emb),
                 usage=lambda: llm_usage(meter, llm), lock=lock)

