"""The message analyzer: what one chat message says and does.

One analysis serves the offline proposer, verification and the writer's gate, so each
judgement ("is this a proposal?", "what is the value?", "what is it about?") is made once.
A message is read clause by clause. Each clause has

* a **subject**: the noun phrase it is about ("Atlas design review", "pg cutover"), taken
  from the words before its predicate, from the object of a change verb ("finance cut *the
  RI budget* to €36k"), from a label before a colon ("Outing decided: bowling alley"), or
  left empty when the clause only points back ("pushing it to Friday");
* typed **values** (:mod:`memory.analysis.values`), each with its own subject when the
  clause names several things ("maint thu 13th 22:00, engine bump to 7.1"), and the values
  named as replaced ("not the 20th", "instead of eu-west-1", "from $8,000") kept apart;
* a **change strength** from the lexicon's cue weights and a **speech act**
  (:class:`~memory.analysis.definitions.SpeechAct`).

The message adds the reason it gives ("because ...", "since ...", "X, so Y"), whether it is
a platform or bot line, and what a question asks for.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from memory.analysis.claims import Claim, Clause, MessageAnalysis
from memory.analysis.clause_parts import CHANGING, _items, _message_act, _split
from memory.analysis.clause_reader import ABSENCE_SUBJECT, ClauseReader
from memory.analysis.cue_words import CHANGE_VERBS, CONTACT_VERBS, GOT_BACK
from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import (
    AMBIGUOUS_REASON,
    DURATION_WORDS,
    Lexicon,
    default_lexicon,
)
from memory.analysis.message_patterns import _PERIOD, _QUARTER, _QUESTION_FAMILIES
from memory.analysis.reason_sentences import cause_before, notice_only, purpose_of, sentences_before
from memory.analysis.reason_words import says_no_reason
from memory.analysis.said_around import (
    circumstances,
    derived,
    given_away,
    new_of_before,
    now_said,
    praised,
    rebooked,
)
from memory.analysis.subject_phrases import (
    _TIME_WORD,
    _cut_reason,
    _has_verb,
    _label_subject,
)
from memory.analysis.values import Kind, Value, find_values, mask, tokenize
from memory.text import clean, content_terms, is_noise

__all__ = ["Claim", "Clause", "MessageAnalysis", "MessageAnalyzer"]


class MessageAnalyzer(ClauseReader):
    """Analyzes messages with one :class:`~memory.analysis.lexicon.Lexicon`.

    The last few hundred analyses are kept: the writer reads a message, then again as the
    context of the messages after it."""

    CACHE = 512

    def __init__(self, lexicon: Lexicon | None = None) -> None:
        self.lexicon = lexicon or default_lexicon()
        self._cache: OrderedDict[tuple[str, str, bool, frozenset[str]], MessageAnalysis] = (
            OrderedDict())
        self._lock = threading.Lock()

    def analyze(self, text: str, *, speaker: str = "", people: Iterable[str] = (),
                is_bot: bool = False) -> MessageAnalysis:
        """Analyze ``text`` said by ``speaker``; ``people`` are names known in its channel
        (so lower-case names in casual chat are recognised)."""
        names = frozenset(p for p in people if p)
        key = (speaker, text, is_bot, names)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        out = self._analyze(text, speaker=speaker, people=names, is_bot=is_bot)
        with self._lock:
            self._cache[key] = out
            if len(self._cache) > self.CACHE:
                self._cache.popitem(last=False)
        return out

    def only_system(self, text: str, *, speaker: str = "") -> bool:
        """Whether ``text`` is a system line with nothing of a person's own beside it
        ("uploaded a file: vax_day_flyer_v2.pdf"): no answer to any question."""
        if not self.analyze(text, speaker=speaker).system:
            return False
        lex = self.lexicon
        rest = lex.system_start.sub(" ", mask(_without_system_lines(clean(text), lex), lex))
        own = set(content_terms(speaker))  # "Lena has joined the channel"
        return not set(content_terms(rest)) - own

    def _analyze(self, text: str, *, speaker: str, people: Iterable[str],
                 is_bot: bool) -> MessageAnalysis:
        lex = self.lexicon
        raw = clean(text)[: lex.max_chars]
        known = [p for p in people if p] + ([speaker] if speaker else [])
        system = (is_bot or bool(lex.system.search(raw[:300]))
                  or bool(lex.system_start.search(raw[:200]))
                  or bool(speaker and lex.bot_speaker.search(speaker))
                  or _signed_by_integration(raw, speaker))
        masked = mask(raw, lex)
        if system or is_noise(raw) or not masked.strip():
            # "+1" alone is masked away as a value, but it still agrees.
            plus_one = not system and bool(lex.ack.match(raw.strip()))
            return MessageAnalysis(text=raw, act=SpeechAct.CONFIRMATION if plus_one
                                   else SpeechAct.CHATTER, system=system,
                                   noise=not plus_one, agrees=plus_one, speaker=speaker)
        values = find_values(masked, lex, speaker=speaker, people=known)
        people_low = frozenset(w for p in known for w in (
            p.lower(), p.lower().split()[0], re.split(r"[_.\d]", p.lower().split()[0])[0]) if w)
        clauses = _lend_change(_lend_old([_schedule_item(c, masked) for c in
                                          self._read_clauses(masked, values, people_low)]))
        clauses = new_of_before(now_said(circumstances(_it_refers_back(_named_absence(
            rebooked(given_away(praised(clauses))), speaker)), lex)))
        question = masked.rstrip().endswith("?") or any(
            c.act in (SpeechAct.QUESTION, SpeechAct.PROPOSAL) for c in clauses)
        act = _message_act(clauses)
        if clauses and clauses[0].act is SpeechAct.REMINDER and not clauses[0].claims:
            act = SpeechAct.REMINDER  # "Reminder: branch cut is tomorrow at 12:00. ..."
        head = masked.lstrip()
        opening = " ".join(head.split()[:4])
        agrees = bool(lex.ack.match(head)) or bool(lex.accept.match(opening))
        labels = {c.label.strip().lower() for c in clauses if c.label}
        explanation = " ".join(
            c.text.strip() for c in clauses
            # a clause deciding nothing ("Pixel Pit could only fit 10 setups", "Prairie is $2
            # cheaper") explains; a header ("update on flour: …") names the news, and what
            # stays the same or what readers are asked to do ("same times", "please update
            # your calendars") explains nothing
            if not any(cl.stated and not _COMPARED.match(masked, cl.value.end)
                       for cl in c.claims) and c.act is not SpeechAct.QUESTION
            and len(tokenize(c.text)) > 2 and c.text.strip().lower() not in labels
            and not says_no_reason(c.text.strip())
        )[:300] if act in CHANGING else ""
        # What a question asks for is in its asking sentences ("Big items: venue, raffle,
        # volunteers. Time: 10am-2pm like last year?" asks a time, not a person).
        asking = (" ".join(c.text for c in clauses if c.text.rstrip().endswith("?"))
                  or " ".join(c.text for c in clauses if c.act in (
                      SpeechAct.QUESTION, SpeechAct.PROPOSAL)) or masked)
        asks = frozenset(f for f, p in _QUESTION_FAMILIES if p.search(asking)) \
            if question else frozenset()
        return MessageAnalysis(
            text=raw, act=act, clauses=tuple(clauses), reason=self._reason(clauses),
            explanation=explanation, question=question, asks=asks, agrees=agrees,
            changes=lex.change_strength(masked), speaker=speaker)

    def _read_clauses(self, masked: str, values: list[Value], people_low: frozenset[str]
                      ) -> list[Clause]:
        """The message's clauses in order, each read with the label or header above it."""
        lex = self.lexicon
        clauses: list[Clause] = []
        label: tuple[int, int] | None = None
        # A header that opens the message ("Atlas: bad news. ... Go-live moves to Mon 11
        # Nov.") names what its later sentences are about, as well as the one right after.
        heading: tuple[int, int] | None = None
        spans = [(s, e, colon, item) for start, end, colon in
                 self._split_reasons(masked, _split(masked, values))
                 for s, e, colon, item in _items(masked, start, end, colon, values)]
        for start, end, colon, item in spans:
            part = masked[start:end]
            inside = tuple(v for v in values if v.start >= start and v.end <= end)
            clauses.append(self._clause(start, end, inside, label=label, masked=masked,
                                        all_values=tuple(values), heading=heading,
                                        people=people_low))
            if item:
                continue  # the items of a list share the label before it
            # A header names what follows ("Outing decided:"); a clause that states a value
            # ("the budget is $480k: three engineers ...") is elaborated, not a header.
            header = not any(v.kind is not Kind.VERSION and not v.is_year
                             and not _QUARTER.fullmatch(v.text) and not _PERIOD.fullmatch(v.text)
                             for v in inside)
            label = (start, end) if colon and header and len(tokenize(part)) <= 8 else None
            said = [t.low for t in tokenize(part)]
            if label is not None and (said[-1] in CONTACT_VERBS or said[-2:] in GOT_BACK):
                label = None  # "kai emailed: feb 9–13 …", "FAA came back: waiver approved …"
            if label is not None and not any(c.claims for c in clauses) and (
                    heading is None or _label_subject(masked, label, tuple(values))):
                heading = label  # ("ok summer trip!! proposal: ..." keeps the trip)
            elif heading is None and len(clauses) == 1 and not clauses[0].claims:
                announced = lex.announce.match(part)
                if announced is not None:  # "FROSTBYTE CUP 2024 is happening!!"
                    heading = (start + announced.start("h"), start + announced.end("h"))
                    label = heading
                elif (part.rstrip().endswith("!") and len(tokenize(part)) <= 4
                      and clauses[0].subject and not _has_verb(part)
                      and not lex.greeting.search(part.strip(" !"))):
                    heading = (start, end)  # "ok summer trip!! proposal: lisbon, july 11-18"
        return clauses

    def _split_reasons(self, text: str, spans: list[tuple[int, int, bool]]
                       ) -> list[tuple[int, int, bool]]:
        """A clause opened by a reason ("Since the review got bounced, 3.2 now ships ...")
        splits at its first comma: the reason, then the main clause."""
        out: list[tuple[int, int, bool]] = []
        for start, end, colon in spans:
            part = text[start:end]
            m = self.lexicon.reason_open.match(part.lstrip())
            comma = part.find(",")
            if m is not None and comma > m.end() and _has_verb(part[m.end():comma]):
                out.append((start, start + comma, False))
                rest = start + comma + 1
                while rest < end and text[rest] == " ":
                    rest += 1
                out.append((rest, end, colon))
            else:
                out.append((start, end, colon))
        return out


    # ---- reason ----------------------------------------------------------------------
    def _reason(self, clauses: Sequence[Clause]) -> str:
        """The reason the message gives: a clause opened by a reason word ("because",
        "since the review got bounced", "due to"), "over X" right after a change, or the
        part before ", so"."""
        lex = self.lexicon
        for i, c in enumerate(clauses):
            text = c.text.strip()
            if text.lower().startswith("so ") and i > 0:
                if purpose := purpose_of(clauses, i):
                    return purpose  # "…, so priya can do the school run": what it is for
                before = clauses[i - 1].text.strip()
                # "moving the scrim to wednesday. so it's wed + thu": a change before a
                # "so" that names no subject of its own is what "so" sums up, not its
                # reason ("her train got changed. so keynote shifts to 10:45" gives one)
                # ("raffle draw moved to 4:45 so it's before KDC go on": a "so" going on
                # about the changed thing by a pronoun sums up the change too)
                # ("first wednesday of the month from march, so wed 4th": a value worked
                # out from the one before, nothing in its way, is no reason either)
                if before and not derived(clauses[i - 1], c) and not _ACTS_ON_IT.fullmatch(
                        before) and (
                        clauses[i - 1].change <= 0 or (
                        c.subject and not _GOES_ON.match(text[3:]))):
                    # "the supplier's changing their delivery run — from next week stuff
                    # arrives thursday, so …": the part before "so" and the one before it in
                    # its sentence, when that decides nothing of its own
                    if i > 1 and _continues(clauses[i - 2], clauses[i - 1]):
                        return f"{clauses[i - 2].text.strip()} — {before}"
                    if before.endswith((".", "!")):
                        # "Tuesdays are now their events day – loud, and the big table's
                        # taken. So …": the whole sentence before a "So" opening one
                        return " — ".join(c.text.strip() for c in sentences_before(clauses, i))
                    return cause_before(clauses, i) or before
            for m in lex.reason_open.finditer(c.text):
                word = m.group(0).lower()
                rest = c.text[m.end():].strip(" ,:")
                if word in AMBIGUOUS_REASON and (not _has_verb(rest) or any(
                        v.start - c.start - m.end() in range(0, 3) for v in c.values)
                        or _TIME_WORD.match(rest)):
                    continue  # "since Monday", "after lunch": time, not a reason
                if word in ("as", "after") and c.text[:m.start()].strip() or (
                        word == "as" and _AS_NO_REASON.match(rest)):
                    continue  # ("as long as it isn't roasting": a condition, no reason)
                if rest:
                    return _cut_reason(rest, i)
            if c.change > 0:
                m2 = lex.reason_after_change.search(c.text)
                head = c.text[:m2.start()].split() if m2 is not None else []
                # "slipped a week over the crash": "over" after a measure of the change,
                # never the particle of "take over".
                if (m2 is not None and m2.group(0).lower() == "over" and head
                        and head[-1].lower() in DURATION_WORDS | {"again", "back", "out"}):
                    rest = c.text[m2.end():].strip(" ,.")
                    if rest and not any(v.start >= c.start + m2.end() for v in c.values):
                        return rest
        return ""


