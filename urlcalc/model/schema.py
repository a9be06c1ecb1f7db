"""The result model's types read as data: what the OpenAPI description
(urlcalc.serving.openapi), the page's JSDoc typedefs (urlcalc.answers.typedefs) and the tests'
shape check are generated from, so that none of them writes a member of an answer again.

``shapes(types)`` walks ``TypedDict`` classes (and everything they reference) into ``Shape``s:
each member with its type as a ``Node`` and its description, the ``#:`` comment above it in the
class's source. A ``Node``'s kind is one of "str", "int", "float", "bool", "null", "json" (any
JSON value), "literal" (``values``), "union" (``of``), "list" (``of[0]``, the items), "dict"
(``of[0]``, the values; the keys are strings) or "ref" (``name``: a ``Shape``).
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from dataclasses import dataclass
from typing import ForwardRef, Literal, Union, get_args, get_origin, get_type_hints


@dataclass(frozen=True)
class Node:
    """A type of the result model, as data."""

    kind: str
    of: tuple[Node, ...] = ()
    values: tuple[str | int, ...] = ()
    name: str = ""


_PRIMITIVES: dict[object, str] = {str: "str", int: "int", float: "float", bool: "bool",
                                  type(None): "null"}
_MEMBER = re.compile(r"^\s+(\w+)\s*:")


@dataclass(frozen=True)
class Member:
    """One member of a ``TypedDict``: its name, its type and the comment above it."""

    name: str
    #: the ``#:`` comment above the member ("" when there is none)
    description: str
    node: Node
    #: False only in the trace's steps (urlcalc.standard.observer.Step), whose members depend
    #: on the algorithm: every member of an answer is required
    required: bool = True


@dataclass(frozen=True)
class Shape:
    """A ``TypedDict``: its name, its docstring and its members."""

    name: str
    description: str
    members: tuple[Member, ...]
    #: the class (None while its members are being walked)
    cls: type | None = None


def _is_typeddict(tp: object) -> bool:
    return isinstance(tp, type) and typing.is_typeddict(tp)


def _comments(cls: type) -> dict[str, str]:
    """The ``#:`` comment above each member in the source of ``cls`` and its bases."""
    out: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not _is_typeddict(klass):
            continue
        try:
            lines = inspect.getsource(klass).splitlines()
        except (OSError, TypeError):
            continue
        said: list[str] = []
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("#:"):
                said.append(stripped[2:].strip())
                continue
            m = _MEMBER.match(line)
            if m and said:
                out[m.group(1)] = " ".join(said)
            said = []
    return out


def _json_alias(tp: object) -> bool:
    """The recursive JSONValue alias (its self-references stay forward references)."""
    return isinstance(tp, ForwardRef) and tp.__forward_arg__ == "JSONValue"


def node(tp: object, found: dict[str, Shape]) -> Node:
    """The ``Node`` of a type; the TypedDicts it reaches are added to ``found``."""
    if tp in _PRIMITIVES:
        return Node(_PRIMITIVES[tp])
    if tp is None:
        return Node("null")
    if _json_alias(tp) or tp is object:  # object: a JSON value of any type (a trace step's)
        return JSON
    if _is_typeddict(tp):
        assert isinstance(tp, type)
        _shape(tp, found)
        return Node("ref", name=shape_name(tp))
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return Node("literal", values=args)
    if origin in (Union, types.UnionType):
        nodes = tuple(node(a, found) for a in args)
        return JSON if _is_json(nodes) else Node("union", nodes)
    if origin is list:
        return Node("list", (node(args[0], found),))
    if origin is dict:
        assert args[0] is str, tp
        return Node("dict", (node(args[1], found),))
    raise TypeError(f"no JSON shape for {tp!r}")


JSON = Node("json")
NULL = Node("null")


def _is_json(nodes: tuple[Node, ...]) -> bool:
    """The union that JSONValue expands to."""
    return {n.kind for n in nodes} == {"str", "int", "float", "bool", "null", "list", "dict"} \
        and all(n.of == (JSON,) for n in nodes if n.kind in ("list", "dict"))


def shape_name(cls: type) -> str:
    """The name a ``TypedDict`` goes by in the schemas and the typedefs: its class's, less a
    ``JSON`` suffix (``RecordJSON`` is named so only beside the ``URLRecord`` class)."""
    return cls.__name__.removesuffix("JSON")


def _shape(cls: type, found: dict[str, Shape]) -> None:
    name = shape_name(cls)
    if name in found:
        assert found[name].cls in (cls, None), f"two types named {name}"
        return
    found[name] = Shape(name, "", (), None)  # a placeholder while its members are walked
    hints = get_type_hints(cls, localns={"JSONValue": ForwardRef("JSONValue")})
    comments = _comments(cls)
    required = cls.__required_keys__  # type: ignore[attr-defined]
    members = tuple(Member(m, comments.get(m, ""), node(t, found), m in required)
                    for m, t in hints.items())
    doc = inspect.cleandoc(cls.__doc__ or "") if cls.__doc__ else ""
    found[name] = Shape(name, " ".join(doc.split()), members, cls)


def shapes(roots: typing.Iterable[type]) -> dict[str, Shape]:
    """Every ``TypedDict`` reachable from ``roots``, by name (roots first, in order)."""
    found: dict[str, Shape] = {}
    for root in roots:
        _shape(root, found)
    return found


def conforms(value: object, n: Node, found: dict[str, Shape], path: str = "$") -> list[str]:
    """Where ``value`` departs from the node ``n`` (an empty list: it conforms): a missing or
    extra member, a value of another type. For the tests' shape check."""
    kind = n.kind
    if kind == "json":
        return []
    if kind == "null":
        return [] if value is None else [f"{path}: {value!r} is not null"]
    if kind in _PYTHON:
        ok = isinstance(value, _PYTHON[kind]) and (kind == "bool" or not isinstance(value, bool))
        return [] if ok else [f"{path}: {value!r} is not {kind}"]
    if kind == "literal":
        return [] if value in n.values else [f"{path}: {value!r} not one of {n.values!r}"]
    if kind == "union":
        results = [conforms(value, alt, found, path) for alt in n.of]
        return [] if any(not r for r in results) else min(results, key=len)
    if kind == "list":
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__} is not a list"]
        return [e for i, v in enumerate(value) for e in conforms(v, n.of[0], found, f"{path}[{i}]")]
    if kind == "dict":
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not an object"]
        return [e for k, v in value.items() for e in conforms(v, n.of[0], found, f"{path}.{k}")]
    assert kind == "ref"
    shape = found[n.name]
    if not isinstance(value, dict):
        return [f"{path}: {type(value).__name__} is not a {shape.name}"]
    names = {m.name for m in shape.members}
    out = [f"{path}: {shape.name} lacks {m.name!r}" for m in shape.members
           if m.required and m.name not in value]
    out += [f"{path}: {shape.name} has no member {k!r}" for k in value if k not in names]
    for m in shape.members:
        if m.name in value:
            out += conforms(value[m.name], m.node, found, f"{path}.{m.name}")
    return out


_PYTHON: dict[str, type | tuple[type, ...]] = {"str": str, "int": int, "float": (int, float),
                                               "bool": bool}
