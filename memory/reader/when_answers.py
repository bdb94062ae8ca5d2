"""The *when* answer a statement gives: the day its value resolves to, ahead for a plan and
back for a past event; the time of day asked; the day of the request a reply takes up.
A base of :class:`memory.reader.statements.StatementReader`."""

from __future__ import annotations

import dataclasses
import re

from memory.analysis.definitions import QuestionKind
from memory.analysis.message import MessageAnalysis, MessageAnalyzer
from memory.analysis.question import QuestionAnalysis
from memory.analysis.slot_patterns import SPAN_OF_DAYS
from memory.analysis.time_bounds import bound_cue, bound_time
from memory.dates import weekday_day, with_weekday
from memory.reader.answer import split_sentences
from memory.reader.answer_parts import Statement
from memory.reader.beside_words import led_by_terms
from memory.reader.when_values import (
    clock_beside,
    has_clock,
    has_day,
    time_near,
    time_range_end,
    when_in,
)
from memory.text import time_of_day

__all__ = ["MAX_SAID", "WhenAnswers"]

# A day a thing is set for, said as a plan ("booked for the 2nd", "scheduled in for fri").
_BOOKED_FOR = re.compile(r"\b(?:booked|scheduled|pencilled|penciled|set|planned|lined up)"
                         r"(?:\s(?:in|up))?\s(?:for|on)\b", re.IGNORECASE)
# How much of a message is read for a plan's words or a request's question.
MAX_SAID = 2000