# Words after "as" that make it no reason ("as long as", "as soon as", "as usual").
_AS_NO_REASON = re.compile(r"(?:long|soon|well|far|much|usual|always|ever|per|if|though|planned|"
                           r"agreed|discussed|mentioned|promised|before|normal)\b", re.IGNORECASE)


# A change done to a thing named by a pronoun ("dropping it, so 10 ponds", "moved it"): the
# change itself, never the reason for what follows "so".
_ACTS_ON_IT = re.compile(
    r"(?:(?:i'?m|we'?re|i|we|i'll|we'll)\s)?(?:" + "|".join(sorted(
        CHANGE_VERBS | {"cancel", "cancelled", "canceled", "cancelling", "scrap", "scrapped",
                        "scrapping", "ditch", "ditched", "ditching", "axe", "axed", "axing",
                        "drop"}))
    + r")\s(?:it|that|this|them|those|these)\W{0,3}", re.IGNORECASE)

# The words after "so" that go on about what the clause before it changed.
_GOES_ON = re.compile(r"\s{0,5}(?:it|it's|it’s|its|that|that's|that’s|they|they're|they’re)\b",
                      re.IGNORECASE)




def _continues(earlier: Clause, part: Clause) -> bool:
    """Whether ``part`` goes on from ``earlier`` in one sentence that ``earlier`` decides
    nothing of: neither a header (``part``'s label) nor a question, and ``part`` is not
    opened by a conjunction ("… but the caterer went bust" is the whole reason)."""
    return (not part.label and not _JOINED.match(part.text.strip())
            and not notice_only(earlier.text.lower().split())
            and not earlier.text.rstrip().endswith((".", "!", "?"))
            and not any(cl.stated for cl in earlier.claims)
            and earlier.act is not SpeechAct.QUESTION)


