"""Values said alone: "12 it is", "bus loop then", "ok op 1", "make it 5", "navy then. 24".

In chat a reply often carries nothing but the value; what it is a value of is in the turn
it answers. Read alone, such a clause has no kind of value (a bare "12" is as much a count as
an hour), so the analyzer gives it none: the writer gives it the kind of the state the
conversation is on (:mod:`memory.terse_replies`). This module only reads the clause: which
words are the value, whether it is a number without a unit, and whether words that settle it
surround it ("then", "it is", "make it").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["UNITLESS", "Bare", "bare_value", "is_unitless"]


@dataclass(frozen=True)
class Bare:
    """The value a clause says alone."""

    text: str
    #: A number without a unit ("12", "4.5"): its kind comes from what it answers.
    numeric: bool
    #: Said with words that settle it ("6 then", "12 it is", "make it 5", "ok op 1").
    settled: bool
    #: For a number: what the turn that put it forward measured ("money", "count"), if said.
    unit: str = ""
    #: The thing a number is said of, named before it ("mugs 48" to "mugs $45, bowls $60?").
    subject: str = ""


#: Words before a value said alone that take it up ("ok op 1", "make it 5", "let's say 6").
BARE_LEADS: tuple[str, ...] = (
    "ok so", "okay so", "ok", "okay", "k", "kk", "fine", "yep", "yup", "ya", "yeah", "yes",
    "sure", "done", "alright", "all right", "cool", "great", "perfect", "right", "so",
    "make it", "make that", "let's say", "lets say", "let's do", "lets do", "let's go with",
    "lets go with", "go with", "going with", "we'll do", "we'll go with", "then",
    "switch to", "switching to", "change to", "changed to", "booked", "booking", "settled",
    # agreeing to the value a counter-offer named ("£2. £3 feels steep" → "fair, £2")
    "fair", "fair enough", "agreed", "deal", "good call", "sounds good",
)

#: Words after a value said alone that settle it ("6 then", "12 it is", "navy it'll be").
BARE_TAILS: tuple[str, ...] = (
    "it is", "it'll be", "it will be", "it shall be", "it be", "then", "instead",
    "is fine", "works", "it is then", "then it is", "for now", "final", "please", "pls",
    "is ok", "is good", "works for me", "i guess", "i think",
)

# Words that never make up a value said alone: a reply made of them is talk, not a value.
_NOT_VALUE = frozenset("""
i me my you your we us our they them their he him his she her it its this that these those
is are was were be been am do does did done have has had can could will would should shall
may might must to of for in on at by with from into about as and or but not no nor so too
also just very really only still yet again now then there here what which who whom whose
when where why how all both each any some none one ones thing things same lol lmao haha
hahaha omg ok okay yes yeah yep nope no thanks thank thx ty sure cool nice great good fine
maybe perhaps probably definitely agreed agree true false right wrong sorry pls please
hi hey hello bye later soon idk tbh imo btw fyi nvm np mine yours ours theirs
get got go going gone went come coming take took make made let lets say said think see
sounds looks works need needs want wants love like hate know knew try wait hold check add
send ask tell call use keep feel guess hope mean worked fun awesome amazing weird bad
hard easy late early noted yikes oops ugh wow damn dang huh hmm bit lot little few
correct exactly absolutely perfect confirmed indeed precisely yup roger understood alright
""".split())

_ARTICLE = frozenset({"the", "a", "an"})

#: A whole or decimal number written without a unit ("12", "4.5").
UNITLESS = re.compile(r"\d{1,6}(?:[.,]\d{1,3})?")
# "&" joins a name ("benson & daughters it is"); a currency sign opens an amount ("fair, £2")
_WORD = re.compile(r"[£$€]?[\w][\w'’&.-]{0,40}|&")
# Emoji, symbols and punctuation that end a short reply ("ok op 1 👍", "6 then!").
_TRAILING = re.compile(r"[\s.,;:!)\-–—]{0,20}(?:[^\w\s$£€%'’]{1,20}[\s.,;:!)]{0,20}){0,10}$")
_LEADING = re.compile(r"^[\s,.;:!(\-–—]{1,20}")

_MAX_WORDS = 3

# Things in the plural, which a number prices or counts ("mugs 48"); a label in the singular
# names one of them ("bay 2", "op 1").
_PLURAL = re.compile(r"[a-z](?<!s)s$", re.IGNORECASE)
# A thing's name in a word or two, then a number alone ("mugs 48", "large tees 20").
_NAMED_NUMBER = re.compile(r"(?P<s>[a-z][a-z'’-]{1,20}(?:\s[a-z][a-z'’-]{1,20})?)\s"
                           r"(?P<n>" + UNITLESS.pattern + r")", re.IGNORECASE)

# "25's fine": the clitic of "is" before a word that settles a value
_CLITIC_IS = re.compile(r"(?<=\w)['’]s\s(?=(?:fine|ok|good)\b)", re.IGNORECASE)


def _cue_pattern(cues: tuple[str, ...], *, at_start: bool) -> re.Pattern[str]:
    alts = "|".join(re.escape(c).replace(r"\ ", r"\s{1,5}") for c in sorted(
        cues, key=len, reverse=True))
    if at_start:
        return re.compile(rf"^(?:{alts})(?![\w'’])[\s,.:;!-]{{0,10}}", re.IGNORECASE)
    return re.compile(rf"[\s,.:;!-]{{0,10}}(?<![\w'’])(?:{alts})$", re.IGNORECASE)


_LEAD = _cue_pattern(BARE_LEADS, at_start=True)
_TAIL = _cue_pattern(BARE_TAILS, at_start=False)


def is_unitless(value: str) -> bool:
    """Whether ``value`` is a number alone, which may count anything or be an hour."""
    return UNITLESS.fullmatch(value.strip()) is not None


def bare_value(text: str) -> Bare | None:
    """The value ``text`` (one clause) says alone, if that is all it says: at most three
    words once the words that take it up are set aside, none of them talk ("same", "me
    too"), and no question."""
    if "?" in text or len(text) > 60:
        return None
    rest = _TRAILING.sub("", _LEADING.sub("", _CLITIC_IS.sub(" is ", text.strip())))
    settled = tailed = False
    for _ in range(3):
        m = _LEAD.match(rest)
        if m is None or m.end() == 0:
            break
        rest, settled = rest[m.end():], True
    for _ in range(2):
        m = _TAIL.search(rest)
        if m is None or m.start() == len(rest):
            break
        rest, settled, tailed = rest[:m.start()], True, True
    rest = _TRAILING.sub("", rest).strip()
    words = _WORD.findall(rest)
    if not words or len(words) > _MAX_WORDS or " ".join(words) != " ".join(rest.split()):
        return None
    if UNITLESS.fullmatch(rest):
        return Bare(rest, numeric=True, settled=settled)
    of = _NAMED_NUMBER.fullmatch(rest)
    if of is not None and _PLURAL.search(of.group("s")) and not any(
            w.lower() in _NOT_VALUE | _ARTICLE for w in of.group("s").split()):
        # "mugs 48" answering "mugs $45, bowls $60?": a number for the thing named
        return Bare(of.group("n"), numeric=True, settled=settled, subject=of.group("s"))
    content = words[1:] if words[0].lower() in _ARTICLE else words
    if not content or any(w.lower().rstrip(".") in _NOT_VALUE | _ARTICLE for w in content):
        return None
    # Words are a value when something marks them as one: a word that settles them after
    # ("navy then"), an article ("the annex"), a name ("Brightframe") or a number ("op 1");
    # "ok makes sense" is talk.
    named = any(w[:1].isupper() or any(ch.isdigit() for ch in w) for w in content)
    if not (tailed or named or len(content) < len(words)):
        return None
    return Bare(rest, numeric=False, settled=settled)
