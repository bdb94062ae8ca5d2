"""A clause's subject as a phrase people would say: local words around a value, the head noun
and its modifiers, trimmed of fragments, reasons and proper names that are values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.lexicon import (
    AGENT_NOUNS,
    BARE_VERBS,
    CHANGE_LABEL_NOUNS,
    CHANGE_LABELS,
    CHANGE_VERBS,
    CLAUSE_VERBS,
    DISCOURSE,
    DURATION_WORDS,
    EVENT_NOUNS,
    FACET_NOUNS,
    HEADING_WORDS,
    LIGHT_VERBS,
    MEETING_HEADS,
    MEETING_KINDS,
    META_WORDS,
    OWNER_VERBS,
    PROCEDURAL,
    RATE_UNITS,
    ROLE_NOUNS,
    SAYING_VERBS,
    VALUE_NOUNS,
    default_lexicon,
)
from memory.analysis.message_patterns import (
    _COPULAS,
    _DETERMINERS,
    _MAX_SUBJECT_WORDS,
    _NOUN_ING,
    _PHRASE_STOP,
    _PRONOUNS,
    _QUARTER,
    _VALUE_PREPS,
    _WH,
    _content,
    _event_verb,
    _in_value,
    tokenize_at,
)
from memory.analysis.subjects import (
    PARTICLES,
    _attribute_of,
    _before_predicate,
    _object_of,
    _reporter,
    _strip_openers,
    before_be,
    strip_change_of_mind,
)
from memory.analysis.task_words import task_on
from memory.analysis.values import Kind, Token, Value
from memory.text import STOPWORDS, is_calendar_word


def _change_object(toks: Sequence[Token], values: tuple[Value, ...]) -> list[Token]:
    """What a change later in the clause is about: "given that I'd like to bump [the fair
    budget] to $2,100"."""
    for i, t in enumerate(toks):
        if t.low in CHANGE_VERBS and _verb_like(toks, i):
            obj = _object_of(toks[i + 1:], values)
            if _content(obj):
                return obj
    return []


def _for_phrase(toks: Sequence[Token], values: tuple[Value, ...]) -> list[Token]:
    """A subject named after the value: "what about eu-central-2 *for dr*?", "$15k *for
    launch ads*"."""
    for i, t in enumerate(toks):
        if t.low == "for" and i > 0 and _in_value(toks[i - 1], values):
            out: list[Token] = []
            for u in toks[i + 1:]:
                if _in_value(u, values) or u.low in _VALUE_PREPS or u.low in {
                        "instead", "and", "but", "so", "then", "because", "since"}:
                    break
                out.append(u)
            return out
    return []


# Words settling the value before them ("friday 10am works"): never its subject.
_SETTLING_WORDS = frozenset({"works", "work", "suits", "sounds", "then", "final", "fine", "wins",
                             "won"})


# Verbs saying when a thing happens, with their particles ("kicks off", "starts at"): alone
# before a value they name no subject of their own.
_TIMING_WORDS = frozenset("""kick kicks kicked kicking off start starts started starting begin
begins began beginning finish finishes finished finishing end ends ended ending at from""".split())


# Between an old value and the new one replacing it ("£140 → £150", "9am to 10am").
_TO_NEW = re.compile(r"\s{0,3}(?:→|->|=>|➡️?|>|to)\s{0,3}", re.IGNORECASE)


def replaced_by(values: Sequence[Value], v: Value, masked: str) -> Value:
    """The old value ``v`` replaces right before it ("£140 → £150"), else ``v``."""
    prev_end = max((w.end for w in values if w.end <= v.start), default=-1)
    old = next((w for w in values if w.end == prev_end and w is not v), None)
    return old if old is not None and old.kind is v.kind \
        and _TO_NEW.fullmatch(masked[old.end:v.start]) else v


