"""Where a clause's subject is: the words before its predicate, the object of a change or
hand-over verb, after openers, reasons, proposals and questions are stripped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.cue_words import EFFECTIVE_OPENERS
from memory.analysis.lexicon import (
    AGENT_NOUNS,
    ATTRIBUTE_NOUNS,
    CHANGE_VERBS,
    DISCOURSE,
    DURATION_WORDS,
    HANDOVER_VERBS,
    LIGHT_VERBS,
    MODAL_VERBS,
    OWNER_VERBS,
    REPORTERS,
    REQUEST_OPENERS,
    SAYING_VERBS,
    Lexicon,
)
from memory.analysis.message_patterns import (
    _COPULAS,
    _DETERMINERS,
    _NOUN_ING,
    _PRONOUNS,
    _STOP_WORDS,
    _SUBJECT_PRONOUNS,
    _VALUE_PREPS,
    _content,
    _event_verb,
    _in_value,
)
from memory.analysis.values import Kind, Token, Value
from memory.text import STOPWORDS


def _strip_openers(toks: list[Token]) -> list[Token]:
    """Drop discourse openers ("ok so", "bad news", "heads up", "realistically")."""
    i = 0
    while i < len(toks) and (toks[i].low in DISCOURSE or (
            toks[i].low.endswith("'s") and toks[i].low[:-2] in DISCOURSE)):
        i += 1
    if i + 1 < len(toks) and toks[i].low == "looking" and toks[i + 1].low in ("at", "like"):
        i += 2  # "Looking at Sat–Sun 12–13 April": a plan put forward, naming nothing
    if i + 1 < len(toks) and toks[i].low in ("im", "i'm", "i’m") and toks[i + 1].low in (
            "sold", "convinced", "in"):
        i += 2  # "ok im sold." is agreement, naming nothing
    return toks[i:]


def strip_change_of_mind(toks: list[Token]) -> list[Token]:
    """Drop "changed her mind (again)", "had a change of heart", "change of plan (on)": a
    change said of someone or announced, naming no subject ("library changed their mind
    again, back to 1000": the library's)."""
    lows = [t.low for t in toks]
    for i, low in enumerate(lows):
        end = 0
        if low in _MIND_VERBS and i + 2 < len(lows) and lows[i + 1] in _MIND_OWNERS \
                and lows[i + 2] in ("mind", "minds"):
            end = i + 3
        elif low == "change" and lows[i + 1: i + 3] in (["of", "heart"], ["of", "plan"],
                                                         ["of", "plans"]):
            end = i + 3
            # "change of plan on the mics": what it is on
            end += 1 if end < len(lows) and lows[end] in ("on", "for", "re") else 0
        if end:
            start = i
            while start and lows[start - 1] in _MIND_AUX:
                start -= 1
            end += 1 if end < len(lows) and lows[end] == "again" else 0
            if lows[i + 1] in _PERSONAL or low == "change":
                # a person's mind ("Ana changed her mind", "Mrs Okonkwo changed her
                # mind"): they are no subject either
                while start and (toks[start - 1].text[:1].isupper()
                                 or lows[start - 1].rstrip(".") in _TITLES):
                    start -= 1
            # (and another said after it: "change of plan, Ana changed her mind")
            return [*toks[:start], *strip_change_of_mind(toks[end:])]
    return toks


_MIND_VERBS = frozenset({"changed", "change", "changes", "changing"})
_MIND_OWNERS = frozenset({"my", "her", "his", "their", "our", "your", "its"})
_PERSONAL = frozenset({"her", "his"})
_TITLES = frozenset({"mrs", "mr", "ms", "miss", "dr"})
_MIND_AUX = frozenset({"has", "have", "had", "'s", "'ve", "is", "are", "was", "were", "a"})


def _skip_reason(toks: list[Token]) -> list[Token]:
    """Drop a leading "given that", "because", "since", "so" (the clause's own subject
    follows)."""
    if toks and toks[0].low in _LEAD_REASONS:
        # "After the survey I'm bumping the booth order to 4": the doer starts the clause
        at = next((j for j in range(2, min(len(toks) - 1, _LEAD_REASON_WORDS + 1))
                   if toks[j].low in _SUBJECT_PRONOUNS), None)
        if at is not None and (toks[0].low != "with" or _changes_after(toks, at)):
            return toks[at:]
    i = 0
    while i < len(toks) and toks[i].low in {"given", "because", "since", "so", "as", "that",
                                            "bc", "cause", "cuz"} and i < 2:
        i += 1
    return toks[i:] if i < len(toks) else toks


#: Words opening a phrase of why or after what, before the clause's own doer ("With the
#: pre-orders in we're bumping the print run to 4,000").
_LEAD_REASONS = frozenset({"after", "following", "given", "since", "because", "thanks",
                           "with"})
#: The most words such a phrase runs to before the doer.
_LEAD_REASON_WORDS = 9


def _changes_after(toks: list[Token], at: int) -> bool:
    """Whether the doer at ``at`` changes a thing right after ("we're bumping the print run"):
    only then is a "with …" before it a reason ("With the caterer we agreed £30 a head"
    names who the value is with)."""
    if toks[at - 1].low in MODAL_VERBS or toks[at - 1].low in {"do", "did", "does"}:
        return False  # "with the vault at $42 should we bump …": a question of its own
    rest = [t.low for t in toks[at + 1:at + 4]]
    while rest and rest[0] in {"are", "'re", "re", "will", "'ll", "have", "'ve", "had",
                               "just", "now", "also"}:
        rest = rest[1:]
    return bool(rest) and rest[0] in CHANGE_VERBS


def skip_effective_day(toks: list[Token], values: tuple[Value, ...]) -> list[Token]:
    """Drop a day the change takes effect on opening the clause ("from may club night
    moves to the royal oak", "as of monday standup is at 10"): the subject follows it."""
    n = 2 if len(toks) > 2 and toks[0].low == "as" and toks[1].low == "of" else (
        1 if toks and toks[0].low in _EFFECTIVE_OPENERS else 0)
    if not n or n >= len(toks):
        return toks
    day = _in_value(toks[n], values)
    if day is None or day.family != "when":
        return toks
    rest = [t for t in toks[n:] if t.start >= day.end]
    return rest if rest and _in_value(rest[0], values) is None else toks


_EFFECTIVE_OPENERS = frozenset(w for w in EFFECTIVE_OPENERS if " " not in w)


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
                                            "want", "have", "'ll", "must", "might",
                                            # "they're now delivering Friday 22 May"
                                            "now", "actually", "finally", "officially"}:
        j += 1
    if j >= len(toks) or toks[j].low in _COPULAS or toks[j].low in _VALUE_PREPS:
        return None
    return toks[j + 1:]


