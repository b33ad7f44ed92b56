// The JSON API: one request helper, the CSRF header a host may ask for, and
// the plain words for the codes people meet most.

/** An error answer of the API: its stable code and the sentence to show. */
export class ApiError extends Error {
  constructor(code, message, status, body = null) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
    this.body = body;
  }
}

// Plain words for the codes people meet most; any other code is shown as is.
const CODE_TEXT = {
  checks_failing: "the page checks found problems",
  stale_revision: "the page changed meanwhile",
  invalid_arguments: "the request was malformed",
  output_limit: "the reply grew too long",
  worker_lost: "the worker running it stopped",
  queue_lost: "the queue lost the turn before it started",
  model_timeout: "the model stopped answering",
  // The one failure a person can fix by hand: say which setting holds the key.
  model_auth_failed:
    "the model provider refused its API key. Set model_api_key in charlotte's settings " +
    "(or OPENAI_API_KEY / ANTHROPIC_API_KEY where charlotte runs) to a valid key, then restart",
  model_key_missing: "the model provider has no API key (set model_api_key in charlotte's settings)",
  model_rate_limited: "the model provider is rate limiting requests; try again in a little while",
  model_unavailable: "the model provider could not be reached; try again later",
  model_rejected: "the model provider refused the request (check the model name and base URL)",
  turn_timeout: "the turn ran out of time",
  cross_site: "the request came from another site",
  guide_mode_stale: "the builder guide changed since the session opened",
  run_failed: "the model run failed",
  node_not_found: "a node it named does not exist",
};

/** The words for a code: CODE_TEXT's, else the code with spaces. */
export function codeText(code) {
  if (typeof code !== "string" || !code) return "something went wrong";
  return CODE_TEXT[code] || code.replaceAll("_", " ");
}

/** A URL relative to the page, so a host may mount the builder under a prefix. */
export function endpoint(path) {
  return new URL(path, document.baseURI).toString();
}

export function sessionPath(id, rest = "") {
  return `sessions/${encodeURIComponent(id)}${rest}`;
}

// A host that checks its own CSRF token (the Django app) puts it in
// <meta name="charlotte-csrf" content="…" data-header="X-CSRFToken">;
// every write sends it back in that header.
function addCsrfHeader(headers) {
  const meta = document.querySelector('meta[name="charlotte-csrf"]');
  if (meta && meta.content && meta.dataset.header) headers[meta.dataset.header] = meta.content;
}

/** One JSON request; resolves to the body, rejects with an ApiError. */
export async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  // Every POST says it is JSON, bodiless ones too: the server refuses any
  // other write (another site's page could send those without asking).
  if (body !== undefined || method !== "GET") init.headers["Content-Type"] = "application/json";
  if (method !== "GET") addCsrfHeader(init.headers);
  if (body !== undefined) init.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(endpoint(path), init);
  } catch {
    throw new ApiError("network", "Could not reach the server. Check the connection and try again.", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && typeof data === "object" ? data.error : null;
    const code = error && typeof error.code === "string" ? error.code : `http_${response.status}`;
    const message =
      error && typeof error.message === "string" && error.message
        ? error.message
        : `The server answered with status ${response.status}.`;
    throw new ApiError(code, message, response.status, error);
  }
  return data;
}
