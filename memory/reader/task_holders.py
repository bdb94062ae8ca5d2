"""Who holds a task now: whoever took it on when it was asked for, handed back, given up
or taken on unasked after the answer's message (the *who is doing it* reader).

"who's minding Biscuit in the end?" over "who wants to mind Biscuit?" → "me me me" (Ronan)
… "can someone else do biscuit" (Ronan) → "I'll do it" (Liam): Liam. The requests and the
replies taking them on are read by :mod:`memory.reader.taking`; this follows the task
through them in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import SELF_WORDS, QuestionLexicon
from memory.models import EvidenceNode
from memory.reader.compose import Composed
from memory.reader.coverage import Coverage
from memory.reader.extract import Person
from memory.reader.taking import (
    asking_part,
    co_takers,
    is_request,
    taken,
    taken_over,
    taker_of,
    volunteered,
    volunteers_for,
)
from memory.reader.tools import ReaderSession, ReaderTools
from memory.reader.when_values import has_clock
from memory.reader.word_forms import forms, unit_forms
from memory.text import find_slots

# The best covering messages read as requests for a taker, and the turns after each read
# for the reply taking it on.
TAKING_SOURCES = 3
TAKING_TURNS = 6
TAKING_WITHIN = timedelta(hours=12)
# How many times a task is followed changing hands after the answer.
HANDS_WALKED = 4


class TaskHolders:
    """Who holds the task a *who is doing it* answer names, read with ``tools`` inside the
    asker's scope; ``min_coverage``: how well a message must cover the question to be read
    as asking for a taker."""

    def __init__(self, *, tools: ReaderTools, lexicon: QuestionLexicon,
                 min_coverage: float) -> None:
        self.tools = tools
        self.lexicon = lexicon
        self.min_coverage = min_coverage

    def holder(self, qa: QuestionAnalysis, session: ReaderSession, composed: Composed,
               verdict: Coverage, people: Sequence[Person]) -> Composed:
        """For *who is doing it*: when the answer's message, or one of the best covering
        messages, asked for someone to take the task on, the person who took it on in a
        reply (:mod:`memory.reader.taking`), the latest such taking when it is newer than
        the answer's message."""
        first = composed.citations[0] if composed.citations else None
        node = session.nodes.get(first.node_id) if first is not None else None
        if node is None:
            return composed
        threshold = self.min_coverage
        # (the messages: a state unit is no request)
        messages = [(s, u.node, u) for s, u in verdict.units
                    if u.node is not None][:TAKING_SOURCES]
        covering = [n for s, n, _ in messages if s >= threshold]
        # (the slot a cover is asked for names the task: "who's covering my thursday 7am")
        slots = [*qa.dates, *(sl.text.lower() for sl in find_slots(qa.text)
                              if sl.kind.value == "time" and has_clock(sl.text))]
        asked = frozenset(f for t in [*qa.terms, *slots] if t not in self.lexicon.predicates
                          and not t.endswith("ing") for f in forms(t))
        asked_terms = [t for t in [*qa.terms, *slots] if forms(t) & asked]
        if not asked_terms:
            return composed
        requests = [n for n in {n.node_id: n for n in [node, *covering]}.values()
                    if is_request(n, self.lexicon)]
        # a covering reply may take on what the turn it answers asked ("Mei would you lead
        # st aidan's?" → "sure, happy to" under the school evening's thread): that request
        # is about what the reply is about
        about: dict[str, str] = {}
        for s, n, u in messages:
            for cid in n.context_ids if s >= threshold else ():
                turn = session.nodes.get(cid)
                if turn is not None and turn.node_id not in about and is_request(
                        turn, self.lexicon) and all(r.node_id != cid for r in requests):
                    requests.append(turn)
                    about[cid] = u.text  # (with the thread's first message, as covered)
        after = self.tools.replies_after(node, session.scope, n=TAKING_TURNS,
                                         within=TAKING_WITHIN)
        # its speaker giving the answer's message up is about it ("I can do it" … "I'm
        # away that weekend, can someone else do it?")
        for r in after:
            if r.speaker_id == node.speaker_id and is_request(r, self.lexicon) and all(
                    x.node_id != r.node_id for x in requests):
                requests.append(r)
                about[r.node_id] = node.text
        # its holder giving it up, however long after ("can someone else do biscuit", "I
        # can't move it"): whoever takes it on then holds it
        holders = {node.speaker, composed.short}
        for n in (u.node for _, u in verdict.units if u.node is not None):
            if n.speaker in holders and (n.ts, n.seq) > (node.ts, node.seq) and is_request(
                    n, self.lexicon) and asked & unit_forms(n.text) and all(
                    x.node_id != n.node_id for x in requests):
                requests.append(n)
                about[n.node_id] = f"{node.text} {node.context}"
        answers = session.answers_to(requests)
        best: tuple[EvidenceNode, EvidenceNode] | None = None
        over = taken_over(node, after, self.lexicon)  # (None for a request)
        if over is not None:
            best = (node, over)
        read: dict[str, list[EvidenceNode]] = {}  # the turns after each request
        for request in requests:
            following = read[request.node_id] = self.tools.turns_after(
                request, session.scope, n=TAKING_TURNS, within=TAKING_WITHIN)
            reply = taker_of(request, answers.get(request.node_id, []), following, asked,
                             self.lexicon, people, about=about.get(request.node_id, ""))
            if reply is None or (request is not node and _named(
                    qa, asked, f"{request.text} {reply.text} {about.get(request.node_id, '')}"
            ) < len(asked_terms)):
                continue  # another message's request may be a part of the task asked
            if best is None or (reply.ts, reply.seq) > (best[1].ts, best[1].seq):
                best = (request, reply)
        moved = self._handed_on(qa, best, node, composed, verdict, asked, people, session)
        if moved is not None:
            asker, took = moved
            return taken(composed, asker, took, asked) if asker is not None else \
                volunteered(composed, took)
        if best is None:
            return composed
        request, reply = best
        if request is node and composed.short not in (node.speaker, reply.speaker) and (
                self.lexicon.taking.request.search(node.text)):
            # the request itself names who does it ("… owner is Kim"; not one given up:
            # "rosa I'm working late friday, can't do the station run")
            return composed
        # (a request by the holder, as "could you take it over Sian?", hands it over)
        handed = request.speaker == composed.short
        named = any(composed.short.lower() in p.name.lower().split() or p.name == composed.short
                    for p in people)
        # (naming less of the task than the request does, it speaks of another part of
        # it: "I'll get raffle tickets printed" beside "Theo can you run the raffle table?")
        if request is not node and _named(qa, asked, node.text) >= min(
                len(asked_terms), _named(qa, asked, request.text)) and (
                composed.short != node.speaker or any(w.low in SELF_WORDS
                                                      for w in words(node.text))) and (
                reply.ts < node.ts or (named and not handed)):
            # the answer's message names the task's holder ("jo owns it"), unless a later
            # taking follows a hand-over by that holder ("could you take it over Sian?") or
            # what it names is no one ("St Aidan's Primary said yes …")
            return composed
        if request is not node and reply.ts < node.ts and _named(
                qa, asked, node.text) >= len(asked_terms):
            return composed  # the answer's message is newer than the taking, and on topic
        following = read[request.node_id] if request.node_id in read else \
            self.tools.turns_after(request, session.scope, n=TAKING_TURNS,
                                   within=TAKING_WITHIN)
        return taken(composed, request, reply, asked, co_takers(
            request, reply, answers.get(request.node_id, []), following, self.lexicon))

    def _handed_on(self, qa: QuestionAnalysis, best: tuple[EvidenceNode, EvidenceNode] | None,
                   node: EvidenceNode, composed: Composed, verdict: Coverage,
                   asked: frozenset[str], people: Sequence[Person], session: ReaderSession
                   ) -> tuple[EvidenceNode | None, EvidenceNode] | None:
        """The task changing hands after the answer, in order: someone else taking it on
        of their own accord ("Ben's on leave the 11th remember, so I'll let the engineer
        in"), or its holder giving it up ("can someone else do biscuit") and whoever takes
        it on then. The last (request, taker) — request None for a taking unasked — or
        None when it stayed where it was."""
        # (the task in its own words: "I'll get them, mam's car …" takes nothing "Mam" is
        # driven to; an amount or a day the question names is named: "the 5k loan", not
        # "loan note")
        names = frozenset(f for n in qa.named if not any(ch.isdigit() for ch in n)
                          for f in forms(n.lower()))
        # (and the act asked about names no task: "who at pontfaen *offered* …")
        task = frozenset(f for f in asked - names if not f.endswith("ed"))
        values = frozenset(f for t in qa.terms if t[:1].isdigit() for f in forms(t))
        pool = sorted({u.node.node_id: u.node for _, u in verdict.units
                       if u.node is not None}.values(), key=lambda n: (n.ts, n.seq))
        request: EvidenceNode | None = best[0] if best is not None else None
        held = best[1] if best is not None else node
        holder = held.speaker if best is not None else composed.short
        channel = (best[0] if best is not None else node).channel
        moved = False
        for _ in range(HANDS_WALKED):
            step: tuple[EvidenceNode | None, EvidenceNode] | None = None
            # (naming less of the task than it was asked or held by, a taking unasked is of
            # another part of it: "I'll get raffle tickets printed" beside "Theo can you run
            # the raffle table?")
            need = _named(qa, task, asking_part(request.text, asked)) if request is not None \
                else 0
            for n in pool:
                if (n.ts, n.seq) <= (held.ts, held.seq) or n.channel != channel:
                    continue
                if n.speaker != holder and volunteers_for(n, task, self.lexicon, people) and (
                        values <= unit_forms(n.text)) and _named(qa, task, n.text) >= need:
                    step = (request, n)
                    break
                # (its holder declining it: "work are sending me to leeds 😩 can't quizmaster")
                released = self.lexicon.taking.releasing.search(n.text) is not None
                if n.speaker == holder and (released or is_request(n, self.lexicon)) and (
                        task & unit_forms(n.text)):
                    following = self.tools.turns_after(n, session.scope, n=TAKING_TURNS,
                                                       within=TAKING_WITHIN)
                    reply = taker_of(n, session.answers_to([n]).get(n.node_id, []), following,
                                     asked, self.lexicon, people,
                                     about=f"{node.text} {node.context}", released=released)
                    if reply is not None:
                        step = (n, reply)
                        break
            if step is None:
                break
            request, held = step
            holder, moved = held.speaker, True
        return (request, held) if moved else None


def _named(qa: QuestionAnalysis, asked: frozenset[str], text: str) -> int:
    """How many of ``qa``'s terms that ``asked`` holds ``text`` names."""
    said = unit_forms(text)
    return sum(1 for t in qa.terms if forms(t) & asked & said)
