"""Model strings (``Settings.model``) resolved to pydantic-ai models, and provider errors to codes.

Accepted forms::

    openai:<name>                        OpenAI Chat Completions
    openai-responses:<name>              OpenAI Responses API
    anthropic:<name>                     Anthropic Messages
    openai-compatible:<base_url>:<name>  any OpenAI-compatible server (Ollama, vLLM, llama.cpp, ...)
    offline                              charlotte's deterministic offline builder (charlotte.offline)

``Settings.model_base_url`` points ``openai:``, ``openai-responses:`` and
``anthropic:`` elsewhere (a gateway, a test server). API keys come from
``Settings.model_api_key``, else the provider's client reads its own variable
(``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``; charlotte never reads the
environment); a missing one is ``ModelKeyMissing`` naming that variable.
Building a model never touches the network. Each model gets its own HTTP
client with charlotte's bounded retries (``provider_http.py``); the SDKs'
own retries are off.

The provider classes, and the OpenAI and Anthropic client libraries under
them, are imported when a model of theirs is first built: they take most of
a second or more to import, and a host on the offline model (or only one
provider) should not pay for them at ``import charlotte``. The offline
builder is imported the same way (a host on a provider never loads it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

import httpx2
from pydantic_ai.exceptions import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelHTTPError,
    ModelRateLimitError,
    ModelServerError,
    ModelUnavailableError,
    UserError,
)
from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings

from charlotte.errors import (
    CharlotteError,
    ModelCallFailed,
    ModelKeyMissing,
    ModelUnavailable,
    UnknownModel,
)
from charlotte.runtime.provider_http import provider_http_client
from charlotte.settings import Settings

__all__ = ["ModelOptions", "provider_failure", "resolve_model"]

OFFLINE = "offline"
_PORT = re.compile(r"\d+(/|$)")

#: Where each provider's client looks for its key when ``Settings.model_api_key`` is unset.
KEY_VARIABLES: Final = {
    "openai": "OPENAI_API_KEY",
    "openai-responses": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
}

#: The SDK clients retry on their own unless told not to: charlotte's transport does it.
_NO_SDK_RETRIES: Final[ModelSettings] = {"max_retries": 0}


@dataclass(frozen=True, slots=True)
class ModelOptions:
    """What a provider model is built with besides its string (from ``Settings``)."""

    base_url: str | None = None
    api_key: str | None = None
    retries: int = 2
    first_wait: float = 0.5
    max_wait: float = 8.0

    @classmethod
    def of(cls, settings: Settings, *, check: bool = False) -> ModelOptions:
        """The options ``settings`` give (``model_base_url``, ``model_api_key``, the retry settings).

        With ``check`` the model is built once, without the network, so an
        unknown string or a missing key raises here (``UnknownModel``,
        ``ModelKeyMissing``) rather than at the first turn. Each turn builds
        its own model (and HTTP client): each turn runs in its own event loop.
        """
        options = cls(
            base_url=settings.model_base_url,
            api_key=settings.model_api_key,
            retries=settings.model_max_retries,
            first_wait=settings.model_retry_seconds,
            max_wait=settings.model_retry_max_seconds,
        )
        if check:
            resolve_model(settings.model, options)
        return options


def _split_compatible(spec: str, rest: str) -> tuple[str, str]:
    """Split ``<base_url>:<name>`` from the right: the URL itself contains colons."""
    base_url, sep, name = rest.rpartition(":")
    parts = urlsplit(base_url)
    # A "name" that looks like a port means the model name was left out.
    looks_like_port = _PORT.match(name) is not None
    if not sep or not name or looks_like_port or parts.scheme not in {"http", "https"} or not parts.netloc:
        raise UnknownModel(spec)
    return base_url, name


def resolve_model(spec: str, options: ModelOptions | None = None) -> Model:
    """Build the pydantic-ai model a model string names (``offline``: a fresh offline builder).

    >>> resolve_model("openai-compatible:http://localhost:11434/v1:llama3.2").model_name
    'llama3.2'
    """
    if spec == OFFLINE:
        # Like the provider classes, the offline builder (and pydantic-ai's
        # FunctionModel under it) is loaded when first built.
        from charlotte.offline import offline_model

        return offline_model()
    prefix, sep, rest = spec.partition(":")
    if not sep or not rest.strip() or rest != rest.strip():
        raise UnknownModel(spec)
    options = options or ModelOptions()
    if prefix == "openai-compatible":
        base_url, name = _split_compatible(spec, rest)
        # Without a key the provider sends a placeholder, which local servers such as Ollama accept.
        return _openai(spec, name, base_url, options, responses=False)
    if prefix in ("openai", "openai-responses"):
        return _openai(spec, rest, options.base_url, options, responses=prefix == "openai-responses")
    if prefix == "anthropic":
        return _anthropic(spec, rest, options)
    raise UnknownModel(spec)


def _openai(spec: str, name: str, base_url: str | None, options: ModelOptions, *, responses: bool) -> Model:
    from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    client = _http_client(options)
    try:
        provider = OpenAIProvider(base_url=base_url, api_key=options.api_key, http_client=client)
    except UserError as e:
        raise _key_missing(spec) from e
    if responses:
        return OpenAIResponsesModel(name, provider=provider, settings=_NO_SDK_RETRIES)
    return OpenAIChatModel(name, provider=provider, settings=_NO_SDK_RETRIES)


def _anthropic(spec: str, name: str, options: ModelOptions) -> Model:
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    client = _http_client(options)
    try:
        provider = AnthropicProvider(api_key=options.api_key, base_url=options.base_url, http_client=client)
    except UserError as e:
        raise _key_missing(spec) from e
    return AnthropicModel(name, provider=provider, settings=_NO_SDK_RETRIES)


def _http_client(options: ModelOptions) -> httpx2.AsyncClient:
    return provider_http_client(retries=options.retries, first_wait=options.first_wait, max_wait=options.max_wait)


def _key_missing(spec: str) -> CharlotteError:
    variable = KEY_VARIABLES.get(spec.partition(":")[0])
    return ModelKeyMissing(spec, variable) if variable else ModelUnavailable(spec)


def provider_failure(error: ModelAPIError) -> ModelCallFailed:
    """The coded error a provider's failed request becomes (the one place that decides).

    charlotte's transport has already retried what can be retried
    (``provider_http.py``), so what reaches here is the provider's last word.
    A connection that could not be opened in time counts as unavailable; a
    stream that goes quiet is the turn's watch's (``model_timeout``).
    """
    if isinstance(error, ModelAuthenticationError):
        return ModelCallFailed("model_auth_failed")
    if isinstance(error, ModelRateLimitError):
        return ModelCallFailed("model_rate_limited")
    if isinstance(error, ModelUnavailableError | ModelServerError | ModelConnectionError):
        return ModelCallFailed("model_unavailable")
    if isinstance(error, ModelHTTPError):
        if error.status_code in (401, 403):
            return ModelCallFailed("model_auth_failed")
        if error.status_code == 429:
            return ModelCallFailed("model_rate_limited")
        if error.status_code >= 500:
            return ModelCallFailed("model_unavailable")
    return ModelCallFailed("model_rejected")
