"""The people a message gives a task or a role to: hand-overs, doers, role nouns, names listed
or in brackets, and first-person claims (whose value is the speaker).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memory.analysis.cue_words import NOUN_DETERMINERS, TASK_GERUNDS
from memory.analysis.lexicon import (
    DISCOURSE,
    DOING_VERBS,
    FIRST_PERSON,
    HANDOVER_VERBS,
    OWNER_VERBS,
    OWNER_VERBS_S,
    ROLE_NOUNS,
)
from memory.analysis.person_refs import CONDITIONS, THIRD_PERSON, antecedent, named_from, steps_in
from memory.analysis.place_words import VENUE_HEADS
from memory.analysis.task_words import (
    JOURNEY_GERUNDS,
    journey,
    possessive_doer,
    takes_over_unsaid,
    verb_form,
)
from memory.analysis.value_types import Kind, Token, Value, tokenize
from memory.text import STOPWORDS, is_calendar_word

# After a name, these make it the doer of a task: "björn will drive", "Sofia is on it".
_MODALS = frozenset({"will", "'ll", "ll", "can", "to", "gonna", "should", "shall", "could",
                     "would"})


def _stands_in(toks: Sequence[Token], i: int, known: set[str]) -> bool:
    """Whether the name at ``i`` stands in for a person named just after it ("Marek from
    the agency instead of you", "Jo rather than Sam")."""
    for k in range(i + 1, min(len(toks) - 1, i + 6)):
        low = toks[k].low
        if low in {".", ";"}:
            return False
        if low == "instead" and k + 2 < len(toks) and toks[k + 1].low == "of":
            other = toks[k + 2].low
        elif low == "rather" and k + 2 < len(toks) and toks[k + 1].low == "than":
            other = toks[k + 2].low
        else:
            continue
        doing = k + 3 < len(toks) and toks[k + 3].low.endswith("ing")
        # "Zoom instead of them coming in": what replaces a person's doing is no person
        return (other in _PRONOUNS_OF and not doing) or _strip_possessive(other) in known
    return False


def _opens_phrase(toks: Sequence[Token], i: int) -> bool:
    """Whether the word at ``i`` opens what is said, after nothing but a word of assent
    ("ok Marek from the agency instead of you"), not the object of a verb ("let's use
    Zoom instead")."""
    return i == 0 or toks[i - 1].low in _ASSENT or toks[i].start - toks[i - 1].end > 1


_ASSENT = frozenset({"ok", "okay", "k", "so", "then", "right", "fine", "sure", "alright",
                     "yes", "yeah", "yep", "cool"})


# The people a name can stand in for without being named ("instead of *you*").
_PRONOUNS_OF = frozenset({"you", "me", "him", "her", "them"})


def _doer(rest: Sequence[str], *, original_case_upper: bool = False) -> bool:
    """Whether the words after a name make it the doer of a task: a third-person owner verb
    ("owns", "drives"), a modal and an owner verb ("will drive"), "is driving" / "is on", "is
    (the) primary", "takes over", "drops to secondary"."""
    if not rest:
        return False
    if rest[0] in {"still", "now", "also", "officially", "then"} and len(rest) > 1:
        rest = rest[1:]  # "Felix still owns delivery"
    first = rest[0]
    if first in OWNER_VERBS_S or steps_in(rest):
        return True
    if first in _MODALS and len(rest) > 1 and rest[1] in OWNER_VERBS:
        return True
    if first in {"is", "'s", "s"} and len(rest) > 1:
        second = rest[1]
        if second in JOURNEY_GERUNDS and journey(rest, 2):
            return False  # "Tom's driving back to Milwaukee after": a journey
        return second in DOING_VERBS or second in TASK_GERUNDS or second in ROLE_NOUNS or (
            second in {"now", "the", "our"} and len(rest) > 2 and rest[2] in ROLE_NOUNS) or (
            second == "on" and len(rest) > 2 and rest[2] in {"it", "call", "point", "duty"})
    if first in {"takes", "took", "taking"} and len(rest) > 1 and rest[1] == "over":
        return True
    if first in DOING_VERBS and first != "on" and not original_case_upper:
        # "björn driving", "Sofia presenting" (not "Bayside Hosting"; nor going somewhere:
        # "Tom's driving back to Milwaukee")
        return not (first in JOURNEY_GERUNDS and journey(rest, 1))
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
            and low not in _NOT_NAMES and not is_calendar_word(tok.text)
            and tok.text.replace("-", "").replace("'", "").isalpha())


