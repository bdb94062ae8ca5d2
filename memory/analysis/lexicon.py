"""The lexicon of the message analyzer: cue words, slot patterns and weights, as data.

Everything the offline judgement of a chat message depends on that is a word list, a pattern
or a number lives here, so it can be read, reviewed and changed in one place. The composition
root builds one :class:`Lexicon` (frozen) and injects it; the analyzer, the proposer, the
registry scoring and verification take their words and weights from it.

Every pattern is linear: literal alternations and bounded character classes, never a
quantified group that can overlap its neighbour. The analyzer runs them on bounded input
(:attr:`Lexicon.max_chars`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from memory.analysis.cue_words import (
    ACCEPT_CUES,
    ACK_CUES,
    AGENT_NOUNS,
    AMBIGUOUS_REASON,
    ANNOUNCE_PREDICATES,
    ATTRIBUTE_NOUNS,
    BARE_VERBS,
    CANCEL_CUES,
    CHANGE_CUES,
    CHANGE_LABEL_NOUNS,
    CHANGE_LABELS,
    CHANGE_VERBS,
    CHOICE_NOUNS,
    CLAUSE_VERBS,
    COMPLETION_CUES,
    COMPLETION_PLANNED,
    CORRECTION_CUES,
    COUNT_NOUNS,
    DECISION_CUES,
    DISCOURSE,
    DOING_VERBS,
    DURATION_WORDS,
    EVENT_BASE_FORMS,
    EVENT_NOUNS,
    FACET_NOUNS,
    FIRST_PERSON,
    GREETING_OPENERS,
    HANDOVER_VERBS,
    HEADING_WORDS,
    KEEP_CUES,
    KIND_NOUNS,
    LIGHT_VERBS,
    MEETING_HEADS,
    MEETING_KINDS,
    META_WORDS,
    MODAL_VERBS,
    MONTH_WORDS,
    NUMBER_WORDS,
    ORDINAL_THINGS,
    OWNER_VERBS,
    OWNER_VERBS_S,
    PLACE_NOUNS,
    PROCEDURAL,
    PROPOSAL_CUES,
    QUANTITY_VERBS,
    QUESTION_STARTS,
    RATE_UNITS,
    REASON_AFTER_CHANGE,
    REASON_OPENERS,
    REJECTION_OPENERS,
    REMINDER_CUES,
    REPORTERS,
    REQUEST_OPENERS,
    ROLE_NOUNS,
    ROOM_NOUNS,
    SAID_CHANGE,
    SAYING_VERBS,
    SETTLED_CHANGE,
    SETTLING_PHRASES,
    SUGGESTING_CHANGES,
    SUGGESTING_MODALS,
    THING_NOW_CHANGE,
    TIMEZONES,
    TOOL_NAMES,
    VALUE_NOUNS,
    WEEKDAY_WORDS,
    _alternation,
    _phrase_pattern,
)
from memory.analysis.place_words import PLACE_NAMES
from memory.analysis.slot_patterns import (
    _TZ,
    AGREED_ORDINAL,
    CURRENCY_CODES,
    CURRENCY_WORDS,
    MEASURE_PATTERN,
    MONEY_PATTERN,
    MONEY_SCALES,
    PLACE_NAME_PATTERN,
    PLACE_PATTERNS,
    PLACE_WORDS_TOO,
    SCALED_COUNT_NOUNS,
    SCALED_COUNT_PATTERN,
    SIGNED_PATTERN,
    SLOT_PATTERNS,
    SPOKEN_TIME,
    UNCOUNTED_PLURALS,
)
from memory.analysis.system_words import (
    BOT_SPEAKERS,
    FILE_EXTENSIONS,
    SYSTEM_LINES,
    SYSTEM_PATTERNS,
)

__all__ = [
    "ACCEPT_CUES",
    "ACK_CUES",
    "AGENT_NOUNS",
    "AMBIGUOUS_REASON",
    "ANNOUNCE_PREDICATES",
    "ATTRIBUTE_NOUNS",
    "BARE_VERBS",
    "BOT_SPEAKERS",
    "CANCEL_CUES",
    "CHANGE_CUES",
    "CHANGE_LABELS",
    "CHANGE_LABEL_NOUNS",
    "CHANGE_VERBS",
    "CHOICE_NOUNS",
    "CLAUSE_VERBS",
    "CORRECTION_CUES",
    "COUNT_NOUNS",
    "CURRENCY_CODES",
    "CURRENCY_WORDS",
    "DECISION_CUES",
    "DISCOURSE",
    "DURATION_WORDS",
    "RATE_UNITS",
    "EVENT_BASE_FORMS",
    "EVENT_NOUNS",
    "FACET_NOUNS",
    "FILE_EXTENSIONS",
    "FIRST_PERSON",
    "AGREED_ORDINAL",
    "SPOKEN_TIME",
    "HANDOVER_VERBS",
    "HEADING_WORDS",
    "KEEP_CUES",
    "KIND_NOUNS",
    "LIGHT_VERBS",
    "Lexicon",
    "META_WORDS",
    "MEASURE_PATTERN",
    "MONEY_PATTERN",
    "MONEY_SCALES",
    "MONTH_WORDS",
    "NUMBER_WORDS",
    "OWNER_VERBS",
    "OWNER_VERBS_S",
    "PLACE_NAMES",
    "PLACE_NAME_PATTERN",
    "PLACE_NOUNS",
    "PLACE_PATTERNS",
    "PLACE_WORDS_TOO",
    "MEETING_HEADS",
    "MEETING_KINDS",
    "PROCEDURAL",
    "PROPOSAL_CUES",
    "QUANTITY_VERBS",
    "QUESTION_STARTS",
    "REASON_AFTER_CHANGE",
    "REASON_OPENERS",
    "MODAL_VERBS",
    "REPORTERS",
    "SAYING_VERBS",
    "REJECTION_OPENERS",
    "REMINDER_CUES",
    "REQUEST_OPENERS",
    "ROLE_NOUNS",
    "DOING_VERBS",
    "SAID_CHANGE",
    "SETTLED_CHANGE",
    "THING_NOW_CHANGE",
    "SETTLING_PHRASES",
    "SUGGESTING_CHANGES",
    "SUGGESTING_MODALS",
    "ORDINAL_THINGS",
    "ROOM_NOUNS",
    "SCALED_COUNT_NOUNS",
    "UNCOUNTED_PLURALS",
    "SCALED_COUNT_PATTERN",
    "SIGNED_PATTERN",
    "SLOT_PATTERNS",
    "SYSTEM_LINES",
    "SYSTEM_PATTERNS",
    "TIMEZONES",
    "TOOL_NAMES",
    "VALUE_NOUNS",
    "WEEKDAY_WORDS",
    "Weights",
    "default_lexicon",
]


# Words between a number and what it counts that do not describe it: function words ("2 of
# the tickets"), units and currencies ("2 hours late", "12 euro delivery fees"), words of
# time ("at 7 then guys", "9 tonight folks", "by 20 july pls"), adverbs ("python 3 still
# breaks").
_NOT_DESCRIBING = frozenset("""of the a an and or to for in on at with per from by each more
than this that these those our your their my his her its is are was were be been am pm
then now still really always sharp tonight today tomorrow tmrw pls asap nobody just also
only already again euro euros quid dollar dollars pound pounds hour day week month year
percent million billion thousand mil mn
""".split()) | UNCOUNTED_PLURALS | frozenset(MONTH_WORDS) | frozenset(WEEKDAY_WORDS)
# Plurals that address people rather than count them after describing words ("1 quick
# question guys").
_ADDRESSED = frozenset("guys lads folks peeps ladies gents everyone".split())


@dataclass(frozen=True)
class Weights:
    """Numbers of the offline judgement (revision scoring, registry search, linking)."""

    # Revision: how a value of a clause matches an active state.
    subject_topic: float = 0.50      # term overlap of the clause's subject with the topic
    subject_description: float = 0.20  # the clause's words shared with the state's evidence
    subject_dense: float = 0.35      # cosine of the subject phrase and the topic
    linked: float = 0.45             # the state of the message this one replies to/answers
    thread: float = 0.25             # a state of the same thread
    old_value: float = 0.70          # the clause names the state's value as replaced
    value_named: float = 0.30        # the clause names the state's value
    recency: float = 0.10            # exp(-age / recency_days)
    recency_days: float = 7.0
    change: float = 0.30             # times the clause's change strength
    revise_threshold: float = 0.45   # least score to revise
    restate_threshold: float = 0.60  # least score to restate without a link
    min_subject_dense: float = 0.55  # a dense match alone must be this close
    # ... and this close when the clause names a thing of its own, sharing no word with
    # the state, and says no change ("account's at €1,840" is no membership fee)
    min_subject_dense_unchanged: float = 0.70
    min_subject_overlap: float = 0.5  # a lexical match alone must share this much
    # A state touched this long ago no longer gets the recency bonus (seconds).
    # Registry search (search_registry).
    search_lexical: float = 0.55
    search_dense: float = 0.45
    search_family: float = 0.10
    search_value_named: float = 0.30
    search_recency: float = 0.05
    # Question–answer linking in unthreaded chat.
    link_question: float = 1.0
    link_proposal: float = 0.9
    link_kind: float = 0.5
    link_lexical: float = 0.4
    link_mention: float = 0.6
    link_decay: float = 0.65         # per intervening turn
    link_min: float = 0.45
    link_turns: int = 6              # turns looked back
    link_gap_s: float = 30 * 60      # the answered turn is at most this old
    # A change of "it" after talk naming a value in force: memory.uptake.
    talk_turns: int = 3              # turns looked back for the value named
    talk_states: int = 5             # the channel's states read for each

    # Values said alone ("12 it is"): memory.terse_replies.
    alone_max_words: int = 8         # a reply longer than this says more than a value
    alone_continues_s: float = 5 * 60  # the speaker's own turn this soon before continues
    alone_topical: float = 0.5       # share of a state's subject words a turn must name


@dataclass(frozen=True)
class Lexicon:
    """The analyzer's words, patterns and weights, compiled once (frozen; inject it)."""

    weights: Weights = field(default_factory=Weights)
    change_cues: Mapping[str, float] = field(default_factory=lambda: CHANGE_CUES)
    max_chars: int = 4000
    change: re.Pattern[str] = field(init=False, repr=False)
    proposal: re.Pattern[str] = field(init=False, repr=False)
    rejection_open: re.Pattern[str] = field(init=False, repr=False)
    keep: re.Pattern[str] = field(init=False, repr=False)
    correction: re.Pattern[str] = field(init=False, repr=False)
    cancel: re.Pattern[str] = field(init=False, repr=False)
    ack: re.Pattern[str] = field(init=False, repr=False)
    accept: re.Pattern[str] = field(init=False, repr=False)
    reminder: re.Pattern[str] = field(init=False, repr=False)
    completed: re.Pattern[str] = field(init=False, repr=False)
    completion_planned: re.Pattern[str] = field(init=False, repr=False)
    decision: re.Pattern[str] = field(init=False, repr=False)
    reason_open: re.Pattern[str] = field(init=False, repr=False)
    reason_after_change: re.Pattern[str] = field(init=False, repr=False)
    system: re.Pattern[str] = field(init=False, repr=False)
    system_start: re.Pattern[str] = field(init=False, repr=False)
    bot_speaker: re.Pattern[str] = field(init=False, repr=False)
    file_name: re.Pattern[str] = field(init=False, repr=False)
    markup: re.Pattern[str] = field(init=False, repr=False)
    slots: tuple[tuple[str, re.Pattern[str]], ...] = field(init=False, repr=False)
    places: tuple[re.Pattern[str], ...] = field(init=False, repr=False)
    place_names: re.Pattern[str] = field(init=False, repr=False)
    announce: re.Pattern[str] = field(init=False, repr=False)
    greeting: re.Pattern[str] = field(init=False, repr=False)
    timezone: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        put("change", _phrase_pattern(self.change_cues))
        put("proposal", _phrase_pattern(PROPOSAL_CUES))
        put("rejection_open", re.compile(
            r"^\W{0,3}(?:" + _alternation(REJECTION_OPENERS) + r")(?![\w'])", re.IGNORECASE))
        put("keep", _phrase_pattern(KEEP_CUES))
        put("correction", _phrase_pattern(CORRECTION_CUES))
        put("cancel", _phrase_pattern(CANCEL_CUES))
        put("ack", re.compile(r"^\W{0,3}(?:" + _alternation(ACK_CUES) + r")(?![\w'])",
                              re.IGNORECASE))
        put("accept", _phrase_pattern(ACCEPT_CUES))
        put("reminder", _phrase_pattern(REMINDER_CUES))
        put("completed", _phrase_pattern(COMPLETION_CUES))
        put("completion_planned", _phrase_pattern(COMPLETION_PLANNED))
        put("decision", _phrase_pattern(DECISION_CUES))
        put("reason_open", re.compile(
            r"(?<![\w'])(?:" + _alternation(REASON_OPENERS) + r")(?![\w])", re.IGNORECASE))
        put("reason_after_change", _phrase_pattern(REASON_AFTER_CHANGE))
        put("system", _phrase_pattern(SYSTEM_LINES))
        put("system_start", re.compile("|".join(SYSTEM_PATTERNS), re.IGNORECASE))
        put("bot_speaker", re.compile(
            r"(?:^|[\s_.-])(?:" + _alternation(BOT_SPEAKERS) + r")(?:$|[\s_.-])|bot$",
            re.IGNORECASE))
        put("file_name", re.compile(
            r"(?<![\w/])[\w.-]{1,80}\.(?:" + _alternation(FILE_EXTENSIONS) + r")\b|"
            r"\bscreen\s?shot\s\d{4}-\d{2}-\d{2}(?:\sat\s\d{1,2}[.:]\d{2}[.:]\d{2})?",
            re.IGNORECASE))
        # Slack/Discord markup: <@U123>, <#C123|name>, <https://...|label>, <!here>, and
        # bare URLs. Their text is never a subject or a value.
        # ("forms.gle/kcc-spring", "canva.com/design/…", "eventbrite.com": a domain
        # written without its scheme is a link too)
        put("markup", re.compile(r"<[@#!][^<>\s]{1,80}>|<https?://[^<>\s]{1,2000}>|"
                                 r"https?://\S{1,2000}|www\.\S{1,2000}|"
                                 r"(?<![\w@./-])(?:[a-z\d][a-z\d-]{0,62}\.){1,4}(?:[a-z]{2,6}/"
                                 r"\S{0,2000}|(?:com|org|net|io)\b(?![.-]\w))", re.IGNORECASE))
        # what a number counts: a counting noun, or any plural that is no unit or verb (not
        # a price: "£5 adults" is money for each adult)
        # ... also with one or two words describing it between ("150 forest green tees"):
        # none a plural itself (the count ends at its first plural), no year before them
        described = (r"(?:\s(?!(?:" + _alternation(_NOT_DESCRIBING) + r")\b)[a-z]{2,11}"
                     r"[a-rt-z]){1,2}")
        plural = r"(?!(?:" + _alternation(UNCOUNTED_PLURALS) + r")\b)[a-z][a-z-]{1,20}s"
        counted = (r"(?<![$€£¥])(?<![\d.,])(?<![A-Za-z]-)\b(?:\d{1,3}(?:,\d{3})+|\d{1,4}|"
                   + _alternation(NUMBER_WORDS) + r")(?:[\s-](?:" + _alternation(COUNT_NOUNS)
                   + r"|" + plural + r")|(?<!\b19\d\d)(?<!\b20\d\d)" + described + r"\s(?!(?:"
                   + _alternation(_ADDRESSED) + r")\b)" + plural + r")\b")
        put("slots", tuple((kind, re.compile(src, 0 if kind == "choice" else re.IGNORECASE))
                           for kind, src in (*SLOT_PATTERNS, ("count", counted))))
        put("places", tuple(re.compile(src) for src in PLACE_PATTERNS))
        put("place_names", re.compile(PLACE_NAME_PATTERN, re.IGNORECASE))
        put("announce", re.compile(
            r"^[\W_]{0,12}(?P<h>\w[^.!?:\n]{1,58}?)[\W_]{0,4}\s(?:"
            + _alternation(ANNOUNCE_PREDICATES) + r")(?![\w'])", re.IGNORECASE))
        put("greeting", re.compile(
            r"^[\W_]{0,12}(?:" + _alternation(GREETING_OPENERS) + r")(?![\w'])", re.IGNORECASE))
        put("timezone", re.compile(r"\s?(?:" + _TZ + r")\b", re.IGNORECASE))

    def before_reason(self, text: str) -> str:
        """``text`` up to a reason it gives ("overspend is £35k because of the slip": the
        slip is the reason's change, not the clause's). Ambiguous openers ("since Monday")
        do not cut."""
        for m in self.reason_open.finditer(text):
            if m.start() > 0 and m.group(0).lower() not in AMBIGUOUS_REASON:
                return text[:m.start()]
        return text

    def change_strength(self, text: str) -> float:
        """The strongest change cue in ``text`` (0 when none)."""
        best = 0.0
        for m in self.change.finditer(text):
            if _NEGATED_CUE.search(text[max(0, m.start() - 4):m.start()]):
                continue  # "so no change to sat hours" keeps them
            best = max(best, self.change_cues.get(m.group(0).lower(), 0.0))
        return best


# "no" right before a change cue: nothing changes.
_NEGATED_CUE = re.compile(r"\bno\s{1,2}$", re.IGNORECASE)


_DEFAULT: list[Lexicon] = []


def default_lexicon() -> Lexicon:
    """The stock lexicon, built once: for callers outside the composition root (tests, the
    LLM proposer's offline fallback) that were not handed one."""
    if not _DEFAULT:
        _DEFAULT.append(Lexicon())
    return _DEFAULT[0]
