"""The paper's query executor and post-processing: run the parsed calls, put results back into the text.

Inner calls run first (``GL`` loads through the graph data hub, ``GR``
invokes the LangChain tool of its entry of
:data:`~graphreason.tools.toolformer.registry.TOOLFORMER_FUNCTIONS`, the tools
:meth:`~graphreason.tools.core.registry.Registry.as_tools` generates, with the loaded
graph as the tool's ``graph`` argument);
every result goes into working memory under the call's canonical text, so a
repeated call runs once. A bracket ending in ``-->r`` is replaced by its result;
``--> name`` binds the result for later calls (``GR(G_l, "toolx:order")``);
a bracket with no arrow only records its result and leaves the text.

Generated text is untrusted: a call that cannot run (unknown function, wrong
arguments, unknown node, dataset not in the data root, path outside it) gets
an error in its outcome and its bracket stays in the text as written; the
other calls still run. Nothing here raises for bad calls.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from langgraph.runtime import Runtime

from graphreason.memory.working import WorkingMemory
from graphreason.tools.core.errors import GraphError
from graphreason.tools.core.jsonable import jsonable
from graphreason.tools.core.registry import Registry, normalize
from graphreason.tools.core.registry.tools import Toolbox
from graphreason.tools.toolformer.calls.ast import (
    Bool,
    Bracket,
    Call,
    Document,
    Expr,
    Name,
    NodeRef,
    Number,
    SetOf,
    Str,
    TupleOf,
)
from graphreason.tools.toolformer.calls.normalize import normalize_call
from graphreason.tools.toolformer.calls.printer import print_bracket, print_call
from graphreason.tools.toolformer.registry import (
    TOOLFORMER_FUNCTIONS,
    GRContext,
    default_domain,
    render_value,
)
from graphreason.workflows.kit.events import emit
from graphreason.workflows.toolformer.context import ToolformerContext
from graphreason.workflows.toolformer.parse import parsed
from graphreason.workflows.toolformer.state import ToolformerState

MAX_CALLS = 64  # calls (inner ones included) one text may run: generated text must not run unbounded work


class CallError(GraphError):
    """A call in the text cannot run as written."""


@dataclass
class CallOutcome:
    """What one bracket did: JSON-ready, one per bracket in text order."""

    bracket: str  # the bracket as canonically printed
    target: str | None
    ok: bool
    value: Any = None  # JSON-ready result (several calls in one bracket: a list)
    text: str = ""  # what a substitution writes
    error: str = ""
    cached: bool = False  # every call of the bracket came from working memory
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Executor:
    """Runs the calls of documents against one working memory (shared across texts when reused)."""

    registry: Registry = TOOLFORMER_FUNCTIONS
    memory: WorkingMemory = field(default_factory=WorkingMemory)
    max_calls: int = MAX_CALLS
    _calls_run: int = 0
    _toolbox: Toolbox = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # GR calls run as calls of the registry's tools; the graph argument must be a GL(...) result
        self._toolbox = Toolbox(self.registry, GRContext())

    # ------------------------------------------------------------------ documents
    def run(self, document: Document) -> list[CallOutcome]:
        """Execute every bracket of ``document`` in order; one outcome per bracket."""
        self._calls_run = 0
        return [self.run_bracket(b) for b in document.brackets]

    def run_bracket(self, bracket: Bracket) -> CallOutcome:
        start = time.perf_counter()
        hits_before = self.memory.hits
        try:
            values = [self.evaluate(call) for call in bracket.calls]
        except Exception as err:  # noqa: BLE001 - untrusted calls: every failure is an outcome
            return CallOutcome(
                print_bracket(bracket), bracket.target, False, error=_message(err),
                seconds=round(time.perf_counter() - start, 4),
            )
        value = values[0] if len(values) == 1 else values
        if bracket.target is not None and not bracket.substitutes:
            self.memory.bind(bracket.target, value)
        return CallOutcome(
            print_bracket(bracket),
            bracket.target,
            True,
            value=jsonable(value, str_keys=True, default=_shown),
            text=", ".join(render_value(_shown(v)) for v in values),
            cached=self.memory.hits - hits_before >= len(bracket.calls),
            seconds=round(time.perf_counter() - start, 4),
        )

    # ------------------------------------------------------------------ expressions
    def evaluate(self, expr: Expr) -> Any:
        if isinstance(expr, Call):
            return self._call(expr)
        if isinstance(expr, Str):
            return expr.value
        if isinstance(expr, Number):
            return expr.value
        if isinstance(expr, Bool):
            return expr.value
        if isinstance(expr, NodeRef):
            return expr.id
        if isinstance(expr, (SetOf, TupleOf)):
            return tuple(self.evaluate(item) for item in expr.items)
        if isinstance(expr, Name):
            return self.memory.variable(expr.value, expr.value)  # a bound variable, or the bare word itself
        raise CallError(f"cannot evaluate {expr!r}")

    def _call(self, call: Call) -> Any:
        key = print_call(normalize_call(call))  # spelling variants of one call share a key
        found = self.memory.get(key, _MISSING)
        if found is not _MISSING:
            return found
        self._calls_run += 1
        if self._calls_run > self.max_calls:
            raise CallError(f"more than {self.max_calls} calls in one text; the rest were not run")
        func = call.func.strip().upper()
        if func == "GL":
            value = self._load(call)
        elif func == "GR":
            value = self._reason(call)
        else:
            raise CallError(
                f"unknown call {call.func}(...): the calls are GL(dataset, ...) to load a graph and "
                'GR(graph, "domain:function", args...) to reason on it'
            )
        self.memory.put(key, value)
        return value

    def _load(self, call: Call) -> Any:
        # the data hub imports loaders only when a text loads a graph
        from graphreason.tools.toolformer import hub as graph_hub

        args = [self.evaluate(a) for a in call.args]
        keywords = {normalize(k.key): self.evaluate(k.value) for k in call.keywords}
        file_path = keywords.pop("filepath", None) or keywords.pop("path", None)
        if not args and file_path is None:
            raise CallError('GL needs a dataset name, e.g. GL("cora"), or file-path:"..." inside the data root')
        if file_path is not None:
            return graph_hub.load(*(str(a) for a in args[:1]), *args[1:], file_path=str(file_path))
        name, *subset = args
        return graph_hub.load(str(name), *subset)

    def _reason(self, call: Call) -> Any:
        if len(call.args) < 2:
            raise CallError(
                'GR takes a graph and a "domain:function" name, then the function\'s arguments, '
                f'e.g. GR(GL("cora"), "graph_bert:topic", paper#1); got {len(call.args)} argument(s)'
            )
        graph = self.evaluate(call.args[0])
        name = self.evaluate(call.args[1])
        if not isinstance(name, str):
            raise CallError(f'the second argument of GR must name a function such as "toolx:order", got {name!r}')
        entry = self.registry.get(self._qualified(name, graph))
        args: list[Any] = [graph, *(self.evaluate(a) for a in call.args[2:])]
        args.extend(self._keyword_args(entry, call, len(args)))
        result = self._toolbox.apply(entry.name, args)  # an unexpected failure inside the tool is raised again
        if not result.ok:
            raise CallError(result.error or result.observation)
        return result.value

    def _qualified(self, name: str, graph: Any) -> str:
        """``"topic"`` on Cora means ``graph_bert:topic``: the paper's default domain of a task."""
        if ":" in name:
            return name
        domain = default_domain(getattr(graph, "dataset", "") or "")
        return f"{domain}:{name}" if domain else name

    def _keyword_args(self, entry: Any, call: Call, given: int) -> list[Any]:
        """Keyword arguments (``is-directed:False``) put in the entry's parameter order after the positional ones."""
        if not call.keywords:
            return []
        by_name = {normalize(p.name): i for i, p in enumerate(entry.params)}
        slots: dict[int, Any] = {}
        for kw in call.keywords:
            index = by_name.get(normalize(kw.key))
            if index is None:
                names = ", ".join(p.name for p in entry.params[1:]) or "none"
                raise CallError(f"{entry.name} has no parameter {kw.key!r} (its parameters: {names})")
            if index < given:
                raise CallError(f"{entry.name}: {kw.key!r} is given twice")
            slots[index] = self.evaluate(kw.value)
        missing = [entry.params[i].name for i in range(given, max(slots) + 1) if i not in slots]
        if missing:
            raise CallError(f"{entry.name}: give {', '.join(missing)} before {call.keywords[0].key!r}")
        return [slots[i] for i in range(given, max(slots) + 1)]


