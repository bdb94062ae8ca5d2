"""The analyzer's value patterns, as data: amounts, times, dates, ranges, versions, regions,
counts, choices and places (all linear: literal alternations and bounded classes).
"""

from __future__ import annotations

import re

from memory.analysis.cue_words import (
                                   COUNT_NOUNS,
                                   EMOJI_CHARS,
                                   MONTH_WORDS,
                                   ORDINAL_THINGS,
                                   PLACE_NOUNS,
                                   QUANTITY_VERBS,
                                   ROOM_NOUNS,
                                   TIMEZONES,
                                   WEEKDAY_WORDS,
                                   _alternation,
)
from memory.analysis.place_words import PLACE_NAMES, VENUE_HEADS

_WD = _alternation(WEEKDAY_WORDS)


_MO = _alternation(MONTH_WORDS)


_TZ = _alternation(TIMEZONES)


#: A time of day said as spoken: "half 12" (12:30), "quarter past 2", "half past seven".
# (a bare "half 12" only where no noun follows: not "half 12 bags", "half 2 times")
SPOKEN_TIME = (r"(?:(?:half|quarter)\s(?:past|to)\s(?:1[0-2]|[1-9]|one|two|three|four|five|six|"
               r"seven|eight|nine|ten|eleven|twelve)|half\s(?:1[0-2]|[1-9])(?=\s?(?:$|[.,;:!?)]|"
               r"(?:am|pm|start|kick|o'clock|ish|sharp|tonight|today|tomorrow|then|so|on|at|in|"
               r"and|or|not|instead|till|til|until|for|the|we|is|it's|its|now)\b)))"
               r"(?:\s?(?:am|pm))?")
_CLOCK = r"(?:\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|noon|midnight)"


_WDX = (r"(?:mon|tue|tues|weds|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday|rsday)?")


_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
# A month closing a span of days; "may" and "mar" are also words, so only where they end.
_SPAN_MONTH = (r"(?:(?:" + _alternation(tuple(m for m in MONTH_WORDS if m not in ("may", "mar")))
               + r")\b|(?:may|mar)(?=\s*(?:$|[.,;:!?)]|\s\d)))")


#: Currencies written before an amount ("EUR 300", "USD 1.2m") or after it ("720 EUR").
CURRENCY_CODES: tuple[str, ...] = ("usd", "eur", "gbp", "chf", "cad", "aud", "nzd", "jpy",
                                   "sek", "nok", "dkk", "pln", "inr", "sgd", "zar", "us$", "a$",
                                   "c$")


#: Currency words after an amount ("4.2 million dollars", "300 euros", "40 bucks").
CURRENCY_WORDS: tuple[str, ...] = ("dollars", "dollar", "euros", "euro", "pounds", "bucks",
                                   "quid", "francs", "yen", "rupees", "kroner", "kronor", "cents",
                                   "cent", "pence")


#: Scale words and letters after an amount ("4.2 million", "1.5M", "18k", "2bn").
MONEY_SCALES: tuple[str, ...] = ("k", "m", "mm", "mn", "bn", "b", "mil", "million", "millions",
                                 "billion", "billions", "thousand", "grand")


_AMOUNT = r"\d(?:[\d,]{0,15}\d)?(?:\.\d{1,3})?"


_SCALE = r"(?:" + _alternation(MONEY_SCALES) + r")"


#: What a large number counts when it is not money ("4.2 million users").
SCALED_COUNT_NOUNS: frozenset[str] = COUNT_NOUNS | frozenset("""
downloads installs views visits visitors requests rows records events messages lines
subscribers followers signups orders transactions calls queries impressions clicks
likes plays listens streams readers viewers
""".split())


#: Plurals after a number that do not name what it counts: units of time and measure,
#: and verbs ("7 works for me", "2 sounds fine"). Any other plural does ("6 tents").
UNCOUNTED_PLURALS: frozenset[str] = frozenset("""
seconds secs minutes mins hours hrs years yrs months times percent pcts mph kms miles kgs
lbs grams ounces degrees bucks dollars euros pounds quid cents pence points pts odds
works sounds looks seems goes does makes means needs wants gets takes comes says feels
helps fits lands starts ends runs ships beats wins stays moves slips lasts costs pays
holds keeps leaves opens closes plays counts matters gives shows tells turns thanks
this thus plus less unless across towards always perhaps sometimes was has does yes its his
hers ours yours theirs whereas besides anyways afterwards
""".split())


#: A 24-hour clock time in four digits ("0700", "2130").
HHMM = r"(?:[01]\d|2[0-3])[0-5]\d"
#: ... that is no year: "by 2025" is a year, "by 1430" a time
NOT_YEAR = r"(?!(?:19|20)\d\d\b)"
#: Two day numbers of a span of days ("7–13", "22nd-30th", "the 3rd to the 9th").
SPAN_OF_DAYS = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s?(?:-|–|—|to|until|till)\s?(?:the\s)?"
                          r"(\d{1,2})(?:st|nd|rd|th)?")
# What may follow a four-digit time: the end, punctuation, or a word that goes on about a
# moment ("opens 2130, first linehaul out 2200", "eta 1545 now", "0700 @ the workshop");
# never a unit ("at 1000 rpm", "1500 per head", "2300 ft") nor more digits ("0800 500 300").
_TIME_AFTER = (r"(?=\s?(?:hrs|h)?(?:$|[.,;:!?)\]]|\s(?:now|then|sharp|tonight|today|tomorrow|"
               r"tmrw|tmr|on|at|@|and|from|to|til|till|until|instead|not|pls|please|latest|the|"
               r"in|this|next|" + _WD + r")\b|\s[—–-]\s))")


_SCALED = r"\b\d{1,4}(?:\.\d{1,3})?\s?(?:million|billion|thousand|mil|mn)\b"


_COUNTED = r"\s(?:" + _alternation(SCALED_COUNT_NOUNS) + r")\b"


#: A number with a scale word followed by what it counts ("4.2 million users", "3 thousand
#: seats"): a count, never a version. Without a counted noun it is money ("Falcon budget is
#: 7 million"), see MONEY_PATTERN.
SCALED_COUNT_PATTERN = (r"(?:" + _SCALED + r"|\b\d{1,4}(?:\.\d{1,3})?\s?(?:k|m|bn)\b)(?="
                        + _COUNTED + r")")


# What may not follow an amount by the period: a plural noun it counts ("300/month orders").
_NOT_COUNTED = r"(?!\s(?:[a-z]{1,15}\s)?(?!(?:was|has|does|plus|less|unless|this)\b)[a-z]{2,20}s\b)"


# Openers before a choice taken up ("ok the Crown then", "so pizza it is").
_OPENERS = r"ok|okay|fine|alright|so|yes|yep|yeah|right|sure"


