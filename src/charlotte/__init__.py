"""charlotte: an AI page builder a host web application embeds.

An agent edits a *draft* of one fancy-cms page through nine page tools; every
change is an event in a per-session log; a human reviews, approves and
publishes. The agent can never publish.
"""

from __future__ import annotations

from charlotte.errors import CharlotteError

__all__ = ["CharlotteError"]
__version__ = "0.1.0"
