"""The one LLM client every egmem component shares.

:class:`LLMClient` wraps ``openai.OpenAI`` pointed at any OpenAI-compatible endpoint. The
``openai`` client is built with ``max_retries=0``: retries happen here, so each one is counted
in the :class:`UsageMeter` and follows our backoff (exponential with jitter, honouring
``Retry-After`` on 429, capped at ``max_backoff_s``).

Retried: HTTP 408, 429, 5xx, timeouts and connection errors. Not retried: 401/403 (key),
404 (model or base URL), other 4xx. Every final failure is an
:class:`~memory.errors.EndpointError` whose message names the base URL and what to check and
never contains the API key. Message content is never logged.
"""

from __future__ import annotations

import email.utils
import json
import logging
import math
import random
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import openai
from openai.types.chat import ChatCompletion

from memory.errors import ConfigError, EndpointError

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MODEL",
    "ChatResult",
    "LLMClient",
    "LLMSettings",
    "ToolCall",
    "UsageMeter",
    "parse_tool_arguments",
]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "gpt-4o-mini"
# Sent when no key is configured (local servers such as llama.cpp or vLLM need none); it
# also stops the openai package from reading OPENAI_API_KEY behind our back.
_NO_KEY = "no-key"

_T = TypeVar("_T")


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True, kw_only=True)
class LLMSettings:
    """Where and how to reach the LLM endpoint. ``api_key`` is hidden from ``repr``."""

    base_url: str = DEFAULT_BASE_URL
    api_key: str | None = field(default=None, repr=False)
    model: str = DEFAULT_MODEL
    timeout_s: float = 60.0
    max_retries: int = 4
    backoff_base_s: float = 0.5
    max_backoff_s: float = 20.0

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LLMSettings | None:
        """Read ``EGMEM_LLM_BASE_URL``, ``EGMEM_LLM_API_KEY`` (else ``OPENAI_API_KEY``),
        ``EGMEM_LLM_MODEL`` and ``EGMEM_LLM_TIMEOUT`` (seconds).

        Returns None when neither a base URL nor an API key is configured (egmem then runs
        its offline components). Raises ConfigError for an unparsable timeout.
        """
        base_url = env.get("EGMEM_LLM_BASE_URL", "").strip()
        api_key = (env.get("EGMEM_LLM_API_KEY", "").strip()
                   or env.get("OPENAI_API_KEY", "").strip())
        if not base_url and not api_key:
            return None
        model = env.get("EGMEM_LLM_MODEL", "").strip() or DEFAULT_MODEL
        timeout_s = 60.0
        raw_timeout = env.get("EGMEM_LLM_TIMEOUT", "").strip()
        if raw_timeout:
            try:
                timeout_s = float(raw_timeout)
            except ValueError:
                timeout_s = math.nan
            if not math.isfinite(timeout_s) or timeout_s <= 0:
                raise ConfigError(
                    f"EGMEM_LLM_TIMEOUT must be a positive number of seconds, got {raw_timeout!r}."
                )
        return cls(base_url=base_url or DEFAULT_BASE_URL, api_key=api_key or None,
                   model=model, timeout_s=timeout_s)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, kw_only=True)
class ToolCall:
    """One tool call from the model. ``arguments`` is None exactly when ``error`` is set."""

    id: str
    name: str
    arguments_raw: str
    arguments: dict[str, Any] | None
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class ChatResult:
    content: str | None
    tool_calls: list[ToolCall]
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None

    def as_message(self) -> dict[str, Any]:
        """This reply as the assistant turn of the next request's conversation."""
        return {
            "role": "assistant",
            "content": self.content,
            "tool_calls": [
                {"id": c.id, "type": "function",
                 "function": {"name": c.name, "arguments": c.arguments_raw}}
                for c in self.tool_calls
            ],
        }


