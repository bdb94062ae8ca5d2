"""Why something changed, as the reader answers it: the change in a state's chain the
question is about (the one reaching or leaving a value it names, else the one its verb
names), its reason in so many words, in the turn it accepts, as the writer noted it, beside
its decision or in the turns before it; without a state, the covering messages that use the
question's change word, or that decide the value it names, come first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from memory.analysis.definitions import QuestionKind, SpeechAct
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.reason_words import (
    AGAINST_WORDS,
    CONCERN_WORDS,
    NOT_DONE_WORDS,
    NOT_SO_WORDS,
    PREFERS_OTHER,
    REFUSAL_WORDS,
)
from memory.models import ChainEntry, EvidenceNode, State
from memory.reader.alternatives import chosen_over
from memory.reader.answer import puts_forward
from memory.reader.answer_parts import (
    Composed,
    _anchors,
    _changed_by,
    entry_value,
    why_answer,
)
from memory.reader.coverage import Coverage, Unit, told_part
from memory.reader.extract import explains, relayed, reports_blocker, says
from memory.reader.reasons import (
    Reasons,
    names_reached,
    opens_agreeing,
    reached_values,
    refuses,
    spoken_against,
)
from memory.reader.state_choice import StateChoice, names_anchor
from memory.reader.word_forms import forms, unit_forms
from memory.text import STOPWORDS, find_slots, is_calendar_word, names_value

__all__ = ["WhyReader"]

# "why did it move in the first place": an idiom, naming nothing the answer says.
_FIRST_PLACE = re.compile(r"\bin the first place\b", re.IGNORECASE)
# A reply putting another number with its reason ("10, people lose keys constantly").
_COUNTER = re.compile(r"\W{0,3}(?:(?:nah|no|hmm)\W{1,3})?(?P<v>\d{1,6}(?:[.,:]\d{1,3})?)\s?"
                      r"(?:[€£$%]|pm|am|k)?\s?[,;:—–-]\s?[a-z'’]{1,20}(?:\s[\w'’]{1,20}){2,40}",
                      re.IGNORECASE)


def _names_number(text: str, value: str) -> bool:
    """Whether ``text`` says the short number ``value`` on its own ("5€ deposit?" says 5),
    a value too short for :func:`memory.text.names_value`."""
    return value.isdigit() and len(value) <= 2 and re.search(
        rf"(?<![\d.,:/]){value}(?![\d]|[.,:/]\d)", text[:2000]) is not None


def _counters(text: str, left: set[str]) -> bool:
    """Whether ``text`` answers a value put forward with another number and why."""
    m = _COUNTER.match(text[:200])
    return m is not None and not any(m.group("v") in unit_forms(v) or m.group("v") == v
                                     for v in left)


def _offers_another(put: str, reply: str) -> bool:
    """Whether ``reply`` puts forward another value of a kind ``put`` put forward ("Fri Nov
    14 8pm ET?" → "8pm ET is 1am for the EU people. saturday 3pm ET?")."""
    if not reply.rstrip().endswith("?"):
        return False
    asked = find_slots(reply.rstrip().rsplit(".", 1)[-1])
    put_slots = find_slots(put)
    return any(a.kind is p.kind and not names_value(put, a.text)
               for a in asked for p in put_slots)


# How many turns after a value was put forward a reply pushing back on it is looked for.
_PUSHBACK_TURNS = 3
# Words weighing one alternative against another ("they're 800 cheaper", "better for the
# kids"): a message taking one that says them says why.
_COMPARES = re.compile(r"\b(?:cheaper|dearer|pricier|better|worse|faster|quicker|slower|"
                       r"closer|nearer|bigger|larger|smaller|easier|safer|nicer|more reliable|"
                       r"less|fewer|than)\b", re.IGNORECASE)


def _teller(reason: str, node: EvidenceNode, nodes: dict[str, EvidenceNode]) -> EvidenceNode:
    """Who said ``reason``: ``node``, or the context turn it was taken from (a reason in
    the turn a change accepts is that speaker's words)."""
    if not reason or reason.lower() in node.text.lower():
        return node
    low = reason.lower()
    return next((t for i in node.context_ids if (t := nodes.get(i)) is not None
                 and low in t.text.lower()), node)


class WhyReader(StateChoice):
    """A base of :class:`memory.reader.compose.Composer`: the *why* answer."""

    reasons: Reasons

    def deciding_entry(self, qa: QuestionAnalysis, state: State) -> ChainEntry:
        """The entry a *who* or *why* question is about: the change reaching a value it
        names ("who moved it to the 22nd") or leaving one ("why did it move off Thursday"),
        else the change its verb names, else the latest change, else the decision."""
        chain = state.chain
        left, reached = _anchors(qa, self.lexicon)
        for i in range(len(chain) - 1, 0, -1):
            if names_anchor(left, chain[i - 1].value):
                return chain[i]
        for i in range(len(chain) - 1, -1, -1):
            if names_anchor(reached, chain[i].value):
                return chain[i]
        if qa.kind is QuestionKind.WHO and qa.role == "decider":
            current = chain[-1].value
            return next(e for e in chain if e.value == current)
        changed = _changed_by(chain[1:], qa, self.lexicon.change_families)
        return changed if changed is not None else chain[-1]

    def _decides(self, node: EvidenceNode) -> bool:
        """Whether ``node`` decides something (not a remark or a question)."""
        act = self.analyzer.analyze(node.text, speaker=node.speaker).act
        return act in (SpeechAct.DECISION, SpeechAct.CORRECTION)

    def why(self, qa: QuestionAnalysis, state: State | None, verdict: Coverage,
            nodes: dict[str, EvidenceNode], *,
            before: Mapping[str, Sequence[EvidenceNode]] | None = None,
            asked: Mapping[str, EvidenceNode] | None = None,
            follow: Callable[[EvidenceNode], Sequence[EvidenceNode]] | None = None
            ) -> Composed:
        """The reason for the change asked about. With a state, the change in its chain
        (the one the question names) is known: its reason is given in so many words, in
        the turn it accepts, as the writer noted it, or beside its decision. Otherwise, or when
        that says nothing, the covering messages that use the question's change word come
        first ("why did apple *reject* 2.4" → "Apple rejected us. …"): a reason given in so
        many words, in a turn it accepts, or what the message says beside its change;
        else the best message whole."""
        decision = frozenset(f for c in qa.changes for f in forms(c))
        entry = self.deciding_entry(qa, state) if state is not None else None
        left, _ = _anchors(qa, self.lexicon)
        covering = self.covering(verdict)
        # "why 9:30 for the cake": the messages reaching the value the question names come
        # first, and a change in the chain that reached another value is not the one asked
        reached = [v for v in reached_values(qa.text) if not unit_forms(v) & left]
        naming = [u for u in self.covering(verdict, wide=True) if u.node is not None
                  and any(names_reached(u.told, v) for v in reached) and self._decides(u.node)]
        if naming and entry is not None and not any(names_value(entry.value, v)
                                                    for v in reached):
            entry = None
        entry_node = nodes.get(entry.node_id) if entry is not None else None
        before = before or {}
        turns = list(before.get(entry_node.node_id, ())) if entry_node else []
        candidates = self._reason_pool(entry_node, turns, state, verdict)
        gone = self.reasons.gone(qa, left)
        pair = chosen_over(qa.text) if entry is None else None
        taken = self._taken_reason(pair, verdict, nodes, before) if pair else None
        if taken is not None:
            return taken
        if left and follow is not None and not any(
                names_value(e.value, v) or _names_number(e.value, v)
                for e in (state.chain if state is not None else ()) for v in left):
            # "why can't the private view start at 6": 6 was put forward and never held;
            # the reply pushing back on it says why, not the reason for the value held
            back = self._refused_offer(left, self.covering(verdict, wide=True), follow)
            if back is not None:
                return why_answer(relayed(self._reply_reason(back, nodes), back.text), back,
                                  None, [back])
        against = spoken_against(covering, self.lexicon, frozenset(
            f for t in qa.terms for f in forms(t))) if says(qa.text, AGAINST_WORDS) else None
        source: EvidenceNode | None
        if against is not None:
            # "what was the problem with MAQS?": the message turning it down says why
            reason, source = self.reasons.cued(against, nodes) or self.reasons.whole(
                against), against
        elif entry_node is not None and (said := self._said_change(
                decision, entry_node, covering, nodes, reached)) is not None:
            reason, source = said
        elif entry is not None and entry_node is not None:
            reason, source = self._change_reason(
                entry, entry_node, nodes, left=left, decision=decision, turns=turns,
                explained=(asked or {}).get(entry_node.node_id),
                reported=lambda: self.reasons.reported(candidates, gone),
                was=self._left_value(state, entry))
        else:
            reason, source = self.reasons.reported(candidates, gone)
        with_change = naming + [u for u in covering
                                if decision & unit_forms(u.told) and u not in naming]
        order = [n for u in with_change + [u for u in covering if u not in with_change]
                 if (n := self.reasons.speaker_of(u)) is not None]
        # a message naming the value asked may ask for it with its reason ("her
        # photographer wants cake shots at 10, so can it be set up by 9:30?")
        order = [u.node for u in naming if u.node is not None] + order
        order = list({n.node_id: n for n in order}.values())
        if not reason:
            for n in order:
                named = bool(decision & unit_forms(n.text))
                # (the best covering message taking up the turn before it: "fair. 10
                # servers for the gala" after "raw bar + passed means i need 10")
                # (not when the question names a value it does not reach: "why did the
                # migration slip to the 26th" is not asked of the move to the 19th)
                first = n is order[0] and not (reached and not any(
                    names_reached(n.text, v) for v in reached))
                reason = self.reasons.cued(n, nodes) or (
                    self.reasons.accepted(n.text, n, nodes,
                                          before.get(n.node_id, ()) if first else (),
                                          strict=not named and not opens_agreeing(n.text))
                    if named or first else "")
                if reason:
                    source = _teller(reason, n, nodes)
                    break
                # someone asked why right after it, and was told: the answer to that "why?"
                # is the reason, in whatever words the question names the change
                told = (asked or {}).get(n.node_id)
                if told is not None:
                    reason, source = self.reasons.cued(told, nodes) or self.reasons.whole(
                        told), told
                    break
                if named:
                    reason, turn = self.reasons.before(n, before.get(n.node_id, ()))
                    reason = reason or self.reasons.beside(n, nodes, decision=decision)
                    if reason:
                        source = turn or _teller(reason, n, nodes)
                        break
        if not reason and left and follow is not None and entry is None:
            source = self._pushed_back(left, self.covering(verdict, wide=True), follow)
            reason = self._reply_reason(source, nodes)
        if not reason and says(qa.text, (*NOT_DONE_WORDS, *AGAINST_WORDS)):
            source = self._turned_down(covering, follow)
            reason = self._reply_reason(source, nodes)
        if not reason and order:
            # no reason in so many words: the covering message that reports what stood in
            # the way ("GreenCycle's truck broke down") over one that only restates the plan
            # (among those saying as many of the question's words as the first)
            ranked = self._by_question_words(qa, order, verdict)
            # (the message saying most of the question's words first when it says more
            # than its change: "… staying at St Peter's - the grand is too good to give up")
            source = ranked[0] if explains(ranked[0].text) else next(
                (n for n in ranked if reports_blocker(n.text, self.lexicon.blockers)),
                ranked[0])
            reason = self.reasons.whole(source)
        if source is None:
            return Composed([], "")
        shown = entry_node is not None and (
            source is entry_node or source.node_id in entry_node.context_ids)
        return why_answer(relayed(reason, source.text), source,
                                state if shown else None, order)

    def _said_change(self, decision: frozenset[str], entry_node: EvidenceNode,
                     covering: Sequence[Unit], nodes: dict[str, EvidenceNode],
                     reached: Sequence[str]) -> tuple[str, EvidenceNode] | None:
        """The reason given in so many words by the covering message that says the change
        the question names, when the chain's change does not say it ("why'd the carnival
        get postponed": "postponed to Sunday 15 Feb due to the big swell", not the later
        move of its meeting place); a change to a value the question names (``reached``)
        is only one reaching it."""
        if not decision or decision & unit_forms(entry_node.text):
            return None
        for unit in covering:
            node = unit.node
            if node is None or node.node_id == entry_node.node_id \
                    or not decision & unit_forms(node.text) or (
                        reached and not any(names_reached(node.text, v) for v in reached)):
                continue
            reason = self.reasons.cued(node, nodes)
            if reason:
                return reason, node
        return None

    def _by_question_words(self, qa: QuestionAnalysis, order: list[EvidenceNode],
                           verdict: Coverage) -> list[EvidenceNode]:
        """The candidates ordered by how many of the question's own words they say ("why
        are we *opening* the *phones* earlier" → "phones will open at 8:00 instead of 8:30
        - …", not "wait is it from today??"), a message changing something first among
        equals; a message covering the question less well than the best joins when it says
        more of the question's words than any of them (the subject alone ties many)."""
        asked = [f for w in words(_FIRST_PLACE.sub(" ", qa.text))
                 if w.low not in self.lexicon.question_words
                 and w.low not in STOPWORDS and (f := forms(w.low))]
        if not asked:
            return order
        counted: dict[str, int] = {}

        def said(node: EvidenceNode) -> int:
            if node.node_id not in counted:
                told = unit_forms(node.text)
                counted[node.node_id] = sum(1 for f in asked if f & told)
            return counted[node.node_id]

        best = max((said(n) for n in order), default=0)
        seen = {n.node_id for n in order}
        wider = [n for u in self.covering(verdict, wide=True)
                 if (n := self.reasons.speaker_of(u)) is not None and n.node_id not in seen
                 and said(n) > max(best, 1)]
        pool = list({n.node_id: n for n in order + wider}.values())
        place = {n.node_id: i for i, n in enumerate(pool)}
        return sorted(pool, key=lambda n: (-said(n), not self._changing(n),
                                           place[n.node_id]))

    def _taken_reason(self, pair: tuple[str, str], verdict: Coverage,
                      nodes: dict[str, EvidenceNode],
                      before: Mapping[str, Sequence[EvidenceNode]]) -> Composed | None:
        """"why ArtMove and not Nordvik": the reason the message taking the alternative
        gives, or the turn it follows from ("BackerKit takes ~5% of add-on revenue tho" →
        "PledgeBox then"), or what it says beside the choice; None without such a message
        or reason."""
        covering = self.covering(verdict)
        taker = self._taker(pair, covering=self.covering(verdict, wide=True))
        if taker is None:
            return None
        turns = list(before.get(taker.node_id, ()))
        reason = (self.reasons.cued(taker, nodes)
                  or self.reasons.accepted(taker.text, taker, nodes, turns))
        source: EvidenceNode | None = _teller(reason, taker, nodes) if reason else None
        if not reason:
            reason, source = self.reasons.before(taker, turns)
        if not reason and says(taker.text, self.lexicon.consequence):
            # what the turn before it, by someone else, told ("… takes ~5% tho")
            source = next((t for t in turns if t.speaker_id != taker.speaker_id
                           and told_part(t.text).strip()), None)
            reason = told_part(source.text) if source is not None else ""
        if not reason and _COMPARES.search(taker.text):
            # it weighs the one taken against the other ("they're 800 cheaper"): why
            reason, source = self.reasons.whole(taker), taker
        if not reason or source is None:
            return None
        return why_answer(relayed(reason, source.text), source, None,
                          [taker, *(u.node for u in covering if u.node is not None)])

    def _taker(self, pair: tuple[str, str], *, covering: Sequence[Unit]) -> EvidenceNode | None:
        """The first message deciding on the alternative taken that does not name the one
        left ("true but ArtMove has the air-ride van … I'm booking ArtMove")."""
        taken, left = (forms(w.lower()) for w in pair)
        said = sorted({u.node.node_id: u.node for u in covering if u.node is not None}.values(),
                      key=lambda n: (n.ts, n.seq))
        for node in said:
            told = unit_forms(node.text)
            if taken & told and not left & told and self._decides(node):
                return node
        return None

    def _changing(self, node: EvidenceNode) -> bool:
        """Whether ``node`` says something changes."""
        return self.analyzer.analyze(node.text, speaker=node.speaker).changes > 0

    def _change_reason(self, entry: ChainEntry, node: EvidenceNode,
                       nodes: dict[str, EvidenceNode], *, left: set[str],
                       decision: frozenset[str], turns: Sequence[EvidenceNode],
                       explained: EvidenceNode | None,
                       reported: Callable[[], tuple[str, EvidenceNode | None]], was: str
                       ) -> tuple[str, EvidenceNode | None]:
        """The reason for a known change: a blocker naming what it left, in so many words,
        in the turn it accepts; else a problem ``reported`` with what it left; else as the
        writer noted it, beside its decision, or in the turns just before it."""
        # (what it left by its name: days and times recur in the sentence that changes it)
        named_left = {w.low for w in words(was) if w.low.isalpha() and w.low not in STOPWORDS
                      and not is_calendar_word(w.low)}
        reason = (self.reasons.blocking(node.text, left)
                  or self.reasons.of_left(node.text, left, entry.value)
                  or self.reasons.cued(node, nodes)
                  or self.reasons.accepted(node.text, node, nodes, turns)
                  or self.reasons.of_left(node.text, named_left, entry.value))
        if reason:
            return reason, _teller(reason, node, nodes)
        if explained is not None:  # "why?" asked right after it, and answered
            return self.reasons.cued(explained, nodes) or self.reasons.whole(explained), \
                explained
        problem = reported()
        if problem[0]:
            return problem
        reason = (self.reasons.noted(entry)
                  or self.reasons.beside(node, nodes, value=entry.value, decision=decision))
        if reason:
            return reason, _teller(reason, node, nodes)
        reason, turn = self.reasons.before(node, turns, left=was)
        return reason, turn or node

    def _reason_pool(self, entry_node: EvidenceNode | None, turns: Sequence[EvidenceNode],
                     state: State | None, verdict: Coverage) -> list[EvidenceNode]:
        """Where a problem with what a change left may be reported: the change, the turns
        before it, the covering messages and their answers; never the chain's first
        decision, which cannot say why it was left later."""
        first = state.chain[0].node_id if state is not None and state.chain else ""
        pool = [*([entry_node] if entry_node else []), *turns,
                *(n for u in self.covering(verdict, wide=True)
                  for n in ([u.node] if u.node is not None else []) + list(u.answers))]
        # nor what was said before the value the change left was decided: it cannot be
        # a problem with that value
        ids = [e.node_id for e in state.chain] if state is not None else []
        at = ids.index(entry_node.node_id) if entry_node and entry_node.node_id in ids else 0
        left = next((n.ts for n in pool if at and n.node_id == ids[at - 1]), None)
        return [n for n in pool if n.node_id != first and (left is None or n.ts >= left)]

    def _reply_reason(self, reply: EvidenceNode | None, nodes: dict[str, EvidenceNode]) -> str:
        """What a reply turning a value down gives as its reason: in so many words, else
        the reply whole ("" without one)."""
        if reply is None:
            return ""
        return self.reasons.cued(reply, nodes) or self.reasons.whole(reply)

    def _pushed_back(self, left: set[str], covering: Sequence[Unit],
                     follow: Callable[[EvidenceNode], Sequence[EvidenceNode]]
                     ) -> EvidenceNode | None:
        """"why didn't the callout go to 100", "why 8:30 and not 9": the turn right after a
        message putting the value left forward, by someone else, that pushes back on it
        ("100 is alot, the regulars will walk"; "hmm not sure. the parkrun lot finish
        around half 8")."""
        for unit in covering:
            node = unit.node
            if node is None or not any(names_value(node.text, v) or _names_number(node.text, v)
                                       for v in left):
                continue
            for turn in list(follow(node))[:_PUSHBACK_TURNS]:
                if turn.speaker_id == node.speaker_id:
                    continue
                if refuses(turn.text, self.lexicon) or says(turn.text, CONCERN_WORDS) or (
                        _counters(turn.text, left)) or _offers_another(node.text, turn.text):
                    return turn
        return None

    def _refused_offer(self, left: set[str], covering: Sequence[Unit],
                       follow: Callable[[EvidenceNode], Sequence[EvidenceNode]]
                       ) -> EvidenceNode | None:
        """"why can't the private view start at 6": the reply by someone else to the
        message putting 6 forward ("could it start at 6?") that pushes back on it, or
        answers it saying what cannot be ("the staff aren't in till 6:30 … so it'll stay
        at 7"); only a number put forward, only a reply made to it (a thread's or a
        platform's reply), never one agreeing."""
        numbers = {v for v in left if any(c.isdigit() for c in v)}
        for unit in covering:
            node = unit.node
            if node is None or not numbers or not puts_forward(node.text) or not any(
                    names_value(node.text, v) or _names_number(node.text, v) for v in numbers):
                continue
            replies = [t for t in [*unit.answers, *list(follow(node))[:_PUSHBACK_TURNS]]
                       if t.reply_to_node == node.node_id and t.speaker_id != node.speaker_id
                       and not opens_agreeing(t.text)]
            for turn in replies:
                if refuses(turn.text, self.lexicon) or says(turn.text, CONCERN_WORDS) or \
                        says(turn.text, NOT_SO_WORDS) or _counters(turn.text, numbers):
                    return turn
        return None

    def _turned_down(self, covering: Sequence[Unit],
                     follow: Callable[[EvidenceNode], Sequence[EvidenceNode]] | None = None
                     ) -> EvidenceNode | None:
        """"why couldn't we do it at Blue Door?": the reply that turned the proposal down
        ("nah, we need a wall to pin the boards") says why it did not happen."""
        for unit in covering:
            node = unit.node
            if node is None or not puts_forward(node.text):
                continue
            # a suggestion without a question mark has no answers of its own: the turns
            # after it by others
            replies = unit.answers or [t for t in (follow(node) if follow else ())
                                       [:_PUSHBACK_TURNS] if t.speaker_id != node.speaker_id]
            for answer in replies:
                if refuses(answer.text, self.lexicon) or says(answer.text, REFUSAL_WORDS) \
                        or says(answer.text, CONCERN_WORDS) or says(answer.text, PREFERS_OTHER) \
                        or _offers_another(node.text, answer.text):
                    return answer
        return None

    @staticmethod
    def _left_value(state: State | None, entry: ChainEntry) -> str:
        """The value ``entry`` replaced in ``state``'s chain ("" for its first decision)."""
        if state is None:
            return ""
        ids = [e.node_id for e in state.chain]
        at = ids.index(entry.node_id) if entry.node_id in ids else 0
        return entry_value(state.chain[at - 1]) if at > 0 else ""

    # ---- choosing what answers -------------------------------------------------------------
