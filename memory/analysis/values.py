"""Typed value slots of a chat message: times, dates, ranges, places, people, versions,
regions, money, counts, named choices and cancellations.

The base patterns of :mod:`memory.text` find times, dates, versions, regions, money, numbers
and decided names; the lexicon adds ranges, ordinal days, builds, places and the patterns
of people. Adjacent parts of one moment ("Fri Oct 18" + "at 11am", "sat 15th" +
"02:00-04:00 cet") join into one value, so a revision quotes the whole of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from memory.analysis.lexicon import (
    DISCOURSE,
    FIRST_PERSON,
    HANDOVER_VERBS,
    OWNER_VERBS,
    OWNER_VERBS_S,
    PLACE_WORDS_TOO,
    ROLE_NOUNS,
    TOOL_NAMES,
    Lexicon,
    default_lexicon,
)
from memory.text import STOPWORDS, is_calendar_word


class Kind(StrEnum):
    """What kind of value a slot holds."""

    TIME = "time"
    DATE = "date"
    RANGE = "range"
    PLACE = "place"
    PERSON = "person"
    VERSION = "version"
    REGION = "region"
    MONEY = "money"
    COUNT = "count"
    CHOICE = "choice"
    STATUS = "status"


#: Kinds that can replace one another in a revision ("3 pm" → "Friday 10am"). A status
#: ("called off") ends a state of any family.
FAMILY: dict[Kind, str] = {
    Kind.TIME: "when", Kind.DATE: "when", Kind.RANGE: "when", Kind.PLACE: "where",
    Kind.REGION: "where", Kind.PERSON: "who", Kind.VERSION: "version", Kind.MONEY: "amount",
    Kind.COUNT: "amount", Kind.CHOICE: "name", Kind.STATUS: "status",
}
STATUS_FAMILY = "status"
# Which value wins where two overlap: the more specific pattern first.
_RANK: dict[Kind, int] = {
    Kind.RANGE: 0, Kind.PERSON: 1, Kind.MONEY: 2, Kind.VERSION: 2, Kind.REGION: 2,
    Kind.DATE: 3, Kind.TIME: 3, Kind.PLACE: 4, Kind.CHOICE: 5, Kind.STATUS: 5, Kind.COUNT: 6,
}
_WHEN = frozenset({Kind.TIME, Kind.DATE, Kind.RANGE})
_YEAR = re.compile(r"(?:19|20)\d{2}")
# Between two parts of one moment: spaces, commas, "at", "@", "from", "on", "the", dashes.
_WHEN_GLUE = re.compile(r"[\s,@(]{0,3}(?:(?:at|from|on|the|by|-|–)[\s,]{1,2}){0,2}",
                        re.IGNORECASE)
_PLUS_ONE = re.compile(r"(?<![\w+])\+1\b")
_FORMATTING = re.compile(r"\*{1,3}|_{2,3}|~~|`{1,3}|^\s{0,4}[•·▪◦-]\s", re.MULTILINE)
_TOKEN = re.compile(r"[\w][\w'’.-]{0,200}[\w]|[\w]|[→]|->")


@dataclass(frozen=True)
class Value:
    """One value in a message: its kind, its text as written, and where it is."""

    kind: Kind
    text: str
    start: int
    end: int
    #: A person value claimed in the first person ("I'll drive it", "push is mine now"):
    #: ``text`` is then the speaker's name, not words of the message.
    speaker: bool = False

    @property
    def family(self) -> str:
        return FAMILY[self.kind]

    @property
    def is_year(self) -> bool:
        return self.kind is Kind.DATE and bool(_YEAR.fullmatch(self.text))


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int

    @property
    def low(self) -> str:
        return self.text.lower()


def tokenize(text: str) -> list[Token]:
    """Word tokens with offsets (keeps "16.7", "eu-west-1", "don't", arrows)."""
    return [Token(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def mask(text: str, lexicon: Lexicon) -> str:
    """``text`` with markup, URLs and file names blanked out (same length, so offsets hold)."""
    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group(0))

    text = lexicon.file_name.sub(blank, lexicon.markup.sub(blank, text))
    # "+1" agrees, it is never a value; **bold**, __underline__, `code`, ~~strike~~ and
    # bullets are formatting
    return _FORMATTING.sub(blank, _PLUS_ONE.sub(blank, text))


def find_values(text: str, lexicon: Lexicon, *, speaker: str = "",
                people: Iterable[str] = ()) -> list[Value]:
    """Every value slot of ``text`` (already masked) in reading order, overlaps resolved in
    favour of the longer span and the more specific kind, parts of one moment joined."""
    found: list[Value] = []
    for kind, pattern in lexicon.slots:
        for m in pattern.finditer(text):
            group = "v" if "v" in pattern.groupindex and m.group("v") else 0
            value = m.group(group).strip()
            if not value or (kind == "count" and not _meaningful_count(value)):
                continue
            if kind == "choice" and (is_calendar_word(value.split()[0]) or all(
                    w.lower() in STOPWORDS for w in value.split())):
                continue  # "moved to Fri Oct 18" is a date
            s = m.start(group) + (len(m.group(group)) - len(m.group(group).lstrip()))
            found.append(Value(Kind(kind), value, s, s + len(value)))
    for pattern in lexicon.places:
        for m in pattern.finditer(text):
            group = "v" if "v" in pattern.groupindex and m.group("v") else 0
            value = m.group(group)
            if not _place_name(value, people):
                continue
            found.append(Value(Kind.PLACE, value, *m.span(group)))
    for m in lexicon.place_names.finditer(text):
        name = m.group("v")
        if not name[:1].isupper() and (len(name) < 5 or name in PLACE_WORDS_TOO
                                       or name.lower() != name):
            continue  # "lisbon, july 11-18" in casual chat, but never "us" or "turkey"
        # "Norway goes first" names a place; "the Lisbon support team" a team
        nxt = re.match(r"\s{1,3}([a-z][\w'-]{1,20})", text[m.end():m.end() + 24])
        if nxt is not None and nxt.group(1) not in STOPWORDS and nxt.group(1) not in _PLACE_NEXT:
            continue
        end = m.end("v")
        more = re.match(r"(?:\s[A-Z][\w'’&-]{1,24}){1,2}", text[end:end + 52])
        if more is not None:
            end += more.end()  # "London Marriott", "Lisbon Congress Centre"
        if _place_name(text[m.start("v"):end], people):
            found.append(Value(Kind.PLACE, text[m.start("v"):end], m.start("v"), end))
    found.extend(people_values(text, speaker=speaker, people=people))
    return _join_when(_resolve(found), text, lexicon)


#: Words after a place name that keep it a place ("Norway goes first", "Portugal only").
_PLACE_NEXT = frozenset({"goes", "go", "went", "wins", "won", "first", "second", "third",
                         "next", "last", "only", "instead", "again", "too", "either",
                         "works", "it", "is", "was", "then", "now", "please", "pls", "plz"})


def _meaningful_count(value: str) -> bool:
    """"30%", "3 screens", "two engineers" count; a lone "5 s" or "1x" hardly does."""
    return not re.fullmatch(r"\d\s?(?:s|x)", value, re.IGNORECASE)


def _place_name(value: str, people: Iterable[str]) -> bool:
    words = value.split()
    head = words[-1] if words else ""
    if not head or is_calendar_word(head) or head.lower() in STOPWORDS:
        return False
    if words[0].lower() in TOOL_NAMES or is_calendar_word(words[0]):
        return False
    names = {p.lower() for p in people}
    return value.lower() not in names and head.lower() not in names


def _resolve(values: list[Value]) -> list[Value]:
    """Non-overlapping values: longer spans first, then the more specific kind."""
    ordered = sorted(values, key=lambda v: (-(v.end - v.start), _RANK[v.kind], v.start))
    kept: list[Value] = []
    for v in ordered:
        if not v.text.strip():
            continue
        if any(v.start < k.end and v.end > k.start for k in kept):
            continue
        kept.append(v)
    return sorted(kept, key=lambda v: v.start)


def _join_when(values: list[Value], text: str, lexicon: Lexicon) -> list[Value]:
    """Join the parts of one moment into one value and take a trailing time zone along."""
    out: list[Value] = []
    for v in values:
        if out and out[-1].kind in _WHEN and v.kind in _WHEN and not v.is_year:
            prev = out[-1]
            glue = _WHEN_GLUE.fullmatch(text[prev.end:v.start])
            if glue is not None and v.start - prev.end <= 8:
                kind = Kind.RANGE if Kind.RANGE in (prev.kind, v.kind) else (
                    Kind.DATE if Kind.DATE in (prev.kind, v.kind) else Kind.TIME)
                end = v.end
                if "(" in text[prev.end:v.start] and text[end:end + 1] == ")":
                    end += 1  # "next Friday (the 15th)"
                out[-1] = Value(kind, text[prev.start:end].rstrip(" ,("), prev.start, end)
                continue
        out.append(v)
    for i, v in enumerate(out):
        if v.kind in _WHEN:
            tz = lexicon.timezone.match(text, v.end)
            if tz is not None:
                out[i] = replace(v, text=text[v.start:tz.end()], end=tz.end())
    return out


# ---- people ---------------------------------------------------------------------------------

# After a name, these make it the doer of a task: "björn will drive", "Sofia is on it".
_MODALS = frozenset({"will", "'ll", "ll", "can", "to", "gonna", "should", "shall", "could",
                     "would"})
_ING = frozenset({"driving", "leading", "running", "handling", "covering", "presenting",
                  "hosting", "taking", "owning", "doing", "managing", "chairing"})


def _doer(rest: Sequence[str], *, original_case_upper: bool = False) -> bool:
    """Whether the words after a name make it the doer of a task: a third-person owner verb
    ("owns", "drives"), a modal and an owner verb ("will drive"), "is driving" / "is on", "is
    (the) primary", "takes over", "drops to secondary"."""
    if not rest:
        return False
    if rest[0] in {"still", "now", "also", "officially", "then"} and len(rest) > 1:
        rest = rest[1:]  # "Felix still owns delivery"
    first = rest[0]
    if first in OWNER_VERBS_S:
        return True
    if first in _MODALS and len(rest) > 1 and rest[1] in OWNER_VERBS:
        return True
    if first in {"is", "'s", "s"} and len(rest) > 1:
        second = rest[1]
        return second in _ING or second in ROLE_NOUNS or (
            second in {"now", "the", "our"} and len(rest) > 2 and rest[2] in ROLE_NOUNS) or (
            second == "on" and len(rest) > 2 and rest[2] in {"it", "call", "point", "duty"})
    if first in {"takes", "took", "taking"} and len(rest) > 1 and rest[1] == "over":
        return True
    if first in _ING and first != "on" and not original_case_upper:
        return True  # "björn driving", "Sofia presenting" (not "Bayside Hosting")
    if first in ROLE_NOUNS:
        return True  # "bob secondary", "Dev primary next week"
    return first in {"drops", "moves", "goes", "switches"} and len(rest) > 2 and rest[1] in {
        "to", "back"} and rest[2] in ROLE_NOUNS


