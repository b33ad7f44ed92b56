"""The contact-fact intent's table: phrasings → the phone, e-mail or address, exactly as given."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import ChangeFact, Request, SetText, Target

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("change the phone number to +44 113 496 0999", [ChangeFact("phone", "+44 113 496 0999")]),
    ("Our phone number is now 0113 496 0999.", [ChangeFact("phone", "0113 496 0999")]),
    ("update the email to hi@crumb.test", [ChangeFact("email", "hi@crumb.test")]),
    ("Change the email address to namaste@stillpoint.example.", [ChangeFact("email", "namaste@stillpoint.example")]),
    ("our phone number is 0113 496 0550 now", [ChangeFact("phone", "0113 496 0550")]),
    ("phone is 01603 555 0177 now", [ChangeFact("phone", "01603 555 0177")]),
    ("phone is 01603 555 0177 now, thanks", [ChangeFact("phone", "01603 555 0177")]),
    ("the email is hello@otter.test from now on", [ChangeFact("email", "hello@otter.test")]),
    # The phrasings: the value, and only the value.
    ("Our phone number changed, it's now 01603 555 0177", [ChangeFact("phone", "01603 555 0177")]),
    ("The number on the page is wrong, it should be 01603 555 0177", [ChangeFact("phone", "01603 555 0177")]),
    ("the phone number should be 01603 555 0177", [ChangeFact("phone", "01603 555 0177")]),
    ("change the phone number from 0113 496 0321 to 01603 555 0177", [ChangeFact("phone", "01603 555 0177")]),
    ("change the address to 3 Briggate, Leeds LS1 6HD", [ChangeFact("address", "3 Briggate, Leeds LS1 6HD")]),
    ("our address is wrong, it should be 3 Briggate, Leeds", [ChangeFact("address", "3 Briggate, Leeds")]),
    ("the address is now 3 Briggate, Leeds now", [ChangeFact("address", "3 Briggate, Leeds")]),
    ("we moved to 5 Market Street, Leeds LS2 7AB", [ChangeFact("address", "5 Market Street, Leeds LS2 7AB")]),
    ("we're now at 5 Market Street, Leeds", [ChangeFact("address", "5 Market Street, Leeds")]),
    # The first link word starts the address: the words "at" and "to" inside it stay.
    ("change the address to Unit 4 at The Mill, Leeds LS2 1AB", [ChangeFact("address", "Unit 4 at The Mill, Leeds LS2 1AB")]),
    ("change the address to 3 Road to Nowhere", [ChangeFact("address", "3 Road to Nowhere")]),
    # People's phrasings: a new number "I've got", a typo of "change", the old address named.
    ("I've got a new number: 07700 900 164", [ChangeFact("phone", "07700 900 164")]),
    ("Chnage the email to becky@pawsabout.example", [ChangeFact("email", "becky@pawsabout.example")]),
    ("email should be quotes@toplineroofing.example not office@", [ChangeFact("email", "quotes@toplineroofing.example")]),
    ("email should be quotes@toplineroofing.example not office", Refused('"not"')),
    # Refused: a word beside the value that is not understood, no value, two values, a "not".
    ("change the phone number to 0113 496 0550 ext 12", Refused('did not understand "ext 12"')),
    ("change the phone number to the new one", Refused("no new phone number")),
    ("the phone numbers are 0113 496 0550 and 0113 496 0551", Refused("more than one")),
    ("don't change the phone number to 01603 555 0177", Refused('did not understand "don\'t"')),
    ("the phone number is 01603 555 0177 on weekdays only", Refused('"weekdays only"')),
    ("change the address to the new one", Refused("does not read as an address")),
    ("change the email to hello at otter dot test", Refused("no new e-mail address")),
    # Not this intent: a text that holds a number is a text.
    ("Set the headline to Call 0113 496 0321 today", [SetText(Target(None, "heading"), "Call 0113 496 0321 today")]),
    ("the number of classes is 5", Refused()),
    ("we moved the menu to the top", Refused()),
    ("we moved to a bigger place", Refused()),
    ("our mobile is 07700 900123 now", [ChangeFact("phone", "07700 900123")]),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_contact_facts_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
