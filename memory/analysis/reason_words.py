"""Words the reader (and the writer, noting a change's reason) use to read why something
changed and what a question's words cover, as data: what stands in the way of a plan, how
a change says it follows from it, the verbs of a change, chat shorthand, and the sentences
that give no reason (what stays the same, what readers are asked to do). Extend freely.
"""

from __future__ import annotations

import re

from memory.analysis.cue_words import CHANGE_LABEL_NOUNS, CHANGE_LABELS, CHANGE_VERBS, DISCOURSE
from memory.dates.days import MONTH_NAMES

__all__ = ["AGAINST_WORDS", "BLOCKER_WORDS", "CALENDAR_QUALIFIERS", "CHANGE_PREDICATES",
           "CHAT_SHORTHAND",
           "CONCERN_WORDS", "CONSEQUENCE_WORDS", "DROP_VERBS", "FALL_PHRASES", "NOT_DONE_WORDS",
           "PREFERS_OTHER",
           "PAST_EVENT_VERBS", "PROBLEM_NEGATIONS", "PURPOSE", "FOLLOWS", "CAN_DO",
           "REFUSAL_WORDS", "REPORT_VERBS",
           "RISE_PHRASES", "SAMENESS", "ASKS_OF_READERS", "PASSES_IT_ON", "says_no_reason"]

# What a turn says when it stands in the way of a plan (a blocker): the reason a change
# made just after it gives, even when the change does not repeat it ("heads up: the
# bank moved its settlement run to that night, we can't …" → "ok, moving to the 19th then").
BLOCKER_WORDS = (
    "can't", "cant", "cannot", "can not", "won't", "wont", "couldn't", "unable", "not able",
    "unavailable", "not available", "no availability", "nothing available", "booked",
    "double-booked", "double booked", "clash", "clashes", "conflict", "conflicts", "problem",
    "issue", "broken", "broke", "down", "outage", "sick", "ill", "flu", "covid", "leave",
    "away", "delayed", "delay", "late", "lagging", "lag", "flooded", "flood", "closed",
    "shut", "cancelled", "canceled", "fell through", "too expensive", "over budget",
    "pulled out", "backed out", "dropped out", "rejected", "failed", "bug", "regression",
    "blocker", "blocked", "heads up", "bad news", "unfortunately", "sadly", "not ready",
    "no longer", "too small", "too big", "full", "sold out", "overlaps", "holiday",
    # what a change waits on or what got in its way
    "needs", "has to", "have to", "requires", "waiting on", "waiting for", "missing",
    "stuck", "crash", "crashes", "corrupt", "no point", "busy", "swamped", "backorder",
    "back order", "out of stock", "appointment", "emergency", "rain", "storm", "forecast",
    "snow", "is taken", "are taken", "already taken",
    # what makes a plan hard for someone ("the 8:15 is a bit tricky for me")
    "tricky", "awkward", "difficult", "doesn't work", "doesnt work", "not ideal", "struggle",
    "struggling", "a pain", "hard to", "hard for",
    # works or a shortage closing a place, demand pressing on a plan ("doing a kitchen
    # refurb that week", "staff shortage", "makes mondays their busiest", "parents asked if
    # they could pop in"); not any request ("Sam asked for the notes")
    "busiest", "refurb", "refurbishment", "renovation", "renovating", "building work",
    "roadworks", "shortage", "short-staffed", "short staffed", "understaffed", "asked if",
    "complained",
)
# Words that name a part of a period when a calendar word follows ("*late* may", "late next
# week"): a blocker among them then reports nothing.
CALENDAR_QUALIFIERS = frozenset({"late", "early", "mid"})
# Words by which a question names a change by its direction ("before the *increase*",
# "before Niamh *cut* it", "before the price *went up*"): the change asked about moved an
# amount that way.
RISE_PHRASES = ("increase*", "raise*", "raising", "rise", "rose", "hike*", "bump*", "upped",
                "went up", "go up", "goes up", "gone up", "going up")
