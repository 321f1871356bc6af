"""Prompts of the Graph Counselor roles, written for this project.

They follow the paper's protocol (Appendix D): one reasoning prompt shared by
the planning, thought and execution agents, each asked for exactly one line;
a reflection prompt in three stages; a judge prompt that sees the trajectory
and never the gold answer.
"""

from __future__ import annotations

from graphreason.tools.counselor.call_examples import CallExample

_FUNCTION_LIST = """\
(1) Retrieve[text]: finds the node whose name or title is most similar to the text and returns its ID.
(2) Feature[NodeID, feature_name]: returns the value of one feature ({features}) of a node.
(3) Neighbour[NodeID, neighbor_type]: returns the IDs of all neighbors linked to the node by that edge type ({relations}).
(4) Degree[NodeID, neighbor_type]: returns how many neighbors of that edge type the node has.
(5) Finish[...]: ends the task; write the answer itself between the brackets."""

_COMPOUND_NOTE = """\
Functions can be nested, and a function applied to a list of IDs works on each of them,
for example {nested}. Several calls can share one Action when separated by commas."""


def function_list(example: CallExample | None, compound: bool, features: str, relations: str) -> str:
    """The function block, its examples naming this graph's own features and edge types."""
    head = (
        "Graph functions you can call in an Action:"
        if compound
        else "Graph functions you can call in an Action (exactly one simple call per Action, no nesting):"
    )
    parts = [
        head,
        _FUNCTION_LIST.format(
            features=features or "see the graph definition", relations=relations or "see the graph definition"
        ),
    ]
    if compound:
        if example is not None and example.feature and example.text:
            nested = f"Feature[Retrieve[{example.text}], {example.feature}]"
            if example.relation:
                nested += f" or Feature[Neighbour[{example.node}, {example.relation}], {example.feature}]"
        else:
            nested = "Feature[Retrieve[text], feature_name]"
        parts.append(_COMPOUND_NOTE.format(nested=nested))
    return "\n".join(parts)


def worked_example(example: CallExample | None, with_plan: bool) -> str:
    """Worked questions on a real node of the loaded graph (none for an empty graph).

    The answers are real values from the graph, so nothing in the prompt is a
    placeholder a small model could copy as its own answer.
    """
    if example is None or not example.text:
        return ""
    kind = example.node_type
    lines: list[str] = []
    if example.feature and example.value:
        lines += [
            f'Question: What is the {example.feature} of the {kind} "{example.text}"?',
            f"Plan 1: Find the {kind}'s node from its text, then read its {example.feature} feature.",
            f"Thought 1: I need the node ID of the {kind} and then its {example.feature}.",
            f"Action 1: Feature[Retrieve[{example.text}], {example.feature}]",
            f"Observation 1: The {example.feature} feature of {example.node} are: {example.value}.",
            f"Plan 2: The {example.feature} answers the question, so finish.",
            f"Thought 2: The {example.feature} is {example.value}.",
            f"Action 2: Finish[{example.value}]",
        ]
    if example.relation:
        rel, n = example.relation, example.degree
        if lines:
            lines.append("")
        lines += [
            f'Question: How many {rel} neighbors does the {kind} "{example.text}" have?',
            f"Plan 1: Locate the {kind}, then count its {rel} neighbors.",
            f"Thought 1: I need the {kind}'s ID first.",
            f"Action 1: Retrieve[{example.text}]",
            f"Observation 1: The ID of this retrieval target node is {example.node}.",
            f"Plan 2: Count the {rel} neighbors of node {example.node}.",
            f"Thought 2: Degree with the {rel} edge type gives the number.",
            f"Action 2: Degree[{example.node}, {rel}]",
            f"Observation 2: The {rel} neighbor number of {example.node} is {n}.",
            "Plan 3: The count is known, so finish.",
            f"Thought 3: The count is {n}.",
            f"Action 3: Finish[{n}]",
        ]
    if not with_plan:
        lines = [line for line in lines if not line.startswith("Plan")]
    return "\n".join(lines)


REFLECTION_HEADER = (
    "You tried this question before and did not succeed. The reflection(s) below explain what went wrong "
    "and how to avoid it; use them to answer correctly this time.\nReflections:"
)