# Agreeing or offering to do a task ("Kit has kindly agreed to take over the qualifiers",
# "Sam offered to run it"): the doer will do it.
_AGREE_VERBS = ("agreed", "offered", "volunteered")
_AGREEING = re.compile(r"(?:(?:has|have|'s|s)\s)?(?:(?:kindly|very kindly)\s)?"
                       r"(?:" + "|".join(_AGREE_VERBS) + r")\sto\s")
# The words of such a phrase, which name no doer themselves.
_AGREE_WORDS = frozenset({"has", "have", "kindly", "very", *_AGREE_VERBS})


def _agreed(rest: Sequence[str]) -> list[str]:
    """``rest`` with agreeing to do it read as "will" ("has kindly agreed to take over" →
    "will take over")."""
    m = _AGREEING.match(" ".join(rest) + " ")
    if m is None:
        return list(rest)
    return ["will", *" ".join(rest)[m.end():].split()]


def _takes_over(rest: Sequence[str]) -> bool:
    """Whether ``rest`` says its doer takes a task over ("'s taking over", "will take
    over"): whoever does that is a person or a team, known to the channel or not."""
    if rest and rest[0] in {"is", "'s", "s", "will", "'ll", "ll", "gonna", "to"}:
        rest = rest[1:]
    if len(rest) > 2 and rest[1] in {"it", "that", "them", "this"}:
        rest = [rest[0], *rest[2:]]  # "priya's taking it over"
    return len(rest) > 1 and rest[0] in {"take", "takes", "taking", "took"} and rest[1] == "over"


def _determined(toks: Sequence[Token], i: int) -> bool:
    """Whether the word at ``i`` is a thing named with a determiner ("the agency", "the new
    hire"), looking back within its phrase only."""
    for k in (i - 1, i - 2):
        if k < 0 or toks[k + 1].start - toks[k].end > 1:
            return False  # "as for the rota, priya's …": a phrase ends at the comma
        if toks[k].low in NOUN_DETERMINERS:
            return True
    return False


def _task_after(toks: Sequence[Token], i: int) -> bool:
    """Whether "X takes over" at ``i`` names a task after it ("… over lighting", "… over
    the rota"), not someone's own things ("… over my inbox") or nothing ("chaos is taking
    over, …")."""
    j = next((k for k in range(i + 1, min(len(toks), i + 6)) if toks[k].low == "over"), -1)
    if j < 0:
        return False
    if toks[j - 1].low in {"it", "that", "them", "this"}:
        return True  # "priya's taking it over": the task was named before
    if j + 1 >= len(toks) or toks[j + 1].start - toks[j].end > 1:
        return False  # "chaos is taking over, standup moved to 11"
    nxt = toks[j + 1].low
    return nxt.isalpha() and nxt not in _NO_TASK


# What follows "taking over" without naming a task: someone's own things ("my evenings"),
# everything, or time ("again", "now").
_NO_TASK = frozenset({"my", "your", "his", "her", "our", "their", "everything", "again", "now"})


def _unknown_name(tok: Token) -> bool:
    """A lower-case word that can be a name nobody has introduced ("priya", "rhys"): a
    word, no function, discourse or role word, no pronoun, no calendar word."""
    low = _strip_possessive(tok.low)
    return (len(low) >= 3 and low.isalpha() and low not in STOPWORDS and low not in DISCOURSE
            and low not in ROLE_NOUNS and low not in _NOT_NAMES and not is_calendar_word(low))


