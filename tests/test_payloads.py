"""Raw Slack and Discord payloads are narrowed once, to the TypedDicts the normalizers read:
the fields that say what a message is must have their types, decorations of another shape
are left out without costing the message."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.discord.normalize import normalize_discord_message
from adapters.discord.payloads import delete_payload, message_payload
from adapters.errors import PayloadError
from adapters.slack.normalize import normalize_message_event
from adapters.slack.payloads import MAX_BLOCK_DEPTH, message_event
from memory.models import Edit, Message


def slack_event(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"type": "message", "channel": "C1", "user": "U1", "ts": "1.000100"}
    base.update(fields)
    return base


def test_slack_narrowing_keeps_what_is_read_cleaned() -> None:
    raw = slack_event(text="hi\x00 there", client_msg_id="x", team="T1", reply_count=3,
                      bot_profile={"id": "B1"}, thread_ts=None,
                      user_profile={"display_name": "Ann", "image_72": "https://i"})
    assert message_event(raw) == {"type": "message", "channel": "C1", "user": "U1",
                                  "ts": "1.000100", "text": "hi there",
                                  "user_profile": {"display_name": "Ann"}}


@pytest.mark.parametrize("field", ["channel", "user", "ts", "thread_ts", "text", "subtype",
                                   "bot_id", "deleted_ts", "type"])
def test_slack_identity_field_of_another_type_is_malformed(field: str) -> None:
    with pytest.raises(PayloadError, match=f"field '{field}' must be a string"):
        message_event(slack_event(**{field: 5}))


def test_slack_message_keeps_its_words_when_decorations_have_other_shapes() -> None:
    raw = slack_event(
        text="ship it",
        edited="yesterday",
        files=["not a file", {"title": 7, "name": "plan.pdf"}],
        attachments=[{"title": {"text": "x"}}, {"title": "Budget"}],
        blocks=[{"type": "actions", "elements": [
            {"type": "button", "text": {"type": "plain_text", "text": "Approve"}}]}],
        user_profile="Ann",
    )
    msg = normalize_message_event(raw, team_id="T1", users={}, strict=True)
    assert isinstance(msg, Message)
    assert msg.text == "ship it\n[file: plan.pdf]\n[attachment: Budget]"
    assert not msg.edited and msg.user_name == ""


def test_slack_changed_versions_are_narrowed_too() -> None:
    raw = slack_event(subtype="message_changed", ts="2.0",
                      message={"ts": "1.000100", "user": "U1", "text": "new words",
                               "edited": {"ts": "2.0"}, "files": "none"},
                      previous_message={"ts": "1.000100", "text": "old words"})
    ev = message_event(raw)
    assert ev["message"] == {"ts": "1.000100", "user": "U1", "text": "new words",
                             "edited": {"ts": "2.0"}}
    edit = normalize_message_event(raw, team_id="T1", users={}, strict=True)
    assert isinstance(edit, Edit) and edit.text == "new words"
    with pytest.raises(PayloadError, match="field 'ts' must be a string"):
        message_event(slack_event(subtype="message_changed", message={"ts": 2.0}))


def test_slack_rich_text_deeper_than_read_is_left_out() -> None:
    leaf: dict[str, Any] = {"type": "text", "text": "deep"}
    for _ in range(MAX_BLOCK_DEPTH + 5):
        leaf = {"type": "rich_text_section", "elements": [leaf]}
    ev = message_event(slack_event(blocks=[{"type": "rich_text", "elements": [leaf]}]))
    depth, level = 0, ev["blocks"][0]["elements"]
    while level:
        depth, level = depth + 1, level[0].get("elements", [])
    assert depth == MAX_BLOCK_DEPTH + 1


def discord_payload(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": "1225891368132542469", "channel_id": "42", "type": 0,
                            "content": "hello", "author": {"id": "7", "username": "ann"}}
    base.update(fields)
    return base


def test_discord_narrowing_keeps_what_is_read_with_ids_as_strings() -> None:
    raw = discord_payload(id=1225891368132542469, guild_id=9, tts=False, embeds=[{}],
                          member={"nick": "Annie", "roles": ["1"]}, edited_timestamp=None,
                          author={"id": 7, "username": "ann", "avatar": None, "bot": "no"})
    assert message_payload(raw) == {
        "id": "1225891368132542469", "channel_id": "42", "guild_id": "9", "type": 0,
        "content": "hello", "author": {"id": "7", "username": "ann"},
        "member": {"nick": "Annie"}}


@pytest.mark.parametrize(("fields", "reason"), [
    ({"type": True}, "'type' must be an integer"),
    ({"id": 1.5}, "'id' must be an id string"),
    ({"channel_id": ["42"]}, "'channel_id' must be an id string"),
    ({"content": 7}, "'content' must be a string"),
    ({"timestamp": 0}, "'timestamp' must be a string"),
    ({"author": "ann"}, "author is not an object"),
    ({"author": {"id": True}}, "'id' must be an id string"),
])
def test_discord_identity_field_of_another_type_is_malformed(
        fields: dict[str, Any], reason: str) -> None:
    with pytest.raises(PayloadError, match=reason):
        message_payload(discord_payload(**fields))


def test_discord_message_keeps_its_words_when_decorations_have_other_shapes() -> None:
    raw = discord_payload(content="see <@5>", member="Annie",
                          mentions=["x", {"id": "5", "global_name": 3, "username": "bo"}],
                          attachments=[{"filename": None}, 4, {"filename": "plan.pdf"}],
                          message_reference={"message_id": {"id": "1"}})
    msg = normalize_discord_message(raw, strict=True)
    assert isinstance(msg, Message)
    assert msg.text == "see @bo\n[file: plan.pdf]"
    assert msg.user_name == "ann" and msg.reply_to is None


def test_discord_delete_narrows_its_ids() -> None:
    assert delete_payload({"id": 1, "channel_id": "2", "guild_id": None, "x": 1}) == {
        "id": "1", "channel_id": "2"}
    with pytest.raises(PayloadError, match="payload is not an object"):
        delete_payload([])