# "… but the caterer went bust": a part opened by a conjunction is already the whole reason.
_JOINED = re.compile(r"(?:but|and|yet|though|although|tho)\b", re.IGNORECASE)
# "$2 cheaper", "10 more": an amount said as a difference, not a value set.
_COMPARED = re.compile(r"\s{1,3}(?:cheaper|dearer|more|less|fewer|extra|higher|lower|over|"
                       r"under|off)\b", re.IGNORECASE)


def _lend_old(clauses: list[Clause]) -> list[Clause]:
    """A clause that only names what is replaced ("scratch the 19th — new date is sat 26
    july", "not tuesday. thursday 3pm") lends it to the nearest clause stating a value of
    the same family: that is the decision replacing it."""
    out = list(clauses)
    for i, c in enumerate(clauses):
        if not c.old or c.claims:
            continue
        order = [*range(i + 1, len(out)), *range(i - 1, -1, -1)]
        for j in order:
            families = {cl.value.family for cl in out[j].claims}
            lent = tuple(v for v in c.old if v.family in families)
            if lent:
                out[j] = replace(out[j], old=(*out[j].old, *lent))
                break
    return out


def _lend_change(clauses: list[Clause]) -> list[Clause]:
    """A clause that only says something moved ("ok moving it.", "change of plan:") lends
    the change to the next clause when that one only states a value ("Thursday 12th,
    2pm."): the value is where it moved to, of whatever the conversation was about."""
    out = list(clauses)
    for i, c in enumerate(clauses[:-1]):
        nxt = out[i + 1]
        if (c.claims or c.change < 0.5 or c.subject or c.act in _ASKING
                or not nxt.claims or nxt.change >= c.change or nxt.act in _ASKING
                or any(cl.subject for cl in nxt.claims)):
            continue
        out[i + 1] = replace(nxt, change=c.change, pointer=True, stated=True,
                             claims=tuple(replace(cl, stated=True) for cl in nxt.claims))
    return out


