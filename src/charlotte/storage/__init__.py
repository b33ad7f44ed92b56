"""Database storage: tables and migrations, the event log, sessions, pages.

SQLAlchemy 2 Core over SQLite (embedded default) or PostgreSQL (psycopg 3).
Every write method takes the caller's open connection, so a change and the
event that records it commit or roll back together. Driver errors never leave
this package: ``_translate`` turns them into ``charlotte.errors.StorageError``
with a stable ``code``.

Modules: ``engine`` (``open_engine``, ``transaction``, ``read_connection``),
``tables`` (the Core tables, ``create_tables``), ``migrate`` (Alembic, to
head), ``eventlog`` (``DatabaseEventLog``), ``sessions`` (``SessionStore``),
``pages`` (``PageRepository``, ``DatabasePageRepository``), ``published_pages``
(``PublishedPageStore``: which revision of each page is published), ``change_sets``
(``ChangeSetStore``), ``turns`` (``TurnStore``, ``TurnRecord``), ``conversation``
(``ConversationStore``: the conversation's rows), ``unit_of_work``
(``Units``, ``UnitOfWork``: the one opener of transactions), ``types``
(JSON and UTC column types), ``text`` (the storable-text rule), ``_translate``
(driver errors → ``StorageError``). Only this package imports ``tables``:
every statement charlotte runs is written here.

The speed machinery is private, each part behind one seam, with a plain
path that its tests compare it against: ``_direct`` (``Direct``: the hot
statements on the driver's cursor; plain: ``Connection.execute``),
``_json_stream`` (a stored JSON array a value at a time, appended to as text;
``ChangeSet.each_op`` and ``ChangeSetStore.extend`` use it; plain:
``types.loads``/``dumps``), ``_shared_drafts`` (``SharedDrafts``: the last
draft per page, decoded and encoded, handed to ``DatabasePageRepository``;
plain: a repository without it decodes and encodes every draft). Their
figures are in ``docs/performance.md`` ("Figures by part").
"""

from __future__ import annotations

from charlotte.storage.change_sets import ChangeSet, ChangeSetStore
from charlotte.storage.conversation import ConversationEntry, ConversationRow, ConversationStore
from charlotte.storage.engine import open_engine, read_connection, transaction
from charlotte.storage.eventlog import DatabaseEventLog, EventLog, count_events
from charlotte.storage.migrate import current_revision, head_revision, migrate
from charlotte.storage.pages import DatabasePageRepository, OpEntry, PageRepository
from charlotte.storage.published_pages import PublishedPageStore, PublishedRow
from charlotte.storage.sessions import SessionRecord, SessionStore
from charlotte.storage.tables import create_tables, drop_tables, metadata
from charlotte.storage.turns import TurnRecord, TurnStore
from charlotte.storage.unit_of_work import UnitOfWork, Units

__all__ = [
    "ChangeSet",
    "ChangeSetStore",
    "ConversationEntry",
    "ConversationRow",
    "ConversationStore",
    "DatabaseEventLog",
    "DatabasePageRepository",
    "EventLog",
    "OpEntry",
    "PageRepository",
    "PublishedPageStore",
    "PublishedRow",
    "SessionRecord",
    "SessionStore",
    "TurnRecord",
    "TurnStore",
    "UnitOfWork",
    "Units",
    "count_events",
    "create_tables",
    "current_revision",
    "drop_tables",
    "head_revision",
    "metadata",
    "migrate",
    "open_engine",
    "read_connection",
    "transaction",
]
