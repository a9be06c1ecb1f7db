"""Mutants of a Python module: small deliberate bugs, each one a single source edit.

``sites(path)`` lists every mutant of one file, in source order; ``Mutant.apply(source)`` returns
the mutated source. Operators (the usual ones, plus those the issue's hand-made mutants needed,
which cosmic-ray's set lacks: string constants and removed calls):

  compare      ``==``/``!=``, ``<``/``>=``, ``<=``/``>``, ``in``/``not in``, ``is``/``is not``
               swapped; ``<``/``<=`` and ``>``/``>=`` shifted (one comparison operator)
  boolop       ``and``/``or`` swapped
  not          ``not x`` -> ``x``
  if           an ``if``/``while``/conditional-expression test negated
  number       an integer constant n -> n + 1
  bool         ``True``/``False`` swapped
  string       a string constant (or f-string) -> ``""``; ``""`` -> ``"X"``
  return       ``return <value>`` -> ``return None``
  unwrap       ``f(x)`` -> ``x`` (a call with one positional argument)
  delete       a call statement -> ``pass``
  arith        ``+``/``-`` swapped

Not mutated: docstrings, annotations, ``assert`` statements (they narrow types for mypy) and
``if TYPE_CHECKING`` blocks; a mutant whose source does not compile is dropped.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

_NEGATE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.LtE: ast.Gt,
    ast.Gt: ast.LtE, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_SHIFT: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
}


@dataclass(frozen=True)
class Mutant:
    module: str  # path relative to the repository, e.g. "urlcalc/standard/parser.py"
    operator: str
    line: int  # 1-based, where the edited source starts
    start: tuple[int, int]  # (line, character column) of the replaced span, 1-based line
    end: tuple[int, int]
    original: str  # the replaced source text
    replacement: str
    context: str  # the stripped source line(s) the edit is in
    scope: str = "<module>"  # the enclosing function or class, qualified: "URL.href"
    occurrence: int = 1  # the nth identical edit (same scope, line text, operator, edit)

    @property
    def id(self) -> str:
        """``module:scope:operator:hash[~n]``, the hash of the edit and the text of its line(s).
        No line number or column: the id stays the same when lines move, when the code around
        is edited or re-indented, as long as the edited line and its function keep their text
        and name (so tests/mutation/equivalent.py stays valid across refactors); ``~n`` tells
        apart the nth identical edit in the same function."""
        key = f"{self.context}\0{self.original}\0{self.replacement}"
        digest = hashlib.sha1(key.encode()).hexdigest()[:8]
        tail = f"~{self.occurrence}" if self.occurrence > 1 else ""
        return f"{Path(self.module).stem}:{self.scope}:{self.operator}:{digest}{tail}"

    def apply(self, source: str) -> str:
        lines = _lines(source)
        (l1, c1), (l2, c2) = self.start, self.end
        before = "".join(lines[:l1 - 1]) + lines[l1 - 1][:c1]
        after = lines[l2 - 1][c2:] + "".join(lines[l2:])
        return before + self.replacement + after

    def describe(self) -> str:
        return f"{self.original!r} -> {self.replacement!r}"


def _lines(source: str) -> list[str]:
    """The source's lines as the tokenizer counts them (only \\n, \\r\\n and \\r end a line, not
    the form feeds and Unicode separators ``str.splitlines`` also splits at), with their ends."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", source)


def _char_col(line: str, byte_col: int) -> int:
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", "replace"))


