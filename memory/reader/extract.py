"""Extractive pieces of an answer: the reason a message gives, the people it names, the
sentence and clause that answer (the time a *when* question asks for is read by
:mod:`memory.reader.when_values`).

Pure functions over text; the words they look for are data in
:mod:`memory.analysis.question_lexicon` (reasons) and the speakers of the scope (people).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memory.analysis.colour_words import colours_in
from memory.analysis.cue_words import DURATION_WORDS, EMOJI_CHARS
from memory.analysis.definitions import QuestionKind
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import REASON_CUES, SELF_WORDS
from memory.analysis.question_words import Word
from memory.analysis.reason_sentences import SAYS_WHO, greets, says_a_verb
from memory.analysis.reason_words import (
    CALENDAR_QUALIFIERS,
    CAN_DO,
    PURPOSE,
    REPORT_VERBS,
    SAMENESS,
    says_no_reason,
)
from memory.analysis.time_bounds import bound_cue
from memory.models import EvidenceNode
from memory.reader.answer import split_sentences
from memory.reader.coverage_values import asks_a_count
from memory.reader.role_named import role_named, with_self
from memory.reader.word_forms import forms, unit_forms
from memory.text import (
    STOPWORDS,
    Slot,
    SlotKind,
    find_slots,
    has_revision_cue,
    is_calendar_word,
    is_year,
)

# A message is read up to this many characters for extraction.
MAX_TEXT = 4000


@dataclass(frozen=True)
class Person:
    """A person the scope knows: the name words that identify them and how to show them."""

    name: str
    keys: frozenset[str]


def people_of(nodes: Iterable[EvidenceNode]) -> list[Person]:
    """The speakers of ``nodes``, each known by their full name's words (lower case)."""
    seen: dict[str, Person] = {}
    for n in nodes:
        if n.speaker and n.speaker not in seen:
            keys = frozenset(w.low for w in words(n.speaker) if len(w.low) > 1)
            if keys:
                seen[n.speaker] = Person(n.speaker, keys)
    return list(seen.values())


def named_people(text: str, people: Sequence[Person]) -> list[tuple[int, Person]]:
    """The people ``text`` names, with the word position of each mention."""
    out: list[tuple[int, Person]] = []
    ws = words(text[:MAX_TEXT])
    for i, w in enumerate(ws):
        low = w.low[:-2] if w.low.endswith("'s") else w.low
        found = [p for p in people if low in p.keys] or short_for(low, people)
        for p in found:
            if not any(q is p for _, q in out):
                out.append((i, p))
    return out


def short_for(low: str, people: Sequence[Person]) -> list[Person]:
    """The one person whose first name ``low`` cuts short ("sky" for Skylar, "sam" for
    Samira); none when it is a word of talk or cuts several names short."""
    if len(low) < 3 or not low.isalpha() or low in STOPWORDS or low in _NOT_SHORT \
            or is_calendar_word(low):
        return []
    found = [p for p in people if (first := p.name.split()[0].lower()).startswith(low)
             and len(first) >= len(low) + 2]
    return found if len(found) == 1 else []


# Words that begin names but are said for themselves ("max 5 per heat", "art room").
_NOT_SHORT = frozenset("""max min art pat mar kit van ray rob bill mark rose grace hope amber
ash fin jack sol dom car cat cab cam cap bar bat pen pet""".split())


