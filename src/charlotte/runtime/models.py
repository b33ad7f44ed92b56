"""Model strings (``Settings.model``) resolved to pydantic-ai models.

Accepted forms::

    openai:<name>                        OpenAI chat completions
    anthropic:<name>                     Anthropic messages
    openai-compatible:<base_url>:<name>  any OpenAI-compatible server (Ollama, vLLM, ...)
    offline                              charlotte's deterministic offline builder (charlotte.offline)

API keys come from the providers' usual environment variables
(``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``). Building a model never touches the
network.

The provider classes, and the OpenAI and Anthropic client libraries under
them, are imported when a model of theirs is first built: they take most of
a second or more to import, and a host on the offline model (or only one
provider) should not pay for them at ``import charlotte``.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from pydantic_ai.exceptions import UserError
from pydantic_ai.models import Model

from charlotte.errors import ModelUnavailable, UnknownModel
from charlotte.offline import offline_model

__all__ = ["resolve_model"]

OFFLINE = "offline"
_PORT = re.compile(r"\d+(/|$)")


def _split_compatible(spec: str, rest: str) -> tuple[str, str]:
    """Split ``<base_url>:<name>`` from the right: the URL itself contains colons."""
    base_url, sep, name = rest.rpartition(":")
    parts = urlsplit(base_url)
    # A "name" that looks like a port means the model name was left out.
    looks_like_port = _PORT.match(name) is not None
    if not sep or not name or looks_like_port or parts.scheme not in {"http", "https"} or not parts.netloc:
        raise UnknownModel(spec)
    return base_url, name


def resolve_model(spec: str) -> Model:
    """Build the pydantic-ai model a model string names (``offline``: a fresh offline builder).

    >>> resolve_model("openai-compatible:http://localhost:11434/v1:llama3.2").model_name
    'llama3.2'
    """
    if spec == OFFLINE:
        return offline_model()
    prefix, sep, rest = spec.partition(":")
    if not sep or not rest.strip() or rest != rest.strip():
        raise UnknownModel(spec)
    try:
        if prefix == "openai":
            from pydantic_ai.models.openai import OpenAIChatModel
            from pydantic_ai.providers.openai import OpenAIProvider

            return OpenAIChatModel(rest, provider=OpenAIProvider())
        if prefix == "anthropic":
            from pydantic_ai.models.anthropic import AnthropicModel
            from pydantic_ai.providers.anthropic import AnthropicProvider

            return AnthropicModel(rest, provider=AnthropicProvider())
        if prefix == "openai-compatible":
            base_url, name = _split_compatible(spec, rest)
            from pydantic_ai.models.openai import OpenAIChatModel
            from pydantic_ai.providers.openai import OpenAIProvider

            # Without OPENAI_API_KEY the provider sends a placeholder key, which
            # local servers such as Ollama accept.
            return OpenAIChatModel(name, provider=OpenAIProvider(base_url=base_url))
    except UserError as e:
        raise ModelUnavailable(spec) from e
    raise UnknownModel(spec)
