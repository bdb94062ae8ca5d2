"""A later change found by the value it replaces.

"Jas says 18 is too many, had 3 left over fri and sat. can we drop them to 16?" names
neither the sourdough nor the café the answer ("can we go from 12 to 18 a day") was about:
only the 18 in force. Said later in the same channel, naming that value as written and
changing it to another value of its kind, it changes what the answer held; a change only
asked for or put forward counts once a turn right after it takes the new value up ("16
from tomorrow then").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memory.analysis.definitions import QuestionKind, SpeechAct
from memory.analysis.message import MessageAnalysis
from memory.analysis.question import QuestionAnalysis
from memory.models import EvidenceNode
from memory.reader.answer_parts import Statement
from memory.reader.coverage import node_unit
from memory.reader.extract import replaced_at
from memory.reader.later_word import _another_value, _asks_now
from memory.reader.reasons import refuses
from memory.reader.statements import StatementReader
from memory.text import SlotKind, content_terms, find_slots, names_value

__all__ = ["Mentions", "NamedAgain", "mention_key"]

#: Reads the later turns of a message's channel naming a value (as written), oldest first.
Mentions = Callable[[EvidenceNode, str], Sequence[EvidenceNode]]

# How many turns after a change put forward one taking the new value up is looked for.
_TAKEN_TURNS = 3
# The number a value is named by again: "18", "£20" → "20", "7:30pm" → "7:30".
_NUMBER = re.compile(r"\d{1,4}(?:[.:]\d{2})?")


def mention_key(held: str) -> str:
    """The number ``held`` is named by again, "" when it holds none or several (a date
    or a range is named in too many ways to be found by one)."""
    if any(sl.kind is SlotKind.DATE for sl in find_slots(held)):
        return ""
    found = _NUMBER.findall(held)
    return found[0] if len(found) == 1 else ""


# A value reached: "drop them *to* 16", "make it 16" (not "top slot at $600": a value of
# another thing).
_REACHED = re.compile(r"(?:\bto|\bmake it)\s{1,3}[$€£¥]?$", re.IGNORECASE)
# A bare count, as a value of the same kind as a count held.
_BARE = re.compile(r"^\d{1,4}(?:\.\d{1,2})?$")
_CURRENCY = re.compile(r"^([$€£¥])")


def _same_number(value: str, held: str) -> bool:
    """Whether ``value`` is a bare number and ``held`` a number of the same kind (a count,
    or an amount of money written with its currency)."""
    return bool(_BARE.match(value)) and bool(re.match(r"^[$€£¥]?\d", held.strip()))


def _in_unit(value: str, held: str) -> str:
    """``value`` written in the unit of ``held`` ("3" for "£2.80" is "£3")."""
    cur = _CURRENCY.match(held.strip())
    return f"{cur.group(1)}{value}" if cur and _BARE.match(value) else value


def _left(text: str, key: str) -> bool:
    """Whether ``text`` names ``key`` as the value replaced or too much ("£3 not £2.80",
    "18 is too many")."""
    for m in _number(key).finditer(text):
        start = m.start() - 1 if m.start() and text[m.start() - 1] in "$€£¥" else m.start()
        if replaced_at(text, start, m.end()) or _TOO.match(text, m.end()):
            return True
    return False


def _kept(text: str, key: str) -> bool:
    """Whether ``text`` says ``key`` stays ("pairing goes to £45 … tasting stays 72"): the
    value reached is another thing's."""
    k = re.escape(key)
    return re.search(rf"(?:\b(?:stays?|staying|still|remains?|same|unchanged|keep(?:ing)?)"
                     rf"\s{{1,3}}(?:at\s{{1,3}})?[$€£¥]?{k}(?![\d.:]))|(?<![\w.:]){k}\s{{1,3}}"
                     rf"(?:stays|still|unchanged|remains)\b", text, re.IGNORECASE) is not None