def _agent_verb(toks: list[Token]) -> list[Token] | None:
    """After "IPC confirmed", "marco scheduled", "the client moved" (a one- or two-word
    agent, a past-tense verb, then a determiner), the words that follow: the thing acted
    on is what the clause is about, not who acted. None when the clause does not open
    that way."""
    for n in (1, 2):
        if len(toks) <= n + 1:
            return None
        verb, det = toks[n], toks[n + 1]
        # "Jordan got us the gym": who it was got for comes before the thing
        dative = det.low in _DATIVES and len(toks) > n + 2
        if dative:
            det = toks[n + 2]
        if ((verb.low.endswith("ed") and len(verb.low) > 4 and verb.low not in _NOT_ACTS
             or verb.low in _IRREGULAR_ACTS)
                and det.low in _DETERMINERS
                and not any(t.low in _PRONOUNS for t in toks[:n])):
            return toks[n + 1 + dative:]
    return None


# Irregular past forms that act on a thing ("Sam found a van", "Jordan got us the gym").
_IRREGULAR_ACTS = frozenset({"got", "found", "took", "chose", "picked", "bought", "sold",
                             "brought", "sent", "won", "made"})
_DATIVES = frozenset({"us", "me", "them", "you"})
# Irregular past forms of reaching someone ("rang the plumber", "rang round the cleaners").
_IRREGULAR_REACHED = frozenset({"rang", "spoke", "met", "told", "saw", "heard"})


