"""``manage.py charlotte_migrate``: create or upgrade charlotte's tables (its own migrations).

charlotte's tables are not Django models: they live in the database the
``CHARLOTTE`` setting names (on PostgreSQL, in ``database_schema``, which this
creates), and Alembic migrates them. Django's ``migrate`` only stores the
``charlotte.*`` permissions.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from charlotte.contrib.django.instance import charlotte_settings
from charlotte.errors import StorageError
from charlotte.storage import head_revision
from charlotte.storage import migrate as run_migrations


class Command(BaseCommand):  # type: ignore[misc]  # Django ships no type hints
    help = "Create or upgrade charlotte's tables in the database of settings.CHARLOTTE."

    def handle(self, *args: Any, **options: Any) -> None:
        engine = charlotte_settings().open_engine()
        try:
            run_migrations(engine)
        except StorageError as error:
            raise CommandError(f"migration failed ({error.code})") from None
        finally:
            engine.dispose()
        self.stdout.write(f"charlotte tables at revision {head_revision()}")