# Words that open no choice taken up by "then" ("see you then", "ok then", "and then").
_NOT_TAKEN = (r"(?i:(?:ok|okay|fine|right|cool|good|great|sounds|see|talk|speak|bye|done|and|so|"
              r"well|yes|yeah|yep|sure|alright|it|that|this|you|we|me|i|thanks|thx|ty|til|till|"
              r"until|even|just|only|since|back|now|but|oh|ah|hmm|lol|perfect|lovely|sorted|"
              r"agreed|deal|then|there|what|why|how|who|where|when|if|or|not|no|nah)\b)")


# The period or head written onto an amount ("£60pp", "£140pw", "£700pcm", "£12ph").
_PER_SUFFIX = r"(?:pp|pppn|pn|pw|pcm|ph|pa)?"


#: An amount of money, in every way it is written: a currency sign or code before it, a
#: currency word or code after it (a scale word between: "4.2 million dollars"), or a
#: scale alone where only money uses it ("40 grand", "1.5M", "$18k"), or a scale word
#: with nothing counted after it ("budget is 7 million"; "4.2 million users" is a count).
#: Linear: each alternative is a bounded run.
MONEY_PATTERN = (
    r"(?:[$€£¥]\s?" + _AMOUNT + r"(?:\s?" + _SCALE + r")?" + _PER_SUFFIX + r"\b|"
    # the sign after the amount, as much of Europe writes it ("5€ deposit", "10 € each")
    r"(?<![\w$€£¥.,])" + _AMOUNT + r"(?:\s?" + _SCALE + r")?\s?[€£$¥](?![\w$€£¥])|"
    # rand: "R950", "R4,200" (three digits or more: "R2" is a room or a version)
    r"(?<![\w$€£¥])(?<!room\s)(?<!rm\s)R(?:\d{1,3},\d{3}|\d{3,6})(?:\.\d\d)?\b|"
    r"(?<![\w$])(?:" + _alternation(CURRENCY_CODES) + r")\s?" + _AMOUNT
    + r"(?:\s?" + _SCALE + r")?\b|"
    r"\b" + _AMOUNT + r"\s?(?:" + _SCALE + r"\s?)?(?:"
    + _alternation(CURRENCY_CODES + CURRENCY_WORDS) + r")\b|"
    # ("15mm" without a currency is millimetres: "20 lengths 15mm copper")
    # (not "200k views": a count written short)
    # (nor metres: "5 m/s", "4 m x 3 m", "4 m by 3 m", "12 m wide")
    r"\b" + _AMOUNT + r"\s?(?:k|bn|grand|m(?!/s\b|²|\s?x\s?\d|\sby\s\d{1,3}(?:\.\d)?\s?m\b|"
    r"\s(?:wide|long|high|tall|deep|across|square)\b))\b(?!" + _COUNTED + r")|"
    # pence: "tickets 50p each", "20p a go" (two digits: "5p" may be a time)
    r"(?<![\w$€£.,:@])(?<!\bat\s)(?<!\bby\s)[1-9]\dp\b(?!\.\w)|"
    # pay by the hour: "14.50 an hour", "13.20ph", "15 p/h" (hours are never counted so)
    r"(?<![\w$€£¥./:])(?:\d{1,3}\.\d\d(?=\s?(?:ph|p/h)\b|\s(?:an|per)\s(?:hour|hr)\b)|"
    r"\d{2,3}(?=\s?(?:ph|p/h)\b))|"
    # dues, rent, fees and rates said by the period ("475/month", "1,200/yr", "495/day")
    # (not a count by the period: "300/month orders", "50/day new trials")
    # (by the day, hour or week only three digits or pence: "40/day" is as often a count;
    # "/h" and "/hr" abbreviate only a rate)
    r"(?<![\w$€£¥./])(?:\d[\d,.]{1,9}(?=/(?:month|mo|year|yr|annum|night|head)\b"
    + _NOT_COUNTED + r")|(?:\d[\d,]{2,9}|\d{1,3}\.\d\d)(?=/(?:day|hr|hour|wk|week)\b"
    + _NOT_COUNTED + r")|"
    # by the hour in two digits too: "spree room 35/h → 40/h" (nothing is counted so)
    r"\d{2}(?=/(?:h|hr)\b" + _NOT_COUNTED + r"))|"
    + _SCALED + r"(?!" + _COUNTED + r"))"
)


#: The words of a lower-case choice: no pronoun, function word or generic noun opens it.
_LOWER_CHOICE = (r"(?!(?:it|that|this|these|those|we|they|he|she|i|you|which|what|who|all|"
                 r"everything|everyone|nothing|date|time|venue|room|booking|order|plan|dates|"
                 r"times|slot|price|budget|menu|location|place|theme|format|schedule|list|"
                 r"go|do|come|stay|walk|drive|use|try|meet|eat|let's|lets|let|just|maybe|going|"
                 r"switching|moving|doing|getting|using)\b)[a-z][\w'’-]{1,20}"
                 r"(?:\s(?:&\s)?(?!(?:instead|confirmed|booked|locked|is|with|to|for|on|at|in|of|"
                 r"and|or|the|a|an)\b)[a-z][\w'’-]{1,20}){0,2}")


#: A day written as numbers ("6/20", "20/6/25"); which order it is, dates resolve.
NUMERIC_DAY = r"\d{1,2}/\d{1,2}(?:/(?:\d{4}|\d{2}))?(?![/\d])"


#: A bare amount (no unit word, no currency): 25 to 99999, never a year or an hour ("to 10"
#: is a time), nor part of a decimal, a price or a percentage.
_BARE = (r"(?!(?:19|20)\d\d\b)(?:[1-9]\d{0,2}(?:,\d{3}){1,3}|[1-9]\d{2,4}|2[5-9]|[3-9]\d)"
         r"(?![\d.,:%/-]?\d|%|\w)")


#: What may follow a bare amount that is set or changed: the clause ends, or a word that
#: closes the setting ("… to 60 then", "… at 98 max", "… 60, not 40").
_BARE_END = (r"(?=\s?(?:[?!;)]|[.,](?!\d)|$)|\s(?:instead|then|now|max|tops|total|not|and|but|"
             r"with|w|for|from|each|a\s(?:head|night|day|week|month))\b|"
             r"\s?[" + EMOJI_CHARS + r"])")  # "… up to 450 🤑"


#: An ordinal day said alone where a day is agreed or picked: "17th fine", "the 22nd works
#: for me", "ok 17th then", "17th?" (not a place or a count: "came 2nd", "1st day", "3rd time";
#: nor 1st to 3rd, as often a numbered option: "3rd works").
AGREED_ORDINAL = (r"(?<![\w/.,])(?<!came\s)(?<!placed\s)(?<!finished\s)(?<!came\sin\s)"
                  r"(?:[4-9]th|[12]\d(?:st|nd|rd|th)|3[01](?:st|th))\b"
                  r"(?=\s{0,3}(?:\?|(?:fine|works?|ok|okay|good|"
                  r"great|suits|then|it\sis|it's|is\sgood|is\sfine|for\sme|pls|please|"
                  r"instead|now)\b))")