FALL_PHRASES = ("cut", "cuts", "decrease*", "reduce*", "reduction", "drop", "dropped",
                "lower", "lowered", "went down", "go down", "goes down", "gone down",
                "going down")
# A plain negation also says what stands in the way when it names the thing a change left
# ("buzzsprout *doesn't* do dynamic ad insertion", "*wouldn't* put a lager in FV2", "8 is
# *too* much for some folks").
PROBLEM_NEGATIONS = ("not", "doesn't", "doesnt", "don't", "dont", "isn't", "isnt", "wouldn't",
                     "wouldnt", "didn't", "didnt", "aren't", "arent", "wasn't", "wasnt",
                     "no way", "never", "too")
# Verbs by which a why-question names what a change left behind ("why did we *drop*
# buzzsprout", "why'd rita *drop out*"): its subject is then the thing left.
DROP_VERBS = ("drop", "dropped", "ditch", "ditched", "scrap", "scrapped", "dump", "dumped",
              "abandon", "abandoned", "skip", "skipped", "replace", "replaced", "axe", "axed",
              "give up", "gave up", "stop using", "stopped using", "pull out", "pulled out",
              "back out", "backed out", "switch from", "switched from", "move away from")
# Words by which a change says it follows from what was just said ("ok, thursday *then*",
# "*so* we're moving it").
CONSEQUENCE_WORDS = ("then", "so", "in that case", "that means", "which means", "guess",
                     "fine", "alright", "because of that", "given that")
# Chat shorthand and the word it stands for ("~350 ppl" answers "how many people"): a
# unit stating the shorthand covers the word. Extend freely.
CHAT_SHORTHAND: dict[str, str] = {
    "ppl": "people", "ppls": "people", "mtg": "meeting", "mtgs": "meetings",
    "hr": "hour", "hrs": "hours", "mins": "minutes", "secs": "seconds", "wk": "week",
    "wks": "weeks", "mos": "months",
    "yr": "year", "yrs": "years", "tmrw": "tomorrow", "tmr": "tomorrow", "tomo": "tomorrow",
    "2moro": "tomorrow", "tonite": "tonight", "appt": "appointment", "appts": "appointments",
    "bday": "birthday", "dept": "department", "mgmt": "management", "mgr": "manager",
    "msg": "message", "msgs": "messages", "convo": "conversation", "rez": "reservation",
    "pic": "picture", "pics": "pictures", "vid": "video",
    "vids": "videos", "repo": "repository",
    "env": "environment", "prod": "production", "eng": "engineering", "mktg": "marketing",
    "ops": "operations", "govt": "government", "approx": "approximately", "qty": "quantity",
    "amt": "amount", "addr": "address", "tix": "tickets",
    "uni": "university", "prof": "professor", "avg": "average",
    "xmas": "christmas", "mgrs": "managers", "dims": "dimensions", "pp": "pages",
    "pgs": "pages", "specs": "specifications",
    "docs": "documents", "temps": "temperatures", "accom": "accommodation",
    "equip": "equipment", "certs": "certificates", "sched": "schedule",
    # months cut short ("£630 from jan" answers "from january"; not "mar", a verb too, and
    # weekdays are left to the date reading: "sat" is also a verb)
    **{m[:3].lower(): m.lower() for m in MONTH_NAMES if len(m) > 3 and m != "March"},
    "sept": "september",
}
# Verbs that change a decision ("why did kaito *step down*", "who *pushed* the audit",
# "whose idea was it to *swap out* the opener"): a chat tells the change in its own words
# ("moving to", "can't make it", "low tide opens"), so in a question they weigh as a
# predicate, not as the subject (the message analyzer's change verbs, and these).
CHANGE_PREDICATES = CHANGE_VERBS | frozenset(
    """upgrade upgraded upgrading downgrade downgraded ditch ditched drop dropped dropping
    kill killed veto vetoed scrap scrapped cancel cancelled canceled cancelling step stepped
    stepping quit hand handed handing""".split())