_ASKING = (SpeechAct.QUESTION, SpeechAct.PROPOSAL)


def _schedule_item(clause: Clause, masked: str) -> Clause:
    """A schedule's item — a day, then a place, maybe its venue in brackets ("thu 9 oct
    bristol (lantern cellar)") — is about the place: its day and its venue are the place's
    values, not values of the list's header."""
    values = clause.values
    if len(values) < 2 or values[0].family != "when" or values[1].kind is not Kind.PLACE:
        return clause
    day, place = values[0], values[1]
    if masked[clause.start:day.start].strip() or masked[day.end:place.start].strip():
        return clause
    rest = masked[place.end:clause.end].strip()
    venue = re.fullmatch(r"\((?P<v>[^()]{2,60})\)", rest)
    if rest and venue is None:
        return clause
    subject = place.text
    terms = frozenset(content_terms(subject))
    claims = [Claim(day, subject, terms)]
    if venue is not None:
        at = masked.index(venue.group("v"), place.end)
        text = venue.group("v").strip()
        claims.append(Claim(Value(Kind.PLACE, text, at, at + len(text)), f"{subject} venue",
                            frozenset(content_terms(f"{subject} venue"))))
    return replace(clause, subject=subject, terms=terms, claims=tuple(claims), pointer=False,
                   stated=True, act=SpeechAct.DECISION)