#: A dotted number that is a time of day by what is around it ("thurs 8.15", "at 7.30",
#: "8.30 then?", "8.30 it is"): the number, and the words before and after that make it one.
DOTTED_CLOCK = r"(?:[01]?\d|2[0-3])\.[0-5]\d"
CLOCK_BEFORE = (r"(?:\b(?:" + _WDX + r"|at|from|til|till|until|by|before|after|starts?|"
                r"starting|kick-?off|ko|doors|meet|meeting)\.?,?|@)\s?$")
#: Words after a dotted number that make it an amount whatever comes before ("at 6.30
#: each", "around 1.45 a litre").
PRICE_AFTER = (r"^\s?(?:each|ea|per|a\s(?:litre|liter|kg|head|pop|go|pint|bag|box|unit|"
               r"piece|ticket)|/|p\b|quid|pounds?|dollars?|euros?|bucks|pp\b)")
#: (after the number alone, only a quarter hour: "upgrade to 3.10?" asks a version)
QUARTER_CLOCK = r"(?:[01]?\d|2[0-3])\.(?:00|15|30|45)"
#: Words before a dotted number that make it a version whatever follows ("ship 3.15 then").
VERSION_BEFORE = (r"\b(?:upgrade|upgrading|release|released|version|ship|ships|shipping|"
                  r"build|bump|patch|app|ios|android|python|node|firmware|v)\b[\s\w]{0,6}$")
CLOCK_AFTER = (r"^(?:\s?(?:\?|am\b|pm\b|hrs\b)|\s(?:then|it is|it's|instead|sharp|start|"
               r"kick-?off|ko|onwards|latest|on the dot)\b|\s?(?:-|–|to|till|until)\s?\d)")


#: A quantity written with its unit of measure ("1.6kg neck lift", "1200g balloon",
#: "40mm netting", "a 7.5 tonner", "6ft bars", "~5 m/s ascent", "8 m wide"): the unit is
#: part of the value (a "1.6" alone is no weight; "7.5" no version; "5 m/s" no £5m). A
#: one-letter unit only written against its number ("1200g", "4L", "7.5t"); metres alone
#: only before what they measure ("12 m wide"; "budget 12 m" may be money).
_MEASURE = (r"(?:\d{1,5}(?:\.\d{1,3})?\s?(?-i:kgs?|kilos?|grams?|mg|mm|cm|km|ft|feet|foot|lbs?|"
            r"oz|ml|litres?|liters?|mph|kph|km/h|m/s|psi|mah|kwh?|tonnes?|tonner|sqm|sq\s?ft|inch(?:es)?|"
            r"m²|m2|KG|Kg|MM|L)(?:/(?-i:[a-z]{1,5})\b)?|\d{1,5}(?-i:l)|(?:\d{2,5}|\d{1,4}\.\d{1,3})(?-i:g|t))(?![\w/²])|"
            # (a single digit and "g" is a phone network or a pitch: "5g", "3g")
            r"\d{1,4}(?:\.\d{1,2})?\s?m(?=\s?x\s?\d|\sby\s\d{1,3}(?:\.\d)?\s?m\b|\s(?:wide|long|"
            r"high|tall|deep|across|square)\b)")
MEASURE_PATTERN = r"(?<![\w$€£¥.,:/-])(?:" + _MEASURE + r")"
#: A number below zero ("bump it to -12", "ok -12 👍", "−18°C", "minus 4"): the sign is
#: part of the value (a freezer at -12 is not at 12). Written against its digits, after a
#: space or at the start (not "10-12", a range).
SIGNED_PATTERN = (r"(?:(?<=[\s(:~=])|^)(?:[-−]|minus\s)\d{1,3}(?:\.\d)?"
                  r"(?:\s?°\s?[cfCF]?|\s?degrees?)?(?![\w,:/°-]|\.\d|\s?%)")


# After a measure set, no thing it is a measure of ("going with 40mm netting" chooses the
# netting; "at 40mm of rain" is no value): a connecting word or the end of the clause.
_NO_THING = (r"(?!\s(?:of\b|(?!(?:it|is|then|instead|not|now|please|pls|and|but|so|to|at|for|"
             r"from|on|in|each|per|a|an|the|or|as|by|with|max|min|total|tops|ish|today|tonight|"
             r"tomorrow|tmrw|thanks|cheers|good|ok|fine)\b)[a-z]{2,}))")
#: A measure where it is set or stated ("fill target: 1.6kg", "going with 40mm", "swapped it
#: for a 7.5 tonner", "i'd go 1.8kg", "40mm it is"); not one said in passing ("anyone got a
#: 2.5mm hex key", "7.5t dropped at dobsons").
SET_MEASURE = (r"(?:(?:[:(~=]\s?|\b(?:to|at|is|are|was|be|now|go|with|for|it's|its|use|"
               r"using|need|needs|order|ordering|fill|filling|into|then|make\sit|(?:for|with|to|"
               r"on|into)\s(?:a|an|the))\s)(?P<v>" + _MEASURE + r")" + _NO_THING + r"|"
               + MEASURE_PATTERN + r"(?=,?\s(?:it\sis|it's|then|instead|not|now|please|pls)\b))")