class _Collector(ast.NodeVisitor):
    def __init__(self, module: str, source: str, check: bool = True) -> None:
        self.module = module
        self.check = check
        self.lines = _lines(source)
        self.source = source
        self.found: list[Mutant] = []
        self.skip: set[int] = set()  # ids of nodes not to mutate (docstrings, annotations...)
        self.scope: list[str] = []  # names of the enclosing classes and functions

    # --- helpers -------------------------------------------------------------------------------

    def _span(self, node: ast.AST) -> tuple[tuple[int, int], tuple[int, int]] | None:
        if getattr(node, "end_lineno", None) is None:
            return None
        l1, l2 = node.lineno, node.end_lineno  # type: ignore[attr-defined]
        c1 = _char_col(self.lines[l1 - 1], node.col_offset)  # type: ignore[attr-defined]
        c2 = _char_col(self.lines[l2 - 1], node.end_col_offset)  # type: ignore[attr-defined]
        return (l1, c1), (l2, c2)

    def _text(self, node: ast.AST) -> str:
        """``ast.get_source_segment`` without splitting the whole source at each call."""
        span = self._span(node)
        if span is None:
            return ast.unparse(node)
        (l1, c1), (l2, c2) = span
        if l1 == l2:
            return self.lines[l1 - 1][c1:c2]
        return self.lines[l1 - 1][c1:] + "".join(self.lines[l1:l2 - 1]) + self.lines[l2 - 1][:c2]

    def _add(self, operator: str, node: ast.AST, replacement: str) -> None:
        span = self._span(node)
        if span is None:
            return
        original = self._text(node)
        if original == replacement:
            return
        (l1, _), (l2, _) = span
        context = " ".join(line.strip() for line in self.lines[l1 - 1:l2])
        mutant = Mutant(self.module, operator, l1, span[0], span[1], original, replacement,
                        context, ".".join(self.scope) or "<module>")
        if not self.check:
            self.found.append(mutant)
            return
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SyntaxWarning)
                compile(mutant.apply(self.source), self.module, "exec")
        except SyntaxError:
            return
        self.found.append(mutant)

    def _skip_tree(self, node: ast.AST | None) -> None:
        if node is not None:
            for sub in ast.walk(node):
                self.skip.add(id(sub))

    # --- what is never mutated -------------------------------------------------------------------

    def _docstring(self, body: list[ast.stmt]) -> None:
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            self._skip_tree(body[0])

    def visit_Module(self, node: ast.Module) -> None:
        self._docstring(node.body)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._docstring(node.body)
        for d in node.decorator_list:
            self._skip_tree(d)
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._docstring(node.body)
        self._skip_tree(node.returns)
        for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                  node.args.vararg, node.args.kwarg]:
            if a is not None:
                self._skip_tree(a.annotation)
        for d in node.decorator_list:
            self._skip_tree(d)
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._skip_tree(node.annotation)
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        self._skip_tree(node)

    def visit_If(self, node: ast.If) -> None:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            self._skip_tree(node)
            return
        if id(node) not in self.skip:
            self._add("if", node.test, f"not ({self._text(node.test)})")
        self.generic_visit(node)

    def visit_While(self, node: ast.While) -> None:
        if id(node) not in self.skip:
            self._add("if", node.test, f"not ({self._text(node.test)})")
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        if id(node) not in self.skip:
            self._add("if", node.test, f"not ({self._text(node.test)})")
        self.generic_visit(node)

    # --- the operators ---------------------------------------------------------------------------

    def visit_Compare(self, node: ast.Compare) -> None:
        if id(node) not in self.skip and len(node.ops) == 1:
            for table in (_NEGATE, _SHIFT):
                new = table.get(type(node.ops[0]))
                if new is not None:
                    mutated = ast.Compare(left=node.left, ops=[new()], comparators=node.comparators)
                    self._add("compare", node, ast.unparse(mutated))
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        if id(node) not in self.skip:
            op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            swapped = ast.unparse(ast.BoolOp(op=op, values=node.values))
            self._add("boolop", node, f"({swapped})")
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if id(node) not in self.skip and isinstance(node.op, ast.Not):
            self._add("not", node, f"({self._text(node.operand)})")
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if id(node) not in self.skip and isinstance(node.op, ast.Add | ast.Sub):
            op = "-" if isinstance(node.op, ast.Add) else "+"
            self._add("arith", node, f"({self._text(node.left)} {op} {self._text(node.right)})")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if id(node) in self.skip:
            return
        v = node.value
        if isinstance(v, bool):
            self._add("bool", node, repr(not v))
        elif isinstance(v, int):
            self._add("number", node, repr(v + 1))
        elif isinstance(v, str):
            self._add("string", node, '"X"' if v == "" else '""')

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        if id(node) not in self.skip:
            self._add("string", node, '""')
        # the parts of an f-string have no positions of their own: not mutated one by one
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)

    def visit_Return(self, node: ast.Return) -> None:
        if id(node) not in self.skip and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            self._add("return", node.value, "None")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if id(node) not in self.skip and len(node.args) == 1 and not node.keywords \
                and not isinstance(node.args[0], ast.Starred) \
                and isinstance(node.func, ast.Name | ast.Attribute):
            self._add("unwrap", node, f"({self._text(node.args[0])})")
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        if id(node) not in self.skip and isinstance(node.value, ast.Call):
            self._add("delete", node, "pass")
        self.generic_visit(node)


def sites(root: Path, module: str, check: bool = True) -> list[Mutant]:
    """Every mutant of ``root / module``, in source order; ``check=False``: without dropping
    those that do not compile (much faster: for their ids)."""
    source = (root / module).read_text(encoding="utf-8")
    collector = _Collector(module, source, check)
    collector.visit(ast.parse(source))
    out: list[Mutant] = []
    seen: dict[str, int] = {}
    done: set[tuple[tuple[int, int], tuple[int, int], str]] = set()
    for m in sorted(collector.found, key=lambda m: (m.start, m.end, m.operator, m.replacement)):
        if (m.start, m.end, m.replacement) in done:  # the same edit reached twice
            continue
        done.add((m.start, m.end, m.replacement))
        n = seen[m.id] = seen.get(m.id, 0) + 1
        out.append(dataclasses.replace(m, occurrence=n) if n > 1 else m)
    return out
