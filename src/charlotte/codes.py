"""Every code a host, a person or the model can see, with its one fixed sentence, by where it comes from.

``charlotte.errors`` builds ``MESSAGES`` from these tables (and from the
docstrings of the exceptions with one code) and draws each coded class's
``CODES`` from them; ``docs/errors.md`` lists them all. A leaf: it imports
nothing of charlotte.
"""

from __future__ import annotations

from typing import Final

__all__ = ["COMMAND", "MODEL", "OUTCOMES", "PAGE", "REFUSALS", "STORAGE", "TOOLS"]

#: "Not allowed": the codes a ``Refused`` carries.
REFUSALS: Final = {
    "forbidden": "You are not allowed to do this.",
    "not_found": "The requested item does not exist.",
    "busy": "The session is busy with another turn; try again when it is idle.",
    "unsafe_link": "The link is not safe: use a relative path, #fragment, http(s), mailto or tel link.",
    "external_link": "The link points to a site that is not on this site's list of allowed origins.",
    "authored_asset": "Images must use an asset from the site's asset library, not an authored URL.",
    "asset_dimensions": "Image dimensions come from the asset library and cannot be set by hand.",
    "css_fetch": "Style values may not load or run anything (url(), image-set(), @import and similar).",
    "css_escape": "Style values may not contain backslash escapes.",
    "css_comment": "Style values may not contain comments.",
    "css_invalid": "Style values must be a single plain CSS value without ; { } < > or control characters.",
    "guide_mode_stale": "The page guide or mode changed; reload the session before continuing.",
    "body_too_large": "The request body is too large.",
    "invalid_json": "The request body is not valid JSON.",
    "invalid_request": "The request is not valid.",
    "invalid_cases": "The evaluation cases file is not valid.",
    "invalid_page_key": "Page keys must be 1 to 200 letters, digits, '.', '_' or '-', starting with a letter or digit.",
    "method_not_allowed": "That method is not allowed on this path; the Allow header lists the ones that are.",
    "no_open_change_set": "There is no open change set to approve or reject.",
    "revision_unknown": (
        "That revision no longer names a version of the page (a change set was resolved "
        "since); read the page again with cms_get and go on from the revision it gives."
    ),
    "publish_refused": "The page cannot be published in its current state.",
    "unauthorized": "You need to sign in to do this.",
    "unsupported_media_type": "The request must be sent as application/json.",
    "cross_site": "Requests sent from another site's page are not accepted here.",
    "checks_failing": "The page still has errors that must be fixed first.",
    "usage_limit": "The turn reached its usage limit.",
    "rate_limited": "Too many tool calls in the last minute; wait a little and call again.",
    "conflicted": "Later edits changed the same parts of the page; undo or change those first.",
    "already_undone": "That turn was already undone.",
    "not_own_edit": "Only your own edits can be undone this way; an agent turn has its own undo.",
    "nothing_to_build": "The brief and the facts give nothing that section could show; add facts first.",
    "empty_page": "An empty page cannot be published; add a section first.",
    "quality_gate": (
        "The page has quality errors a visitor would meet (such as placeholders or text too "
        "faint to read); fix them, or publish anyway naming their codes in override."
    ),
}

#: The codes of ``PageSessionError``: an op batch or a stored document that is not valid.
PAGE: Final = {
    "stale_revision": "The page changed since the revision you based this on; read the changes and retry.",
    "history_truncated": "That revision is too old; read the whole page again.",
    "node_not_found": "No node with that id exists on the page.",
    "duplicate_id": "A node with that id already exists on the page.",
    "parent_not_found": "The parent node does not exist on the page.",
    "cycle": "That move would put a node inside itself.",
    "not_a_container": "That node cannot hold other nodes; put it inside a section, frame, stack, grid or card.",
    "invalid_reorder": "The new order must list every top-level section exactly once.",
    "unknown_op": "That operation is not known.",
    "type_not_allowed": "That node type is not allowed.",
    "invalid_props": "The node properties are not valid for its type.",
    "invalid_style": "The style or constraint values are not valid.",
    "invalid_id": "Node ids must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit.",
    "limit_exceeded": "The change goes over a page limit (nodes, depth, operations or value length).",
    "invalid_state": "The stored page is damaged and cannot be edited.",
}

#: The codes of ``StorageError`` (``not_found`` is shared with ``Refused``: the same sentence fits).
STORAGE: Final = {
    "conflict": "A row with the same key already exists.",
    "integrity": "A stored value broke a constraint of the schema.",
    "database_busy": "The database was busy or locked; retry the transaction.",
    "unavailable": "The database could not be reached.",
    "invalid_value": "A value could not be stored (not JSON-serialisable, or out of range).",
    "not_found": REFUSALS["not_found"],
    "unknown_event_type": "The event type is not one of EventTypes.ALL.",
    "unsupported_database": "Only sqlite:/// and postgresql+psycopg:// URLs are supported.",
    "database_path": "The SQLite database path is a folder, or its folder cannot be created.",
    "driver_missing": "The PostgreSQL driver is not installed: pip install 'charlotte[postgres]'.",
    "storage_error": "The database refused the operation.",
}

#: How a turn can end ``failed`` besides an error's own code (``run.failed``), and the API's 500.
OUTCOMES: Final = {
    "run_failed": "The turn could not be completed.",
    "output_limit": "The response was cut short because it reached the output limit.",
    "model_timeout": "The model sent nothing for too long; the turn was ended.",
    "turn_timeout": "The turn ran longer than it may; it was ended.",
    "worker_lost": "The worker running this turn stopped; the turn was not finished.",
    "queue_lost": "The turn waited in a queue that lost it and no queue would take it again.",
    "internal": "Something went wrong on our side; please try again.",
}

#: How the model's provider ended a turn's request (``ModelCallFailed``), after charlotte's retries.
MODEL: Final = {
    "model_auth_failed": "The model's provider refused the API key; set a valid Settings.model_api_key.",
    "model_rate_limited": "The model's provider is rate limiting requests; try again in a little while.",
    "model_unavailable": "The model's provider could not be reached or set up; try again later.",
    "model_rejected": "The model's provider refused the request; check the model name and base URL.",
}

#: What a ``tool.result`` can say besides the codes above.
TOOLS: Final = {
    "unknown_tool": "There is no tool with that name.",
    "tool_failed": "The tool call failed.",
    "tool_denied": "The tool call was not allowed to run.",
    "tool_interrupted": "The tool call was interrupted before it finished.",
}

#: What the ``charlotte`` command line says besides the codes above (never an API body or event).
COMMAND: Final = {
    "invalid_option": "A command-line option or argument has a value the command cannot use; see its --help.",
    "extra_missing": "This command needs an optional part of charlotte that is not installed.",
    "listen_failed": "The server could not listen on that host and port.",
    "write_failed": "A file the command writes could not be written.",
    "interrupted": "The command was interrupted before it finished.",
}
