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
from dataclasses import dataclass, replace

from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import (
    AGENT_NOUNS,
    AMBIGUOUS_REASON,
    ATTRIBUTE_NOUNS,
    BARE_VERBS,
    CHANGE_VERBS,
    CHOICE_NOUNS,
    CLAUSE_VERBS,
    DISCOURSE,
    DURATION_WORDS,
    EVENT_BASE_FORMS,
    EVENT_NOUNS,
    FACET_NOUNS,
    HANDOVER_VERBS,
    HEADING_WORDS,
    LIGHT_VERBS,
    META_WORDS,
    OWNER_VERBS,
    OWNER_VERBS_S,
    PROCEDURAL,
    REQUEST_OPENERS,
    ROLE_NOUNS,
    VALUE_NOUNS,
    Lexicon,
    default_lexicon,
)
from memory.analysis.values import Kind, Token, Value, find_values, mask, tokenize
from memory.text import STOPWORDS, clean, content_terms, is_calendar_word, is_noise

# Clause boundaries: sentence ends, new lines, semicolons, "label:", spaced dashes, emoji
# between words, and ", so" / ", but" (a consequence or a contrast starts a new clause).
_SPLIT = re.compile(
    r"(?<=[.!?])\s{1,8}|\n{1,8}|;\s{1,8}|(?P<colon>:)\s{1,8}|\s{1,4}[—–-]\s{1,4}|"
    r"\s{1,4}[\u2600-\u27BF\U0001F300-\U0001FAFF]{1,8}(?:\s{1,4}|$)|"
    r",\s(?=(?:so|but|and|any chance|can we|could we|should we|how about|what about|pls|"
    r"please|plz)\b)|"
    # ", we keep 3.0 for the redesign": a new sentence joined by a comma
    r",\s(?=(?:we|they)\s(?:keep|will|can|should|need|have|are|were|stay|move|push|go|use|"
    r"do|did|got|get|want|save|hold)\b|(?:we|they)['’](?:ll|re)\s)|"
    r"\s(?=so\s(?:i|we|you|they|it|that)\b)|(?<!what)\s(?=(?:if|unless|once|as long as)\s)|"
    r"\s(?=but\s(?:i|i'm|im|we|we're|they|they're|you|it|it's|that)\b)",
    re.IGNORECASE,
)
# A value under a negation is not what was decided ("cleansing won't be finished before the
# 8th"); "not X" right before the value marks a replaced value instead (handled apart).
_NEGATED = re.compile(r"\b(?:won't|wont|isn't|isnt|aren't|can't|cannot|couldn't|doesn't|don't|"
                      r"not\s(?:be|going|ready|finished|done|happening))\b", re.IGNORECASE)
# The speaker's own affairs: "I have a dentist appointment at 2", "I'm flying to Austin".
_PERSONAL = re.compile(r"^\W{0,3}(?:[\w']{1,12},?\s){0,3}?(?:i\s(?:have|had|am|was|got|need|"
                       r"might|may|won't|can't|cannot)|i've|i'm|im|i'd|my)\b", re.IGNORECASE)
_PERIOD = re.compile(r"(?:this|next|last)\s(?:week|month|sprint|shift|rotation)|today|"
                     r"tomorrow|tonight", re.IGNORECASE)
# A clause opened by these is a condition: its values are not decided.
_CONDITIONAL = re.compile(r"^\s{0,3}(?:if|unless|once|as long as|in case)\b", re.IGNORECASE)
_COPULAS = frozenset({"is", "are", "was", "were", "be", "will", "'ll", "ll", "=", "goes",
                      "go", "stays", "remains", "becomes", "gets", "it's", "its", "now",
                      "should", "would", "has", "have", "had", "moves", "shall", "isn't",
                      "aren't", "won't", "can't", "needs", "need", "'s"})
_VALUE_PREPS = frozenset({"on", "at", "for", "in", "to", "until", "till", "til", "by",
                          "from", "into", "around", "→", "->", "@", "of", "before", "after"})
_DETERMINERS = frozenset({"the", "a", "an", "our", "my", "your", "their", "his", "her",
                          "its", "this", "that", "these", "those", "some", "any", "same",
                          "whole", "all"})
_PRONOUNS = frozenset({"it", "that", "this", "they", "them", "these", "those", "we", "you",
                       "he", "she", "i", "me", "one", "everything", "things", "stuff",
                       "which", "what", "who", "who's", "what's", "where", "when", "that'll",
                       "it'll", "that's", "it's", "there's", "this'll", "we'll", "they'll",
                       "they're", "we're", "you're", "i'll", "i'm", "here's", "im", "ive",
                       "ill", "id", "u", "ur", "us", "him", "her", "myself",
                       "yourself", "ourselves", "somebody", "someone", "anyone", "anybody",
                       "nobody", "everybody", "everyone"})
_STOP_WORDS = frozenset({"decided", "confirmed", "locked", "set", "scheduled", "booked",
                         "approved", "planned", "cancelled", "canceled", "postponed", "mine",
                         "yours", "done", "keep", "keeping", "stays", "staying", "stay",
                         "stick", "sticking", "remain", "remains", "says", "said",
                         "expires", "due", "mind", "usual", "always", "normal"})
_MAX_SUBJECT_WORDS = 6
_OLD_BEFORE = ("instead of", "rather than", "not", "no longer", "replacing", "used to be",
               "(not", "and not")
_QUESTION_FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("who", re.compile(r"\b(?:who|whom|whose|who's)\b|\b(?:any|some)(?:one|body)\s(?:else\s)?"
                       r"(?:can|could|want|wants|free|available|able|willing|take|got)\b|"
                       r"\b(?:can|could|would)\s(?:any|some)(?:one|body)\b|\bvolunteers?\b",
                       re.IGNORECASE)),
    ("when", re.compile(r"\b(?:when|when's|what time|what day|what date|which day|how long|"
                        r"deadline|till when|until when)\b", re.IGNORECASE)),
    ("where", re.compile(r"\b(?:where|where's|which room|what room|which venue|what venue|"
                         r"which region|what region|which place)\b", re.IGNORECASE)),
    ("amount", re.compile(r"\b(?:how much|how many|what budget|what's the budget|cost|price|"
                          r"budget)\b", re.IGNORECASE)),
    ("version", re.compile(r"\b(?:which version|what version|which build|what build|"
                           r"which release)\b", re.IGNORECASE)),
)
_CHOICE_AFTER = re.compile(
    r"\b(?:going with|go with|went with|going w/|go w/|trying|try|decided on|settled on|picked|"
    r"chose|choosing|"
    r"switching to|switch to|switched to|we're doing|we are doing|let's do|lets do|"
    r"stay on|stay with|stick with|sticking with|staying with|stays with|renamed to|"
    r"calling it|winner is|how about|what about|maybe|vote for|i vote|i'd vote for|proposing|"
    r"propose|suggest|we do|we try|we use|we pick|book|hire|rent from|order from)"
    r"\s(?P<v>[^.,;!?()\n]{1,60})",
    re.IGNORECASE)
