"""The question analyzer: what a question to the memory asks.

One function, :func:`analyze_question`, reads a question once and says what every reader
needs: its kind (:class:`~memory.analysis.definitions.QuestionKind`: the current value, the
previous or original one, who, when, why, a list, a plain fact), the kind of value it wants
(a date, a place, a version, an amount, a person), the role a *who* question asks about
(who proposed, decided, changed or owns it), its subject (the words that say what it is
about, for finding the state and for the coverage test), the named things in it, and the
anchor of a *before* clause ("before it slipped to Friday" → "slipped to Friday").

Cue words are data (:mod:`memory.analysis.question_lexicon`); matching is on word tokens of
a bounded prefix of the question, so it is linear in the question's length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memory.analysis.definitions import QuestionKind
from memory.analysis.named_choice import named_choice
from memory.analysis.question_asks import asked_noun, existence_asked, possessors, subject_run
from memory.analysis.question_family import family as family_of_question
from memory.analysis.question_family import (
    family_of_kind,
    head_attribute,
    measure,
    money_verb,
    openers,
)
from memory.analysis.question_lexicon import (
    CLOCK_CUES,
    CLOCK_NOUNS,
    DAY_CUES,
    DAY_NOUNS,
    DEFAULT_LEXICON,
    DETERMINERS,
    WEEKDAYS,
    QuestionLexicon,
)
from memory.analysis.question_verbs import change_amounts, subject_verbs
from memory.analysis.question_words import (
    _QUOTED,
    MAX_QUESTION_CHARS,
    Word,
    _matches,
    _spans,
    expand_shorthand,
    find_phrase,
    strip_address,
    words,
)
from memory.analysis.reason_words import PAST_EVENT_VERBS
from memory.analysis.supplier_words import asks_supplier, supply_word
from memory.dates import find_date_expressions
from memory.dates.days import MONTH_OF_WORD
from memory.text import STOPWORDS, clean, is_calendar_word, stem

__all__ = ["MAX_QUESTION_CHARS", "QuestionAnalysis", "Word", "analyze_question", "find_phrase",
           "is_change_word", "months_named", "strip_address", "words"]


@dataclass(frozen=True)
class QuestionAnalysis:
    """What a question asks. ``terms`` are the subject's words (lower case, unstemmed, in
    order, no question or cue words); ``named`` the named things as written (capitalised
    words, numbers, quoted phrases); ``attributes`` the value nouns it uses ("date"),
    which a value of that kind answers; ``anchor`` the words after a *before* (the change
    or new value the previous value preceded); ``family`` the kind of value asked
    ("when", "where", "version", "money", "count", "person" or ""); ``key`` groups of
    words, of each of which an answer must state one: what a "what is…" question asks for
    ("password" in "what's the new office wifi password"), the thing whose value it asks
    ("kafka" in "what kafka version"), the thing and the event a *when* question asks about
    ("*dune*", "go *live*"). ``confirm``: a yes/no question whether a value still holds
    ("is the demo still on for monday?"); ``polar``: any yes/no question ("are we
    curving the midterm?"), whose verb is what it asks."""

    text: str
    kind: QuestionKind
    family: str = ""
    role: str = ""
    past: bool = False
    subject: str = ""
    terms: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    anchor: str = ""
    cues: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()
    key: tuple[tuple[str, ...], ...] = ()
    #: The noun a "what/which N" question asks a value of ("what *size* are the flyers"),
    #: one of the ``key`` groups.
    asked: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    #: A *who* question asks who made the call: a decision word, with or without a change
    #: ("who signed off on X", "who decided to drop X").
    decides: bool = False
    confirm: bool = False
    polar: bool = False
    #: What an amount question measures: "count" ("how many"), "money" ("how much"), or ""
    #: when either may answer ("how big is the prize pool?").
    measure: str = ""
    #: Asks a number a record is known by ("what's our dentaid account number").
    record: bool = False
    #: The verb saying what happens to the subject, by the question's shape ("how often do
    #: backups *run*"): it names no thing, so the chat may say it in other words.
    verbs: tuple[str, ...] = ()

    @property
    def asks_change(self) -> bool:
        """Whether the answer lies in a chain's history rather than its current value."""
        return self.kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL)

    @property
    def asks_clock(self) -> bool:
        """Whether a *when* question asks the time of day ("what time does it start", "the
        start time"), which a day alone does not answer."""
        return self.family == "when" and (
            any(c in CLOCK_CUES for c in self.cues)
            or any(a in CLOCK_NOUNS for a in self.attributes))

    @property
    def asks_day(self) -> bool:
        """Whether a *when* question asks the day ("what date", "which night"), which a
        time of day alone does not answer."""
        return self.family == "when" and not self.asks_clock and (
            any(c in DAY_CUES for c in self.cues)
            or any(a in DAY_NOUNS for a in self.attributes))

    @property
    def stems(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(stem(t) for t in self.terms))