# What a share line shares: a file name, through its extension ("uploaded a file: Screen
# Shot 2015-11-19 at 20.41.07.png", "agenda.pdf (final, meeting at 3pm)"), else up to the
# next sentence break ("shared a link: the venue map — parking is round the back").
_SHARED = re.compile(r"[ \t]{0,3}:?(?:[^\n]{0,200}?\.[A-Za-z][A-Za-z0-9]{1,4}\b"
                     r"|[^\n]{0,300}?(?=\s[.—–-]\s|\s[.—–-]$|\n|$))")


def _without_system_lines(text: str, lex: Lexicon) -> str:
    """``text`` with its system lines and what they share blanked (same length)."""
    out = text
    for m in lex.system.finditer(text):
        end = m.end()
        if m.group(0).lower().startswith(("uploaded", "shared")):
            shared = _SHARED.match(text, end)
            end = shared.end() if shared is not None else len(text)
        out = out[:m.start()] + " " * (end - m.start()) + out[end:]
    return out


def absent_one(topic: str) -> str:
    """Whose own absence a state's topic names ("Marco away on leave" → "marco"), else
    ""."""
    m = _ABSENCE_TOPIC.fullmatch(topic.strip())
    return m.group(1).lower() if m else ""


def absence_of_another(topic: str, speaker: str) -> bool:
    """Whether ``topic`` is someone's own absence and ``speaker`` is not them: only they
    say when they are away ("i can do tue 17th" in the thread of "i'm away feb 16-20"
    covers a class, it moves no absence)."""
    who = absent_one(topic)
    return bool(who) and who != (speaker.split()[0].lower() if speaker.strip() else "")


