"""What lines written by a platform or an integration look like, as data: such lines are
evidence of what happened, never a decision, a state or a value. Extend freely.
"""

from __future__ import annotations

#: Lines a platform or an integration writes: never a state, never a value.
SYSTEM_LINES: tuple[str, ...] = (
    "has joined the channel", "has left the channel", "joined the channel",
    "left the channel", "has joined", "has left", "set the channel topic",
    "set the channel purpose", "set the channel description", "changed the channel topic",
    "renamed the channel", "uploaded a file", "shared a file", "commented on",
    "pinned a message", "unpinned a message", "added an integration", "removed an integration",
    "has been added to", "was added to", "started a call", "ended a call", "archived the channel",
    "un-archived the channel", "added a bookmark", "joined the call", "left the call",
    "this message was deleted", "set a reminder", "shared a link", "started a huddle",
    "has renamed the channel",
)


#: Speakers that are integrations, not people: their lines are evidence, never decisions.
BOT_SPEAKERS: tuple[str, ...] = (
    "bot", "github", "gitlab", "bitbucket", "jira", "confluence", "jenkins", "circleci",
    "travis", "buildkite", "pagerduty", "opsgenie", "statuspage", "sentry", "datadog",
    "zapier", "ifttt", "slackbot", "google calendar", "google drive", "trello", "asana",
    "linear", "meetup", "eventbrite", "calendly", "zoom", "giphy", "polly", "simple poll",
    "standuply", "geekbot", "dependabot", "renovate", "heroku", "vercel", "netlify",
    "googlecalendar", "gcal", "outlook calendar", "sesh", "mee6", "dyno",
    "carl-bot", "stripe", "paypal", "quickbooks", "xero", "hubspot", "salesforce",
    "intercom", "zendesk", "notion", "figma", "loom", "workflow builder", "rss",
)


#: Lines integrations write ("[owner/repo] Pull request #14 opened by ...").
SYSTEM_PATTERNS: tuple[str, ...] = (
    r"^\s{0,3}\[[\w.-]{1,60}/[\w.-]{1,60}\]",
    # after a leading emoji or markdown ("📅 Event updated: **Work Day**")
    r"^[\W_]{0,8}(?:new meetup|event updated|event created|event cancell?ed|new event|"
    r"event reminder|new rsvp|new comment on|"
    r"build (?:passed|failed|fixed)|deploy(?:ed)? to (?:prod|production|staging)|"
    r"incident (?:triggered|resolved|acknowledged))\b",
)


#: File extensions: a name ending in one is a file, never a subject or a value.
FILE_EXTENSIONS: tuple[str, ...] = (
    "png", "jpg", "jpeg", "gif", "webp", "heic", "pdf", "doc", "docx", "xls", "xlsx", "ppt",
    "pptx", "csv", "txt", "zip", "tar", "gz", "mov", "mp4", "mp3", "wav", "key", "sketch",
    "fig", "json", "log", "md", "py", "js", "ts", "html", "svg", "psd", "ai", "dmg", "apk",
    "ipa", "yaml", "yml", "sql",
)