def _local_words(toks: Sequence[Token], values: tuple[Value, ...], v: Value,
                 masked: str) -> list[Token]:
    """The words between the value before ``v`` (or the clause start) and ``v``, as a
    subject: "failover test + [engine] bump to 7.1", ", [secondary] li"."""
    old = replaced_by(values, v, masked)
    if old is not v:
        # "full strip-down £140 → £150": the new value is said of what its old one is
        return _local_words(toks, values, old, masked)
    prev_end = max((w.end for w in values if w.end <= v.start), default=-1)
    seg = [t for t in toks if prev_end <= t.start and t.end <= v.start]
    if seg and "," in masked[seg[-1].end:v.start]:
        seg = []  # "16 team cap, $25 entry": the words before the comma are the last item's
    if seg and prev_end >= 0 and seg[0].low == "with" and len(seg) > 1 \
            and seg[1].text[:1].isupper():
        seg = []  # "thurs 9th may with Gareth Price at Brackenhurst": who it is with names
        # the company, not what the place is of
    closed = masked.rfind(")", max(prev_end, 0), v.start)
    amounts = any(w.end == prev_end and w.kind in (Kind.MONEY, Kind.COUNT) for w in values)
    if seg and amounts and closed >= 0 and "(" in masked[prev_end:closed]:
        # "£12 (adults) and £6 for under-16s": the words in brackets name the amount
        # before ("the new booking system (Bookwise) on Mon 16 Feb" names the system)
        seg = [t for t in seg if t.start > closed]
    for i in range(len(seg) - 1, 0, -1):
        gap = masked[seg[i - 1].end:seg[i].start]
        if seg[i - 1].low == "and" or any(ch in gap for ch in "+&,/"):
            seg = seg[i:] if seg[i - 1].low != "and" else seg[i:]
            break
    last_pronoun = max((i for i, t in enumerate(seg) if t.low in _PRONOUNS), default=-1)
    seg = seg[last_pronoun + 1:]
    said = max((i for i, t in enumerate(seg) if i and t.low in SAYING_VERBS
                and _reporter(seg[:i])), default=-1)
    seg = seg[said + 1:]  # "supplier says £28 now": who said it is not the subject
    aux = next((i for i in range(1, len(seg)) if before_be(seg, i)), None)
    if aux is not None:
        seg = seg[:aux]  # "and the AGM will be held on …"
    seg = [t for i, t in enumerate(seg) if not (
        (t.low in LIGHT_VERBS or t.low in {"keep", "keeping", "stay", "stick"})
        and (i + 1 >= len(seg) or _verb_like(seg, i)))]
    seg = [t for i, t in enumerate(seg) if t.low not in _COPULAS and not (
        (t.low in CHANGE_VERBS or t.low in OWNER_VERBS) and _verb_like(seg, i))]
    if seg and all(t.low in _TIMING_WORDS for t in seg):
        seg = []  # "talk tmrw kicks off 7.45": the verb times the clause's subject
    out = _clean_subject(seg, values)
    while out and ((out[-1].low.endswith(("ing", "ed")) and out[-1].low not in _NOUN_ING)
                   or out[-1].low in CLAUSE_VERBS):
        out = out[:-1]
    if not out:
        # A list item that names its value first: "$25 entry per team", "16 team cap".
        after: list[Token] = []
        for t in toks:
            if t.start < v.end:
                continue
            if ("," in masked[(after[-1].end if after else v.end):t.start] or _in_value(
                    t, values) or t.low in _VALUE_PREPS or t.low in _COPULAS
                    or t.low in {"and", "or", "but", "so", "per", "each", "a", "an"}
                    # ("thurs 9th may with Gareth Price": the company, not the item)
                    or (t.low == "with" and masked[t.end:t.end + 2].strip()[:1].isupper())
                    or t.low in _SETTLING_WORDS
                    or t.low in _PRONOUNS):
                break
            after.append(t)
        item = _clean_subject(after, values) or _priced_per(toks, values, v, masked)
        lead = masked[max(prev_end, toks[0].start if toks else 0):v.start].strip()
        if v.kind is Kind.STATUS and all(w in DISCOURSE for w in re.findall(
                r"[\w'’]{1,20}", lead.lower())):
            lead = ""  # "ok cancelling pizza night": discourse words name nothing
        if item and (not lead or lead.endswith(",")):
            out = item
    return out


def _combine(head: str, local: str, local_toks: Sequence[Token]) -> str:
    """A short subject under a header: a name comes first ("Juniper" under "Q4 budgets" is
    "Juniper Q4 budgets"), a common noun after ("ledger-db pg upgrade window")."""
    if (local_toks and local_toks[0].text[:1].isupper() and local_toks[0].low not in ROLE_NOUNS
            and local_toks[0].low not in FACET_NOUNS):
        return f"{local} {head}"
    return f"{head} {local}"


# "'s on minutes", " is now on teas": a person put on a task, right after their name.
_PUT_ON = re.compile(r"(?:'s|’s|\sis)\s(?:now\s)?(?=on\s)")


