"""Loaders of the transcript benchmarks: FriendsQA (TV scenes) and QMSum (meetings).

See :mod:`egmem_eval.datasets` for the formats."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any, NotRequired, TypedDict, cast

from egmem_eval.records import (
    PLATFORM,
    SYNTHETIC_ORIGIN,
    TURN_GAP,
    EvalConversation,
    EvalDataset,
    EvalQuestion,
    LoadLog,
    as_mapping,
    dedupe,
    read_json,
    require,
)
from memory.models import Message

logger = logging.getLogger(__name__)


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


# ---------------------------------------------------------------- FriendsQA

_UTTERANCES_KEYS = ("utterances:", "utterances")


def load_friendsqa(raw: Any, *, source: str) -> EvalDataset:
    episodes = require(raw, "data", list, source=source, where="root")
    log = LoadLog()
    conversations: list[EvalConversation] = []
    for e, episode in enumerate(episodes):
        title = str(require(episode, "title", str, source=source, where=f"data[{e}]"))
        paragraphs = require(episode, "paragraphs", list, source=source, where=title)
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
                   log: LoadLog) -> EvalConversation:
    # The published files spell the key with a trailing colon; accept the plain one too.
    key = next((k for k in _UTTERANCES_KEYS if isinstance(paragraph, dict) and k in paragraph),
               _UTTERANCES_KEYS[0])
    utterances = cast(list[FriendsUtterance],
                      require(paragraph, key, list, source=source, where=space))
    qas = cast(list[FriendsQA], require(paragraph, "qas", list, source=source, where=space))
    start = SYNTHETIC_ORIGIN + timedelta(days=day)
    messages: list[Message] = []
    for i, utt in enumerate(utterances):
        uid = str(require(utt, "uid", (int, str), source=source, where=f"{space}[{i}]"))
        speakers = ", ".join(str(s) for s in utt.get("speakers") or []) or "unknown"
        messages.append(Message(platform=PLATFORM, space=space, channel="scene", id=uid,
                                user=speakers, user_name=speakers, ts=start + i * TURN_GAP,
                                text=str(utt.get("utterance") or ""), channel_name="scene"))
    questions: list[EvalQuestion] = []
    for q, qa in enumerate(qas):
        as_mapping(qa, source=source, where=f"{space}.qas[{q}]")
        qid = str(qa.get("id") or f"{space}:q{q}")
        answers = require(qa, "answers", list, source=source, where=qid)
        gold: list[str] = []
        # `utterance_id` is the position of the utterance in the scene (equal to its uid
        # in the published files); map it through the list so the gold is a message id.
        for a in cast(list[FriendsAnswer], answers):
            as_mapping(a, source=source, where=f"{qid}.answers")
            index = a.get("utterance_id")
            if isinstance(index, int) and 0 <= index < len(messages):
                gold.append(messages[index].id)
            else:
                log.skip(f"{qid}: utterance_id {index!r} names no utterance")
        first = str(answers[0].get("answer_text", "")) if answers else ""
        questions.append(EvalQuestion(
            qid=qid, question=str(require(qa, "question", str, source=source, where=qid)),
            answer=first, gold_ids=dedupe(gold), category="friendsqa"))
    return EvalConversation(space=space, messages=messages, questions=questions)


# ---------------------------------------------------------------- QMSum


def load_qmsum(files: list[Path]) -> EvalDataset:
    log = LoadLog()
    conversations = [
        _qmsum_meeting(read_json(f), space=f.stem, day=d, source=str(f), log=log)
        for d, f in enumerate(files)
    ]
    logger.info("loaded qmsum: %d meetings, %d spans skipped", len(conversations), log.count)
    return EvalDataset(name="qmsum", conversations=conversations,
                       skipped_evidence=log.count, notes=log.notes)


def _qmsum_meeting(raw: Any, *, space: str, day: int, source: str,
                   log: LoadLog) -> EvalConversation:
    turns = cast(list[QmsumTurn],
                 require(raw, "meeting_transcripts", list, source=source, where=space))
    for i, turn in enumerate(turns):
        as_mapping(turn, source=source, where=f"{space}.meeting_transcripts[{i}]")
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
        as_mapping(query, source=source, where=qid)
        gold = _qmsum_gold(query.get("relevant_text_span") or [], n_turns=len(messages),
                           qid=qid, log=log)
        questions.append(_qmsum_question(query, qid=qid, gold=gold, category="specific",
                                         source=source))
    general = cast(list[QmsumQuery], raw.get("general_query_list") or [])
    for q, query in enumerate(general):
        as_mapping(query, source=source, where=f"{space}:general{q}")
        questions.append(_qmsum_question(query, qid=f"{space}:general{q}", gold=[],
                                         category="general", source=source))
    return EvalConversation(space=space, messages=messages, questions=questions)


def _qmsum_gold(spans: Iterable[Any], *, n_turns: int, qid: str, log: LoadLog) -> list[str]:
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
    text = require(query, "query", str, source=source, where=qid)
    return EvalQuestion(qid=qid, question=text, answer=str(query.get("answer") or ""),
                        gold_ids=gold, category=category)