def analyze_question(question: str, lexicon: QuestionLexicon = DEFAULT_LEXICON
                     ) -> QuestionAnalysis:
    """What ``question`` asks (see :class:`QuestionAnalysis`)."""
    text = expand_shorthand(clean(question)[:MAX_QUESTION_CHARS])
    ws = words(text)
    # Cues are matched on words without their clitics ("why'd" → "why", "kwame's" →
    # "kwame"); negations keep theirs.
    lows = [_base(w.low) for w in ws]
    cue_spans: list[tuple[int, int, str]] = []

    def found(phrases: Sequence[str]) -> list[tuple[int, int, str]]:
        spans = [sp for sp in _spans(lows, phrases)
                 if not _names_a_thing(lows, sp, lexicon.noun_cues)
                 and not _modified(lows, sp, lexicon)]
        cue_spans.extend(spans)
        return spans

    opening = _opening(lows, lexicon)
    who_open, when_open, where_open, money_open, count_open, version_open = openers(
        lows, opening, lexicon, cue_spans)
    if when_open and _names_by_weekday(lows, opening, when_open):
        # "which saturday team is josh in": a team, not a date
        cue_spans[:] = [sp for sp in cue_spans if sp[2] != when_open]
        when_open = ""
    why = found(lexicon.why)
    original = found(lexicon.original) or _first_said(lows, lexicon)
    if not original:
        original = _first_of_named(lows, lexicon)
        # "first" is the cue; the words it spans name the thing ("stage quote")
        cue_spans.extend((i, i + 1, "first") for i, _, _ in original)
    previous = found(lexicon.previous)
    past = any(w in lexicon.past for w in lows[opening: opening + 4])
    if not past:
        previous = [sp for sp in previous if sp[2] not in lexicon.tensed_previous]
    elif not when_open and _asks_decided(lows[opening:], lexicon):
        past = False
    # (how far a change moved it, "delayed a week", is said of the change, not asked)
    moved_by = change_amounts(lows, lambda w: is_change_word(w, lexicon))
    dated = _date_words(text, ws) | moved_by
    named = tuple(_named(text, ws, lexicon, skip=dated))
    # a value noun inside a name ("Small Hours", "Happy Hour") names the thing, not the
    # kind of value asked
    in_names = {_base(w.low) for n in named if " " in n for w in words(n)}
    # "these days", "at the moment": the time of asking, no value noun ("what do we use for
    # bookings these days" asks no day)
    now_said = {i for s, e, _ in found(lexicon.current) for i in range(s, e)}
    attributes = tuple(dict.fromkeys(w for i, w in enumerate(lows) if w in lexicon.attributes
                                     and w not in in_names and i not in moved_by
                                     and i not in now_said))
    valued = [("" if i in now_said else w) for i, w in enumerate(lows)]
    family = family_of_question(
        (("when", when_open), ("where", where_open), ("money", money_open),
         ("count", count_open), ("version", version_open), ("person", who_open)),
        # (a value noun after "before" names the change it was before, not what is asked:
        # "how long was the guest list before the *cap*")
        head_attribute(valued[:_before_at(lows, opening)], lexicon), lexicon) \
        or money_verb(lows, opening, lexicon) \
        or named_choice(ws, lows, opening, lexicon)
    anchor_span = _before_change(lows, lexicon, family=family, past=past)
    if anchor_span is not None:
        anchor_span = _clause_of(text, ws, anchor_span)
        cue_spans.append((anchor_span[0] - 1, anchor_span[0], "before"))
    listing = found(lexicon.listing)
    current = found(lexicon.current)
    if when_open.startswith("when"):
        # "when did the board settle on the new price": when it was settled, not what
        # ("what date did the tournament land on?" asks the date settled)
        current = [sp for sp in current if sp[2] not in lexicon.settle_cues]
    choice = (lexicon.choice in lows[opening + 1:] and opening < len(lows)
              and lows[opening] in lexicon.openers and not who_open and not when_open)
    role = _who_role(lows, lexicon, raw=[w.low for w in ws]) if who_open else ""
    if role == "doer" and found(lexicon.current):
        role = "owner"  # "who's captain now": who holds it now

    kind = _kind(why=bool(why), original=bool(original) and role != "proposer",
                 previous=bool(previous) or anchor_span is not None, who=bool(who_open),
                 when=bool(when_open) and not current, listing=bool(listing),
                 current=bool(current or family or choice))
    family = family_of_kind(kind, family, who=bool(who_open), lows=lows, lexicon=lexicon)
    # (not "who switched the hire company": who made the change)
    supplier = bool(who_open) and role not in ("changer", "decider", "proposer", "rejecter") \
        and asks_supplier(lows, opening)
    if supplier:
        # "who are we getting our logs from": a business, in force now unless asked before
        role, family = "supplier", "name"
        kind = QuestionKind.CURRENT if kind is QuestionKind.WHO else kind
    anchor = (text[ws[anchor_span[0]].start: ws[anchor_span[1] - 1].end]
              if anchor_span is not None and anchor_span[1] > anchor_span[0] else "")
    subject_idx = _subject_indices(lows, lexicon, cue_spans, dated, kind=kind,
                                   who=bool(who_open))
    changes = tuple(dict.fromkeys(w for w in lows if _is_role_verb(w, lexicon)))
    if supplier:
        # what is bought is the subject; the buying and the supplier are the question's
        subject_idx = [i for i in subject_idx if not supply_word(lows[i])] or subject_idx
    if kind is QuestionKind.ORIGINAL:
        # "which pub did we first pick", "who did we have lined up first": "first" asks
        # for the original, no message need say it ("first prize" names a thing)
        subject_idx = [i for i in subject_idx if lows[i] != "first" or not (
            i + 1 == len(lows) or lows[i + 1] in lexicon.first_verbs)]
    terms = tuple(dict.fromkeys(lows[i] for i in subject_idx))
    subject = " ".join(ws[i].text for i in subject_idx)
    key = _key_words(lows, subject_idx, lexicon, family=family,
                     copula=_copula(lows, opening) or bool(money_open or count_open),
                     when=kind is QuestionKind.WHEN)
    if not key and _who_copula(lows, opening):
        # the role noun an answer must name, unless a value names it ("the vendor")
        role_key = _key_words(lows, subject_idx, lexicon, family=family, copula=True,
                              when=False)
        key = tuple(g for g in role_key if not set(g) & set(lexicon.attributes)
                    and _ends_phrase(lows, g[-1]))
    asked = asked_noun(lows, opening, subject_idx, lexicon) \
        if kind is not QuestionKind.WHY else ()
    if kind is not QuestionKind.WHY:
        key = (*key, *(g for g in (*asked, *possessors(ws, lows, opening, subject_idx))
                       if g not in key))
        exists = existence_asked(lows, subject_idx)
        if exists and exists not in key:
            key = (*key, exists)  # "is there parking at the hall?": the parking
    return QuestionAnalysis(
        text=text, kind=kind, family=family, role=role, past=past, subject=subject,
        terms=terms, named=named,
        attributes=attributes, anchor=anchor, cues=tuple(p for _, _, p in cue_spans),
        key=key, asked=asked[0] if asked else (), changes=changes,
        polar=_polar(lows, opening, lexicon),
        dates=tuple(_dates(text, lows)), confirm=_confirms(lows, opening, lexicon),
        measure=measure(family, lows, lexicon),
        record=lexicon.record_numbers.search(text) is not None,
        verbs=subject_verbs(lows, opening, skip=lexicon.question_words),
        decides=role == "decider" or (role == "changer" and any(
            find_phrase(lows, p) >= 0 for p in lexicon.roles.call)))