#: Value patterns (kind, regex source), all linear. A named group ``v`` marks the value when
#: the pattern also matches its lead-in word. Overlaps are resolved by the analyzer: the
#: longer span wins, then the more specific kind.
SLOT_PATTERNS: tuple[tuple[str, str], ...] = (
    ("count", SET_MEASURE),
    ("count", SIGNED_PATTERN),
    # ranges: "02:00-04:00", "2-4pm", "10:00–11:30 cet", "9am to 5pm"
    ("range", rf"\b(?:{_CLOCK}|\d{{1,2}})\s?(?:-|–|—|to|till|until)\s?{_CLOCK}"),
    # dotted clock times: "wed 6.30-7.30", "3.30 to 5.30" (British chat)
    ("range", r"\b(?:[01]?\d|2[0-3])\.[0-5]\d\s?(?:-|–|—|to|till|until)\s?(?:[01]?\d|2[0-3])"
              r"\.(?:00|15|30|45)\b(?![.\d])"),
    # "Nov 11-15", "Nov 11 – Nov 15"
    ("range", rf"\b(?:{_MO})\.?\s{_ORD}\s?(?:-|–|—|to|through|thru)\s?"
              rf"(?:(?:{_MO})\.?\s)?{_ORD}\b"),
    # a span of days: "7–13 jul", "14-20 july", "22nd-30th", "the 3rd to the 9th of apr"
    # (a lower-case "may" or "mar" only where it ends: "sprints 1-2 may slip" is no span;
    # a span that cannot be one, "4-0 jun", is dropped where values are found)
    ("range", r"\b\d{1,2}(?:st|nd|rd|th)?\s?(?:-|–|—)\s?\d{1,2}(?:st|nd|rd|th)?\s(?:of\s)?"
              + _SPAN_MONTH),
    ("range", r"\b(?:the\s)?\d{1,2}(?:st|nd|rd|th)\s?(?:-|–|—|to|until|till)\s?(?:the\s)?"
              r"\d{1,2}(?:st|nd|rd|th)(?:\s(?:of\s)?" + _SPAN_MONTH + r")?\b(?!\s"
              + ORDINAL_THINGS + r"\b)"),
    # "thu-sun", "Mon–Wed"
    ("range", rf"\b{_WDX}\s?(?:-|–|—|through|thru)\s?{_WDX}\b"),
    # times: "3 pm", "10:30", "noon", "eod"
    ("time", r"\b(?:\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|noon|midnight|"
             r"eod|end of day|cob|close of business|"
             + SPOKEN_TIME + r")(?!\w|:\d)"),
    # dates: ISO, weekdays ("next Friday"), "Oct 17", "17 Oct", "17th of October", "the 15th"
    ("date", r"\b\d{4}-\d{2}-\d{2}\b"),
    # (not an occasion named after its day: "Black Friday", "Cyber Monday")
    ("date", rf"(?<!['’])(?<!black\s)(?<!cyber\s)(?<!(?-i:Good)\s)\b"
             rf"(?:(?:next|this|last|coming)\s)?{_WDX}\b"
             r"(?:\s(?:morning|afternoon|evening|night))?"),
    ("date", rf"\b(?:{_MO})\.?\s{_ORD}\b(?!:\d)(?:,?\s\d{{4}}\b)?"),
    ("date", rf"\b{_ORD}\s(?:of\s)?(?:{_MO})\b(?:,?\s\d{{4}}\b)?"),
    # (not an ordinal of a thing or a street: "the 3rd floor", "on 3rd ave")
    ("date", r"\bthe\s\d{1,2}(?:st|nd|rd|th)\b(?!\s" + ORDINAL_THINGS + r"\b)"),
    # "check in 18th 3pm", "on 19th": an ordinal day where a day is meant
    ("date", r"\b\d{1,2}(?:st|nd|rd|th)\b(?=,?\s(?:at\s)?\d{1,2}(?::\d{2})?\s?(?:am|pm)\b)|"
             r"(?<=\bon\s)\d{1,2}(?:st|nd|rd|th)\b(?!\s" + ORDINAL_THINGS + r"\b)"),
    ("date", AGREED_ORDINAL),
    ("date", r"\b(?:today|tomorrow|tonight|yesterday|next week|this week|next wk|this wk|"
             r"next month|this month|"
             r"next quarter|end of (?:the )?(?:week|month|quarter|sprint|year)|eow|eom|eoq|"
             r"q[1-4](?:\s\d{4})?|h[12]\s\d{4})\b"),
    # chat spellings of tomorrow and today
    ("date", r"\b(?:tmrw|tmr|tmw|tomo|2moro|2morrow|tmrow|2day|tdy)\b"),
    # days as numbers: "fri 6/20", and "moved to 6/20" where a day is meant ("6/6" alone is
    # as often a count or a score)
    ("date", rf"\b(?:{_WD})\.?,?\s{NUMERIC_DAY}"),
    ("date", r"\b(?:on|by|for|until|till|from|to|is|now|due|before|after)\s(?P<v>"
             + NUMERIC_DAY + ")"),
    # "sat 15th", "Tuesday the 12th", "fri 28th", "Monday 28"
    # (not the hour of a dotted time: "thurs 7.30am")
    # (nor an ordinal of a thing: "friday 3rd floor kitchen")
    ("date", rf"\b(?:{_WD})\.?,?\s(?:the\s)?\d{{1,2}}(?:st|nd|rd|th)?\b(?![/.]\d)"
             rf"(?!\s?(?::|am|pm|h\b)|\s(?:{_MO})\b|\s?[-–]\s?\d)"
             r"(?!\s" + ORDINAL_THINGS + r"\b)"),
    # "wk of mar 10", "week of Nov 11"
    ("date", rf"\b(?:wk|week)\sof\s(?:{_MO})\.?\s{_ORD}\b"),
    # "the first Tuesday of the month", "last friday of every month": a day that recurs
    ("date", rf"\b(?:the\s)?(?:first|second|third|fourth|last|1st|2nd|3rd|4th)\s"
             rf"(?:{_WD})s?\sof\s(?:the|each|every)\smonth\b"),
    # "Mondays", "every Tuesday", "every other Friday"
    ("date", r"\b(?:every\s)?(?:mon|tues|wednes|thurs|fri|satur|sun)days\b"),
    ("date", rf"\bevery\s(?:other\s)?(?:{_WD})\b"),
    # a month alone after a preposition: "until January", "in March", "early June"
    ("date", rf"\b(?:in|to|by|on|until|till|thru|from|for)\s(?P<v>(?:{_MO}))\b(?!\.?\s\d)"),
    ("date", rf"\b(?:early|mid|late|end of|start of)[\s-](?:{_MO})\b"),
    # "the first week of October", "last weekend of March"
    ("date", rf"\b(?:the\s)?(?:first|second|third|fourth|last|final)\s(?:week|weekend|half)"
             rf"\sof\s(?:{_MO})\b"),
    # an ordinal day after a preposition or an arrow: "to the 22nd", "→ 22nd", "on the 5th"
    ("date", r"(?:\b(?:to|on|by|until|till|for|from)|→|->)\s"
             r"(?P<v>(?:the\s)?\d{1,2}(?:st|nd|rd|th))\b(?!\s" + ORDINAL_THINGS + r"\b)"),
    # a bare hour where a time is moved or agreed: "move standup to 10?", "10 it is"
    # (or when a day word or a replaced hour follows: "close at 2 tmrw", "open til 3 not 2")
    # (not the first digits of a number: "is at 2,900 hrs")
    ("time", r"\b(?:at|to|till|til|until|from|around|@)\s(?P<v>(?:[01]?\d|2[0-4]))"
             r"(?=\s?(?:[?.!,;)](?!\d)|$|instead\b|then\b|pls\b|please\b|sharp\b|tomorrow\b|"
             r"tmrw?\b|tmw\b|today\b|tonight\b|latest\b|not\s(?:[01]?\d|2[0-4])\b"
             # (not a count: "cut to 5 not 6 players", "down to 15 not 16 children")
             r"(?!\s?(?:ppl|people|staff|kids|children|guests|adults|men|women|of|per|each|%|x"
             r"|[a-z]{2,20}s)\b)))"),
    ("time", r"(?P<v>\b(?:[01]?\d|2[0-4])(?::\d{2})?)(?=,?\s(?:it is|it's)\b)"),
    # a bare hour after a day and "at": "2moro at 8", "tmrw at 10", "sat at 2" (not a count
    # or a measure after it: "sat at 2 people")
    ("time", r"\b(?:" + _WDX + r"s?|tomorrow|tmrw|tmr|tmw|tomo|2moro|2morrow|today|tdy|"
             r"tonight|tonite)\s(?:at|@)\s(?P<v>(?:[01]?\d|2[0-3]))\b(?![:.,]\d|\s?(?:am|pm|"
             r"a\.m|p\.m|h|hrs?|ppl|people|of|per|each|%|x|st|nd|rd|th|quid|k|p|[a-z]{2,20}s)"
             r"\b)"),
    # a bare hour something starts or ends at: "classes start at 3 now", "doors open at 7"
    # (not a count: "start at 3 people", nor a day: "start at 3rd")
    ("time", r"\b(?:start|starts|starting|begin|begins|kicks?\soff|finish|finishes|ends?|"
             r"opens?|closes?|meets?|doors)\s(?:at|@)\s(?P<v>(?:[01]?\d|2[0-4]))\b"
             r"(?![:.,]\d|\s?(?:am|pm|a\.m|p\.m|h|hrs?|ppl|people|of|per|each|%|x|st|nd|rd|th|"
             r"for|quid|k|p|[a-z]{2,20}s)\b)"),
    # a bare hour said to be when something starts: "start is 9", "call time's 6 now"
    ("time", r"\b(?:start|start time|call|call time|doors|kick-?off|finish|finish time|end time|"
             r"pickup time)(?:'s|’s|\sis|\sis now|\snow)\s(?P<v>(?:[01]?\d|2[0-4])"
             r"(?:[:.][0-5]\d)?)(?=\s?(?:[?.!,;)]|$|now\b|instead\b|then\b|sharp\b))"),
    # a 24-hour time written as four digits where a time is meant: "cutoff 1030", "eta
    # 1545 now", "gate opens 2130", "ready @ 1541" (not "1150 of 2000", "by 2025")
    ("time", r"\b(?:at|by|from|before|after|until|till|til|opens?|closes?|starts?|starting|"
             r"ends?|call|departs?|leaves?|arrives?|out)\s" + NOT_YEAR + r"(?P<v>" + HHMM
             + r")(?:\s?(?:hrs|h)\b)?" + _TIME_AFTER),
    ("time", r"(?:\b(?:eta|etd|cutoff|cut-off)\s|@\s?)(?P<v>" + HHMM + r")(?:\s?(?:hrs|h)\b)?"
             + _TIME_AFTER),
    ("time", r"(?<![\w$£€#.,:/-])(?P<v>" + HHMM
             + r")(?:\s?hrs\b|(?=\s(?:sharp|on the dot)\b))"),
    # "1545 now, not 1510", "1030 instead of 1100": two four-digit times, one for the other
    ("time", r"(?<![\w$£€#.,:/-])(?P<v>" + NOT_YEAR + HHMM + r")(?:\s(?:now|then))?,?\s(?:not|"
             r"instead of|rather than|→|->)\s" + HHMM + r"\b"),
    # a bare hour said for a clock time: "yard opens 7 not 7:30", "8 instead of 7.30pm"
    # (quarter hours only: "4 not 4.50" is a price; not before a count's noun: "7 not 6:30
    # ppl")
    ("time", r"(?<![\w$£€#.,:/-])(?P<v>(?:[01]?\d|2[0-3]))(?:\s(?:now|then))?,?\s(?:not|"
             r"instead of|rather than)\s(?:[01]?\d|2[0-3])(?:[:.](?:00|15|30|45)|\s?(?:am|pm))"
             r"\b(?!\s(?:ppl|people|staff|kids|guests|of|per|each)\b)"),
    # a range of bare hours where it is proposed or agreed: "can we do 11 to 3 instead?"
    ("range", r"\b(?:do|from|at|make it|start at)\s(?P<v>(?:[01]?\d|2[0-4])\s?(?:-|–|to)\s?"
              r"(?:[01]?\d|2[0-4]))\b(?!\s?(?:days?|weeks?|months?|hours?|people|%|x))"),
    ("range", r"(?P<v>\b(?:[01]?\d|2[0-4])(?:\s?(?:-|–)\s?|\s(?:to|till|until)\s)"
              r"(?:[01]?\d|2[0-4]))(?=\s(?:it is|it's|works|then|instead)\b)"),
    # bare hours said as opening hours or right after a day: "saturday hours change to 8-2",
    # "sat mar 21, 10-2", "Saturday 14 June, 10-4", "weds 6-9", "open 9-3", "on shift 8-4",
    # and the hours they replace ("8-2 (was 9-3)"; not "it was 3-1")
    # (not a score after a day, "sat 3-1 win", nor a span of days, "3-5 july")
    ("range", r"(?:\b" + _WDX + r"s?|\b\d{1,2}(?:st|nd|rd|th)|\b\d{1,2}\s(?:" + _MO
              + r")|\b(?:" + _MO + r")\.?\s\d{1,2}(?:st|nd|rd|th)?|\bhours|\bopens?|\bopening"
              r"|\bshift|\(was)(?:\s(?:are|is|will be|now|(?:change|changes|changing|"
              r"changed|go|goes|going|move|moves|moving|moved|back|extend|extends|extended|"
              r"extending|shorten|shortens|shortened) to|to|from)){0,2},?\s"
              r"(?P<v>(?:[01]?\d|2[0-4])(?:\s?(?:-|–)\s?|\s(?:till|til|until)\s)(?:[01]?\d|2[0-4]))"
              r"(?![\d:]|\.\d|\s?(?:days?|wks?|weeks?|months?|hours?|hrs?|"
              r"people|ppl|%|x|win|wins|won|loss|lost|draw|victory|defeat|to us|to them)\b|"
              r"\s(?:of\s)?" + _SPAN_MONTH + r")"),
    # a major version after a product name: "Postgres 16", "iOS 18", "node 20"
    ("version", r"\b(?:postgres|postgresql|pg|python|node|nodejs|java|ios|android|k8s|"
                r"kubernetes|terraform|golang|ruby|rails|react|php|mysql|redis|ubuntu|debian|"
                r"macos|windows|elasticsearch|es|kafka|angular|vue|django|spring|dotnet|\.net)"
                r"\s(?P<v>v?\d{1,3})\b(?![.:,]\d)"),
    # years stand alone ("the 2025 budget"): a value only where nothing else is
    ("date", r"\b(?:19|20)\d{2}\b"),
    # builds and release candidates are versions: "build 412", "RC 3"
    ("version", r"\b(?:build|rc|release candidate)\s?#?\d{1,6}\b"),
    ("version", r"\bv?\d{1,4}\.\d{1,4}(?:\.\d{1,4}){0,2}(?:-[a-z0-9]{1,12}(?:\.\d{1,4})?)?\b"
                r"(?!%|\.\d)"),
    ("version", r"\bv\d{1,4}\b"),
    # cloud regions
    ("region", r"\b(?:us|eu|ap|ca|sa|me|af|il|mx)-(?:east|west|north|south|central|northeast|"
               r"southeast|northwest|southwest)-\d\b"),
    ("money", MONEY_PATTERN),
    # an amount right after the word for it, its currency left out: "opening budget 2,600",
    # "fee now 4,500" (three figures or more; not what it counts: "budget 200 copies")
    ("money", r"\b(?:budget|fee|fees|price|cost|costs|deposit|overdraft|grant|quote|float)"
              r"(?:\s(?:limit|cap|now|is|was|at|of|to|=)){0,2}:?\s(?P<v>\d{1,3}(?:,\d{3})+|"
              r"[1-9]\d{2,5})(?![\d.,:%/-]?\d|%|\w|\s?[a-z]{2,15}s\b)"),
    # a price set to nothing: "it's free with a gold coin donation", "entry is free now",
    # "free entry" (not "I'm free tuesday", "the room is free at 3")
    ("money", r"\b(?:it's|it’s|its|it is|it'll be|now|entry is|entry's|admission is|"
              r"tickets are|going|goes|made it|make it|becomes?)\s(?P<v>free)\b"
              r"(?!\s(?:to|on|at|this|that|tomorrow|tonight|today|now|until|till|after|before|"
              r"from|all|in|up|for\s(?:a|an|the|me|us|you|him|her|them)\b))"),
    ("money", r"\b(?P<v>free)(?=\s(?:entry|admission|of charge)\b)"),
    ("count", SCALED_COUNT_PATTERN),
    # amounts with a unit: "30%", "200ms", "3 nodes", "3-screen"
    ("count", r"\b\d[\d,]{0,12}(?:\.\d{1,3})?\s?(?:%|percent|ms|s|gb|tb|mb|x)(?![\w])"),
    # quantities by weight or volume where something is ordered or needed: "ordering model
    # resin today, 4L", "need 20 kg of flour" (not "recipe says 250ml milk … for 12 people";
    # a lone "l" only written against its number)
    ("count", r"\b(?:" + _alternation(QUANTITY_VERBS) + r")\b[^.;!?\n]{0,40}?\b"
              r"(?P<v>\d[\d,]{0,6}(?:\.\d{1,3})?(?:l|\s?(?:ml|kg|kgs|lbs?|oz|gal|litres?|liters?|kilos?|grams?)))(?![\w])"),
    # a duration in hours and minutes ("2h40m", "1 hr 30 min"; not the clock "14h30")
    ("count", r"\b\d{1,3}\s?(?:h|hrs?|hours?)\s?\d{1,2}\s?(?:m|mins?|minutes?)(?![\w])"),
    # a duration where it is set or changed: "SLA goes to 3h", "the read is 45 sec",
    # "standup is 15 min now" (not "takes 3 hours door to door": a unit is no count)
    ("count", r"(?:\b(?:to|at|is|was|now|be|of)\s)(?P<v>\d{1,3}(?:\.\d)?\s?(?:h|hr|hrs|hours?|"
              r"mins?|minutes?|secs?|seconds?))(?![\w])"),
    # a length written before its noun: "60-second clip", "a 30-minute call", "2-hour slot"
    ("count", r"\b(?P<v>\d{1,3}-(?:second|sec|minute|min|hour|hr|day|week|month|year|night)s?)"
              r"(?=\s[a-z])"),
    # a period set or changed in days, weeks or months: "cut his probation from 3 months to
    # 6 weeks", "extend it to 60 days" (not "moved to 2 weeks from now", a day)
    ("count", r"(?:\b(?:to|is|was|be|from|now)\s)(?P<v>\d{1,3}\s?(?:days?|weeks?|wks?|months?))"
              r"(?![\w])(?!\s(?:from|later|after|before|out|ago|away|time|on|of|in)\b)"),
    # a temperature: "over 26°C", "25 degrees today"
    ("count", r"\b\d{1,3}(?:\.\d)?\s?(?:°\s?[cf]?|degrees?(?:\s[cf]\b)?)(?![\w°])"),
    # a bare amount where it is set or changed: "cap goes up to 60", "capping at 98",
    # "budget = 400", "98 then", "60, not 40"
    ("count", r"(?:\b(?:to|at|is|was|of|now)\s|\b(?:make|makes|making|made)\s(?:it|that)\s|=\s?|"
              r"→\s?|->\s?)(?P<v>" + _BARE + r")" + _BARE_END),
    ("count", r"(?<![\w.,:/£$€#-])(?P<v>" + _BARE + r")(?=,?\s(?:(?:then|instead|it is|it's|max|"
              r"tops)\b|(?:not|rather than|instead of)\s\d))"),
    # a number after the word for a count: "final rsvp count 176", "headcount now 42"
    ("count", r"\b(?:count|tally|headcount|head count)(?:\s(?:is|now|at|of|=)){0,2}:?\s"
              r"(?P<v>\d{1,3}(?:,\d{3})+|[1-9]\d{0,4})(?![\d.,:%/-]?\d|%|\w)"),
    # a headcount said of the group: "24 of us", "told them 22 of us"
    ("count", r"(?<![\w.,:/£$€#-])(?P<v>[1-9]\d{0,3})(?=\sof\sus\b)"),
    # a small cap: "max 5", "5 max.", "maximum of 8" (not "max 5pm")
    ("count", r"\b(?:max|maximum|max of|maximum of)\s(?P<v>[1-9]\d{0,3})"
              r"\b(?![:.]\d|\s?(?:am|pm|st|nd|rd|th|h)\b)"),
    ("count", r"(?<![\w.,:/£$€#-])(?P<v>[1-9]\d{0,3})(?=\s(?:max|tops|maximum)\b)"),
    # a small number said for another: "we've got 14 not 16", "12 instead of 10" (not a
    # time or a day: "at 3 not 4", "the 14th not the 16th")
    ("count", r"(?<![\w.,:/£$€#-])(?<!\bat\s)(?<!\bby\s)(?<!\bthe\s)(?<!\bfrom\s)"
              r"(?<!\btil\s)(?<!\buntil\s)(?<!\btill\s)(?<!\bfor\s)"
              r"(?P<v>[1-9]\d?)(?=,?\s(?:not|instead of|rather than)\s(?:the\s)?[1-9]\d?\b"
              r"(?![:.]\d|\s?(?:am|pm|st|nd|rd|th|h)\b|\w))"),
    # a name in quotes, its words capitalised as titles and products are written: 'title:
    # "When the River Came"', 'switching to "Slate"' (not words quoted as said: 'the
    # suspension is "a joke"', a tagline "Built to be handed down")
    ("choice", r"[\"“](?P<v>[A-Z][\w'’&-]{0,30}(?:\s(?:(?:the|a|an|of|to|in|on|and|with|for|"
               r"at|by|from|or)\s){0,2}[A-Z0-9][\w'’&-]{0,30}){0,5})[\"”](?![\w])"
               # (a quoted name before the noun it names is the thing's name: '"Flood
               # Detectives" workshops')
               r"(?!\s(?!(?:for|from|at|in|on|to|it|is|was|are|were|now|then|instead|and|or|"
               r"as|with|by|this|next|not|but|so|if|until|till)\b)[a-z])"),
    # match formats: "Bo5", "best of 7"
    ("choice", r"(?i:\b(?:bo[1-9]|best[\s-]of[\s-](?:[1-9]|three|five|seven))\b)"),
    # a choice named where a decision names it: "switching to Taqueria Luna", "Pho Saigon it is"
    ("choice", r"(?i:\b(?:switch(?:ing|ed)? to|go(?:ing)? with|went with|decided on|settled on|"
               r"moving to|moved to|picked|chose|renamed to|winner is|booked|booking|"
               r"rebooked us at|booked us at|hired|went for|going for))\s(?P<v>[A-Z][\w'’&-]{0,30}"
               r"(?:\s(?:[A-Z][\w'’&-]{0,30}|de|la|del|of|the)\b){0,4})"),
    # (an opener before it is no part of the name: "Ok St Abbs it is")
    ("choice", r"(?<![\w'’])(?P<v>(?!(?i:" + _OPENERS + r"|then|great|cool)\s)"
               r"[A-Z][\w'’&-]{0,30}(?:\s(?:&\s)?[A-Z][\w'’&-]{0,30}){0,3})"
               r"(?=,?\s(?:it is|it's|wins)\b)"),
    # "kielder wins!!", "poll closed: arran wins": a lower-case choice a vote decided
    ("choice", r"(?:^|[,.!:;]\s{0,2})(?P<v>(?!(?:it|that|this|everyone|everybody|nobody|no one|"
               r"we|they|he|she|who|which|team|house)\b)[a-z][\w'’-]{2,20}(?:\s[a-z][\w'’-]{2,20})?)"
               r"\swins\b(?!\s(?:the|a|an|by|at|in|on|over|against|\d))"),
    # "Terrace then, same time.", "ok the Crown then": a name taken up by "then" opening
    # its clause (not "see you then", "ok then", "fine by me then"; a lower-case reply,
    # "bus loop then", is read against the turn it answers; "Mara's marshal then" says who)
    ("choice", r"(?:^|[,.!:;]\s{0,2}|\b(?i:" + _OPENERS + r")\s)"
               r"(?:(?i:the)\s)?(?P<v>(?!" + _NOT_TAKEN + r")[A-Z][\w&-]{1,20}"
               r"(?:\s(?!(?i:then|it|it's|its|is|was)\b)[A-Za-z][\w&-]{1,20}){0,2}),?\s(?i:then)"
               r"(?=\s{0,2}(?:[.,!?;]|$)|\s(?i:same|it is|it's)\b)"),
    # "ok fair, basket it is", "so pizza it is": a common word decided on after an opener
    ("choice", r"(?:^|[,.!:;]\s{0,2}|\b(?i:" + _OPENERS + r"|then)\s)"
               r"(?P<v>(?!(?:it|that|this|so|which|how|what|and|but|or|come|" + _OPENERS
               + r")\b)[a-z][\w'’-]{1,20}"
               r"(?:\s(?!it\b)(?:&\s)?[a-z][\w'’-]{1,20}){0,2}),?\s(?i:it is|it's)"
               # (not "and come on, it's called the Star": a word going on says what it is)
               r"(?:\s{0,3}(?:[^\w\s]|$)|\s(?i:then|for|on|at|from|again|now|guys|all|team)\b)"),
    # "we'll ring PLAIN BOB DOUBLES instead of Grandsire": a name said to replace another
    # (after a word of its clause, never a word of talk: "Honestly, instead of the Crown …")
    ("choice", r"(?<=\w\s)(?P<v>(?-i:(?!(?:Honestly|Maybe|Perhaps|Team|Guys|So|Actually|BTW|"
               r"FYI|Also|And|But|Or|Ok|OK|Okay|Yeah|Yes|No|Then|Now|Just|Please|Pls)\b)"
               r"(?:[A-Z][\w'’&-]{1,24}\s){0,3}[A-Z][\w'’&-]{1,24}))"
               r"(?=\s(?i:instead of)\s)"),
    # "hake instead of cod", "ok, the velvet hours instead!!", "galloway confirmed ✅": a
    # lower-case choice opening its clause, said to replace another or to be settled
    ("choice", r"(?:^|[,.!:;]\s{0,2}|\s[—–-]\s{1,2}|\b(?i:" + _OPENERS + r"|then|plan)\s)"
               r"(?:the\s)?(?P<v>" + _LOWER_CHOICE + r")"
               r"(?<!double)(?<!fully)(?<!already)(?<!over)\s(?:"  # "the hall's double booked"
               r"instead\b|(?:is\s)?(?:confirmed|booked|locked in|locked)\b"
               # (not what is booked for a day: "health inspection booked thu jan 22")
               r"(?!\s(?:for|by|on|at|to|in|out|up|solid|today|tomorrow|tonight|tmrw|next|this|"
               r"(?:" + _WDX + r")|(?:" + _MO + r")\.?\s?\d|\d)\b|\s?:))"),
)


