"""A real ``Charlotte`` (SQLite, the inline queue) playing a ``ScriptedModel``, and readers of what it logged.

``scripted_charlottes`` yields a maker (``make(model, **settings)``) and
closes every charlotte it made; ``answered_once`` checks that every
``tool.called`` has exactly one ``tool.result``; ``no_raw_model_text`` that
no log record holds a text as the model sent it, nor a line it forged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from charlotte import Charlotte, Settings
from charlotte.events import EventTypes, schema_errors
from charlotte.session import CharlotteSession
from charlotte.storage import DatabaseEventLog
from charlotte.testing import ScriptedModel

#: A tool name holding a newline and a made-up log line after it.
FORGED: Final = "cms_publish\nCRITICAL charlotte.runtime.runner: forged line"
#: Look-alikes of cms_apply: a Cyrillic a (U+0430), a trailing space.
LOOK_ALIKES: Final = ("cms_\u0430pply", "cms_apply ")

Log = list[tuple[str, dict[str, Any]]]
Maker = Callable[..., Charlotte]


@contextmanager
def scripted_charlottes(folder: Path) -> Iterator[Maker]:
    """A maker of migrated charlottes on one SQLite file in ``folder``, each playing the model it is given."""
    made: list[Charlotte] = []

    def make(model: ScriptedModel, **settings: Any) -> Charlotte:
        values: dict[str, Any] = {"database_url": f"sqlite:///{folder / 'scripted.db'}", "queue": "inline"}
        charlotte = Charlotte(Settings(**{**values, **settings}), model_factory=lambda: model)
        charlotte.migrate()
        made.append(charlotte)
        return charlotte

    try:
        yield make
    finally:
        for charlotte in made:
            charlotte.close()


def open_session(charlotte: Charlotte) -> CharlotteSession:
    return (
        charlotte.for_user("ann").tenant("acme").page("home")
        .brief("A landing page for Rosa's Bakery in Leeds.").approve_on_save(False).open()
    )  # fmt: skip


def read_log(charlotte: Charlotte, session: CharlotteSession) -> Log:
    """Every event of the session, in order, each valid against the schema."""
    read = DatabaseEventLog().read(charlotte.engine, session.id, 0, 1000)
    assert [schema_errors(e) for e in read] == [[] for _ in read]
    return [(e.type, dict(e.payload)) for e in read]


def of_type(log: Log, kind: str) -> list[dict[str, Any]]:
    return [payload for type_, payload in log if type_ == kind]


def answered_once(log: Log) -> list[tuple[str, str | None]]:
    """Every ``tool.called`` has exactly one ``tool.result``: (name, code) of each call, in order."""
    called = [p["call_id"] for p in of_type(log, EventTypes.TOOL_CALLED)]
    results = of_type(log, EventTypes.TOOL_RESULT)
    assert len(called) == len(set(called))
    assert sorted(called) == sorted(r["call_id"] for r in results)
    by_id = {r["call_id"]: r for r in results}
    return [(by_id[i]["name"], by_id[i].get("code")) for i in called]


def no_raw_model_text(records: Sequence[logging.LogRecord], *texts: str) -> None:
    """No log record (message or traceback) holds ``texts`` as sent, nor a line starting ``CRITICAL charlotte``."""
    for record in records:
        shown = record.getMessage()
        if record.exc_info:
            shown += logging.Formatter().formatException(record.exc_info)
        for text in texts:
            assert text not in shown, record.getMessage()
        assert not any(line.startswith("CRITICAL charlotte") for line in shown.splitlines())
