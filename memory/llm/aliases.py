"""Short names for long ids in prompts: S1, M3, E12 instead of 20-character hex ids.

Small models miscopy long ids, and a miscopied state id silently turns a revision into a new
state. Prompts show aliases; code maps what the model writes back to the ids, tolerating the
usual variants ("s1", "[S1]", "S 1", "#1" when the prefix is unambiguous) and the full id.
"""

from __future__ import annotations

import re

__all__ = ["AliasTable"]

# Over stripped text; every repeat is bounded, since adjacent open-ended runs of spaces would
# backtrack polynomially on a long run the model wrote.
_ALIAS = re.compile(r"^[\[(#]?\s{0,3}([A-Za-z]{1,12})?\s{0,3}[-_ ]?\s{0,3}(\d{1,5})\s{0,3}[\])]?$")


class AliasTable:
    """Aliases ``<prefix><n>`` for targets, numbered from 1 in order of first use."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix.upper()
        self._targets: list[str] = []
        self._by_target: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._targets)

    def __contains__(self, target: object) -> bool:
        return target in self._by_target

    def name(self, target: str) -> str:
        """The alias of ``target``, created on first use."""
        found = self._by_target.get(target)
        if found is None:
            self._targets.append(target)
            found = f"{self.prefix}{len(self._targets)}"
            self._by_target[target] = found
        return found

    def peek(self, target: str) -> str | None:
        """The alias of ``target`` if it has one."""
        return self._by_target.get(target)

    def resolve(self, raw: object) -> str | None:
        """The target an alias (or the target itself) written by a model names, or None."""
        if isinstance(raw, bool) or raw is None:
            return None
        if isinstance(raw, int):
            raw = str(raw)
        if not isinstance(raw, str):
            return None
        text = raw.strip()
        if text in self._by_target:
            return text
        m = _ALIAS.match(text)
        if m is None:
            return None
        prefix, number = (m.group(1) or "").upper(), int(m.group(2))
        if prefix and prefix != self.prefix:
            return None
        if 1 <= number <= len(self._targets):
            return self._targets[number - 1]
        return None

    def targets(self) -> list[str]:
        return list(self._targets)