# A why question about something that did not happen ("why couldn't we …", "why not …"):
# its reason is in the reply that turned the proposal down.
# What a why-question asks counted against a thing ("what was the problem with MAQS?"):
# like a question negating it, it asks why the thing was not done.
AGAINST_WORDS = ("problem with", "downside", "catch with", "objection to", "objections to")
NOT_DONE_WORDS = ("couldn't", "couldnt", "could not", "didn't", "didnt", "did not", "wasn't",
                  "wasnt", "weren't", "werent", "not", "never", "won't", "wont", "can't",
                  "cant", "cannot", "no", "aren't", "arent", "isn't", "isnt", "don't", "dont",
                  "doesn't", "doesnt")
# A reply saying a proposal cannot be done ("Nordpack can't mold V-0 grade").
REFUSAL_WORDS = ("can't", "cant", "cannot", "won't", "wont", "isn't", "isnt", "doesn't",
                 "doesnt", "don't", "dont", "no way")
# ... and in a reply to the message putting a value forward, what is not so ("the staff
# aren't in till 6:30").
NOT_SO_WORDS = (*REFUSAL_WORDS, "aren't", "arent", "wasn't", "wasnt", "weren't", "werent")
# What a reply says of a value put forward when it pushes back on it ("100 is alot, the
# regulars will walk", "hmm not sure, the parkrun lot finish around half 8"): the reason the
# value was not taken.
CONCERN_WORDS = ("a lot", "alot", "too much", "too many", "too early", "too late", "too high",
                 "too low", "too far", "too long", "too short", "too steep", "steep", "pricey",
                 "expensive", "not sure", "unsure", "worried", "concerned", "risky", "not keen")
# What a reply says when it would take another than the one put forward ("tariq's only been
# here 2 months. I'd rather Lena"), or keep the one it has ("… Sticking with DJ Marlo").
PREFERS_OTHER = ("i'd rather", "id rather", "i would rather", "rather have", "i'd prefer",
                 "id prefer", "i'd go with", "id go with", "better to go with", "how about",
                 "what about", "sticking with", "stick with", "staying with", "stay with")
# Past forms of verbs of events that do not end in -ed: "what was the goal before Northgate
# came on board?" asks the value before that event.
PAST_EVENT_VERBS = frozenset("came went got left took made won lost fell ran began broke "
                             "became".split())
# Verbs by which a message relays news from someone ("Whitfields just *emailed* - they're
# in Lisbon", "council *rang*: the inspector's off sick"): the clause saying who relayed it
# is no reason; what it relays is.
REPORT_VERBS = ("emailed", "e-mailed", "mailed", "called", "rang", "phoned", "texted",
                "messaged", "pinged", "dm'd", "dmed", "wrote", "replied", "said", "says",
                "told us", "told me", "got back", "came back", "heard back", "got in touch",
                "reached out", "let us know", "let me know", "confirmed", "announced")

# A sentence asking its readers to do something ("please update your calendars", "don't
# forget your kit"): what to do about a change, not why it was made.
# (or one of them, named: "aisha can you tell them")
ASKS_OF_READERS = re.compile(r"\W{0,3}(?:please|pls|plz|kindly|don'?t\sforget|remember\sto|"
                             r"make\ssure|let\sme\sknow|lmk|"
                             r"(?:[\w'’]{1,20}[,\s]\s?)?(?:can|could|would|will)\syou\s"
                             r"(?:pls\s|please\s)?(?!believe\b)[a-z])", re.IGNORECASE)

# The speaker saying what they will do about the change ("i'll tell the 9 who've booked",
# "will update the poster"): a step taken after it, not why it happened.
PASSES_IT_ON = re.compile(r"\W{0,3}(?:ok\W{1,3}|and\s)?(?:i'll|i’ll|ill|i\swill|will)\s(?:"
                          r"tell|let|update|email|message|msg|ping|send|post|put|text|ring|"
                          r"call|share|pass|change|amend|fix|add|note|sort|confirm|book|"
                          r"rebook|move|redo)\b", re.IGNORECASE)

