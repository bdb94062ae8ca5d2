"""Tantivy BM25 index over evidence passages: derived from LanceDB, rebuildable at any time.

Every document carries its scope fields (space, channel, thread, speaker, ts) so that scope is
a query clause, never a post-filter.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import tantivy

from memory.errors import StoreError
from memory.text import tokens

logger = logging.getLogger(__name__)

# Bump when the schema or what is indexed changes: an index of another version is rebuilt
# from LanceDB.
SCHEMA_VERSION = "4"
# A clock time written against its am/pm ("6:30am", "3pm"): indexed and looked up with the
# two apart, so "6:30" finds "6:30am" and "3" finds "3pm".
_GLUED_MERIDIEM = re.compile(r"(?<=\d)(am|pm|a\.m\.|p\.m\.)(?![a-z])", re.IGNORECASE)


def apart(text: str) -> str:
    """``text`` with each clock time's am/pm set apart from its digits."""
    return _GLUED_MERIDIEM.sub(r" \1", text)
# Deferred documents are committed at the latest when this many are pending.
MAX_UNCOMMITTED = 50_000
# Where the highest committed node seq is recorded, beside the index files.
WATERMARK_FILE = "COMMITTED_SEQ"
# Function words left out of BM25 queries: in most documents, so they add almost nothing
# to a score but make Tantivy visit most postings (45 → 4 ms a query at 1M documents);
# dropping them also raised BM25 evidence recall on the LoCoMo dev split (R@10 .565 → .625).
QUERY_STOPWORDS = frozenset("""a an the is are was were be been being am do does did have has
had i you he she it we they me him her us them my your his its our their this that these those
of in on at to for from by with about as and or but if so what when where who whom which why
how there here it's i'm can could will would should just""".split())


@dataclass(frozen=True)
class LexicalDoc:
    node_id: str
    platform: str
    space: str
    channel: str
    thread: str
    speakers: tuple[str, ...]
    ts: int
    body: str
    # The node's commit sequence number: the index records the highest it has committed.
    seq: int = 0


@dataclass(frozen=True)
class LexicalFilter:
    """Conjunctive filter; ``channels`` None means every channel of the space."""

    platform: str | None = None
    space: str | None = None
    channels: tuple[str, ...] | None = None
    thread: str | None = None
    speakers: tuple[str, ...] | None = None
    ts_from: int | None = None
    ts_to: int | None = None
    node_ids: tuple[str, ...] | None = None


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("node_id", stored=True, tokenizer_name="raw")
    # A Slack team and a Discord guild may share an id: scope by platform too.
    sb.add_text_field("platform", stored=False, tokenizer_name="raw")
    sb.add_text_field("space", stored=False, tokenizer_name="raw")
    sb.add_text_field("channel", stored=False, tokenizer_name="raw")
    sb.add_text_field("thread", stored=False, tokenizer_name="raw")
    sb.add_text_field("speaker", stored=False, tokenizer_name="raw")
    # Text is not stored: LanceDB is the only place a passage is kept, so forgetting has one
    # place to scrub besides deleting the document here.
    sb.add_text_field("body", stored=False, tokenizer_name="en_stem")
    sb.add_integer_field("ts", stored=False, indexed=True, fast=True)
    return sb.build()


