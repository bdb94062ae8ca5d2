"""What the benchmark loaders produce (:class:`EvalDataset` of conversations and questions)
and the checks they share while reading a file."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

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


def single_json(path: Path) -> Path:
    if not path.is_dir():
        return path
    files = sorted(path.glob("*.json"))
    if len(files) != 1:
        raise InputError(f"expected one .json file in the folder, found {len(files)}",
                         source=str(path))
    return files[0]


def read_json(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", source=str(path), line=exc.lineno) from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source=str(path)) from exc


def require(obj: Any, key: str, kind: type | tuple[type, ...], *, source: str, where: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise InputError(f"{where}: missing key {key!r}", source=source)
    value = obj[key]
    if not isinstance(value, kind):
        raise InputError(f"{where}.{key}: unexpected type {type(value).__name__}", source=source)
    return value


def as_mapping(obj: Any, *, source: str, where: str) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise InputError(f"{where}: expected an object, got {type(obj).__name__}", source=source)
    return obj


def dedupe(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


class LoadLog:
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
