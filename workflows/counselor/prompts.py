"""Prompts of the Graph Counselor roles, written for this project.

They follow the paper's protocol (Appendix D): one reasoning prompt shared by
the planning, thought and execution agents, each asked for exactly one line;
a reflection prompt in three stages; a judge prompt that sees the trajectory
and never the gold answer.
"""

from __future__ import annotations

FUNCTIONS = """\
Graph functions you can call in an Action:
(1) Retrieve[text]: finds the node whose name or title is most similar to the text and returns its ID.
(2) Feature[NodeID, feature_name]: returns the value of one feature (for example title, name, label) of a node.
(3) Neighbour[NodeID, neighbor_type]: returns the IDs of all neighbors linked to the node by that edge type.
(4) Degree[NodeID, neighbor_type]: returns how many neighbors of that edge type the node has.
(5) Finish[answer]: ends the task with the answer.
Functions can be nested, and a function applied to a list of IDs works on each of them:
Feature[Retrieve[some title], label] or Feature[Neighbour[NodeID, cites], title].
Several calls can share one Action when separated by commas."""

COMPOUND_OFF = """\
Graph functions you can call in an Action (exactly one simple call per Action, no nesting):
(1) Retrieve[text]: finds the node whose name or title is most similar to the text and returns its ID.
(2) Feature[NodeID, feature_name]: returns the value of one feature of a node.
(3) Neighbour[NodeID, neighbor_type]: returns the IDs of all neighbors linked by that edge type.
(4) Degree[NodeID, neighbor_type]: returns how many neighbors of that edge type the node has.
(5) Finish[answer]: ends the task with the answer."""

EXAMPLE = """\
Question: Which research area does the paper titled "Learning to rank with graphs" belong to?
Plan 1: Find the paper's node from its title, then read its label feature.
Thought 1: I need the node ID of the paper and then its label.
Action 1: Feature[Retrieve[Learning to rank with graphs], label]
Observation 1: The label feature of 2231 are: Machine_Learning.
Plan 2: The label answers the question, so finish.
Thought 2: The paper belongs to Machine_Learning.
Action 2: Finish[Machine_Learning]

Question: How many papers cite the paper titled "Sparse coding of images"?
Plan 1: Locate the paper, then count its cited_by neighbors.
Thought 1: I need the paper's ID first.
Action 1: Retrieve[Sparse coding of images]
Observation 1: The ID of this retrieval target node is 88.
Plan 2: Count the papers citing node 88.
Thought 2: Degree with the cited_by edge type gives the number of citing papers.
Action 2: Degree[88, cited_by]
Observation 2: The cited_by neighbor number of 88 is 4.
Plan 3: The count is known, so finish.
Thought 3: Four papers cite it.
Action 3: Finish[4]"""

EXAMPLE_NO_PLAN = "\n".join(line for line in EXAMPLE.splitlines() if not line.startswith("Plan"))

REFLECTION_HEADER = (
    "You tried this question before and did not succeed. The reflection(s) below explain what went wrong "
    "and how to avoid it; use them to answer correctly this time.\nReflections:"
)

ROLE_RULE = {
    "plan": "Write only the next Plan line: what the question asks and the path through the graph that reaches the answer.",
    "thought": "Write only the next Thought line: which piece of graph information is needed right now.",
    "action": "Write only the next Action line: one graph function call (nested calls allowed) or Finish[answer].",
}


def reasoning_prompt(
    *,
    question: str,
    graph_definition: str,
    scratchpad: str,
    reflections: list[str],
    with_plan: bool,
    compound: bool,
) -> str:
    """The shared instruction block of the planning, thought and execution agents."""
    steps = "Plan, Thought, Action and Observation" if with_plan else "Thought, Action and Observation"
    example = EXAMPLE if with_plan else EXAMPLE_NO_PLAN
    parts = [
        f"Answer a question about a graph by repeating {steps} steps. "
        "Plan says what the question needs and how to reach it; Thought says what graph information is needed next; "
        "Action calls graph functions; the Observation is returned by the graph (never write it yourself).",
        FUNCTIONS if compound else COMPOUND_OFF,
        "Examples:\n" + example + "\n(END OF EXAMPLES)",
    ]
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
neighbor_type], Degree[NodeID, neighbor_type], Finish[answer]; calls can be nested (combine at most two per step).
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