def person_answer(text: str, speaker: str, people: Sequence[Person], qa: QuestionAnalysis,
                  *, whole: str = "") -> str:
    """Who ``text`` (said by ``speaker``) says does what ``qa`` asks about: the person it
    names nearest to the question's words ("primary ana, secondary bjorn" → Ana for
    "who's primary"), the speaker when they speak of themselves ("me, I'll do it") or name
    nobody else."""
    others = [(i, p) for i, p in named_people(text, people) if p.name != speaker]
    if qa.role != "proposer" and not qa.text.lower().startswith("whose"):
        # "did ben's billing ones too": the person something belongs to does not do it
        ws = words(text[:MAX_TEXT])
        others = [(i, p) for i, p in others if not _possessive(
            [w.low for w in ws[i:i + 3]])]
        # "got the Patels' key off craig": whom a thing came from no longer holds it
        lows_all = [w.low for w in ws]
        others = [(i, p) for i, p in others if not _given_by(lows_all, i)]
    if qa.role in _SPEECH_ROLES or (_PAST_DEED.search(qa.text)
                                     and _DID_IT.search(text[:MAX_TEXT])):
        # "who pulled the post?" over "Tam, I took your post down": the person addressed
        # is not the one who did it (but "Sam, I signed you up" makes Sam the one going);
        # nor is the one addressed the one saying no ("Ben, no to NexGard")
        ws = words(text[:MAX_TEXT])
        others = [(i, p) for i, p in others if not _vocative(text, ws, i)]
    if not others:
        # "judge is my mate carol": a person the chat's speakers do not cover, named
        # anywhere in the message (``whole``) the sentence is from
        named = role_named(whole or text, qa)
        if named:
            return with_self(text, named, speaker)
        # (a day is nobody: "Thursday May 21, 7pm"; nor a street after its number: "44
        # Alder Ct")
        said = text[:MAX_TEXT]
        names = [m.group() for m in _NAMES.finditer(said)
                 if not any(is_calendar_word(w) for w in m.group().split())
                 and not _NUMBER_BEFORE.search(said[max(0, m.start() - 2):m.start()])]
        return names[0] if names and not (set(words(text)) and _speaks_of_self(text)) \
            else speaker
    ws = words(text[:MAX_TEXT])
    lows = [w.low for w in ws]
    if any(w in SELF_WORDS for w in lows[:3]) and len(others) == len(named_people(text,
                                                                                   people)):
        # "me, i'll do it": speaking of themselves before anyone else
        first_other = min(i for i, _ in others)
        if first_other > 2:
            return speaker
    wanted = {f for t in qa.terms for f in forms(t)}
    anchors = [i for i, w in enumerate(lows) if forms(w) & wanted]
    if not anchors:
        return with_self(text, others[0][1].name, speaker)
    return with_self(text, min(others, key=lambda ip: min(abs(ip[0] - a) for a in anchors)
                               )[1].name, speaker)


# Roles played by what the speaker says (deciding, turning down, changing): a person
# addressed is the one told, not the one saying.
_SPEECH_ROLES = frozenset({"rejecter", "decider", "changer"})


# Two or more capitalised words: a name the scope's speakers do not cover ("Honk Squad").
# A number right before a capitalised name: an address ("44 Alder Ct"), not a person.
_NUMBER_BEFORE = re.compile(r"\d\s$")
_NAMES = re.compile(r"\b[A-Z][\w'’.-]{1,30}(?:\s[A-Z][\w'’.-]{1,30}){1,3}\b")


# The speaker saying they did something ("I took", "we've moved", "i just pushed").
_DEED = (r"(?:(?!(?:n|f|s|bl|proc|exc|succ|ind|br|sp|w)eed\b)[a-z]{2,20}ed|took|made|did|"
         r"sent|put|got|set|ran|wrote|gave|brought|bought|paid|told|left|sold|cut|shut|built|"
         r"pulled)")
_DID_IT = re.compile(
    rf"\b(?:i|we)(?:'ve|’ve| have)?\s{{1,3}}(?:(?:just|already)\s{{1,3}})?{_DEED}\b",
    re.IGNORECASE)
# A who-question about a deed done ("who pulled the post?", "who sent the quotes").
_PAST_DEED = re.compile(rf"^\W{{0,5}}who\s{{1,3}}(?:(?:just|actually|already)\s{{1,3}})?{_DEED}\b",
                        re.IGNORECASE)


def _vocative(text: str, ws: Sequence[Word], i: int) -> bool:
    """Whether the word at ``i`` addresses someone: it opens the message and a comma or a
    colon follows it ("Tam, I took …"), or it is an @-mention."""
    if i >= len(ws):
        return False
    w = ws[i]
    after = text[w.end:w.end + 1]
    return (w.start > 0 and text[w.start - 1] == "@") or (i == 0 and after in {",", ":"})


