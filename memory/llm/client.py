"""The one LLM client every egmem component shares.

:class:`LLMClient` wraps ``openai.OpenAI`` pointed at any OpenAI-compatible endpoint. The
``openai`` client is built with ``max_retries=0``: retries happen here, so each one is counted
in the :class:`UsageMeter` and follows our backoff (exponential with jitter, honouring
``Retry-After`` on 429, capped at ``max_backoff_s``).

Errors are sorted by what they mean (:mod:`memory.llm.endpoint` reads the servers' wording):

* retried: HTTP 408, 429 (honouring ``Retry-After``), 5xx, timeouts and connection errors;
  when retries run out: :class:`~memory.errors.EndpointUnavailable`;
* a prompt too long for the model: :class:`~memory.errors.ContextOverflow` (never retried,
  whatever the status), so the caller can send less;
* a model or server without tool calling: :class:`~memory.errors.ToolsUnsupported`;
* a refused request field (``temperature`` on a reasoning model, ``max_tokens`` where
  ``max_completion_tokens`` is wanted, ``parallel_tool_calls``): dropped from this and every
  later request, said once in the log and kept in the endpoint's profile;
* other 4xx: :class:`~memory.errors.RequestRejected`; 401/403/404 and non-OpenAI answers: a
  plain :class:`~memory.errors.EndpointError` (a setting to fix).

Every message names the endpoint by :func:`~memory.llm.endpoint.redact_url` (no user info,
no query values) and never contains the API key. Message content is never logged. A
``deadline`` (a value of the client's ``clock``) bounds the attempts, their timeouts and the
backoff of one call. Tool calls a model wrote into its content are recovered for the tools
offered (:mod:`memory.llm.content_calls`).
"""

from __future__ import annotations

import email.utils
import functools
import json
import logging
import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import openai
from openai.types.chat import ChatCompletion

from memory.errors import (
    ContextOverflow,
    EndpointError,
    EndpointUnavailable,
    RequestRejected,
    ToolsUnsupported,
)
from memory.llm.content_calls import calls_in_content
from memory.llm.endpoint import classify, redact_text, redact_url
from memory.llm.profile import EndpointProfile, ProfileHolder, ProfileStore
from memory.llm.results import (
    ChatResult,
    ToolCall,
    UsageMeter,
    approx_tokens,
    parse_tool_arguments,
)

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MODEL",
    "ChatResult",
    "LLMClient",
    "LLMSettings",
    "ToolCall",
    "UsageMeter",
    "approx_tokens",
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

    def __repr__(self) -> str:
        return (f"LLMSettings(base_url={self.shown_url!r}, model={self.model!r}, "
                f"timeout_s={self.timeout_s!r}, max_retries={self.max_retries!r})")

    @property
    def shown_url(self) -> str:
        """The base URL as it may be shown or logged (see :func:`redact_url`)."""
        return redact_url(self.base_url)

    @property
    def profile_key(self) -> str:
        """Which endpoint + model a learned :class:`EndpointProfile` belongs to."""
        return f"{self.shown_url} {self.model}"


# --------------------------------------------------------------------------- client


class _Retry(Exception):
    """Internal: one attempt failed in a way worth retrying."""

    def __init__(self, reason: str, *, delay_hint: float | None,
                 final: EndpointUnavailable) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay_hint = delay_hint
        self.final = final


# Request fields the client drops (for good) when the endpoint refuses them.
_DROPPABLE = ("temperature", "parallel_tool_calls", "top_p", "seed")
_MAX_ADJUSTMENTS = 3