ROLE_RULE = {
    "plan": "Write only the next Plan line: what the question asks and the path through the graph that reaches the answer.",
    "thought": "Write only the next Thought line: which piece of graph information is needed right now.",
    "action": (
        "Write only the next Action line: one graph function call (nested calls allowed), or Finish with "
        "the answer itself between its brackets once the Observations contain it."
    ),
}


def reasoning_prompt(
    *,
    question: str,
    graph_definition: str,
    scratchpad: str,
    reflections: list[str],
    with_plan: bool,
    compound: bool,
    example: CallExample | None = None,
    features: str = "",
    relations: str = "",
) -> str:
    """The shared instruction block of the planning, thought and execution agents.

    ``example`` (from :func:`graphreason.tools.counselor.call_examples.call_example`), ``features``
    and ``relations`` come from the loaded graph, so that no example names an
    edge type, feature or node the graph does not have.
    """
    steps = "Plan, Thought, Action and Observation" if with_plan else "Thought, Action and Observation"
    parts = [
        f"Answer a question about a graph by repeating {steps} steps. "
        "Plan says what the question needs and how to reach it; Thought says what graph information is needed next; "
        "Action calls graph functions; the Observation is returned by the graph (never write it yourself).",
        function_list(example, compound, features, relations),
    ]
    worked = worked_example(example, with_plan)
    if worked:
        parts.append("Examples on this graph:\n" + worked + "\n(END OF EXAMPLES)")
    if reflections:
        parts.append(REFLECTION_HEADER + "\n" + "\n".join(reflections) + "\n(END OF REFLECTION)")
    parts.append(f"Definition of the graph: {graph_definition}")
    parts.append(
        f"Question: {question} Answer with the nodes' main feature (such as names or titles), not with node IDs."
    )
    if scratchpad:
        parts.append(scratchpad)
    return "\n\n".join(parts)


def step_prompt(role: str, index: int, shared: str) -> str:
    """Ask one agent for exactly one line, labelled with the step index."""
    label = {"plan": "Plan", "thought": "Thought", "action": "Action"}[role]
    return f"{shared}\n\n{ROLE_RULE[role]} Reply with one line that starts with '{label} {index}:'."


def native_action_prompt(index: int, shared: str, compound: bool, finish_tool: str) -> str:
    """Ask the execution agent for Action ``index`` as tool calls (``tool_calling="native"``).

    The graph functions above are its tools (named in lower case); nesting is
    done over steps, since one tool call cannot hold another.
    """
    several = (
        "one tool call, or several independent calls at once" if compound else "exactly one tool call"
    )
    return (
        f"{shared}\n\nAction {index}: the graph functions above are offered to you as tools of the same names "
        f"in lower case. Make {several} to get the graph information the Thought asks for; an id one call "
        f"returns is used in the next Action. Once the Observations contain the answer, call {finish_tool} "
        "with the answer itself (a name, title, number or list, not a node id)."
    )


JUDGE_PROMPT = """\
You check whether a graph question-answering agent answered correctly. Look at the trajectory below:
does the final answer follow from what the graph returned (the Observations), does it answer exactly what was asked
without extra or wrong items, and is the reasoning consistent? There is no reference answer: judge the evidence.
Explain briefly in one to three sentences, then end with [yes] if the answer is correct or [no] if it is not.

Definition of the graph: {graph_definition}
Question: {question}
Trajectory:
{scratchpad}
Final answer: {answer}

Your judgement:"""

REFLECTION_PROMPT = """\
You are a reasoning agent that improves by reflecting on a failed attempt. The attempt below answered a question
about a graph with Plan, Thought, Action and Observation steps, but it failed: {outcome}.
The graph functions were: Retrieve[text] (node ID by similarity), Feature[NodeID, feature_name], Neighbour[NodeID,
neighbor_type], Degree[NodeID, neighbor_type], Finish[...] with the answer itself between the brackets; calls can
be nested (combine at most two per step).
Definition of the graph: {graph_definition}

Write a short reflection with three parts:
1. Recap: what the question asked, which graph information was used, and how the attempt ended.
2. Analysis and adjustment: what was misunderstood or missed, which functions, IDs, features or neighbor types were
   wrong or unnecessary, and what should be used instead.
3. Refined strategy: the concrete sequence of function calls to try next.

Question: {question}
Attempt:
{scratchpad}

Reflection:"""

BASE_PROMPT = """\
Answer the question from your own knowledge in a few words. Give only the answer.
Question: {question}
Answer:"""
