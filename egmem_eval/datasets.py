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

import json
import logging
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict, cast

from pydantic import BaseModel, ConfigDict, Field

from memory.errors import InputError
from memory.models import Message

logger = logging.getLogger(__name__)

DatasetName = Literal["locomo", "friendsqa", "qmsum"]
DATASET_NAMES: tuple[DatasetName, ...] = ("locomo", "friendsqa", "qmsum")

PLATFORM = "eval"
TURN_GAP = timedelta(seconds=30)
# Formats without real times get one synthetic day per conversation from this origin.
SYNTHETIC_ORIGIN = datetime(2020, 1, 1, 9, 0, tzinfo=UTC)
# LoCoMo category 5 is adversarial: the question attributes something to the wrong speaker,
# and `adversarial_answer` is the trap (true of the other speaker). The benchmark scores an
# answer as correct when it says the thing was not mentioned.
LOCOMO_UNANSWERABLE = "Not mentioned in the conversation"


class EvalQuestion(BaseModel):
    """One benchmark question; ``gold_ids`` are message ids in its conversation's space.

    ``gold_ids`` may be empty (no or only malformed evidence, QMSum general queries);
    retrieval recall is only defined where it is not.
    """

    model_config = ConfigDict(frozen=True)

    qid: str
    question: str
    answer: str
    gold_ids: list[str] = Field(default_factory=list)
    category: str
    reference_date: datetime | None = None
    adversarial_answer: str | None = None


class EvalConversation(BaseModel):
    """One conversation, loaded into its own space; messages are in chronological order."""

    model_config = ConfigDict(frozen=True)

    space: str
    messages: list[Message]
    questions: list[EvalQuestion]


class EvalDataset(BaseModel):
    """A whole benchmark split; ``skipped_evidence`` counts unusable gold references."""

    model_config = ConfigDict(frozen=True)

    name: str
    conversations: list[EvalConversation]
    skipped_evidence: int = 0
    notes: list[str] = Field(default_factory=list)

    @property
    def message_count(self) -> int:
        return sum(len(c.messages) for c in self.conversations)

    @property
    def question_count(self) -> int:
        return sum(len(c.questions) for c in self.conversations)


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


class FriendsUtterance(TypedDict):
    uid: int
    speakers: list[str]
    utterance: str


class FriendsAnswer(TypedDict):
    answer_text: str
    utterance_id: int
    inner_start: int
    inner_end: int
    is_speaker: bool


class FriendsQA(TypedDict):
    id: str
    question: str
    answers: list[FriendsAnswer]


class QmsumTurn(TypedDict):
    speaker: str
    content: str


class QmsumQuery(TypedDict):
    query: str
    answer: str
    relevant_text_span: NotRequired[list[list[str]]]


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
        return _load_qmsum(files)
    if name not in ("locomo", "friendsqa"):
        raise InputError(f"unknown dataset {name!r}; expected one of {', '.join(DATASET_NAMES)}")
    file = _single_json(path)
    raw = _read_json(file)
    if name == "locomo":
        return _load_locomo(raw, source=str(file))
    return _load_friendsqa(raw, source=str(file))


def _single_json(path: Path) -> Path:
    if not path.is_dir():
        return path
    files = sorted(path.glob("*.json"))
    if len(files) != 1:
        raise InputError(f"expected one .json file in the folder, found {len(files)}",
                         source=str(path))
    return files[0]