def _given_by(lows: Sequence[str], i: int) -> bool:
    """Whether the word at ``i`` names whom the speaker got something from ("got the key
    off craig", "picked the van up from joel"): a getting verb a few words before "off" or
    "from" right before it."""
    if i < 2 or lows[i - 1] not in ("off", "from"):
        return False
    return any(w in _GETTING for w in lows[max(0, i - 8):i - 1])


_GETTING = frozenset("""got get getting grabbed grab grabbing collected collect collecting
borrowed borrow borrowing picked received bought took taken""".split())


def _possessive(lows: Sequence[str]) -> bool:
    """Whether the first of ``lows`` owns the word after it ("ben's billing ones"), not
    "is" ("june's running it", "kat's on it")."""
    if not lows or not lows[0].endswith(("'s", "’s")) or len(lows) < 2:
        return False
    after = lows[1]
    if after in _AFTER_IS:
        return False
    # "-ing" then an object is a verb ("running it"); else a thing ("billing ones")
    return not (after.endswith("ing") and (len(lows) < 3 or lows[2] in _OBJECTS))


# Words after "X's" that make it "X is" or "X has".
_AFTER_IS = frozenset("""
on off in out at got gotten been gonna not also back away free busy available up down here
there the a an our my your his her their now still already just taking doing going covering
sick ill done happy fine ok okay keen""".split())
_OBJECTS = frozenset("""
it this that them the a an our my his her these those everything things now today tomorrow
tonight again too""".split())


def _speaks_of_self(text: str) -> bool:
    return any(w.low in SELF_WORDS for w in words(text[:200]))


# A "so" that says how much, after a verb of being or seeming ("was so sweet").
_INTENSIFIED = re.compile(r"\b(?:is|was|are|were|be|been|being|it['’]s|that['’]s|too|not|"
                          r"feels?|felt|looks?|looked|seems?|seemed)$", re.IGNORECASE)


# A short sentence naming a kind of reason ("budget thing.", "staffing issues", "insurance
# reasons"): said beside a decision, it is its reason.
_KIND_OF_REASON = re.compile(r"\W{0,3}(?:[\w'’-]{2,20}\s){1,2}(?:thing|things|issue|issues|"
                             r"reasons?|problems?|constraints?)\W{0,4}$", re.IGNORECASE)