# Whitespace around the fences is bounded: with unbounded runs the lazy body re-reads the
# trailing whitespace at every step (cubic on "```" followed by spaces).
_FENCE = re.compile(r"^\s{0,40}```(?:json)?\s{0,40}(.*?)\s{0,40}```\s{0,40}$", re.DOTALL)


def parse_tool_arguments(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    """Parse a tool call's JSON arguments leniently; never raises.

    Accepts an empty string (no arguments), a code-fenced object, and an object surrounded
    by stray text. Returns ``(arguments, None)`` or ``(None, reason)``.
    """
    if not raw.strip():
        return {}, None
    candidates = [raw]
    fenced = _FENCE.match(raw)
    if fenced:
        candidates.append(fenced.group(1))
    start, end = raw.find("{"), raw.rfind("}")
    if 0 <= start < end:
        candidates.append(raw[start : end + 1])
    first_error = ""
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError as exc:
            first_error = first_error or f"invalid JSON arguments: {exc.msg} at char {exc.pos}"
            continue
        if isinstance(value, dict):
            return value, None
        first_error = first_error or f"arguments are a JSON {type(value).__name__}, not an object"
    return None, first_error


# --------------------------------------------------------------------------- usage


_COUNTERS = ("calls", "prompt_tokens", "completion_tokens", "retries", "failures")


class UsageMeter:
    """Thread-safe per-operation counters.

    ``calls`` counts logical calls (one per :meth:`LLMClient.chat`, whatever the retries),
    ``retries`` the extra HTTP attempts, ``failures`` the calls that ended in an error;
    tokens are what the endpoint reported for successful calls.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, dict[str, int]] = {}

    def add(self, operation: str, **deltas: int) -> None:
        unknown = set(deltas) - set(_COUNTERS)
        if unknown:
            raise ValueError(f"unknown usage counters: {sorted(unknown)}")
        with self._lock:
            row = self._counts.setdefault(operation, dict.fromkeys(_COUNTERS, 0))
            for name, delta in deltas.items():
                row[name] += delta

    def snapshot(self) -> dict[str, dict[str, int]]:
        """A copy: ``{operation: {calls, prompt_tokens, completion_tokens, retries, failures}}``."""
        with self._lock:
            return {op: dict(row) for op, row in self._counts.items()}

    def totals(self) -> dict[str, int]:
        """The counters summed over all operations."""
        out = dict.fromkeys(_COUNTERS, 0)
        for row in self.snapshot().values():
            for name in _COUNTERS:
                out[name] += row[name]
        return out


# --------------------------------------------------------------------------- client


class _Retry(Exception):
    """Internal: one attempt failed in a way worth retrying."""

    def __init__(self, reason: str, *, delay_hint: float | None, final: EndpointError) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay_hint = delay_hint
        self.final = final


class LLMClient:
    """Chat (with tools) and embeddings against one OpenAI-compatible endpoint.

    Thread-safe. ``rng`` and ``sleep`` exist so tests can make backoff deterministic and
    instant; ``meter`` may be shared between clients.
    """

    def __init__(
        self,
        *,
        settings: LLMSettings,
        meter: UsageMeter | None = None,
        rng: random.Random | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.meter = meter if meter is not None else UsageMeter()
        self._rng = rng if rng is not None else random.Random()
        self._rng_lock = threading.Lock()
        self._sleep = sleep
        self._openai = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or _NO_KEY,
            timeout=settings.timeout_s,
            max_retries=0,
        )

    def close(self) -> None:
        self._openai.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public calls

    def chat(
        self,
        *,
        operation: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        tool_choice: str | dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> ChatResult:
        """One chat completion. ``operation`` labels the usage counters ("writer", "reader").

        Malformed tool arguments never raise (see :class:`ToolCall`). Raises EndpointError
        when the endpoint is unreachable, rejects the key or model, returns something that is
        not a chat completion, or keeps failing after ``max_retries`` retries.
        """
        kwargs: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages,
            "temperature": temperature,
        }
        if tools:
            kwargs["tools"] = tools
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens

        def call() -> ChatCompletion:
            return cast(ChatCompletion, self._openai.chat.completions.create(**kwargs))

        completion = self._with_retries(operation, call)
        try:
            result = self._to_result(completion)
        except EndpointError:
            self.meter.add(operation, failures=1)
            raise
        self.meter.add(operation, prompt_tokens=result.prompt_tokens,
                       completion_tokens=result.completion_tokens)
        logger.debug("llm %s: finish=%s tool_calls=%d tokens=%d+%d", operation,
                     result.finish_reason, len(result.tool_calls), result.prompt_tokens,
                     result.completion_tokens)
        return result

    def embed(self, *, operation: str, texts: Sequence[str], model: str) -> list[list[float]]:
        """Embed ``texts`` with the endpoint's ``model``; one vector per text, in order.

        Same retry and error contract as :meth:`chat`; prompt tokens are metered.
        """
        if not texts:
            return []

        def call() -> Any:
            return self._openai.embeddings.create(model=model, input=list(texts))

        response = self._with_retries(operation, call)
        data = getattr(response, "data", None)
        if not isinstance(data, list) or len(data) != len(texts):
            self.meter.add(operation, failures=1)
            raise EndpointError(
                f"The embeddings endpoint at {self.settings.base_url} did not return one vector "
                f"per input. Check that model {model!r} is an embedding model served there."
            )
        usage = getattr(response, "usage", None)
        self.meter.add(operation, prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0))
        ordered = sorted(data, key=lambda item: int(item.index))
        return [[float(x) for x in item.embedding] for item in ordered]

    # -- retry loop

    def _with_retries(self, operation: str, call: Callable[[], _T]) -> _T:
        self.meter.add(operation, calls=1)
        max_retries = max(0, self.settings.max_retries)
        attempt = 0
        while True:
            try:
                logger.debug("llm %s: attempt %d", operation, attempt + 1)
                return self._attempt(call, attempts=attempt + 1)
            except _Retry as retry:
                if attempt >= max_retries:
                    self.meter.add(operation, failures=1)
                    logger.warning("llm %s: giving up after %d attempts (%s)", operation,
                                   attempt + 1, retry.reason)
                    raise retry.final from retry.__cause__
                delay = self._backoff(attempt, retry.delay_hint)
                attempt += 1
                self.meter.add(operation, retries=1)
                logger.info("llm %s: %s; retry %d/%d in %.2fs", operation, retry.reason,
                            attempt, max_retries, delay)
                self._sleep(delay)
            except EndpointError:
                self.meter.add(operation, failures=1)
                raise

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        cap = self.settings.max_backoff_s
        if retry_after is not None:
            return min(max(retry_after, 0.0), cap)
        base = min(cap, self.settings.backoff_base_s * (2.0 ** min(attempt, 30)))
        with self._rng_lock:
            jitter = self._rng.uniform(0.5, 1.0)
        return base * jitter

    def _attempt(self, call: Callable[[], _T], *, attempts: int) -> _T:
        """Run one HTTP attempt, translating openai errors into _Retry or EndpointError."""
        url = self.settings.base_url
        try:
            return call()
        except openai.APITimeoutError as exc:
            raise _Retry("timeout", delay_hint=None, final=EndpointError(
                f"The LLM endpoint at {url} did not answer within {self.settings.timeout_s:g}s "
                f"({attempts} attempts). Check that the server is healthy, or raise "
                f"EGMEM_LLM_TIMEOUT.")) from exc
        except openai.APIConnectionError as exc:
            raise _Retry("connection error", delay_hint=None, final=EndpointError(
                f"Cannot reach the LLM endpoint at {url} ({attempts} attempts). Check that the "
                f"server is running and that EGMEM_LLM_BASE_URL is correct.")) from exc
        except openai.APIStatusError as exc:
            status = exc.status_code
            detail = self._detail(exc)
            if status in (401, 403):
                raise EndpointError(
                    f"The LLM endpoint at {url} rejected the API key (HTTP {status}). Check "
                    f"EGMEM_LLM_API_KEY (or OPENAI_API_KEY) and the key's permissions."
                ) from exc
            if status == 404:
                raise EndpointError(
                    f"The LLM endpoint at {url} answered HTTP 404 for model "
                    f"{self.settings.model!r}{detail}. Check EGMEM_LLM_MODEL and that "
                    f"EGMEM_LLM_BASE_URL is the API root (it usually ends in /v1)."
                ) from exc
            if status == 429:
                raise _Retry("HTTP 429", delay_hint=_retry_after(exc.response.headers),
                             final=EndpointError(
                    f"The LLM endpoint at {url} kept rate-limiting requests (HTTP 429, "
                    f"{attempts} attempts){detail}. Wait, lower the request rate, or check the "
                    f"account's quota.")) from exc
            if status == 408 or status >= 500:
                raise _Retry(f"HTTP {status}", delay_hint=None, final=EndpointError(
                    f"The LLM endpoint at {url} kept failing (HTTP {status}, {attempts} "
                    f"attempts){detail}. Check the server's logs and health.")) from exc
            raise EndpointError(
                f"The LLM endpoint at {url} rejected the request (HTTP {status}){detail}. "
                f"Check that model {self.settings.model!r} supports this kind of request "
                f"(tools, temperature, max_tokens)."
            ) from exc
        except openai.APIResponseValidationError as exc:
            raise EndpointError(
                f"The endpoint at {url} returned a response that is not OpenAI-compatible. "
                f"Check EGMEM_LLM_BASE_URL."
            ) from exc

    def _detail(self, exc: openai.APIStatusError) -> str:
        """A short server-provided reason, with the API key scrubbed."""
        body = exc.body
        message: object = None
        if isinstance(body, dict):
            inner = body.get("error", body)
            message = inner.get("message") if isinstance(inner, dict) else inner
        if not isinstance(message, str) or not message.strip():
            return ""
        message = " ".join(message.split())[:200]
        key = self.settings.api_key
        if key:
            message = message.replace(key, "***")
        return f": {message}"

    # -- response mapping

    def _to_result(self, completion: object) -> ChatResult:
        url = self.settings.base_url
        if not isinstance(completion, ChatCompletion) or not completion.choices:
            raise EndpointError(
                f"The LLM endpoint at {url} did not return a chat completion. Check that "
                f"EGMEM_LLM_BASE_URL points at an OpenAI-compatible API root (usually .../v1)."
            )
        choice = completion.choices[0]
        calls: list[ToolCall] = []
        for i, raw_call in enumerate(choice.message.tool_calls or []):
            call_id = raw_call.id or f"call_{i}"
            if raw_call.type == "function":
                name, raw_args = raw_call.function.name, raw_call.function.arguments or ""
            else:
                name, raw_args = raw_call.custom.name, raw_call.custom.input or ""
            arguments, err = parse_tool_arguments(raw_args)
            if err is not None:
                logger.info("llm: tool call %s (%s) has unusable arguments: %s", call_id,
                            name, err)
            calls.append(ToolCall(id=call_id, name=name, arguments_raw=raw_args,
                                  arguments=arguments, error=err))
        usage = completion.usage
        return ChatResult(
            content=choice.message.content,
            tool_calls=calls,
            prompt_tokens=int(usage.prompt_tokens) if usage else 0,
            completion_tokens=int(usage.completion_tokens) if usage else 0,
            finish_reason=choice.finish_reason,
        )


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from ``Retry-After-Ms`` / ``Retry-After`` (seconds or HTTP date)."""
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            continue
        return seconds if math.isfinite(seconds) and seconds >= 0 else None
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
