"""The sentences before a "So …" clause that give its reason ("The centre is closing on
Tuesdays from June (staffing cuts). They've offered us Thursdays. So …"), and headers that
only announce what follows ("Notice:"), which give no reason and name nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.claims import Clause
from memory.analysis.definitions import SpeechAct
from memory.analysis.reason_words import FOLLOWS, PURPOSE
from memory.text import STOPWORDS, content_terms

__all__ = ["NOTICE_WORDS", "SAYS_WHO", "cause_before", "greets", "notice_only", "purpose_of",
           "says_a_verb",
           "says_no_one", "sentences_before"]


def _sentence_before(clauses: Sequence[Clause], i: int) -> list[Clause]:
    """The clauses of the sentence ending right before ``clauses[i]`` (at most
    :data:`_REASON_CLAUSES`), back to one that ends a sentence, asks, or changes a value."""
    out = [clauses[i - 1]]
    k = i - 2
    while k >= 0 and len(out) < _REASON_CLAUSES:
        c = clauses[k]
        if c.text.rstrip().endswith((".", "!", "?")) or c.act in (
                SpeechAct.QUESTION, SpeechAct.PROPOSAL) or c.change >= 0.5:
            break
        out.insert(0, c)
        k -= 1
    return out


#: Headers that only announce what follows ("Notice:", "Housekeeping –").
NOTICE_WORDS = frozenset({"notice", "housekeeping", "announcement", "announcements",
                           "attention", "important"})


def notice_only(said: Sequence[str]) -> bool:
    """Whether a header's words only announce ("Notice", "Housekeeping for 2025")."""
    return any(w in NOTICE_WORDS for w in said) and all(
        w in NOTICE_WORDS or w in STOPWORDS or w.isdigit() for w in said)


# The most clauses a reason given as the sentence before "So" runs to.
_REASON_CLAUSES = 3
# ... and the most clauses of the sentences before "So" that state it together.
_REASON_SENTENCE_CLAUSES = 5


def sentences_before(clauses: Sequence[Clause], i: int) -> list[Clause]:
    """The sentences before ``clauses[i]`` that give its reason together ("The centre is
    closing on Tuesdays from June (staffing cuts). They've offered us Thursdays. So …"):
    the sentence right before, and whole sentences before it that neither ask nor change
    a value, at most :data:`_REASON_SENTENCE_CLAUSES` clauses."""
    out = _sentence_before(clauses, i)
    thing = frozenset(t for cl in clauses[i].claims for t in content_terms(cl.subject)) | \
        frozenset(content_terms(clauses[i].subject))
    while True:
        k = i - len(out) - 1
        if k < 0 or not clauses[k].text.rstrip().endswith((".", "!")):
            break
        more = _sentence_before(clauses, k + 1)
        if len(out) + len(more) > _REASON_SENTENCE_CLAUSES or any(
                c.act in (SpeechAct.QUESTION, SpeechAct.PROPOSAL, SpeechAct.CONFIRMATION,
                          SpeechAct.REMINDER) or c.change >= 0.5
                or (_NO_REASON.match(c.text) and not _heads(more, c))
                or _states_its_own(c, thing) for c in more):
            break
        out = more + out
    # a header ("Notice:", "Update:") labels what follows; it gives no reason
    if len(out) > 1 and (out[1].label == out[0].text.strip()
                         or notice_only(out[0].text.lower().split())):
        out = out[1:]
    # "Ugh.", "Thanks all.": said around the reason
    kept = [c for c in out if not _NO_REASON.fullmatch(c.text.strip())]
    return kept or out


def _heads(clauses: Sequence[Clause], c: Clause) -> bool:
    """Whether ``c`` opens ``clauses`` as the header of the next ("Heads up:")."""
    return len(clauses) > 1 and c is clauses[0] and (
        clauses[1].label == c.text.strip() or notice_only(c.text.lower().split()))


