"""Loaders for the public conversational-memory benchmarks used by ``egmem eval``.

Each loader turns one benchmark file (or folder) into an :class:`EvalDataset`: every
conversation becomes its own space of :class:`~memory.models.Message` objects on platform
``"eval"``, and every question names its gold evidence by message id inside that space.

Formats (see ``shared/bench/README.md``):

* ``locomo`` -- a JSON list of samples; message id = ``dia_id`` ("D1:3"), one thread per
  session, timestamps from ``session_N_date_time`` plus :data:`TURN_GAP` per turn.
* ``friendsqa`` -- ``{data: [{title, paragraphs: [{"utterances:", qas}]}]}``; one space per
  scene; message id = ``uid``; synthetic timestamps.
* ``qmsum`` -- one meeting per JSON file (a folder or a single file); message id =
  ``"t<index>"``; gold = union of the inclusive ``relevant_text_span`` ranges.

Evidence that does not name a turn of its conversation is never fatal: it is skipped,
counted in :attr:`EvalDataset.skipped_evidence` and described in :attr:`EvalDataset.notes`.
Structural problems (not JSON, a missing key, an unparsable session date) raise
:class:`~memory.errors.InputError` naming the file.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NotRequired, TypedDict, cast

from egmem_eval.records import (
    DATASET_NAMES,
    PLATFORM,
    TURN_GAP,
    DatasetName,
    EvalConversation,
    EvalDataset,
    EvalQuestion,
    LoadLog,
    dedupe,
    read_json,
    require,
    single_json,
)
from egmem_eval.transcripts import load_friendsqa, load_qmsum
from memory.errors import InputError
from memory.models import Message

logger = logging.getLogger(__name__)

# LoCoMo category 5 is adversarial: the question attributes something to the wrong speaker,
# and `adversarial_answer` is the trap (true of the other speaker). The benchmark scores an
# answer as correct when it says the thing was not mentioned.
LOCOMO_UNANSWERABLE = "Not mentioned in the conversation"

__all__ = ["DATASET_NAMES", "LOCOMO_UNANSWERABLE", "DatasetName", "EvalConversation",
           "EvalDataset", "EvalQuestion", "load_dataset", "parse_locomo_date"]


# ---------------------------------------------------------------- raw payload shapes


class LocomoTurn(TypedDict):
    speaker: str
    dia_id: str
    text: str
    blip_caption: NotRequired[str]
    img_url: NotRequired[list[str]]


class LocomoQA(TypedDict):
    question: str
    evidence: list[str]
    category: int
    answer: NotRequired[str | int | None]
    adversarial_answer: NotRequired[str]


class LocomoSample(TypedDict):
    sample_id: str
    conversation: dict[str, Any]
    qa: list[LocomoQA]


# ---------------------------------------------------------------- entry point


def load_dataset(name: DatasetName, path: Path) -> EvalDataset:
    """Load benchmark ``name`` from ``path`` (a file, or a folder of JSON files).

    A folder is read as all its ``*.json`` files for ``qmsum`` and must hold exactly one
    JSON file for the other formats. Raises :class:`InputError` for a missing path, an
    unknown name, or a file whose structure does not match the format.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("no such file or folder", source=str(path))
    if name == "qmsum":
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        if not files:
            raise InputError("folder holds no .json meeting files", source=str(path))
        return load_qmsum(files)
    if name not in ("locomo", "friendsqa"):
        raise InputError(f"unknown dataset {name!r}; expected one of {', '.join(DATASET_NAMES)}")
    file = single_json(path)
    raw = read_json(file)
    if name == "locomo":
        return _load_locomo(raw, source=str(file))
    return load_friendsqa(raw, source=str(file))


# ---------------------------------------------------------------- LoCoMo

_SESSION_KEY = re.compile(r"session_(\d+)")
_DIA_ID = re.compile(r"D(\d+):(\d+)")
_EVIDENCE_SPLIT = re.compile(r"[;,\s]+")
_LOCOMO_DATE = re.compile(
    r"\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*",
    re.IGNORECASE,
)
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}


def parse_locomo_date(text: str) -> datetime:
    """Parse a LoCoMo session time such as ``"1:56 pm on 8 May, 2023"`` as UTC.

    Locale-independent. Raises ``ValueError`` when ``text`` is not in that form.
    """
    m = _LOCOMO_DATE.fullmatch(text)
    if m is None:
        raise ValueError(f"not a LoCoMo session time: {text!r}")
    hour, minute, half, day, month_name, year = m.groups()
    month = _MONTHS.get(month_name[:3].lower())
    if month is None:
        raise ValueError(f"unknown month in {text!r}")
    h = int(hour) % 12 + (12 if half.lower() == "p" else 0)
    return datetime(int(year), month, int(day), h, int(minute), tzinfo=UTC)


def _canonical_dia_id(text: str) -> str | None:
    m = _DIA_ID.fullmatch(text.strip())
    return f"D{int(m.group(1))}:{int(m.group(2))}" if m else None