def reason_in(text: str, *, value: str = "", decision: frozenset[str] = frozenset(),
              blockers: Sequence[str] = ()) -> str:
    """The reason ``text`` gives: the clause after a reason word ("because…", "since…",
    "due to…"; before "so…"); else, when the decision is known — by its ``value`` or the
    word forms of its change (``decision``) — what the message says beside it: the
    sentence after the one stating it (the one before when none follows), or the other
    clauses of that sentence ("im out sat 22nd (sister's wedding), björn will drive");
    empty when there is none."""
    text = text[:MAX_TEXT]
    sentences = split_sentences(text)
    for sentence in sentences:
        low = sentence.lower()
        for cue in REASON_CUES:
            m = re.search(rf"(?<![\w'])({re.escape(cue)})(?![\w'])", low)
            if m is None:
                continue
            if cue in ("so", "so that"):
                before = sentence[: m.start()].strip(" ,;:-—")
                after = sentence[m.end():].strip(" ,;:-—").rstrip(".!")
                if cue == "so" and _of_degree(before, after):
                    continue  # "partner flow was so sweet", "signed up so far": no consequence
                if PURPOSE.match(after) and len(words(before)) >= 2:
                    # "Kai asked to step back so he can focus on entry": the purpose is
                    # the reason, with what it is the purpose of
                    return f"{before} so {after}"
                # "moving it to wednesday, so it's wed + thu": what comes before "so" is
                # the change itself, not its reason
                # ("raffle draw moved to 4:45 so …" is the change too, and so is a value
                # said with nothing in its way: "first wednesday from march, so wed 4th")
                caused = _with_cause(sentences, sentence, before)
                if caused != before and not _states(before, value, decision):
                    return caused
                if len(words(before)) >= 3 and not _states(before, value, decision) and \
                        not (find_slots(before) and (has_revision_cue(before)
                                                     or not says(before, blockers))):
                    return before
                continue
            after = sentence[m.end():].strip(" ,;:-—")
            if len(words(after)) >= 2:
                return after.rstrip(".!")
    if not value and not decision:
        return ""
    told = [s for s in sentences if not s.rstrip().endswith("?")]
    # a header's own word ("furnace update: carrier says …") is no decision
    at = next((i for i, s in enumerate(told)
               if _states(_unheaded(s), value, decision)), -1)
    if at < 0:
        return ""
    beside = [str(told[i]).rstrip(".!") for i in [*range(at + 1, len(told)),
                                                    *range(at - 1, -1, -1)]
              if (len(words(told[i])) >= 4 or _KIND_OF_REASON.match(told[i]))
              and not _states(_unheaded(told[i]), value, decision)
              and not says_no_reason(told[i])]
    # a header before a colon ("update on flour: switching to …") names the news, not why
    stating = _HEADER.sub("", told[at], count=1)
    parts = [str(c).strip(" ,;:-—()") for c in _CLAUSES.split(stating)]
    others = sorted((c for c in parts if len(words(c)) >= 3
                     and not _states(c, value, decision) and not says_no_reason(c)),
                    key=len, reverse=True)
    # what stood in the way comes first ("the water bill went way up", "truck broke
    # down"); a sentence stating a value of its own ("half plots stay $20") is another
    # decision, said last
    candidates = beside + others
    # (an aside in brackets beside the change is said as its reason: "training moves to
    # Wednesday 7pm (rowing club has the pontoon on Tuesdays now)")
    asides = {m.group(1).strip() for m in _ASIDE.finditer(stating)
              if len(words(m.group(1))) >= 3 and says_a_verb(m.group(1))
              and not _INSTRUCTING.match(m.group(1).strip())}
    # (what one can do after it, "we can day trip to lisbon", is no reason for it)
    ranked = sorted(candidates, key=lambda c: (not says(c, blockers), c not in asides,
                                               _WHAT_NEXT.match(c) is not None,
                                               bool(find_slots(c))))
    if not ranked:
        return ""
    best = ranked[0]
    preceding = [_unheaded(str(s)).rstrip(".!") for s in told[:at]]
    if _unheaded(best) in preceding:
        # a reason told in sentences before the decision ("carrier says 3 weeks lead time.
        # elm 414 can't wait that long. switching to a Trane"): those next to it, in order
        i = preceding.index(_unheaded(best))
        run = [s for s in preceding[max(0, i - 1):] if len(words(s)) >= 3
               and not _states(s, value, decision)]
        joined = ". ".join(run)
        if best in run and len(run) > 1 and len(joined) <= _JOINED_CHARS:
            return joined
    return best


_WHAT_NEXT = re.compile(r"\W{0,3}(?:so\s)?(?:" + CAN_DO + r"|(?:we|you|i|they)(?:'ll|’ll|\s"
                        r"(?:will|might))(?!['’]?t\b|not\b))\b", re.IGNORECASE)


def _with_cause(sentences: Sequence[str], sentence: str, before: str) -> str:
    """``before`` (what comes before "so" in ``sentence``) with the sentence before it when
    ``before`` opens its sentence saying no one ("I twisted my knee. out for 3-4 weeks so I
    can't drum": being out comes of the knee)."""
    at = next((i for i, s in enumerate(sentences) if s is sentence), -1)
    if at <= 0 or not sentence.lstrip().startswith(before) \
            or not 3 <= len(words(before)) <= 6:
        return before
    # (unlike the analyzer's clause, a part opening on a number counts: "4-5 wks delivery")
    first = before.split()[0]
    if first[:1].isupper() or first.lower() in SAYS_WHO or says_a_verb(before):
        return before  # ("pitch is flooded again so …": a whole reason of its own)
    cause = str(sentences[at - 1]).strip().rstrip(".!")
    if len(words(cause)) < 3 or cause.endswith("?") or has_revision_cue(cause) \
            or greets(cause):
        return before  # (a change said before is no cause: "moving the scrim. …")
    return f"{cause} — {before}"


