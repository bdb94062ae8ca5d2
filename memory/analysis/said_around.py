"""What a message says around its decision: the reason before "so" (its values are
circumstances, no one's plan), praise of what just happened and what lapsed (their days are
past), and a sentence that is only "now" and a value after a change (the new value, said
outright)."""

from __future__ import annotations

import re
from dataclasses import replace

from memory.analysis.claims import Claim, Clause
from memory.analysis.cue_words import SAID_CHANGE
from memory.analysis.definitions import SpeechAct
from memory.analysis.gathering_words import is_gathering
from memory.analysis.lexicon import Lexicon
from memory.analysis.reason_words import BLOCKER_WORDS
from memory.analysis.values import Kind

__all__ = ["circumstances", "derived", "given_away", "now_said", "praised", "rebooked"]


# How long a "so" clause working a value out is at most ("so wed 4th", "so that's the 14th").
_WORKED_OUT_WORDS = 5


def circumstances(clauses: list[Clause], lex: Lexicon) -> list[Clause]:
    """A clause that is the reason for a change a "so" clause after it makes states the
    circumstances, deciding nothing ("the Hope & Anchor is shut till November, so lunch is
    now at the Moody Cow", "they're a tech down on monday so they've moved us to tue 23rd"):
    its values are no one's plan. Not a decision said before "so" ("booked the hall for the
    14th, so …"), nor a value the "so" clause works out of it."""
    out = list(clauses)
    for i in range(1, len(out)):
        after, before = out[i], out[i - 1]
        if not after.text.lstrip().lower().startswith("so ") or not after.claims or (
                after.change <= 0 and not _NOW_SAID.search(after.text)):
            continue
        # (its own words: a header's "update" lends a change to what it heads)
        if (not before.claims or not _OBSTACLE.search(before.text)
                or lex.change_strength(before.text) > 0 or before.old
                or (before.label and not before.subject)
                or before.act in (SpeechAct.QUESTION, SpeechAct.PROPOSAL)
                or lex.decision.search(before.text) or derived(before, after)):
            continue
        out[i - 1] = replace(before, claims=(), act=SpeechAct.CHATTER, stated=False)
    return out


def given_away(clauses: list[Clause]) -> list[Clause]:
    """A value said to be given to someone else ("the school's given Wednesdays to the
    athletics club", "they've let our Thursday slot to a dance class") is one the team no
    longer has: a circumstance, no one's plan for the thing."""
    out = list(clauses)
    for i, c in enumerate(out):
        if not c.claims or c.change > 0:
            continue
        kept = tuple(cl for cl in c.claims if cl.value.family != "when" or not _GIVEN_TO.search(
            c.text[:max(cl.value.start - c.start, 0)]) or not _TO_ANOTHER.match(
            c.text, cl.value.end - c.start))
        out[i] = _keeping(c, kept)
    return out


# "given", "let" … right before a day, and "to" someone else right after it ("given
# Wednesdays to the athletics club"; not "given Thursdays to us").
_GIVEN_TO = re.compile(r"\b(?:given|gave|giving|handed|let)(?:\sout)?\s(?:away\s)?"
                       r"(?:our\s|the\s)?$", re.IGNORECASE)
_TO_ANOTHER = re.compile(r"\s(?:(?i:slot|night|nights|evening|evenings)\s)?(?:(?i:away|over)\s)?"
                         r"(?i:to)\s(?:(?i:the|a|an|another|some)\s|[A-Z](?!e\b|s\b))")


def rebooked(clauses: list[Clause]) -> list[Clause]:
    """One meeting said to be off and then given a new day in the same message ("first aid
    training is OFF tonight, … rebooked for thu 19 march") is moved, not off: the new day is
    the thing's, and the cancellation goes."""
    out = list(clauses)
    for i, c in enumerate(out):
        off = [cl for cl in c.claims if cl.value.kind is Kind.STATUS
               and cl.value.text.lower() in _ONE_MEETING_OFF]
        if not off or c.act is not SpeechAct.CANCELLATION:
            continue
        subject = off[0].subject
        if not subject or not is_gathering(subject.lower().split()[-1]):
            continue  # ("scout hall's off. St Peter's … instead": a venue, not a meeting)
        later = next((k for k in range(i + 1, len(out)) if _REBOOKED.search(out[k].text)
                      and any(cl.value.family == "when" for cl in out[k].claims)
                      and not any(cl.subject for cl in out[k].claims)), None)
        if later is None:
            continue
        out[i] = _keeping(c, tuple(cl for cl in c.claims if cl not in off))
        moved = out[later]
        out[later] = replace(moved, claims=tuple(
            replace(cl, subject=subject, terms=off[0].terms) if not cl.subject else cl
            for cl in moved.claims))
    return out


