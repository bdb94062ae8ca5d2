"""Secrets come only from the environment or the secrets file and never show up in reprs or
logs; logs at INFO carry ids and counts, never message text.

The logging test captures every logger at INFO while a message carrying a marker string goes
through the whole life of a memory — ingest (file and live submit), edit, ask through the
offline and the LLM reader, history, stats, forget, retention, offboarding — and asserts the
marker is in no record. A positive control shows the capture works: the same records do carry
the ids of the channel and message involved.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import build
from bot.ingest import ingest_path
from bot.settings import Settings
from memory.errors import ConfigError
from memory.models import Delete, Edit, Message
from tests.support.fake_openai import ScriptedOpenAIServer, error, text, tool_calls

SECRETS = {
    "SLACK_BOT_TOKEN": "xoxb-111-222-SECRETBOTTOKEN",
    "SLACK_SIGNING_SECRET": "SECRETSIGNING0123456789abcdef",
    "SLACK_APP_TOKEN": "xapp-1-SECRETAPPTOKEN",
    "DISCORD_TOKEN": "SECRETDISCORD.TOKEN.value",
    "EGMEM_LLM_API_KEY": "sk-SECRETLLMKEY",
    "EGMEM_WEB_TOKEN": "SECRETWEBTOKEN",
    "EGMEM_STORAGE_AWS_SECRET_ACCESS_KEY": "SECRETAWSKEY/abc+def",
}
MARKER = "Xylophone-Quince-4471"
T0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)


def _secrets_file(tmp_path: Path, values: dict[str, str]) -> Path:
    path = tmp_path / "egmem.secrets"
    lines = ["# egmem secrets", ""]
    lines += [f"export {k}='{v}'" if i % 2 else f"{k}={v}"
              for i, (k, v) in enumerate(values.items())]
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)
    return path


def _leaks(blob: str) -> list[str]:
    return [k for k, v in SECRETS.items() if v in blob]


# ---- settings --------------------------------------------------------------------------------


def test_tokens_come_from_the_secrets_file(tmp_path: Path) -> None:
    path = _secrets_file(tmp_path, SECRETS)
    s = Settings.from_env({"EGMEM_SECRETS_FILE": str(path)})
    # Positive control: every secret was read from the file.
    assert s.slack_bot_token == SECRETS["SLACK_BOT_TOKEN"]
    assert s.slack_signing_secret == SECRETS["SLACK_SIGNING_SECRET"]
    assert s.slack_app_token == SECRETS["SLACK_APP_TOKEN"]
    assert s.discord_token == SECRETS["DISCORD_TOKEN"]
    assert s.llm_api_key == SECRETS["EGMEM_LLM_API_KEY"]
    assert s.web_token == SECRETS["EGMEM_WEB_TOKEN"]
    assert s.storage_options["aws_secret_access_key"] == SECRETS[
        "EGMEM_STORAGE_AWS_SECRET_ACCESS_KEY"]
    # ... and none of them is in its repr or str, nor in those of a derived copy.
    for shown in (repr(s), str(s), repr(s.with_overrides(data="/elsewhere")),
                  f"{s}", f"{s!s} {s!r}"):
        assert _leaks(shown) == [], shown
    # The environment wins over the file.
    s2 = Settings.from_env({"EGMEM_SECRETS_FILE": str(path),
                            "SLACK_BOT_TOKEN": "xoxb-from-env"})
    assert s2.slack_bot_token == "xoxb-from-env"


def test_tokens_come_from_nowhere_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A stray .env or secrets file in the working directory is not read implicitly.
    (tmp_path / ".env").write_text(f"SLACK_BOT_TOKEN={SECRETS['SLACK_BOT_TOKEN']}\n")
    _secrets_file(tmp_path, SECRETS)
    monkeypatch.chdir(tmp_path)
    for key in [*SECRETS, "OPENAI_API_KEY", "EGMEM_SECRETS_FILE"]:
        monkeypatch.delenv(key, raising=False)
    s = Settings.from_env()
    assert all(v is None for v in (s.slack_bot_token, s.slack_signing_secret,
                                   s.slack_app_token, s.discord_token, s.llm_api_key,
                                   s.web_token))
    assert not s.storage_options
    # Nothing is hard-coded: the defaults hold no token either.
    defaults = dataclasses.asdict(Settings())
    assert _leaks(json.dumps(defaults, default=str)) == []
    assert not any(v for k, v in defaults.items()
                   if any(w in k for w in ("token", "secret", "key")))


def test_secrets_file_errors_do_not_echo_secrets(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as missing:
        Settings.from_env({"EGMEM_SECRETS_FILE": str(tmp_path / "absent")})
    assert "absent" in str(missing.value)
    bad = _secrets_file(tmp_path, {**SECRETS, "EGMEM_READER_ROUNDS": "ten"})
    with pytest.raises(ConfigError) as wrong:
        Settings.from_env({"EGMEM_SECRETS_FILE": str(bad)})
    assert _leaks(str(wrong.value)) == []


# ---- logs ------------------------------------------------------------------------------------


def _records_text(records: Iterable[logging.LogRecord]) -> str:
    parts = []
    for r in records:
        parts.append(r.getMessage())
        parts.append(repr(r.args))
        if r.exc_info and r.exc_info[1] is not None:
            parts.append(repr(r.exc_info[1]))
        if r.exc_text:
            parts.append(r.exc_text)
        parts.append(str(getattr(r, "stack_info", "") or ""))
    return "\n".join(parts)


def _message(i: int, text_: str, *, user: str = "UMARK", channel: str = "C1",
             days_ago: int = 0) -> Message:
    return Message(platform="slack", space="T1", channel=channel, channel_name="dev",
                   id=f"17000000{i:02d}.000100", user=user, user_name="Mark",
                   ts=T0 + timedelta(minutes=i) - timedelta(days=days_ago), text=text_)


@pytest.fixture
def captured(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO)  # the root logger: every logger propagates to it
    for name in list(logging.root.manager.loggerDict):
        logger = logging.getLogger(name)
        if not logger.propagate:
            logger.addHandler(caplog.handler)
    return caplog


def test_info_logs_carry_ids_never_message_text(
    tmp_path: Path, captured: pytest.LogCaptureFixture, fake_openai: ScriptedOpenAIServer
) -> None:
    data = tmp_path / "data"
    chat = tmp_path / "chat.jsonl"
    rows = [
        {"type": "channel", "platform": "slack", "space": "T1", "id": "C1", "name": "dev",
         "is_private": False},
        {"type": "message", "platform": "slack", "space": "T1", "channel": "C1",
         "id": "1700000000.000100", "user": "UMARK", "user_name": "Mark",
         "ts": "2024-11-04T09:00:00Z", "text": f"the deploy code is {MARKER}, at 4 pm"},
        {"type": "message", "platform": "slack", "space": "T1", "channel": "C1",
         "id": "1700000001.000100", "user": "UANN", "user_name": "Ann",
         "ts": "2024-11-04T09:01:00Z", "text": f"ok, {MARKER} noted",
         "reply_to": "1700000000.000100", "thread_id": "1700000000.000100"},
        {"type": "edit", "channel": "C1", "id": "1700000001.000100",
         "text": f"ok, {MARKER} noted (edited)", "ts": "2024-11-04T09:02:00Z"},
        {"type": "edit", "channel": "C1", "id": "9999999999.000000",
         "text": f"edit of an unknown message {MARKER}", "ts": "2024-11-04T09:02:00Z"},
        {"type": "message", "platform": "slack", "space": "T1", "channel": "C1",
         "id": "1700000002.000100", "user": "UMARK", "ts": "2024-11-04T09:03:00Z",
         "text": ""},  # a bad line: its error must not quote anything
        {"type": "mesage", "text": MARKER},  # an unknown type, with the marker
    ]
    chat.write_text("\n".join(json.dumps(r) for r in rows) + "\n" + MARKER + "\n")

    eg = build(Settings(data=str(data), embedder="hashing"))
    try:
        report = ingest_path(eg, chat)
        assert report["committed"] == 2 and report["errors"] == 3
        eg.submit([_message(10, f"live: the vault word is {MARKER} for 2.4", user="UANN"),
                   _message(11, f"ancient {MARKER} note", days_ago=900),
                   Edit(platform="slack", space="T1", channel="C1", id="1700000010.000100",
                        text=f"live, edited: {MARKER} for 2.5", ts=T0)])
        eg.drain()
        for q in (f"what is the deploy code {MARKER}?", "when is the deploy?"):
            eg.ask(q, platform="slack", space="T1", user="UANN", channel="C1")
            eg.history(q, platform="slack", space="T1", user="UANN", channel="C1")
        eg.stats()
        eg.enforce_retention(365, now=T0 + timedelta(days=1))
        eg.submit([Delete(platform="slack", space="T1", channel="C1",
                          id="1700000001.000100")])
        eg.drain()
        eg.forget_message(platform="slack", space="T1", channel="C1",
                          message_id="1700000010.000100")
        eg.forget_user("UMARK")
    finally:
        eg.close()

    # The LLM reader, against a model that echoes the marker in broken tool arguments.
    key = SECRETS["EGMEM_LLM_API_KEY"]
    eg = build(Settings(data=str(data), embedder="hashing", llm_base_url=fake_openai.base_url,
                        llm_api_key=key, reader_rounds=2))
    try:
        eg.submit([_message(20, f"fresh: {MARKER} is the wifi password", user="UANN")])
        eg.drain()
        fake_openai.enqueue(
            tool_calls([("search_evidence", '{"query": "' + MARKER + '"'),
                        ("lookup_phrase", {"phrase": MARKER})]),
            # Cites nothing it was shown: asked once more ...
            text(json.dumps({"answer": f"It is {MARKER}.", "citations": ["n_nope"],
                             "abstain": False})),
            # ... and the key is rejected: not retried, never echoed; the offline reader
            # answers instead.
            error(401),
        )
        a = eg.ask(f"what is the wifi password {MARKER}?", platform="slack", space="T1",
                   user="UANN", channel="C1")
        assert MARKER in a.answer  # the answer itself may quote; the logs may not
        assert key not in a.answer and fake_openai.base_url not in a.answer
    finally:
        eg.close()

    records = captured.records
    logged = _records_text(records)
    assert MARKER not in logged
    assert MARKER.lower() not in logged.lower()
    assert _leaks(logged) == [] and key not in logged
    # Positive controls: INFO records were captured, and they name ids and counts.
    assert [r for r in records if r.levelno == logging.INFO]
    assert "question in T1/C1" in logged
    assert "9999999999.000000" in logged  # the dropped edit is logged by its id
    assert "retention: forgot 1" in logged


def test_logging_capture_would_see_message_text(captured: pytest.LogCaptureFixture) -> None:
    """Positive control for the capture itself: text logged by any egmem logger is seen."""
    logging.getLogger("memory.writer").info("leak %s", MARKER)
    assert MARKER in _records_text(captured.records)


def test_environment_variables_are_not_logged_at_startup(
    tmp_path: Path, captured: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    for k, v in SECRETS.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("EGMEM_DATA", str(tmp_path / "d"))
    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    monkeypatch.delenv("EGMEM_LLM_API_KEY", raising=False)  # no endpoint: offline build
    settings = Settings.from_env()
    assert settings.slack_bot_token == SECRETS["SLACK_BOT_TOKEN"]
    eg = build(settings)
    eg.close()
    assert _leaks(_records_text(captured.records)) == []
    assert os.environ["SLACK_BOT_TOKEN"] == SECRETS["SLACK_BOT_TOKEN"]