def _confirms(lows: Sequence[str], opening: int, lexicon: QuestionLexicon) -> bool:
    """Whether the question asks yes or no whether a value still holds: it opens with an
    auxiliary, uses a keep word, and offers no alternatives ("… or …")."""
    return _polar(lows, opening, lexicon) and bool(_spans(lows, lexicon.confirm_cues))


def _names_a_thing(lows: Sequence[str], span: tuple[int, int, str],
                   nouns: frozenset[str]) -> bool:
    """Whether a one-word cue that is also a noun names a thing here: "final" ending its
    phrase ("when's the cup final?", "the final on saturday") is a match, while "the final
    venue" asks for the value in force."""
    start, end, phrase = span
    if phrase not in nouns or start == 0:
        return False
    return end >= len(lows) or lows[end] in STOPWORDS


def _modified(lows: Sequence[str], span: tuple[int, int, str], lexicon: QuestionLexicon
              ) -> bool:
    """Whether a cue that is also a noun follows a word modifying it ("the dental list"),
    so it names a thing."""
    start, _, phrase = span
    if phrase not in lexicon.modified_nouns or start == 0:
        return False
    before = lows[start - 1]
    return before not in STOPWORDS and before not in lexicon.question_words


def _polar(lows: Sequence[str], opening: int, lexicon: QuestionLexicon) -> bool:
    """Whether the question asks yes or no: it opens with an auxiliary and offers no
    alternatives ("… or …")."""
    opens = any(i < len(lows) and lows[i] in lexicon.confirm_openers for i in (0, opening))
    return opens and lexicon.choice not in lows


def _kind(*, why: bool, original: bool, previous: bool, who: bool, when: bool,
          listing: bool, current: bool) -> QuestionKind:
    """The kind of question, the more particular cue first."""
    for flag, kind in ((why, QuestionKind.WHY), (original, QuestionKind.ORIGINAL),
                       (previous, QuestionKind.PREVIOUS), (who, QuestionKind.WHO),
                       (when, QuestionKind.WHEN), (listing, QuestionKind.LIST),
                       (current, QuestionKind.CURRENT)):
        if flag:
            return kind
    return QuestionKind.FACT