def _role_after(toks: Sequence[Token], person: Value, masked: str = "") -> Token | None:
    """The role a person takes: "[primary] kwame", "kwame drops to [secondary]", "Sofia is
    [primary]" (never across punctuation)."""
    before = [t for t in toks if t.end <= person.start]
    if before and before[-1].low in ROLE_NOUNS and not any(
            ch in masked[before[-1].end:person.start] for ch in ",.;!?("):
        return before[-1]
    on = _PUT_ON.match(masked, person.end) if masked else None
    if on is not None:
        # "Lena's on minutes": the task she is put on
        task = task_on(toks, next((k for k, t in enumerate(toks) if t.start == on.end()),
                                  len(toks)))
        if task is not None:
            return task
    prev_end = person.end
    for t in [t for t in toks if t.start >= person.end][:4]:
        if any(ch in masked[prev_end:t.start] for ch in ",.;!?("):
            return None
        if t.low in ROLE_NOUNS:
            return t
        if t.low not in {"is", "drops", "moves", "goes", "to", "the", "now", "back", "as",
                         "becomes", "will", "be", "'s", "=", "our"}:
            return None
        prev_end = t.end
    return None


def _verb_like(toks: Sequence[Token], i: int) -> bool:
    """Whether a word that can be a noun or a verb ("push", "move") is the verb here."""
    low = toks[i].low
    if low.endswith(("ing", "ed")):
        return True
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    return (nxt in _DETERMINERS or nxt in _PRONOUNS or nxt in _VALUE_PREPS or nxt == ""
            or nxt == "with")  # "stay with GLS", "stick with the hall"


def _new_predicate(toks: Sequence[Token], values: tuple[Value, ...], v: Value) -> bool:
    """Whether the words between the value before ``v`` and ``v`` start a new statement
    (a pronoun or a verb: "they're holding back 15%")."""
    prev_end = max((w.end for w in values if w.end <= v.start), default=-1)
    seg = [t for t in toks if prev_end <= t.start and t.end <= v.start]
    return any(t.low in _PRONOUNS or t.low in CLAUSE_VERBS or (
        t.low.endswith(("ing", "ed")) and t.low not in _NOUN_ING) for t in seg)


def _head(base: str, masked: str, toks: Sequence[Token]) -> list[Token]:
    """The tokens of the clause subject ``base`` (for prefixing a local subject)."""
    if not base:
        return []
    return [Token(w, 0, 0) for w in base.split()]


def announces_a_change(said: Sequence[Token]) -> bool:
    """Whether ``said`` only announces a change ("Small change", "minor tweak", "big one":
    the pronoun heads it, naming nothing); "small" alone is a size."""
    return (any(t.low in CHANGE_LABEL_NOUNS for t in said)
            or (bool(said) and said[-1].low == "one")) and all(
        t.low in CHANGE_LABELS or t.low in CHANGE_LABEL_NOUNS or t.low in STOPWORDS
        or t.low in DISCOURSE for t in said)


_REASON_OPENERS = frozenset({"since", "because", "cos", "cause", "bc", "now", "as"})


def _label_subject(masked: str, label: tuple[int, int],
                   values: tuple[Value, ...]) -> list[Token]:
    inside = tuple(v for v in values if v.start >= label[0] and v.end <= label[1]
                   and v.kind is not Kind.VERSION and not v.is_year
                   and not _QUARTER.fullmatch(v.text))
    toks = _strip_openers(strip_change_of_mind(tokenize_at(masked, *label)))
    toks = [t for i, t in enumerate(toks) if t.low.removesuffix("'s") not in PROCEDURAL or (
        t.low.endswith("ing") and i + 1 < len(toks) and toks[i + 1].low not in PROCEDURAL
        and toks[i + 1].low not in STOPWORDS) or _names_meeting(toks, i)]  # "planning meeting:"
    if toks and (toks[0].low in _WH or toks[0].low in _PRONOUNS):
        return []  # "where we landed:", "what's locked:"
    if len(toks) > 1 and toks[0].low in CLAUSE_VERBS and toks[1].low in _DETERMINERS:
        return []  # "Hit a wall with Recruiterflow:" tells what happened, naming no subject
    if toks and toks[0].low in _REASON_OPENERS:
        return []  # "Since the booths are in:" says why, not what
    if all(t.low in HEADING_WORDS or t.low in STOPWORDS or t.low in DISCOURSE for t in toks):
        return []  # "Weekly roll-up:", "Morning notes:"
    said = tokenize_at(masked, *label)
    if announces_a_change(said):
        return []
    toks = _before_predicate(toks, inside, default_lexicon(), masked) or toks
    out = _clean_subject(toks, inside, masked, keep_meta=False)
    cut = next((i for i, t in enumerate(out) if i >= 1 and t.low in {"for", "with", "per"}),
               None)
    if cut is not None and out[cut].low == "for" and any(
            t.low in CHANGE_LABEL_NOUNS for t in said) and all(
            t.low in FACET_NOUNS or t.low in CHANGE_LABEL_NOUNS for t in out[:cut]):
        # "venue change for the semi": the semi's (its value tells which facet; "pricing
        # for the pro plan" is the pricing, announcing no change)
        thing = [t for t in out[cut + 1:] if t.low not in STOPWORDS]
        if thing:
            return thing
    return out[:cut] if cut is not None else out  # "Q4 budgets for sign-off" → "Q4 budgets"


