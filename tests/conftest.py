"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.fake_openai import ScriptedOpenAIServer


@pytest.fixture
def fake_openai() -> Iterator[ScriptedOpenAIServer]:
    """A running scripted OpenAI-compatible server on 127.0.0.1 (stopped afterwards)."""
    with ScriptedOpenAIServer() as srv:
        yield srv