# "… of Millbrook Elementary", "… of Hall B", "… of Building 7": the named place a part of a
# place is in.
_OF_NAMED = (r"(?-i:\sof\s(?:the\s)?[A-Z][\w'’-]{0,24}"
             r"(?:\s(?:[A-Z][\w'’-]{0,24}|\d{1,4}[A-Za-z]?)){0,2}\b)")

# Words after "at the"/"to the" that say when or how much, never where ("at the moment",
# "to the end", "moved to the afternoon", "at the latest").
_NOT_A_PLACE = (r"(?:moment|end|latest|earliest|least|most|same|start|beginning|last|next|"
                r"top|bottom|weekend|time|rest|whole|other|first|second|morning|afternoon|"
                r"evening|night|week|month|year|day|slot|list|plan|team|group|channel|thread|"
                r"doc|sheet|spreadsheet|calendar|agenda|budget|point|limit|max|minimum|"
                r"maximum|front|back|following|previous|usual|final|deadline|date|dates|"
                r"version|format|process|system|schedule|rota|meeting|call|chat|email)")

# What a place's name may be said of instead of the place: its cost, keys or staff ("to
# cover hall hire", "the church hall keys").
_OF_THE_PLACE = (r"(?!\s(?:hire|rental|fee|fees|rent|costs?|bookings?|keys?|manager|staff)"
                 r"\b)")

