"""Who holds a task someone asked to be taken: the person who took it on.

"who's handling the verifly contract?" over "ok switching to verifly. marco can you start
the contract stuff" → "yep" (Marco): the one asking named the task, the one answering took
it. A request addressed to someone ("sven can you take over the trailer edit?") is taken by
them ("sure, i'll grab the project files"); a call for anyone ("can someone chase
pharmacy", a list of volunteer slots) by whoever commits to the part asked about ("I'll do
sign-in"). A reply that declines ("can't do the truck that day") takes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.question import words as words_of
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.taking_words import TASK_REQUEST
from memory.models import EvidenceNode
from memory.reader.answer import citation, day_label, split_sentences
from memory.reader.answer_parts import Composed
from memory.reader.extract import Person, named_people, short_for
from memory.reader.reasons import accepts
from memory.reader.word_forms import unit_forms
from memory.text import shorten

# How much of the taking reply and of the request the first line quotes.
TAKING_CHARS = 120
REQUEST_CHARS = 90
# A request listing this many slots ("• 1 person with a pickup • 1-2 on sign-in") is taken
# slot by slot: only a reply naming the slot asked about takes it.
LIST_SLOTS = 2
# An offer to do something ("ill order") is taken over only in the turns right after it.
OFFER_TURNS = 3
# How far after a commitment ("I'll …") the task it commits to is looked for.
VOLUNTEER_CHARS = 60

_ADDRESS = re.compile(r"(?:^|[\s,.;:!—–-])@?([\w.'’-]{2,40})[,:]?\s{1,3}"
                      r"(?:(?:can|could|would|will)\s{1,3}(?:you|u)\b|"
                      r"(?:do\s{1,3})?(?:you|u)\s{1,3}(?:want|wanna|fancy|up for)\b)",
                      re.IGNORECASE)
_MENTION = re.compile(r"@([\w.-]{2,40})")
# A name ending the asking sentence ("could you take it over Sian?", "can you do it, sam?").
_VOCATIVE = re.compile(r"\b(?:can|could|would|will)\s{1,3}(?:you|u)\b[^?.!\n]{0,80}?[,\s]\s?"
                       r"@?([\w'’-]{2,40})\s?\?", re.IGNORECASE)


def is_request(node: EvidenceNode, lexicon: QuestionLexicon) -> bool:
    """Whether ``node`` asks someone to take a task on."""
    words = lexicon.taking
    return words.request.search(node.text) is not None or words.giving_up.search(
        node.text) is not None


def addressee(request: EvidenceNode, people: Sequence[Person]) -> Person | None:
    """The person ``request`` is addressed to ("sven can you …", "@marco could you …"), when
    it names one the scope knows."""
    named = {w.lower() for w in _ADDRESS.findall(request.text)}
    named |= {w.lower() for w in _MENTION.findall(request.text)}
    named |= {w.lower() for w in _VOCATIVE.findall(request.text)}
    for _, person in named_people(request.text, people):
        if person.name != request.speaker and (
                person.keys & named or any(short_for(n, [person]) for n in named)):
            return person
    return None


# A request naming its task by a pronoun: the task is what the message said before it.
_POINTS_BACK = re.compile(r"\b(?:it|that|this|them)\b", re.IGNORECASE)


def taker_of(request: EvidenceNode, linked: Sequence[EvidenceNode],
             following: Sequence[EvidenceNode], asked: frozenset[str],
             lexicon: QuestionLexicon, people: Sequence[Person], *, about: str = "",
             released: bool = False) -> EvidenceNode | None:
    """The reply by which someone took on what ``request`` asked for: among the turns
    linked to it and the turns just after it, by the person it addresses when it names
    one, else by anyone but its author; a bare "on it" counts as the first reply, a linked
    one or the addressee's, a reply committing ("I'll do sign-in") when it names something
    ``asked`` (the question's word forms), before any bare one; ``about`` is what the talk
    the request was made in is about (a thread's first message). None when nobody took
    it. ``released``: ``request`` is its holder declining the task ("can't quizmaster"),
    which anyone may take on next."""
    if not released and not is_request(request, lexicon):
        return None
    words = lexicon.taking
    to = addressee(request, people)
    asking = " ".join(p for p in _parts(request.text) if words.request.search(p))
    if not asking:  # (given up: "can't do the airport", "can't quizmaster")
        asking = " ".join(p for p in _parts(request.text) if words.giving_up.search(p)
                          or (released and words.releasing.search(p)))
    elif any(p.name not in (request.speaker, to.name if to is not None else "")
             for _, p in named_people(asking, people)):
        return None  # "can you ask raj to …", "confirm priya has it": a third person's task
    # a bare "yep" takes what the asking sentence names ("can u bring wine? I'll do snacks":
    # a yes to the wine is not the snacks)
    # ("swap table in the corner. tariq you want to run it?": "it" is the sentence before)
    told = request.text if _POINTS_BACK.search(asking) else asking
    bare_ok = bool(asked & unit_forms(f"{told} {about}"))
    slots = request.text.count("•") + len(re.findall(r"\n\s{0,8}[-*]\s", request.text))
    listed = slots >= LIST_SLOTS
    tied = {n.node_id for n in linked}
    turns = _in_order(linked, following)
    first = True
    bare: EvidenceNode | None = None
    for reply in turns:
        if (reply.ts, reply.seq) <= (request.ts, request.seq) or (
                reply.speaker_id == request.speaker_id):
            continue
        if to is not None and reply.speaker != to.name:
            continue
        near = first or reply.node_id in tied or to is not None
        first = False
        opening = split_sentences(reply.text)
        if "?" in (opening[0] if opening else reply.text):
            continue  # a question back ("me? which ward?") takes nothing yet
        if words.declining.search(reply.text):
            if to is not None:
                return None  # the one asked said no
            continue
        said = words_of(reply.text)
        if any(p.name not in (reply.speaker, request.speaker)
               and not said[i].low.endswith(("'s", "’s"))
               for i, p in named_people(reply.text, people)):
            # "Beatriz, since she's taking it": someone else is named for it (not an
            # owner: "I'll get them, mam's car has room")
            continue
        names_it = bool(asked & unit_forms(reply.text))
        if names_it and words.committing.search(reply.text):
            return reply
        if bare is None and near and bare_ok and not listed and (accepts(
                reply.text, words.openers, lexicon.fillers) or words.takes_it.match(
                reply.text)):
            if to is not None:
                return reply  # the one asked said yes
            bare = reply  # a later reply naming the task outranks a bare "ok"
    return bare


def co_takers(request: EvidenceNode, reply: EvidenceNode, linked: Sequence[EvidenceNode],
              following: Sequence[EvidenceNode], lexicon: QuestionLexicon
              ) -> list[EvidenceNode]:
    """The others who took on ``request`` beside ``reply`` when it asks for more than one
    person ("Need 2 volunteers" → "me!", "I'll do it too"): each later reply by someone
    new saying yes or committing, up to as many as it asks for."""
    m = _WANTS_SEVERAL.search(request.text)
    if m is None:
        return []
    said = m.group(1).lower()
    wanted = int(said) if said.isdigit() else _COUNT_WORDS.get(" ".join(said.split()), 2)
    words = lexicon.taking
    seen = {request.speaker_id, reply.speaker_id}
    out: list[EvidenceNode] = []
    for turn in _in_order(linked, following):
        if len(out) + 1 >= wanted:
            break
        if (turn.ts, turn.seq) <= (reply.ts, reply.seq) or turn.speaker_id in seen:
            continue
        seen.add(turn.speaker_id)
        if "?" in turn.text or words.declining.search(turn.text):
            continue
        if words.committing.search(turn.text) or words.takes_it.match(turn.text) or accepts(
                turn.text, words.openers, lexicon.fillers):
            out.append(turn)
    return out


def _in_order(linked: Sequence[EvidenceNode], following: Sequence[EvidenceNode]
              ) -> list[EvidenceNode]:
    """The replies linked to a request and the turns after it, each once, in time order."""
    return sorted({n.node_id: n for n in [*linked, *following]}.values(),
                  key=lambda n: (n.ts, n.seq))


# A request for more than one person ("Need 2 volunteers", "looking for three helpers").
_WANTS_SEVERAL = re.compile(r"\b(?:need|needs|needed|want|wanted|looking\sfor|after)\s"
                            r"(?:\w{1,12}\s)?(\d{1,2}|two|three|four|five|six|couple\sof|few)"
                            r"\s(?:more\s|extra\s)?(?:volunteers|people|ppl|helpers|hands|"
                            r"drivers|bodies|folks)\b", re.IGNORECASE)
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "couple of": 2,
                "few": 3}


def taken_over(offer: EvidenceNode, following: Sequence[EvidenceNode],
               lexicon: QuestionLexicon, *, turns: int = OFFER_TURNS) -> EvidenceNode | None:
    """The reply by which someone else took over what ``offer`` committed its speaker to
    ("ill order" → "ill do it, I have the HP account open"), among the next ``turns``
    turns; None when ``offer`` commits to nothing or nobody took it over."""
    words = lexicon.taking
    if words.request.search(offer.text) or not words.committing.search(offer.text):
        return None
    later = sorted((n for n in following if (n.ts, n.seq) > (offer.ts, offer.seq)),
                   key=lambda n: (n.ts, n.seq))[:turns]
    for reply in later:
        if reply.speaker_id != offer.speaker_id and words.taking_over.search(reply.text):
            return reply
        if words.request.search(reply.text):
            return None  # a task asked for in between: an "i'll do it" after it is for that
    return None


def volunteers_for(node: EvidenceNode, asked: frozenset[str], lexicon: QuestionLexicon,
                   people: Sequence[Person]) -> bool:
    """Whether ``node`` commits its speaker to the task ``asked`` (the question's word
    forms) of their own accord: a sentence committing ("so I'll let the engineer in") that
    names the task in the words after the commitment, no one else among them."""
    words = lexicon.taking
    for sentence in split_sentences(node.text):
        m = words.volunteering.search(sentence)
        if m is None or "?" in sentence or words.declining.search(sentence):
            continue
        rest = sentence[m.end():m.end() + VOLUNTEER_CHARS]
        if asked & unit_forms(rest) and not any(
                p.name != node.speaker for _, p in named_people(rest, people)):
            return True
    return False


def volunteered(composed: Composed, node: EvidenceNode) -> Composed:
    """``composed`` (a *who* answer) naming first the person who took the task on of their
    own accord in ``node``, cited first."""
    first = f"{node.speaker} ({day_label(node.ts)}): {shorten(node.text, TAKING_CHARS)}"
    return Composed([first, *composed.lines[1:]], node.speaker,
                    [citation(node), *composed.citations], composed.states,
                    composed.replaced, composed.replaced_cite)


def taken(composed: Composed, request: EvidenceNode, reply: EvidenceNode,
          asked: frozenset[str], also: Sequence[EvidenceNode] = ()) -> Composed:
    """``composed`` (a *who* answer) naming the person who took the task on first (and
    ``also`` those who took it on beside them), the part of the request asking for it
    quoted after, the reply cited first."""
    names = " and ".join([reply.speaker, *(n.speaker for n in also)])
    first = (f"{names} ({day_label(reply.ts)}): {shorten(reply.text, TAKING_CHARS)} "
             f"(taking on {request.speaker}'s "
             f"\"{shorten(asking_part(request.text, asked), REQUEST_CHARS)}\")")
    return Composed([first, *composed.lines[1:]], names,
                    [citation(reply), *(citation(n) for n in also), citation(request),
                     *composed.citations],
                    composed.states, composed.replaced, composed.replaced_cite)


def asking_part(text: str, asked: frozenset[str]) -> str:
    """The line or sentence of a request asking for what was asked about, else the first
    naming it (a slot of a list), else the first asking, else its first."""
    parts = _parts(text)
    def rank(part: str) -> tuple[bool, bool, bool]:
        asks, names = TASK_REQUEST.search(part) is not None, bool(asked & unit_forms(part))
        return not (asks and names), not names, not asks

    ranked = sorted(parts, key=rank)
    return ranked[0]


def _parts(text: str) -> list[str]:
    """The lines and sentences of a message (a list's items apart)."""
    parts = [p.strip(" •-*") for line in text.splitlines() for p in split_sentences(line)]
    return [p for p in parts if p] or [text]