def _names_meeting(toks: Sequence[Token], i: int) -> bool:
    """Whether ``toks[i]`` is part of a meeting's name ("status call", "sales call"), though
    "status" and "call" alone are procedural ("status:", "good call")."""
    low = toks[i].low
    if low in MEETING_KINDS and i + 1 < len(toks) and toks[i + 1].low in MEETING_HEADS:
        return True
    if low not in MEETING_HEADS or i == 0:
        return False
    before = toks[i - 1].low
    return before not in STOPWORDS and (before not in PROCEDURAL or before in MEETING_KINDS)


def _value_noun(toks: Sequence[Token], phrase: Sequence[Token],
                values: tuple[Value, ...]) -> str:
    """The kind of value named right before it after the predicate: "the release will be
    [version] 2.3" → "release version", "the review is in [room] B"."""
    if not phrase:
        return ""
    for i, t in enumerate(toks):
        if t.start <= phrase[-1].start:
            continue
        v = _in_value(t, values)
        if v is not None:
            prev = toks[i - 1].low if i > 0 else ""
            return prev if prev in VALUE_NOUNS and toks[i - 1].start > phrase[-1].end else ""
    return ""


def _event_noun(toks: Sequence[Token], phrase: Sequence[Token]) -> str:
    """The event noun of the verb right after the subject ("3.2 ships" → "ship date")."""
    if not phrase:
        return ""
    after = [i for i, t in enumerate(toks) if t.start >= phrase[-1].end]
    for i in after[:3]:
        if toks[i].low in {"now", "still", "officially", "finally", "is", "will", "'ll", "goes",
                           "go", "going", "went"}:
            continue
        return EVENT_NOUNS.get(toks[i].low, "") if _event_verb(toks, i) else ""
    return ""


#: A copula right after a word makes it a noun ("Show is confirmed", "sign's up").
_COPULA_AFTER = re.compile(r"(?:\s{1,3}(?:is|are|was|were|has\sbeen)\b|['’]s\b)", re.IGNORECASE)


def _clean_subject(toks: Sequence[Token], values: tuple[Value, ...],
                   masked: str = "", *, keep_meta: bool = True) -> list[Token]:
    """A subject phrase from raw words: no value words, no procedural words ("Outcome of
    the review" → "review"), no leading determiners or trailing prepositions, at most
    :data:`_MAX_SUBJECT_WORDS` words (cut at a preposition when longer)."""
    out = [t for i, t in enumerate(toks) if _in_value(t, values) is None
           and (t.low.removesuffix("'s").removesuffix("’s") not in PROCEDURAL
                or (keep_meta and t.low in META_WORDS and t is not toks[0])
                or (t.low.endswith("ing") and i + 1 < len(toks)  # "planning meeting"
                    and toks[i + 1].low not in PROCEDURAL and toks[i + 1].low not in STOPWORDS
                    and _in_value(toks[i + 1], values) is None)
                or _names_meeting(toks, i)
                or (t.low in {"final", "finals"} and i > 0
                    and toks[i - 1].low in {"grand", "semi", "quarter", "cup", "league"}))]
    out = _trim(out)
    if out and all(is_calendar_word(t.low.removesuffix("'s").removesuffix("’s"))
                   or t.low in CLAUSE_VERBS for t in out):
        return []  # "friday's gone too": a day said in passing is no subject
    out = _attribute_of(out)
    if out and all(t.low.isdigit() or len(t.low) == 1 for t in out):
        # "the 90 is brutal", "8 x 11 = 88": whole numbers name no subject ("2.4" does)
        return []
    if any(t.low in _FRAGMENTS for t in out):
        return []  # "n't know , I do n't": a predicate split into pieces, not a subject
    if out and out[0].low in BARE_VERBS and not _COPULA_AFTER.match(masked, out[-1].end) and (
            len(out) == 1 or out[1].low in _PRONOUNS or out[
            1].low in {"us", "everyone", "everybody", "all", "y'all", "folks"}):
        return []  # "Come to London", "see everyone on the field at 11", "join us at 6"
    if out and not _run_of(out) and all(
            t.low in _PRONOUNS or t.low in STOPWORDS or t.low in AGENT_NOUNS
                   or t.low in CLAUSE_VERBS or t.low in PARTICLES
                   or (len(out) > 1 and t.low.endswith(("ing", "ed"))
                       and t.low not in _NOUN_ING)
                   for t in out):
        return []  # "holding back", "they're": a predicate, not a subject
    if len(out) > _MAX_SUBJECT_WORDS:
        cut = next((i for i, t in enumerate(out) if i >= 2 and (
            t.low in _VALUE_PREPS or t.low in {"and", "but", "while", "when", "then"})),
            _MAX_SUBJECT_WORDS)
        out = _trim(out[:min(cut, _MAX_SUBJECT_WORDS)])
    return out


