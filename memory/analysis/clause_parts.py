"""The parts of a clause: its items, the values it names as replaced, the modifiers a subject
takes from its values, and the speech act of a whole message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.claims import Claim, Clause
from memory.analysis.cue_words import AMOUNT_VERBS, _alternation
from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import (
    CHANGE_VERBS,
    CLAUSE_VERBS,
    DISCOURSE,
    EVENT_NOUNS,
    OWNER_VERBS,
    OWNER_VERBS_S,
    QUANTITY_VERBS,
    SETTLING_PHRASES,
)
from memory.analysis.message_patterns import (
    _COPULAS,
    _DETERMINERS,
    _NOUN_ING,
    _OLD_BEFORE,
    _PRONOUNS,
    _QUARTER,
    _SPLIT,
    _SUBJECT_PRONOUNS,
    _TAKEN_BEFORE,
    _VALUE_PREPS,
    NO_OCCURRENCE,
    _in_value,
    tokenize_at,
)
from memory.analysis.said_alone import BARE_LEADS
from memory.analysis.slot_patterns import _WDX
from memory.analysis.values import Kind, Token, Value, hours_after_a_day
from memory.text import STOPWORDS, content_terms, is_calendar_word

#: Acts that change what is decided.
CHANGING = frozenset({SpeechAct.DECISION, SpeechAct.CORRECTION, SpeechAct.CANCELLATION,
                      SpeechAct.REASSIGNMENT})


_ACT_ORDER = (SpeechAct.CORRECTION, SpeechAct.CANCELLATION, SpeechAct.REASSIGNMENT,
              SpeechAct.DECISION, SpeechAct.REJECTION, SpeechAct.REMINDER,
              SpeechAct.PROPOSAL, SpeechAct.QUESTION, SpeechAct.CONFIRMATION,
              SpeechAct.CHATTER)


def _message_act(clauses: Sequence[Clause]) -> SpeechAct:
    """The act of the message: a change said outright wins; a statement in passing ("the
    batch runs til 01:30") yields to a rejection, reminder or proposal beside it."""
    acts = {c.act for c in clauses}
    if not acts:
        return SpeechAct.CHATTER
    first = next((c for c in clauses if c.claims), None)
    if first is not None and first.act is SpeechAct.PROPOSAL and not any(
            c.act in (SpeechAct.CORRECTION, SpeechAct.CANCELLATION, SpeechAct.REASSIGNMENT)
            or (c.act is SpeechAct.DECISION and c.change >= 0.5)
            for c in clauses if c is not first):
        # "can we do 11 to 3 instead? families are at the diamond til 11": the rest explains
        return SpeechAct.PROPOSAL
    strong = {c.act for c in clauses if c.act is not SpeechAct.DECISION or c.stated}
    for act in _ACT_ORDER:
        if act in strong:
            return act
    for act in _ACT_ORDER:
        if act in acts:
            return act
    return SpeechAct.CHATTER


def _split(text: str, values: Sequence[Value]) -> list[tuple[int, int, bool]]:
    """Clause spans (start, end, ended by a colon); never inside a value."""
    out: list[tuple[int, int, bool]] = []
    pos = 0
    for m in _SPLIT.finditer(text):
        if any(v.start < m.start() < v.end or v.start < m.end() < v.end for v in values):
            continue
        if text[:m.start()].count("(") > text[:m.start()].count(")"):
            continue  # "(captain: Big Al)" is one aside
        if m.start() > pos and text[pos:m.start()].strip():
            out.append((pos, m.start(), m.group("colon") is not None))
        pos = m.end()
    if pos < len(text) and text[pos:].strip():
        out.append((pos, len(text), False))
    return out


_ITEM_CUT = re.compile(r",\s{1,4}(?:and\s|&\s)?")


_ITEM_BREAKERS = frozenset({"then", "so", "but", "because", "since", "which", "who", "if",
                            "when", "while", "though", "although", "unless", "or"})


def _items(text: str, start: int, end: int, colon: bool,
           values: Sequence[Value]) -> list[tuple[int, int, bool, bool]]:
    """The items of a list clause ("Atlas 11 Nov (Callum), Beacon 2.9 on 4 Nov, Garnet SSO 21
    Oct"; "Lauren brownies, Rosa tres leches, Steph cupcakes"), each (start, end, colon,
    more items follow); a clause that is no such list is its own single item. An item names
    its own subject before its value, or is a person followed by what they do."""
    whole = [(start, end, colon, False)]
    cuts: list[tuple[int, int]] = []
    depth_before = text[:start].count("(") - text[:start].count(")")
    for m in _ITEM_CUT.finditer(text, start, end):
        if any(v.start < m.start() < v.end for v in values):
            continue
        before = text[start:m.start()]
        if depth_before + before.count("(") > before.count(")"):
            continue
        cuts.append(m.span())
    if not cuts:
        return whole
    parts: list[tuple[int, int]] = []
    pos = start
    for s, e in cuts:
        parts.append((pos, s))
        pos = e
    parts.append((pos, end))
    named = 0
    for s, e in parts:
        toks = tokenize_at(text, s, e)
        if not toks or len(toks) > 10:
            return whole
        if toks[0].low in _ITEM_BREAKERS or toks[0].low in _SUBJECT_PRONOUNS:
            return whole
        inside = [v for v in values if v.start >= s and v.end <= e and not v.is_year]
        if not inside:
            continue
        first = inside[0]
        lead = [t for t in toks if t.end <= first.start]
        rest = [t for t in toks if t.start >= first.end]
        person_led = (first.kind is Kind.PERSON and first.start == toks[0].start and any(
            _in_value(t, inside) is None and t.low not in STOPWORDS for t in rest)
            and not (rest and (rest[0].low in CLAUSE_VERBS or rest[0].low in OWNER_VERBS
                               or rest[0].low in OWNER_VERBS_S)))  # "Jo owns it": a sentence
        name_led = bool(lead) and lead[0].text[:1].isupper() and any(
            t.low not in STOPWORDS and t.low not in _DETERMINERS for t in lead)
        # "thu 9 oct bristol (lantern cellar)": a schedule's day, then the place it is at
        date_led = (first.family == "when" and first.start == toks[0].start
                    and any(v.kind is Kind.PLACE for v in inside[1:]))
        named += person_led or name_led or date_led
    if named < 2 or named * 2 < len(parts):
        return whole
    return [(s, e, colon if i == len(parts) - 1 else False, i < len(parts) - 1)
            for i, (s, e) in enumerate(parts)]


def _named_as_old(text: str, value: Value, clause_start: int, *, moved: bool = True) -> bool:
    """Whether ``value`` is named as what is replaced: "instead of X", "not X", "from X
    to" after a change verb ("moved from the 3rd to the 10th"; "out from the 3rd to the
    10th" is a span), "X →", "no longer X"."""
    before = text[max(clause_start, value.start - 24):value.start].lower().rstrip(" ,")
    before = re.sub(r"\s(?:the|a|an|our)$", "", before)
    after = text[value.end:value.end + 12].lower().lstrip()
    if any(before.endswith(w) for w in _OLD_BEFORE) or _TAKEN_BEFORE.search(before):
        return True
    if value.family == "when" and NO_OCCURRENCE.search(before) and not text[
            :value.start].rstrip().endswith(","):
        return True
    if before.endswith("(from") and value.family != "when":
        # "deposits go up to £60 (from £50)": an amount in the unit of the one before the
        # bracket; "12 signups (from 40 invites)" counts another thing, "sat (from 7pm)"
        # starts
        said = _AMOUNT_BEFORE.search(text[max(clause_start, value.start - 40):value.start])
        return said is not None and _unit(said.group(1)) == _unit(value.text)
    if before.endswith("from") and re.match(r"(?:to\b|→|->|-)", after):
        return moved or value.family != "when" or not after.startswith("to")
    # (a rate's unit may sit between: "35/h → 40/h")
    return bool(re.match(r"(?:/[a-z]{1,5}\s?)?(?:→|->|=>)", after))


# The amount right before "(from": "£60 (from".
_AMOUNT_BEFORE = re.compile(r"([£$€]?\d[\d,.]{0,15}\s?[a-z%]{0,12})\s{0,2}\(from\s{0,2}$",
                            re.IGNORECASE)


def _unit(amount: str) -> str:
    """What an amount is counted in: its currency sign and the word after its number."""
    return re.sub(r"[\d,.\s]", "", amount).lower()


def moved_on(text: str, values: Sequence[Value]) -> tuple[Value, ...]:
    """Values a change verb right after them moves on to another of their kind ("Wilson
    job tues 23rd moved to wed 24th", "3pm pushed back to 4pm"): the first is replaced (not
    a day moved to a time: "sat moved to 11am start" gives the day its time)."""
    out: list[Value] = []
    for v in values:
        m = _MOVED_ON.match(text, v.end)
        if m is None:
            continue
        if any(w.kind is v.kind and w is not v and m.end() <= w.start <= m.end() + 6
               for w in values):
            out.append(v)
    return tuple(out)


def ruled_out(text: str, values: Sequence[Value], later: Sequence[Value]) -> tuple[Value, ...]:
    """Values said not to work when a value of their family follows in the message ("thu
    22 doesn't work for them anymore. moved to tue jan 27"): the one replaced."""
    return tuple(v for v in values if _RULED_OUT.match(text, v.end) and any(
        w.start > v.end and w.family == v.family and w.kind is not Kind.PERSON
        for w in later))


# An amount said to fall short ("£10 each a month isnt cutting it").
_FALLS_SHORT = (r"(?:[a-z/]{1,6}\s){0,3}(?:isn't|isnt|is not|wasn't|wasnt|won't|wont|aren't|"
                r"arent)\s(?:enough|cutting it|covering it|going to cover)")
_SHORT_OF = re.compile(r"\s" + _FALLS_SHORT, re.IGNORECASE)


def said_after(text: str, olds: Sequence[Value], start: int) -> int:
    """Where what is said after the values ruled out in ``text`` begins (``start`` when
    none is): "£10 isnt enough, raising it to £12" negates the £10, not the £12."""
    ends = [m.end() for v in olds if (m := _SHORT_OF.match(text, v.end)) is not None]
    return max(ends, default=start)


_RULED_OUT = re.compile(r"\s(?:(?:doesn't|doesnt|does not|won't|wont|will not|can't|cant|"
                        r"isn't|isnt)\s(?:work|happen|suit)|(?:clashes|conflicts)\b|"
                        r"(?:is|'s)\s(?:out|off|a no(?:-go)?)\b|(?:no good|no longer works)\b"
                        # an amount said to fall short ("£10 each a month isnt cutting it")
                        r"|" + _FALLS_SHORT +
                        # a venue that cannot have us ("Crab House can't take 30 on a Saturday")
                        r"|(?:can't|cant|cannot|can not|couldn't|couldnt)\s(?:take|fit|host|"
                        r"accommodate|seat|have)\b|only\s(?:holds|takes|seats|fits)\b)",
                        re.IGNORECASE)


_MOVED_ON = re.compile(r",?\s(?:(?:has been|is|was|got|been|now|then)\s)?(?:moved|pushed|bumped|"
                       r"changed|switched|shifted|postponed|swapped|put|brought|pulled|"
                       r"moving|pushing|changing|switching|shifting)(?:\s(?:back|forward|up|"
                       r"out|over))?\s(?:to|till|until|til)\b", re.IGNORECASE)


_WHEN_GAP = re.compile(r"(?:[\s,@()-]|\b(?:at|on|the|same|window|slot|time|from|starting|"
                       r"start|ends?|till|until|to)\b){0,12}", re.IGNORECASE)


_OLD_NUMBER = re.compile(r"\b(?:not|instead of|rather than|no longer)\s(?:the\s)?(?P<v>\d{2,6}"
                         r"(?:st|nd|rd|th)?)\b|\b(?P<w>\d{1,6}(?:\.\d{1,4})?)\s?(?:->|→|=>)",
                         re.IGNORECASE)


def _old_numbers(text: str, start: int, end: int, values: Sequence[Value]) -> tuple[Value, ...]:
    """Bare numbers named as replaced ("build 415 going to Apple, not 412", "Dec 18, not the
    20th"), each of the kind of the value it is set against: the nearest one said before it
    ("Ines recording is now 10:30 not 10" replaces a time, not the person), else the
    clause's first value."""
    if not values:
        return ()
    out: list[Value] = []
    for m in _OLD_NUMBER.finditer(text, start, end):
        group = "v" if m.group("v") else "w"
        s, e = m.span(group)
        if not any(v.start <= s < v.end for v in values):
            out.append(Value(_contrasted(values, s).kind, m.group(group), s, e))
    for m in _OLD_HOUR.finditer(text, start, end):
        # "start 7.30 not 8": a bare hour replaced by a clock time is an hour too
        s, e = m.span("v")
        kind = _contrasted(values, s).kind
        if kind is Kind.TIME and not any(v.start <= s < v.end for v in (*values, *out)):
            out.append(Value(kind, m.group("v"), s, e))
    return tuple(out)


def _contrasted(values: Sequence[Value], at: int) -> Value:
    """The value a replaced number said at ``at`` is set against: the last one before it,
    else the first."""
    before = [v for v in values if v.end <= at]
    return before[-1] if before else values[0]


_OLD_HOUR = re.compile(r"\b(?:not|instead of|rather than)\s(?P<v>[1-9])\b"
                       r"(?![:.]\d|\s?(?:am|pm|st|nd|rd|th|%|x|h)\b)", re.IGNORECASE)


def _in_parentheses(text: str, value: Value, clause_start: int) -> bool:
    """A value inside parentheses elaborates ("$480k (2 backend, 1 SRE)"); "Friday (the
    15th)" was joined to its day already."""
    before = text[clause_start:value.start]
    return before.count("(") > before.count(")")


_AFFAIR_SKIP = frozenset({"is", "'s", "will", "be", "was", "are", "going", "gonna", "to", "off",
                          "out", "away", "back", "on", "at", "for", "in", "her", "his",
                          "their", "a", "an", "the", "also", "now", "still", "then", "from",
                          "and", "i", "me", "we", "doing", "do", "having", "have", "running",
                          "giving", "making", "taking", "holding", "'ll", "ll"})


def _strip_possessive(name: str) -> str:
    return re.sub(r"['’]s$", "", name)


def _affair(toks: Sequence[Token], person: Token, values: tuple[Value, ...]) -> str:
    """What a sentence about a person's own time is about: "Callum is off on [paternity
    leave] from 1 Nov", "Marcus will be away at a [conference] Tuesday", "Owen [starts] in
    Richmond" ("start")."""
    after = [t for t in toks if t.start >= person.end]
    event = ""
    words: list[Token] = []
    for t in after[:10]:
        if _in_value(t, values) is not None:
            break
        if t.low in EVENT_NOUNS and not words:
            event = event or EVENT_NOUNS[t.low]
            continue
        if t.low in _AFFAIR_SKIP and not words:
            continue
        if t.low in _VALUE_PREPS or t.low in STOPWORDS or t.low in CLAUSE_VERBS:
            break
        words.append(t)
        if len(words) == 3:
            break
    if words:
        return " ".join(t.text for t in words)
    return event


_TIME_LIKE = re.compile(r"\d:\d|\d\s?(?:am|pm)\b|\bnoon\b|\bmidnight\b", re.IGNORECASE)
_AMOUNT_CHANGED = re.compile(r"\b(?:" + _alternation(AMOUNT_VERBS) + r")\b", re.IGNORECASE)
_BARE_NUMBER = re.compile(r"\d{1,5}")


def _unjoin_moved(values: tuple[Value, ...], text: str, clause_start: int) -> tuple[Value, ...]:
    """After a change verb, "from X to Y" read as one span is the old value and the new one
    ("rescheduled the demo from Mar 3 to Mar 5")."""
    out: list[Value] = []
    for v in values:
        cut = v.text.find(" to ")
        before = text[max(clause_start, v.start - 6):v.start].lower()
        if v.kind in (Kind.RANGE, Kind.DATE, Kind.TIME) and cut > 0 and before.rstrip().endswith(
                "from"):
            first, second = v.text[:cut].strip(), v.text[cut + 4:].strip()
            # "cut the fox order from 6 to 4": bare numbers an amount verb changes are
            # counts, not hours ("moved dinner from 6 to 7" stays a time)
            counted = _AMOUNT_CHANGED.search(text, clause_start, v.start) is not None and all(
                _BARE_NUMBER.fullmatch(p) for p in (first, second))
            for part, at in ((first, v.start), (second, v.start + cut + 4)):
                clock = _TIME_LIKE.search(part) or re.match(r"\d{1,2}(?::\d\d)?\b", part)
                kind = Kind.COUNT if counted else Kind.TIME if clock and not re.search(
                    r"[A-Za-z]{3}\s?\d|\d(?:st|nd|rd|th)", part) else Kind.DATE
                out.append(Value(kind, part, at, at + len(part)))
            continue
        out.append(v)
    return tuple(out)


def _verb_after(toks: Sequence[Token], phrase: Sequence[Token]) -> bool:
    """Whether a change verb or a copula follows ``phrase`` ("entry [drops] to $20")."""
    after = [t for t in toks if t.start >= phrase[-1].end][:1] if phrase else []
    return bool(after) and (after[0].low in CHANGE_VERBS or after[0].low in _SUBJECT_COPULAS
                            or after[0].low in {"goes", "went", "stays", "moves", "is"})


def _alone_in_parentheses(text: str, value: Value) -> bool:
    """A value that is all a parenthesis holds: "(Callum)", "( Yuki )"."""
    return (text[max(0, value.start - 2):value.start].rstrip().endswith("(")
            and text[value.end:value.end + 2].lstrip().startswith(")"))


def _join_new_when(values: list[Value], text: str) -> list[Value]:
    """New when-values of one clause with only a few words between ("sat 22nd, same window
    02:00-04:00") are one moment."""
    out: list[Value] = []
    when = {Kind.DATE, Kind.TIME, Kind.RANGE}
    for v in sorted(values, key=lambda x: x.start):
        if out and out[-1].kind in when and v.kind in when and not v.is_year \
                and not hours_after_a_day(out[-1].text, v.text):
            prev = out[-1]
            gap = text[prev.end:v.start]
            if len(gap) <= 24 and _WHEN_GAP.fullmatch(gap):
                kind = Kind.RANGE if Kind.RANGE in (prev.kind, v.kind) else Kind.DATE
                out[-1] = Value(kind, text[prev.start:v.end], prev.start, v.end)
                continue
        out.append(v)
    return out


# Copulas after a value that make it what a clause speaks of ("Nov 5 is election day"),
# unless a word saying the value is the one settled follows ("Friday is fine").
_SUBJECT_COPULAS = frozenset({"is", "are", "was", "were", "isn't", "wasn't", "looks", "seems"})
# Punctuation between a value and the copula after it: the copula's subject is another.
_BREAK = re.compile(r"[(,;:.!?—–]")
_VALUE_AFTER_COPULA = frozenset({"it", "the", "fine", "final", "confirmed", "ok", "okay",
                                 "good", "better", "best", "now", "still", "official"})


_ANNOUNCES = re.compile(r"\b(?:official|officially|final|decided|decision|confirmed|locked|"
                       r"verdict|result|outcome|update|updated|new plan|change of plans?)\b",
                       re.IGNORECASE)


_IT_IS = re.compile(r",?\s(?:it is|it's|its)\b", re.IGNORECASE)
# "ok thursday 7pm then", "friday 10am works": a value settled by the words closing its
# clause.
_THEN_CLOSES = re.compile(r",?\s(?:" + _alternation(SETTLING_PHRASES) + r")\W{0,4}$"
                          # "$8 then, still way under the $12 regular"
                          r"|\sthen,\s", re.IGNORECASE)


_BUILD = re.compile(r"(?:build|rc|release candidate)\b", re.IGNORECASE)


# A weekday naming which of a recurring thing after "the", "our" ... ("the Tuesday meeting").
_WHICH_DETERMINERS = frozenset({"the", "our", "this", "that", "your", "my", "their", "his",
                                "her"})
_WEEKDAY_WORD = re.compile(_WDX + "s?", re.IGNORECASE)
# Words after a weekday saying which part of it: still a day said ("the Tuesday evening").
_DAY_PARTS = frozenset({"morning", "mornings", "afternoon", "afternoons", "evening", "evenings",
                        "night", "nights", "lunchtime", "lunch", "noon", "midday", "am", "pm",
                        "eve", "arvo", "week", "weekend"})


def _names_a_weekly(v: Value, before: Sequence[Token], nxt: Token | None,
                    values: Sequence[Value], text: str) -> bool:
    """Whether ``v`` is a weekday alone between a determiner and the noun right after it:
    which of a recurring thing it is ("the Tuesday meeting", "our friday drinks"), not its
    date."""
    return (v.kind is Kind.DATE and _WEEKDAY_WORD.fullmatch(v.text) is not None
            and bool(before) and before[-1].low in _WHICH_DETERMINERS and nxt is not None
            and not text[v.end:nxt.start].strip() and nxt.low.isalpha()
            and nxt.low not in STOPWORDS and nxt.low not in _DAY_PARTS
            and not is_calendar_word(nxt.low) and _in_value(nxt, values) is None)


def _modifiers(toks: Sequence[Token], values: Sequence[Value], text: str) -> set[Value]:
    """Values that are part of what the clause is about, not what it states: a version or
    year naming the subject before the predicate ("2.4 slips to", "2.4 build 412", "QA
    signoff for 2.4", "the 2025 budget"), a possessive ("Friday's all-hands"), and any value
    the clause then says something about ("Nov 5 is election day", "room B is booked")."""
    out: set[Value] = set()
    builds = [v for v in values if v.kind is Kind.VERSION and _BUILD.match(v.text)]
    for v in values:
        after = [t for t in toks if t.start >= v.end]
        before = [t for t in toks if t.end <= v.start]
        nxt = after[0] if after else None
        if v.kind is Kind.PERSON:
            continue  # found only as the doer or holder of something: always a value
        # (not a copula opening an aside: "8-2 (was 9-3)", nor one after a break whose
        # subject is left unsaid: "bumping to Tue 28th, looks settled")
        if nxt is not None and nxt.low in _SUBJECT_COPULAS and not _BREAK.search(text[
                v.end:nxt.start]) and (len(after) < 2 or after[1].low not in _VALUE_AFTER_COPULA):
            out.add(v)
            continue
        if text[v.end:v.end + 2] in ("'s", "’s"):
            out.add(v)
            continue
        if _names_a_weekly(v, before, nxt, values, text):
            out.add(v)  # "can we nudge the Tuesday meeting to 10?": which meeting, no date
            continue
        if _QUARTER.fullmatch(v.text) and nxt is not None and _in_value(nxt, values) is None \
                and nxt.low not in _VALUE_PREPS and nxt.low not in {"and", "or", "then"}:
            out.add(v)  # "the Q4 portfolio review", "Q2 budget"
            continue
        if v.kind is not Kind.VERSION and not v.is_year:
            continue
        if v.kind is Kind.VERSION and builds and v not in builds:
            out.add(v)  # "2.4 build 412", "Resubmitted 2.4 to Apple, build 418"
            continue
        predicate = any(t.low in _COPULAS or t.low in CHANGE_VERBS or t.low in {
            "to", "→", "->", "on", "at", "with", "going", "using", "it's", "as", "call",
            "calling", "called", "name", "naming", "named"} for t in before)
        ends = nxt is not None and any(ch in text[v.end:nxt.start] for ch in ",.;:!?/")
        if nxt is not None and not predicate and not ends:
            in_next = _in_value(nxt, values)
            if in_next is not None and in_next is not v and in_next.kind is Kind.VERSION:
                out.add(v)
                continue
            if in_next is None and nxt.low not in _VALUE_PREPS and nxt.low not in {
                    "instead", "not", "and", "or", "it", "wins", "rather", "too", "as", "so",
                    "but", "because", "since", "please", "pls", "works"}:
                out.add(v)
                continue
        prev = before[-1].low if before else ""
        prev2 = before[-2].low if len(before) > 1 else ""
        if prev in {"for", "of", "in"} or (prev2 in {"for", "of", "in"}
                                           and before[-1].text[:1].isupper()):
            out.add(v)
    return out


def _claim_before(claims: Sequence[Claim], claim: Claim) -> Claim | None:
    """The claim whose value ends last before ``claim``'s starts (its statement starts
    after it), if any."""
    before = [c for c in claims if c.value.end <= claim.value.start]
    return max(before, key=lambda c: c.value.end) if before else None


# How a thing put out on a day is said: "is going out mondays", "goes live thursday".
_GOES_OUT = re.compile(r"\b(?:go|goes|going|went|gone)\s(?:out|live|up|online)$")

# How a visit or a delivery on a day is said ("coming", "arriving", "dropping by").
_COMES = re.compile(r"\b(?:coming|arriving|landing|visiting|delivering|dropping\sby|"
                    r"popping\sin)(?=$|\s)")

#: The words a reply takes a value up with ("ok", "yeah", "make it").
_REPLY_LEADS = frozenset(w for lead in BARE_LEADS for w in lead.split())


# Someone's coming or going told as it happened, right before its time ("they came down at",
# "guests turned up around", "he left at").
_NARRATED = re.compile(r"\b(?:they|he|she|we|i|guests?|people|everyone|someone|somebody)\s"
                       r"(?:came|arrived|turned\sup|showed\sup|got\s(?:there|in|here|back)|left|"
                       r"woke\sup|rolled\sin)(?:\s(?:down|up|in|back|out))?\s(?:at|on|around|"
                       r"about)$")


# What another thing's value follows when a clause says the thing asked runs into it
# ("assessment day clashes with the rescheduled carnival on the 15th").
_CLASHES = re.compile(r"\b(?:clash(?:es|ed|ing)?|conflicts?|conflicted|conflicting|overlaps?|"
                      r"overlapped|overlapping|collides?|collided)\s(?:with|w/?)\b"
                      r"(?:(?!\b(?:so|but|then|and|instead|now|moving|move)\b)[^.;!?,]){0,60}$")


def clashing(part: str, value: Value, start: int) -> bool:
    """Whether ``value`` is the time of what the clause's thing clashes with: the other
    thing's value, never one decided for it."""
    return _CLASHES.search(part[max(0, value.start - start - 80):value.start - start]
                           .lower()) is not None


def narrated(part: str, value: Value, start: int) -> bool:
    """Whether ``value`` is the time of someone's coming or going told as it happened ("3
    reviews moaning they came down at 10:05"): no value of anything planned."""
    return _NARRATED.search(part[max(0, value.start - start - 60):value.start - start]
                            .rstrip().lower()) is not None


def _states(part: str, value: Value, start: int, *, prior: Claim | None = None) -> bool:
    """Whether the clause states the value of something: "X is/at/on/to/: VALUE" (looking
    only at the words since ``prior``'s value, the one before it)."""
    if value.kind in (Kind.CHOICE, Kind.STATUS, Kind.PERSON):
        return True
    if _THEN_CLOSES.match(part, value.end - start):
        return True  # "ok thursday 7pm then"
    lead = max(0, prior.value.end - start) if prior is not None else 0
    before = part[lead: value.start - start].rstrip().lower()
    if prior is not None and prior.value.kind is Kind.PLACE and value.family == "when" \
            and not before.strip(" ,"):
        return True  # the time right after a place stated: "at the yard tues 28th 4pm"
    if value.kind is Kind.COUNT and {*before.split()[-1:], *part.lower().split()[:1]} & \
            QUANTITY_VERBS:
        # "ordering 3 mics", "we need 6 tents", "ordering model resin today, 4L": how many of
        # what the clause orders, planned
        return True
    before = re.sub(r"(?:\s|^)(?:~|about|around|approx\.?|roughly|like)$", "", before).rstrip(
        " ~")  # "burn is ~$140k/mo", "budget is about $5k"
    if before.endswith(",") and len(before) > 2:
        return True  # an apposition: "2.4 RC is up on TestFlight, build 412"
    if before and set(re.findall(r"[\w'’]{1,40}", before)) <= _REPLY_LEADS and not re.search(
            r"\w", part[value.end - start:]):
        return True  # a reply that is the value: "yeah 60s", "ok thursday"
    if value.family == "when" and _GOES_OUT.search(before):
        return True  # "lineup post is going out mondays", "ep goes live thursday"
    if value.family == "when" and (_COMES.search(before) or (
            _COMES.match(value.text) and re.search(r"\w['’](?:s|re)$", before))):
        # a visit planned: "he's coming wed between 1 and 3", "courier arriving friday 10am"
        return True
    last = re.findall(r"[\w'’→>=:-]{1,200}$", before)
    if not last:
        return False
    word = last[0]
    if word in _COPULAS or word in _VALUE_PREPS or word in {
            ":", "=", "->", "→", "set", "moved", "it's", "its", "is", "are", "due", "expires",
            "starts", "ships", "launches", "slips", "until", "as"} or word.endswith(":"):
        return True
    # A headline: a noun phrase right before its value ("Team lunch next Friday", "costume
    # contest Thursday 4pm", "All-hands this Friday 3pm").
    words = [w.lower() for w in re.findall(r"[\w'’-]{1,200}", before)]
    return (word not in STOPWORDS and word not in CLAUSE_VERBS and word not in DISCOURSE
            and word.replace("-", "").isalpha() and len(words) <= 6
            and not any(w.endswith(("ing", "ed", "ly")) and w not in _NOUN_ING
                        or w in CLAUSE_VERBS or w in _PRONOUNS or w in {"not", "no"}
                        for w in words))


# A capitalised name opening a clause, up to a comma or the clause's end.
_NAME_LED = re.compile(r"\s{0,3}(?P<v>(?:The\s|(?:Dr|Mr|Mrs|Ms|Prof|Rev)\.?\s)?[A-Z][\w'’&-]{1,24}"
                       r"(?:\s[A-Z][\w'’&-]{1,24}){0,3})"
                       # ("Speaker: Dr. Elena Alvarez on killifish": what the name is on)
                       r"(?=\s?[,;(]|\s?$|\s(?:on|about|who|talking|speaking)\s"
                       # (not a state it is in: "Ember on hold", "Dev on leave")
                       r"(?!(?:hold|track|ice|pause|time|schedule|budget|target|leave|holiday|"
                       r"hols|call|duty|site|board|it|the|a|an|my|our|his|her|their)\b)"
                       r"(?-i:[a-z]))")


def _label_led(part: str, start: int, values: tuple[Value, ...]) -> Value | None:
    """"xmas peak hire for R31: Brimbank Truck Hire, 2 x 8plt": the name right after a label
    is the label's value."""
    led = _NAME_LED.match(part)
    if led is None or is_calendar_word(led.group("v").split()[0]) or any(
            v.start < start + led.end("v") for v in values):
        return None
    at = start + led.start("v")
    return Value(Kind.CHOICE, led.group("v"), at, at + len(led.group("v")))


def _counted_subject(value: Value, subject: str) -> str:
    """What a count is about: the thing it counts where the subject is only a verb of
    getting or another item's count ("ordering 3 mics", "7 eng, 3 sales"); the subject with
    the thing counted added where it names only where they are ("comfort inn booked: 4
    rooms" → "comfort inn rooms")."""
    counted = value.text.split()[-1]
    if value.kind is not Kind.COUNT or not counted.isalpha():
        return subject
    words = subject.split()
    if all(w.lower() in QUANTITY_VERBS for w in words) or any(w.isdigit() for w in words):
        return counted
    if words and len(words) <= 3 and not set(content_terms(counted)) & set(
            content_terms(subject)):
        return f"{subject} {counted}"
    return subject
