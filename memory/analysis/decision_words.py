"""Words by which a reply decides a proposal and a message says it is the decision, as data
(the *who decided* reader, :mod:`memory.reader.approval`). Extend freely.
"""

from __future__ import annotations

import re

#: How a reply that decides someone's proposal opens ("approved.", "go with pepper lane 👍",
#: "lgtm, ship it"). ("confirmed" is left out: "confirmed, see you there" attends.)
APPROVAL_OPENERS: tuple[str, ...] = (
    "approved", "approve", "approving", "go with", "go ahead", "green light", "greenlit",
    "green-lit", "signed off", "sign off", "signing off", "lgtm", "ship it", "let's go with",
    "lets go with", "yes go", "ok go ahead", "okay go ahead",
)

#: How a reply assenting to a proposal opens ("agreed, …", "let's do it").
ASSENT_OPENERS: tuple[str, ...] = (
    "agreed", "agree", "let's do it", "lets do it", "do it", "yes let's", "yes lets",
    "let's do that", "lets do that", "go for it",
)

#: An offer made to the group, for it to take or turn down ("donation offered: £500 from
#: Hartley Homes").
OFFERED = r"offered|offering"

#: Words putting something forward for someone else to decide, beyond the proposal cues
#: ("I'd recommend we stop", "need an approval", "ok to order?", "got quotes from …"): only
#: what was put forward has an approver; an announcement or a report agreed with does not.
PUT_FORWARD: re.Pattern[str] = re.compile(
    r"\b(?:i'd recommend|i would recommend|i recommend|recommend(?:ing)? we|my recommendation|"
    r"need(?:s)? (?:an? )?(?:approval|sign[- ]?off|ok|go-ahead)|for approval|ok to|okay to|"
    r"can i get (?:an? )?(?:approval|sign[- ]?off|ok)|quotes? from|shortlist|"
    + OFFERED + r"|offers? to)\b|\boptions?:",
    re.IGNORECASE)

#: Words by which a proposer goes ahead on their own ("approving my own thing, going ahead"):
#: a later reply approving it is support.
GOING_AHEAD: re.Pattern[str] = re.compile(
    r"\b(?:going ahead|go ahead|doing it|i'll do it|done)\b", re.IGNORECASE)

#: Words by which a message says it is the decision itself ("decided: …", "final: …", "we're
#: going with …"): a reply agreeing with it does not take the call over.
DECIDED_MARKERS: re.Pattern[str] = re.compile(
    r"\b(?:decided|decision|final|finali[sz]ed|confirmed|locked(?: in)?|(?:we're|we are|i'm|"
    r"im) going with|settled on|it's official|officially|approved|agreed|signed off)\b",
    re.IGNORECASE)

#: Words by which a turn takes one of the options a message listed ("hamblin then", "going
#: with Clearview", "booked the Crown", "PrintHaus instead"), beside :data:`DECIDED_MARKERS`.
PICKED: re.Pattern[str] = re.compile(
    r"\b(?:then|it is|it's|go with|going with|went with|gone with|pick|picked|choose|chose|"
    r"chosen|book|booked|booking|order|ordered|ordering|switch to|switching to|switched to|"
    r"instead|sign with|signed with|use|using|let's do|lets do)\b",
    re.IGNORECASE)
