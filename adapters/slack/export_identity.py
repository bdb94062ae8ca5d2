"""Which workspace a Slack export belongs to, and which of its messages were questions to
egmem, from what the export says about itself.

Any member can write a link and a Slack Connect channel holds other organizations'
messages, so neither the first message's ``team`` nor the first link found is trusted. The
team is the most common ``team_id`` in ``users.json``, else the most common ``team`` of
messages by the export's own users, else :data:`SLACK_FALLBACK_TEAM`. The permalink base is
the caller's (``--slack-url``), else the workspace domain most often named by Slack's own
file links (``files[].permalink``) and by links to the export's own channel ids
(``/archives/<its id>``), in messages by its own users. egmem's bot users are the bots of
``users.json`` named ``egmem``: a message mentioning one, and every message of a DM with
one, was a question.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from adapters.jsonl import clean_str
from adapters.slack.recall import mentions_user

SLACK_FALLBACK_TEAM = "slack-export"
SCAN_FILES = 200
"""Day files read to learn an export's identity (enough for a majority)."""

_SLACK_DOMAIN = r"https://([a-z0-9][a-z0-9-]{0,62})\.slack\.com/"
_ARCHIVE_LINK = re.compile(_SLACK_DOMAIN + r"archives/([CGD][A-Z0-9]{1,24})/p\d")
_FILE_LINK = re.compile(_SLACK_DOMAIN + r"files/")
_NOT_WORKSPACES = frozenset({"files", "app", "api", "www"})
_BOT_NAME = "egmem"


@dataclass(frozen=True)
class ExportIdentity:
    """What a Slack export says about its own workspace."""

    team: str
    permalink_base: str | None
    bots: frozenset[str]  # egmem's bot user ids

    def asks_egmem(self, text: str) -> bool:
        """Whether message ``text`` is addressed to egmem (mentions its bot user)."""
        return any(mentions_user(text, bot) for bot in self.bots)

    def is_bot_dm(self, members: Iterable[str]) -> bool:
        """Whether a DM with these members is one with egmem."""
        return bool(self.bots & set(members))


def export_identity(users: list[object], channel_ids: set[str], *,
                    days: Iterable[list[object]],
                    permalink_base: str | None) -> ExportIdentity:
    """The identity of an export from its ``users.json`` entries, its channel ids and
    (some of) its parsed day files."""
    entries = [u for u in users if isinstance(u, Mapping)]
    members = {u["id"] for u in entries if isinstance(u.get("id"), str)}
    bots = frozenset(u["id"] for u in entries if isinstance(u.get("id"), str) and _is_egmem(u))
    team_votes = Counter(clean_str(u["team_id"].strip()) for u in entries
                         if isinstance(u.get("team_id"), str) and u["team_id"].strip())
    message_teams: Counter[str] = Counter()
    domains: Counter[str] = Counter()
    for messages in days:
        for msg in messages:
            if not isinstance(msg, Mapping) or (members and msg.get("user") not in members):
                continue  # another organization's message says nothing about this one
            team = msg.get("team")
            if isinstance(team, str) and team.strip():
                message_teams[clean_str(team.strip())] += 1
            domains.update(_own_domains(msg, channel_ids))
    team = _majority(team_votes) or _majority(message_teams) or SLACK_FALLBACK_TEAM
    found = _majority(domains)
    base = permalink_base or (f"https://{found}.slack.com" if found else None)
    return ExportIdentity(team=team, permalink_base=base, bots=bots)


def _own_domains(msg: Mapping[str, object], own_ids: set[str]) -> list[str]:
    """Workspace domains named by Slack's own file links in ``msg`` and by links in its
    text to the export's own channels."""
    out: list[str] = []
    files = msg.get("files")
    for f in files if isinstance(files, list) else []:
        link = f.get("permalink") if isinstance(f, Mapping) else None
        # (some exports escape the slashes twice: ``https:\/\/…`` after decoding)
        m = _FILE_LINK.match(link.replace("\\/", "/")) if isinstance(link, str) else None
        if m is not None:
            out.append(m.group(1))
    text = msg.get("text")
    if isinstance(text, str):
        out += [m.group(1) for m in _ARCHIVE_LINK.finditer(text) if m.group(2) in own_ids]
    return [d for d in out if d not in _NOT_WORKSPACES]


def _majority(votes: Counter[str]) -> str | None:
    """The most common value (ties: the first seen); ``None`` without votes."""
    best = votes.most_common(1)
    return best[0][0] if best else None


def _is_egmem(user: Mapping[str, object]) -> bool:
    if not user.get("is_bot"):
        return False
    profile = user.get("profile")
    names = [user.get("name"), user.get("real_name")]
    if isinstance(profile, Mapping):
        names += [profile.get("display_name"), profile.get("real_name")]
    return any(isinstance(n, str) and n.strip().lower() == _BOT_NAME for n in names)