class LLMClient:
    """Chat (with tools) and embeddings against one OpenAI-compatible endpoint.

    Thread-safe. ``rng``, ``sleep`` and ``clock`` exist so tests can make backoff and
    deadlines deterministic and instant; ``meter`` may be shared between clients.
    ``profiles`` keeps what is learned about the endpoint across runs (see
    :mod:`memory.llm.profile`); :attr:`profile` is the live one.
    """

    def __init__(
        self,
        *,
        settings: LLMSettings,
        meter: UsageMeter | None = None,
        rng: random.Random | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        profiles: ProfileStore | None = None,
    ) -> None:
        self.settings = settings
        self.meter = meter if meter is not None else UsageMeter()
        self._rng = rng if rng is not None else random.Random()
        self._rng_lock = threading.Lock()
        self._sleep = sleep
        self.clock = clock
        # Endpoint tokens per estimated token, from the last reply's usage.
        self._token_ratio = 1.0
        key = settings.profile_key
        stored = profiles.load(key) if profiles is not None else None
        self.profile = ProfileHolder(current=stored or EndpointProfile(key=key), store=profiles)
        self._openai = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or _NO_KEY,
            timeout=settings.timeout_s,
            max_retries=0,
        )

    @property
    def shown_url(self) -> str:
        return self.settings.shown_url

    def estimate_tokens(self, messages: Sequence[Mapping[str, Any]],
                        tools: Sequence[Mapping[str, Any]] | None = None) -> int:
        """A request's prompt tokens as this endpoint counts them: :func:`approx_tokens`
        scaled by what the endpoint reported for the last request (1.0 before any)."""
        return int(approx_tokens(messages, tools) * self._token_ratio)

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
        response_format: dict[str, Any] | None = None,
        deadline: float | None = None,
    ) -> ChatResult:
        """One chat completion. ``operation`` labels the usage counters ("writer", "reader").

        Malformed tool arguments never raise (see :class:`ToolCall`); calls written in the
        content are recovered for the offered ``tools``. Raises the EndpointError subclass
        that says what went wrong (module docstring); refused optional fields are dropped
        and the call is made again without them."""
        for _ in range(_MAX_ADJUSTMENTS + 1):
            kwargs = self._request(messages=messages, tools=tools, tool_choice=tool_choice,
                                   temperature=temperature, max_tokens=max_tokens,
                                   response_format=response_format)

            def call(timeout: float, kwargs: dict[str, Any] = kwargs) -> ChatCompletion:
                return cast(ChatCompletion,
                            self._openai.chat.completions.create(**kwargs, timeout=timeout))

            try:
                completion = self._with_retries(operation, call, deadline=deadline)
            except RequestRejected as exc:
                if not self._adjust(exc, kwargs):
                    raise
                continue
            break
        try:
            result = self._to_result(completion, tools or [])
        except EndpointError:
            self.meter.add(operation, failures=1)
            raise
        self.meter.add(operation, prompt_tokens=result.prompt_tokens,
                       completion_tokens=result.completion_tokens)
        estimate = approx_tokens(messages, tools)
        if result.prompt_tokens > 0 and estimate > 0:
            self._token_ratio = result.prompt_tokens / estimate
        logger.debug("llm %s: finish=%s tool_calls=%d tokens=%d+%d", operation,
                     result.finish_reason, len(result.tool_calls), result.prompt_tokens,
                     result.completion_tokens)
        return result

    def _request(self, *, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                 tool_choice: str | dict[str, Any] | None, temperature: float,
                 max_tokens: int | None,
                 response_format: dict[str, Any] | None) -> dict[str, Any]:
        dropped = set(self.profile.get().dropped_params)
        kwargs: dict[str, Any] = {"model": self.settings.model, "messages": messages}
        if "temperature" not in dropped:
            kwargs["temperature"] = temperature
        if tools:
            kwargs["tools"] = tools
            if tool_choice is not None:
                kwargs["tool_choice"] = tool_choice
        if max_tokens is not None:
            if "max_tokens" not in dropped:
                kwargs["max_tokens"] = max_tokens
            elif "max_completion_tokens" not in dropped:
                kwargs["max_completion_tokens"] = max_tokens
        if response_format is not None:
            kwargs["response_format"] = response_format
        return kwargs

    def _adjust(self, exc: RequestRejected, kwargs: dict[str, Any]) -> bool:
        """Learn to leave out a refused optional field; True when the call may be retried."""
        param = exc.param
        if isinstance(exc, ContextOverflow | ToolsUnsupported) or param not in kwargs:
            return False
        if param in _DROPPABLE:
            note = f"it refuses {param!r}; requests leave it out from now on"
        elif param == "max_tokens":
            note = "it refuses 'max_tokens'; completion caps go as 'max_completion_tokens'"
        elif param == "max_completion_tokens":
            note = "it refuses completion caps; replies are not capped"
        else:
            return False
        dropped = tuple(dict.fromkeys((*self.profile.get().dropped_params, param)))
        self.profile.learn(note, dropped_params=dropped)
        return True

    def embed(self, *, operation: str, texts: Sequence[str], model: str) -> list[list[float]]:
        """Embed ``texts`` with the endpoint's ``model``; one vector per text, in order.

        Same retry and error contract as :meth:`chat`; prompt tokens are metered.
        """
        if not texts:
            return []

        def call(timeout: float) -> Any:
            return self._openai.embeddings.create(model=model, input=list(texts),
                                                  timeout=timeout)

        response = self._with_retries(operation, call, deadline=None)
        data = getattr(response, "data", None)
        if not isinstance(data, list) or len(data) != len(texts):
            self.meter.add(operation, failures=1)
            raise EndpointError(
                f"The embeddings endpoint at {self.shown_url} did not return one vector "
                f"per input. Check that model {model!r} is an embedding model served there."
            )
        usage = getattr(response, "usage", None)
        self.meter.add(operation, prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0))
        ordered = sorted(data, key=lambda item: int(item.index))
        return [[float(x) for x in item.embedding] for item in ordered]

    # -- retry loop

    def _with_retries(self, operation: str, call: Callable[[float], _T], *,
                      deadline: float | None) -> _T:
        self.meter.add(operation, calls=1)
        max_retries = max(0, self.settings.max_retries)
        attempt = 0
        while True:
            timeout = self.settings.timeout_s
            if deadline is not None:
                left = deadline - self.clock()
                if left <= 0:
                    self.meter.add(operation, failures=1)
                    raise EndpointUnavailable(
                        f"The LLM endpoint at {self.shown_url} did not answer before this "
                        f"request's deadline ({attempt} attempts).")
                timeout = min(timeout, left)
            try:
                logger.debug("llm %s: attempt %d", operation, attempt + 1)
                return self._attempt(functools.partial(call, timeout), attempts=attempt + 1)
            except _Retry as retry:
                delay = self._backoff(attempt, retry.delay_hint)
                late = deadline is not None and self.clock() + delay >= deadline
                if attempt >= max_retries or late:
                    self.meter.add(operation, failures=1)
                    logger.warning("llm %s: giving up after %d attempts (%s)", operation,
                                   attempt + 1, retry.reason)
                    raise retry.final from retry.__cause__
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
        url = self.shown_url
        try:
            return call()
        except openai.APITimeoutError as exc:
            raise _Retry("timeout", delay_hint=None, final=EndpointUnavailable(
                f"The LLM endpoint at {url} did not answer within {self.settings.timeout_s:g}s "
                f"({attempts} attempts). Check that the server is healthy, or raise "
                f"EGMEM_LLM_TIMEOUT.")) from exc
        except openai.APIConnectionError as exc:
            raise _Retry("connection error", delay_hint=None, final=EndpointUnavailable(
                f"Cannot reach the LLM endpoint at {url} ({attempts} attempts). Check that the "
                f"server is running and that EGMEM_LLM_BASE_URL is correct.")) from exc
        except openai.APIStatusError as exc:
            raise self._status_error(exc, attempts) from exc
        except openai.APIResponseValidationError as exc:
            raise EndpointError(
                f"The endpoint at {url} returned a response that is not OpenAI-compatible. "
                f"Check EGMEM_LLM_BASE_URL."
            ) from exc

    def _status_error(self, exc: openai.APIStatusError, attempts: int) -> Exception:
        """The _Retry or EndpointError an HTTP error response means."""
        url, status = self.shown_url, exc.status_code
        refusal = classify(status, exc.body)
        detail = self._scrub(refusal.message)
        said = f": {detail}" if detail else ""
        if refusal.kind == "overflow":
            size = f" of {refusal.limit} tokens" if refusal.limit else ""
            return ContextOverflow(
                f"The model at {url} cannot take a prompt this long (its context{size} is "
                f"exceeded){said}. Send less, or raise the server's context size.",
                status=status, detail=detail, limit=refusal.limit, requested=refusal.requested)
        if refusal.kind == "no-tools":
            return ToolsUnsupported(
                f"The model {self.settings.model!r} at {url} does not accept tools (HTTP "
                f"{status}){said}. egmem switches to JSON replies; see docs/LLM.md.",
                status=status, param="tools", detail=detail)
        if status in (401, 403):
            return EndpointError(
                f"The LLM endpoint at {url} rejected the API key (HTTP {status}). Check "
                f"EGMEM_LLM_API_KEY (or OPENAI_API_KEY) and the key's permissions.",
                status=status)
        if status == 404:
            return EndpointError(
                f"The LLM endpoint at {url} answered HTTP 404 for model "
                f"{self.settings.model!r}{said}. Check EGMEM_LLM_MODEL and that "
                f"EGMEM_LLM_BASE_URL is the API root (it usually ends in /v1).", status=status)
        if status == 429:
            hint = _retry_after(exc.response.headers)
            return _Retry("HTTP 429", delay_hint=hint, final=EndpointUnavailable(
                f"The LLM endpoint at {url} kept rate-limiting requests (HTTP 429, "
                f"{attempts} attempts){said}. Wait, lower the request rate, or check the "
                f"account's quota.", status=status, retry_after=hint))
        if status == 408 or status >= 500:
            return _Retry(f"HTTP {status}", delay_hint=None, final=EndpointUnavailable(
                f"The LLM endpoint at {url} kept failing (HTTP {status}, {attempts} "
                f"attempts){said}. Check the server's logs and health.", status=status))
        return RequestRejected(
            f"The LLM endpoint at {url} rejected the request (HTTP {status}){said}. Check "
            f"that model {self.settings.model!r} supports this kind of request (tools, "
            f"temperature, max_tokens).", status=status, param=refusal.param, detail=detail)

    def _scrub(self, message: str) -> str:
        """A short server-provided reason without the API key or URL secrets."""
        if not message.strip():
            return ""
        message = " ".join(message.split())[:300]
        return redact_text(message, url=self.settings.base_url,
                           secrets=(self.settings.api_key,))[:200]

    # -- response mapping

    def _to_result(self, completion: object, tools: list[dict[str, Any]]) -> ChatResult:
        url = self.shown_url
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
        content = choice.message.content
        seen = {c.arguments_raw for c in calls}
        for i, (name, args) in enumerate(calls_in_content(content, tools)):
            raw = json.dumps(args, ensure_ascii=False)
            if raw in seen:
                continue
            calls.append(ToolCall(id=f"content_{i}", name=name, arguments_raw=raw,
                                  arguments=args, from_content=True))
        usage = completion.usage
        return ChatResult(
            content=content,
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