def _subject_indices(lows: Sequence[str], lexicon: QuestionLexicon,
                     cue_spans: Sequence[tuple[int, int, str]], dated: set[int], *,
                     kind: QuestionKind, who: bool) -> list[int]:
    """The positions of the words saying what the question is about: not its cue words,
    the role verbs of a who question, the change words of a question about a change, days,
    clock times or question words."""
    cue_index = {i for s, e, _ in cue_spans for i in range(max(s, 0), e)}
    # Role verbs of a who question say what happened, not to what.
    role_words = _role_spans(lows, lexicon) if who else set()
    # So do the change words of a question about a change: the chain holds the change.
    if kind in (QuestionKind.WHY, QuestionKind.PREVIOUS, QuestionKind.ORIGINAL,
                QuestionKind.WHO):
        role_words |= {i for i, w in enumerate(lows)
                       if any(_matches(w, c) for c in lexicon.change)
                       and not (kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL)
                                and _change_noun(lows, i, lexicon))}
    out = [i for i, w in enumerate(lows) if i not in cue_index and i not in role_words
           and i not in dated and (_subject_word(w, lexicon) or _modifier(lows, i, lexicon))
           and not is_calendar_word(w) and not _CLOCK.fullmatch(w) and w not in _CONTRAST]
    return [i for i in out if not _rule_of(lows, i, out, lexicon)]


# Words setting the value asked against another ("why is it 9.15 *rather* than 8.30",
# "why hewitts *instead* of cartwright"): no word of the thing asked about.
_CONTRAST = frozenset({"rather", "instead"})


# Words for how a thing is done ("the hint *rule*", "our guest *policy*"): after the
# thing's own noun they say nothing of it, as an answer states the rule itself.
_RULE_WORDS = frozenset({"rule", "rules", "policy"})
# ... except after words that make the rule a thing of its own ("the house rule", "the
# cancellation policy").
_OWN_RULES = frozenset({"house", "new", "old", "cancellation", "ground", "golden", "dress"})


def _rule_of(lows: Sequence[str], i: int, kept: Sequence[int],
             lexicon: QuestionLexicon) -> bool:
    """Whether ``lows[i]`` is a rule word ending the subject right after the noun of the
    thing it rules ("what's the hint rule now" asks about hints)."""
    return (lows[i] in _RULE_WORDS and i - 1 in kept and lows[i - 1] not in _OWN_RULES
            and lows[i - 1] not in lexicon.attributes
            and (i + 1 >= len(lows) or (i + 1) not in kept))


def months_named(text: str) -> frozenset[str]:
    """The months naming which of a recurring thing a question asks about ("the *april*
    launch", "our may newsletter"): said before its noun, after a determiner."""
    lows = [w.low for w in words(text)]
    return frozenset(
        w for i, w in enumerate(lows[1:-1], start=1) if w in MONTH_OF_WORD
        and lows[i - 1] in DETERMINERS and lows[i + 1] not in STOPWORDS
        and not is_calendar_word(lows[i + 1]) and not lows[i + 1].isdigit())


def _change_noun(lows: Sequence[str], i: int, lexicon: QuestionLexicon) -> bool:
    """Whether the change word at ``i`` names a thing before its noun ("the *move* date",
    "the *switch* date"), not the change asked about ("before the move")."""
    return (0 < i < len(lows) - 1 and lows[i - 1] in lexicon.determiners
            and _subject_word(lows[i + 1], lexicon) and not is_calendar_word(lows[i + 1]))


def _modifier(lows: Sequence[str], i: int, lexicon: QuestionLexicon) -> bool:
    """Whether the light "-ing" word at ``i`` names a kind of thing before a noun, after a
    determiner or a name ("the *planning* date", "millbrook *planning* slip", "the *going*
    rate"), rather than what someone does ("what are we planning for friday")."""
    w = lows[i]
    if not w.endswith("ing") or w.endswith("thing") or w not in lexicon.generic or \
            i + 1 >= len(lows) or i == 0:
        return False
    before, after = lows[i - 1], lows[i + 1]
    return (_subject_word(after, lexicon) and not after.endswith("ing")
            and (before in lexicon.determiners
                 # "kestrel going live", "tom doing setup": what a thing or someone does
                 or (_subject_word(before, lexicon) and w not in lexicon.light_doing)))