# After a change to something, a name is its new value: "Changing the venue to Manchester".
_TO_NAME = re.compile(r"\b(?:to|→|->)\s(?:the\s)?(?P<v>(?:The\s)?[A-Z][a-zA-Z'’&]{1,24}"
                      r"(?:\s[A-Z][a-zA-Z'’&]{1,24}){0,2})\b")
# "Norway goes first, not Sweden": a name replaced by another.
_NOT_NAME = re.compile(r"\b(?:not|instead of|rather than)\s(?P<v>[A-Z][a-zA-Z'’&]{1,24})\b")
# "first market is Sweden", "the winner is Honk": a name stated as the value.
_IS_NAME = re.compile(r"\b(?:is|are|was|=|:)\s(?P<v>(?:The\s)?[A-Z][a-zA-Z'’&]{1,24}"
                      r"(?:\s[A-Z][a-zA-Z'’&]{1,24}){0,2})\s?(?=[.!;,)]|$)")
_PHRASE_STOP = re.compile(
    r"\s(?:instead|because|since|for|so|and|but|as|over|from|due|until|till|to|at|on|"
    r"this|next|it|is|will|then|now|with|in|by)\b.{0,200}$", re.IGNORECASE)


@dataclass(frozen=True)
class Claim:
    """One value a clause states, with what it is about."""

    value: Value
    subject: str
    terms: frozenset[str]
    #: Said outright ("X is V", "X: V", "X V" as a headline, after a change), not in passing.
    stated: bool = True
    #: Words of the header that opened the message ("Atlas: ... go-live moves to Nov 11").
    scope: frozenset[str] = frozenset()
    #: That header when it names a thing ("Fjord"), to label a subject it does not name.
    heading: str = ""


@dataclass(frozen=True)
class Clause:
    """One clause of a message (offsets are into the message text)."""

    start: int
    end: int
    text: str
    label: str = ""
    subject: str = ""
    terms: frozenset[str] = frozenset()
    claims: tuple[Claim, ...] = ()
    old: tuple[Value, ...] = ()
    act: SpeechAct = SpeechAct.CHATTER
    change: float = 0.0
    #: The clause points back at something named elsewhere ("pushing it to Friday").
    pointer: bool = False
    #: A decision said outright (a cue, a label, a change, "X is V"), not a passing mention.
    stated: bool = False

    @property
    def values(self) -> tuple[Value, ...]:
        return tuple(c.value for c in self.claims)


@dataclass(frozen=True)
class MessageAnalysis:
    """What a message says and does."""

    text: str
    act: SpeechAct
    clauses: tuple[Clause, ...] = ()
    reason: str = ""
    #: Sentences of a changing message that carry no value: its likely explanation.
    explanation: str = ""
    system: bool = False
    noise: bool = False
    question: bool = False
    #: Value families a question asks for ("who's got it?" → {"who"}).
    asks: frozenset[str] = frozenset()
    #: Agrees with what it answers ("sure", "ok let's do that", "+1").
    agrees: bool = False
    #: The strongest change cue anywhere in the message ("ok moving it" names a change).
    changes: float = 0.0
    speaker: str = ""

    @property
    def subject(self) -> str:
        """The first subject any clause names."""
        return next((c.subject for c in self.clauses if c.subject), "")

    @property
    def terms(self) -> frozenset[str]:
        out: set[str] = set()
        for c in self.clauses:
            out |= c.terms
            for claim in c.claims:
                out |= claim.terms
        return frozenset(out)

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(cl for c in self.clauses for cl in c.claims)

    @property
    def values(self) -> tuple[Value, ...]:
        return tuple(cl.value for cl in self.claims)


