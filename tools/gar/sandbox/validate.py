"""Static check of model-written vertex-algorithm source, before anything runs.

The source must define the parts ``init``, ``send``, ``update`` and ``result``
(``terminate`` optional) as plain functions, plus constants. Only a whitelist
of syntax is accepted: arithmetic, comparisons, if/for/while, try/except,
comprehensions, lambdas and literals; calls to a few safe builtins, to the
source's own functions and to common container / string methods. Imports,
classes, ``global``/``nonlocal``, ``with``, generators, decorators, dunder names
and every attribute outside the method whitelist are refused - attributes are
how sandbox escapes reach frames and ``__globals__`` (``gen.gi_frame.f_back``,
``"{0.__class__}".format``), so none but plain methods are allowed.

This is one layer of two: :mod:`graphreason.tools.gar.sandbox.run` also executes the code in a
resource-limited process with a tiny ``__builtins__``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from graphreason.tools.gar.sandbox.runner import SAFE_BUILTINS

MAX_SOURCE_CHARS = 20_000
REQUIRED_PARTS = {"init": 3, "send": 3, "update": 3, "result": 2}
OPTIONAL_PARTS = {"terminate": 2}

FORBIDDEN_NAMES = frozenset(
    "exec eval open __import__ getattr setattr delattr hasattr globals locals vars compile input "
    "breakpoint help memoryview type object super classmethod staticmethod property print "
    "exit quit id dir iter next".split()
)

SAFE_METHODS = frozenset(
    "append extend insert pop remove index count sort reverse copy clear get items keys values "
    "setdefault update popitem fromkeys add discard union intersection difference symmetric_difference "
    "issubset issuperset isdisjoint join split strip lower upper startswith endswith replace "
    "is_integer bit_length".split()
)

_ALLOWED_NODES: tuple[type[ast.AST], ...] = (
    # statements
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign, ast.AugAssign,
    ast.AnnAssign, ast.For, ast.While, ast.If, ast.Break, ast.Continue, ast.Pass, ast.Expr,
    ast.Try, ast.ExceptHandler, ast.Raise, ast.Assert, ast.Delete,
    # expressions
    ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Lambda, ast.IfExp, ast.Dict, ast.Set, ast.List,
    ast.Tuple, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension,
    ast.Compare, ast.Call, ast.keyword, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice,
    ast.Starred, ast.Name, ast.JoinedStr, ast.FormattedValue, ast.NamedExpr,
    # contexts and operators
    ast.Load, ast.Store, ast.Del, ast.operator, ast.boolop, ast.unaryop, ast.cmpop,
)  # fmt: skip

_TOP_LEVEL = (ast.FunctionDef, ast.Assign, ast.AnnAssign, ast.Expr)


class SandboxViolation(ValueError):
    """The source uses a construct the sandbox does not allow; ``line`` and ``construct`` say which."""

    def __init__(self, line: int | None, construct: str, why: str) -> None:
        self.line = line
        self.construct = construct
        where = f"line {line}: " if line else ""
        if construct == "invalid syntax":  # not a forbidden construct: the code does not parse at all
            super().__init__(f"{where}the code is not valid Python - {why}")
        else:
            super().__init__(f"{where}{construct} is not allowed - {why}")


@dataclass(frozen=True)
class ValidatedSource:
    """Source that passed :func:`validate_source`, and which optional parts it defines."""

    source: str
    parts: tuple[str, ...]


def _bound_names(tree: ast.AST) -> set[str]:
    """Every name the source binds (functions, arguments, assignment and loop targets)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def _check_node(node: ast.AST, bound: set[str]) -> None:
    line = getattr(node, "lineno", None)
    kind = type(node).__name__
    if not isinstance(node, _ALLOWED_NODES):
        raise SandboxViolation(
            line, f"`{kind}`", "only plain functions, expressions, loops and literals are allowed"
        )
    if isinstance(node, ast.FunctionDef) and node.decorator_list:
        raise SandboxViolation(line, "a decorator", "define plain functions")
    if isinstance(node, ast.Name):
        if node.id in FORBIDDEN_NAMES:
            raise SandboxViolation(line, f"the name `{node.id}`", "it can reach outside the sandbox")
        if node.id.startswith("__"):
            raise SandboxViolation(
                line, f"the dunder name `{node.id}`", "names starting with __ are reserved"
            )
    if isinstance(node, ast.arg | ast.FunctionDef) and getattr(
        node, "arg", getattr(node, "name", "")
    ).startswith("__"):
        raise SandboxViolation(line, "a dunder name", "names starting with __ are reserved")
    if isinstance(node, ast.Attribute) and node.attr not in SAFE_METHODS:
        raise SandboxViolation(
            line,
            f"the attribute `.{node.attr}`",
            "only container/string methods such as .append, .get, .items",
        )
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            if func.id not in SAFE_BUILTINS and func.id not in bound:
                raise SandboxViolation(
                    line,
                    f"a call to `{func.id}`",
                    "call only safe builtins (min, max, len, ...) or your own functions",
                )
        elif not isinstance(func, ast.Attribute):
            raise SandboxViolation(line, "a call of a computed expression", "call functions by name")


def _check_parts(tree: ast.Module) -> tuple[str, ...]:
    functions = {}
    for stmt in tree.body:
        if not isinstance(stmt, _TOP_LEVEL):
            raise SandboxViolation(
                stmt.lineno,
                f"a top-level `{type(stmt).__name__}`",
                "the top level holds only functions and constants",
            )
        if isinstance(stmt, ast.FunctionDef):
            functions[stmt.name] = stmt
    for name, arity in {**REQUIRED_PARTS, **OPTIONAL_PARTS}.items():
        fn = functions.get(name)
        if fn is None:
            if name in REQUIRED_PARTS:
                raise SandboxViolation(None, f"a missing `{name}`", f"the algorithm must define {name}()")
            continue
        args = fn.args
        positional = len(args.posonlyargs) + len(args.args)
        needed = positional - len(args.defaults)
        if needed > arity or (positional < arity and args.vararg is None):
            raise SandboxViolation(
                fn.lineno, f"`{name}` with {positional} parameters", f"{name}() takes {arity}"
            )
    return tuple(sorted(set(functions) & set(REQUIRED_PARTS) | set(functions) & set(OPTIONAL_PARTS)))


def validate_source(source: str) -> ValidatedSource:
    """Parse and check ``source``; raise :class:`SandboxViolation` naming the line and construct."""
    if not isinstance(source, str):
        raise SandboxViolation(None, f"source of type {type(source).__name__}", "pass the code as a string")
    if len(source) > MAX_SOURCE_CHARS:
        raise SandboxViolation(
            None, f"source of {len(source)} characters", f"the limit is {MAX_SOURCE_CHARS}"
        )
    try:
        tree = ast.parse(source, filename="<designed>")
    except SyntaxError as exc:
        raise SandboxViolation(exc.lineno, "invalid syntax", str(exc.msg)) from None
    except (RecursionError, MemoryError, ValueError) as exc:  # absurdly nested or null bytes
        raise SandboxViolation(None, "unparsable source", type(exc).__name__) from None
    bound = _bound_names(tree)
    for node in ast.walk(tree):
        _check_node(node, bound)
    return ValidatedSource(source, _check_parts(tree))