#: Pieces of split contractions ("do n't", "I 'm", "gon na"): never part of a subject.
_FRAGMENTS = frozenset({"n't", "'m", "'re", "'ll", "'ve", "'d", "na", "ta", "’m", "’re", "’ll",
                        "’ve", "’d"})


# Words counting hours rather than naming whose hours they are ("a few hours", "extra hours").
_HOUR_COUNTS = frozenset({"few", "couple", "more", "many", "several", "some", "extra", "less",
                          "fewer", "additional", "two", "three", "four", "five", "six", "seven",
                          "eight", "nine", "ten", "twelve", "half", "all", "long"})


def _hours_of(out: Sequence[Token]) -> bool:
    """Whether a subject ends in the hours of something ("saturday hours", "opening
    hours"), not in a number of hours."""
    return len(out) > 1 and out[-1].low == "hours" and out[-2].low.isalpha() \
        and out[-2].low not in _HOUR_COUNTS | _DETERMINERS | STOPWORDS | DURATION_WORDS


#: Words before "run" that make it a noun, the thing done once ("print run", "dry run").
_RUN_OF = frozenset("""print trial test dry production practice fun school first second
third final pilot dummy training delivery supply shopping milk bus sample""".split())


def _run_of(out: Sequence[Token]) -> bool:
    """Whether ``out`` ends in a run that is a thing ("print run", "shopping run")."""
    return len(out) > 1 and out[-1].low in {"run", "runs"} and out[-2].low in _RUN_OF


def _trim(out: list[Token]) -> list[Token]:
    while out and (out[0].low in _DETERMINERS or out[0].low in DISCOURSE
                   or out[0].low in STOPWORDS or out[0].low in _VALUE_PREPS):
        out = out[1:]
    while out and (out[-1].low in STOPWORDS or out[-1].low in _VALUE_PREPS
                   or out[-1].low in _DETERMINERS or (out[-1].low in DURATION_WORDS
                                                      and not _hours_of(out))
                   or out[-1].low in {"now", "again", "and", "then", "til", "till", "w",
                                      "thru"}
                   or (out[-1].low in _PRONOUN_IS and len(out) > 1)
                   or out[-1].low in CLAUSE_VERBS):  # "custom ink wants", "comes w"
        if _run_of(out):
            break  # "the first print run", "a dry run": the run is the thing
        if (len(out) > 1 and out[-1].low in {"in", "out", "up", "off"}
                and out[-2].low in _PHRASAL):
            break  # "check in 18th 3pm", "sign up closes friday"
        out = out[:-1]
    return out


#: A pronoun with its verb, which ends no subject ("the hvac guy, he's coming wed").
_PRONOUN_IS = frozenset({f"{p}{a}{v}" for p, v in (("he", "s"), ("she", "s"), ("it", "s"),
                                                   ("they", "re"), ("we", "re"))
                         for a in ("'", "’")})


#: Verbs whose particle makes a noun: "check in", "sign up", "kick off", "drop off".
_PHRASAL = frozenset({"check", "sign", "log", "kick", "set", "pick", "drop", "roll", "hand",
                      "wrap", "clean", "warm", "follow", "load", "move", "walk"})


