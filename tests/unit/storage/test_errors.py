"""StorageError: stable codes, fixed messages, no driver text."""

from __future__ import annotations

import pytest

from charlotte.errors import CharlotteError
from charlotte.storage import StorageError


@pytest.mark.parametrize("code", sorted(StorageError.CODES))
def test_every_code_has_a_fixed_message_and_is_the_whole_text(code: str) -> None:
    error = StorageError(code)

    assert isinstance(error, CharlotteError)
    assert (error.code, str(error), repr(error)) == (code, code, f"StorageError({code!r})")
    assert error.message == StorageError.CODES[code]


def test_a_code_outside_the_table_becomes_storage_error() -> None:
    # Free text must never ride along as a "code".
    assert StorageError("relation charlotte_events does not exist").code == "storage_error"
