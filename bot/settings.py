"""Settings, read once from the environment (and an optional secrets/env file) into a frozen
object. Nothing else in egmem reads ``os.environ``."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from memory.errors import ConfigError

WriterKind = Literal["offline", "llm"]
EmbedderKind = Literal["minilm", "openai", "hashing"]
RerankKind = Literal["offline", "llm"]


def _read_env_file(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        k, v = line.split("=", 1)
        out[k.strip().removeprefix("export ").strip()] = v.strip().strip("'\"")
    return out


def parse_retention(raw: str) -> tuple[tuple[str, str | None, int], ...]:
    """``EGMEM_RETENTION="T0ACME=90,T0ACME/C05LEADERSHIP=30"``: days per space or channel."""
    rules: list[tuple[str, str | None, int]] = []
    for item in filter(None, (p.strip() for p in raw.split(","))):
        where, sep, days = item.partition("=")
        space, _, channel = where.strip().partition("/")
        if not sep or not space or not days.strip().isdigit():
            raise ConfigError(
                f"EGMEM_RETENTION entry {item!r} is not SPACE=DAYS or SPACE/CHANNEL=DAYS"
            )
        rules.append((space, channel or None, int(days)))
    return tuple(rules)


def _timeout(raw: str) -> float:
    """``EGMEM_LLM_TIMEOUT``: a positive, finite number of seconds."""
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigError(
            f"EGMEM_LLM_TIMEOUT must be a positive number of seconds, got {raw!r}.")
    return seconds


@dataclass(frozen=True)
class Settings:
    data: str = "./data"
    writer: WriterKind = "offline"
    embedder: EmbedderKind = "minilm"
    llm_base_url: str | None = None
    llm_api_key: str | None = field(default=None, repr=False)
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: float = 60.0
    embedding_model: str | None = None
    embedding_dim: int = 384
    slack_bot_token: str | None = field(default=None, repr=False)
    slack_signing_secret: str | None = field(default=None, repr=False)
    slack_app_token: str | None = field(default=None, repr=False)
    slack_api_url: str | None = None
    discord_token: str | None = field(default=None, repr=False)
    retention_days: int | None = None
    # (space, channel or None, days): stricter or looser rules for one space or channel.
    retention_rules: tuple[tuple[str, str | None, int], ...] = ()
    admins: tuple[str, ...] = ()
    web_token: str | None = field(default=None, repr=False)
    storage_options: Mapping[str, str] = field(default_factory=dict, repr=False)
    local_dir: str | None = None
    reader_rounds: int = 10
    rerank: RerankKind = "offline"
    # Crash tests only: "STEP:N" kills the process the N-th time a commit reaches STEP
    # (memory/faults.py).
    fault: str | None = None

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_base_url or self.llm_api_key)

    @property
    def is_remote(self) -> bool:
        return "://" in self.data and not self.data.startswith("file://")

    @property
    def local_path(self) -> Path:
        """Local disk for what cannot live in object storage: inbox and lexical index."""
        if self.local_dir:
            return Path(self.local_dir)
        if self.is_remote:
            return Path(".egmem-local")
        return Path(self.data.removeprefix("file://"))

    def with_overrides(self, **kw: object) -> Settings:
        clean = {k: v for k, v in kw.items() if v is not None}
        return replace(self, **clean)  # type: ignore[arg-type]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        secrets = env.get("EGMEM_SECRETS_FILE")
        if secrets:
            path = Path(secrets)
            if not path.is_file():
                raise ConfigError(f"EGMEM_SECRETS_FILE points at {path}, which does not exist")
            env = {**_read_env_file(path), **env}
        writer = env.get("EGMEM_WRITER", "").lower()
        base_url = env.get("EGMEM_LLM_BASE_URL", "").strip() or None
        api_key = (env.get("EGMEM_LLM_API_KEY", "").strip()
                   or env.get("OPENAI_API_KEY", "").strip() or None)
        if writer and writer not in ("offline", "llm"):
            raise ConfigError(f"EGMEM_WRITER must be 'offline' or 'llm', not {writer!r}")
        embedder = env.get("EGMEM_EMBEDDER", "minilm").lower()
        if embedder not in ("minilm", "openai", "hashing"):
            raise ConfigError(f"EGMEM_EMBEDDER must be minilm, openai or hashing, not {embedder!r}")
        storage = {k.removeprefix("EGMEM_STORAGE_").lower(): v for k, v in env.items()
                   if k.startswith("EGMEM_STORAGE_")}
        try:
            days = env.get("EGMEM_RETENTION_DAYS")
            retention = int(days) if days else None
            timeout = _timeout(env.get("EGMEM_LLM_TIMEOUT", "").strip() or "60")
            rounds = int(env.get("EGMEM_READER_ROUNDS", "10"))
            dim = int(env.get("EGMEM_EMBEDDING_DIM", "384"))
        except ValueError as exc:
            raise ConfigError(f"a numeric EGMEM_* setting is not a number: {exc}") from exc
        rules = parse_retention(env.get("EGMEM_RETENTION", ""))
        rerank = env.get("EGMEM_RERANK", "offline").lower()
        if rerank not in ("offline", "llm"):
            raise ConfigError(f"EGMEM_RERANK must be 'offline' or 'llm', not {rerank!r}")
        return cls(
            retention_rules=rules,
            data=env.get("EGMEM_DATA", "./data"),
            writer=("llm" if writer == "llm" else "offline"),
            embedder=embedder,  # type: ignore[arg-type]
            llm_base_url=base_url,
            llm_api_key=api_key,
            llm_model=env.get("EGMEM_LLM_MODEL", "").strip() or "gpt-4o-mini",
            llm_timeout_s=timeout,
            embedding_model=env.get("EGMEM_EMBEDDING_MODEL") or None,
            embedding_dim=dim,
            slack_bot_token=env.get("SLACK_BOT_TOKEN") or None,
            slack_signing_secret=env.get("SLACK_SIGNING_SECRET") or None,
            slack_app_token=env.get("SLACK_APP_TOKEN") or None,
            slack_api_url=env.get("EGMEM_SLACK_API_URL") or None,
            discord_token=env.get("DISCORD_TOKEN") or None,
            retention_days=retention,
            admins=tuple(a for a in env.get("EGMEM_ADMINS", "").split(",") if a),
            web_token=env.get("EGMEM_WEB_TOKEN") or None,
            storage_options=storage,
            local_dir=env.get("EGMEM_LOCAL_DIR") or None,
            reader_rounds=rounds,
            rerank=("llm" if rerank == "llm" else "offline"),
            fault=env.get("EGMEM_FAULT") or None,
        )