class LexicalIndex:
    """A Tantivy index in ``path``; thread-safe for one process. With ``read_only`` it never
    takes Tantivy's writer lock (another process may hold it) and never changes a file: an
    index that is missing or of another schema version reads as empty until the writing
    process rebuilds it."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self._path = path
        self.read_only = read_only
        self._lock = threading.RLock()
        self._schema = _schema()
        # In memory and empty until :meth:`open` opens the one on disk.
        self._index = tantivy.Index(self._schema)
        self._writer: tantivy.IndexWriter | None = None
        # Documents added with ``defer`` and not yet committed (a commit costs ~50-100 ms
        # of fsyncs, so a bulk ingest must not pay one per batch).
        self._uncommitted = 0
        # The highest seq among the documents added since the last commit.
        self._pending_seq = 0

    def open(self) -> None:
        """Open the index on disk. A writable opening creates it, and rebuilds (empties) an
        index of another schema version; a read-only one reads such an index as empty."""
        self._index = self._open_read_only() if self.read_only else self._open()

    def _open(self) -> tantivy.Index:
        marker = self._path / "SCHEMA_VERSION"
        if self._path.exists() and (
            not marker.exists() or marker.read_text().strip() != SCHEMA_VERSION
        ):
            logger.info("lexical index schema changed; it will be rebuilt")
            shutil.rmtree(self._path)
        self._path.mkdir(parents=True, exist_ok=True)
        marker.write_text(SCHEMA_VERSION)
        return tantivy.Index(self._schema, path=str(self._path))

    # ---- watermark ----------------------------------------------------------------------
    def committed_seq(self) -> int | None:
        """The highest node seq this index has committed, as recorded after each commit;
        None when no record exists (an index written before the record was kept)."""
        try:
            return int((self._path / WATERMARK_FILE).read_text().strip())
        except (OSError, ValueError):
            return None

    def record_seq(self, seq: int) -> None:
        """Record ``seq`` as committed (after a commit: a crash in between records less
        than was committed, and the next reconcile re-adds a few documents)."""
        tmp = self._path / (WATERMARK_FILE + ".tmp")
        tmp.write_text(str(seq))
        tmp.replace(self._path / WATERMARK_FILE)

    def _open_read_only(self) -> tantivy.Index:
        marker = self._path / "SCHEMA_VERSION"
        if (marker.exists() and marker.read_text().strip() == SCHEMA_VERSION
                and tantivy.Index.exists(str(self._path))):
            return tantivy.Index.open(str(self._path))
        logger.warning("lexical index at %s is missing or outdated; searching without it "
                       "until the writing process rebuilds it", self._path)
        return tantivy.Index(self._schema)  # in memory, empty

    def _w(self) -> tantivy.IndexWriter:
        if self.read_only:
            raise StoreError("the lexical index was opened read-only")
        if self._writer is None:
            self._writer = self._index.writer(heap_size=64_000_000, num_threads=1)
        return self._writer

    # ---- writes -------------------------------------------------------------------------
    def upsert(self, docs: Iterable[LexicalDoc], *, defer: bool = False) -> None:
        """Add or replace documents. With ``defer`` the commit waits for the next read, the
        next write without it, :meth:`close`, or ``MAX_UNCOMMITTED`` documents; a crash in
        between loses them (the caller must be able to re-add them)."""
        with self._lock:
            w = self._w()
            for d in docs:
                self._uncommitted += 1
                self._pending_seq = max(self._pending_seq, d.seq)
                w.delete_documents_by_term("node_id", d.node_id)
                w.add_document(
                    tantivy.Document(
                        node_id=d.node_id,
                        platform=d.platform,
                        space=d.space,
                        channel=d.channel,
                        thread=d.thread,
                        speaker=[s.lower() for s in d.speakers if s] or [""],
                        body=apart(d.body),
                        ts=d.ts,
                    )
                )
            if not defer or self._uncommitted >= MAX_UNCOMMITTED:
                self._commit()

    def _commit(self) -> None:
        self._w().commit()
        self._uncommitted = 0
        self._index.reload()
        self._record_pending()

    def _record_pending(self) -> None:
        if self._pending_seq and self._pending_seq > (self.committed_seq() or 0):
            self.record_seq(self._pending_seq)
        self._pending_seq = 0

    def _sync(self) -> None:
        """Make deferred documents visible before a read."""
        if self._uncommitted:
            self._commit()

    def delete(self, node_ids: Iterable[str]) -> None:
        with self._lock:
            w = self._w()
            for nid in node_ids:
                w.delete_documents_by_term("node_id", nid)
            self._commit()

    def clear(self) -> None:
        with self._lock:
            w = self._w()
            w.delete_all_documents()
            self._pending_seq = 0
            self._commit()
            self.record_seq(0)

    def purge_deleted(self) -> None:
        """Drop segments' dead documents from disk (forgotten text must not linger)."""
        with self._lock:
            w = self._w()
            w.commit()
            self._uncommitted = 0
            self._record_pending()
            w.wait_merging_threads()
            self._writer = None
            w = self._w()
            w.garbage_collect_files()
            self._index.reload()

    def has_deleted(self) -> bool:
        """Whether a segment still holds deleted documents (their terms and postings stay on
        disk until the segment is rewritten; tantivy-py cannot merge on request)."""
        with self._lock:
            self._sync()
            try:
                meta = json.loads((self._path / "meta.json").read_text(encoding="utf-8"))
                return any(seg.get("deletes") for seg in meta.get("segments", []))
            except (OSError, ValueError, AttributeError):
                return True

    def close(self) -> None:
        with self._lock:
            if self._writer is not None:
                self._writer.commit()
                self._uncommitted = 0
                self._record_pending()
                self._writer.wait_merging_threads()
                self._writer = None

    # ---- reads --------------------------------------------------------------------------
    def count(self) -> int:
        with self._lock:
            self._sync()
            self._index.reload()
            return int(self._index.searcher().num_docs)

    def body_terms(self, prefix: str) -> list[str]:
        """Indexed body terms starting with ``prefix`` (lower-case), from every segment — terms
        of deleted documents included until their segment is rewritten."""
        with self._lock:
            self._sync()
            searcher = self._index.searcher()
            return [str(t) for t, _ in searcher.terms_with_prefix("body", prefix)]

    def all_ids(self) -> set[str]:
        with self._lock:
            self._sync()
            searcher = self._index.searcher()
            n = searcher.num_docs
            if n == 0:
                return set()
            res = searcher.search(tantivy.Query.all_query(), n)
            return {searcher.doc(addr)["node_id"][0] for _, addr in res.hits}

    def search(self, query: str, flt: LexicalFilter, k: int) -> list[tuple[str, float]]:
        """BM25 top-k for free text; user text never reaches the query parser unescaped."""
        terms = [t for t in tokens(apart(query)) if t.strip("'._-")]
        terms = [t for t in terms if t not in QUERY_STOPWORDS] or terms
        if not terms or k <= 0:
            return []
        text_q = self._index.parse_query(
            " ".join(f'"{t}"' for t in dict.fromkeys(terms)), ["body"]
        )
        return self._run(text_q, flt, k)

    def speaker_words(self, words: Iterable[str], flt: LexicalFilter) -> set[str]:
        """Those of ``words`` (lower-case) that begin some speaker's name, or are a speaker's
        id, among the documents ``flt`` admits ("nate" for "Nate Smith", "lena" for the handle
        "lenapark"; a surname alone is not looked up: listing every name to find it costs
        ~40 ms at 20k speakers, a prefix lookup ~0.1 ms)."""
        found: dict[str, list[str]] = {}
        with self._lock:
            self._sync()
            searcher = self._index.searcher()
            for word in dict.fromkeys(words):
                if not word:
                    continue
                terms = [str(t) for t, _ in searcher.terms_with_prefix("speaker", word)]
                named = [t for t in terms if t == word or t.startswith(word + " ") or (
                    # a handle the name begins ("dana" / "dana.w", "lena" / "lenapark";
                    # not "nat" / "natalie")
                    " " not in t and (not t[len(word)].isalpha() or len(word) >= 4))]
                if named:
                    found[word] = named
        out: set[str] = set()
        for word, terms in found.items():
            speaker_q = tantivy.Query.term_set_query(self._schema, "speaker", terms)
            if self._run(speaker_q, flt, 1):
                out.add(word)
        return out

    def _run(self, text_q: tantivy.Query, flt: LexicalFilter, k: int) -> list[tuple[str, float]]:
        clauses: list[tuple[tantivy.Occur, tantivy.Query]] = [(tantivy.Occur.Must, text_q)]
        clauses.extend((tantivy.Occur.Must, q) for q in self._filter_queries(flt))
        q = tantivy.Query.boolean_query(clauses)
        with self._lock:
            self._sync()
            searcher = self._index.searcher()
            # Tantivy allocates a heap of k entries up front: a huge k (from a model's tool
            # call) would abort the process, so never ask for more than there are documents.
            k = min(k, searcher.num_docs)
            if k <= 0:
                return []
            # Equal scores are common (field lengths are stored in one byte) and tantivy
            # orders them by document address, which background merges change: read past k
            # and order ties by node id, so a search ranks the same way from run to run.
            res = searcher.search(q, min(2 * k, searcher.num_docs))
            hits = [(searcher.doc(addr)["node_id"][0], float(score)) for score, addr in res.hits]
        hits.sort(key=lambda h: (-h[1], h[0]))
        return hits[:k]

    def _filter_queries(self, flt: LexicalFilter) -> list[tantivy.Query]:
        s = self._schema
        out: list[tantivy.Query] = []
        if flt.platform is not None:
            out.append(tantivy.Query.term_query(s, "platform", flt.platform))
        if flt.space is not None:
            out.append(tantivy.Query.term_query(s, "space", flt.space))
        if flt.channels is not None:
            out.append(tantivy.Query.term_set_query(s, "channel", list(flt.channels)))
        if flt.thread is not None:
            out.append(tantivy.Query.term_query(s, "thread", flt.thread))
        if flt.speakers is not None:
            out.append(tantivy.Query.term_set_query(
                s, "speaker", [p.lower() for p in flt.speakers]))
        if flt.node_ids is not None:
            out.append(tantivy.Query.term_set_query(s, "node_id", list(flt.node_ids)))
        if flt.ts_from is not None or flt.ts_to is not None:
            lo = flt.ts_from if flt.ts_from is not None else -(2**62)
            hi = flt.ts_to if flt.ts_to is not None else 2**62
            out.append(tantivy.Query.range_query(s, "ts", tantivy.FieldType.Integer, lo, hi))
        return out
