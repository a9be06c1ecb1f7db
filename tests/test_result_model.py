"""The result model has one typed shape per request kind: every answer of every kind, on inputs
that reach every branch of its producer (a failing input, a failing base, no base, a trace, a
summarised operation ...), has exactly the members of its TypedDict, each of its type; a value
that does not apply is null, never a missing key."""

from __future__ import annotations

from typing import Any

import pytest

from urlcalc.answers.kinds import KINDS, dispatch
from urlcalc.model.schema import Node, conforms, shape_name, shapes

# (kind, params): each producer's branches
CASES: list[tuple[str, dict[str, Any]]] = [
    ("parse", {"input": "HTTP://u:p@EXAMPLE.com:80/a/../b?q#f", "trace": True}),
    ("parse", {"input": "x", "base": "http://h/a/b"}),
    ("parse", {"input": "x", "base": "not a base"}),
    ("parse", {"input": "http://[::1/"}),
    ("parse", {"input": "mailto:a b", "trace": True, "max_errors": 0}),
    ("parse", {"input": "http://1.2.3.4/", "encoding": "windows-1252"}),
    ("parse", {"input": "blob:https://a/b"}),
    ("parse", {"input": "sc://ho%zz/" + "a" * 3000, "trace": True}),
    ("set", {"input": "https://a.com/x", "ops": [["username", "bob"], ["port", "99999"],
                                                 ["href", "::"], ["searchParams.append",
                                                                   "a=b"]], "trace": True}),
    ("set", {"input": "nope", "ops": [["host", "x"]]}),
    ("host", {"input": "EXAMPLE.com", "trace": True}),
    ("host", {"input": "1.2.3.4"}),
    ("host", {"input": "[::1]"}),
    ("host", {"input": ""}),
    ("host", {"input": "a b"}),
    ("host", {"input": "xn--a"}),
    ("urlencoded", {"input": "a=b&c"}),
    ("percent", {"input": "ä b", "encode_set": "query percent-encode set"}),
    ("percent", {"input": "ä", "encode_set": "special-query percent-encode set",
                 "encoding": "utf-16le"}),
    ("validate", {"input": "http://a/b"}),
    ("validate", {"input": "http://a b/"}),
    ("compare", {"input": "http:\\\\example.com\\a\\..\\b"}),
    ("compare", {"input": "http://a/", "traces": False, "errata": True}),
    ("compare", {"input": "http://[::1/"}),
    ("random", {"edition": "rfc3986", "seed": 7}),
    ("random", {"seed": 1}),
    ("implementations", {"input": "http://EXAMPLE.com/a/../b"}),
    ("implementations", {"input": "http://[::1/"}),
    ("history", {"input": "sc://a<b/"}),
    ("history", {"input": "http://h/a^b", "base": "http://x/"}),
    ("history", {"input": "http://example.com/"}),
    ("version", {}),
    ("spec", {}),
    ("survey", {"urls": "http://a/\nhttp://a b/\n\u00e9:x", "base": "http://b/"}),
    ("wpt", {"input": "http://a b/"}),
    ("wpt", {"input": "HTTPS://fa\u00df.de/x", "base": "http://b/"}),
]


@pytest.mark.parametrize(("kind", "params"), CASES, ids=[f"{k}-{i}" for i, (k, _) in
                                                        enumerate(CASES)])
def test_every_answer_has_its_kind_s_one_shape(kind: str, params: dict[str, Any]) -> None:
    answer_type = KINDS[kind].answer_type()
    found = shapes([answer_type])
    assert conforms(dispatch(kind, params), Node("ref", name=shape_name(answer_type)), found) == []


def test_every_kind_is_checked() -> None:
    assert {k for k, _ in CASES} == set(KINDS)


def test_the_shape_check_sees_a_missing_an_extra_and_a_wrong_member() -> None:
    answer = dict(dispatch("urlencoded", {"input": "a=b"}))
    found = shapes([KINDS["urlencoded"].answer_type()])
    root = Node("ref", name="UrlencodedAnswer")
    assert conforms(answer, root, found) == []
    del answer["serialized"]
    answer["extra"] = 1
    answer["pairs"] = [["a", 2]]
    assert conforms(answer, root, found) == [
        "$: UrlencodedAnswer lacks 'serialized'", "$: UrlencodedAnswer has no member 'extra'",
        "$.pairs[0][1]: 2 is not str"]


def test_answer_types_mention_no_any() -> None:
    """The walk refuses a type it has no JSON shape for (Any among them)."""
    found = shapes(k.answer_type() for k in KINDS.values())
    assert {"ParseAnswer", "SetAnswer", "CompareAnswer", "ImplementationsAnswer",
            "Record", "Getters", "ValidationError", "Trace"} <= set(found)
    from typing import TypedDict

    class Loose(TypedDict):
        x: Any

    with pytest.raises(TypeError):
        shapes([Loose])


def test_the_page_s_typedefs_are_current() -> None:
    """web/js/result-model.js and web/js/model/<kind>.js are what the generator writes now,
    each under 500 lines; result-model.js names every shape, each defined in one module."""
    from urlcalc.answers import typedefs

    files = typedefs.render_files()
    assert typedefs.TYPEDEFS_JS in files
    assert {p.name for p in files} >= {f"{k}.js" for k in KINDS} | {"result-model.js"}
    for path, text in files.items():
        assert path.exists() and path.read_text(encoding="utf-8") == text, (
            f"{path.name} is out of date: run `python -m urlcalc.answers.typedefs` and commit "
            "web/js/result-model.js and web/js/model/")
        assert text.startswith("// @ts-check\n") and text.count("\n") < 500, path.name
    assert typedefs.stale_files() == [], "run `python -m urlcalc.answers.typedefs`"
    defined = "".join(t for p, t in files.items() if p != typedefs.TYPEDEFS_JS)
    index = files[typedefs.TYPEDEFS_JS]
    found = shapes([*(k.answer_type() for k in KINDS.values())])
    for name in found:
        assert defined.count(f"@typedef {{object}} {name}\n") == 1, name
        assert f'.{name}}} {name} */\n' in index, name
    for kind in KINDS.values():
        name = shape_name(kind.answer_type())
        assert f"@typedef {{object}} {name}\n" in files[typedefs.MODEL_DIR / f"{kind.name}.js"]
    assert " * @property {(Record|null)} record\n" in defined
    assert " * @property {Array<ValidationErrorRaised>} validation_errors\n" in defined


def test_the_openapi_schemas_are_the_types() -> None:
    from urlcalc.serving.openapi import openapi_document

    schemas = openapi_document()["components"]["schemas"]
    found = shapes(k.answer_type() for k in KINDS.values())
    assert set(found) <= set(schemas)
    for name, shape in found.items():
        assert list(schemas[name]["properties"]) == [m.name for m in shape.members], name
        assert schemas[name].get("required", []) == [m.name for m in shape.members
                                                      if m.required], name
    parse = schemas["ParseAnswer"]["properties"]
    assert parse["record"] == {"allOf": [{"$ref": "#/components/schemas/Record"}],
                               "nullable": True}
    assert parse["validation_errors_total"]["type"] == "integer"
