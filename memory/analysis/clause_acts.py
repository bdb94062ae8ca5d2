"""The speech act a clause performs (decision, proposal, question, correction, rejection,
reassignment, reminder, confirmation, cancellation) and the cancellation it states as its
value: a base of :class:`~memory.analysis.clause_reader.ClauseReader`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.cue_words import off_calls_off
from memory.analysis.definitions import SpeechAct
from memory.analysis.gathering_words import (
    NOT_A_GATHERING_NAME,
    OFF_AS_PARTICLE,
    is_gathering,
    opens_gathering,
)
from memory.analysis.lexicon import (
    HANDOVER_VERBS,
    REQUEST_OPENERS,
    SETTLED_CHANGE,
    SUGGESTING_CHANGES,
    SUGGESTING_MODALS,
    Lexicon,
)
from memory.analysis.message_patterns import _WH, _in_choice
from memory.analysis.subjects import _CONFIRMS
from memory.analysis.values import Kind, Token, Value
from memory.text import RECURRING

__all__ = ["ClauseActs"]

# Who a modal question asks of rather than what it changes ("can *I* grab …").
_ASKING_SUBJECTS = frozenset({"i", "we", "you", "u", "someone", "somebody", "anyone", "anybody",
                              "they", "he", "she", "me", "us", "ya", "ye"})
# Settling on a value before another is kept ("let's settle on £42 then, with the discount
# kept at 10%"); not "let's not move it, thursday stays".
_SETTLE_CUE = re.compile(r"\b(?:settle on|settled on|settling on|go with|going with|"
                         r"decided on|agreed on|agree on|final answer|locking in|locked in)\b",
                         re.IGNORECASE)


# "now" right after a value marks it as the new one ("landing 9.15 now").
_NOW_AFTER = re.compile(r"\s{1,3}now\b", re.IGNORECASE)
# ... and so do "now" or "rebooked for" right before it ("cancelled on us, now fri 17th").
_MOVED_TO = re.compile(r"(?:\bnow|\brebooked\s(?:for|on)|\brescheduled\s(?:for|on))$")


# A completion word set off after the rest ("…, done", "— sorted"): a deal struck.
_AGREED_BEFORE = re.compile(r"[,;:.!—–-]\s{0,3}(?:all\s)?$")
# A completion word followed by when or for what it is due ("done by fri"): a plan.
_PLANNED_AFTER = re.compile(r"\s{0,2}(?:by|for|on|at|until|till|before|from|in|to)\b",
                            re.IGNORECASE)


# "No club night next Thursday (10 July)", "no playtest this wednesday": one meeting of a
# gathering is off, said before its day (the day may follow "on" or "for").
_NO_BEFORE_DAY = re.compile(r"\W{0,3}no\s{1,3}((?:[\w'’&-]{1,30}\s{1,3}){0,3}?[\w'’&-]{1,30})"
                            r"\s{1,3}(?:on\s{1,3}|for\s{1,3})?", re.IGNORECASE)
# The day a gathering is off on ("nets off *tonight*", "standup's off tomorrow").
_OFF_ON = re.compile(r"\s{1,3}(?:tonight|today|tomorrow|tmrw|this|next|on|"
                     r"(?:mon|tues?|wed(?:nes)?|weds|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?)\b",
                     re.IGNORECASE)
# What follows a gathering moved off a day to another ("off Sunday and putting it on
# Saturday", "off Monday? can we do Friday instead").
_MOVED_OFF = re.compile(r"\b(?:instead|putting|put|moving|move|to|from now on|onwards)\b",
                        re.IGNORECASE)
_BARE_OFF = re.compile(r"\boff\b", re.IGNORECASE)
# Who says they are open to something ("I'm open to Friday", "we'd be open to £40").
_OPEN_TO_SAID_BY = re.compile(r"(?:\b(?:am|are|is|be|i'm|im|we're|were|they're)|['’](?:m|re|s))"
                              r"\s{1,3}(?:(?:totally|very|definitely|also|still|quite)\s{1,3})?$",
                              re.IGNORECASE)


def _meeting_off(before: str, after: str) -> bool:
    """Whether "<gathering> off <day>" calls that one meeting off ("Nets off tonight, it's
    chucking it down"): the gathering opens the clause with no verb before it, one day
    follows, nothing moved; not a person off work ("Sam's off tomorrow"), a particle
    ("signing the trip off today") or a series ("Standup off Mondays from now on")."""
    said = re.sub(r"(?:'s|’s|\sis|\sare)\s{0,3}$", "", before.rstrip(), flags=re.IGNORECASE)
    # (the words since the clause's last comma or dash: "ground's waterlogged, match OFF")
    words = [w.strip(",.:!-") for w in re.split(r"[,;—–]\s|\s-\s", said)[-1].lower().split()]
    while words and opens_gathering(words[0]):
        words = words[1:]
    return (0 < len(words) <= 3 and is_gathering(words[-1])
            and not any(w in OFF_AS_PARTICLE for w in words)
            and _OFF_ON.match(after) is not None and _MOVED_OFF.search(after) is None)


class ClauseActs:
    """What a clause does, read with ``lexicon``."""

    lexicon: Lexicon

    @staticmethod
    def _skipped(part: str, start: int, values: Sequence[Value], change: float
                 ) -> Value | None:
        """The "no" of a clause saying one meeting of a gathering is off ("No club night
        next Thursday (10 July)"): a cancellation of that day only, the clause's one time,
        nothing moved and nothing asked."""
        days = [v for v in values if v.family == "when"]
        if len(days) != 1 or RECURRING.search(days[0].text) or change >= 0.5 or len(
                values) != 1 or part.rstrip().endswith("?"):
            return None
        m = _NO_BEFORE_DAY.fullmatch(part[:days[0].start - start])
        if m is None:
            return None
        said = m.group(1).lower().split()
        if any(w in NOT_A_GATHERING_NAME for w in said) or not is_gathering(said[-1]):
            return None
        at = part.lower().rindex("no", 0, m.start(1))
        return Value(Kind.STATUS, part[at:at + 2], start + at, start + at + 2)

    def _status(self, part: str, start: int, new: Sequence[Value]) -> Value | None:
        """A cancellation is the clause's value unless the clause moves to a new value
        ("postponed until January" is a new date; "cancelled this week" ends the plan)."""
        m = self.lexicon.cancel.search(part)
        if m is None:
            # "Nets off tonight": a gathering off on a day, said without "is"
            bare = _BARE_OFF.search(part)
            m = bare if bare is not None and not part.rstrip().endswith("?") and _meeting_off(
                part[:bare.start()], part[bare.end():]) else None
        if m is not None and m.group(0).lower().endswith("off") and not m.group(
                0).lower().startswith("call") and not off_calls_off(
                (part[:m.start()].split() or [""])[-1], part[m.end():]) and not _meeting_off(
                part[:m.start()], part[m.end():]):
            m = None  # "Callum is off on paternity leave", "the timing's off": no plan ends
        if m is not None and re.match(r"\s{0,2}(?:to|down to|back to)\s", part[m.end():],
                                      re.IGNORECASE):
            m = None  # "headcount dropped to 12": a new value, nothing ends
        if m is not None and m.group(0).lower().endswith("drop") and re.match(
                r"\s{1,2}(?:by|in|off|round|around|over|me|us|them|him|her)\b", part[m.end():],
                re.IGNORECASE):
            m = None  # "let's drop by the office": a visit, nothing ends
        if m is None:
            return None
        for v in new:
            lead = part[: v.start - start].rstrip().lower()
            if v.family not in ("when", "who") or re.search(r"(?:\bto|\buntil|\btill|→|->)$",
                                                              lead):
                return None
            if v.start - start >= m.end() and (_MOVED_TO.search(lead)
                                               or _NOW_AFTER.match(part, v.end - start)):
                return None  # "kwik fit cancelled on us, now fri 17th 8am": moved, not off
        s, e = start + m.start(), start + m.end()
        copula = re.match(r"(?:is|are|'s|was|were|got|get|let'?s|we'?re|we are)\s", m.group(0),
                          re.IGNORECASE)
        if copula is not None:
            s += copula.end()
        return Value(Kind.STATUS, part[s - start:e - start], s, e)

    def _act(self, part: str, toks: Sequence[Token], new: Sequence[Value],
             old: tuple[Value, ...], change: float, *, label: str,
             header: bool = False) -> SpeechAct:
        lex = self.lexicon
        low = part.lower()
        lead = [t for t in toks[:3] if t.low not in {"ok", "okay", "so", "and", "but", "hey",
                                                      "also", "btw", "oh", "hmm", "um"}]
        first = lead[0].low if lead else ""
        asks = part.rstrip().endswith("?") or (
            first in _WH and len(toks) > 2 and not header and not lex.decision.search(part)
            and not _in_choice(lead[0], new))
        cue = lex.proposal.search(part)
        if cue is not None and cue.group(0).lower() in {"maybe", "perhaps"} and re.match(
                r"\s{1,3}(?:i|i'll|i'm|im|ill|i've)\b", part[cue.end():], re.IGNORECASE):
            cue = None  # "maybe I'll just go home": the speaker's own plan, not a suggestion
        if cue is not None and cue.group(0).lower() == "open to" and part[:cue.start()].strip(
                ) and not _OPEN_TO_SAID_BY.search(part[:cue.start()]):
            cue = None  # "doors open to the public at 10": a time the doors open, no offer
        if cue is not None and cue.group(0).lower() == "we can" and not part.rstrip().endswith(
                "?") and re.search(r"\b(?:so|so that|now)\s{1,3}$", part[:cue.start()],
                                   re.IGNORECASE):
            cue = None  # "…finishes early, so we can get in at 4pm": what follows, settled
        proposes = cue is not None or any(
            t.low in REQUEST_OPENERS and i + 1 < len(toks) and toks[i + 1].start - t.end <= 1
            and toks[i + 1].low not in {"yes", "thanks", "thank"}
            for i, t in enumerate(toks[:3]))
        label_low = label.lower()
        if (lex.correction.search(part) or lex.correction.search(label_low)) and new \
                and not part.rstrip().endswith("?"):
            return SpeechAct.CORRECTION
        if asks or proposes:
            # A suggestion proposes ("how about 4?", "$12k?"); a question that mentions a
            # value ("the invite still says 04:00, stale?") only asks.
            # "can the reset go thursday?" puts a thing's new value forward ("can I grab 2
            # tickets?", "can someone take the 2pm delivery?" ask for something)
            second = lead[1].low if len(lead) > 1 else ""
            suggests = proposes or (bool(new) and len(toks) <= 4) or (
                bool(new) and part.rstrip().endswith("?") and first in SUGGESTING_MODALS
                and second not in _ASKING_SUBJECTS) or (
                # "cut his probation from 3 months to 6 weeks?": a change put forward
                bool(new) and part.rstrip().endswith("?") and first in SUGGESTING_CHANGES)
            return SpeechAct.PROPOSAL if suggests else SpeechAct.QUESTION
        if old and new and "not sure" not in low:
            return SpeechAct.CORRECTION
        if any(v.kind is Kind.STATUS for v in new):
            return SpeechAct.CANCELLATION
        if lex.reminder.search(label_low) or lex.reminder.search(low[:40]):
            return SpeechAct.REMINDER
        person = any(v.kind is Kind.PERSON for v in new)
        if person and (change >= 0.5 or any(t.low in HANDOVER_VERBS for t in toks)):
            return SpeechAct.REASSIGNMENT
        kept = lex.keep.search(part)
        decided = _SETTLE_CUE.search(part)
        at = part.find(new[0].text) if new else -1
        # "let's settle on £42, with the discount kept at 10%": a value decided, then
        # another kept
        keeps = kept is not None and not (decided is not None and 0 <= decided.end() <= at
                                          < kept.start())
        if (lex.rejection_open.match(part) and (keeps or not new)) or (keeps and change < 0.5
                                                                       and new):
            return SpeechAct.REJECTION
        if lex.ack.match(part) and not new:
            return SpeechAct.CONFIRMATION
        confirms = _CONFIRMS.search(part)
        said_end = at + new[0].end - new[0].start if new and at >= 0 else -1
        if confirms is not None and confirms.group(0).lower() == "still" and 0 <= said_end <= (
                confirms.start()) and _NOW_AFTER.match(part, said_end):
            confirms = None  # "landing 9.15 now on the Sat, still T2": the first value is new
        if new and change < SETTLED_CHANGE and not lex.decision.search(part) and confirms:
            return SpeechAct.CONFIRMATION
        if new and change < SETTLED_CHANGE and self._reports_done(part, new):
            # "tesco 9pm done", "lidl tues run done 🥦 11 crates": a thing carried out
            # then, which plans nothing and moves no plan
            return SpeechAct.CHATTER
        if new:
            return SpeechAct.DECISION
        return SpeechAct.CHATTER

    def _reports_done(self, part: str, new: Sequence[Value]) -> bool:
        """Whether ``part`` reports a thing as carried out, its values (but tallies) said
        before the word saying so; not a plan ("needs to be done by fri", "booking done
        for sat 7pm")."""
        lex = self.lexicon
        m = lex.completed.search(part)
        if m is None or lex.completion_planned.search(part[:m.start()]):
            return False
        if _PLANNED_AFTER.match(part, m.end()) or _AGREED_BEFORE.search(part[:m.start()]):
            return False  # "done by fri"; "ok sat 7pm at the Crown, done": agreed
        return all(v.kind is Kind.COUNT or 0 <= part.find(v.text) < m.start() for v in new)