def _states_its_own(c: Clause, thing: frozenset[str]) -> bool:
    """Whether ``c`` states a value of the thing the "So" clause changes ("Nets are
    Tuesdays at 6. … So July nets are at the school"): its value, not a reason."""
    return any(set(content_terms(cl.subject)) & thing for cl in c.claims)


# Sentences that greet, thank or praise: around a reason, never part of it.
_NO_REASON = re.compile(r"\W{0,3}(?:(?:good\s)?morning|afternoon|evening|hi|hey|hello|thanks|"
                        r"thank\syou|cheers|great|good|lovely|nice|hope|welcome|congrats|"
                        r"reminder|heads\sup|ugh|argh)\b[^.!?]{0,60}[.!?]{0,3}", re.IGNORECASE)


def cause_before(clauses: Sequence[Clause], i: int) -> str:
    """The sentence before a few words that say no one, opening the sentence of a "so"
    clause ``clauses[i]``, with those words: "I twisted my knee at football — out for 3-4
    weeks" of "… out for 3-4 weeks so I can't drum"; "" when there is none."""
    if i < 2:
        return ""
    part, earlier = clauses[i - 1].text.strip(), clauses[i - 2]
    if part.endswith((".", "!", "?")) or not says_no_one(part):
        return ""
    cause = earlier.text.strip()
    if not cause.endswith((".", "!")) or len(cause.split()) < 3 or earlier.change >= 0.5 \
            or earlier.act in (SpeechAct.QUESTION, SpeechAct.PROPOSAL) or greets(cause):
        return ""
    return f"{cause.rstrip('.!')} — {part}"


def purpose_of(clauses: Sequence[Clause], i: int) -> str:
    """The change with what it is for, when the "so" clause ``clauses[i]`` says a purpose
    ("ok make it 9.15 then, so priya can do the school run"); "" otherwise."""
    text = clauses[i].text.strip()
    before = clauses[i - 1].text.strip() if i > 0 else ""
    after = text[3:].strip()
    # only after a change decided ("the hall flooded, so we can …" gives its cause), and
    # only what someone then can do or has ("so we will move …" is what follows)
    if not before or PURPOSE.match(after) is None or FOLLOWS.match(after) is not None \
            or not clauses[i - 1].claims or clauses[i - 1].act not in (
                SpeechAct.DECISION, SpeechAct.CORRECTION, SpeechAct.REASSIGNMENT):
        return ""
    return f"{before.rstrip(',;')} {text}"


#: Words opening a part that says who or what it is about.
SAYS_WHO = frozenset({"i", "we", "he", "she", "they", "it", "its", "it's", "that", "this",
                      "there", "you", "im", "i'm", "we're", "theyre", "they're", "so"})


# A finite verb: a part saying one says who does what ("pitch is flooded again").
_FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had|does|do|did|can|can't|cannot|won't|"
                     r"isn't|aren't|wasn't|doesn't|don't|didn't|will|got|gets|needs|wants|"
                     r"[a-z]{2,15}(?:'s|’s))\b", re.IGNORECASE)
# Words a greeting, an apology or thanks opens with.
_GREETING = re.compile(r"\W{0,3}(?:morning|evening|afternoon|hi|hey|hello|hiya|sorry|apologies|"
                       r"thanks|thank|cheers|quick one|heads up|update|fyi|ok|okay|right|so)\b",
                       re.IGNORECASE)


def says_no_one(part: str) -> bool:
    """Whether ``part`` is a few words (3 to 6) saying no one ("out for 3-4 weeks"): it opens
    in lower case on no word saying who and holds no finite verb."""
    said = part.split()
    return 3 <= len(said) <= 6 and said[0][:1].islower() and said[0].lower() not in SAYS_WHO \
        and not says_a_verb(part)


def says_a_verb(text: str) -> bool:
    """Whether ``text`` holds a finite verb ("rowing club has the pontoon")."""
    return _FINITE.search(text) is not None


def greets(text: str) -> bool:
    """Whether ``text`` opens greeting, apologising, thanking or announcing ("Morning all,
    quick one from me"): no cause."""
    return _GREETING.match(text) is not None