class MessageAnalyzer:
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

    def _analyze(self, text: str, *, speaker: str, people: Iterable[str],
                 is_bot: bool) -> MessageAnalysis:
        lex = self.lexicon
        raw = clean(text)[: lex.max_chars]
        known = [p for p in people if p] + ([speaker] if speaker else [])
        system = (is_bot or bool(lex.system.search(raw[:300]))
                  or bool(lex.system_start.search(raw[:200]))
                  or bool(speaker and lex.bot_speaker.search(speaker)))
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
            if label is not None and not any(c.claims for c in clauses) and (
                    heading is None or _label_subject(masked, label, tuple(values))):
                heading = label  # ("ok summer trip!! proposal: ..." keeps the trip)
            elif heading is None and len(clauses) == 1 and not clauses[0].claims:
                announced = lex.announce.match(part)
                if announced is not None:  # "FROSTBYTE CUP 2024 is happening!!"
                    heading = (start + announced.start("h"), start + announced.end("h"))
                    label = heading
                elif (part.rstrip().endswith("!") and len(tokenize(part)) <= 4
                      and clauses[0].subject and not _has_verb(part)):
                    heading = (start, end)  # "ok summer trip!! proposal: lisbon, july 11-18"
        question = masked.rstrip().endswith("?") or any(
            c.act in (SpeechAct.QUESTION, SpeechAct.PROPOSAL) for c in clauses)
        act = _message_act(clauses)
        if clauses and clauses[0].act is SpeechAct.REMINDER and not clauses[0].claims:
            act = SpeechAct.REMINDER  # "Reminder: branch cut is tomorrow at 12:00. ..."
        head = masked.lstrip()
        opening = " ".join(head.split()[:4])
        agrees = bool(lex.ack.match(head)) or bool(lex.accept.match(opening))
        explanation = " ".join(
            c.text.strip() for c in clauses
            if not c.claims and c.act is not SpeechAct.QUESTION and len(tokenize(c.text)) > 2
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

    # ---- clauses ----------------------------------------------------------------------
    def _clause(self, start: int, end: int, values: tuple[Value, ...], *,
                label: tuple[int, int] | None, masked: str,
                all_values: tuple[Value, ...] = (),
                heading: tuple[int, int] | None = None,
                people: frozenset[str] = frozenset()) -> Clause:
        lex = self.lexicon
        part = masked[start:end]
        label_text = masked[label[0]:label[1]] if label else ""
        toks = tokenize_at(masked, start, end)
        change = lex.change_strength(lex.before_reason(part))
        if any(_IT_IS.match(masked, v.end) for v in values):
            change = max(change, 0.45)  # "monday it is": decided, though no change is named
        label_change = lex.change_strength(label_text) if label_text else 0.0
        if label_text and _ANNOUNCES.search(label_text):
            label_change = max(label_change, 0.6)  # "Official: Thu Feb 25, 6:30pm"
        if change >= 0.5:
            values = _unjoin_moved(values, masked, start)
        old = tuple(v for v in values
                    if _named_as_old(masked, v, start, moved=change >= 0.5)) + _old_numbers(
            masked, start, end, values)
        new = [v for v in values if v not in old and not v.is_year
               and not _in_parentheses(masked, v, start)]
        modifiers = _modifiers(toks, new, masked)
        new = [v for v in new if v not in modifiers]
        choice = self._choice(part, start, tuple(v for v in values if v not in modifiers),
                              label_text)
        if choice is not None:
            new.append(choice)
        status = self._status(part, start, new)
        if status is not None:
            modifiers |= {v for v in new if v.family == "when"}
            new = [status, *(v for v in new if v.family not in ("when", "status"))]
        new = _join_new_when(new, masked)
        lab = _label_subject(masked, label, all_values) if label else []
        head_lab = _label_subject(masked, heading, all_values) if heading else []
        if not lab and heading != label:
            lab = head_lab
        shown = tuple(v for v in tuple(values) + tuple(new) + old
                      if v not in modifiers and not v.is_year)
        asking = part.rstrip().endswith("?") or (bool(toks) and toks[0].low in _QUESTION_OPENERS
                                                 and toks[0].low not in {"any", "know"})
        base, pointer = self._subject(toks, shown, lab, masked, asking=asking, people=people,
                                      heading=bool(lab) and not label)
        claims = self._claims(toks, new, shown, base, lab, masked)
        header = masked[end:end + 1] == ":"
        if header:
            # "group meeting this week: Thursday 2pm, room 4.12": the header's period only
            # frames the value that follows it
            claims = tuple(c for c in claims if not _PERIOD.fullmatch(c.value.text))
        act = self._act(part, toks, new, old, change, label=label_text, header=header)
        personal = (bool(_PERSONAL.match(part)) and act in (SpeechAct.DECISION,
                                                             SpeechAct.CHATTER,
                                                             SpeechAct.CANCELLATION)
                    and not any(v.kind is Kind.PERSON for v in new)
                    and not lex.decision.search(part))
        if _CONDITIONAL.match(part) or personal:
            # A condition ("if the engine lands this week") or the speaker's own affairs
            # ("I have a dentist appointment at 2") decides nothing for the team.
            act, new, claims = SpeechAct.CHATTER, [], ()
        if any(c.value.kind is Kind.PERSON for c in claims):
            # "i'm primary this week": the period scopes the role, it is not a plan.
            claims = tuple(c for c in claims if c.value.family != "when"
                           or not _PERIOD.fullmatch(c.value.text))
        # A clause about a value ("room B is booked all day friday", "Nov 5 is election day")
        # says something about it; it decides nothing.
        about_value = any(v.family not in ("version",) and not v.is_year
                          and not _QUARTER.fullmatch(v.text) for v in modifiers
                          if v.start < (new[0].start if new else end))
        negated = bool(new) and bool(_NEGATED.search(masked[start:new[0].start]))
        if negated:
            claims = ()  # "then we can't use the 12th": not a value anyone decided
        strong = change >= 0.5 or label_change >= 0.5 or bool(label) or bool(
            lex.decision.search(part))
        stated = bool(new) and not about_value and not negated and (
            strong or _states(part, new[0], start))
        claims = tuple(
            replace(c, stated=not about_value and not negated and (
                strong or _states(part, c.value, start, after=_value_before(claims, c))))
            for c in claims)
        owners = [v for v in values if v.kind is Kind.PERSON and _alone_in_parentheses(masked, v)]
        if owners and claims and not _CONDITIONAL.match(part):
            # "Atlas go-live Mon 28 Oct (Callum)": the person in brackets owns the item.
            first = claims[0]
            owned = f"{first.subject} owner" if first.subject else ""
            claims = claims + tuple(Claim(v, owned, frozenset(content_terms(owned)),
                                          stated=first.stated)
                                    for v in owners if v not in new)
        if head_lab:
            scope = frozenset(content_terms(_render(head_lab, masked)))
            name = " ".join(t.text for t in head_lab) if head_lab[0].text[:1].isupper() else ""
            claims = tuple(replace(c, scope=scope, heading=name) for c in claims)
        return Clause(start=start, end=end, text=part, label=label_text, subject=base,
                      terms=frozenset(content_terms(base)), claims=claims, old=old, act=act,
                      change=max(change, label_change), pointer=pointer, stated=stated)

    def _choice(self, part: str, start: int, values: tuple[Value, ...],
                label: str) -> Value | None:
        """A named choice that no pattern found: "Outing decided: bowling alley" (a short
        slot-less phrase after a deciding label), "going with X", "X instead of Y"."""
        if any(v.kind in (Kind.CHOICE, Kind.PERSON, Kind.PLACE) for v in values):
            return None
        toks = tokenize(part)
        label_words = {t.low.removesuffix("'s") for t in tokenize(label)}
        if (label and not values and 1 <= len(toks) <= 5 and not part.rstrip().endswith("?")
                and (label_words & CHOICE_NOUNS or self.lexicon.decision.search(label)
                     or self.lexicon.change_strength(label) >= 0.5)
                and any(t.low not in STOPWORDS for t in toks)
                and not any(t.low in _COPULAS or t.low in CLAUSE_VERBS for t in toks)):
            text = part.strip().rstrip(".!")
            offset = start + part.find(text)
            return Value(Kind.CHOICE, text, offset, offset + len(text))
        change = self.lexicon.change_strength(part) >= 0.5 or bool(
            self.lexicon.change_strength(label) >= 0.5)
        for pattern, needs_change in ((_TO_NAME, True), (_IS_NAME, False)):
            found = pattern.search(part)
            if found is None or (needs_change and not change):
                continue
            name = found.group("v")
            at = start + found.start("v")
            if (any(v.start <= at < v.end for v in values) or is_calendar_word(name.split()[0])
                    or name.split()[0].lower() in _PRONOUNS):
                continue
            return Value(Kind.CHOICE, name, at, at + len(name))
        old_name = _NOT_NAME.search(part)
        if old_name is not None:
            other = next((n for n in _PROPER_WORDS.finditer(part)
                          if n.start() != old_name.start("v") and not is_calendar_word(n.group(0))
                          and n.start() > 0 and n.group(0).lower() not in DISCOURSE), None)
            if other is not None:
                return Value(Kind.CHOICE, other.group(0), start + other.start(),
                             start + other.end())
        m = _CHOICE_AFTER.search(part)
        if m is not None and not any(start + m.start("v") <= v.start < start + m.end("v")
                                     for v in values):
            phrase = _trim_phrase(m.group("v"))
            lead = re.match(r"(?:a|an|the|some|our)\s(?=[a-z])", phrase)
            skip = lead.end() if lead is not None and len(phrase.split()) > 1 else 0
            phrase = phrase[skip:]  # "how about a family movie night basket"
            first = phrase.split()[0] if phrase else ""
            named = (first[:1].isupper() and len(phrase.split()) > 1  # "The Lake"
                     and first.lower() not in _PRONOUNS and first.lower() not in _SUBJECT_PRONOUNS)
            if phrase and (named or (first.lower() not in STOPWORDS
                                     and first.lower() not in _PRONOUNS)):
                at = start + m.start("v") + skip
                return Value(Kind.CHOICE, phrase, at, at + len(phrase))
        return None

    def _status(self, part: str, start: int, new: Sequence[Value]) -> Value | None:
        """A cancellation is the clause's value unless the clause moves to a new value
        ("postponed until January" is a new date; "cancelled this week" ends the plan)."""
        m = self.lexicon.cancel.search(part)
        if m is not None and m.group(0).lower().endswith("off") and re.match(
                r"\s{0,2}(?:[a-z]|\d)", part[m.end():], re.IGNORECASE) and not re.match(
                r"\s{0,2}(?:for|again|now|this|too)\b", part[m.end():], re.IGNORECASE):
            m = None  # "Callum is off on paternity leave": a person is away, no plan ends
        if m is not None and re.match(r"\s{0,2}(?:to|down to|back to)\s", part[m.end():],
                                      re.IGNORECASE):
            m = None  # "headcount dropped to 12": a new value, nothing ends
        if m is None:
            return None
        for v in new:
            lead = part[: v.start - start].rstrip().lower()
            if v.family not in ("when", "who") or re.search(r"(?:\bto|\buntil|\btill|→|->)$",
                                                              lead):
                return None
        s, e = start + m.start(), start + m.end()
        copula = re.match(r"(?:is|are|'s|was|were|got|get)\s", m.group(0), re.IGNORECASE)
        if copula is not None:
            s += copula.end()
        return Value(Kind.STATUS, part[s - start:e - start], s, e)

    def _subject(self, toks: Sequence[Token], values: tuple[Value, ...], lab: list[Token],
                 masked: str, *, asking: bool = False,
                 people: frozenset[str] = frozenset(),
                 heading: bool = False) -> tuple[str, bool]:
        """The clause's subject phrase and whether it only points back ("it")."""
        words = _skip_proposal(_strip_openers(_skip_reason(list(toks))), self.lexicon)
        if asking:
            words = _strip_question(words)
        handover = _handover_object(words, values)
        doer = _pronoun_verb(list(toks))
        if handover is not None:
            phrase = handover
        elif words and _verb_at_start(words, values):
            phrase = _object_of(words[1:], values)
        elif doer is not None and _content(_object_of(doer, values)):
            phrase = _object_of(doer, values)  # "I'll draft [the regression plan] today"
        else:
            phrase = _before_predicate(words, values, self.lexicon, masked)
            if not _content(phrase):
                phrase = _owner_object(words, values, masked=masked) or phrase
        if (doer is not None and len(phrase) == 1
                and (phrase[0].low in OWNER_VERBS or phrase[0].low in CHANGE_VERBS)):
            phrase = []  # "I'll take sat": the verb names no subject
        if not _clean_subject(phrase, values):
            moved = _change_object(words, values)
            trailing = moved or _for_phrase(words, values)
            if trailing:
                phrase = trailing
        first_new = next((v for v in values if v.start >= (phrase[-1].end if phrase else 0)),
                         None)
        event = (_event_noun(words, phrase) if first_new is not None
                 and first_new.family == "when" else "") or _value_noun(words, phrase, values)
        own = _clean_subject(phrase, values)
        if len(own) == 1 and own[0].low.removesuffix("'s").removesuffix("’s") in people:
            # "Callum is off on paternity leave from 1 Nov": the person's own affair
            affair = _affair(toks, own[0], values)
            if affair:
                return f"{_strip_possessive(own[0].text)}'s {affair}", False
        pointer = not own and (not phrase or phrase[-1].low in _PRONOUNS)
        if own and event and event.split()[0] not in {t.low for t in own}:
            return _render(own, masked) + " " + event, False
        if own:
            # A generic subject under a header that names a thing ("Fjord: first market is
            # Sweden", "Garnet: target is 15 Oct") is that thing's.
            generic = all(t.low in FACET_NOUNS for t in _content(own)) or (
                not heading and len(_content(own)) <= 1)
            if generic and lab and not {t.low for t in own} & {t.low for t in lab}:
                return _combine(_render(lab, masked), _render(own, masked), own), False
            return _render(own, masked), False
        if lab:
            return _render(lab, masked), pointer
        return "", pointer

    def _claims(self, toks: Sequence[Token], new: Sequence[Value],
                values: tuple[Value, ...], base: str, lab: list[Token],
                masked: str) -> tuple[Claim, ...]:
        """Each new value with its own subject: the words just before it when they name
        something else than the clause's subject ("failover test + engine bump to 7.1"), the
        task of an owner verb for a person, else the clause's subject."""
        out: list[Claim] = []
        everything = tuple(sorted(set(values) | set(new), key=lambda v: v.start))
        for i, v in enumerate(new):
            subject = base
            if v.kind is Kind.PERSON:
                words = _strip_openers(list(toks))
                role = _role_after(toks, v, masked)
                task = [role] if role is not None else _handover_object(words, everything)
                if task is None:
                    task = _owner_object(toks, everything, person=v, masked=masked)
                local = _clean_subject(task or [], everything) if task is not None else []
                if not local:
                    local = _local_words(toks, everything, v, masked)
            else:
                local = _local_words(toks, everything, v, masked) if i > 0 or not base else []
                if i > 0 and not local and _new_predicate(toks, everything, v):
                    subject = ""  # "..., they're holding back 15%": about something else
                    out.append(Claim(v, subject, frozenset()))
                    continue
            if local:
                head = [t for t in (lab or _head(base, masked, toks)) if t.low not in ROLE_NOUNS]
                if v.kind is Kind.PERSON and local[0].low not in ROLE_NOUNS and not lab:
                    head = []  # "I'll do budget": the task is the subject
                # "the prize pool goes up to $2,500 and entry drops to $20": a word with its
                # own verb is its own subject, not a part of the clause's
                own_verb = not lab and _verb_after(toks, local) and not all(
                    t.low in FACET_NOUNS for t in _content(local))
                if (len(_content(local)) <= 1 or local[0].low in ROLE_NOUNS) and head and not {
                        t.low for t in local} & {t.low for t in head} and not own_verb:
                    subject = _combine(_render(head, masked), _render(local, masked), local)
                else:
                    subject = _render(local, masked)
            if v.kind is Kind.PERSON and subject and all(
                    w.lower() in OWNER_VERBS or w.lower() in OWNER_VERBS_S
                    or w.lower() in CLAUSE_VERBS for w in subject.split()):
                subject = base  # "QA signoff for 2.4, Jo owns it"
            out.append(Claim(v, subject, frozenset(content_terms(subject))))
        return tuple(out)

    def _act(self, part: str, toks: Sequence[Token], new: Sequence[Value],
             old: tuple[Value, ...], change: float, *, label: str,
             header: bool = False) -> SpeechAct:
        lex = self.lexicon
        low = part.lower()
        lead = [t for t in toks[:3] if t.low not in {"ok", "okay", "so", "and", "but", "hey",
                                                      "also", "btw", "oh", "hmm", "um"}]
        first = lead[0].low if lead else ""
        asks = part.rstrip().endswith("?") or (first in _WH and len(toks) > 2 and not header
                                               and not lex.decision.search(part))
        cue = lex.proposal.search(part)
        if cue is not None and cue.group(0).lower() in {"maybe", "perhaps"} and re.match(
                r"\s{1,3}(?:i|i'll|i'm|im|ill|i've)\b", part[cue.end():], re.IGNORECASE):
            cue = None  # "maybe I'll just go home": the speaker's own plan, not a suggestion
        proposes = cue is not None or any(
            t.low in REQUEST_OPENERS and i + 1 < len(toks) and toks[i + 1].start - t.end <= 1
            and toks[i + 1].low not in {"yes", "thanks", "thank"}
            for i, t in enumerate(toks[:3]))
        label_low = label.lower()
        if (lex.correction.search(part) or lex.correction.search(label_low)) and new:
            return SpeechAct.CORRECTION
        if asks or proposes:
            # A suggestion proposes ("how about 4?", "$12k?"); a question that mentions a
            # value ("the invite still says 04:00, stale?") only asks.
            suggests = proposes or (bool(new) and len(toks) <= 4)
            return SpeechAct.PROPOSAL if suggests else SpeechAct.QUESTION
        if old and new and "not sure" not in low:
            return SpeechAct.CORRECTION
        if any(v.kind is Kind.STATUS for v in new):
            return SpeechAct.CANCELLATION
        if lex.reminder.search(label_low) or lex.reminder.search(low[:40]):
            return SpeechAct.REMINDER
        person = any(v.kind is Kind.PERSON for v in new)
        if person and (change >= 0.5 or any(t.low in HANDOVER_VERBS for t in toks)):
            return SpeechAct.REASSIGNMENT
        keeps = bool(lex.keep.search(part))
        if (lex.rejection_open.match(part) and (keeps or not new)) or (keeps and change < 0.5
                                                                       and new):
            return SpeechAct.REJECTION
        if lex.ack.match(part) and not new:
            return SpeechAct.CONFIRMATION
        if new and change < 0.5 and not lex.decision.search(part) and _CONFIRMS.search(part):
            return SpeechAct.CONFIRMATION
        if new:
            return SpeechAct.DECISION
        return SpeechAct.CHATTER

    # ---- reason ----------------------------------------------------------------------
    def _reason(self, clauses: Sequence[Clause]) -> str:
        """The reason the message gives: a clause opened by a reason word ("because",
        "since the review got bounced", "due to"), "over X" right after a change, or the
        part before ", so"."""
        lex = self.lexicon
        for i, c in enumerate(clauses):
            text = c.text.strip()
            if text.lower().startswith("so ") and i > 0:
                before = clauses[i - 1].text.strip()
                if before:
                    return before
            for m in lex.reason_open.finditer(c.text):
                word = m.group(0).lower()
                rest = c.text[m.end():].strip(" ,:")
                if word in AMBIGUOUS_REASON and (not _has_verb(rest) or any(
                        v.start - c.start - m.end() in range(0, 3) for v in c.values)
                        or _TIME_WORD.match(rest)):
                    continue  # "since Monday", "after lunch": time, not a reason
                if word in ("as", "after") and c.text[:m.start()].strip():
                    continue
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


def tokenize_at(text: str, start: int, end: int) -> list[Token]:
    """Tokens of ``text[start:end]`` with offsets into ``text``."""
    return [Token(t.text, t.start + start, t.end + start) for t in tokenize(text[start:end])]


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
        named += person_led or name_led
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
    if any(before.endswith(w) for w in _OLD_BEFORE):
        return True
    if before.endswith("from") and re.match(r"(?:to\b|→|->|-)", after):
        return moved or value.family != "when" or not after.startswith("to")
    return bool(re.match(r"(?:→|->|=>)", after))


_WHEN_GAP = re.compile(r"(?:[\s,@()-]|\b(?:at|on|the|same|window|slot|time|from|starting|"
                       r"start|ends?|till|until|to)\b){0,12}", re.IGNORECASE)


_OLD_NUMBER = re.compile(r"\b(?:not|instead of|rather than|no longer)\s(?:the\s)?(?P<v>\d{2,6}"
                         r"(?:st|nd|rd|th)?)\b|\b(?P<w>\d{1,6}(?:\.\d{1,4})?)\s?(?:->|→|=>)",
                         re.IGNORECASE)


def _old_numbers(text: str, start: int, end: int, values: Sequence[Value]) -> tuple[Value, ...]:
    """Bare numbers named as replaced ("build 415 going to Apple, not 412", "Dec 18, not the
    20th"), of the kind of the clause's first value."""
    if not values:
        return ()
    kind = values[0].kind
    out: list[Value] = []
    for m in _OLD_NUMBER.finditer(text, start, end):
        group = "v" if m.group("v") else "w"
        s, e = m.span(group)
        if not any(v.start <= s < v.end for v in values):
            out.append(Value(kind, m.group(group), s, e))
    return tuple(out)


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
            for part, at in ((first, v.start), (second, v.start + cut + 4)):
                clock = _TIME_LIKE.search(part) or re.match(r"\d{1,2}(?::\d\d)?\b", part)
                kind = Kind.TIME if clock and not re.search(
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
        if out and out[-1].kind in when and v.kind in when and not v.is_year:
            prev = out[-1]
            gap = text[prev.end:v.start]
            if len(gap) <= 24 and _WHEN_GAP.fullmatch(gap):
                kind = Kind.RANGE if Kind.RANGE in (prev.kind, v.kind) else Kind.DATE
                out[-1] = Value(kind, text[prev.start:v.end], prev.start, v.end)
                continue
        out.append(v)
    return out


_SUBJECT_COPULAS = frozenset({"is", "are", "was", "were", "isn't", "wasn't", "looks", "seems"})
_VALUE_AFTER_COPULA = frozenset({"it", "the", "fine", "final", "confirmed", "ok", "okay",
                                 "good", "better", "best", "now", "still", "official"})


_SUBJECT_COPULAS = frozenset({"is", "are", "was", "were", "isn't", "wasn't", "looks", "seems"})
_VALUE_AFTER_COPULA = frozenset({"it", "the", "fine", "final", "confirmed", "ok", "okay",
                                 "good", "better", "best", "now", "still", "official"})
_QUARTER = re.compile(r"[qQ][1-4]|[hH][12]")
_ANNOUNCES = re.compile(r"\b(?:official|officially|final|decided|decision|confirmed|locked|"
                       r"verdict|result|outcome|update|updated|new plan|change of plans?)\b",
                       re.IGNORECASE)
_IT_IS = re.compile(r",?\s(?:it is|it's|its)\b", re.IGNORECASE)
_BUILD = re.compile(r"(?:build|rc|release candidate)\b", re.IGNORECASE)


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
        if nxt is not None and nxt.low in _SUBJECT_COPULAS and (
                len(after) < 2 or after[1].low not in _VALUE_AFTER_COPULA):
            out.add(v)
            continue
        if text[v.end:v.end + 2] in ("'s", "’s"):
            out.add(v)
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


# Words ending like verbs that head noun phrases in chat ("staging", "meeting", "offsite").
_NOUN_ING = frozenset({"staging", "meeting", "planning", "onboarding", "hiring", "morning",
                       "evening", "offboarding", "booking", "pricing", "testing", "training",
                       "wedding", "building", "shipping", "billing", "logging", "monitoring",
                       "marketing", "seed", "need", "speed", "feed", "embed", "red", "bed"})


def _value_before(claims: Sequence[Claim], claim: Claim) -> int:
    """Where the value before ``claim``'s ends (its statement starts after it), or -1."""
    ends = [c.value.end for c in claims if c.value.end <= claim.value.start]
    return max(ends, default=-1)


def _states(part: str, value: Value, start: int, *, after: int = -1) -> bool:
    """Whether the clause states the value of something: "X is/at/on/to/: VALUE" (looking
    only at the words since the value before it, when ``after`` says where that ended)."""
    if value.kind in (Kind.CHOICE, Kind.STATUS, Kind.PERSON):
        return True
    lead = max(0, after - start) if after >= 0 else 0
    before = part[lead: value.start - start].rstrip().lower()
    before = re.sub(r"(?:\s|^)(?:~|about|around|approx\.?|roughly|like)$", "", before).rstrip(
        " ~")  # "burn is ~$140k/mo", "budget is about $5k"
    if before.endswith(",") and len(before) > 2:
        return True  # an apposition: "2.4 RC is up on TestFlight, build 412"
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


def _strip_openers(toks: list[Token]) -> list[Token]:
    """Drop discourse openers ("ok so", "bad news", "heads up", "realistically")."""
    i = 0
    while i < len(toks) and (toks[i].low in DISCOURSE or (
            toks[i].low.endswith("'s") and toks[i].low[:-2] in DISCOURSE)):
        i += 1
    return toks[i:]


def _skip_reason(toks: list[Token]) -> list[Token]:
    """Drop a leading "given that", "because", "since", "so" (the clause's own subject
    follows)."""
    i = 0
    while i < len(toks) and toks[i].low in {"given", "because", "since", "so", "as", "that",
                                            "bc", "cause", "cuz"} and i < 2:
        i += 1
    return toks[i:] if i < len(toks) else toks


def _skip_proposal(toks: list[Token], lex: Lexicon) -> list[Token]:
    """Drop a leading proposal or request ("can we", "how about", "pls") and a light verb
    after it ("can we *start* the pg window at 01:00")."""
    text = " ".join(t.low for t in toks[:4])
    m = lex.proposal.match(text)
    n = len(m.group(0).split()) if m is not None else 0
    if n == 0 and toks and toks[0].low in REQUEST_OPENERS:
        n = 1
    if n == 0:
        return toks
    rest = toks[n:]
    if rest and rest[0].low in {"we", "you", "i", "someone", "anyone", "u"}:
        rest = rest[1:]
    if rest and rest[0].low in {"can", "could", "should", "would", "will", "just", "maybe"}:
        rest = rest[1:]
    if rest and (rest[0].low in LIGHT_VERBS or rest[0].low in CHANGE_VERBS):
        rest = rest[1:]
    return rest


_WH = frozenset({"what", "what's", "whats", "which", "who", "who's", "whose", "when",
                 "when's", "where", "where's", "how", "how's", "why"})
# "3 pm works", "Thursday is fine", "still Thursday": a value agreed to, not a new decision.
_CONFIRMS = re.compile(r"\b(?:works(?: for (?:me|us|everyone))?|is fine|sounds good|still)\b",
                       re.IGNORECASE)
_QUESTION_OPENERS = frozenset({"what", "what's", "whats", "which", "who", "who's", "whose",
                               "when", "when's", "where", "where's", "how", "how's", "why",
                               "is", "are", "was", "were", "do", "does", "did", "can",
                               "could", "will", "would", "should", "has", "have", "any",
                               "anyone", "anybody", "someone", "somebody", "know", "knows"})


def _strip_question(toks: list[Token]) -> list[Token]:
    """Drop a question's opening ("what's our", "does anyone know the", "when is")."""
    i = 0
    while i < len(toks) and i < 5 and (toks[i].low in _QUESTION_OPENERS or (
            i > 0 and toks[i].low in {"we", "you", "our", "the", "i", "it", "they"})):
        i += 1
    return toks[i:] if i else toks


_SUBJECT_PRONOUNS = frozenset({"i", "i'll", "i'm", "i've", "i'd", "im", "ill", "we", "we'll",
                               "we're", "we've", "you", "you'll", "they", "they'll",
                               "they're", "he", "she", "u"})


def _pronoun_verb(toks: list[Token]) -> list[Token] | None:
    """After "I'll draft", "we need", "they want" (a pronoun and a verb), the words that
    follow; None when the clause does not open that way."""
    i = 0
    while i < len(toks) and toks[i].low in DISCOURSE and toks[i].low not in _SUBJECT_PRONOUNS:
        i += 1
    if i >= len(toks) or toks[i].low not in _SUBJECT_PRONOUNS:
        return None
    j = i + 1
    while j < len(toks) and toks[j].low in {"will", "can", "could", "should", "would", "need",
                                            "to", "just", "also", "still", "going", "gonna",
                                            "want", "have", "'ll", "must", "might"}:
        j += 1
    if j >= len(toks) or toks[j].low in _COPULAS or toks[j].low in _VALUE_PREPS:
        return None
    return toks[j + 1:]


def _verb_at_start(words: Sequence[Token], values: tuple[Value, ...]) -> bool:
    """Whether the clause opens with a change or handover verb ("pushing it to Friday",
    "bump terraform to 1.10"), not a noun that looks like one ("Push notification revamp")."""
    first = words[0].low
    if first.endswith("ed") and len(first) > 4 and first not in DISCOURSE and len(words) > 1:
        return True  # "Resubmitted 2.4 to Apple", "Planned maintenance at 3pm"
    if (first.endswith("ing") and first not in _NOUN_ING and len(words) > 1
            and words[1].low in _DETERMINERS):
        return True  # "setting the november alert at $8,000"
    if (first in LIGHT_VERBS and len(words) > 1
            and (_in_value(words[1], values) is not None
                 or words[1].low in {"it", "that", "this", "them"})):
        return True  # "book Bounce Bros", "do $1", "make it the 21st"
    if first not in CHANGE_VERBS and first not in HANDOVER_VERBS:
        return False
    if first.endswith("ing") or first.endswith("ed"):
        return True
    if len(words) == 1:
        return True
    nxt = words[1]
    return (nxt.low in _DETERMINERS or nxt.low in _PRONOUNS or nxt.low in _VALUE_PREPS
            or _in_value(nxt, values) is not None
            or any(t.low in {"to", "until", "till", "from", "→", "->"} for t in words[2:6]))


_HANDOVER = re.compile(r"\b(?:take|takes|taking|took)\sover\b|\bhand(?:ing|ed|s)?\s(?:off|over)\b"
                       r"|\bpass(?:ing|ed|es)?\s(?:on|over)\b", re.IGNORECASE)


def _handover_object(words: Sequence[Token], values: tuple[Value, ...]) -> list[Token] | None:
    """The task of "take over X", "hand off X", "handing X over to", "pass on X"."""
    for i, t in enumerate(words):
        pair = f"{t.low} {words[i + 1].low}" if i + 1 < len(words) else ""
        if _HANDOVER.fullmatch(pair):
            obj = _object_of(words[i + 2:], values)
            if _content(obj):
                return obj
        if (t.low in HANDOVER_VERBS and i + 1 < len(words)
                and (t.low.endswith("ing") or t.low.endswith("ed") or words[i + 1].low in
                     _DETERMINERS or words[i + 1].low in _PRONOUNS)
                and words[i + 1].low not in {"off", "over", "on", "to"}):
            obj = _object_of(words[i + 1:], values)
            if _content(obj):
                return obj
    return None


def _attribute_of(toks: list[Token]) -> list[Token]:
    """"target for the iOS release" → "iOS release": an attribute noun names the kind of
    value; the subject is what it is the attribute of."""
    if len(toks) >= 3 and toks[0].low in ATTRIBUTE_NOUNS and toks[1].low in {"for", "of"}:
        rest = toks[2:]
        while rest and (rest[0].low in _DETERMINERS or rest[0].low in STOPWORDS):
            rest = rest[1:]
        return rest or toks
    return toks


def _in_value(tok: Token, values: Iterable[Value]) -> Value | None:
    return next((v for v in values if v.start <= tok.start < v.end), None)


def _object_of(toks: Sequence[Token], values: tuple[Value, ...]) -> list[Token]:
    """The object of a change or handover verb: its words up to the next preposition or
    value ("[pushing] the review to Friday", "[handing] the release notes over to")."""
    out: list[Token] = []
    for t in toks:
        if (t.low in _VALUE_PREPS or t.low in {"over", "back", "out", "up"} or _in_value(
                t, values) or t.low in _COPULAS or t.low in {"will", "would"}):
            break
        out.append(t)
    if out and all(t.low in DURATION_WORDS or t.low in _DETERMINERS or t.low.isdigit()
                   for t in out):
        return []
    return out


def _owner_object(toks: Sequence[Token], values: tuple[Value, ...], *,
                  person: Value | None = None, masked: str = "") -> list[Token] | None:
    """The task after an owner verb whose doer is a person value ("björn will drive [the pg
    cutover]", "I'll own [QA signoff for 2.4]", "Devon takes over [push]")."""
    people = [person] if person is not None else [v for v in values if v.kind is Kind.PERSON]
    if not people:
        return None
    for i, t in enumerate(toks):
        if not any(v.end <= t.start for v in people):
            continue
        if t.low in OWNER_VERBS:
            obj: list[Token] = []
            rest = toks[i + 1:]
            for j, u in enumerate(rest):
                nxt = rest[j + 1] if j + 1 < len(rest) else None
                if masked and "," in masked[(obj[-1].end if obj else t.end):u.start]:
                    break  # "Ike will present, you prep the deck"
                if u.low in {"for", "of"} and obj and nxt is not None and (
                        _in_value(nxt, values) is None and re.fullmatch(r"[\d.]{1,200}", nxt.text)):
                    obj.append(u)  # "QA signoff for 2.4": the release it is for
                    continue
                if u.low in {"from", "to", "until", "till", "by", "on", "at", "because",
                             "since", "so", "and", "but", "as", "for", "over", "next",
                             "this", "tomorrow", "through", "thru", "while", "when",
                             "after", "before", "with"} or _in_value(u, values):
                    break
                obj.append(u)
            return obj
        if t.low == "over" and i > 0 and toks[i - 1].low in {"takes", "take", "took",
                                                               "taking"}:
            return _object_of(toks[i + 1:], values)
    return None


def _before_predicate(toks: Sequence[Token], values: tuple[Value, ...], lex: Lexicon,
                      masked: str = "") -> list[Token]:
    """The words before the clause's predicate; when a change verb follows a doer ("finance
    cut [the RI budget] to €36k", "we moved [the review] to Friday"), its object."""
    out: list[Token] = []
    for i, t in enumerate(toks):
        if _in_value(t, values) is not None:
            break
        if out and i > 0 and "," in masked[toks[i - 1].end:t.start]:
            out = []  # "runbook in confluence, pls review by wed": a new phrase
        low = t.low
        if out and low in CHANGE_VERBS:
            doer = [u for u in out if u.low not in STOPWORDS]
            obj = _object_of(toks[i + 1:], values)
            follows = toks[i + 1 + len(obj):i + 2 + len(obj)] if obj else []
            moved_obj = bool(_content(obj)) and bool(follows) and follows[0].low in {
                "to", "until", "till", "from", "→", "->", "back", "up", "forward"}
            if _content(obj) and (not doer or all(u.low in AGENT_NOUNS for u in doer)
                                  or moved_obj):
                return obj  # "airbnb host moved [check-in] to 4pm"
            break
        if low in _COPULAS or (out and _event_verb(toks, i)) or low in _STOP_WORDS:
            break
        if low in _PRONOUNS and "'" in low:
            out.append(t)
            break
        if (out and low.endswith("ed") and low not in _NOUN_ING and i + 1 < len(toks)
                and (_in_value(toks[i + 1], values) is not None
                     or toks[i + 1].low in _DETERMINERS)):
            break  # "they picked concept B", "we booked the room"
        if (low.endswith("ing") and low not in _NOUN_ING and i + 1 < len(toks)
                and (toks[i + 1].low in _PRONOUNS or toks[i + 1].low in {"with", "to", "for"})):
            break  # "calling it 2.4", "going with", "moving to"
        if (out and low.endswith("ed") and i + 2 < len(toks) and toks[i + 1].low in _VALUE_PREPS
                and _in_value(toks[i + 2], values) is not None):
            break
        if lex.change_cues.get(low, 0.0) >= 0.5 and out:
            break
        if low in _VALUE_PREPS and i + 1 < len(toks) and _in_value(toks[i + 1], values):
            break
        if low in {",", "+"}:
            out = []
            continue
        out.append(t)
    return out


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


def _local_words(toks: Sequence[Token], values: tuple[Value, ...], v: Value,
                 masked: str) -> list[Token]:
    """The words between the value before ``v`` (or the clause start) and ``v``, as a
    subject: "failover test + [engine] bump to 7.1", ", [secondary] li"."""
    prev_end = max((w.end for w in values if w.end <= v.start), default=-1)
    seg = [t for t in toks if prev_end <= t.start and t.end <= v.start]
    if seg and "," in masked[seg[-1].end:v.start]:
        seg = []  # "16 team cap, $25 entry": the words before the comma are the last item's
    for i in range(len(seg) - 1, 0, -1):
        gap = masked[seg[i - 1].end:seg[i].start]
        if seg[i - 1].low == "and" or any(ch in gap for ch in "+&,/"):
            seg = seg[i:] if seg[i - 1].low != "and" else seg[i:]
            break
    last_pronoun = max((i for i, t in enumerate(seg) if t.low in _PRONOUNS), default=-1)
    seg = seg[last_pronoun + 1:]
    seg = [t for i, t in enumerate(seg) if not (
        (t.low in LIGHT_VERBS or t.low in {"keep", "keeping", "stay", "stick"})
        and (i + 1 >= len(seg) or _verb_like(seg, i)))]
    seg = [t for i, t in enumerate(seg) if t.low not in _COPULAS and not (
        (t.low in CHANGE_VERBS or t.low in OWNER_VERBS) and _verb_like(seg, i))]
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
                    or t.low in _PRONOUNS):
                break
            after.append(t)
        item = _clean_subject(after, values)
        lead = masked[max(prev_end, toks[0].start if toks else 0):v.start].strip()
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


def _role_after(toks: Sequence[Token], person: Value, masked: str = "") -> Token | None:
    """The role a person takes: "[primary] kwame", "kwame drops to [secondary]", "Sofia is
    [primary]" (never across punctuation)."""
    before = [t for t in toks if t.end <= person.start]
    if before and before[-1].low in ROLE_NOUNS and not any(
            ch in masked[before[-1].end:person.start] for ch in ",.;!?("):
        return before[-1]
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
    return nxt in _DETERMINERS or nxt in _PRONOUNS or nxt in _VALUE_PREPS or nxt == ""


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


def _label_subject(masked: str, label: tuple[int, int],
                   values: tuple[Value, ...]) -> list[Token]:
    inside = tuple(v for v in values if v.start >= label[0] and v.end <= label[1]
                   and v.kind is not Kind.VERSION and not v.is_year
                   and not _QUARTER.fullmatch(v.text))
    toks = _strip_openers(tokenize_at(masked, *label))
    toks = [t for i, t in enumerate(toks) if t.low.removesuffix("'s") not in PROCEDURAL or (
        t.low.endswith("ing") and i + 1 < len(toks) and toks[i + 1].low not in PROCEDURAL
        and toks[i + 1].low not in STOPWORDS)]  # "planning meeting:"
    if toks and (toks[0].low in _WH or toks[0].low in _PRONOUNS):
        return []  # "where we landed:", "what's locked:"
    if all(t.low in HEADING_WORDS or t.low in STOPWORDS or t.low in DISCOURSE for t in toks):
        return []  # "Weekly roll-up:", "Morning notes:"
    toks = _before_predicate(toks, inside, default_lexicon(), masked) or toks
    out = _clean_subject(toks, inside, keep_meta=False)
    cut = next((i for i, t in enumerate(out) if i >= 1 and t.low in {"for", "with", "per"}),
               None)
    return out[:cut] if cut is not None else out  # "Q4 budgets for sign-off" → "Q4 budgets"


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


def _event_verb(toks: Sequence[Token], i: int) -> bool:
    """Whether ``toks[i]`` is an event verb ("ships", "will launch"), not the noun ("the
    launch")."""
    low = toks[i].low
    if low not in EVENT_NOUNS:
        return False
    if low not in EVENT_BASE_FORMS:
        return True
    prev = toks[i - 1].low if i > 0 else ""
    return prev in {"will", "'ll", "to", "should", "can", "would", "must", "gonna", "won't"}


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
                or (t.low in {"final", "finals"} and i > 0
                    and toks[i - 1].low in {"grand", "semi", "quarter", "cup", "league"}))]
    out = _trim(out)
    out = _attribute_of(out)
    if any(t.low in _FRAGMENTS for t in out):
        return []  # "n't know , I do n't": a predicate split into pieces, not a subject
    if out and out[0].low in BARE_VERBS and (len(out) == 1 or out[1].low in _PRONOUNS or out[
            1].low in {"us", "everyone", "everybody", "all", "y'all", "folks"}):
        return []  # "Come to London", "see everyone on the field at 11", "join us at 6"
    if out and all(t.low in _PRONOUNS or t.low in STOPWORDS or t.low in AGENT_NOUNS
                   or t.low in CLAUSE_VERBS or t.low in {"back", "out", "up", "off", "over"}
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


def _trim(out: list[Token]) -> list[Token]:
    while out and (out[0].low in _DETERMINERS or out[0].low in DISCOURSE
                   or out[0].low in STOPWORDS or out[0].low in _VALUE_PREPS):
        out = out[1:]
    while out and (out[-1].low in STOPWORDS or out[-1].low in _VALUE_PREPS
                   or out[-1].low in _DETERMINERS or out[-1].low in DURATION_WORDS
                   or out[-1].low in {"now", "again", "and", "then"}):
        if (len(out) > 1 and out[-1].low in {"in", "out", "up", "off"}
                and out[-2].low in _PHRASAL):
            break  # "check in 18th 3pm", "sign up closes friday"
        out = out[:-1]
    return out


#: Verbs whose particle makes a noun: "check in", "sign up", "kick off", "drop off".
_PHRASAL = frozenset({"check", "sign", "log", "kick", "set", "pick", "drop", "roll", "hand",
                      "wrap", "clean", "warm", "follow", "load", "move", "walk"})


def _content(toks: Sequence[Token]) -> list[Token]:
    return [t for t in toks if t.low not in STOPWORDS and t.low not in _DETERMINERS]


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