_MISSING = object()


def _message(err: Exception) -> str:
    if isinstance(err, (GraphError, FileNotFoundError)):
        return str(err)
    return f"{type(err).__name__}: {err}"  # an unexpected failure still says what it was


def _shown(value: Any) -> Any:
    """What a loaded graph reads as in text (its name), other values as they are."""
    if hasattr(value, "dataset") and hasattr(value, "graph"):
        return f"{value.dataset}" + (f" {value.instance}" if getattr(value, "instance", None) else "")
    return value


def execute(state: ToolformerState, runtime: Runtime[ToolformerContext]) -> dict[str, Any]:
    """Run every parsed call (inner calls first) against a fresh working memory."""
    context = runtime.context
    memory = WorkingMemory(capacity=context.memory_capacity)
    if not context.execute_calls:
        return {"results": [], "memory": memory.stats(), "tool_seconds": 0.0,
                "trace": [{"step": "execute", "skipped": "execute_calls is off"}]}
    document, _ = parsed(state.get("annotated", ""))
    executor = Executor(memory=memory, max_calls=context.max_calls)
    start = time.perf_counter()
    outcomes = executor.run(document)
    for outcome in outcomes:
        if outcome.ok:
            emit("result", f"{outcome.bracket} = {outcome.text}")
        else:
            emit("call_error", f"{outcome.bracket}: {outcome.error}")
    results = [o.to_dict() for o in outcomes]
    note = {"step": "execute", "ok": sum(o.ok for o in outcomes), "failed": sum(not o.ok for o in outcomes)}
    return {
        "results": results,
        "memory": memory.stats(),
        "tool_seconds": round(time.perf_counter() - start, 4),
        "trace": [note],
    }