def _name_like(tok: Token, people: set[str], *, sentence_start: bool) -> bool:
    low = tok.low.removesuffix("'s").removesuffix("’s")
    if low in people:
        return True
    if sentence_start or not tok.text[:1].isupper():
        return False
    return (low not in STOPWORDS and low not in DISCOURSE and low not in ROLE_NOUNS
            and not is_calendar_word(tok.text)
            and tok.text.replace("-", "").replace("'", "").isalpha())


def _known(people: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for name in people:
        low = name.lower().strip()
        if not low:
            continue
        out.add(low)
        out.add(low.split()[0])
        handle = re.split(r"[_.\d]", low.split()[0])[0]  # "steph_n" is Steph
        if len(handle) >= 3:
            out.add(handle)
    return out - STOPWORDS - DISCOURSE


def people_values(text: str, *, speaker: str = "",
                  people: Iterable[str] = ()) -> list[Value]:
    """The people a message gives a task or a role to.

    Recognised: "handing X (over) to P", "P takes over (X) (from Q)", "P will drive/own/run
    X", "owner: P", "primary P", "P is secondary", "X is P's", and first-person claims ("I'll
    own X", "X is mine (now)", "me, I'll do it", "I got it"), whose value is ``speaker``. A
    person is a known name (``people``: display names seen in the channel) or a capitalised
    word where a name is expected."""
    known = _known(people)
    toks = tokenize(text)
    out: list[Value] = []
    starts = _sentence_starts(text, toks)
    for i, tok in enumerate(toks):
        low = tok.low
        nxt = toks[i + 1].low if i + 1 < len(toks) else ""
        # handing X (over) to P / assign X to P
        if low in HANDOVER_VERBS:
            out.extend(_handed_to(toks, i, known))
        # P takes over / P will drive / P is on it / P owns X
        # (a doer pattern is evidence enough for a capitalised word at a sentence start)
        if _name_like(tok, known, sentence_start=False) and _doer(
                [t.low for t in toks[i + 1:i + 5]],
                original_case_upper=i + 1 < len(toks) and toks[i + 1].text[:1].isupper()):
            name = _strip_possessive(tok.text)
            begin = tok.start
            if i > 0 and toks[i - 1].low + " " + low.removesuffix("'s") in known:
                begin = toks[i - 1].start  # "Priya Nair is primary now"
                out = [o for o in out if o.start != begin]
            out.append(Value(Kind.PERSON, text[begin:tok.start + len(name)], begin,
                             tok.start + len(name)))
            continue
        # "March talk is now Hye-jin", "the owner is Priya" (a known person after a copula)
        if (i > 0 and toks[i - 1].low in {"is", "now", "are"} and low in known
                and not any(o.start == tok.start for o in out)):
            out.append(Value(Kind.PERSON, tok.text, tok.start, tok.end))
            continue
        # "the release notes are Marcus's now"
        if (i > 0 and toks[i - 1].low in {"is", "are", "'s"} and low.endswith(("'s", "’s"))
                and _name_like(tok, known, sentence_start=False)):
            name = _strip_possessive(tok.text)
            out.append(Value(Kind.PERSON, name, tok.start, tok.start + len(name)))
            continue
        # owner: P / primary P / secondary = P / driver is P
        if low in ROLE_NOUNS and i + 1 < len(toks):
            out.extend(_role_holder(toks, i, text, known, speaker))
        # "(Callum)" after an item, "Lauren brownies, Rosa tres leches" in a sign-up list:
        # a known name alone in brackets, or opening a list item before what they bring
        if (low in known and not any(o.start == tok.start for o in out)
                and _listed_name(toks, i, text, out)):
            out.append(Value(Kind.PERSON, tok.text, tok.start, tok.end))
            continue
        # "Cobalt's with me from Monday", "the keys are with me": the speaker holds it
        if (speaker and low == "with" and nxt == "me" and i > 0
                and toks[i - 1].low in {"is", "'s", "are", "stays", "staying"}
                or speaker and low.endswith(("'s", "’s")) and nxt == "with" and i + 2 < len(toks)
                and toks[i + 2].low == "me" and i > 0):
            at = toks[i + 1] if low == "with" else toks[i + 2]
            out.append(Value(Kind.PERSON, speaker, at.start, at.end, speaker=True))
        # first person: "I'll own X", "X is mine", "me, ..." / "i got it"
        if speaker and low in FIRST_PERSON and _first_person(toks, i, text, starts):
            out.append(Value(Kind.PERSON, speaker, tok.start, tok.end, speaker=True))
    return _join_people(_dedupe(out), text)


def _handed_to(toks: Sequence[Token], i: int, known: set[str]) -> list[Value]:
    """The person after "to" in "handing X (over) to P" / "assign X to P"."""
    for j in range(i + 1, min(len(toks), i + 12)):
        if toks[j].low == "to" and j + 1 < len(toks):
            cand = toks[j + 1]
            if _name_like(cand, known, sentence_start=False):
                return [Value(Kind.PERSON, cand.text, cand.start, cand.end)]
            break
    return []


def _role_holder(toks: Sequence[Token], i: int, text: str, known: set[str],
                 speaker: str) -> list[Value]:
    """The person a role noun names: "owner: P", "primary P", "driver is P", "owner: me"."""
    tok = toks[i]
    j = i + 1
    while j < len(toks) and toks[j].low in {"is", "=", "now", "will", "be", "the"}:
        j += 1
    if j < len(toks) and j - i <= 3 and not any(
            ch in text[tok.end:toks[j].start] for ch in ",.;!?("):
        cand = toks[j]
        if _name_like(cand, known, sentence_start=False):
            end = _name_end(toks, j, text)
            return [Value(Kind.PERSON, text[cand.start:end], cand.start, end)]
        if speaker and cand.low in {"me", "i", "myself"}:
            return [Value(Kind.PERSON, speaker, cand.start, cand.end, speaker=True)]
    return []


def _listed_name(toks: Sequence[Token], i: int, text: str, out: Sequence[Value]) -> bool:
    """Whether a known name stands for what it is given: alone in brackets ("(Callum)"),
    after a label ("Face painting: Lauren.", "Lemonade: Dev + Steph") or opening a list
    item before what they bring ("Lauren brownies, Rosa tres leches")."""
    tok = toks[i]
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    gap = text[toks[i - 1].end:tok.start] if i > 0 else ""
    after = text[tok.end:tok.end + 2].lstrip()
    bracketed = gap.rstrip().endswith("(") and after.startswith(")")
    named = (":" in gap or gap.strip() in {"+", "&", "and", ","} and any(
        o.end == toks[i - 1].end for o in out)) and bool(_NAME_END.match(text, tok.end))
    listed = (("," in gap or ":" in gap or (i == 0 and text.count(", ") >= 2))
              and bool(nxt) and nxt not in STOPWORDS
              and nxt not in OWNER_VERBS and nxt not in OWNER_VERBS_S
              and nxt not in _LIST_BREAK and toks[i + 1].text[:1].islower()
              and not any(ch in text[tok.end:toks[i + 1].start] for ch in ",.;:!?("))
    return bracketed or listed or named


def _first_person(toks: Sequence[Token], i: int, text: str, starts: set[int]) -> bool:
    """Whether a first-person word claims something for the speaker: "X is mine", "I'll
    own X", "me, ..." / "me! found one"."""
    tok, low = toks[i], toks[i].low
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    if low == "mine":
        return i > 0 and toks[i - 1].low in {"is", "'s", "are"}
    if low in {"i'll", "i", "ill", "i'm", "im"}:
        return _claims(toks, i)
    if low == "me":
        return ((i in starts and (nxt in {"", "i", "i'll", "ill"}
                                  or text[tok.end:tok.end + 1] in "!.,"))
                or nxt in ROLE_NOUNS)
    return False


_NAME_END = re.compile(r"\s{0,2}(?:[.,;!?\n)]|$|\+|&|and\b)")


def _join_people(values: list[Value], text: str) -> list[Value]:
    """People named together for one task ("Dev + Steph", "Ana and Bjorn") are one value."""
    out: list[Value] = []
    for v in sorted(values, key=lambda x: x.start):
        if (out and out[-1].kind is Kind.PERSON and not out[-1].speaker and not v.speaker
                and text[out[-1].end:v.start].strip() in {"+", "&", "and"}):
            prev = out[-1]
            out[-1] = Value(Kind.PERSON, text[prev.start:v.end], prev.start, v.end)
            continue
        out.append(v)
    return out


#: Words after a name that make it the doer of a sentence, not a list item's owner.
_LIST_BREAK = frozenset({"is", "isn't", "was", "will", "can", "could", "would", "should",
                         "said", "says", "thinks", "wants", "asked", "has", "had", "and",
                         "or", "to", "too", "also", "just", "did", "does", "might", "may"})


def _claims(toks: Sequence[Token], i: int) -> bool:
    """Whether "I" at ``i`` claims a task: "I'll own", "I will drive", "I got it", "I can
    take it", "I'm on it", "I'll take sat"."""
    rest = [t.low for t in toks[i + 1:i + 4]]
    low = toks[i].low
    if low in {"i'll", "ill"}:
        return bool(rest) and rest[0] in OWNER_VERBS
    if low in {"i'm", "im"}:
        return rest[:2] in (["on", "it"], ["driving"], ["taking"]) or (
            bool(rest) and (rest[0] in {"driving", "taking", "owning", "running", "leading",
                                        "handling", "covering", "presenting", "hosting"}
                            or rest[0] in ROLE_NOUNS
                            or (rest[0] in {"the", "now"} and len(rest) > 1
                                and rest[1] in ROLE_NOUNS)))
    if not rest:
        return False
    if rest[0] in {"will", "can", "could", "should"} and len(rest) > 1:
        return rest[1] in OWNER_VERBS
    return rest[:2] in (["got", "it"], ["got", "this"], ["own"], ["own", "it"]) or (
        rest[0] in {"own", "owns", "drive", "lead", "run"})


def _name_end(toks: Sequence[Token], j: int, text: str) -> int:
    """Where a name that starts at ``toks[j]`` ends: "Big Al", "Jenny A." (one more
    capitalised word or initial right after it)."""
    end = toks[j].end
    if j + 1 < len(toks) and text[end:toks[j + 1].start] == " ":
        nxt = toks[j + 1]
        if nxt.text[:1].isupper() and (nxt.text.isalpha() and len(nxt.text) <= 12):
            end = nxt.end
            if text[end:end + 1] == "." and len(nxt.text) == 1:
                end += 1
    return end


def _strip_possessive(word: str) -> str:
    return word.removesuffix("'s").removesuffix("’s")


def _sentence_starts(text: str, toks: Sequence[Token]) -> set[int]:
    starts = {0}
    for i in range(1, len(toks)):
        gap = text[toks[i - 1].end:toks[i].start]
        if any(ch in gap for ch in ".!?:\n;"):
            starts.add(i)
    return starts


def _dedupe(values: list[Value]) -> list[Value]:
    """One value per span, and one first-person claim per message ("me, I'll do it")."""
    seen: set[tuple[int, int]] = set()
    out: list[Value] = []
    claimed = False
    for v in values:
        if (v.start, v.end) in seen or (v.speaker and claimed):
            continue
        seen.add((v.start, v.end))
        claimed = claimed or v.speaker
        out.append(v)
    return out


def value_family(value: str, source: str = "", *, lexicon: Lexicon | None = None) -> str:
    """The family of ``value`` as found in ``source`` (its message), else as it reads alone;
    "" for free text."""
    lex = lexicon or default_lexicon()
    if source:
        for v in find_values(mask(source, lex), lex):
            if v.text == value:
                return v.family
    alone = find_values(value, lex)
    if len(alone) == 1 or (alone and alone[0].start == 0):
        return alone[0].family
    return ""