class WhenAnswers:
    """When a chosen statement says its thing happens or happened."""

    analyzer: MessageAnalyzer

    def _prefer(self, qa: QuestionAnalysis, said: str = "") -> str:
        """How a relative day in an answer resolves: back for a past event, forward for a
        plan (values, including earlier values, are plans when stated, and so is a day a
        message says a thing is booked for: "aircon guy is booked for the 2nd", said on 26
        May, is 2 June however past the question asks it)."""
        if said and _BOOKED_FOR.search(said[:MAX_SAID]):
            return "future"
        return "past" if qa.past and not qa.asks_change and qa.kind is QuestionKind.WHEN \
            else "future"

    @staticmethod
    def _request_taken(chosen: Statement) -> str:
        """The asking sentence, holding a day or time, of the request ``chosen``'s message
        takes up ("anyone free for a GP appointment in Salford tmrw 2pm?"); "" when it
        takes up none ("cover Sam's shift? I'm off till Mon" asks no day)."""
        asked = chosen.unit.node
        if asked is None or asked is chosen.node or asked.ts > chosen.node.ts:
            return ""
        return next((s for s in split_sentences(asked.text[:MAX_SAID])
                     if s.rstrip().endswith("?") and (has_day(s) or has_clock(s))), "")

    def when_of(self, qa: QuestionAnalysis, chosen: Statement) -> str:
        """The when-answer: for a past event the resolved day (with the time when asked),
        else the day the message was said; for a plan, the value as written with the day
        it resolves to ("wed 8-18 (17 September 2025)")."""
        node = chosen.node
        text, day = when_in(qa, chosen.sentence, node.ts,
                            prefer=self._prefer(qa, chosen.sentence))
        if (qa.asks_day or (not text and not qa.asks_clock and self._prefer(qa) == "future")) \
                and not has_day(text) and not has_day(chosen.value) \
                and not has_day(chosen.sentence) and has_day(node.text):
            # the day said in another sentence of the message than the one answering
            # ("shirts ordered! 30 navy, ready for pickup may 7")
            text, day = when_in(qa, node.text, node.ts, prefer=self._prefer(qa, node.text))
        request = (self._request_taken(chosen) if not text and not chosen.value
                   and not has_day(node.text) else "")
        if request:
            # "I'll do it" to "anyone free for a GP appointment in Salford tmrw 2pm?": when
            # the request it takes up says
            node = chosen.unit.node or node
            text, day = when_in(qa, request, node.ts, prefer="future")
            chosen = dataclasses.replace(chosen, sentence=request)
        asks_time = qa.asks_clock
        bound, cue = bound_cue(qa.text)
        ending = bound == "end"
        # "what time does it finish" over "daily 9:30 till 4", "doors?" over "doors 7pm"
        clock = (bound_time(chosen.sentence, bound, cue) if bound else "") or (
            time_range_end(chosen.sentence) if ending else "")
        if self._prefer(qa, chosen.sentence) == "past":
            # (the day alone is the answer here, so it names its weekday even where the
            # message said it: "picking it up sat 18th" → "Saturday 18 January 2025")
            day = with_weekday(day) if day else weekday_day(node.ts)
            if asks_time or ending:
                clock = clock or (text if text and not any(ch.isalpha() for ch in text)
                                  else "") or (time_near(qa, chosen.sentence) if asks_time
                                               else "")
                if asks_time and not clock:
                    # "fire alarm test wednesday 11am": the time said with the day
                    clock = _only_clock(self.analyzer.analyze(node.text, speaker=node.speaker))
                return f"{clock}, {day}" if clock else day
            if text and has_clock(text) and has_day(text):
                # "sun 22 feb 3pm at mine": the time said with the day is part of when
                return f"{text} ({day})"
            return day
        said = chosen.value.split(" (")[0]
        if bound and clock and cue and cue[:4] not in chosen.sentence.lower() \
                and _said_of_asked(qa, chosen.sentence, said, clock):
            clock = said  # "7pm start it is, doors 6:30": the doors' time, not the start's
        if bound and clock:
            clock = _hour(clock)
            return f"{clock} ({day})" if day else clock
        spans = SPAN_OF_DAYS.search(said)
        if text and said != text and text.lower() in said.lower() and spans:
            return said  # a span of days holds the day found ("14–20 jul", not "20 jul")
        if asks_time and text and not has_clock(text):
            # the day said in one sentence, the message's one time in another ("sat 2/22
            # practice: … !! aux gym 10am")
            clock = _only_clock(self.analyzer.analyze(node.text, speaker=node.speaker))
            text = f"{text} {clock}" if clock else text
        if asks_time and text and _said_of_asked(qa, chosen.sentence, said, text) \
                and not led_by_terms(qa, chosen.sentence, text):
            # the time the message says of the thing asked, not its first ("7pm start it
            # is, doors 6:30" for the doors; "quiz starts 8:30 … not 8")
            text = said
        if text and not asks_time and not qa.asks_day and not bound and has_day(text) \
                and not has_clock(text):
            # "when is karaoke" of "karaoke tonight! 7pm, Lucky Voice": the time given right
            # after the day is part of when it is
            clock = clock_beside(node.text, text)
            text = f"{text} {clock}" if clock else text
        if text:
            text = _hour(text) if asks_time else text
            return f"{text} ({day})" if day and day not in text else text
        return chosen.value or weekday_day(node.ts)


def _only_clock(analysis: MessageAnalysis) -> str:
    """The one time of day a message states ("11am" of "fire alarm test wednesday 11am"),
    "" when it states none or several."""
    clocks = {time_of_day(c.value.text) for clause in analysis.clauses for c in clause.claims
              if has_clock(c.value.text)} - {""}
    return clocks.pop() if len(clocks) == 1 else ""


def _said_of_asked(qa: QuestionAnalysis, sentence: str, said: str, found: str) -> bool:
    """Whether ``said``, the value read as said of the question's thing, is another time
    of day than ``found`` and one of the question's words leads up to it ("doors 6:30")."""
    return has_clock(said) and time_of_day(said) != time_of_day(found) and led_by_terms(
        qa, sentence, said)


def _hour(clock: str) -> str:
    """A bare hour said as a time of day reads as one ("3" → "3:00": "classes start at 3
    now"); any other value as it is."""
    return f"{clock}:00" if clock.isdigit() and 0 < int(clock) <= 24 else clock