# Words for anyone or no one in particular ("everyone's taking over a bit").
_NOT_NAMES = frozenset({"everyone", "everybody", "someone", "somebody", "anyone", "anybody",
                        "nobody", "whoever", "everything", "something", "anything", "nothing"})


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
        # handing X (over) to P / assign X to P
        if low in HANDOVER_VERBS:
            out.extend(_handed_to(toks, i, known))
        # P takes over / P will drive / P is on it / P owns X
        # (a doer pattern is evidence enough for a capitalised word at a sentence start)
        rest = _agreed([t.low for t in toks[i + 1:i + 9]])[:4]
        # ("Switching catering to …", "Meeting point for …": a verb, no name)
        gerund = verb_form(tok, rest, known)
        taker = (_takes_over(rest) and _unknown_name(tok) and low not in _AGREE_WORDS
                 # "the new hire will take over": a thing named with a determiner
                 and not _determined(toks, i)
                 and _task_after(toks, i))
        # ("Cloud backup is Sun 21", "Rain backup is the hall": what the role is for, not
        # who holds it, unless the chat knows the name)
        modifies = len(rest) > 1 and rest[0] in ROLE_NOUNS and rest[1] in {"is", "was"} and (
            low not in known)
        if (_name_like(tok, known, sentence_start=False) or taker) and not modifies \
                and not gerund and _doer(
                rest,
                original_case_upper=i + 1 < len(toks) and toks[i + 1].text[:1].isupper()):
            name = _strip_possessive(tok.text)
            begin = tok.start
            if i > 0 and toks[i - 1].low + " " + low.removesuffix("'s") in known:
                begin = toks[i - 1].start  # "Priya Nair is primary now"
                out = [o for o in out if o.start != begin]
            elif taker and i > 0 and i in starts | {1} and (i - 1) in starts and _unknown_name(
                    toks[i - 1]) and "'" not in toks[i - 1].text:
                begin = toks[i - 1].start  # "rhys campbell is taking over sponsorship"
            elif tok.text not in VENUE_HEADS:
                # "Dr. Hemi Walker is stepping in" (not a venue: "Ocean Room can do Sat")
                begin = named_from(text, begin)
            out.append(Value(Kind.PERSON, text[begin:tok.start + len(name)], begin,
                             tok.start + len(name)))
            continue
        if (_name_like(tok, known, sentence_start=False) and low not in _PRONOUNS_OF
                and (low in known or _opens_phrase(toks, i)) and _stands_in(toks, i, known)):
            name = _strip_possessive(tok.text)
            out.append(Value(Kind.PERSON, name, tok.start, tok.start + len(name)))
            continue
        held = None if any(o.start == tok.start for o in out) else _held_by(toks, i, known,
                                                                             text)
        if held is not None:
            out.append(held)
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
        at = _with_me(toks, i) if speaker else None
        if at is not None:
            out.append(Value(Kind.PERSON, speaker, at.start, at.end, speaker=True))
        # "Ciara's collecting", "Lena's on minutes": a name with "'s" doing a task
        if possessive_doer(toks, i) and _name_like(tok, known, sentence_start=False) \
                and low not in _PRONOUNS_OF:
            name = _strip_possessive(tok.text)
            out.append(Value(Kind.PERSON, name, tok.start, tok.start + len(name)))
            continue
        # "Taking over the lift chasing from Declan": a sentence opening on the taking,
        # its doer left unsaid, is the speaker's
        if speaker and i in starts | {0} and takes_over_unsaid(toks, i, text) \
                and _task_after(toks, i):
            out.append(Value(Kind.PERSON, speaker, tok.start, toks[i + 1].end, speaker=True))
            continue
        # first person: "I'll own X", "X is mine", "me, ..." / "i got it"
        if speaker and low in FIRST_PERSON and _first_person(toks, i, text, starts):
            out.append(Value(Kind.PERSON, speaker, tok.start, tok.end, speaker=True))
            continue
        # "Pete has the D1 licence so he's driving": the one person named just before
        # (not on a condition: "Manny says it's ok if he takes the freeway")
        if low in THIRD_PERSON and not (i and toks[i - 1].low in CONDITIONS) \
                and _doer(["is", *rest] if low not in {"he", "she"} else rest):
            named = antecedent(toks, i, known)
            if named is not None and not any(o.start == named.start for o in out):
                name = _strip_possessive(named.text)
                out.append(Value(Kind.PERSON, name, named.start, named.start + len(name)))
    return _join_people(_dedupe(out), text)