def explains(text: str) -> bool:
    """Whether ``text`` says something beside one statement: two or more parts of four
    words or more (sentences, or clauses set off by commas, dashes or brackets), none only
    saying what stays the same ("we're staying at St Peter's till the concert - the grand
    is too good to give up"; not "ok, migration moves to sat 26 july then. same window")."""
    parts = [p for s in split_sentences(text[:MAX_TEXT]) for p in _CLAUSES.split(s)
             if len(words(p)) >= 4 and not SAMENESS.match(p.strip())]
    return len(parts) >= 2


def _unheaded(sentence: str) -> str:
    """``sentence`` without a header that names no value ("furnace update: …"); a header
    holding one ("retro friday 4pm: half the team is away") is the decision itself."""
    m = _HEADER.match(sentence)
    return sentence[m.end():] if m is not None and not find_slots(m.group()) else sentence


def _of_degree(before: str, after: str) -> bool:
    """Whether the "so" between ``before`` and ``after`` says a degree, not a consequence:
    after a copula or "too" ("was so sweet"), or before a word of degree ("so far")."""
    return bool(_INTENSIFIED.search(before) or _NO_CONSEQUENCE.match(after))


# Words after "so" that make it no consequence ("so far", "so much", "so good").
_NO_CONSEQUENCE = re.compile(r"(?:far|much|many|long|good|sorry|glad|excited|happy|cool|nice|"
                             r"bad|keen|proud|tired|busy)\b", re.IGNORECASE)
# An aside in brackets.
_ASIDE = re.compile(r"\(([^()]{8,160})\)")
# An aside that tells readers what to do or what stays ("bring your own stands", "same
# zoom link", "see pinned msg"): no reason.
_INSTRUCTING = re.compile(r"(?:same|see|bring|check|note|pls|please|thanks|thank|ty|nb|"
                          r"don't|dont|remember|of course|as usual|obviously|typical|again|"
                          r"lol|ugh|sigh)\b", re.IGNORECASE)
# The longest reason joined from two sentences.
_JOINED_CHARS = 220


_HEADER = re.compile(r"^[^:.!?\n]{1,40}:\s")


def relayed(reason: str, text: str) -> str:
    """What a reason that only says who relayed the news relays ("Whitfields just emailed"
    → "they're in Lisbon until the 18th", the clause after it in ``text``); ``reason``
    itself otherwise."""
    frame = reason.strip(" .,:;-—–")
    if not frame or len(words(frame)) > _FRAME_WORDS or not _REPORT_END.search(frame):
        return reason
    at = text.find(frame)
    if at < 0:
        return reason
    rest = text[at + len(frame):]
    m = re.match(r"\s{0,3}(?:[-—–:,.]|\s)\s{0,3}", rest)
    content = split_sentences(rest[m.end():] if m else rest)
    told = [c for c in content if not c.rstrip().endswith("?")]
    return told[0].rstrip(".!") if told and len(words(told[0])) >= 3 else reason


# A relaying clause is short ("the council rang", "Brightline called back just now").
_FRAME_WORDS = 6
_REPORT_END = re.compile(r"(?<![\w'])(?:" + "|".join(
    re.escape(v) for v in sorted(REPORT_VERBS, key=len, reverse=True))
    + r")(?:\s(?:back|again|just now|today|this morning))?$", re.IGNORECASE)


def says(text: str, cues: Sequence[str]) -> bool:
    """Whether ``text`` holds one of ``cues`` as whole words."""
    low = text.lower()
    return any(re.search(rf"(?<![\w']){re.escape(c)}(?![\w'])", low) for c in cues)


def reports_blocker(text: str, blockers: Sequence[str]) -> bool:
    """Whether ``text`` reports something standing in the way: one of ``blockers`` as whole
    words, not negated ("yep no problem", "not busy") and not a time of the calendar ("late
    may", "late next week")."""
    low = text.lower()
    for c in blockers:
        for m in re.finditer(rf"(?<![\w']){re.escape(c)}(?![\w'])", low):
            before = low[:m.start()].split()[-1:]
            after = low[m.end():].split()[:1]
            if before and before[0] in _NEGATORS:
                continue
            if c in CALENDAR_QUALIFIERS and after and (after[0] in _PERIOD_OPENERS or (
                    is_calendar_word(re.split(r"[/.,;:!?-]", after[0])[0]))):
                continue  # "late may", "late next week": a part of a period
            return True
    return False