# "18 is too many", "30 was too much": a value pushed back on.
_TOO = re.compile(r"\s{0,2}(?:is|was|'s)?\s{0,2}(?:too|a bit|way too)\s{1,2}(?:many|much|few|"
                  r"little|high|low|early|late|long|short|steep)\b", re.IGNORECASE)


def _number(key: str) -> re.Pattern[str]:
    """``key`` said as a number of its own (not in "180", "2.18", "the 18th", "18:30")."""
    return re.compile(rf"(?<![\w.:/,]){re.escape(key)}(?![\w:/]|[.,]\d)")


def _names_number(text: str, key: str) -> bool:
    """Whether ``text`` says ``key`` as a number of its own."""
    return _number(key).search(text) is not None


def _of_another(analysis: MessageAnalysis, value: str, key: str, qa: QuestionAnalysis,
                answer: EvidenceNode) -> bool:
    """Whether the clause moving ``key`` to ``value`` names, in its own words, a subject
    neither the question nor the answer's message speaks of ("delivery fee within 5km
    going from $15 to $18" is no later price of the single stem held at $15)."""
    known = set(content_terms(answer.text)) | set(qa.terms) | set(content_terms(qa.text))
    for clause in analysis.clauses:
        if not any(_names_number(o.text, key) for o in clause.old):
            continue
        for claim in clause.claims:
            if claim.value.text.strip() != value.strip():
                continue
            own = set(content_terms(claim.subject)) & set(content_terms(clause.text))
            return bool(own) and not own & known
    return False


class NamedAgain(StatementReader):
    """A base of :class:`memory.reader.compose.Composer`."""

    def named_again(self, qa: QuestionAnalysis, *, answer: EvidenceNode, held: str,
                    mentions: Mentions,
                    follow: Callable[[EvidenceNode], Sequence[EvidenceNode]]
                    ) -> Statement | None:
        """The first later turn in ``answer``'s channel naming the value ``held`` (read by
        ``mentions``) that changes it to another value of its kind, taken up when it is
        only put forward; None when there is none."""
        key = mention_key(held)
        if not key or not _asks_now(qa) or qa.kind is QuestionKind.WHO:
            return None
        kinds = {sl.family for sl in find_slots(held)}
        for node in mentions(answer, key):
            if node.ts <= answer.ts or node.channel != answer.channel \
                    or not _names_number(node.text, key):
                continue
            analysis = self.analyzer.analyze(node.text, speaker=node.speaker)
            said = [sl for sl in find_slots(node.text)
                    if not _names_number(sl.text, key) and (_another_value(
                        qa, sl.text, held, kinds, node.ts) or _same_number(sl.text, held))]
            reached = [sl for sl in said if _REACHED.search(node.text[:sl.start])
                       or not replaced_at(node.text, sl.start, sl.end)]
            # the value held is said to be left ("£3 not £2.80", "18 is too many", "from 18
            # to 16"), not merely named beside another change ("late nights trimmed to 8pm
            # … the HVAC shuts off at 8:30"; "pairing goes to £45 … tasting stays 72")
            if not reached or not _left(node.text, key) or _kept(node.text, key):
                continue
            slot = next((sl for sl in reached if _REACHED.search(node.text[:sl.start])),
                        reached[0])
            if _of_another(analysis, slot.text, key, qa, answer):
                continue
            value = _in_unit(slot.text, held)
            sentence = next((c.text for c in analysis.clauses
                             if slot.text in c.text), node.text)
            put = analysis.question or analysis.act is SpeechAct.PROPOSAL
            if put and not self._taken_up(value, node, follow(node)):
                continue
            return Statement(node_unit(node), node, sentence, value, held)
        return None

    def _taken_up(self, value: str, node: EvidenceNode,
                  turns: Sequence[EvidenceNode]) -> bool:
        """Whether a turn right after ``node`` says ``value`` again without turning it
        down ("16 from tomorrow then")."""
        for turn in list(turns)[:_TAKEN_TURNS]:
            if refuses(turn.text, self.lexicon):
                return False
            if names_value(turn.text, value):
                return True
        return False