def _key_words(lows: Sequence[str], subject_idx: Sequence[int], lexicon: QuestionLexicon, *,
               family: str, copula: bool, when: bool) -> tuple[tuple[str, ...], ...]:
    """See :attr:`QuestionAnalysis.key`. The first run of subject words names what is asked;
    when it ends in a value noun of the family asked ("kafka *version*"), the words before
    it name the thing; a *when* question names its thing (the first run) and its event
    (the last subject word: "when does dune go *live*")."""
    if not subject_idx:
        return ()
    run = subject_run(subject_idx[0], subject_idx)
    words_ = [lows[i] for i in run]
    if when:
        last = [lows[i] for i in subject_idx]
        while last and (lexicon.attributes.get(last[-1]) == "when"
                        or last[-1] in lexicon.when_events):
            last.pop()
        thing = tuple(w for w in words_ if lexicon.attributes.get(w) != "when"
                      and w not in lexicon.when_events)
        groups = [g for g in (thing, (last[-1],) if last else ()) if g]
        return tuple(dict.fromkeys(groups))
    ends_in_value = lexicon.attributes.get(words_[-1], "") == family != "" and \
        family in lexicon.value_named
    if ends_in_value:
        return (tuple(words_[:-1]),) if len(words_) > 1 else ()
    if copula and len(words_) > 1 and words_[-1] in _COST_VERBS and run[-1] == len(lows) - 1:
        # "how much did the new shirts cost": the shirts are asked about, "cost" is the
        # verb asking it (not "what's the okafors' budget", a thing of its own)
        return ((words_[-2],),)
    return ((words_[-1],),) if copula else ()


# "cost" said as the question's last word is its verb ("how much does a pitch cost").
_COST_VERBS = frozenset({"cost", "costs"})


def _dates(text: str, lows: Sequence[str]) -> list[str]:
    """The date expressions of the question, and the months it names in lower case ("the
    april meetup"), which :func:`find_date_expressions` leaves out of free text."""
    found = find_date_expressions(text)
    named = {w.lower() for expr in found for w in expr.split()}
    return found + [w for w in lows if _MONTH.fullmatch(w) and w not in named]


