"""Builder modes: the system prompt a session's runs use, and the registry that names them.

A host may register its own modes (``ModeRegistry.register``). charlotte's own
``charlotte_builder`` is added lazily, on the first ``resolve``, and only when
the host has not registered a mode of that name: a host-defined
``charlotte_builder`` always wins.

Registering is last-wins: a later ``register`` of a name replaces its factory
for every later ``resolve`` (also after the built-in was added). A ``Mode``
already resolved is a frozen value and never changes; a session running under
it is protected by ``check_mode`` (the prompt must embed the current guide's
hash exactly once).

>>> from charlotte.runtime.guide import build_guide
>>> guide = build_guide()
>>> mode = ModeRegistry().resolve(BUILDER_MODE, guide)
>>> mode.prompt.count(guide.hash)
1
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from charlotte.errors import Refused
from charlotte.runtime.guide import Guide

__all__ = [
    "BUILDER_MODE",
    "MAX_MODE_NAME",
    "Mode",
    "ModeFactory",
    "ModeRegistry",
    "builder_mode",
    "check_mode",
]

#: The name of charlotte's own builder mode.
BUILDER_MODE: Final = "charlotte_builder"
#: The longest mode name (the ``session.opened`` event's bound).
MAX_MODE_NAME: Final = 64


@dataclass(frozen=True, slots=True)
class Mode:
    """A named system prompt for a session's model runs."""

    name: str
    prompt: str


#: Builds a mode from the current guide; its prompt must embed ``guide.hash`` exactly once.
ModeFactory = Callable[[Guide], Mode]


def builder_mode(guide: Guide) -> Mode:
    """charlotte's own builder mode: a short preamble, the guide's hash once, then the guide."""
    prompt = (
        "You are the page builder of this site's content management system.\n"
        f"guide: {guide.hash}\n"
        "\n"
        f"{guide.text}"
    )
    return Mode(BUILDER_MODE, prompt)


class ModeRegistry:
    """Mode factories by name; ``charlotte_builder`` is added on first ``resolve`` unless the host has one."""

    __slots__ = ("_builtin_added", "_factories", "_lock")

    def __init__(self) -> None:
        self._factories: dict[str, ModeFactory] = {}
        self._builtin_added = False
        # Runs resolve from worker threads; the lazy install must happen once.
        self._lock = threading.Lock()

    def register(self, name: str, factory: ModeFactory) -> None:
        """Register (or replace) the factory of mode ``name``."""
        if not isinstance(name, str) or not name or len(name) > MAX_MODE_NAME:
            raise ValueError(f"a mode name is a string of 1 to {MAX_MODE_NAME} characters")
        if not callable(factory):
            raise TypeError("a mode factory must be callable")
        with self._lock:
            self._factories[name] = factory

    def names(self) -> tuple[str, ...]:
        """The registered names, sorted (the built-in appears once it was added)."""
        with self._lock:
            return tuple(sorted(self._factories))

    def resolve(self, name: str, guide: Guide) -> Mode:
        """The mode ``name`` built for ``guide``; ``Refused("not_found")`` for an unknown name."""
        with self._lock:
            if not self._builtin_added:
                self._builtin_added = True
                self._factories.setdefault(BUILDER_MODE, builder_mode)
            factory = self._factories.get(name) if isinstance(name, str) else None
        if factory is None:
            raise Refused("not_found")
        mode = factory(guide)
        if not isinstance(mode, Mode):
            raise TypeError("a mode factory must return a Mode")
        return mode


def check_mode(mode: Mode, guide: Guide, session_guide_hash: str | None) -> None:
    """Refuse ``guide_mode_stale`` unless the session's guide is ``guide`` and the prompt embeds its hash once."""
    if session_guide_hash != guide.hash or mode.prompt.count(guide.hash) != 1:
        raise Refused("guide_mode_stale")
