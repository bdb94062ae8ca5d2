"""Who a message names for the role a *who* question asks about when that person is no
speaker of the chat and is written in lower case ("judge is my mate carol", "sue whitlock
from millbrook will referee instead", "mrs pattinson's doing the cakes"), and the speaker
together with the person they name beside themselves ("priya and me running them").
"""

from __future__ import annotations

import re

from memory.analysis.question import QuestionAnalysis
from memory.reader.word_forms import forms, unit_forms
from memory.text import STOPWORDS, is_calendar_word

__all__ = ["role_named", "with_self"]

_MAX_TEXT = 2000
_NAME = r"(?:(?:mrs|mr|ms|dr|miss)\s)?[a-z][a-z'’-]{1,20}(?:\s[a-z][a-z'’-]{1,20})?"
# "judge is my mate carol", "new opener: dan fairley"
_ROLE_IS = re.compile(rf"\b(?P<role>[a-z]{{3,20}})\s?(?:\sis|\swill be|['’]s|=|:)\s"
                      rf"(?:(?:my|our)\s(?:mate|friend|pal|neighbour|cousin)\s)?(?P<name>{_NAME})",
                      re.IGNORECASE)
# "sue whitlock from millbrook will referee instead", "mrs pattinson's doing the cakes"
_DOES = re.compile(rf"(?:^|[^\w\s'’]\s?|\b(?:so|and|but|now|then)\s)(?P<name>{_NAME})"
                   r"(?:\s\([^)]{0,80}\))?(?:\s(?:from|of)\s[a-z]{2,20})?"
                   r"(?:\s(?:will|is going to|is|are)|['’](?:ll|s)(?:\sgoing to)?)\s(?:be\s)?"
                   r"(?P<verb>[a-z]{2,20})(?=(?P<rest>[^.!?,;\n]{0,40}))", re.IGNORECASE)
# What a verb of doing means otherwise ("sue is running late", "we're running low").
_NOT_A_TASK = re.compile(r"^\s(?:late|behind|over|out|low|short|away|off|ill|sick)\b")
# Nouns of a role whose holder is named after them ("judge is carol"); with any noun of
# a doer ("opener", "referee", "organiser").
_ROLE_NOUNS = frozenset("judge ref host chair lead coach captain chef cook mc dj dri "
                        "speaker guest".split())
# Light verbs whose object names the task ("doing the cakes", "on the raffle").
_LIGHT = frozenset("doing running taking covering handling sorting on".split())
# Words that name no person.
_NOT_NAMES = frozenset("""
it this that there here everyone everybody someone somebody anyone nobody noone team we
you they he she i me us them all both none one ones who which what mate friend pal
new old next last first same usual plan update news thing things stuff day time ok yes
no nope yeah yep sorry thanks great good fine sure also still just now then too bad
""".split())


def role_named(text: str, qa: QuestionAnalysis) -> str:
    """The person ``text`` names in the role ``qa`` asks about ("" when none): the name
    after a role noun of the question's words ("judge is … carol"), or before a verb of
    them or a light verb whose object is one ("sue whitlock … will referee", "mrs
    pattinson's doing the cakes")."""
    text = re.sub(r"\s{2,20}", " ", text[:_MAX_TEXT])
    wanted = {f for t in qa.terms for f in forms(t)}
    if not wanted:
        return ""
    if qa.role in ("proposer", "rejecter", "changer", "decider"):
        return ""  # who put it forward, turned it down or changed it spoke
    # the question's verbs ("judging", "opening"): a doer noun ("opener") must be theirs,
    # not the thing asked about ("toner's nearly out")
    doing = {f for t in qa.terms if t.endswith("ing") for f in forms(t)}
    for m in _ROLE_IS.finditer(text):
        role = m.group("role").lower()
        if ((role in _ROLE_NOUNS and forms(role) & wanted) or (
                role.endswith(("er", "or", "ee", "ist")) and forms(role) & doing)) and \
                (name := _person(m.group("name"), qa)):
            return name
    for m in _DOES.finditer(text):
        verb = m.group("verb").lower()
        if _NOT_A_TASK.match(m.group("rest")):
            continue
        if forms(verb) & wanted or (verb in _LIGHT and unit_forms(m.group("rest")) & wanted):
            name = _person(m.group("name"), qa)
            if name:
                return name
    return ""


def with_self(text: str, person: str, speaker: str) -> str:
    """``person`` with the speaker when ``text`` names them together ("priya and me
    running them" → "Priya and Claire")."""
    if not person or person == speaker:
        return person
    first = re.escape(person.split()[0].lower())
    together = re.search(rf"\b{first}\w*\s(?:and|&|\+)\s(?:me|i|myself)\b|"
                         rf"\b(?:me|i)\s(?:and|&|\+)\s{first}", text[:_MAX_TEXT].lower())
    return f"{person} and {speaker}" if together else person


def _person(name: str, qa: QuestionAnalysis) -> str:
    """``name`` cut to the words that may name a person ("carol, she does …" → "carol");
    "" when its first word cannot."""
    asked = {f for t in qa.terms for f in forms(t)}
    kept: list[str] = []
    for word in name.split():
        low = word.lower().removesuffix("'s").removesuffix("’s")
        if (low in STOPWORDS and low not in ("mrs", "mr", "ms", "dr", "miss")) \
                or low in _NOT_NAMES or is_calendar_word(low) or forms(low) & asked:
            break
        kept.append(word.removesuffix("'s").removesuffix("’s"))
        if word.endswith(("'s", "’s")):
            break
    if not kept or kept[-1].lower() in ("mrs", "mr", "ms", "dr", "miss"):
        return ""
    return " ".join(kept)