# A sentence saying what stays as it was ("same time same headcount", "time's the same",
# "still finishing at 9:30", "everything else as before"): no reason for a change.
SAMENESS = re.compile(r"\W{0,3}(?:same\s(?:time|times|day|date|place|venue|hours?|price|"
                      r"prices|headcount|numbers?|room|spot|location|plan|menu|as\s)\b|"
                      r"still\s(?:finish|start|end|meet|open|clos|on\b|at\b|in\b)|"
                      r"everything\selse\b|nothing\selse\b|"
                      r"(?:[\w'’]{1,20}\s){0,3}[\w'’]{0,20}(?:'s|’s|\sis|\sstays?|"
                      r"\sremains?)\s(?:the\s)?(?:same|unchanged)\b)", re.IGNORECASE)


def says_no_reason(text: str) -> bool:
    """Whether ``text`` only says what stays the same ("same times, sign-ups still open"),
    asks its readers to do something ("please update your calendars"), says what the
    speaker will do about it ("i'll tell the 9 who've booked") or announces that a change
    follows ("ok one more tweak", "bit of a change 😬"): said beside a change, it is no
    reason for it."""
    return bool(SAMENESS.match(text) or ASKS_OF_READERS.match(text)
                or PASSES_IT_ON.match(text)) or _announces(text)


def _announces(text: str) -> bool:
    """Whether ``text`` is only words announcing a change ("bit of a change", "ok one more
    tweak", "change of plan")."""
    said = re.findall(r"[a-z']{1,30}", text.lower())
    at = next((i for i, w in enumerate(said) if i and w in _ABOUT), None)
    if at is not None and len(said) - at <= 4:
        said = said[:at]  # "change of plan for the show": what the change is about follows
    return any(w in CHANGE_LABEL_NOUNS for w in said) and all(
        w in CHANGE_LABEL_NOUNS or w in CHANGE_LABELS or w in DISCOURSE or w in _LINKING
        for w in said)


_ABOUT = frozenset({"for", "to", "about", "regarding", "with", "re"})
_LINKING = frozenset({"a", "an", "the", "of", "bit", "on", "re", "quick", "just", "plan", "plans"})


# Who a "so" part says something of: a few words before its verb ("so priya can …").
_SAYER = r"(?:[\w']{1,20}\s{1,3}){1,3}"
# What follows rather than what for: "will", "won't", "don't".
_FOLLOWS_VERBS = r"(?:will|would|won't|don't|doesn't)\b"

#: "so he can …", "so that we could …", "so it's properly cured" after "so": a purpose,
#: not a consequence.
PURPOSE = re.compile(r"(?:that\s{1,3})?(?:" + _SAYER
                     # (not "so I can't drum": what follows, not what it is for)
                     + r"(?:(?:can|could)(?!['’]t\b|not\b)|has time|have time)\b|"
                     + _SAYER + _FOLLOWS_VERBS
                     # "so everyone's had a pay day first"
                     + r"|\w{1,20}(?:['’](?:s|ve)|\s{1,3}(?:has|have))\s{1,3}(?:had|got)\b"
                     # "so it's properly cured", "so they're fully dry": a state reached
                     # (not "so it's cancelled", "so it's booked": what follows)
                     r"|(?:it|they|everything|everyone)(?:['’]s|['’]re|\s(?:is|are))\s{1,3}"
                     r"(?:(?:properly|fully|totally|really|definitely|thoroughly)\s{1,3}"
                     r"[a-z]{2,15}(?:ed|en)|ready|dry|safe)\b(?!\s?\d))",
                     re.IGNORECASE)
#: Of those, the ones saying what will follow ("so we will move …", "so it won't …"): a
#: purpose only to the reader, which keeps the change with it.
FOLLOWS = re.compile(r"(?:that\s{1,3})?" + _SAYER + _FOLLOWS_VERBS, re.IGNORECASE)
#: What someone can still do after a change ("we can day trip to lisbon"): no reason for it.
CAN_DO = r"(?:we|you|i|they)\s(?:can|could)(?!['’]?t\b|not\b)"