# Past forms that do not act on a thing ("need", "based", "interested").
_NOT_ACTS = frozenset({"needed", "based", "interested", "excited", "worried", "tired",
                       "bored", "supposed", "used", "concerned", "involved"})


def _verb_at_start(words: Sequence[Token], values: tuple[Value, ...]) -> bool:
    """Whether the clause opens with a change or handover verb ("pushing it to Friday",
    "bump terraform to 1.10"), not a noun that looks like one ("Push notification revamp")."""
    first = words[0].low
    if first.endswith("ed") and len(first) > 4 and first not in DISCOURSE and len(words) > 1:
        return True  # "Resubmitted 2.4 to Apple", "Planned maintenance at 3pm"
    if first in _IRREGULAR_REACHED and len(words) > 1 and words[1].low in _DETERMINERS:
        return True  # "rang the hvac guy, he's coming wed"
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


# Particles of phrasal change verbs ("pulled the launch *forward*", "pushed it *back*"):
# how the thing changed, never part of it.
PARTICLES = frozenset({"over", "back", "out", "up", "forward", "ahead", "down", "around",
                        "off"})


def _object_of(toks: Sequence[Token], values: tuple[Value, ...]) -> list[Token]:
    """The object of a change or handover verb: its words up to the next preposition or
    value ("[pushing] the review to Friday", "[handing] the release notes over to")."""
    out: list[Token] = []
    for t in toks:
        if (t.low in _VALUE_PREPS or t.low in PARTICLES or _in_value(t, values)
                or t.low in _COPULAS or t.low in {"will", "would"}):
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


def before_be(toks: Sequence[Token], i: int) -> bool:
    """Whether a modal at ``i`` opens a passive or a copula ("the AGM *will* be held"),
    ending the subject before it (not "blackbird *can* do the tasting")."""
    return (toks[i].low in MODAL_VERBS and i + 1 < len(toks)
            and toks[i + 1].low in {"be", "been"})


# Openers naming the topic before a comma: "Regarding the manure, I propose …".
_TOPIC_OPENERS = ("regarding", "re", "concerning", "as for", "as regards",
                  "with regard to", "with regards to", "on the subject of", "re:")
# What may follow the topic's comma for the topic to be the clause's subject: the speaker
# or the team acting on it ("Regarding the manure, I propose …"), not a subject of its own
# ("concerning the delay, the demo moves to thursday").
_ACTORS = frozenset({"i", "we", "i'd", "we'd", "i'll", "we'll", "i'm", "we're", "let's",
                     "lets", "you", "can", "could", "should", "shall", "pls", "please",
                     "it's", "its", "it", "that's", "ok", "okay"})


def topic_opened(toks: Sequence[Token], masked: str) -> list[Token] | None:
    """The topic a clause opens with before a comma ("Regarding the manure, …", "as for
    the rota, …"); None when it does not open that way."""
    lows = [t.low for t in toks]
    for opener in _TOPIC_OPENERS:
        n = len(opener.split())
        if lows[:n] != opener.split():
            continue
        for j in range(n, min(len(toks), n + 6)):
            if "," in masked[toks[j].end:toks[j].end + 2]:
                if j + 1 >= len(toks) or toks[j + 1].low not in _ACTORS:
                    return None
                topic = [t for t in toks[n:j + 1] if t.low not in _DETERMINERS]
                return topic or None
        return None
    return None


def _reporter(toks: Sequence[Token]) -> bool:
    """Whether the words before a reporting verb name someone who reports ("supplier",
    "the head", "Dana", "finance"), not a thing that shows a value ("the ticket price says
    £45 on the site")."""
    words = [t for t in toks if t.low not in _DETERMINERS]
    return bool(words) and len(words) <= 2 and (
        words[-1].low in AGENT_NOUNS or words[-1].low in REPORTERS
        or words[-1].text[:1].isupper())