def _read_json(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", source=str(path), line=exc.lineno) from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source=str(path)) from exc


def _require(obj: Any, key: str, kind: type | tuple[type, ...], *, source: str, where: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise InputError(f"{where}: missing key {key!r}", source=source)
    value = obj[key]
    if not isinstance(value, kind):
        raise InputError(f"{where}.{key}: unexpected type {type(value).__name__}", source=source)
    return value


def _mapping(obj: Any, *, source: str, where: str) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise InputError(f"{where}: expected an object, got {type(obj).__name__}", source=source)
    return obj


def _dedupe(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


class _LoadLog:
    """Counts skipped gold evidence and collects notes, in order, while a dataset loads."""

    def __init__(self) -> None:
        self.count = 0
        self.notes: list[str] = []

    def skip(self, note: str) -> None:
        self.count += 1
        self.notes.append(note)
        logger.debug("eval evidence skipped: %s", note)

    def note(self, note: str) -> None:
        self.notes.append(note)


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
    log = _LoadLog()
    conversations = [
        _locomo_conversation(cast(LocomoSample, sample), index=i, source=source, log=log)
        for i, sample in enumerate(raw)
    ]
    logger.info("loaded locomo: %d conversations, %d evidence ids skipped",
                len(conversations), log.count)
    return EvalDataset(name="locomo", conversations=conversations,
                       skipped_evidence=log.count, notes=log.notes)


def _locomo_conversation(sample: LocomoSample, *, index: int, source: str,
                         log: _LoadLog) -> EvalConversation:
    where = f"sample[{index}]"
    space = str(_require(sample, "sample_id", (str, int), source=source, where=where))
    conv = _require(sample, "conversation", dict, source=source, where=where)
    qas = _require(sample, "qa", list, source=source, where=where)

    sessions = sorted(
        (int(m.group(1)), key) for key in conv if (m := _SESSION_KEY.fullmatch(key))
    )
    messages: list[Message] = []
    by_canonical: dict[str, str] = {}
    last_start: datetime | None = None
    for number, key in sessions:
        turns = _require(conv, key, list, source=source, where=f"{space}")
        if not turns:
            continue
        stamp = _require(conv, f"{key}_date_time", str, source=source, where=space)
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
    dia_id = _require(turn, "dia_id", str, source=source, where=where)
    speaker = _require(turn, "speaker", str, source=source, where=where) or "unknown"
    text = str(turn.get("text") or "")
    caption = turn.get("blip_caption")
    if caption:
        text = f"{text} [shares a photo: {caption}]".lstrip()
    return Message(platform=PLATFORM, space=space, channel="conv", id=dia_id, user=speaker,
                   user_name=speaker, ts=ts, text=text, thread_id=f"session_{session}",
                   channel_name="conv")


def _locomo_question(qa: LocomoQA, *, qid: str, turns: Mapping[str, str],
                     reference: datetime | None, source: str, log: _LoadLog) -> EvalQuestion:
    question = _require(qa, "question", str, source=source, where=qid)
    category = str(_require(qa, "category", (int, str), source=source, where=qid))
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
    return EvalQuestion(qid=qid, question=question, answer=answer, gold_ids=_dedupe(gold),
                        category=category, reference_date=reference,
                        adversarial_answer=adversarial)


# ---------------------------------------------------------------- FriendsQA

_UTTERANCES_KEYS = ("utterances:", "utterances")


def _load_friendsqa(raw: Any, *, source: str) -> EvalDataset:
    episodes = _require(raw, "data", list, source=source, where="root")
    log = _LoadLog()
    conversations: list[EvalConversation] = []
    for e, episode in enumerate(episodes):
        title = str(_require(episode, "title", str, source=source, where=f"data[{e}]"))
        paragraphs = _require(episode, "paragraphs", list, source=source, where=title)
        for p, paragraph in enumerate(paragraphs):
            space = title if len(paragraphs) == 1 else f"{title}_p{p}"
            conversations.append(
                _friends_scene(paragraph, space=space, day=len(conversations), source=source,
                               log=log)
            )
    logger.info("loaded friendsqa: %d scenes, %d evidence ids skipped",
                len(conversations), log.count)
    return EvalDataset(name="friendsqa", conversations=conversations,
                       skipped_evidence=log.count, notes=log.notes)


def _friends_scene(paragraph: Any, *, space: str, day: int, source: str,
                   log: _LoadLog) -> EvalConversation:
    # The published files spell the key with a trailing colon; accept the plain one too.
    key = next((k for k in _UTTERANCES_KEYS if isinstance(paragraph, dict) and k in paragraph),
               _UTTERANCES_KEYS[0])
    utterances = cast(list[FriendsUtterance],
                      _require(paragraph, key, list, source=source, where=space))
    qas = cast(list[FriendsQA], _require(paragraph, "qas", list, source=source, where=space))
    start = SYNTHETIC_ORIGIN + timedelta(days=day)
    messages: list[Message] = []
    for i, utt in enumerate(utterances):
        uid = str(_require(utt, "uid", (int, str), source=source, where=f"{space}[{i}]"))
        speakers = ", ".join(str(s) for s in utt.get("speakers") or []) or "unknown"
        messages.append(Message(platform=PLATFORM, space=space, channel="scene", id=uid,
                                user=speakers, user_name=speakers, ts=start + i * TURN_GAP,
                                text=str(utt.get("utterance") or ""), channel_name="scene"))
    questions: list[EvalQuestion] = []
    for q, qa in enumerate(qas):
        _mapping(qa, source=source, where=f"{space}.qas[{q}]")
        qid = str(qa.get("id") or f"{space}:q{q}")
        answers = _require(qa, "answers", list, source=source, where=qid)
        gold: list[str] = []
        # `utterance_id` is the position of the utterance in the scene (equal to its uid
        # in the published files); map it through the list so the gold is a message id.
        for a in cast(list[FriendsAnswer], answers):
            _mapping(a, source=source, where=f"{qid}.answers")
            index = a.get("utterance_id")
            if isinstance(index, int) and 0 <= index < len(messages):
                gold.append(messages[index].id)
            else:
                log.skip(f"{qid}: utterance_id {index!r} names no utterance")
        first = str(answers[0].get("answer_text", "")) if answers else ""
        questions.append(EvalQuestion(
            qid=qid, question=str(_require(qa, "question", str, source=source, where=qid)),
            answer=first, gold_ids=_dedupe(gold), category="friendsqa"))
    return EvalConversation(space=space, messages=messages, questions=questions)


# ---------------------------------------------------------------- QMSum


def _load_qmsum(files: list[Path]) -> EvalDataset:
    log = _LoadLog()
    conversations = [
        _qmsum_meeting(_read_json(f), space=f.stem, day=d, source=str(f), log=log)
        for d, f in enumerate(files)
    ]
    logger.info("loaded qmsum: %d meetings, %d spans skipped", len(conversations), log.count)
    return EvalDataset(name="qmsum", conversations=conversations,
                       skipped_evidence=log.count, notes=log.notes)


def _qmsum_meeting(raw: Any, *, space: str, day: int, source: str,
                   log: _LoadLog) -> EvalConversation:
    turns = cast(list[QmsumTurn],
                 _require(raw, "meeting_transcripts", list, source=source, where=space))
    for i, turn in enumerate(turns):
        _mapping(turn, source=source, where=f"{space}.meeting_transcripts[{i}]")
    start = SYNTHETIC_ORIGIN + timedelta(days=day)
    # Empty turns are kept: ids are positions, and the spans count them.
    messages = [
        Message(platform=PLATFORM, space=space, channel="meeting", id=f"t{i}",
                user=str(turn.get("speaker") or "unknown"),
                user_name=str(turn.get("speaker") or ""), ts=start + i * TURN_GAP,
                text=str(turn.get("content") or ""), channel_name="meeting")
        for i, turn in enumerate(turns)
    ]
    questions: list[EvalQuestion] = []
    specific = cast(list[QmsumQuery], raw.get("specific_query_list") or [])
    for q, query in enumerate(specific):
        qid = f"{space}:specific{q}"
        _mapping(query, source=source, where=qid)
        gold = _qmsum_gold(query.get("relevant_text_span") or [], n_turns=len(messages),
                           qid=qid, log=log)
        questions.append(_qmsum_question(query, qid=qid, gold=gold, category="specific",
                                         source=source))
    general = cast(list[QmsumQuery], raw.get("general_query_list") or [])
    for q, query in enumerate(general):
        _mapping(query, source=source, where=f"{space}:general{q}")
        questions.append(_qmsum_question(query, qid=f"{space}:general{q}", gold=[],
                                         category="general", source=source))
    return EvalConversation(space=space, messages=messages, questions=questions)


def _qmsum_gold(spans: Iterable[Any], *, n_turns: int, qid: str, log: _LoadLog) -> list[str]:
    """Union of the inclusive turn ranges; a span that is unusable as a whole is skipped."""
    indexes: set[int] = set()
    for span in spans:
        try:
            lo, hi = (int(str(v).strip()) for v in span)
        except (TypeError, ValueError):
            log.skip(f"{qid}: malformed span {span!r}")
            continue
        if not 0 <= lo <= hi < n_turns:
            log.skip(f"{qid}: span {span!r} outside 0..{n_turns - 1} or reversed")
            continue
        indexes.update(range(lo, hi + 1))
    return [f"t{i}" for i in sorted(indexes)]


def _qmsum_question(query: QmsumQuery, *, qid: str, gold: list[str], category: str,
                    source: str) -> EvalQuestion:
    text = _require(query, "query", str, source=source, where=qid)
    return EvalQuestion(qid=qid, question=text, answer=str(query.get("answer") or ""),
                        gold_ids=gold, category=category)