# How the state of someone's absence is named: the words people ask it by ("when is
# marco away", "when's ollie on leave").
_ABSENCE_TAIL = "away on leave"
_ABSENCE_TOPIC = re.compile(r"(\S{1,40})\s" + re.escape(_ABSENCE_TAIL))


_IT = re.compile(r"\b(?:it|that|them)\b", re.IGNORECASE)


def _it_refers_back(clauses: list[Clause]) -> list[Clause]:
    """A clause saying "it" with nothing else for a subject ("bike store is £5/month. i'd
    propose cutting it to £3") speaks of the subject of the last clause before it that
    stated a value of the same family."""
    out: list[Clause] = []
    last: dict[str, str] = {}
    header = ""
    for c in clauses:
        it = _IT.search(c.text)
        # "The demo though, it's still Thursday": a topic of its own before "it"
        named = it is not None and _TOPIC_BEFORE_IT.search(c.text[:it.start()]) is not None
        told = {**dict.fromkeys(_FAMILIES, header), **last} if header and not named else last
        if c.pointer and not c.subject and it is not None and any(
                not cl.subject and cl.value.family in told for cl in c.claims):
            claims = tuple(replace(cl, subject=told[cl.value.family],
                                   terms=frozenset(content_terms(told[cl.value.family])))
                           if not cl.subject and cl.value.family in told else cl
                           for cl in c.claims)
            c = replace(c, claims=claims)
        if (not c.claims and c.subject and c.change >= _HEADER_CHANGE and not c.old
                and len(c.text.split()) <= _HEADER_WORDS
                and not any(o.claims or o.subject for o in out)):
            # "Nets moving AGAIN 🙄 … From next week it's Thursdays": a thing said to move,
            # with no value yet, is what "it" then names
            header = c.subject
        elif c.subject and not c.claims and len(c.text.split()) <= _TOPIC_WORDS and not _has_verb(
                c.text):
            header = ""  # "Anyway the party - it's Friday": another thing named since
        for cl in c.claims:
            if cl.subject:
                last[cl.value.family] = cl.subject
        out.append(c)
    return out


_FAMILIES = ("when", "where", "who", "amount", "status", "choice")
# How long a phrase naming another thing at most is ("Anyway the party").
_TOPIC_WORDS = 4
# A topic set off before "it" in its clause ("The demo though, it's", "re the do, it's").
_TOPIC_BEFORE_IT = re.compile(r"[,–—-]\s{0,3}$|\bre\b", re.IGNORECASE)


# How strongly a clause with no value opening a message must say its thing changes to be
# what "it" names, and how short it is at most ("Nets moving AGAIN").
_HEADER_CHANGE = 0.5
_HEADER_WORDS = 5


def _named_absence(clauses: list[Clause], speaker: str) -> list[Clause]:
    """The speaker's own absence ("i'm away 20 feb - 2 mar") named after them ("Marco
    away on leave"), as the team asks of it ("what dates is marco away"); without a
    speaker, none."""
    first = speaker.split()[0] if speaker.strip() else ""
    out = []
    for c in clauses:
        if any(cl.subject == ABSENCE_SUBJECT for cl in c.claims):
            subject = f"{first} {_ABSENCE_TAIL}" if first else ""
            c = replace(c, subject=subject, terms=frozenset(content_terms(subject)),
                        claims=tuple(replace(cl, subject=subject,
                                             terms=frozenset(content_terms(subject)))
                                     if cl.subject == ABSENCE_SUBJECT else cl
                                     for cl in c.claims))
        out.append(c)
    return out


def _signed_by_integration(text: str, speaker: str) -> bool:
    """Whether a one-word speaker named in camel case opens its line with its own name and
    a colon, as integrations sign their posts ("HealthRoster: Roster change — …"); a
    person's name before a colon is a note ("Tom: moving standup to 10")."""
    name = speaker.strip()
    return (len(name) > 2 and " " not in name and any(c.isupper() for c in name[1:])
            and text.lstrip().lower().startswith(name.lower() + ":"))
