"""Tool calls that arrive as text, and what survives of a reply cut short.

Local servers often return a tool call inside the message content instead of
``tool_calls``: a bare ``{"name": ..., "arguments": ...}`` object (Llama 3.x, sometimes
after ``<|python_tag|>``), Hermes/Qwen ``<tool_call>...</tool_call>`` blocks, Mistral's
``[TOOL_CALLS] [...]``, a fenced code block, or just the arguments object. llama.cpp may
return the first of several parallel calls properly and the rest in the content.
:func:`calls_in_content` recovers them for the tools that were offered.

A reply stopped by ``finish_reason="length"`` carries a JSON prefix; :func:`salvage_items`
keeps the complete objects of its array so only the rest has to be asked again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

__all__ = ["calls_in_content", "salvage_items"]

_MARKERS = re.compile(r"<\|python_tag\|>|\[TOOL_CALLS\]|</?tool_call>|</?function_call>|"
                      r"```(?:json)?")
_DECODER = json.JSONDecoder()
# Enough for any batch the writer sends; a pathological reply is not scanned forever.
_MAX_SCAN = 100_000
_MAX_ATTEMPTS = 200


def _json_values(text: str) -> Iterator[Any]:
    """Every top-level JSON object or array in ``text``, left to right."""
    text = _MARKERS.sub(" ", text[:_MAX_SCAN])
    i = attempts = 0
    while i < len(text) and attempts < _MAX_ATTEMPTS:
        j = min((k for k in (text.find("{", i), text.find("[", i)) if k >= 0), default=-1)
        if j < 0:
            return
        attempts += 1
        try:
            value, end = _DECODER.raw_decode(text, j)
        except (ValueError, RecursionError):
            i = j + 1
            continue
        yield value
        i = end


def _schema_index(tools: Sequence[Mapping[str, Any]]) -> dict[str, tuple[set[str], set[str]]]:
    """name → (required keys, all keys) of each offered function tool."""
    out: dict[str, tuple[set[str], set[str]]] = {}
    for tool in tools:
        fn = tool.get("function") if isinstance(tool, Mapping) else None
        if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str):
            continue
        params = fn.get("parameters") or {}
        props = set((params.get("properties") or {}).keys())
        required = set(params.get("required") or [])
        out[fn["name"]] = (required, props)
    return out


def _arguments(value: object) -> dict[str, Any] | None:
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return None
        return parsed if isinstance(parsed, dict) else None
    return None


def _as_calls(value: object, index: dict[str, tuple[set[str], set[str]]],
              depth: int = 0) -> list[tuple[str, dict[str, Any]]]:
    if depth > 3:
        return []
    if isinstance(value, list):
        return [c for v in value for c in _as_calls(v, index, depth + 1)]
    if not isinstance(value, dict):
        return []
    if isinstance(value.get("tool_calls"), list):
        return _as_calls(value["tool_calls"], index, depth + 1)
    fn = value.get("function")
    if isinstance(fn, dict) and isinstance(fn.get("name"), str):
        value = fn
    name = value.get("name")
    if isinstance(name, str) and name in index:
        args = _arguments(value.get("arguments", value.get("parameters", {})))
        return [(name, args)] if args is not None else []
    # A bare arguments object: it belongs to the one offered tool whose required keys it has
    # and whose properties cover it.
    keys = set(value)
    fits = [n for n, (required, props) in index.items()
            if required and required <= keys and (not props or keys <= props)]
    return [(fits[0], value)] if len(fits) == 1 else []


def calls_in_content(content: str | None,
                     tools: Sequence[Mapping[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Tool calls written in ``content`` for the offered ``tools``, in order: ``[(name,
    arguments)]``. Text that names no offered tool is not a call."""
    if not content or not tools:
        return []
    index = _schema_index(tools)
    out: list[tuple[str, dict[str, Any]]] = []
    for value in _json_values(content):
        out.extend(_as_calls(value, index))
    return out


def salvage_items(raw: str, key: str) -> list[dict[str, Any]]:
    """The complete objects of the array under ``key`` in a truncated JSON text.

    ``'{"proposals": [{"a": 1}, {"a": 2}, {"a"'`` → ``[{"a": 1}, {"a": 2}]``; a bare
    array prefix works too. Never raises."""
    m = re.search('"' + re.escape(key) + r'"\s*:\s*\[', raw)
    if m is not None:
        i = m.end()
    else:
        start = raw.find("[")
        if start < 0:
            return []
        i = start + 1
    items: list[dict[str, Any]] = []
    while i < len(raw):
        while i < len(raw) and raw[i] in " \t\r\n,":
            i += 1
        if i >= len(raw) or raw[i] != "{":
            break
        try:
            value, i = _DECODER.raw_decode(raw, i)
        except (ValueError, RecursionError):
            break
        if isinstance(value, dict):
            items.append(value)
    return items
