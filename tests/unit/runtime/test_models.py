"""resolve_model: model strings to pydantic-ai models, offline, without the network."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.models.openai import OpenAIChatModel

from charlotte.errors import CharlotteError, ModelUnavailable, UnknownModel
from charlotte.offline import OFFLINE_MODEL_NAME
from charlotte.runtime.models import resolve_model


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dummy keys: providers want one at construction; nothing is sent anywhere."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-dummy")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("keys")
def test_openai() -> None:
    model = resolve_model("openai:gpt-4o-mini")

    assert isinstance(model, OpenAIChatModel)
    assert model.model_name == "gpt-4o-mini"
    assert model.base_url.startswith("https://api.openai.com")


@pytest.mark.usefixtures("keys")
def test_anthropic() -> None:
    model = resolve_model("anthropic:claude-sonnet-4-5")

    assert isinstance(model, AnthropicModel)
    assert model.model_name == "claude-sonnet-4-5"


@pytest.mark.usefixtures("no_keys")
def test_openai_compatible_parses_the_url_from_the_right_and_needs_no_key() -> None:
    model = resolve_model("openai-compatible:http://localhost:11434/v1:llama3.2")

    assert isinstance(model, OpenAIChatModel)
    assert model.model_name == "llama3.2"
    assert model.base_url.rstrip("/") == "http://localhost:11434/v1"


@pytest.mark.usefixtures("keys")
def test_openai_compatible_url_may_carry_a_port() -> None:
    model = resolve_model("openai-compatible:https://llm.example.com:8443/v1:qwen2.5")

    assert isinstance(model, OpenAIChatModel)
    assert model.model_name == "qwen2.5"
    assert model.base_url.rstrip("/") == "https://llm.example.com:8443/v1"


@pytest.mark.usefixtures("no_keys")
def test_offline_is_a_fresh_offline_builder_each_time() -> None:
    first, second = resolve_model("offline"), resolve_model("offline")

    assert isinstance(first, FunctionModel)
    assert first.model_name == OFFLINE_MODEL_NAME
    assert first is not second


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize(
    "spec",
    [
        "",
        "gpt-4o",
        "openai:",
        "openai: ",
        "anthropic:",
        "google:gemini",
        "OpenAI:gpt-4o",
        "openai-compatible:",
        "openai-compatible:llama3.2",
        "openai-compatible:http://localhost:11434/v1",
        "openai-compatible:http://localhost:11434/v1:",
        "openai-compatible:localhost:11434:llama3.2",
        "openai-compatible:ftp://host/v1:llama3.2",
        "offline:x",
    ],
)
def test_bad_specs_are_unknown_model(spec: str) -> None:
    with pytest.raises(UnknownModel) as caught:
        resolve_model(spec)
    assert isinstance(caught.value, CharlotteError)
    assert caught.value.code == "unknown_model"


@pytest.mark.usefixtures("no_keys")
@pytest.mark.parametrize("spec", ["openai:gpt-4o-mini", "anthropic:claude-sonnet-4-5"])
def test_missing_key_is_model_unavailable(spec: str) -> None:
    with pytest.raises(ModelUnavailable) as caught:
        resolve_model(spec)
    assert caught.value.code == "model_unavailable"
    assert str(caught.value) == f"model_unavailable: {spec!r}"


PROVIDER_SDKS = ("openai", "anthropic", "pydantic_ai.models.openai", "pydantic_ai.models.anthropic")


def _loaded_after(code: str) -> list[str]:
    """The provider modules a fresh interpreter holds after running ``code``."""
    probe = f"import sys\n{code}\nprint(','.join(m for m in {PROVIDER_SDKS!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    return [name for name in done.stdout.strip().split(",") if name]


def test_import_charlotte_loads_no_provider_sdk() -> None:
    # The client libraries cost seconds to import; a host pays only for the provider it uses.
    assert _loaded_after("import charlotte; import charlotte.runtime.models") == []


def test_building_an_openai_model_loads_only_openai() -> None:
    code = "from charlotte.runtime.models import resolve_model; resolve_model('openai-compatible:http://127.0.0.1:9/v1:m')"
    assert _loaded_after(code) == ["openai", "pydantic_ai.models.openai"]
