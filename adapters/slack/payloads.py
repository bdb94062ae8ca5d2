"""Raw Slack message payload shapes, as the Events API and exports carry them.

These describe what we read, not a promise of what arrives: normalizers check every field
they use, because Slack omits keys freely and exports vary by age.
"""

from __future__ import annotations

from typing import Literal, TypedDict

# --- message pieces ----------------------------------------------------------------------


class SlackEdited(TypedDict, total=False):
    user: str
    ts: str


class SlackFile(TypedDict, total=False):
    id: str
    name: str
    title: str
    mimetype: str
    filetype: str
    url_private: str
    permalink: str
    mode: str  # "hidden_by_limit" and "tombstone" carry no usable title


class SlackAttachment(TypedDict, total=False):
    """A legacy attachment; unfurls carry ``from_url``/``original_url``, shares ``is_share``."""

    id: int
    fallback: str
    title: str
    title_link: str
    text: str
    pretext: str
    from_url: str
    original_url: str
    is_share: bool


class SlackBlockElement(TypedDict, total=False):
    """A rich-text element; containers hold ``elements``, leaves hold text or a reference."""

    type: str
    text: str
    url: str
    user_id: str
    channel_id: str
    usergroup_id: str
    range: str  # broadcast: "here" | "channel" | "everyone"
    name: str  # emoji
    elements: list[SlackBlockElement]


class SlackBlock(TypedDict, total=False):
    type: str
    block_id: str
    elements: list[SlackBlockElement]


class SlackUserProfile(TypedDict, total=False):
    display_name: str
    display_name_normalized: str
    real_name: str
    real_name_normalized: str
    name: str
    team: str


class SlackBotProfile(TypedDict, total=False):
    id: str
    app_id: str
    name: str
    team_id: str


# --- Events API --------------------------------------------------------------------------


class SlackMessageEvent(TypedDict, total=False):
    """A ``message`` event (and the messages inside ``message_changed`` and exports).

    ``subtype`` is absent for ordinary messages; ``message_changed`` carries the new version
    in ``message`` and the old one in ``previous_message``; ``message_deleted`` names the
    removed message in ``deleted_ts``. Export messages have no ``channel`` key.
    """

    type: Literal["message"]
    subtype: str
    channel: str
    channel_type: str  # "channel" | "group" | "im" | "mpim"
    user: str
    username: str
    bot_id: str
    bot_profile: SlackBotProfile
    app_id: str
    text: str
    ts: str
    event_ts: str
    thread_ts: str
    parent_user_id: str
    reply_count: int
    reply_users: list[str]
    latest_reply: str
    edited: SlackEdited
    files: list[SlackFile]
    attachments: list[SlackAttachment]
    blocks: list[SlackBlock]
    team: str
    user_team: str
    source_team: str
    user_profile: SlackUserProfile
    client_msg_id: str
    hidden: bool
    message: SlackMessageEvent
    previous_message: SlackMessageEvent
    deleted_ts: str


class SlackAppMentionEvent(TypedDict, total=False):
    type: Literal["app_mention"]
    user: str
    text: str
    ts: str
    event_ts: str
    channel: str
    thread_ts: str
    team: str
    blocks: list[SlackBlock]
    files: list[SlackFile]
    edited: SlackEdited