def _load_locomo(raw: Any, *, source: str) -> EvalDataset:
    if not isinstance(raw, list):
        raise InputError("expected a JSON list of LoCoMo samples", source=source)
    log = LoadLog()
    conversations = [
        _locomo_conversation(cast(LocomoSample, sample), index=i, source=source, log=log)
        for i, sample in enumerate(raw)
    ]
    logger.info("loaded locomo: %d conversations, %d evidence ids skipped",
                len(conversations), log.count)
    return EvalDataset(name="locomo", conversations=conversations,
                       skipped_evidence=log.count, notes=log.notes)


def _locomo_conversation(sample: LocomoSample, *, index: int, source: str,
                         log: LoadLog) -> EvalConversation:
    where = f"sample[{index}]"
    space = str(require(sample, "sample_id", (str, int), source=source, where=where))
    conv = require(sample, "conversation", dict, source=source, where=where)
    qas = require(sample, "qa", list, source=source, where=where)

    sessions = sorted(
        (int(m.group(1)), key) for key in conv if (m := _SESSION_KEY.fullmatch(key))
    )
    messages: list[Message] = []
    by_canonical: dict[str, str] = {}
    last_start: datetime | None = None
    for number, key in sessions:
        turns = require(conv, key, list, source=source, where=f"{space}")
        if not turns:
            continue
        stamp = require(conv, f"{key}_date_time", str, source=source, where=space)
        try:
            start = parse_locomo_date(stamp)
        except ValueError as exc:
            raise InputError(f"{space}.{key}_date_time: {exc}", source=source) from exc
        if last_start is not None and start < last_start:
            log.note(f"{space}: {key} starts before the previous session")
        last_start = start
        for t, turn in enumerate(cast(list[LocomoTurn], turns)):
            messages.append(_locomo_message(turn, space=space, session=number,
                                            ts=start + t * TURN_GAP, source=source))
            canonical = _canonical_dia_id(messages[-1].id)
            if canonical is not None:
                by_canonical[canonical] = messages[-1].id
    orphan_dates = [
        k for k in conv
        if k.endswith("_date_time") and k.removesuffix("_date_time") not in conv
    ]
    if orphan_dates:
        log.note(f"{space}: {len(orphan_dates)} session date(s) without turns ignored")

    # Questions are asked after the conversation: as of its last turn.
    reference = max((m.ts for m in messages), default=None)
    questions = [
        _locomo_question(cast(LocomoQA, qa), qid=f"{space}:q{q}", turns=by_canonical,
                         reference=reference, source=source, log=log)
        for q, qa in enumerate(qas)
    ]
    return EvalConversation(space=space, messages=messages, questions=questions)


def _locomo_message(turn: LocomoTurn, *, space: str, session: int, ts: datetime,
                    source: str) -> Message:
    where = f"{space}.session_{session}"
    dia_id = require(turn, "dia_id", str, source=source, where=where)
    speaker = require(turn, "speaker", str, source=source, where=where) or "unknown"
    text = str(turn.get("text") or "")
    caption = turn.get("blip_caption")
    if caption:
        text = f"{text} [shares a photo: {caption}]".lstrip()
    return Message(platform=PLATFORM, space=space, channel="conv", id=dia_id, user=speaker,
                   user_name=speaker, ts=ts, text=text, thread_id=f"session_{session}",
                   channel_name="conv")


def _locomo_question(qa: LocomoQA, *, qid: str, turns: Mapping[str, str],
                     reference: datetime | None, source: str, log: LoadLog) -> EvalQuestion:
    question = require(qa, "question", str, source=source, where=qid)
    category = str(require(qa, "category", (int, str), source=source, where=qid))
    evidence = qa.get("evidence") or []
    if isinstance(evidence, str):
        evidence = [evidence]
    gold: list[str] = []
    for entry in evidence:
        pieces = [p for p in _EVIDENCE_SPLIT.split(str(entry)) if p]
        if not pieces:
            log.skip(f"{qid}: empty evidence entry")
        elif len(pieces) > 1:
            log.note(f"{qid}: evidence {entry!r} split into {len(pieces)} ids")
        for piece in pieces:
            canonical = _canonical_dia_id(piece)
            if canonical is None:
                log.skip(f"{qid}: malformed evidence {piece!r}")
            elif canonical not in turns:
                log.skip(f"{qid}: evidence {piece!r} names no turn")
            else:
                gold.append(turns[canonical])
    adversarial: str | None = None
    if category == "5":
        answer = LOCOMO_UNANSWERABLE
        raw_adv = qa.get("adversarial_answer")
        adversarial = None if raw_adv is None else str(raw_adv)
    else:
        raw_answer = qa.get("answer")
        answer = "" if raw_answer is None else str(raw_answer)
    return EvalQuestion(qid=qid, question=question, answer=answer, gold_ids=dedupe(gold),
                        category=category, reference_date=reference,
                        adversarial_answer=adversarial)