_MONTH = re.compile(r"jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|june?|july?|aug(?:ust)?|"
                    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")


def _opening_words(lows: Sequence[str], opening: int) -> tuple[str, str, str]:
    """The first three words from the question's opening ("" past its end)."""
    first, second, third = (*lows[opening:opening + 3], "", "", "")[:3]
    return first, second, third


def _copula(lows: Sequence[str], opening: int) -> bool:
    """Whether the question is "what/which is the …": it asks for what its noun phrase names."""
    first, second, _ = _opening_words(lows, opening)
    return first in ("what's", "whats") or (
        first in ("what", "which") and second in ("is", "was", "are", "were"))


def _who_copula(lows: Sequence[str], opening: int) -> bool:
    """Whether the question is "who's the/our …" ("who's the photographer for the summit"):
    it asks who holds the role its noun names, which an answer must name or claim."""
    first, second, third = _opening_words(lows, opening)
    return (first in ("who's", "whos") and second in _ROLE_DETERMINERS) or (
        first == "who" and second in ("is", "was") and third in _ROLE_DETERMINERS)


_ROLE_DETERMINERS = frozenset({"the", "our", "your", "their", "ur"})


def _ends_phrase(lows: Sequence[str], word: str) -> bool:
    """Whether ``word`` ends its noun phrase: the question ends or a preposition or "now"
    follows it ("the photographer *for* the summit", "the captain *now*")."""
    at = lows.index(word) if word in lows else -1
    nxt = lows[at + 1] if 0 <= at < len(lows) - 1 else ""
    return at >= 0 and (not nxt or nxt in _AFTER_ROLE)


_AFTER_ROLE = frozenset({"for", "at", "on", "of", "in", "with", "now", "these", "this",
                         "then", "again"})


# A time of day ("1am", "14:30"): a value the question names, not a word to cover.
_CLOCK = re.compile(r"\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)|\d{1,2}[:.]\d{2}")


def is_change_word(low: str, lexicon: QuestionLexicon) -> bool:
    """Whether ``low`` is a word of change ("moved", "pushed", "got", "took")."""
    return any(_matches(low, c) for c in lexicon.change) or _is_role_verb(low, lexicon)


def _is_role_verb(low: str, lexicon: QuestionLexicon) -> bool:
    r = lexicon.roles
    return any(_matches(low, p) for p in (*r.changer, *r.decider, *r.rejecter)
               if " " not in p)


_CLITICS = ("'s", "'d", "'re", "'ll", "'ve", "'m", "s'")


def _base(low: str) -> str:
    """A word without a trailing clitic or possessive ("why'd" → "why", "kwame's" →
    "kwame"); "it's" and "let's" stay whole."""
    if low in ("it's", "let's", "what's", "who's", "when's", "where's", "how's", "that's"):
        return low
    for c in _CLITICS:
        if low.endswith(c) and len(low) > len(c) + 1:
            return low[: -len(c)] if c != "s'" else low[:-1]
    return low


def _asks_decided(lows: Sequence[str], lexicon: QuestionLexicon) -> bool:
    """Whether the question asks what the group decided ("did we agree", "did we settle
    on"): it holds now."""
    return any(w == "did" and lows[i + 1] in lexicon.group_subjects
               and lows[i + 2] in lexicon.decided_verbs for i, w in enumerate(lows[:-2]))


def _opening(lows: Sequence[str], lexicon: QuestionLexicon) -> int:
    """Index of the word the question opens with, past fillers ("hey, quick q: who…",
    "do you know when…"); 0 when no opening word is found early."""
    for i, w in enumerate(lows[:8]):
        if w not in lexicon.openers:
            continue
        asks_about = (i + 2 < len(lows) and lows[i + 1] in _ASKED
                      and lows[i + 2] in _KNOWING)
        if not asks_about:
            return i
    return 0


_ASKED = frozenset({"you", "anyone", "anybody", "someone", "somebody", "we", "i"})


_KNOWING = frozenset({"know", "remember", "recall", "have", "tell", "happen"})


def _date_words(text: str, ws: Sequence[Word]) -> set[int]:
    """Indexes of the words inside date expressions of ``text`` ("the week of mar 24")."""
    spans = []
    pos = 0
    for expr in find_date_expressions(text):
        at = text.find(expr, pos)
        if at < 0:
            continue
        spans.append((at, at + len(expr)))
        pos = at + len(expr)
    return {i for i, w in enumerate(ws) if any(s <= w.start and w.end <= e for s, e in spans)}


def _subject_word(low: str, lexicon: QuestionLexicon) -> bool:
    return (len(low) > 1 or low.isdigit()) and low not in STOPWORDS \
        and low not in lexicon.question_words and low not in lexicon.generic


def _role_spans(lows: Sequence[str], lexicon: QuestionLexicon) -> set[int]:
    """Indexes of the words of every role phrase in ``lows`` ("made the call", "shot
    down", "suggested")."""
    r = lexicon.roles
    out: set[int] = set()
    for p in (*r.proposer, *r.rejecter, *r.decider, *r.changer):
        n = len(p.split())
        i = find_phrase(lows, p)
        while i >= 0:
            out.update(range(i, i + n))
            i = find_phrase(lows, p, i + 1)
    return out


def _who_role(lows: Sequence[str], lexicon: QuestionLexicon, *,
              raw: Sequence[str] = ()) -> str:
    """The role a who question asks about; "doer" when no role word is used."""
    r = lexicon.roles
    if len(lows) > 1 and lows[0] == "whose" and lows[1] in r.whose_idea and not any(
            find_phrase(lows, p) >= 0 for p in r.changer):
        # "whose idea was it to host them here?": whatever verb follows; a change's idea
        # ("whose idea was it to swap out the opener") stays with the change's reading,
        # which names who suggested what the change carried out
        return "proposer"
    opined = [i for i, w in enumerate(lows) if w in r.opinion]
    if opined and r.opinion_modals & set(lows[opined[0] + 1:]):
        return "proposer"
    for role, phrases in (("rejecter", r.against), ("doer", r.doer), ("proposer", r.proposer),
                          ("rejecter", r.rejecter), ("proposer", r.sayer),
                          ("owner", r.owner), ("changer", r.changer), ("decider", r.decider),
                          ("owner", r.holder), ("proposer", r.idea)):
        at = [i for p in phrases if (i := find_phrase(lows, p)) >= 0
              and not _as_noun(raw or lows, i, p, lexicon)
              # "who said they'd bring the cake" asks who holds it, not who said so
              and not (phrases is r.sayer and i + 1 < len(lows)
                       and lows[i + 1].split("'")[0] in _SAID_OWN)]
        if not at:
            continue
        if role == "changer" and _task_ahead(lows, min(at), lexicon):
            return "owner"  # "who's updating the menus": who holds the task
        return role
    return "doer"


# (not "whose", "what", "which": "whose pick was porto" asks who picked it)
_NOUN_DETERMINERS = DETERMINERS - {"what", "which", "whose", "each", "every"}
_SAID_OWN = frozenset({"they", "he", "she", "i", "we", "theyd", "hed", "shed", "id"})


def _as_noun(lows: Sequence[str], i: int, phrase: str, lexicon: QuestionLexicon) -> bool:
    """Whether the one-word role phrase at ``i`` is a noun after a determiner or an owner
    ("who took connor's *spot*", "who has the *lead*"), not the verb of the role."""
    before = lows[i - 1] if i > 0 else ""
    owner = before.endswith(("'s", "’s")) and before[:-2] not in STOPWORDS  # not "who's"
    return " " not in phrase and (before in _NOUN_DETERMINERS or owner)


def _task_ahead(lows: Sequence[str], at: int, lexicon: QuestionLexicon) -> bool:
    """Whether the change verb at ``at`` names a task someone holds now or will do ("who's
    updating the menus", "who will replace the valve"), not a change made ("who updated
    it", "who's moved it")."""
    before = lows[:at]
    if any(w in lexicon.task_will for w in before):
        return True
    # "who's updating …", "who is getting the valve replaced", "who's doing the handover"
    now = next((i for i, w in enumerate(before) if w in lexicon.task_now), -1)
    return 0 <= now < at and lows[now + 1].endswith("ing")


def _before_at(lows: Sequence[str], opening: int) -> int:
    """Where the words after "before" start, past the question's opening (their end when
    it says no "before")."""
    return next((i for i in range(opening + 2, len(lows)) if lows[i] == "before"), len(lows))


def _before_change(lows: Sequence[str], lexicon: QuestionLexicon, *, family: str,
                   past: bool) -> tuple[int, int] | None:
    """The span of words after a *before* that make the question ask for a previous value:
    a change ("before it got moved", "before the correction"), a short value ("before
    devon", "before the 21st" when a past date is asked) or nothing ("who ran it
    before?"). None for a day or another event ("before 10 April", "before meeting
    Maria")."""
    for b in lexicon.before:
        i = find_phrase(lows, b)
        if i < 0 or _span_before(lows, i):
            continue  # "send the reminder 24h before", "the night before": a time, no change
        start = i + len(b.split())
        rest = lows[start: start + lexicon.before_span]
        if not rest:
            return start, start
        if any(any(_matches(w, c) for c in lexicon.change) for w in rest) or any(
                w == "back" and nxt == "to" for w, nxt in zip(rest, rest[1:], strict=False)) or (
                past and rest[:2] == ["going", "to"] and _VALUE_TOKEN.fullmatch(
                    "".join(rest[2:3])) is not None):
            # (a return is a change: "before going back to 1000"; so is going to a value, in
            # a question of the past: "what did we have before going to 1200g", not "what do
            # we eat before going to 5 guys")
            return start, start + len(rest)
        if rest[0].endswith("ing") and len(rest[0]) > 4:
            continue
        if past and any(w in PAST_EVENT_VERBS or (w.endswith("ed") and len(w) > 4) for w in rest):
            # "what was the goal before Northgate came on board?": what it was before an
            # event that changed it
            return start, start + len(rest)
        tail = [w for w in lows[start:] if w not in STOPWORDS]
        if not tail or len(tail) > 2:
            continue
        # "hut price before the surcharge?": a kind of value asked with no verb at all is
        # asked as it was
        # (not a time before an event: "warm-up time before kickoff?")
        terse = (bool(family) and (family != "when" or bool(set(rest) & lexicon.change_nouns))
                 and i > 0
                 and not any(w in lexicon.question_words for w in lows[:i])
                 and start < len(lows) and lows[start] in lexicon.determiners)
        if not (past or terse or any(w.endswith("ed") for w in lows[:i])):
            continue  # "what needs doing before the launch": no earlier value asked
        if _is_date_like(tail) and not (past and family not in ("", "person")):
            # (but a past question asking a kind of value asks it as it was then: "when
            # was it before the 21st", "what was the labour rate before march")
            continue
        return start, min(len(lows), start + len(rest))
    return None


# A value gone to: an amount with its unit or currency ("1200g", "£45k", "19mm", "7pm").
_VALUE_TOKEN = re.compile(r"[£$€]?\d{1,6}(?:[.,]\d{1,3})?(?:[a-z%]{1,6})?")


def _clause_of(text: str, ws: Sequence[Word], span: tuple[int, int]) -> tuple[int, int]:
    """``span`` cut where its clause ends: a *before* clause put first ends at its comma
    ("before the final move, what day was …" names "the final move")."""
    start, end = span
    for j in range(start + 1, end):
        if "," in text[ws[j - 1].end: ws[j].start]:
            return start, j
    return span


def _span_before(lows: Sequence[str], i: int) -> bool:
    """Whether the words before "before" at ``i`` are a length of time or a part of a day
    ("24h before", "two days before", "the night before"; not "the work day before it
    moved", "just before")."""
    if i < 1:
        return False
    if _SPAN_DIGITS.fullmatch(lows[i - 1]):
        return True
    return i >= 2 and _SPAN_WORDS.fullmatch(lows[i - 1]) is not None and (
        lows[i - 2] in _SPAN_COUNTS or lows[i - 2].isdigit())


_SPAN_DIGITS = re.compile(r"\d{1,3}\s?(?:h|hrs?|hours?|d|days?|mins?|minutes?|wks?|weeks?|"
                          r"months?)")
_SPAN_WORDS = re.compile(r"hours?|days?|nights?|weeks?|months?|years?|minutes?|mins?|"
                         r"morning|evening|afternoon")
_SPAN_COUNTS = frozenset({"the", "a", "an", "one", "two", "three", "four", "five", "six",
                          "seven", "few", "couple", "several", "24", "48"})


def _is_date_like(lows: Sequence[str]) -> bool:
    # "before the 21st", "before 2024" are days; "before draft 3" is a label's number, and
    # "before the 14 deal" a number's thing
    return any(is_calendar_word(w) or (
        re.fullmatch(r"\d{4}|\d{1,2}(?:st|nd|rd|th)?", w) is not None
        and not (i and lows[i - 1].isalpha() and not is_calendar_word(lows[i - 1]))
        and not (w.isdigit() and i + 1 < len(lows) and lows[i + 1].isalpha()
                 and not is_calendar_word(lows[i + 1])))
        for i, w in enumerate(lows))


def _named(text: str, ws: Sequence[Word], lexicon: QuestionLexicon, *,
           skip: set[int]) -> list[str]:
    """Named things: quoted phrases, runs of capitalised words not opening the question
    (unless the question is written in title case: "Lebron James", "Taqueria Luna"), and
    words holding digits (versions, ids)."""
    out: list[str] = [m.group(1).strip() for m in _QUOTED.finditer(text)]
    capitals = [w for w in ws if w.text[:1].isupper()]
    title_case = len(capitals) > 0.6 * max(len(ws), 1) and len(ws) > 3
    run: list[str] = []
    last = -2
    for i, w in enumerate(ws):
        low = _base(w.low)
        if i in skip or low in STOPWORDS or low in lexicon.question_words or low == "i":
            continue
        if is_calendar_word(low):
            continue  # a day or month: matched as a date, not as a word
        if "_" in low:
            out.append(w.text)  # an identifier
            continue
        if any(ch.isdigit() for ch in low):
            if re.fullmatch(r"\d{1,2}[:.]\d{2}|\d{1,2}(?:am|pm)", low):
                continue  # a time
            out.append(w.text)
        elif (w.text[:1].isupper() and i > 0 and not title_case
              and not is_calendar_word(w.text) and low not in lexicon.generic):
            name = _base(w.text.lower()) if w.text.lower() != low else w.text
            if run and last == i - 1:
                run.append(name)
            else:
                if run:
                    out.append(" ".join(run))
                run = [name]
            last = i
    if run:
        out.append(" ".join(run))
    return list(dict.fromkeys(out))


def _first_of_named(lows: Sequence[str], lexicon: QuestionLexicon
                    ) -> list[tuple[int, int, str]]:
    """"first" before a noun phrase headed by what was put forward ("the first *stage*
    quote" as "first quote"), with at most two words of its own between them; "first aid"
    is a thing of its own."""
    for i, w in enumerate(lows):
        if w != "first" or i + 2 >= len(lows) or lows[i + 1] in lexicon.first_things:
            continue
        for j in range(i + 2, min(i + 4, len(lows))):
            if lows[j - 1] in STOPWORDS:
                break
            if lows[j] in lexicon.first_offered:
                return [(i, j + 1, f"first {lows[j]}")]
    return []


def _first_said(lows: Sequence[str], lexicon: QuestionLexicon) -> list[tuple[int, int, str]]:
    """"first" said of the asking clause's verb of saying or planning ("how many bags did tom
    *first* announce", "where was the party first going to be"), not an order or a thing
    ("did coach say first practice starts", "who did we agree goes first", "when did the
    first shipment arrive"): after an auxiliary and a subject of its own, before such a
    verb, never after a determiner."""
    for i, w in enumerate(lows):
        if w != "first" or i < 2 or i + 1 >= len(lows) or lows[i + 1] not in lexicon.first_verbs:
            continue
        before = lows[i - 1]
        if before in lexicon.determiners or before in lexicon.past or before.isdigit():
            continue
        if any(x in lexicon.past for x in lows[max(0, i - 4):i - 1]):
            return [(i, i + 1, "first")]
    if len(lows) > 3 and lows[-1] == "first" and lows[-2] not in lexicon.determiners \
            and lows[-2] not in _ORDER_VERBS and any(x in lexicon.past for x in lows[:-2]):
        # "what ribbon colour did walt have first": what the past verb first had (not
        # "who went first": an order)
        return [(len(lows) - 1, len(lows), "first")]
    return []


def _names_by_weekday(lows: Sequence[str], opening: int, when_open: str) -> bool:
    """Whether a "which <weekday>" opener names a thing by its day ("which saturday team",
    "which sunday session") rather than asking the day ("which sunday's the gala on")."""
    parts = when_open.split()
    if len(parts) != 2 or parts[1] not in WEEKDAYS:
        return False
    at = opening + len(parts)
    return at < len(lows) and lows[at] not in STOPWORDS


# Verbs of an order, which "first" after them ranks ("who went first").
_ORDER_VERBS = frozenset("go goes went gone going come came finish finished finishes place "
                         "placed rank ranked speak spoke play played bat batted start "
                         "started".split())
