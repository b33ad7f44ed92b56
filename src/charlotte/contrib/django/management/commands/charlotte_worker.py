"""``manage.py charlotte_worker``: a Celery worker running turns with this project's ``Charlotte``.

The worker is the process's one ``Charlotte`` (``get_charlotte``: the
``CHARLOTTE`` settings and the ``CHARLOTTE_FACTORY`` hooks, exactly as the web
processes build it), so the host's modes, assets and caps apply to every
turn. Needs ``CHARLOTTE["queue"] == "celery"`` and a ``broker_url``.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from charlotte.contrib.django.instance import charlotte_settings, close_charlotte, get_charlotte


class Command(BaseCommand):  # type: ignore[misc]  # Django ships no type hints
    help = "Run a Celery worker for charlotte's turn queue (with a sweeper)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--concurrency", type=int, default=2, help="Worker processes (default 2)."
        )
        parser.add_argument("--pool", default=None, help="Celery pool (prefork, solo, threads).")
        parser.add_argument("--loglevel", default="INFO")

    def handle(self, *args: Any, **options: Any) -> None:
        settings = charlotte_settings()
        if settings.queue != "celery" or not settings.broker_url:
            raise CommandError(
                'charlotte_worker needs CHARLOTTE["queue"] = "celery" and a broker_url'
            )
        concurrency = options["concurrency"]
        if type(concurrency) is not int or concurrency < 1:
            raise CommandError("--concurrency must be at least 1")
        argv = ["worker", f"--concurrency={concurrency}", f"--loglevel={options['loglevel']}"]
        if options["pool"]:
            argv.append(f"--pool={options['pool']}")
        charlotte = get_charlotte()
        try:
            charlotte.worker_app().worker_main(argv)
        finally:
            close_charlotte()