# The status values one meeting off is said with ("No club night …", "Nets off tonight").
_ONE_MEETING_OFF = frozenset({"no", "off"})
# A new day given to what was called off ("rebooked for", "moved to", "instead").
_REBOOKED = re.compile(r"\b(?:rebook\w{0,3}|reschedul\w{0,3}|re-?arranged?|moved?\s(?:it\s)?to|"
                       r"pushed\s(?:it\s)?(?:back\s)?to|postponed|instead|new\sdate)\b",
                       re.IGNORECASE)


def praised(clauses: list[Clause]) -> list[Clause]:
    """A clause praising what just happened ("Good practice tonight", "great session this
    morning") reports it: the day it names is when it took place, no plan; so does one
    saying when something lapsed ("yeah lapsed in feb")."""
    out = list(clauses)
    for i, c in enumerate(out):
        lapse = _LAPSED.search(c.text) if c.claims and c.change <= 0 else None
        if lapse is not None:
            # "yeah lapsed in feb", "yours ran out in feb": when something ran out is past
            # (not what was booked because of it: "cert expired so booked mon 9am")
            at = c.start + lapse.end()
            out[i] = _keeping(c, tuple(cl for cl in c.claims if cl.value.family != "when"
                                       or not 0 <= cl.value.start - at <= _LAPSE_REACH))
        elif c.claims and c.change <= 0 and _PRAISE.match(c.text):
            out[i] = _keeping(c, tuple(cl for cl in c.claims
                                       if not _OCCURRED.fullmatch(cl.value.text)))
    return out


def _keeping(clause: Clause, kept: tuple[Claim, ...]) -> Clause:
    """``clause`` with only the claims ``kept``; chatter when none is left."""
    if len(kept) == len(clause.claims):
        return clause
    return replace(clause, claims=kept, act=clause.act if kept else SpeechAct.CHATTER,
                   stated=clause.stated and bool(kept))


# A day just gone or going on, said of what took place ("tonight", "this morning").
_JUST_NOW = r"(?:tonight|today|this\s(?:morning|afternoon|evening)|yesterday|last\snight)"
_OCCURRED = re.compile(_JUST_NOW, re.IGNORECASE)
_PRAISE = re.compile(r"\W{0,3}(?:(?:really|such|a|what\sa)\s)?(?:good|great|lovely|nice|brilliant|"
                     r"fab|fabulous|excellent|cracking|super|amazing|awesome|fantastic|solid|"
                     r"smashing|grand)\s(?!(?:news|call|idea|point|shout|spot|catch|plan|stuff)\b)"
                     r"[\w'’-]{2,20}(?:\s[\w'’-]{2,20})?\s" + _JUST_NOW
                     + r"(?:\s(?:lads|all|everyone|guys|team|folks|people|y'all|gang))?\W{0,6}$",
                     re.IGNORECASE)
_LAPSED = re.compile(r"\b(?:lapsed|expired|ran\sout)\b", re.IGNORECASE)
# How far after "lapsed" the day it lapsed on is said ("lapsed in feb", "ran out last march").
_LAPSE_REACH = 12


def now_said(clauses: list[Clause]) -> list[Clause]:
    """A sentence that is only "now" and a value, after a change spoken of before it in the
    message, says the new value outright ("asked to move the inspection, she's working on
    tues. now thurs 18th 2pm")."""
    out = list(clauses)
    for i in range(1, len(out)):
        c = out[i]
        families = {cl.value.family for cl in c.claims}
        if (c.claims and c.change < SAID_CHANGE and _NOW_VALUE.match(c.text)
                and not _BEHIND.search(c.text)
                and any(b.change >= SAID_CHANGE and families & {cl.value.family for cl in b.claims}
                        for b in out[:i])):
            out[i] = replace(c, change=SAID_CHANGE)
    return out