def after_report(toks: Sequence[Token], values: tuple[Value, ...]) -> list[Token]:
    """The words after a report of who said a value ("supplier says [£28 now]", "the head
    said [it's £350 max]"): one to three words and a reporting verb opening the phrase,
    right before the value; the phrase itself otherwise."""
    for i, t in enumerate(toks[:4]):
        if i and t.low in SAYING_VERBS and _reporter(toks[:i]):
            rest = toks[i + 1:]
            if rest and rest[0].low == "that":
                rest = rest[1:]
            nearby = rest[:3]
            if any(_in_value(x, values) is not None for x in nearby):
                return list(rest)
            return list(toks)
    return list(toks)


def _noun_before_verb(toks: Sequence[Token], i: int, lex: Lexicon) -> bool:
    """Whether a change word ("move", "push") is a noun here: the last word of a compound
    followed by its own verb ("depot move slipped", "office move is 14 nov")."""
    if toks[i].low.endswith(("ing", "ed", "es")) or i + 1 >= len(toks):
        return False
    nxt = toks[i + 1].low
    return (nxt in _COPULAS or nxt in {"got", "gets", "has", "had", "will", "was", "were"}
            or lex.change_cues.get(nxt, 0.0) >= 0.5)


def _names_go_on(toks: Sequence[Token], i: int) -> bool:
    """Whether the comma before ``toks[i]`` only goes on with a list of names to the end
    ("qualifiers for Dev, Harriet and Joe"): the list belongs to the phrase before it."""
    if not toks[i - 1].text[:1].isupper():
        return False
    rest = toks[i:]
    return any(t.low in {"and", "&"} for t in rest) and all(
        t.text[:1].isupper() or t.low in {"and", "&"} for t in rest)


def _before_predicate(toks: Sequence[Token], values: tuple[Value, ...], lex: Lexicon,
                      masked: str = "") -> list[Token]:
    """The words before the clause's predicate; when a change verb follows a doer ("finance
    cut [the RI budget] to €36k", "we moved [the review] to Friday"), its object."""
    out: list[Token] = []
    for i, t in enumerate(toks):
        if _in_value(t, values) is not None:
            break
        if out and i > 0 and "," in masked[toks[i - 1].end:t.start] \
                and not _names_go_on(toks, i):
            out = []  # "runbook in confluence, pls review by wed": a new phrase
        low = t.low
        if out and low in CHANGE_VERBS and _noun_before_verb(toks, i, lex):
            out.append(t)  # "depot move slipped to 28 nov": the move is the thing
            continue
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
        if out and before_be(toks, i):
            break  # "the AGM will be held on …"
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



# Verbs naming when a gathering happens ("we start at 7", "we meet at 6:30am"), each with
# its plain form: with no other subject, the verb is what a time after it is the time of.
EVENT_VERBS: dict[str, str] = {
    "start": "start", "starts": "start", "starting": "start", "begin": "start",
    "begins": "start", "finish": "finish", "finishes": "finish", "finishing": "finish",
    "meet": "meet", "meets": "meet", "meeting": "meet", "open": "open", "opens": "open",
    "close": "close", "closes": "close", "leave": "leave", "leaving": "leave",
    "depart": "leave", "kick": "kick off", "wrap": "finish",
}
# Words of the event's people before its verb ("we", "doors").
_EVENT_DOERS = frozenset({"we", "we'll", "we're", "you", "they", "everyone", "u", "doors",
                          "rehearsals", "rehearsal", "practice", "training", "session"})
# How many words may stand between the verb and its time ("we start at 7:00pm").
_EVENT_REACH = 3


def event_verb(toks: Sequence[Token], values: Sequence[Value]) -> str:
    """The event a subjectless clause times by its verb ("From Tuesday 17 March we start at
    7:00pm" → "start"), "" when it does not: a word of its people, one of the verbs, and a
    time or date within a few words after it."""
    for i in range(1, len(toks)):
        verb = toks[i]
        if verb.low not in EVENT_VERBS or toks[i - 1].low not in _EVENT_DOERS:
            continue
        reach = toks[i + 1:i + 2 + _EVENT_REACH]
        if reach and any(v.family in ("when", "where")
                         and reach[0].start <= v.start <= reach[-1].end for v in values):
            return EVENT_VERBS[verb.low]
    return ""
