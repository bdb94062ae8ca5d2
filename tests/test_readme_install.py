"""The README's Slack setup followed end to end against the fake Slack Web API: the
manifest, the `egmem serve slack --http` command in a real process, the Events URL
verification after the server is up, inviting egmem (which reads the channel's history by
itself) and a first `/recall`."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import yaml
from slack_sdk.signature import SignatureVerifier

from tests.support.fake_slack import FakeSlack

ROOT = Path(__file__).parent.parent
SECRET = "3f1e0b5c9d2a4e6f8a7b6c5d4e3f2a1b"
TEAM, BOT, ALICE, BOB = "T0README1", "U0EGMEM01", "U0ALICE01", "U0BOB0001"
CHANNEL = "C0DESIGN01"


def readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def signed_post(url: str, body: str, content_type: str) -> tuple[int, str]:
    ts = str(int(time.time()))
    signature = SignatureVerifier(SECRET).generate_signature(timestamp=ts, body=body)
    assert signature is not None
    req = urllib.request.Request(url, data=body.encode(), method="POST", headers={
        "Content-Type": content_type, "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": signature})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def event(url: str, payload: dict[str, Any], event_id: str) -> int:
    envelope = {"token": "x", "team_id": TEAM, "api_app_id": "A0README", "event": payload,
                "type": "event_callback", "event_id": event_id, "event_time": int(time.time()),
                "authorizations": [{"team_id": TEAM, "user_id": BOT, "is_bot": True}]}
    return signed_post(url, json.dumps(envelope), "application/json")[0]


def wait_until(check: Any, *, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_readme_slack_setup_end_to_end(tmp_path: Path) -> None:
    setup = readme_section("Slack setup")
    # step 1: the manifest the README names, with the public URL put in
    assert "deploy/slack-manifest.yml" in setup
    manifest = yaml.safe_load((ROOT / "deploy" / "slack-manifest.yml").read_text())
    assert manifest["settings"]["event_subscriptions"]["request_url"] == (
        "https://egmem.example.com/slack/events")
    # step 3: the command the README gives, run as it says (on loopback, a free port)
    command = "egmem serve slack --http --host 0.0.0.0 --port 3000"
    assert command in setup and "SLACK_BOT_TOKEN" in setup and "SLACK_SIGNING_SECRET" in setup
    # step 4 comes after step 3: verification needs the running server
    assert setup.index("Verify the Events URL") > setup.index(command)
    with FakeSlack(team_id=TEAM, bot_user_id=BOT) as slack:
        slack.add_user(ALICE, "Alice")
        slack.add_user(BOB, "Bob")
        slack.add_channel(CHANNEL, "design", members=[ALICE, BOB], bot_member=False)
        slack.add_message(CHANNEL, user=ALICE, text="Design review is Thursday 3 pm",
                          ts="1712000001.000100")
        slack.add_message(CHANNEL, user=BOB, text="Update: design review moves to Friday 10am",
                          ts="1712000002.000100")
        port = free_port()
        env = {**os.environ, "SLACK_BOT_TOKEN": slack.token, "SLACK_SIGNING_SECRET": SECRET,
               "EGMEM_DATA": str(tmp_path / "data"), "EGMEM_SLACK_API_URL": slack.base_url,
               "EGMEM_EMBEDDER": "hashing"}
        args = command.split()[1:]
        args[args.index("--port") + 1] = str(port)
        args[args.index("--host") + 1] = "127.0.0.1"
        proc = subprocess.Popen([sys.executable, "-m", "bot.cli", *args], env=env, cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        base = f"http://127.0.0.1:{port}"
        try:
            def healthy() -> bool:
                try:
                    with urllib.request.urlopen(base + "/healthz", timeout=2) as resp:
                        return resp.read() == b"ok"
                except OSError:
                    assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                    return False

            wait_until(healthy, timeout=90, what="egmem serve to listen")
            url = base + "/slack/events"
            # step 4: Slack's url_verification challenge is echoed
            status, body = signed_post(url, json.dumps({"token": "x", "challenge": "ch4ll3nge",
                                                        "type": "url_verification"}),
                                       "application/json")
            assert status == 200 and "ch4ll3nge" in body
            # step 5: /invite @egmem — egmem reads the channel's history by itself
            slack.channels[CHANNEL].members.append(BOT)
            assert event(url, {"type": "member_joined_channel", "user": BOT,
                               "channel": CHANNEL, "channel_type": "C", "team": TEAM},
                         "Ev1") == 200
            wait_until(lambda: slack.calls_to("conversations.history"), timeout=60,
                       what="the backfill")
            # step 6: /recall answers from the backfilled history
            form = {"token": "x", "team_id": TEAM, "team_domain": "acme",
                    "channel_id": CHANNEL, "channel_name": "design", "user_id": ALICE,
                    "user_name": "alice", "command": "/recall",
                    "text": "when is the design review?", "api_app_id": "A0README",
                    "response_url": slack.response_url("first"), "trigger_id": "1.2.3"}

            def answered() -> list[Any]:
                before = len(slack.responses)
                status, body = signed_post(url, urlencode(form),
                                           "application/x-www-form-urlencoded")
                assert status == 200 and "Searching" in body
                replies = slack.wait_for_responses(count=before + 1, timeout=60)
                text = json.dumps(replies[-1].body)
                return [replies[-1]] if "Friday 10am" in text else []

            [reply] = wait_until(answered, timeout=90, what="an answer from the history")
            assert reply.body["replace_original"] is True
            assert re.search(r"<#C0DESIGN01>", json.dumps(reply.body["blocks"]))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