def new_of_before(clauses: list[Clause]) -> list[Clause]:
    """A clause naming only a new date, time or place ("so the dive's off for the 29th —
    new date sun 6 oct") gives it to what an earlier clause called off or put back: "date"
    is no thing of its own."""
    out = list(clauses)
    for i in range(1, len(out)):
        c = out[i]
        m = _NEW_ATTRIBUTE.match(c.text)
        if m is None or not c.claims or c.subject.lower() not in ("", m.group("a").lower()):
            continue
        # (what was called off or put back: "publicist double booked her on the 26th" is
        # why, not what moved)
        families = {cl.value.family for cl in c.claims}
        before = next((b for b in reversed(out[:i]) if b.subject and (
            b.act is SpeechAct.CANCELLATION or (b.change >= SAID_CHANGE and not families & {
                cl.value.family for cl in b.claims}))), None)
        if before is None:
            continue
        subject, terms = before.subject, before.terms
        out[i] = replace(c, subject=subject, terms=terms, claims=tuple(
            replace(cl, subject=subject, terms=terms) if cl.subject.lower() in (
                "", m.group("a").lower()) else cl for cl in c.claims))
    return out


# "new date sun 6 oct", "and new time is 7pm", "new venue: the crypt".
_NEW_ATTRIBUTE = re.compile(
    r"\W{0,3}(?:(?:so|and|ok|okay)\W{1,3})?new\s(?P<a>date|day|time|start|start\stime|venue|"
    r"place|location|spot|slot|meeting\spoint|meet\spoint|meeting\splace)\b", re.IGNORECASE)


# "now 2 weeks behind": how late a thing runs, no new value.
_BEHIND = re.compile(r"\b(?:behind|left|late|to\sgo|overdue)\b", re.IGNORECASE)
_NOW_VALUE = re.compile(r"\W{0,3}(?:(?:so|and|ok|okay)\W{1,3})?(?:it['’]?s\s|its\s)?now\s"
                        r"(?:[\w'’:.-]{1,24}\W{0,3}){1,5}$", re.IGNORECASE)


# What stands in a plan's way ("is shut till November", "a tech down", "off sick", "double
# booked"): a reason, its values circumstances (not "the offsite is the 14th-15th June").
# Narrower than reason_words.BLOCKER_WORDS on purpose: that list also holds what a change
# waits on ("booked", "needs", "has to") and news openers ("bad news", "heads up"), which
# before "so" still state plans of their own.
_OBSTACLE = re.compile(
    r"\b(?:shut|closed|closing|sick|ill|down|can['’]?t|cannot|won['’]?t|couldn['’]?t|unavailable|"
    r"double[\s-]booked|booked\sup|full|busy|clash(?:es|ed)?|overrun\w{0,3}|backorder|"
    r"refurb\w{0,9}|works|flooded|broken|broke|cancelled|canceled|pulled\sout|away|"
    r"off|stuck|delayed|late|only|no\saccess|too\s(?:cold|hot|wet|windy|busy))\b",
    re.IGNORECASE)
# "so lunch is now at …", "so we're at the hall instead": the change the "so" clause makes.
_NOW_SAID = re.compile(r"\b(?:now|instead)\b", re.IGNORECASE)


def derived(before: Clause, after: Clause) -> bool:
    """Whether ``after`` (a "so …" clause) only works a value out of the one ``before``
    states: both state values of one family and nothing stands in the way before."""
    families = {c.value.family for c in before.claims}
    if len(after.text.split()) > _WORKED_OUT_WORDS or not families & {
            c.value.family for c in after.claims}:
        return False  # ("… now arrives 10:20. so keynote shifts to 10:45": a reason)
    low = before.text.lower()
    return not any(re.search(rf"(?<![\w'’]){re.escape(w)}(?![\w'’])", low)
                   for w in BLOCKER_WORDS)
