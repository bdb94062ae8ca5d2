"""Exceptions raised by the memory package.

Tree::

    EgmemError                 root of everything egmem raises on purpose
    ├── UserFacingError        safe to show a person; says what to do next
    │   ├── InputError         a bad record, file or question
    │   ├── ConfigError        a setting is missing or wrong
    │   ├── ModelMissingError  the embedding model package is not installed
    │   └── EndpointError      the LLM/embedding endpoint is unreachable or misconfigured
    ├── StoreError             the on-disk store is inconsistent or unusable
    └── WriterError            a proposal could not be produced (retried by the inbox)
"""

from __future__ import annotations


class EgmemError(Exception):
    """Root of all egmem errors."""


class UserFacingError(EgmemError):
    """An error whose message is written for the person who caused it."""


class InputError(UserFacingError):
    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        self.source = source
        self.line = line
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        super().__init__(where + message)


class ConfigError(UserFacingError):
    pass


class ModelMissingError(UserFacingError):
    pass


class EndpointError(UserFacingError):
    pass


class StoreError(EgmemError):
    pass


class WriterError(EgmemError):
    pass
