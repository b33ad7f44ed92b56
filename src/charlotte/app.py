"""``Charlotte``: what a host builds once and asks for sessions.

>>> charlotte = Charlotte(Settings(database_url="sqlite:///./.charlotte/charlotte.db"))  # doctest: +SKIP
>>> charlotte.migrate()                                                                  # doctest: +SKIP
>>> charlotte.authorize_using(lambda user, ability, session: user.is_staff)              # doctest: +SKIP
>>> handle = (charlotte.for_user(user).tenant("acme").page("home")                       # doctest: +SKIP
...           .brief("A landing page for our bakery").open())
>>> charlotte.find(handle.id, "acme", user=user).draft()["revision"]                     # doctest: +SKIP
0

One ``Charlotte`` owns its engine, workspace, page tools, turns, queue,
runner, sweeper, guide and mode registry; nothing is process-global, so two
instances on different databases in one process never see each other.

**The default authorizer allows every ability to any user the host resolved
(anyone who is not None), and ``read_published`` to anyone.** A host with
more than one kind of user must install its own with ``authorize_using``.

A site serves what was published with ``published_page(tenant, page)`` (one
indexed read, a render cache per instance) and learns of each publish with
``on_publish`` (``docs/hosting.md``).

The queue follows ``settings.queue``: ``inline`` runs a turn inside ``send``;
``thread`` runs turns on ``settings.thread_workers`` threads of this process
(and a sweeper fails turns whose heartbeat stopped); ``celery`` sends turn ids
to ``settings.broker_url``, and worker processes run them.

Turns left queued (a process died, or its claims kept failing) are handed
over again by the sweeper (``thread``: at start everything queued before this
instance, then what waited longer than the heartbeat timeout; ``celery``: the
workers' sweepers re-send the latter). The claim runs a turn delivered twice
once, so several processes may share a database (``runtime/sweeper.py``).

A worker process builds the same ``Charlotte`` as the web process, with the
same hooks (modes, asset library, page repository, ``context_using``), and
runs ``worker_app()``: the Celery app whose task runs each turn through *this
instance's* runner, so the host's modes and per-turn caps apply on workers
too. ``worker_app()`` also starts this instance's sweeper (a worker that died
leaves a stale heartbeat; any live worker ends that turn ``worker_lost``)::

    charlotte = build_charlotte()        # the host's one setup function (README)
    charlotte.worker_app().worker_main(["worker", "--loglevel=INFO"])
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any, Final

from charlotte.access import (
    ABILITIES,
    Authorizer,
    OpenRequest,
    PublishedRequest,
    SessionBuilder,
    actor_of,
    published_key,
    valid_tenant,
)
from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.published import PublishedPage, PublishedPages, PublishHook
from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.errors import Refused
from charlotte.events import EventTypes, NewEvent, utc_now
from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary
from charlotte.policy.text import is_person_text
from charlotte.runtime.guide import build_guide
from charlotte.runtime.models import ModelOptions, resolve_model
from charlotte.runtime.modes import ModeRegistry
from charlotte.runtime.notifier import Notifier
from charlotte.runtime.queues import InlineQueue, ThreadQueue, TurnQueue
from charlotte.runtime.runner import TurnContextFactory, TurnRunner
from charlotte.runtime.sweeper import Sweeper
from charlotte.runtime.turns import Turns
from charlotte.session import CharlotteSession
from charlotte.settings import Settings
from charlotte.storage import PageRepository, SessionRecord
from charlotte.storage import migrate as migrate_database
from charlotte.tools import PageTools

__all__ = ["Charlotte", "PublishHook", "PublishedPage", "Resolver", "SessionBuilder"]

_MAX_SESSION_ID: Final = 64

#: Resolves the host's user (or tenant) from the host's request object.
Resolver = Callable[[Any], Any]


def _allow_resolved_users(user: object, ability: str, session: object) -> bool:
    # The documented default: any user the host resolved may do everything, and
    # anyone (signed in or not) may read what was published.
    return user is not None or ability == "read_published"


def _no_one(request: object) -> None:
    return None


class Charlotte:
    """The host's entry point: settings in, sessions out (see module docstring)."""

    def __init__(
        self,
        settings: Settings,
        *,
        page_repository: PageRepository | None = None,
        assets: AssetLibrary | None = None,
        model_factory: Callable[[], Any] | None = None,
    ) -> None:
        self.settings = settings
        # Fail fast, no network (UnknownModel, ModelKeyMissing), unless the host brings its model.
        self._model_options = ModelOptions.of(settings, check=model_factory is None)
        # Turns queued before this moment wait in no queue of this instance (see _sweeper).
        self._born = utc_now()
        self.engine = settings.open_engine()
        self.assets: AssetLibrary = assets if assets is not None else InMemoryAssetLibrary()
        self.workspace = Workspace(
            self.engine,
            pages=page_repository,
            assets=self.assets,
            links=SiteLinks(settings.site_origin, settings.allowed_origins),
        )
        #: Where a request opens its unit of work (``charlotte.storage.unit_of_work``).
        self.units = self.workspace.units
        self._published = PublishedPages(
            self.workspace.pages, assets=self.assets, site_origin=settings.site_origin
        )
        self.change_sets = ChangeSets(self.workspace)
        self.tools = PageTools(self.workspace, change_sets=self.change_sets)
        self.modes = ModeRegistry()
        self._guide = build_guide(settings.brand_rules)
        self._authorize: Authorizer = _allow_resolved_users
        self._resolve_user: Resolver = _no_one
        self._resolve_tenant: Resolver = _no_one
        self._lock = threading.Lock()
        self._started = False
        self._closed = False
        self._notifier: Notifier | None = None
        self.queue: TurnQueue = self._make_queue()
        self.turns = Turns(
            self.engine,
            self.queue,
            heartbeat_timeout=timedelta(seconds=settings.heartbeat_timeout_seconds),
        )
        self.runner = TurnRunner(
            engine=self.engine,
            settings=settings,
            tools=self.tools,
            turns=self.turns,
            model_factory=model_factory or self._default_model,
            guide=lambda: self._guide,
            modes=self.modes,
        )
        # Only an in-process worker pool needs this process to sweep for it
        # (and to re-deliver what was queued before it started: a dead
        # process's turns, or a live one's, which the claim runs once);
        # a Celery worker process gets its sweeper from worker_app().
        self.sweeper: Sweeper | None = (
            Sweeper(
                self.turns,
                interval_seconds=settings.heartbeat_timeout_seconds / 2,
                redeliver=self.turns,
                recover_before=self._born,
            )
            if settings.queue == "thread"
            else None
        )

    # -- host hooks (each returns self, for chaining) -------------------------------

    def authorize_using(self, authorizer: Authorizer) -> Charlotte:
        """Install ``fn(user, ability, session) -> bool`` (abilities: ``ABILITIES``)."""
        self._authorize = _callable(authorizer)
        return self

    def resolve_user_using(self, resolver: Resolver) -> Charlotte:
        """Install ``fn(request) -> user | None`` (None answers 401)."""
        self._resolve_user = _callable(resolver)
        return self

    def resolve_tenant_using(self, resolver: Resolver) -> Charlotte:
        """Install ``fn(request) -> tenant | None``: the tenant comes from the request, never the body."""
        self._resolve_tenant = _callable(resolver)
        return self

    def context_using(self, factory: TurnContextFactory) -> Charlotte:
        """Install the per-turn ``TurnContextFactory`` (e.g. billing caps) of this process's runner."""
        if not callable(getattr(factory, "for_turn", None)):
            raise TypeError("a context factory needs a for_turn(session, turn) method")
        self.runner.context_factory = factory
        return self

    def resolve_user(self, request: object) -> Any:
        """The host's user for ``request`` (the ``resolve_user_using`` hook), or None."""
        return self._resolve_user(request)

    def resolve_tenant(self, request: object) -> str | None:
        """The tenant for ``request`` (the ``resolve_tenant_using`` hook); None unless a valid key."""
        tenant = self._resolve_tenant(request)
        return tenant if valid_tenant(tenant) else None

    def on_publish(self, hook: PublishHook) -> Charlotte:
        """Install ``fn(tenant, page, revision)``, called once after each publish commits (a failure undoes nothing)."""
        self.workspace.publish_hooks.add(_callable(hook))
        return self

    def allows(
        self, user: object, ability: str, session: SessionRecord | OpenRequest | PublishedRequest
    ) -> bool:
        """Ask the host's authorizer; anything but ``True`` is a no."""
        if ability not in ABILITIES:
            raise ValueError(f"unknown ability {ability!r}")
        return self._authorize(user, ability, session) is True

    # -- sessions --------------------------------------------------------------------

    def for_user(self, user: object) -> SessionBuilder:
        """Start opening a session as ``user``: ``.tenant(t).page(p).brief(b)…open()``."""
        return SessionBuilder(self, user)

    def find(self, session_id: str, tenant: str, *, user: object = None) -> CharlotteSession | None:
        """A handle on the session, or None when there is none with this id in ``tenant``."""
        if not valid_tenant(tenant) or not _valid_session_id(session_id):
            return None
        self._start()
        with self.units.reading() as conn:
            record = self.units.sessions.get(conn, session_id, tenant)
        return None if record is None else CharlotteSession(self, record.id, record.tenant, user)

    # -- published pages (docs/hosting.md) ---------------------------------------------

    def published_page(self, tenant: str, page: str) -> PublishedPage | None:
        """The page's published copy as a site serves it; None before its first publish.

        One indexed read (a render cache holds each revision made); a page key of
        another shape is ``invalid_page_key``, a tenant that is no key ``invalid_request``.
        """
        found = self.published_document(tenant, page)
        return None if found is None else found[0]

    async def published_page_async(self, tenant: str, page: str) -> PublishedPage | None:
        """``published_page`` for async code: the read runs in a worker thread."""
        return await asyncio.to_thread(self.published_page, tenant, page)

    def published_document(self, tenant: str, page: str) -> tuple[PublishedPage, str] | None:
        """``published_page`` and the standalone HTML document of that revision (``published.html``)."""
        key = published_key(tenant, page)
        with self.units.reading() as conn:
            return self._published.read(conn, key.tenant, key.page)

    def published_pages(self, tenant: str) -> list[dict[str, Any]]:
        """``[{page, revision, published_at}]`` of the tenant's published pages, by key (a sitemap)."""
        if not valid_tenant(tenant):
            raise Refused("invalid_request", detail={"field": "tenant"})
        with self.units.reading() as conn:
            return self._published.listing(conn, tenant)

    def guide(self) -> tuple[str, str]:
        """The builder guide's ``(text, hash)``; sessions remember the hash they were opened with."""
        return self._guide.text, self._guide.hash

    # -- lifecycle -------------------------------------------------------------------

    def migrate(self) -> None:
        """Create or upgrade charlotte's tables in this instance's database."""
        migrate_database(self.engine)
        self._start()

    def worker_app(self) -> Any:
        """The Celery app a worker process runs: its task runs each turn with this instance's runner.

        Needs ``settings.queue == "celery"`` (``ValueError`` otherwise; such
        a ``Charlotte`` was only built with a ``broker_url``). The first call
        starts this instance's sweeper; later calls return the same app.
        ``close()`` stops the sweeper.
        """
        if self.settings.queue != "celery":
            raise ValueError(
                f"worker_app needs settings.queue == 'celery', not {self.settings.queue!r}"
            )
        # Imported here: Celery is an optional extra.
        from charlotte.contrib.celery import CeleryQueue, in_each_pool_process

        queue = self.queue
        assert isinstance(queue, CeleryQueue)
        with self._lock:
            if self._closed:
                raise RuntimeError("this Charlotte is closed")
            if self.sweeper is not None:
                return queue.app
            # A prefork pool forks after this process has used the engine (the
            # sweeper sweeps here): each pool process must drop the pooled
            # connections it inherited and open its own.
            in_each_pool_process(self, _drop_inherited_connections)
            self._started = True
            # Every worker sweeps, so a dead one is noticed by the others. The
            # broker holds queued turns; one still queued after the heartbeat
            # timeout is sent again (a lost message; a duplicate is a no-op).
            self.sweeper = Sweeper(
                self.turns,
                interval_seconds=max(1.0, self.settings.heartbeat_timeout_seconds / 4),
                redeliver=self.turns,
            )
            self.sweeper.start()
        return queue.app

    def asgi_app(self) -> Any:
        """The Starlette app for this instance (``charlotte.http.asgi.create_app``)."""
        # Imported here (the one upward import): only the adapter loads Starlette.
        from charlotte.http.asgi import create_app

        self._start()
        return create_app(self)

    @property
    def notifier(self) -> Notifier:
        """The one event notifier of this instance (live streams), made on first use."""
        with self._lock:
            if self._notifier is None:
                self._notifier = Notifier(self.engine)
            return self._notifier

    def close(self) -> None:
        """Stop the sweeper and the notifier, let worker threads finish their turns, dispose the engine."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            notifier = self._notifier
            # Read under the lock: once closed, neither _start nor worker_app starts one.
            sweeper = self.sweeper
        if notifier is not None:
            # Open streams end now instead of at the server's shutdown timeout.
            notifier.close()
        if sweeper is not None:
            sweeper.stop()
        if isinstance(self.queue, ThreadQueue):
            self.queue.close()
        self.engine.dispose()

    def __enter__(self) -> Charlotte:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- internals -------------------------------------------------------------------

    def _start(self) -> None:
        # The sweeper starts on first use, not in __init__: before migrate()
        # there are no tables to sweep. It starts under the lock, so close()
        # never misses one that is starting.
        with self._lock:
            if self._started or self._closed:
                return
            self._started = True
            if self.sweeper is not None:
                self.sweeper.start()

    def _make_queue(self) -> TurnQueue:
        queue = self.settings.queue
        if queue == "inline":
            return InlineQueue(self._run)
        if queue == "thread":
            return ThreadQueue(self._run, workers=self.settings.thread_workers)
        # Imported here: Celery is an optional extra.
        from charlotte.contrib.celery import CeleryQueue, celery_app

        # One app both publishes (web) and consumes (worker_app): its task runs
        # this instance's runner, never one built from the settings alone.
        return CeleryQueue(celery_app(self.settings, lambda: self._run))

    def _run(self, turn_id: str) -> None:
        self.runner.run(turn_id)

    def _default_model(self) -> Any:
        return resolve_model(self.settings.model, self._model_options)

    def _open(self, user: object, request: OpenRequest) -> CharlotteSession:
        try:
            self.modes.resolve(request.mode, self._guide)
        except Refused:
            raise Refused("invalid_request", detail={"field": "mode"}) from None
        if not self.allows(user, "open", request):
            raise Refused("unauthorized" if user is None else "forbidden")
        actor = actor_of(user)
        self._start()
        guide_hash = self._guide.hash
        with self.units.write(None, request.tenant) as unit:
            sessions = self.units.sessions
            record = sessions.create(
                unit.conn,
                tenant=request.tenant,
                page=request.page,
                created_by=actor,
                brief=request.brief,
                facts=dict(request.facts) or sessions.page_facts(unit.conn, request.tenant, request.page),
                mode=request.mode,
                approve_on_save=request.approve_on_save,
                guide_hash=guide_hash,
            )
            unit.adopt(record)
            opened = {
                "page": record.page,
                "mode": record.mode,
                "approve_on_save": record.approve_on_save,
                "guide_hash": guide_hash,
            }
            unit.emit(NewEvent(EventTypes.SESSION_OPENED, opened, actor))
        return CharlotteSession(self, record.id, record.tenant, user)


def _drop_inherited_connections(charlotte: Charlotte) -> None:
    # close=False: the connections belong to the parent process, which keeps using them.
    charlotte.engine.dispose(close=False)


def _valid_session_id(session_id: object) -> bool:
    # A NUL names no stored session (PostgreSQL cannot even compare with one).
    return (
        isinstance(session_id, str)
        and 1 <= len(session_id) <= _MAX_SESSION_ID
        and is_person_text(session_id)
    )


def _callable(hook: Any) -> Any:
    if not callable(hook):
        raise TypeError("a hook must be callable")
    return hook