_NEGATORS = frozenset({"no", "not", "never", "without"})
# Words opening a period after a qualifier ("late *next* week").
_PERIOD_OPENERS = frozenset({"next", "this", "last"})


# Clause boundaries inside a sentence.
_CLAUSES = re.compile(r",\s|;\s|\s[—–-]\s|:\s|\)\s?|\s?\(|"
                      r"\s?[" + EMOJI_CHARS + r"\uFE0F]{1,8}\s")  # an emoji ends one


def _states(sentence: str, value: str, decision: frozenset[str] = frozenset()) -> bool:
    """Whether ``sentence`` states ``value``, a change word of ``decision`` or a change."""
    return (bool(value) and value.lower() in sentence.lower()) or has_revision_cue(
        sentence) or bool(decision & unit_forms(sentence))


def best_sentence(qa: QuestionAnalysis, text: str) -> str:
    """The sentence of ``text`` stating the most of the question's terms (questions count
    less); the first sentence when none holds any."""
    sentences = split_sentences(text[:MAX_TEXT]) or [text]
    wanted = [forms(t) for t in qa.terms]
    best, best_score = sentences[0], -1.0
    asked = -1.0
    for s in sentences:
        have = unit_forms(s)
        score = sum(1.0 for f in wanted if f & have)
        if s.rstrip().endswith("?"):
            asked, score = score, score - 0.5
        elif asked >= 0 and qa.kind not in (QuestionKind.WHY, QuestionKind.WHO) and \
                qa.family != "person":
            # "drinks friday for Marco's birthday? the Anchor at 6": a statement right
            # after the speaker's own question answers it
            score, asked = max(score, asked), -1.0
        else:
            asked = -1.0
        if score > best_score:
            best, best_score = s, score
    return best.strip()


def time_in(text: str, *, end: bool = False) -> str:
    """The time of day ``text`` states ("14:03", "9:30am"); with ``end``, the last one (the
    end of a range "14:03-14:38")."""
    times = [s.text for s in find_slots(text[:MAX_TEXT]) if s.kind.value == "time"]
    if not times:
        return ""
    return times[-1] if end else times[0]


# A place named after a preposition or label ("at Pixel Pit", "moves to Slover Library",
# "venue: Hatch"): capitalised words, at most four.
_PLACE = re.compile(r"(?:\b(?:at|in|to|venue|location|room)\b:?\s{1,10})"
                    r"((?:the\s)?[A-Z][\w'’&.-]{0,30}(?:\s[A-Z][\w'’&.-]{0,30}){0,3})")


def places_in(text: str) -> list[Slot]:
    """Places ``text`` names after "at", "in", "to" or a "venue:" label, as slots of kind
    name (weekdays and months are not places)."""
    out: list[Slot] = []
    for m in _PLACE.finditer(text[:MAX_TEXT]):
        name = m.group(1).strip()
        if not name or all(is_calendar_word(w) for w in name.split()):
            continue
        out.append(Slot(SlotKind.NAME, name, m.start(1), m.start(1) + len(name)))
    return out


# ---- values ---------------------------------------------------------------------------------

# Words before a value that mark it as the value replaced or turned down, not the one stated
# ("not $18k", "instead of eu-west-1", "from $8,000 to…", "said no to 3,900").
_REPLACED = re.compile(r"(?:\bnot|\binstead of|\bwas|\brather than|\bno longer|"
                       r"\bno to|\brejected|\bnot the)\s{0,40}$", re.IGNORECASE)
# "from X to Y": X is the value replaced; "from Oct 28" alone is a start, not a change
# (and so is "from stall 14 to stall 23": a number after the word it numbers).
_FROM = re.compile(r"\bfrom\s{0,40}(?:(?:the\s{1,3})?[a-z]{2,12}\s{1,3})?$", re.IGNORECASE)
_TO_AFTER = re.compile(r"^\S{0,60}(?:\s{1,10}\S{1,60}){0,3}?\s{1,10}(?:to|→|->)\s", re.IGNORECASE)


