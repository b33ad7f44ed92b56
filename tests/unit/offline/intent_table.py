"""Reading a table of phrasings: each message → the requests it must read as (or a refusal)."""

from __future__ import annotations

from dataclasses import dataclass

from charlotte.offline.intents import read_requests
from charlotte.offline.requests import Request, Unsupported

#: Words that are never part of a value the person gives.
NEVER_IN_VALUES = ("should be", "wrong", "it's", "instead", "thanks", "please", "not ")
#: …nor of a phone number, e-mail, address or price ("Order now" is a button's words).
NEVER_IN_FACTS = (*NEVER_IN_VALUES, " now")


@dataclass(frozen=True)
class Refused:
    """The message is read as one ``Unsupported`` whose reason holds ``why`` (not as any request)."""

    why: str = ""


def check(message: str, expected: list[Request] | Refused) -> None:
    """``message`` reads as ``expected``; no value read holds words that are not the value."""
    read = read_requests(message)
    if isinstance(expected, Refused):
        assert [type(r) for r in read] == [Unsupported], read
        assert isinstance(read[0], Unsupported) and expected.why in read[0].why, read
        return
    assert read == expected
    for request in read:
        for name in ("value", "words", "old", "item", "price"):
            value = str(getattr(request, name, "") or "")
            never = NEVER_IN_VALUES if name == "words" else NEVER_IN_FACTS
            words = {w.strip(".,!?") for w in value.lower().split()}
            assert not any(w in value.lower() if " " in w.strip() else w.strip() in words
                           for w in never), (name, value)  # fmt: skip
