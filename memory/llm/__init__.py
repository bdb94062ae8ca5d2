"""LLM access shared by the writer, reader and reranker (see :mod:`memory.llm.client`)."""

from memory.llm.client import (
    ChatResult,
    LLMClient,
    LLMSettings,
    ToolCall,
    UsageMeter,
    parse_tool_arguments,
)

__all__ = [
    "ChatResult",
    "LLMClient",
    "LLMSettings",
    "ToolCall",
    "UsageMeter",
    "parse_tool_arguments",
]
