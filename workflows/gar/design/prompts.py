"""Prompts (our own wording) for the master when it designs a new distributed algorithm.

The master writes the paper's six parts as Python functions in a restricted
subset that :mod:`graphreason.tools.gar.sandbox` runs: State and Message are described in
comments, Initialization / Send / Update / Termination are functions, and
``result`` reads the answer off the final states. An optional sequential
``brute_force`` lets the check compare the two on small graphs.
"""

from __future__ import annotations

from typing import Any

PROTOCOL = """Write the algorithm as plain Python functions (no imports, no classes, no print, no file \
or network access; only builtins such as len, min, max, sum, sorted, range, set, dict, list, abs):

# State: what each node keeps
# Message: what a node sends to a neighbour
def init(node, neighbors, params):      # Initialization: the node's first state
def send(node, state, neighbors):       # Send: a list of (neighbor, message) pairs, or [] to stay quiet
def update(node, state, messages):      # Update: the new state from the old one and the received messages
def terminate(round, changed_count):    # Termination (optional): True to stop early
def result(states, params):             # the answer, from {node: final state}
def brute_force(adjacency, params):     # optional: the same answer computed directly, for checking

Rounds repeat send then update for every node until no state changes (or terminate says stop). \
Nodes are integers; `neighbors` lists the nodes this node links to (out-neighbours in a directed \
graph). `params` holds the question's parameters, plus `weights` ({(u, v): w}) when edges are \
weighted and `node_weights` ({node: w}) when nodes are; `adjacency` is {node: [neighbors]}."""

# The worked example the prompt shows (hops from the source to every node); the
# sandbox tests run it, so the model is never shown code that does not work.
EXAMPLE_DESIGN = """# State: hops from the source, or None when not reached yet
# Message: the sender's hops + 1
def init(node, neighbors, params):
    return 0 if node == params["source"] else None

def send(node, state, neighbors):
    return [] if state is None else [(n, state + 1) for n in neighbors]

def update(node, state, messages):
    best = min(messages) if messages else None
    if state is None:
        return best
    return state if best is None else min(state, best)

def result(states, params):
    return {v: d for v, d in states.items() if d is not None}
"""

EXAMPLE = f"Example (number of hops from the source to every node):\n```python\n{EXAMPLE_DESIGN}```"

DESIGN_PROMPT = """You are the master of a graph-reasoning system. No algorithm in the library answers \
the question below, so design a new distributed algorithm in which every node runs the same small \
program and talks only to its neighbours.

Question:
{question}

Graph as parsed: {graph_summary}
Parameters found in the question: {params}

{protocol}

{example}

Reply with one ```python block holding the functions and nothing else."""

REPAIR_PROMPT = """Your algorithm for this question did not work:
{problem}

Question:
{question}

Your code was:
```python
{source}
```

Fix it and reply with one ```python block holding all the functions."""


def design_prompt(question: str, graph_summary: str, params: dict[str, Any]) -> str:
    """The prompt asking the master for a new algorithm in the six-part form."""
    shown = ", ".join(f"{k}={v}" for k, v in params.items()) or "none"
    return DESIGN_PROMPT.format(
        question=question, graph_summary=graph_summary, params=shown, protocol=PROTOCOL, example=EXAMPLE
    )


def repair_prompt(question: str, source: str, problem: str) -> str:
    """The follow-up prompt: what went wrong with the last design, and a request for a fixed one."""
    return REPAIR_PROMPT.format(question=question, source=source or "(no code found)", problem=problem)