def _render(toks: Sequence[Token], masked: str) -> str:
    """The subject as a label: its words with the message's own spacing, a sentence-initial
    capital lowered (proper names keep theirs)."""
    if not toks:
        return ""
    if toks[0].end == 0:  # tokens rebuilt from a rendered subject
        return " ".join(t.text for t in toks)
    text = masked[toks[0].start:toks[-1].end]
    text = re.sub(r"\([^()]{0,80}\)?|\)", " ", text)  # "Garnet (SSO): ..." is "Garnet"
    text = re.sub(r"\s{2,200}", " ", text).strip(" ,:-")
    if len(toks) == 1:
        text = re.sub(r"['’]s$", "", text)  # "Cobalt's with me" is about Cobalt
    first = toks[0].text
    before = re.sub(r"[^\w.!?:\n]{1,200}$", "", masked[:toks[0].start])
    sentence_start = not before or before[-1] in ".!?:\n"
    proper = len(toks) > 1 and toks[1].text[:1].isupper()
    if (sentence_start and not proper and first[:1].isupper()
            and (first[1:].islower() or len(first) == 1)):
        text = first.lower() + text[len(first):]
    return text


_TIME_WORD = re.compile(r"(?:lunch|breakfast|dinner|then|now|last|yesterday|today|this morning|"
                        r"monday|tuesday|"
                        r"wednesday|thursday|friday|saturday|sunday|\d)\b", re.IGNORECASE)


def _has_verb(rest: str) -> bool:
    words = [w.lower() for w in re.findall(r"[\w']{1,200}", rest)[:8]]
    return any(w in CLAUSE_VERBS or w.endswith("ed") or w.endswith("n't") for w in words)


def _cut_reason(rest: str, i: int) -> str:
    """A reason runs to the end of its clause; one that opens a message ("Since the review
    got bounced, 3.2 now ships ...") stops at the comma before the main clause."""
    if "," in rest and i == 0:
        head = rest.split(",", 1)[0].strip()
        if len(head.split()) >= 2:
            return head
    return rest.strip(" .")


_PROPER_WORDS = re.compile(r"\b[A-Z][a-z'’&]{2,24}\b")


_QUOTED = re.compile(r"^\s?['\"‘“](?P<q>[^'\"’”]{1,60})['\"’”]")


def _trim_phrase(phrase: str) -> str:
    quoted = _QUOTED.match(phrase)
    if quoted is not None:
        return quoted.group("q").strip()  # "Going with 'workspace' everywhere"
    out = _PHRASE_STOP.sub("", phrase.strip()).strip(" '\"")
    return " ".join(out.split()[:5])


def _priced_per(toks: Sequence[Token], values: tuple[Value, ...], v: Value,
                masked: str) -> list[Token]:
    """"$150 per classified": a price said per a thing that is no unit of rate (person,
    night, hour) names the thing priced."""
    rest = [t for t in toks if t.start >= v.end]
    if len(rest) < 2 or rest[0].low != "per" or masked[v.end:rest[0].start].strip():
        return []
    item: list[Token] = []
    for t in rest[1:]:
        gap = masked[(item[-1].end if item else rest[0].end):t.start]
        if any(ch in gap for ch in ",;+/&(") or _in_value(t, values) or t.low in STOPWORDS:
            break
        item.append(t)
    if not item or item[-1].low in RATE_UNITS or len(item) > 3:
        return []
    return _clean_subject(item, values)


def _relative_head(toks: Sequence[Token], values: tuple[Value, ...], v: Value,
                   masked: str) -> list[Token]:
    """"…, taking it out of contingency, which drops to £130": a value in a clause opened
    by "which" is said of the words just before it (up to three, after the last
    preposition or comma)."""
    prev_end = max((w.end for w in values if w.end <= v.start), default=-1)
    seg = [t for t in toks if prev_end <= t.start and t.end <= v.start]
    at = next((i for i, t in enumerate(seg) if t.low == "which"), -1)
    if at < 1 or "," not in masked[seg[at - 1].end:seg[at].start]:
        return []
    head: list[Token] = []
    for t in reversed(seg[:at]):
        if t.low in STOPWORDS or t.low in _PRONOUNS or (
                head and "," in masked[t.end:head[0].start]):
            break
        head.insert(0, t)
    return _clean_subject(head[-3:], values) if head else []