def _held_by(toks: Sequence[Token], i: int, known: set[str], text: str = ""
             ) -> Value | None:
    """The person at ``i`` when the words around name them as holding a task: asked to take
    it ("priya could you take over badges?", "can you grab the van, kat?": a proposal until
    they accept), after a copula ("March talk is now Hye-jin", "the owner is Priya"), or as
    its possessor ("the release notes are Marcus's now")."""
    tok, low = toks[i], toks[i].low
    if low in known and _addressed(toks, i):
        return Value(Kind.PERSON, tok.text, tok.start, tok.end)
    if i > 0 and toks[i - 1].low in {"is", "now", "are"} and low in known \
            and not (_SENTENCE_BREAK.search(text, toks[i - 1].end, tok.start)
                     and text[tok.end:tok.end + 1] == ","):
        # (not a name called on across sentences: "setup is 9:30 now. Tom, ok with that?";
        # but "ok, 4th july it is. chloe hold the posters!" hands the posters to chloe)
        return Value(Kind.PERSON, tok.text, tok.start, tok.end)
    if (i > 0 and toks[i - 1].low in {"is", "are", "'s"} and low.endswith(("'s", "’s"))
            and _name_like(tok, known, sentence_start=False)):
        name = _strip_possessive(tok.text)
        return Value(Kind.PERSON, name, tok.start, tok.start + len(name))
    return None


# (an ellipsis is a pause, not an end: "the new captain is... Tom, congrats!")
_SENTENCE_BREAK = re.compile(r"(?<![.…])[.!?;](?![.…])")


def _addressed(toks: Sequence[Token], i: int) -> bool:
    """Whether the known name at ``i`` is asked to take a task: it opens a request ("priya
    could you take over badges?") or closes one ("can you cover saturday, megan?")."""
    after = [t.low for t in toks[i + 1:i + 7]]
    if _asks_to_take(after, 0) or _told_to_do(after):
        return True
    before = [t.low for t in toks[max(0, i - 7):i]]
    return i + 1 == len(toks) and any(_asks_to_take(before, k) for k in range(len(before)))


def _asks_to_take(lows: Sequence[str], k: int) -> bool:
    """Whether ``lows`` asks at ``k`` for a task to be taken ("could you (just) take …")."""
    if k + 1 >= len(lows) or lows[k] not in _ASKING or lows[k + 1] != "you":
        return False
    rest = [w for w in lows[k + 2:] if w not in _SOFTENERS]
    return bool(rest) and (rest[0] in OWNER_VERBS or rest[0] in _TAKING)


def _told_to_do(lows: Sequence[str]) -> bool:
    """Whether ``lows`` tells the one just named what they do ("ravi you're building it up w
    me wed", "megan you'll cover the desk")."""
    if lows[:2] in (["you", "are"], ["you", "will"]):
        lows = ["you're", *lows[2:]]
    if len(lows) < 2 or lows[0] not in _YOU_DO:
        return False
    return lows[1] in DOING_VERBS or lows[1] in OWNER_VERBS or lows[1] in _TAKING or (
        lows[1] == "on" and len(lows) > 2 and lows[2] not in {"your", "my", "the"})


_YOU_DO = frozenset({"you're", "you’re", "youre", "you'll", "you’ll", "youll"})
_ASKING = frozenset({"can", "could", "would", "will", "wanna"})
_SOFTENERS = frozenset({"just", "please", "pls", "plz", "maybe", "also", "possibly", "still"})
# Verbs of taking a task on besides the owner verbs ("grab the van", "pick up the keys").
_TAKING = frozenset({"grab", "pick", "sort", "look", "cover", "deal", "own", "step"})


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


def _with_me(toks: Sequence[Token], i: int) -> Token | None:
    """The "me" of "Cobalt's with me", "the keys are with me": the speaker holds it."""
    low = toks[i].low
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    if (low == "with" and nxt == "me" and i > 0
            and toks[i - 1].low in {"is", "'s", "are", "stays", "staying"}):
        return toks[i + 1]
    if (low.endswith(("'s", "’s")) and nxt == "with" and i + 2 < len(toks)
            and toks[i + 2].low == "me" and i > 0):
        return toks[i + 2]
    return None