#: A lower-case name after "at the" right after a day or time ("tue 16 sept at the crown,
#: 7:45", "sat 12th at the lifeboat station"): where that happens.
PLACE_AFTER_WHEN = (r"\s{1,2}(?:at|@)\s(?P<v>the\s(?!" + _NOT_A_PLACE + r"\b)[a-z][\w'’&-]{1,20}"
                    r"(?:\s(?!(?:on|at|in|for|from|to|by|with|and|or|but|so|if|is|was|we|i|"
                    r"then|now|this|that|it|instead)\b)[a-z][\w'’&-]{1,20}){0,2})"
                    r"(?=\s{0,2}(?:[,.;!?)(]|$|\s(?:at|on|from|for|and|with|by|then|now)\b))")


#: A place: a room-like noun with its name, a common place noun, or a name after "at".
PLACE_PATTERNS: tuple[str, ...] = (
    # a venue named in capitals, ending in what it is: "Ocean Room can do Sat 8 March",
    # "the Crab House" (its last word capitalised too: "Dev's house" is no venue's name)
    r"(?<![\w'’])(?P<v>(?:[A-Z][\w'’&-]{1,20}\s){1,3}(?:" + _alternation(VENUE_HEADS)
    + r"))\b(?![-'’])",
    # (not a rate: "spree room 35/h")
    r"\b(?i:" + _alternation(ROOM_NOUNS) + r")\s(?:[A-Z0-9](?:[\w'’-]|\.\d){0,24}"
    r"(?![\w'’.-]{0,24}/[a-z])|[a-z]\b)",
    # "at the gym", "at the east car park", "at the back lot of Millbrook Elementary", "at
    # the skatepark end of Riverside Park" (a part of a named place is in that place)
    # (not "in that church": a place said again by pointing at it)
    r"(?i:\b(?:in|at|on|to)\s(?!(?:that|this|these|those|which|every|each)\s)"
    # (a saint's name too: "at st brendan's parish hall")
    r"(?P<v>(?:the\s)?(?-i:st\s)?(?-i:(?:[a-z]{3,15}|[a-z]{2,15}['’]s)\s){0,2}(?:(?:"
    + _alternation(PLACE_NOUNS) + r")\b" + _OF_THE_PLACE + r"(?:" + _OF_NAMED
    + r")?|(?-i:end|side|entrance|corner)"
    + _OF_NAMED + r")))",
    # "party on Malvarrosa beach", "meet at Brighton station": a name before a common place
    # noun, without "the"
    r"(?i:\b(?:in|at|on)\s)(?P<v>(?-i:[A-Z][a-z]{2,14})\s(?:" + _alternation(PLACE_NOUNS)
    + r"))\b(?![-'’])",
    # "club night moves to the royal oak", "kit moved to the scout hut storeroom", "coffee
    # is at the gull's rest": a lower-case name after a verb that puts something somewhere
    # (not "at the moment", "to the end", "moved to the 14th", "moves to the afternoon";
    # nor where people are: "geoff and i are at the trade show", "she is at the dentist")
    r"(?i:\b(?:move|moves|moved|moving|relocat(?:e|ed|es|ing)|meet|"
    r"meeting|meets|held|happening|now|it's|it’s|(?<!\bhe\s)(?<!\bshe\s)(?<!\bwho\s)is)"
    r"\s(?:at|to)\s"
    r"(?P<v>the\s(?!" + _NOT_A_PLACE + r"\b)(?-i:[a-z][\w'’&-]{1,20})"
    r"(?:\s(?:&\s)?(?!(?:" + _NOT_A_PLACE + r"|on|at|in|for|from|to|by|with|instead|and|or|"
    r"but|so|because|since|till|until|now|then|this|that|is|are|was|it|we|i|you|they|"
    # (a number inside the name: "the route 9 park")
    r"not|if|as)\b)(?-i:[a-z][\w'’&-]{1,20}|\d{1,3}(?=\s[a-z]))){0,3})"
    # (the name ends where the clause or a linking word does: "the new booking system" is
    # no place cut short)
    r"(?=\s{0,2}(?:[,.;:!?)(]|$)|\s(?:on|at|in|for|from|to|by|with|and|or|but|so|because|"
    r"since|till|until|now|then|this|instead|not|-|—|–)(?:\s|$)))",
    # "moving the fair inside", "back outside", "the standup goes remote"
    r"(?i:\b(?:move|moving|moved|go|goes|going|back|stay|stays|staying|be|is|keep|keeping|"
    r"held|it)\s(?P<v>inside|outside|indoors|outdoors|online|remote|in person|"
    r"in-person)\b)",
    r"\b(?:at|At)\s(?P<v>(?:The\s)?[A-ZÀ-Þ][^\W\d_]{1,24}(?:\s[A-ZÀ-Þ][^\W\d_]{1,24}){0,2})\b",
    # "in Lisbon", "held in Berlin", "kickoff in Copenhagen on 17 Sep" (tools are excluded)
    r"\bin\s(?P<v>[A-Z][a-z'’&]{2,24}(?:\s[A-Z][a-z'’&]{2,24}){0,2})\b(?!['’]s)",
    # "community centre", "the rec center", "city hall": a common place compound
    r"\b(?P<v>(?:the\s)?[a-z]{3,16}\s(?:centre|center|arena|stadium|hall))\b" + _OF_THE_PLACE,
    # "library car park", "the Oak Street bridge parking lot"
    r"\b(?P<v>(?:the\s)?(?:[A-Z][\w'’-]{1,24}\s){0,3}[a-z]{3,16}\s(?:car\spark|parking\slot))\b",
    # "Bathurst Community Centre", "Riverside Park"
    # (with the letter telling two apart: "Lecture Theatre B", not "… Park I think")
    r"\b(?P<v>(?:[A-Z][a-z]{2,16}\s){1,3}(?:Centre|Center|Arena|Stadium|Hall|Park|Library|"
    r"Hotel|Theatre|Theater|Gardens|Square)(?:\s[A-HJ-Z](?![\w'’]))?)(?![\w'’])",
    # "at Rowan's place", "to Maya's house": someone's home
    r"\b(?:at|to|in)\s(?P<v>[A-Z][\w-]{1,24}['’]s\s(?:place|house|flat|apartment|home|garden|"
    r"backyard|cabin|cottage|studio|loft))\b",
    # "London office", "the Birmingham office", "Spinningfields campus"
    r"\b(?P<v>[A-Z][a-z]{2,24}\s(?:office|hq|HQ|campus|hub|site|library|hotel|venue))\b",
)


#: Place names that are also common words: only capitalised are they places.
PLACE_WORDS_TOO: frozenset[str] = frozenset("""
turkey china guinea jordan georgia niger chile nice reading split wales china japan
""".split())


#: "Norway goes first", "Ireland first": a known place name on its own.
PLACE_NAME_PATTERN = (r"\b(?P<v>" + "|".join(sorted(PLACE_NAMES, key=lambda n: (-len(n), n)))
                      + r")\b(?![-'’])")
