"""The offline reader: the paper's tools under a fixed policy, answering extractively.

Policy for one question (each step conditioned on what the previous ones returned):

1. Read what the question asks (:func:`~memory.analysis.question.analyze_question`): its
   kind (current, previous, original, who, when, why, list, fact), the kind of value it
   wants, its subject and the things it names.
2. Search, one step (:meth:`~memory.reader.tools.ReaderSession.search_question`):
   ``search_evidence`` on the question, dates in it resolved against the reference day to
   steer ranking, and (unless ablated) a second round with the anchors' speakers and key
   terms; passages already returned are suppressed. Its ranked hits serve every later step.
3. ``read_current_state`` for the question's subject, with the states of the evidence
   found (one decision's parts may sit in separate states: each is its own candidate).
4. Questions found in unthreaded chat are followed to their answers (the turns the writer
   linked to them, else the next turns by someone else): the answer is what is cited.
5. Coverage (:mod:`memory.reader.coverage`): answer only when one unit of this scoped
   evidence covers what the question is about; otherwise abstain, saying that the memory
   the asker may read holds no answer, with the closest messages offered apart.
6. Compose (:mod:`memory.reader.compose`): the first line answers exactly what was asked,
   the chain and the evidence follow.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from memory.analysis.definitions import QuestionKind
from memory.analysis.message import MessageAnalyzer
from memory.analysis.question import QuestionAnalysis, analyze_question, strip_address, words
from memory.analysis.question_lexicon import DEFAULT_LEXICON, QuestionLexicon
from memory.dates import WEEKDAY_NAMES
from memory.models import Answer, Citation, EvidenceNode, MessageKey, Scope, State
from memory.reader import why_turns
from memory.reader.acronyms import spell_out
from memory.reader.answer import (
    attributed_phrase,
    citation,
    day_label,
    first_said,
    named_span,
    split_sentences,
)
from memory.reader.answer_fit import asks_person, misfits, shown
from memory.reader.answer_parts import OVERRIDE_CHANGE, said_before
from memory.reader.approval import approval_of, approved, rejected, rejection_of
from memory.reader.change_proposer import asks_a_change, change_put_forward
from memory.reader.compose import Composed, Composer, Follow
from memory.reader.coverage import Coverage, CoverageTest, Unit, node_unit, state_unit
from memory.reader.coverage_names import name_cased
from memory.reader.coverage_values import tells_a_sum
from memory.reader.extract import people_of
from memory.reader.named_again import Mentions
from memory.reader.reasons import accepts, spoken_against
from memory.reader.rerank import Hit
from memory.reader.task_holders import TaskHolders
from memory.reader.tools import ReaderSession, ReaderTools
from memory.reader.word_forms import forms, unit_forms
from memory.store.filters import Window
from memory.text import find_slots, is_calendar_word, names_value, shorten

logger = logging.getLogger(__name__)

# How many of the scope's messages are read for a short form the search's hits do not spell
# (the scope's own messages only; a bound on a large workspace).
SHORT_FORM_SCAN = 5000
# Where a reply's first say ends ("yes but announce it in march", "yeah $113, it's …").
_REPLY_HEAD = re.compile(r"[,.;:!?]|\s(?:but|though|although)\s")
# Reads the reply making the call on a proposal (approving or turning it down).
CallFinder = Callable[[EvidenceNode, Sequence[EvidenceNode], Sequence[EvidenceNode],
                       QuestionLexicon, MessageAnalyzer], EvidenceNode | None]

NOT_FOUND = ("Not mentioned in the conversations you can read: nothing in memory answers "
             "this.")

# Literal matches read for a *who said it* question (oldest first).
LOOKUP_K = 50
# A message quoted whole as who said something when it is this short.
QUOTE_WHOLE_CHARS = 200
# Questions among the evidence whose answers are looked up.
ANSWERED_QUESTIONS = 8
# For *who decided*: the turns after a proposal read for its approval, and within how long
# (a lead often answers a few turns and hours later).
APPROVAL_TURNS = 4
APPROVAL_WITHIN = timedelta(hours=12)
# For what is in force now: the turns after the answer's message read for a change that
# does not name its subject again, and within how long.
FOLLOW_TURNS = 6
FOLLOW_WITHIN = timedelta(days=3)
# How many later turns naming a value held are read for a change of it.
MENTION_K = 20
#: How long before a turn taking a value up the turn putting it forward may be.
PUT_FORWARD_WITHIN = timedelta(hours=2)
# Closest messages offered (collapsed) with an abstention.
CLOSEST = 3


class OfflineReader:
    """Deterministic reader over :class:`ReaderTools`.

    ``k`` passages per search; ``lexicon`` the question analyzer's data, with the weights
    of the coverage test that decides abstention; ``analyzer`` the message analyzer the
    writer uses (what each message states, about what, and why)."""

    def __init__(self, *, tools: ReaderTools, k: int = 10, expansion_terms: int = 4,
                 lexicon: QuestionLexicon = DEFAULT_LEXICON,
                 analyzer: MessageAnalyzer | None = None) -> None:
        # Ablations are options of the tools and the search it is given.
        self.tools = tools
        self.k = k
        self.expansion_terms = expansion_terms
        self.lexicon = lexicon
        self.coverage = CoverageTest(store=tools.store, embedder=tools.embedder,
                                     lexicon=lexicon)
        self.composer = Composer(lexicon=lexicon, coverage=self.coverage,
                                 analyzer=analyzer or MessageAnalyzer())
        self.holders = TaskHolders(tools=tools, lexicon=lexicon,
                                   min_coverage=self.coverage.weights.min_coverage)

    def answer(
        self,
        question: str,
        *,
        scope: Scope,
        reference: datetime | None = None,
        asker: str | None = None,
    ) -> Answer:
        question = strip_address(question)
        qa = analyze_question(question, self.lexicon)
        session = self.tools.session(scope, reference=reference)
        found = session.search_question(question, k=self.k, dates=qa.dates,
                                        expansion_terms=self.expansion_terms)
        spelled = spell_out(
            question, [t for h in found.hits
                       for t in (h.node.text, h.node.channel_name.replace("-", " "))],
            lambda w: bool(self.tools.store.lexical_search(w, scope, k=1)),
            more=lambda: [n.text for n in self.tools.store.find_nodes(
                scope, limit=SHORT_FORM_SCAN)])
        if spelled != question:
            # "FD shirts" where the chat says "field day": asked again as the chat says it
            question = spelled
            qa = analyze_question(question, self.lexicon)
            session = self.tools.session(scope, reference=reference)
            found = session.search_question(question, k=self.k, dates=qa.dates,
                                            expansion_terms=self.expansion_terms)
        hits, rounds = found.hits, found.rounds
        cased = name_cased(question, [h.node.text for h in hits], self.lexicon.attributes,
                           skip=self.lexicon.question_words)
        if cased != question:
            # "small hours" the chat writes "Small Hours": a show, not a number of hours
            qa = analyze_question(cased, self.lexicon)
        states = self._states(qa, question, session, hits)
        literal = self._said(qa, question, session)
        asked = [h.node for h in hits if _asks(h.node.text)][:ANSWERED_QUESTIONS]
        answers = session.answers_to(asked)
        # a system line ("uploaded a file: vax_day_flyer_v2.pdf") answers only a question
        # about the platform's own events ("who uploaded the flyer?")
        system_asked = bool({w.low for w in words(question)} & self.lexicon.system_asked)
        analyzer = self.composer.analyzer
        # (not for who: a request in a thread naming its subject would outweigh the reply
        # taking the task on)
        roots = ({} if qa.kind is QuestionKind.WHO
                 else self._thread_roots(session, [*(h.node for h in hits), *literal]))
        units = ([node_unit(h.node, answers.get(h.node.node_id, ()), score=h.score,
                            taken_up=self._taken_up(h.node, answers.get(h.node.node_id, ())),
                            thread=roots.get(h.node.node_id))
                  for h in hits
                  if system_asked
                  or not analyzer.only_system(h.node.text, speaker=h.node.speaker)]
                 + [node_unit(n, thread=roots.get(n.node_id)) for n in literal]
                 + [state_unit(s) for s in states])
        verdict = self.coverage.judge(qa, units, scope, reference=reference)
        if not verdict.covered:
            return self._abstain(qa, hits, session, rounds).model_copy(
                update={"coverage": round(verdict.score, 3)})
        self._context_turns(session, states, verdict)
        changed = (why_turns.changes(qa, session, states, verdict)
                   if qa.kind is QuestionKind.WHY else [])
        before = why_turns.turns_before(self.tools, session, changed)
        explained = why_turns.asked_after(self.tools, self.composer.reasons, session, changed)
        people = people_of(session.nodes.values())
        # (the member asking is no answer to who did a thing: they would know; looked up
        # only for a question asking a person)
        me = self.tools.member_name(asker, scope) if asks_person(qa) else ""
        if qa.kind is QuestionKind.WHO and qa.role == "proposer":
            sayer = self._first_sayer(qa, question, hits, literal, verdict)
            if sayer is not None and asks_a_change(question, qa, self.lexicon):
                # "who proposed raising the ticket price": who first said the value the
                # price then moved to, not who first named the price
                sayer = change_put_forward(sayer, states, [
                    *(h.node for h in hits), *literal, *session.nodes.values(),
                    *(u.node for _, u in verdict.units if u.node is not None)],
                    question, qa.terms, self.lexicon) or sayer
            if sayer is not None and not misfits(qa, sayer.speaker, people, me):
                return _said_answer(sayer, session, rounds, qa)
        composed = self.composer.compose(qa, verdict, people, session.nodes, before=before,
                                         asked=explained, follow=self._follow(session),
                                         mentions=self._mentions(session))
        if qa.kind is QuestionKind.WHO and qa.decides:
            composed = self._approved(session, composed)
        if qa.kind is QuestionKind.WHO and qa.role == "rejecter":
            called = self._rejected(session, composed)
            refuser = self._refuser(qa, verdict, composed, session) if called is composed else None
            if refuser is not None:
                # no reply turned the answer's proposal down: the message naming the thing
                # that does ("not MAQS in August, please"), by its speaker
                return _said_answer(refuser, session, rounds, qa)
            composed = called
        if qa.kind is QuestionKind.WHO and qa.role in ("owner", "doer") and not qa.past:
            composed = self.holders.holder(qa, session, composed, verdict, people)
        if composed.lines:
            composed = self.composer.for_another(qa, composed, verdict, people, session.nodes, me)
        if not composed.lines or not tells_a_sum(qa, composed.short) or misfits(
                qa, shown(qa, composed.short, composed.lines), people, me):
            # "how much is a pint of pink slip" answered "on it": no amount, no answer
            return self._abstain(qa, hits, session, rounds)
        return _answer(qa, composed, session, rounds, states).model_copy(
            update={"coverage": round(verdict.score, 3)})

    def _thread_roots(self, session: ReaderSession,
                      nodes: Sequence[EvidenceNode]) -> dict[str, EvidenceNode]:
        """The first message of each reply's thread, by the reply's node id: a thread's
        replies leave its subject unsaid ("ok Monday 27th then. 21:00 at the cabin" under
        "Torch survey week 1: Wed 29 Apr")."""
        wanted = {n.node_id: MessageKey(platform=n.platform, space=n.space, channel=n.channel,
                                        message_id=n.thread_id).node_id()
                  for n in nodes if n.thread_id and n.thread_id != n.message_id}
        if not wanted:
            return {}
        found = {r.node_id: r for r in self.tools.store.get_nodes(set(wanted.values()),
                                                                  session.scope)}
        return {reply: found[root] for reply, root in wanted.items() if root in found}

    def _taken_up(self, node: EvidenceNode, answers: Sequence[EvidenceNode]) -> bool:
        """Whether ``node`` puts a change forward as a question ("€109 → €119 per group from
        april?") that someone else said yes to: not a yes naming a value of its own
        ("yeah $113, it's tradition" to "i say $130?"), nor a yes to a question checking
        what holds ("so those who paid at £38 stay on £38?")."""
        if not answers or not any(
                c.change >= OVERRIDE_CHANGE or c.old
                for c in self.composer.analyzer.analyze(node.text, speaker=node.speaker).clauses):
            return False
        for a in answers:
            if a.speaker_id == node.speaker_id or not accepts(
                    a.text, self.lexicon.accept, self.lexicon.fillers):
                continue
            head = _REPLY_HEAD.split(a.text, maxsplit=1)[0]
            if all(names_value(node.text, sl.text) for sl in find_slots(head)):
                return True
        return False

    def _states(self, qa: QuestionAnalysis, question: str, session: ReaderSession,
                hits: Sequence[Hit]) -> list[State]:
        """The states that may answer: those about the question's subject, the states of
        the best evidence, and the states sharing their topic (a decision's parts)."""
        anchors = list(dict.fromkeys(h.node.state_id for h in hits[:5] if h.node.state_id))
        return session.read_current_state(qa.subject or question, k=3, state_ids=anchors,
                                          siblings=True, facets=bool(qa.family))

    def _said(self, qa: QuestionAnalysis, question: str, session: ReaderSession
              ) -> list[EvidenceNode]:
        """For *who suggested X*: the messages holding X literally (the first mention may
        be older than anything the searches ranked)."""
        if qa.kind is not QuestionKind.WHO or qa.role != "proposer":
            return []
        said = attributed_phrase(question) or qa.subject
        if not said:
            return []
        return session.lookup_phrase(named_span(said) or said, k=LOOKUP_K)

    def _first_sayer(self, qa: QuestionAnalysis, question: str, hits: Sequence[Hit],
                     literal: Sequence[EvidenceNode], verdict: Coverage
                     ) -> EvidenceNode | None:
        said = attributed_phrase(question) or qa.subject
        threshold = self.coverage.weights.min_coverage
        covering = [u.node for s, u in verdict.units if s >= threshold and u.node is not None]
        pool = [h.node for h in hits] + list(literal)
        found = first_said(said, pool) if said else None
        if found is None and covering:
            found = min(covering, key=lambda n: (n.ts, n.seq))
        asked = _numbers_in(question)
        days = [w.text for w in words(question) if is_calendar_word(w.low)
                and not any(names_value(v, w.text) for v in asked)]
        def names_all(text: str) -> bool:
            told = unit_forms(text)  # (a day as the chat wrote it: "Sun" for "Sunday")
            return all(names_value(text, v) for v in asked) and all(
                forms(d) & told for d in days)

        if found is not None and (asked or days) and not names_all(found.text):
            # "who wanted late nite to go till 8:30", "… moved to mondays": whoever first
            # said that value (a day only among the messages covering the question)
            naming = [n for n in (*covering, *(pool if not days else ())) if names_all(n.text)]
            found = min(naming, key=lambda n: (n.ts, n.seq)) if naming else found
        return self._put_forward(found, question, pool + covering) if found else None

    def _put_forward(self, found: EvidenceNode, question: str,
                     seen: Sequence[EvidenceNode]) -> EvidenceNode:
        """The turn that put forward the value ``found`` only takes up ("£6 and chuck in a
        tea?" → "ok £6 incl a cuppa, done"): someone else's, shortly before, naming the
        value the question names."""
        if not accepts(found.text, self.lexicon.accept, self.lexicon.fillers):
            return found
        asked = _numbers_in(question)
        earlier = [n for n in seen if n.channel == found.channel
                   and n.speaker_id != found.speaker_id
                   and timedelta(0) < found.ts - n.ts <= PUT_FORWARD_WITHIN
                   and any(names_value(n.text, v) for v in asked)]
        return max(earlier, key=lambda n: (n.ts, n.seq)) if earlier else found

    def _context_turns(self, session: ReaderSession, states: Sequence[State],
                       verdict: Coverage) -> None:
        """Read the turns the candidate answers reply to or accept (where a reason often
        is), inside the scope."""
        ids = {e.node_id for s in states for e in s.chain}
        ids |= {u.node.node_id for _, u in verdict.units[:10] if u.node is not None}
        wanted = [c for i in ids if (n := session.nodes.get(i)) is not None
                  for c in n.context_ids if c not in session.nodes]
        missing = [i for i in ids if i not in session.nodes]
        found = self.tools.store.get_nodes(list(dict.fromkeys(wanted + missing)),
                                           session.scope)
        for n in found:
            session.nodes.setdefault(n.node_id, n)
        # chain members may only now be read: fetch their own context turns too
        more = [c for n in found for c in n.context_ids if c not in session.nodes]
        for n in (self.tools.store.get_nodes(list(dict.fromkeys(more)), session.scope)
                  if more else []):
            session.nodes.setdefault(n.node_id, n)
        # a revision that accepts a suggestion made in passing, with no link kept: the turn
        # just before it in its channel
        for s in states:
            for e in s.chain[1:]:
                node = session.nodes.get(e.node_id)
                if node is not None and not node.context_ids:
                    before = self.tools.previous_turn(node, session.scope)
                    if before is not None:
                        session.nodes.setdefault(before.node_id, before)
                        node.context_ids.append(before.node_id)

    def _follow(self, session: ReaderSession) -> Follow:
        """Reads the turns right after a message (where the talk that changed a value often
        goes on without naming its subject again), inside the scope: for a thread's first
        message, its replies too."""
        def follow(node: EvidenceNode) -> list[EvidenceNode]:
            return self.tools.replies_after(node, session.scope, n=FOLLOW_TURNS,
                                            within=FOLLOW_WITHIN)
        return follow

    def _mentions(self, session: ReaderSession) -> Mentions:
        """Reads the later turns of a message's channel that name a value (a change said
        of the value alone), inside the scope."""
        def mentions(node: EvidenceNode, value: str) -> list[EvidenceNode]:
            scope = session.narrowed([node.channel])
            if scope is None:
                return []
            return self.tools.store.phrase_search(
                value, scope, k=MENTION_K, window=Window(ts_from=node.ts))
        return mentions

    def _approved(self, session: ReaderSession, composed: Composed) -> Composed:
        """For *who decided*: when the answer names who put a proposal forward, the person
        who approved it in a reply (:mod:`memory.reader.approval`)."""
        called = self._called(session, composed, approval_of, approved)
        if called is not composed:
            return called
        # the answer names who approved, from a chain entry taking up what another put
        # forward just before ("for the offsite I'd like to book the Harbour Loft" →
        # "approved, go ahead and book it")
        first = composed.citations[0] if composed.citations else None
        node = session.nodes.get(first.node_id) if first is not None else None
        entry = next((e for st in composed.states for e in st.chain
                      if node is not None and e.node_id == node.node_id and e.value), None)
        if node is None or entry is None:
            return composed
        proposal = said_before(node, entry.value, session.nodes)
        if proposal is None or approval_of(proposal, [node], [node], self.lexicon,
                                           self.composer.analyzer) is not node:
            return composed
        return approved(composed, proposal, node)

    def _rejected(self, session: ReaderSession, composed: Composed) -> Composed:
        """For *who turned it down*: when the answer names who put a proposal forward,
        the person who refused it in a reply or in the turns just after."""
        return self._called(session, composed, rejection_of, rejected)

    def _refuser(self, qa: QuestionAnalysis, verdict: Coverage, composed: Composed,
                 session: ReaderSession) -> EvidenceNode | None:
        """The best covering message turning the thing down (naming one of the question's
        words), unless the answer's own message does."""
        threshold = self.coverage.weights.min_coverage
        covering = [u for s, u in verdict.units if s >= threshold and u.node is not None]
        first = composed.citations[0] if composed.citations else None
        node = session.nodes.get(first.node_id) if first is not None else None
        if node is not None and spoken_against([node_unit(node)], self.lexicon) is not None:
            return None
        naming = frozenset(f for t in qa.terms for f in forms(t))
        return spoken_against(covering, self.lexicon, naming)

    def _called(self, session: ReaderSession, composed: Composed, find: CallFinder,
                name: Callable[[Composed, EvidenceNode, EvidenceNode], Composed]) -> Composed:
        """When the answer names who put a proposal forward: the reply ``find`` reads as
        making the call on it (in the turns linked to it and just after), named first."""
        first = composed.citations[0] if composed.citations else None
        node = session.nodes.get(first.node_id) if first is not None else None
        if node is None or node.speaker != composed.short:
            return composed
        linked = session.answers_to([node]).get(node.node_id, [])
        following = self.tools.turns_after(node, session.scope, n=APPROVAL_TURNS,
                                           within=APPROVAL_WITHIN)
        reply = find(node, linked, following, self.lexicon, self.composer.analyzer)
        return name(composed, node, reply) if reply is not None else composed

    def _abstain(self, qa: QuestionAnalysis, hits: Sequence[Hit], session: ReaderSession,
                 rounds: int) -> Answer:
        closest = [citation(h.node) for h in sorted(hits, key=lambda h: -h.score)[:CLOSEST]]
        return Answer(answer=NOT_FOUND, abstained=True, rounds=rounds,
                      gathered=list(session.gathered), kind=qa.kind.value, closest=closest)


_WEEKDAY_SHOWN = re.compile(r"\b(?:" + "|".join(WEEKDAY_NAMES)
                            + r") (?=\d{1,2} [A-Z][a-z]{2,8} \d{4})")


def _answer(qa: QuestionAnalysis, composed: Composed, session: ReaderSession, rounds: int,
            states: Sequence[State]) -> Answer:
    unique = list({c.node_id: c for c in composed.citations}.values())
    # The short answer is the value itself: the weekday a resolved day is shown with is
    # for the reader of the first line, not part of what was said
    short = _WEEKDAY_SHOWN.sub("", composed.short)
    return Answer(answer="\n".join(line for line in composed.lines if line),
                  short=short, abstained=False, citations=unique,
                  states=list(composed.states), rounds=rounds,
                  gathered=list(session.gathered), kind=qa.kind.value)


def _said_answer(node: EvidenceNode, session: ReaderSession, rounds: int,
                 qa: QuestionAnalysis) -> Answer:
    """The speaker of ``node`` as who said it, with the message quoted (its first sentence
    when long) and cited."""
    sentences = split_sentences(node.text)
    quote = node.text if len(node.text) <= QUOTE_WHOLE_CHARS or not sentences else sentences[0]
    quote = shorten(quote, QUOTE_WHOLE_CHARS)
    cites: list[Citation] = [citation(node, quote=quote)]
    return Answer(answer=f"{node.speaker} ({day_label(node.ts)}): {quote}", short=node.speaker,
                  abstained=False, citations=cites, rounds=rounds,
                  gathered=list(session.gathered), kind=qa.kind.value)


def _asks(text: str) -> bool:
    return "?" in text


__all__ = ["NOT_FOUND", "OfflineReader", "Unit"]


def _numbers_in(question: str) -> list[str]:
    """The values with digits a question names ("8:30", "£6"): whoever put it forward said
    them."""
    return [sl.text for sl in find_slots(question) if any(ch.isdigit() for ch in sl.text)]
