"""The node-type catalogue and the style vocabulary every PageSession validates against.

``NodeTypes.allowed()`` is the one catalogue charlotte uses. It is also what the
``cms_types`` tool shows the model (``NodeTypes.describe()``), so the bounds it
lists are exactly the bounds ``PageSession`` enforces.

Required props (a node without them is refused): ``text``, ``heading``,
``callout`` and ``code`` need ``content``; ``link`` needs ``content`` and
``href``; ``button`` needs ``label``; ``image`` needs ``asset``. Everything else
is optional. Prop values are literals of the declared JSON type (no ``$bind``
bindings: charlotte renders static pages). ``richtext`` can never be part of a
catalogue: it is refused for every actor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, Literal

#: Node id shape: ASCII, starts with a letter or digit, at most 64 characters.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"

#: Never in any catalogue, for any actor.
FORBIDDEN_TYPES = frozenset({"richtext"})

MAX_NODES = 2_000
MAX_DEPTH = 12  # a root is at depth 1
MAX_OPS_PER_APPLY = 200
MAX_STYLE_STRING = 200
MAX_NUMBER = 100_000  # |value| of any style/constraint number
MAX_DECIMALS = 4

LENGTH_UNITS = ("px", "%", "vw", "vh", "rem", "fr")
SIZE_KEYWORDS = ("fill", "hug")
LAYOUTS = ("free", "stack", "grid")
DEFAULT_BREAKPOINTS = ("base", "md", "lg")

JsonType = Literal["string", "integer"]
StyleKind = Literal["length", "string", "number", "integer", "enum"]


@dataclass(frozen=True, slots=True)
class PropSpec:
    """One prop of a node type: its JSON type and bounds."""

    name: str
    type: JsonType
    required: bool = False
    max_length: int | None = None
    min_length: int = 0
    enum: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    default: str | int | None = None  # what the renderer assumes when absent
    description: str = ""

    def describe(self) -> dict[str, Any]:
        """A JSON-able description (JSON-Schema-like keywords)."""
        out: dict[str, Any] = {"type": self.type, "required": self.required}
        if self.enum is not None:
            out["enum"] = list(self.enum)
        if self.min_length:
            out["minLength"] = self.min_length
        if self.max_length is not None:
            out["maxLength"] = self.max_length
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.default is not None:
            out["default"] = self.default
        if self.description:
            out["description"] = self.description
        return out


@dataclass(frozen=True, slots=True)
class NodeType:
    """A node type: its name, whether it is meant to hold children, its props."""

    name: str
    props: tuple[PropSpec, ...] = ()
    container: bool = False
    description: str = ""

    def prop(self, name: str) -> PropSpec | None:
        """The spec of prop ``name``, or None when the type has no such prop."""
        for spec in self.props:
            if spec.name == name:
                return spec
        return None

    def describe(self) -> dict[str, Any]:
        """A JSON-able description of the type and its props."""
        return {
            "type": self.name,
            "container": self.container,
            "description": self.description,
            "props": {p.name: p.describe() for p in self.props},
        }


@dataclass(frozen=True, slots=True)
class StyleKey:
    """One style key: its value shape and bounds."""

    name: str
    kind: StyleKind
    enum: tuple[str, ...] = ()
    minimum: float = -MAX_NUMBER
    maximum: float = MAX_NUMBER

    def describe(self) -> Any:
        """A JSON-able description of the accepted value."""
        if self.kind == "length":
            return "Length"
        if self.kind == "string":
            return {"type": "string", "minLength": 1, "maxLength": MAX_STYLE_STRING}
        if self.kind == "enum":
            return {"enum": list(self.enum)}
        return {"type": self.kind, "minimum": self.minimum, "maximum": self.maximum}


def _styles(*keys: StyleKey) -> Mapping[str, StyleKey]:
    return MappingProxyType({k.name: k for k in keys})


#: StyleProps: every key is optional, in ``style.base`` and in overrides.
STYLE_KEYS: Mapping[str, StyleKey] = _styles(
    *(StyleKey(n, "length") for n in ("padding", "margin", "radius", "fontSize", "letterSpacing", "gap")),
    *(StyleKey(n, "string") for n in ("background", "color", "fontFamily", "border", "boxShadow", "transform", "filter")),
    StyleKey("opacity", "number", minimum=0, maximum=1),
    StyleKey("fontWeight", "number", minimum=1, maximum=1000),
    StyleKey("lineHeight", "number", minimum=0, maximum=100),
    StyleKey("columns", "integer", minimum=1, maximum=24),
    StyleKey("textAlign", "enum", ("left", "center", "right", "justify")),
    StyleKey("direction", "enum", ("row", "column")),
    StyleKey("align", "enum", ("start", "center", "end", "stretch")),
    StyleKey("justify", "enum", ("start", "center", "end", "between", "around")),
)

#: Constraint keys and their shapes: "offset" = Length or null (unpinned),
#: "flag" = boolean, "size" = SizeMode. ``constraints.base`` needs width and height.
CONSTRAINT_KEYS: Mapping[str, str] = MappingProxyType(
    {
        "left": "offset",
        "right": "offset",
        "top": "offset",
        "bottom": "offset",
        "centerX": "flag",
        "centerY": "flag",
        "width": "size",
        "height": "size",
    }
)

_LENGTH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "value": {"type": "number", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER},
        "unit": {"enum": list(LENGTH_UNITS)},
    },
    "required": ["value", "unit"],
    "additionalProperties": False,
    "description": f"value is a finite number with at most {MAX_DECIMALS} decimals",
}


def _s(name: str, max_length: int, *, required: bool = False, description: str = "") -> PropSpec:
    return PropSpec(name, "string", required=required, max_length=max_length, description=description)


_HREF_TEXT = "relative path, #fragment, ?query, http(s):, mailto: or tel:"
_HREF = _s("href", 2_048, description=_HREF_TEXT)

_CATALOGUE: tuple[NodeType, ...] = (
    NodeType("section", container=True, description="a full-width band of the page; use at the root"),
    NodeType("frame", container=True, description="a plain box"),
    NodeType("stack", container=True, description="a box that stacks children (give it layout stack)"),
    NodeType("grid", container=True, description="a box that lays children out in columns (layout grid)"),
    NodeType("card", container=True, description="a box styled as a card"),
    NodeType("text", (_s("content", 5_000, required=True),), description="a paragraph of text"),
    NodeType(
        "heading",
        (
            _s("content", 300, required=True),
            PropSpec("level", "integer", minimum=1, maximum=6, default=2, description="h1..h6"),
        ),
        description="a heading",
    ),
    NodeType(
        "link",
        (_s("content", 300, required=True), _s("href", 2_048, required=True, description=_HREF_TEXT)),
        description="an inline link",
    ),
    NodeType(
        "button",
        (
            _s("label", 100, required=True),
            _HREF,
            PropSpec("variant", "string", enum=("primary", "secondary", "ghost"), default="primary"),
        ),
        description="a call-to-action button; with href it links",
    ),
    NodeType(
        "image",
        (
            PropSpec("asset", "string", required=True, min_length=1, max_length=200,
                     description="an asset id from the host asset library (no URLs)"),
            _s("alt", 300, description="text alternative; describe the image"),
        ),
        description="an image from the host asset library",
    ),
    NodeType("divider", description="a horizontal rule"),
    NodeType(
        "callout",
        (
            _s("content", 2_000, required=True),
            PropSpec("variant", "string", enum=("info", "success", "warning", "danger"), default="info"),
        ),
        description="a highlighted note",
    ),
    NodeType("code", (_s("content", 10_000, required=True), _s("lang", 30)), description="a code block"),
)


class NodeTypes:
    """A catalogue of node types; ``NodeTypes.allowed()`` is the one charlotte uses.

    >>> types = NodeTypes.allowed()
    >>> "heading" in types, "richtext" in types
    (True, False)
    >>> types.get("heading").prop("level").maximum
    6
    """

    __slots__ = ("_types",)

    def __init__(self, types: Iterable[NodeType]) -> None:
        by_name: dict[str, NodeType] = {}
        for t in types:
            if t.name in FORBIDDEN_TYPES:
                # Refused here so that no PageSession, whatever it is built
                # with, can ever accept one.
                raise ValueError(f"node type {t.name!r} is never allowed")
            if t.name in by_name:
                raise ValueError(f"node type {t.name!r} declared twice")
            by_name[t.name] = t
        self._types: Mapping[str, NodeType] = MappingProxyType(by_name)

    @staticmethod
    @cache
    def allowed() -> NodeTypes:
        """The catalogue every PageSession in charlotte is built with."""
        return NodeTypes(_CATALOGUE)

    def get(self, name: object) -> NodeType | None:
        """The type called ``name``, or None when the catalogue has no such type."""
        return self._types.get(name) if isinstance(name, str) else None

    def __contains__(self, name: object) -> bool:
        return self.get(name) is not None

    def names(self) -> list[str]:
        """Type names in catalogue order."""
        return list(self._types)

    def __repr__(self) -> str:
        return f"NodeTypes({self.names()!r})"

    def describe(self, breakpoints: Sequence[str] = DEFAULT_BREAKPOINTS) -> dict[str, Any]:
        """The catalogue as JSON for the ``cms_types`` tool: types, style keys, limits."""
        return {
            "types": [t.describe() for t in self._types.values()],
            "node": {
                "id": {"type": "string", "pattern": ID_PATTERN},
                "parent": "a node id, or null for a root",
                "order": "ordering key among siblings (0-9A-Za-z); omit it to append",
                "layout": {"enum": list(LAYOUTS), "description": "how the node arranges its children"},
                "style": "{base: StyleProps, <breakpoint>?: partial StyleProps}",
                "constraints": "{base: Constraints, <breakpoint>?: partial Constraints}",
            },
            "style": {name: key.describe() for name, key in STYLE_KEYS.items()},
            "constraints": {
                "left/right/top/bottom": "Length or null",
                "centerX/centerY": {"type": "boolean"},
                "width/height": "SizeMode (required in constraints.base)",
            },
            "shapes": {
                "Length": _LENGTH_SCHEMA,
                "SizeMode": {"oneOf": ["Length", {"enum": list(SIZE_KEYWORDS)}]},
            },
            "layouts": list(LAYOUTS),
            "breakpoints": list(breakpoints),
            "limits": {
                "nodes": MAX_NODES,
                "depth": MAX_DEPTH,
                "opsPerApply": MAX_OPS_PER_APPLY,
                "styleStringLength": MAX_STYLE_STRING,
                "numberMagnitude": MAX_NUMBER,
                "numberDecimals": MAX_DECIMALS,
            },
            "notes": [
                "no null values in props or style",
                "breakpoints are mobile first: md and lg override base at wider screens",
            ],
        }
