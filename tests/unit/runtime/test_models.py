"""resolve_model: model strings to pydantic-ai models, offline, without the network."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel

from charlotte.app import Charlotte
from charlotte.errors import CharlotteError, ModelKeyMissing, UnknownModel
from charlotte.offline import OFFLINE_MODEL_NAME
from charlotte.runtime.models import ModelOptions, resolve_model
from charlotte.settings import Settings


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
def test_openai_responses() -> None:
    model = resolve_model("openai-responses:gpt-4.1")

    assert isinstance(model, OpenAIResponsesModel)
    assert model.model_name == "gpt-4.1"
    assert model.base_url.startswith("https://api.openai.com")


@pytest.mark.usefixtures("no_keys")
@pytest.mark.parametrize("spec", ["openai:gpt-4o", "openai-responses:gpt-4.1", "anthropic:claude-sonnet-4-5"])
def test_model_base_url_and_key_come_from_the_settings(spec: str) -> None:
    model = resolve_model(spec, ModelOptions(base_url="http://127.0.0.1:9/v1", api_key="sk-from-settings"))

    assert model.base_url.rstrip("/") == "http://127.0.0.1:9/v1"


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
        "nosuch",
        "openai-responses:",
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
@pytest.mark.parametrize(
    ("spec", "variable"),
    [
        ("openai:gpt-4o-mini", "OPENAI_API_KEY"),
        ("openai-responses:gpt-4.1", "OPENAI_API_KEY"),
        ("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
    ],
)
def test_a_missing_key_is_named_with_the_variable_to_set(spec: str, variable: str) -> None:
    with pytest.raises(ModelKeyMissing) as caught:
        resolve_model(spec)
    assert (caught.value.code, caught.value.variable) == ("model_key_missing", variable)
    assert str(caught.value) == f"model_key_missing: {spec!r} (set {variable} or Settings.model_api_key)"


@pytest.mark.usefixtures("no_keys")
@pytest.mark.parametrize(
    ("model", "error"),
    [("nosuch", UnknownModel), ("openai:", UnknownModel), ("anthropic:claude-sonnet-4-5", ModelKeyMissing)],
)
def test_charlotte_fails_fast_at_construction(tmp_path: object, model: str, error: type[Exception]) -> None:
    # No turn, no network: the model string and the key are checked when charlotte is built.
    with pytest.raises(error):
        Charlotte(Settings(database_url="sqlite:///:memory:", queue="inline", model=model))


@pytest.mark.usefixtures("no_keys")
def test_a_key_in_the_settings_needs_no_variable() -> None:
    charlotte = Charlotte(
        Settings(database_url="sqlite:///:memory:", queue="inline", model="openai:gpt-4o", model_api_key="sk-x")
    )
    charlotte.close()


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


LOADED_WHEN_USED = ("alembic", "jsonschema", "charlotte.offline", "pydantic_ai.models.function")


def test_import_charlotte_loads_what_only_some_paths_use_when_they_use_it() -> None:
    # Alembic (migrate), jsonschema (a failed argument check, schema_errors),
    # the offline builder (the offline model): each is paid for by its first use.
    # The app itself (``import charlotte`` alone loads its names on first use).
    probe = (
        "import sys\nfrom charlotte import Charlotte\nimport charlotte.runtime.models\n"
        f"print(','.join(m for m in {LOADED_WHEN_USED!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == ""