# "navy is sold out …, going with slate grey": a value said to be no longer to be had.
_LEFT_AFTER = re.compile(r"\s{0,3}(?:(?:is|are|was|were|'s|’s)\s{1,3})?(?:sold out|out of stock|"
                         r"fully booked|booked up|unavailable|discontinued)\b|"
                         r"\s{0,3}(?:is|are|was|were|'s|’s)\s{1,3}(?:full|closed|not available|"
                         r"no longer available)\b(?!\s{1,3}(?:of|for|to)\b)|"
                         # "gents 18 -> 20", "£612 → £643": what the arrow leaves
                         r"\s{0,2}(?:->|→|=>|⟶)\s{0,2}[£$€]?\d", re.IGNORECASE)


def replaced_at(text: str, start: int, end: int) -> bool:
    """Whether the value at ``text[start:end]`` is named as the one replaced."""
    before = text[max(0, start - 40): start]
    if _REPLACED.search(before) or _LEFT_AFTER.match(text[end: end + 40]):
        return True
    return bool(_FROM.search(before) and _TO_AFTER.match(text[end: end + 40]))
# A clock range right after a day ("wed 8-18", "sat 02:00-05:00").
_RANGE_AFTER = re.compile(r"\s{0,2}(\d{1,2}(?::\d{2})?\s?(?:am|pm)?\s?[-–]\s?\d{1,2}(?::\d{2})?"
                          r"\s?(?:am|pm)?)", re.IGNORECASE)
_TRAILING = " ,.;:!?)(\"'"
# "new one is ", "the new code: ", "new password's ": the value right after is the new one.
_SAID_NEW = re.compile(r"\bnew(?:\s[a-z]{1,15}){0,2}?(?:\sis|'s|’s|\swill\sbe|\s?=|:)\s{0,2}$|"
                       r"\bnew\sone\s{1,2}$", re.IGNORECASE)
# Where a part of a sentence ends: its value belongs to what that part names.
_PART_END = re.compile(r"[,;!?→]|\.(?=\s)|\s[—–-]\s")
_UNTIL = re.compile(r"\b(?:until|till|til|through|thru|expires?|valid to)\s{0,40}$", re.I)


def _said_new(before: str, asked: frozenset[str]) -> bool:
    """Whether ``before`` ends saying the value after it is the new one of what is asked:
    "new one is", "the new code:", "new password's" — not a new thing of another name
    ("Monthly subs are £25, new joiners: £15" asked of the subs)."""
    m = _SAID_NEW.search(before)
    if m is None:
        return False
    named = [w for w in re.findall(r"[a-z]{2,15}", m.group(0).lower())
             if w not in {"new", "is", "will", "be", "one"}]
    return all(forms(w) & asked or w in _NEW_OF_ANY for w in named)


# What "new …" names of any thing asked about: its code, password, number or the like.
_NEW_OF_ANY = frozenset({"code", "password", "pw", "pin", "number", "date", "time", "day",
                         "price", "venue", "address", "login", "link", "value", "figure"})


def typo_named(node: EvidenceNode, replaced: str) -> bool:
    """Whether ``node`` was edited and names ``replaced`` after "not" ("14 not 41", "(not
    153, fat fingers)"): the typo the edit corrected, not an earlier value."""
    if not node.edited:
        return False
    digits = re.sub(r"[^\d.:]", "", replaced) or replaced
    return re.search(rf"\bnot\s{{1,3}}\W?{re.escape(digits)}(?![\d])", node.text,
                     re.IGNORECASE) is not None


def _part_ends(sentence: str, slots: Sequence[Slot]) -> list[int]:
    """Where the parts of ``sentence`` end, a part holding nothing but a moment and
    linking words joined to the next."""
    blanked = list(sentence)
    for sl in slots:
        blanked[sl.start:sl.end] = " " * (sl.end - sl.start)
    bare = "".join(blanked)  # the sentence without its moments
    ends: list[int] = []
    start = 0
    for m in _PART_END.finditer(sentence):
        if any(w.low not in STOPWORDS for w in words(bare[start:m.start()])):
            ends.append(m.end())
            start = m.end()
    return ends


