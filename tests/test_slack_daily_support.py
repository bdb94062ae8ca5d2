"""Helpers shared by the Slack daily-use tests (not a test module of its own)."""

from __future__ import annotations

import json
from typing import Any

from tests.test_slack_app import ALICE, GENERAL, TEAM


def press_feedback(h: Any, blocks: list[dict[str, Any]], *, down: bool, user: str = ALICE,
                   channel: str = GENERAL) -> None:
    action_id = "egmem_feedback_down" if down else "egmem_feedback_up"
    value = next(e["value"] for b in blocks if b["type"] == "actions" for e in b["elements"]
                 if e["action_id"] == action_id)
    payload = {
        "type": "block_actions", "team": {"id": TEAM}, "user": {"id": user, "team_id": TEAM},
        "channel": {"id": channel}, "api_app_id": "A0PNCHHK2", "token": "x",
        "response_url": h.slack.response_url("feedback"), "trigger_id": "1",
        "container": {"type": "message", "is_ephemeral": True},
        "actions": [{"type": "button", "action_id": action_id, "block_id": "b",
                     "value": value, "action_ts": "1.2"}],
    }
    h.action(payload)
    h.drain()
    assert json.dumps(h.slack.responses[-1].body).count("Thanks") == 1
