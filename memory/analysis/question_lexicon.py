"""The question analyzer's data: the words that say what a question asks.

Everything here is data: cue phrases per question kind, the roles a *who* question asks for,
the nouns that name a kind of value, and the weights of the coverage test that decides
whether memory holds an answer. Phrases are matched on word tokens (lower case); a word
ending in ``*`` matches any word it begins ("postpon*" matches "postponed"). Change a list
here and every reader (offline, and the definitions the LLM prompt renders) changes with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memory.analysis.colour_words import COLOUR_NOUNS
from memory.analysis.decision_words import (
    APPROVAL_OPENERS,
    ASSENT_OPENERS,
    DECIDED_MARKERS,
    GOING_AHEAD,
    PUT_FORWARD,
)
from memory.analysis.lexicon import DOING_VERBS, HANDOVER_VERBS, OWNER_VERBS, ROLE_NOUNS
from memory.analysis.question_nouns import (
    CHOICE_OPENERS,
    CHOOSING_VERBS,
    LIGHT_HEADS,
    MODIFIED_NOUN_CUES,
    MONEY_WORDS,
    NOUN_CUES,
    QUALIFIER_PREPOSITIONS,
    TEAM_WORDS,
    VERB_OBJECTS,
)
from memory.analysis.reason_words import (
    BLOCKER_WORDS,
    CHANGE_PREDICATES,
    CONSEQUENCE_WORDS,
    DROP_VERBS,
    FALL_PHRASES,
    PROBLEM_NEGATIONS,
    RISE_PHRASES,
)
from memory.analysis.taking_words import TakingWords
from memory.analysis.who_roles import WhoRoles
from memory.text import BARE_NEGATIONS, RECURRING_DAY

# Words that open or shape a question without naming what it is about.
QUESTION_WORDS = frozenset(
    """what what's whats when when's whens where where's which who who's whos whom whose why
    how how's is are was were do does did done has have had will would can could should shall
    may might must be been being am kind type sort many much long ago tell me know anyone
    anybody someone somebody remind remember recall happen happened happening actually exactly
    again we us our you your they them their it it's its this that there there's here any
    some ever gonna going can't cannot couldn't didn't doesn't don't isn't wasn't weren't
    won't wouldn't shouldn't hasn't haven't hadn't aren't cant wont hows wheres roughly
    approximately approx precisely exact ballpark allowed supposed permitted held""".split()
) | BARE_NEGATIONS

# Auxiliaries that put a question in the past ("when did…", "what was…").
PAST_AUXILIARIES = frozenset({"did", "was", "were", "had", "didn't", "wasn't", "weren't",
                              "didnt", "wasnt", "werent"})
# Verbs of deciding: after "did we" they ask what the group decided, which holds now ("what
# rate did we agree for liam", "which pub did we settle on"), not a value of the past ("what
# book did Melanie read", "where did Nate go": someone's past).
DECIDED_VERBS = frozenset({"agree", "decide", "settle", "land", "pick", "choose", "opt",
                           "end", "finalise", "finalize", "confirm"})
# The subjects of a group's decision after "did" ("did we agree", "did they pick").
GROUP_SUBJECTS = frozenset({"we", "you", "u", "they", "yall", "y'all"})
# Words naming an amount per something: a unit stating one ("£20/hr", "9%") names them.
RATE_WORDS = frozenset({"rate", "rates", "wage", "wages"})
# Words naming what something is sold or hired for ("price", "fee", "rate"): a bare number
# said with one prices it ("half day rate for the hall too?" → "hall half day 140"). (Not
# "cap" or "budget": a limit or a pot, not a price.)
PRICE_WORDS = frozenset({"price", "prices", "priced", "pricing", "cost", "costs", "fee", "fees",
                         "rate", "rates", "charge", "charges", "charging", "pay", "paying"})
# Words before a noun: "first" after them is an ordinal of a thing ("the first shipment"),
# not said of when something was said or planned ("did tom first announce").
DETERMINERS = frozenset({"the", "a", "an", "our", "my", "your", "their", "his", "her", "its",
                         "this", "that", "these", "those", "every", "each", "whose", "which",
                         "what"})
# Words of a question about the platform's own events ("what's the latest flyer *file*?",
# "who *uploaded* the deck?", "who *left* the channel?"): a system line answers only these.
SYSTEM_ASKED = frozenset("""
file files upload uploads uploaded uploading attachment attachments attached shared share
joined join joins left leave pinned pin screenshot screenshots
""".split())
# Verbs of saying, planning and choosing: "first" before one of them, with a subject of its
# own between the auxiliary and it ("how many bags did tom first announce", "where was the
# party first going to be"), asks the original value; before anything else it is an order
# ("did coach say first practice starts", "who did we agree goes first").
FIRST_VERBS = frozenset("""
announce announced say said plan planned pick picked choose chose chosen book booked set
agree agreed decide decided propose proposed suggest suggested want wanted quote quoted
offer offered ask asked schedule scheduled put tell told mention mentioned think thought
go going gonna went settle settled promise promised expect expected budget budgeted
estimate estimated order ordered hire hired
""".split())

# ---- kinds -------------------------------------------------------------------------------

# The first value of a chain.
ORIGINAL_CUES = (
    "originally", "original", "initially", "initial", "at first", "in the first place",
    "to begin with", "to start with", "at the start", "first planned", "first scheduled",
    "first set", "first proposed", "first agreed", "first announced", "first picked",
    "first chosen", "first decided", "first target", "first date", "first time",
    "first plan", "first choice", "first pick", "first owner", "first version",
    "first wanted", "first want", "first said", "very first", "first put", "first booked",
    "first book", "first pick", "first went", "first go", "first quoted", "first quote",
    "first offered", "first asked", "first ask", "first suggested", "first suggest",
    "first proposal", "first planned on", "first settled", "first deadline", "first cutoff",
    "first cut-off", "first due date", "first price", "first fee",
    # the verb before "first" ("which engine did we pick first?")
    "pick first", "picked first", "chose first", "choose first", "book first",
    "booked first", "go with first", "went with first", "did we start with",
    "we started with",
)
# The value before the latest change (a "before" clause is judged apart: see BEFORE_*).
PREVIOUS_CUES = (
    "previously", "previous", "prior", "formerly", "used to", "use to", "had been",
    "was supposed to", "were supposed to", "was going to", "were going to", "was meant to",
    "were meant to", "was planned", "were planned", "was scheduled", "was set",
    "old date", "old time", "old day", "old slot", "old version", "old value",
    "old plan", "old owner", "old venue", "old place", "old region", "old number",
    "old budget", "old deadline", "old one", "earlier date", "earlier time",
    "earlier plan", "what was it", "what it was", "changed from", "moved from",
    "switched from", "were we going to", "were we gonna", "was it going to",
    "was it gonna", "was it supposed to", "were we supposed to", "we were going to",
    "we were gonna", "was gonna", "were gonna", "was meant", "were meant", "supposed to",
    "meant to", "was the old", "were the old", "was our old", "were our old",
)
# Previous-value cues that ask for the value before only in a question in the past tense:
# "when was the demo supposed to be?" asks the old plan, "how long is my read supposed to be
# now?" the value in force.
TENSED_PREVIOUS_CUES = ("supposed to", "meant to")
# "before X" asks for the previous value when X is a change ("before it slipped", "before
# the correction") or the new value itself ("before Friday", "before devon"), not when X is
# a day the question is about ("before 10 April", handled by date scoping) or another event.
BEFORE_WORDS = ("before", "prior to")
# (whole forms where a stem starts other words: "handbuilding", "fixtures", "movie")
CHANGE_WORDS = (
    "move", "moved", "moves", "moving", "push*", "slip*", "chang*", "postpon*", "delay*",
    "resched*", "switch*", "correct*", "reject*", "bump*", "cut", "cuts", "renam*", "swap*",
    "hand", "hands", "handed", "handing", "handover", "handoff", "updat*", "revis*",
    "shift*", "replac*", "reassign*", "took", "take*", "taken", "cancel*", "scrap*",
    "drop*", "trim*", "rais*", "lower*", "increas*", "reduc*", "fix", "fixed", "fixes",
    "fixing", "fell", "fall*", "lost", "got", "get*", "became", "become*", "went", "go",
    "goes", "announc*", "keep", "keeping", "kept", "stay*",
)
# Change words that only ever move a moment: a question naming one ("what was the go-live
# before the slip?") asks for a date or time even when it names no date noun.
SCHEDULE_CHANGE_WORDS = ("slip*", "postpon*", "delay*", "resched*", "pushed", "push",
                         "pushing", "bump*", "brought forward", "moved up")
# Change words that tell one change in other words ("why did training get *delayed*" /
# "training's *pushed back* a week"): when no change of a chain uses the question's own
# change word, the one using a word of its group is the change asked about.
CHANGE_FAMILIES: tuple[frozenset[str], ...] = tuple(frozenset(g.split()) for g in (
    """postpone postponed postponing delay delayed delaying push pushed pushing slip slipped
    slipping bump bumped bumping later""",
    "forward earlier",
    """cancel cancelled canceled cancelling scrap scrapped scrapping drop dropped dropping
    ditch ditched axe axed""",
    "raise raised raising increase increased increasing hike hiked",
    "cut cutting lower lowered lowering reduce reduced reducing trim trimmed",
    """hand handed handing reassign reassigned reassigning pass passed passing take took
    taking""",
))
# Nouns of change after a value noun ("the *price* change", "the venue switch"): the value
# noun still says which kind of value changed.
CHANGE_NOUNS = frozenset({"change", "changes", "rise", "increase", "hike", "cut", "drop",
                          "bump", "switch", "move", "update", "swap", "extension", "delay",
                          "postponement", "reschedule"})
# Heads of a noun phrase naming what was put forward, whose "first" asks the original ("the
# first stage *quote*"); "the first session time" is the first session's time.
FIRST_OFFERED = frozenset({"quote", "plan", "choice", "pick", "proposal"})
# Words "first" makes a thing of its own with ("first aid").
FIRST_THINGS = frozenset({"aid", "class", "floor", "name", "half", "place", "round"})
# Light verbs a thing or a person is said to be doing ("kestrel *going* live"): never a
# kind of thing before a noun.
LIGHT_DOING = frozenset({"going", "doing", "getting", "coming", "happening", "making",
                         "trying", "wanting", "hoping", "thinking", "considering", "using",
                         "giving"})
# How many words after "before" are read for a change word or a short value.
BEFORE_SPAN = 6

# People known by their role, whose name a question may ask ("what's the principal called").
PERSON_ROLES = frozenset(
    """engineer principal warden teacher contact rep representative manager landlord landlady
    vet doctor dentist plumber electrician builder caretaker coach instructor trainer tutor
    nurse receptionist supervisor chair chairperson president treasurer secretary caterer
    photographer dj host speaker guide ranger technician tech driver courier agent officer
    inspector vicar priest headteacher head lawyer solicitor accountant mechanic contractor
    surveyor auditor assessor examiner judge referee umpire""".split())

WHY_CUES = (
    "why", "how come", "what caused", "what causes", "what's the reason", "what is the reason",
    "what was the reason", "whats the reason", "the reason", "reason for", "reason why",
    "reasons", "what led to", "what leads to", "what made", "for what reason",
    "cause of", "what was behind", "what's behind", "whats behind", "what is behind",
    "the rationale", "rationale", "what prompted",
    # what counted against something is the reason it was dropped ("what was the problem
    # with MAQS?"; not "what's wrong with the van", "the issue with the swap details": a
    # fault, a thing)
    "the problem with", "problem with", "downside of", "downside to", "downside with",
    "catch with", "objection to", "objections to",
)
# Words a question opens with (after fillers such as "hey", "quick q", "do you know").
OPENING_WORDS = frozenset(
    """what what's whats when when's whens where where's wheres which who who's whos whom
    whose why how how's is are was were do does did will would can could should has have
    had by at on in""".split()
)
WHO_OPENERS = ("who", "who's", "whos", "whom", "whose", "by whom")
WHO_NOUN_OPENERS = (
    "which person", "what person", "which teammate", "which engineer", "which dev",
    "which developer", "which member", "which one of us", "which of us",
    "what's the name of the person", "name of the person",
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WHEN_OPENERS = (
    "when", "when's", "whens", "what time", "what date", "what day", "which day", "which date",
    "what year", "which year", "what month", "which month", "what week", "which week",
    "how long ago", "since when", "by when", "until when", "till when", "how soon",
    "at what time", "on what day", "on which day", "on what date", "what hour",
    "what night", "which night", "what evening", "which evening", "what weekend",
    "which weekend", "what morning", "which morning",
    # "which sunday's the gala on": a weekday asks the date
    *(f"{w} {d}" for w in ("which", "what") for d in WEEKDAYS),
)
# A *when* question that asks the time of day, not the day: by its opener ("what time") or
# a clock noun it asks about ("the start time").
CLOCK_CUES = frozenset({"what time", "at what time", "what hour", "by what time"})
CLOCK_NOUNS = frozenset({"time", "times", "hour", "hours", "o'clock"})
# ... and that ask the day, which a time of day alone does not answer ("what date is the
# vaccination day" is not "2pm").
DAY_CUES = frozenset({"what date", "which date", "what day", "which day", "what night",
                      "which night", "what weekday", "which weekday",
                      *(f"{w} {d}" for w in ("which", "what") for d in WEEKDAYS)})
DAY_NOUNS = frozenset({"date", "dates", "day", "days", "night", "nights", "weekday"})
WHERE_OPENERS = ("where", "where's", "wheres", "at what place", "in which city",
                 "which city", "what city", "which country", "what country")
# "How much…" asks an amount of money, "how many…" a count.
MONEY_OPENERS = ("how much",)
# "How many" counts things; the other count openers ask a magnitude, money or not.
COUNTING = ("how many",)
COUNT_OPENERS = ("how many", "how big", "how large", "how high", "how low", "how far",
                 "how fast", "how often", "how long", "what percentage", "what percent")
VERSION_OPENERS = ("which version", "what version", "which build", "what build",
                   "which release", "what release")
LIST_CUES = (
    "list", "list of", "what options", "which options", "what were the options",
    "what are the options", "what choices", "which choices", "what alternatives",
    "what were the suggestions", "what are the suggestions", "what suggestions",
    "which suggestions", "what ideas", "what were all", "what are all", "all the",
    "everything", "what else", "which ones", "what things", "were considered",
    "were suggested", "were proposed", "were discussed", "were mentioned", "all options",
)
# The value in force now.
CURRENT_CUES = (
    "now", "currently", "current", "still", "latest", "final", "anymore", "any more",
    "at the moment", "these days", "as of now", "as of today", "right now", "so far",
    "new date", "new time", "new day", "new slot", "new version", "new plan", "new owner",
    "new venue", "new place", "new region", "new deadline", "new target", "new budget",
    "decided", "settled", "agreed", "final call", "the plan", "in the end", "ended up",
    "end up", "going with", "went with", "landed on", "the verdict", "status",
    "are we using", "are we doing", "are we going with", "do we use", "will we use",
    "set to", "set at", "moved to", "changed to", "now at", "stand", "stands",
    "settle on", "decide on", "agree on",
)
# Of those, the ones naming the act of deciding: in a *when* question they ask when it was
# decided ("when did we settle on …").
SETTLE_CUES = frozenset({"settle on", "decide on", "agree on", "decided", "settled",
                         "agreed", "landed on"})
# "Is it X or Y?": a choice between named alternatives asks for the one in force.
CHOICE_WORD = "or"


# ---- what kind of value a question asks for ----------------------------------------------

# Nouns that name a kind of value: "what's the release *date*", "which *region*", "what's
# the *budget*". The one heading the question's noun phrase sets the family asked.
ATTRIBUTE_FAMILIES: dict[str, str] = {
    "date": "when", "dates": "when", "day": "when", "days": "when", "time": "when",
    "times": "when", "slot": "when", "deadline": "when", "eta": "when", "schedule": "when",
    "hour": "when", "hours": "when", "week": "when", "month": "when", "year": "when",
    "timing": "when",

    "version": "version", "versions": "version", "build": "version", "release": "version",
    "budget": "money", "cost": "price", "costs": "price", "price": "price",
    "prices": "price", "spend": "money", "spending": "money", "salary": "money",
    "fee": "price", "fees": "price", "rate": "money", "cap": "money", "charge": "price",
    "charging": "price", "pay": "price", "paying": "price", "amount": "price",
    "costing": "price",
    # sums held, paid back or taken in ("deposit for a normal booking", "the takings")
    "deposit": "money", "deposits": "money", "rent": "money", "refund": "money",
    "bonus": "money", "takings": "money", "revenue": "money",
    "profit": "money", "turnover": "money", "dues": "money", "wage": "money",
    "wages": "money",
    "invoice": "price", "title": "name", "titles": "name",
    "limit": "count", "number": "count", "count": "count", "total": "count",
    # a measure is said as a number and its unit ("8,500 ft", "12 km", "40 kg")
    "altitude": "count", "height": "count", "distance": "count", "length": "count",
    "depth": "count", "width": "count", "weight": "count", "speed": "count",
    "temperature": "count", "temp": "count", "temps": "count", "capacity": "count",
    "mileage": "count",
    "region": "where", "regions": "where", "location": "where", "place": "where",
    "venue": "where", "room": "where", "city": "where", "country": "where", "spot": "where",
    "restaurant": "where", "address": "where", "venues": "where", "places": "where",
    "locations": "where", "rooms": "where",
    "owner": "person", "lead": "person", "person": "person", "assignee": "person",
    "company": "name", "vendor": "name", "supplier": "name", "provider": "name",
    "caterer": "name", "brand": "name", "codename": "name", "name": "name",
    "firm": "name", "contractor": "name", "agency": "name", "tool": "name", "app": "name",
    "suppliers": "name", "vendors": "name", "providers": "name", "caterers": "name",
    "contractors": "name", "firms": "name", "companies": "name", "agencies": "name",
    "password": "secret", "passwords": "secret", "passcode": "secret", "code": "secret",
    "pw": "secret", "pwd": "secret", "passwd": "secret",
    "pin": "secret", "combo": "secret", "combination": "secret", "login": "secret",
    "credentials": "secret", "creds": "secret", "token": "secret", "passphrase": "secret",
    **{noun: "colour" for noun in COLOUR_NOUNS},
}
# What a secret looks like when someone writes it down: a quoted string, a run of at least
# five characters mixing letters with digits or symbols ("vT9#kq2!Lm", "4471-B"), or the
# digits of a door, lockbox or PIN code given as the code's value ("door code for the
# commissary is 4417", "lockbox to 7734", "gate code 1379", "1379 is the gate code"): never
# a year, a number that only follows "code" ("error code 504", "area code") or one counting
# something ("billing code down to 1200 lines").
_CODE_DIGITS = r"(?!(?:19|20)\d\d\b)\d{3,8}\b"
# (A word with only emphasis after it, a mention or a channel is no secret: "place!!",
# "@channel", "#general".)
_COUNTS_NOTHING = r"(?!\s?[a-z]{2,20}s\b)"
SECRET_VALUE = re.compile(r"[\"'`“‘][^\"'`”’\s]{3,40}[\"'`”’]|"
                          r"(?=\S{0,40}[A-Za-z])(?=\S{0,40}[\d#!@$%^&*_+=])"
                          r"(?![@#]?[A-Za-z_.'’-]{1,40}[!?.]{0,5}(?![^\s,;]))[^\s,;]{5,40}|"
                          # a word with a symbol given as a password ("password is
                          # Welcome!", "alarm code is #Gunners")
                          r"\b(?:password|passcode|passwd|pw|wifi)\b[^.\n]{0,30}?"
                          r"(?:\bis|:|=|\bpassword)\s?(?:#[A-Za-z]\w{1,30}|"
                          r"[A-Za-z]\w{1,30}[!#@$%&*]{1,4})(?=[\s,;.)]|$)|"
                          r"\b(?:code|pin)\b[^.\n]{0,30}?(?:\bis|:|=)\s?#[A-Za-z]\w{1,30}|"
                          r"\b(?:code|pin|passcode|password|combo|combination|lockbox|keypad)"
                          r"\b[^.!?\n\d]{0,30}?(?:\bis|\bwas|:|=|\bto|\bnow|→|->)\s?"
                          + _CODE_DIGITS + _COUNTS_NOTHING + r"|"
                          r"\b(?:door|gate|lockbox|alarm|keypad|entry|building)\s(?:code|pin)\s"
                          + _CODE_DIGITS + _COUNTS_NOTHING + r"|"
                          r"\b" + _CODE_DIGITS + r"(?: is)?(?: the| our)?"
                          r"(?: [a-z]{1,20})? (?:code|pin|passcode|combo)\b",
                          re.IGNORECASE)
# Words naming the moment of an event ("what time does the fair *start*"): in a *when*
# question a date or time answers them.
WHEN_EVENT_WORDS = frozenset(
    """start starts started starting begin begins began end ends ended finish finishes
    finished open opens opened close closes closed expire expires expired due kick kicks
    kickoff launch launches go-live planned scheduled happening happen happens set booked
    held pickup pick-up collection delivery dropoff drop-off arrival departure wrap wraps
    wrapping""".split()
)
# Words naming who holds a task ("who *owns* cobalt", "who's *running* the cutover", "the
# *lead*"): in a *who* question, a message that hands a task over, claims it or names a role
# speaks of the same thing ("handing Cobalt over to Amara", "cobalt's with me").
PROPOSING_VERBS = frozenset({
    "suggest", "suggested", "suggesting", "suggestion", "propose", "proposed", "proposing",
    "proposal", "pitch", "pitched", "float", "floated", "recommend", "recommended",
    "recommending"})
ROLE_WORDS = frozenset(OWNER_VERBS | ROLE_NOUNS | HANDOVER_VERBS | DOING_VERBS
                       | {"owned", "ran", "led", "handled", "took", "covered", "hosted"})
CLAIM_WORDS = frozenset(HANDOVER_VERBS | ROLE_NOUNS | {"mine", "me", "over", "taking",
                                                       "takes", "take", "owns", "own"})
# Families whose noun is answered by a value of the family alone ("what's the release
# date" by "Oct 29", "what does it cost" by "$7"); a noun naming a particular sum must
# itself be matched ("the budget" is not any amount: "$275 for the bouncy castle" is no
# budget). "price" is the family of the generic money nouns; it asks for money.
VALUE_NAMED_FAMILIES = frozenset({"when", "version", "where", "person", "count", "price",
                                  "colour"})
# Families a unit must hold a value of to answer: "what's the budget" needs an amount of
# money, "when is…" a date or time. A count is often spelled in words ("twice a year", "a
# few"), so it is not required.
REQUIRED_FAMILIES = frozenset({"when", "version", "money", "price", "secret", "colour"})
# The value slots (memory.text / the message analyzer) that answer each family.
ANSWERING_SLOTS: dict[str, tuple[str, ...]] = {
    "name": ("name",),
    "secret": ("secret",),
    "price": ("money",),
    "when": ("time", "date"),
    "version": ("version",),
    "where": ("region", "name", "place", "venue"),
    "money": ("money",),
    "count": ("number", "money", "count"),
    "person": ("person", "owner", "name"),
    "colour": ("colour",),  # read by memory.analysis.colour_words, not by the analyzer
}
# The value kinds of the message analyzer (memory.analysis.values.Kind) that answer each
# family; a status ("called off") answers whatever is asked of a plan.
CLAIM_KINDS: dict[str, tuple[str, ...]] = {
    "name": ("choice", "place", "person", "status"),
    "price": ("money",),
    "when": ("time", "date", "range", "status"),
    "where": ("place", "region", "choice", "status"),
    "version": ("version",),
    "money": ("money",),
    "count": ("count", "money"),
    "person": ("person",),
    "": ("time", "date", "range", "place", "region", "version", "money", "count", "choice",
         "status", "person"),
}
# The same families as the writer's state value families (memory.text SLOT_FAMILY).
STATE_FAMILIES: dict[str, tuple[str, ...]] = {
    "name": ("name", "where", "who", "person", "owner"),
    "price": ("amount",),
    "when": ("when",),
    "version": ("version",),
    "where": ("where", "name"),
    "money": ("amount",),
    "count": ("amount",),
    "person": ("person", "owner", "name", "who"),
}

# Words that open the reason a message gives; longest first. "so" gives it before itself
# ("the room was booked, so we moved it").
REASON_CUES = (
    "because of", "because", "root cause was", "root cause", "caused by", "due to",
    "owing to", "thanks to", "given that", "reason being", "the reason is", "reason:",
    "in order to", "so that", "since", "bc", "b/c", "cuz", "coz", "cause", "so",
)
# How a message accepting a suggestion or concern opens ("good catch. yes: …", "agreed.
# pushing it a week"): its reason is in the turn it accepts.
ACCEPT_OPENERS = (
    "agreed", "agree", "good catch", "good point", "fair point", "fair", "makes sense",
    "you're right", "youre right", "true", "yes", "yep", "yeah", "ok", "okay", "sure",
    "+1", "sounds good", "works for me", "right", "indeed", "good call", "ack", "done",
    "fine",
)
# Words a reply may open with before it accepts or turns down ("*honestly* yeah, i'd rather
# push it a week"): skipped when reading how it opens.
OPENING_FILLERS = frozenset({"honestly", "tbh", "well", "hmm", "hm", "oh", "ah", "ugh", "welp",
                             "so", "lol", "haha"})
# Weekdays said in the plural name a recurring slot ("wednesdays 15:00"): a *when* value.
RECURRING_DAYS = re.compile(rf"\b{RECURRING_DAY}\b", re.IGNORECASE)
# How a message turning a proposal down opens ("no, let's keep it free", "nah").
REJECT_OPENERS = (
    "no", "nah", "nope", "not", "let's not", "lets not", "don't", "dont", "i'd rather not",
    "rather not", "i don't think", "i dont think", "hard no", "veto", "-1", "meh",
    # keeping what holds turns a change down ("I'd rather keep 10", "let's stick with 75")
    "i'd rather keep", "id rather keep", "rather keep", "let's keep", "lets keep",
    "let's stick", "lets stick", "stick with", "i'd stick", "id stick",
)
# Prepositions naming the value a change left ("moved *off* Thursday", "slipped *from* the
# 15th"), as against the one it reached ("moved *to* the 22nd").
LEFT_VALUE_WORDS = ("off", "from", "away from", "out of")
# Words naming the same event: "when did rc2 *ship*" is answered by "rc2 is *out*".
EVENT_SYNONYMS: tuple[frozenset[str], ...] = (
    frozenset({"ship", "ships", "shipped", "shipping", "release", "released",
               "releasing", "launch", "launched", "live", "published", "publish",
               "deploy", "deployed"}),
    frozenset({"start", "starts", "started", "begin", "begins", "began", "kickoff",
               "kick", "open", "opens"}),
    frozenset({"end", "ends", "ended", "finish", "finished", "close", "closes", "closed",
               "wrap"}),
    frozenset({"cancel", "cancelled", "canceled", "scrapped", "scrap", "dropped"}),
    frozenset({"arrive", "arrived", "arrives", "arriving", "arrival", "delivered",
               "delivery", "landed", "here"}),
    frozenset({"hit", "crossed", "cross", "reached", "reach", "topped"}),
    # a course by any of its names ("the first aid course" is the "first aid refresher")
    frozenset({"course", "courses", "class", "classes", "training", "refresher", "workshop",
               "workshops", "lesson", "lessons"}),
)
# Phrases reporting that something happened ("Helix 1.5 is out", "2.4 is live", "kickoff
# done in Copenhagen"): for "when did X happen", such a report's day is the answer even
# where it names no date, over a plan that does.
DONE_REPORTS = (
    "is out", "are out", "is live", "are live", "went live", "is now live", "went out",
    "shipped", "released", "launched", "deployed", "published", "rolled out", "kicked off",
    "is done", "are done", "done", "wrapped up", "finished", "completed", "happened",
    "landed", "merged", "went ahead", "took place", "signed", "approved", "is up",
    # arrivals and errands reported done ("compost is here!", "stripe verified ✅")
    "arrived", "is here", "are here", "got here", "showed up", "came in", "received",
    "delivered", "submitted", "sent", "paid", "verified", "cleared",
    "went through", "passed", "booked", "ordered", "installed", "fixed",
)
# Words a speaker uses of themselves ("me, I'll take it").
SELF_WORDS = frozenset({"me", "i", "i'll", "i'm", "im", "ill", "myself", "mine", "i've"})

# Generic words that say nothing about the subject ("what's the *deal* with…"), and words
# naming the act of deciding rather than what was decided ("the review *decision*").
GENERIC_WORDS = frozenset(
    """thing things stuff deal info information details detail plan plans update updates
    status news something anything everything someone anyone one ones lot lots bit kind
    sort type way happen happened happening going gonna get got make made did do done
    said say says tell told mean meant like exactly actually again next use uses using
    come comes came per give gives gave planning planned hoping trying thinking wanting
    considering both common likely
    reaction reactions intention intentions focus topic topics attitude sentiment opinion
    opinions thoughts feeling feelings feel felt describe describes described description
    setting attributes kind kinds type types favorite favourite main general special
    biggest recently recent mentioned mention discussed discussion
    decision decisions verdict outcome conclusion consensus latest
    idea ideas suggestion suggestions
    back around out off up down over away along forward ahead
    finally eventually ultimately""".split()
)
# (The last lines: particles of phrasal verbs — "pushed the audit *back*", "moving it
# *around*", "signed *off*", "brought *forward*" — say how something changed, not what it
# is; "what did X *finally* come to" asks the value in force, in any words.)


# ---- coverage: does the scoped evidence hold an answer? -----------------------------------


@dataclass(frozen=True)
class CoverageWeights:
    """Weights and thresholds of the coverage test (calibrated on the scenario workspaces
    and LoCoMo dev together; see benchmarks/RESULTS.md).

    A question term weighs by its rarity in the asker's scope: ``idf_floor`` +
    log(1 + ``rarity_scale`` / (1 + document frequency)); a term absent from the scope
    weighs as if it were found ``absent_df`` times (it may be a paraphrase as much as a
    thing memory never heard of). A unit of evidence covers a term
    it contains (stem or word form), or one whose word it holds a near synonym of
    (embedding cosine of the two words ≥ ``synonym_min``, counted at ``synonym_credit``
    of the term's weight). A named thing (a capitalised word, a number, a quoted phrase)
    counts ``named_boost`` times; a unit missing one (present elsewhere in the scope) has
    its score multiplied by ``headless``; a named thing absent from the whole scope means
    no answer. A unit answers when it covers at least ``min_coverage``
    of the question's weight; questions with a single term need the term itself."""

    idf_floor: float = 0.5
    rarity_scale: float = 50.0
    absent_df: float = 0.0
    df_cap: int = 200
    synonym_min: float = 0.62
    synonym_credit: float = 0.7
    # A word the scope never holds may be a typo of one it does ("educaton"): one edit
    # apart for words of ``typo_min`` letters or more, two from ``typo_two``.
    typo_min: int = 5
    typo_two: int = 9
    # A word the scope never holds that begins a longer word of a unit (three letters more)
    # is its short form ("reg" for "registration") from this many letters.
    abbreviation_min: int = 3
    named_boost: float = 1.0
    context_credit: float = 0.5
    # A question's words covered by the question an answer was given to.
    answered_credit: float = 1.0
    state_context_credit: float = 0.25
    headless: float = 0.5
    min_coverage: float = 0.4
    # A predicate word (PREDICATE_VERBS: "getting", "buying", "delivered") says what happens
    # to the subject, in words a chat often does not repeat: it weighs this share of a
    # subject word of the same rarity. In a yes/no question the predicate is what is asked.
    predicate_share: float = 0.35
    # A word naming the kind of value asked ("company", "vendor") that the scope never
    # holds: a chat names the company, not the word "company".
    absent_attribute_share: float = 0.35
    # The share of a unit's relevance that comes from dense similarity when terms are few.
    dense_floor: float = 0.0


COVERAGE = CoverageWeights()

# Verbs (base forms; their inflections match by stem) that say what happens to a question's
# subject rather than naming it: the chat says the same in its own words ("comes wed",
# "moving ordering to", "sticking with" for "staying on"). Not verbs that are as often the
# subject noun (rent).
PREDICATE_VERBS = frozenset(
    """get buy purchase deliver arrive ship send bring pick hire use hold host begin
    finish happen take go come leave land pay charge need want handle sign give provide
    supply source expect commit pledge donate contribute spend went gone settle agree
    decide held stick stay keep remain""".split())
# Verbs of paying: a "what" question with one asks a price ("what did the fix end up
# costing"), whatever noun follows it.
MONEY_VERBS = frozenset({"charge", "charges", "charging", "charged", "pay", "pays", "paying",
                         "paid", "cost", "costs", "costing", "spend", "spends", "spending",
                         "spent", "owe", "owes", "owed", "earn", "earns", "earning", "earned",
                         "quoted", "quoting", "priced"})
WHAT_OPENERS = frozenset({"what", "what's", "whats"})
# What a bill is called: an amount said of one alone ("final bill $1,850") is the price of
# what its message is about. ("quote" is as often words quoted; "total" sums other prices.)
BILL_WORDS = frozenset({"bill", "invoice", "tab", "receipt", "damage"})
# The records whose numbers identify them (not a room, a jersey or a build: "room 4").
RECORD_NOUNS = ("account", "phone", "reference", "ref", "order", "tracking", "booking",
                "invoice", "policy", "customer", "membership", "member", "serial",
                "registration", "licence", "license", "confirmation", "ticket", "case",
                "vat", "tax", "reservation", "po", "contact", "mobile", "cell", "landline",
                "passport", "flight", "employee", "pin", "hours", "emergency", "helpline",
                "hotline", "telephone", "tel", "whatsapp", "fax")
# The people one rings ("the number for the plumber"), not those one sends numbers to.
CALLED_ROLES = frozenset("""manager landlord landlady plumber electrician engineer vet doctor
dentist mechanic contractor technician caretaker receptionist rep representative agent
locksmith builder surveyor roofer gardener cleaner""".split())
# A yes/no question opens with an auxiliary; with a keep word it asks whether a value
# still holds ("is the demo still on for monday?").
CONFIRM_OPENERS = frozenset({"is", "are", "was", "were", "does", "do", "did", "will", "has",
                             "have", "can", "should", "isn't", "aren't"})
CONFIRM_CUES = ("still", "still on", "anymore", "any more")
# How a change of a thing's state is told, as the word a "still …?" answer names.
STATUS_WORDS = (
    ("cancel*", "cancelled"), ("called off", "called off"), ("call off", "called off"),
    ("is off", "called off"), ("are off", "called off"), ("withdr*", "cancelled"),
    ("discontinu*", "cancelled"), ("pulled the plug", "cancelled"),
    ("pulled out", "pulled out"), ("no longer", "no longer"), ("further notice", "on hold"),
    ("was dropped", "dropped"), ("got dropped", "dropped"), ("been dropped", "dropped"),
    ("is dropped", "dropped"), ("are dropped", "dropped"), ("pulled", "pulled"),
    ("scrap*", "scrapped"), ("postpon*", "postponed"), ("push*", "pushed"),
    ("delay*", "delayed"), ("resched*", "rescheduled"), ("slip*", "slipped"),
    ("on hold", "on hold"), ("mov*", "moved"), ("shift*", "moved"), ("bump*", "moved"),
    ("switch*", "switched"), ("chang*", "changed"), ("replac*", "replaced"),
)


@dataclass(frozen=True)
class QuestionLexicon:
    """The lexicon as one frozen object, built once at the composition root and injected."""

    original: tuple[str, ...] = ORIGINAL_CUES
    previous: tuple[str, ...] = PREVIOUS_CUES
    tensed_previous: tuple[str, ...] = TENSED_PREVIOUS_CUES
    before: tuple[str, ...] = BEFORE_WORDS
    change: tuple[str, ...] = CHANGE_WORDS
    before_span: int = BEFORE_SPAN
    why: tuple[str, ...] = WHY_CUES
    openers: frozenset[str] = OPENING_WORDS
    who_openers: tuple[str, ...] = WHO_OPENERS
    who_nouns: tuple[str, ...] = WHO_NOUN_OPENERS
    when_openers: tuple[str, ...] = WHEN_OPENERS
    where_openers: tuple[str, ...] = WHERE_OPENERS
    money_openers: tuple[str, ...] = MONEY_OPENERS
    money_words: frozenset[str] = MONEY_WORDS
    light_heads: frozenset[str] = LIGHT_HEADS
    count_openers: tuple[str, ...] = COUNT_OPENERS
    counting: tuple[str, ...] = COUNTING
    version_openers: tuple[str, ...] = VERSION_OPENERS
    listing: tuple[str, ...] = LIST_CUES
    current: tuple[str, ...] = CURRENT_CUES
    settle_cues: frozenset[str] = SETTLE_CUES
    choice: str = CHOICE_WORD
    roles: WhoRoles = field(default_factory=WhoRoles)
    attributes: dict[str, str] = field(default_factory=lambda: dict(ATTRIBUTE_FAMILIES))
    value_named: frozenset[str] = VALUE_NAMED_FAMILIES
    secret: re.Pattern[str] = SECRET_VALUE
    when_events: frozenset[str] = WHEN_EVENT_WORDS
    role_words: frozenset[str] = ROLE_WORDS
    #: Verbs of putting something forward ("the date kenji *suggested*"): when the scope never
    #: says one, said by a message that proposes in other words ("proposing Sat Oct 3 …").
    proposing: frozenset[str] = PROPOSING_VERBS
    schedule_change: tuple[str, ...] = SCHEDULE_CHANGE_WORDS
    change_families: tuple[frozenset[str], ...] = CHANGE_FAMILIES
    change_nouns: frozenset[str] = CHANGE_NOUNS
    first_offered: frozenset[str] = FIRST_OFFERED
    first_things: frozenset[str] = FIRST_THINGS
    light_doing: frozenset[str] = LIGHT_DOING
    #: The value noun of an identifying number ("ref number", "what number is on …").
    number_noun: str = "number"
    #: The value noun of a name ("what's the engineer's name"), and the people whose name
    #: such a question asks: only a name said answers it, never the role alone.
    name_noun: str = "name"
    person_roles: frozenset[str] = PERSON_ROLES
    #: Words asking where to find a place or a person: only a street, postcode or email
    #: written out answers them, never the place's own name.
    address_nouns: frozenset[str] = frozenset({"address", "addr", "postcode", "zip",
                                               "zipcode"})
    #: What a record's identifying number is of ("account number", "tracking no"): such a
    #: number is written in four digits or more, or as a code.
    #: So is the number "for" someone one calls ("the number for the lidl manager"); not
    #: a headcount given to a caterer ("the final number for the caterer").
    record_numbers: re.Pattern[str] = re.compile(
        r"\b(?:" + "|".join(RECORD_NOUNS) + r")\s?(?:number|no\.?|#|num)(?!\w)|"
        r"(?<!final\s)(?<!head\s)(?<!guest\s)(?<!total\s)\bnumber\sfor\s(?:the\s|our\s|"
        r"their\s|a\s)?(?:[\w'-]{1,20}\s)?(?:" + "|".join(sorted(CALLED_ROLES)) + r")\b",
        re.IGNORECASE)
    done: re.Pattern[str] = re.compile(
        r"\b(?:" + "|".join(re.escape(d) for d in sorted(DONE_REPORTS, key=len, reverse=True))
        + r")\b|✅|☑️|✔", re.IGNORECASE)
    claim_words: frozenset[str] = CLAIM_WORDS
    required: frozenset[str] = REQUIRED_FAMILIES
    answering_slots: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: dict(ANSWERING_SLOTS))
    state_families: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: dict(STATE_FAMILIES))
    claim_kinds: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(CLAIM_KINDS))
    question_words: frozenset[str] = QUESTION_WORDS
    past: frozenset[str] = PAST_AUXILIARIES
    decided_verbs: frozenset[str] = DECIDED_VERBS
    group_subjects: frozenset[str] = GROUP_SUBJECTS
    rate_words: frozenset[str] = RATE_WORDS
    price_words: frozenset[str] = PRICE_WORDS
    determiners: frozenset[str] = DETERMINERS
    first_verbs: frozenset[str] = FIRST_VERBS
    system_asked: frozenset[str] = SYSTEM_ASKED
    generic: frozenset[str] = GENERIC_WORDS
    coverage: CoverageWeights = COVERAGE
    accept: tuple[str, ...] = ACCEPT_OPENERS
    # A report said of what is ahead ("should be done by fri", "fingers crossed it goes
    # fine") reports nothing done; a past verb tells when something happened ("the couch
    # came on thursday").
    ahead: re.Pattern[str] = re.compile(
        r"\b(?:will|'ll|should|shall|going to|gonna|next|tomorrow|tmrw|soon|hopefully|"
        r"fingers crossed|plan|planned|planning|expect|expected|eta)\b", re.IGNORECASE)
    told_past: re.Pattern[str] = re.compile(
        r"\b(?:[a-z]{3,20}ed|came|got|went|was|were|took|left|began|ran|met|sent|paid|brought|"
        r"bought|made|did|had|showed|arrived)\b", re.IGNORECASE)
    # "who's updating …", "who will replace …": the task's holder, not a change's maker
    task_now: frozenset[str] = frozenset({"who's", "whos", "is", "are"})
    task_will: frozenset[str] = frozenset({"will", "who'll", "wholl", "gonna", "going"})
    approve: tuple[str, ...] = APPROVAL_OPENERS
    assent: tuple[str, ...] = ASSENT_OPENERS
    decided: re.Pattern[str] = DECIDED_MARKERS
    put_forward: re.Pattern[str] = PUT_FORWARD
    going_ahead: re.Pattern[str] = GOING_AHEAD
    taking: TakingWords = TakingWords()
    fillers: frozenset[str] = OPENING_FILLERS
    blockers: tuple[str, ...] = BLOCKER_WORDS
    problems: tuple[str, ...] = PROBLEM_NEGATIONS
    drops: tuple[str, ...] = DROP_VERBS
    rises: tuple[str, ...] = RISE_PHRASES
    falls: tuple[str, ...] = FALL_PHRASES
    consequence: tuple[str, ...] = CONSEQUENCE_WORDS
    events: tuple[frozenset[str], ...] = EVENT_SYNONYMS
    reject: tuple[str, ...] = REJECT_OPENERS
    left_value: tuple[str, ...] = LEFT_VALUE_WORDS
    predicates: frozenset[str] = PREDICATE_VERBS
    change_predicates: frozenset[str] = CHANGE_PREDICATES
    noun_cues: frozenset[str] = NOUN_CUES
    modified_nouns: frozenset[str] = MODIFIED_NOUN_CUES
    choice_openers: frozenset[str] = CHOICE_OPENERS
    team_words: frozenset[str] = TEAM_WORDS
    choosing: tuple[str, ...] = CHOOSING_VERBS
    verb_objects: frozenset[str] = VERB_OBJECTS
    qualifiers: frozenset[str] = QUALIFIER_PREPOSITIONS
    confirm_openers: frozenset[str] = CONFIRM_OPENERS
    money_verbs: frozenset[str] = MONEY_VERBS
    bill_words: frozenset[str] = BILL_WORDS
    what_openers: frozenset[str] = WHAT_OPENERS
    confirm_cues: tuple[str, ...] = CONFIRM_CUES
    status: tuple[tuple[str, str], ...] = STATUS_WORDS


DEFAULT_LEXICON = QuestionLexicon()