def term_positions(qa: QuestionAnalysis, text: str) -> list[int]:
    """Character offsets of the question's words in ``text``."""
    wanted = {f for t in qa.terms for f in forms(t)}
    return [w.start for w in words(text) if forms(w.low) & wanted]


_DURATION_WORDS = r"(?:" + "|".join(sorted(DURATION_WORDS - {"bit", "little", "couple", "while"},
                                            key=len, reverse=True)) + r"|hrs?|secs?)\b"
# "starts in 15 min", not "50 month-long trials"
_DURATION_AFTER = re.compile(r"\s?" + _DURATION_WORDS + r"(?!-)", re.IGNORECASE)
_DURATION_ASKED = re.compile(r"\b" + _DURATION_WORDS, re.IGNORECASE)


# A secret as a value: the token SECRET_VALUE finds, without the words leading to it.
_SECRET_TOKEN = re.compile(r"(?<![\w@#])(?=[^\s,;]{0,40}[A-Za-z])(?=[^\s,;]{0,40}\d)"
                           r"[A-Za-z\d][^\s,;()]{4,39}(?<![.!?])")


# What leads up to a number that labels a thing ("#10 bolts", "order #RV-88213").
_LABEL_BEFORE = re.compile(r"#[\w-]{0,10}$")


def value_in(qa: QuestionAnalysis, sentence: str, kinds: Sequence[str]) -> tuple[str, str]:
    """The value of one of the slot ``kinds`` that ``sentence`` states nearest the
    question's words, and a value it names as replaced ("not $18k", "instead of
    eu-west-1"); empty strings when there is none."""
    if not kinds:
        return "", ""
    slots = [sl for sl in find_slots(sentence) if sl.kind.value in kinds]
    if "name" in kinds or "place" in kinds:
        slots += places_in(sentence)
    if "colour" in kinds:
        slots += colours_in(sentence)
    if "secret" in kinds:
        # "New guest wifi pw: LeithTide26": the code or password itself, as written
        # (a time, a date, a price or a version written so is no secret: "9:30pm")
        slots += [Slot(SlotKind.NAME, m.group(0), m.start(), m.end())
                  for m in _SECRET_TOKEN.finditer(sentence[:MAX_TEXT])
                  if not find_slots(m.group(0))]
    # a bare year ("FROSTBYTE CUP 2024") is a value only when nothing else is
    slots = [sl for sl in slots if not is_year(sl)] or [sl for sl in slots
                                                        if "date" not in kinds or
                                                        len(kinds) == 1]
    if asks_a_count(qa) and not _DURATION_ASKED.search(qa.text):
        # "starts in 15 min" measures time: no count of the rooms asked about; nor does
        # a label ("1 pack #10 bolts", "order #88213")
        slots = [sl for sl in slots if sl.kind.value != "number"
                 or not (_DURATION_AFTER.match(sentence, sl.end)
                         or _LABEL_BEFORE.search(sentence[max(0, sl.start - 12):sl.start]))]
    if not slots:
        return "", ""
    asked = unit_forms(" ".join([*qa.named, *qa.terms]))
    slots = [sl for sl in slots if not unit_forms(sl.text) <= asked] or []
    stated = [sl for sl in slots if not replaced_at(sentence, sl.start, sl.end)]
    replaced = [sl for sl in slots if replaced_at(sentence, sl.start, sl.end)]
    anchors = term_positions(qa, sentence)
    ending = bound_cue(qa.text)[0] == "end"

    def nearest(cands: Sequence[Slot]) -> str:
        if not cands:
            return ""
        # "someone posted seashell2025 … new one is tidepool88": the value said to be the
        # new one is the one the sentence gives
        cands = [sl for sl in cands if _said_new(
            sentence[max(0, sl.start - 30):sl.start], asked)] or cands
        if ending and len(cands) > 1:
            best = cands[-1]
        elif not anchors:
            best = cands[0]
        else:
            # (by the nearer end: "0.75 lb/bbl el dorado" is the el dorado's, not "1 lb")
            best = min(cands, key=lambda sl: min(min(abs(sl.start - a), abs(sl.end - a))
                                                 for a in anchors))
        return best.text.strip(_TRAILING)

    return nearest(stated), nearest(replaced)
