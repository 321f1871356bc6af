"""Summary, Markdown report and plot of a GraphAgent eval run.

Per variant (:mod:`graphreason.evals.graphagent.evaluate`): accuracy and macro-F1 (%) over the
nodes it answered, accuracy on the nodes *every* variant of the run answered
(``acc same``: the fair comparison when some runs failed), the relative change
against the full agent it ablates (as the paper's Tables 4-5: ``(acc -
ref) / ref``; ablations against their base, everything else against
``faithful``), LLM calls / tokens / seconds per node, and how runs ended
(answer, T_max fallback, too many bad replies) in % of answered nodes.

Tool-mode variants add the tool-change analysis (:mod:`graphreason.evals.graphagent.metrics`):
how often the agent kept or changed the graph model's label, and whether a
change helped or hurt; and the agent against the graph model alone on the
same nodes (the target: never more than 1 point below it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphreason.evals import report as page
from graphreason.evals.graphagent.metrics import (
    accuracy,
    change_outcome,
    label_key,
    macro_f1,
    per_class_f1,
    relative_change,
    same_label,
    tool_change_counts,
)

MAIN = ("tool", "faithful", "graph_model", "title_zero_shot")
COLUMNS = (
    ("n", "n"),
    ("errors", "err"),
    ("accuracy", "acc %"),
    ("relative", "Δ %"),
    ("reference", "Δ vs"),
    ("accuracy_common", "acc same %"),
    ("macro_f1", "macro-F1 %"),
    ("llm_calls", "calls/node"),
    ("tokens", "tokens/node"),
    ("seconds", "s/node"),
    ("steps", "steps"),
    ("lessons", "lessons"),
    ("ended_answer", "answer %"),
    ("ended_t_max", "T_max %"),
    ("ended_errors", "errors %"),
)
SIDE_COLUMNS = (("n", "n"), ("accuracy", "acc %"), ("accuracy_common", "acc same %"), ("macro_f1", "macro-F1 %"),
                ("llm_calls", "calls/node"), ("tokens", "tokens/node"), ("seconds", "s/node"))
TOOL_COLUMNS = (
    ("nodes", "nodes"),
    ("agree", "kept"),
    ("changed", "changed"),
    ("helped", "helped"),
    ("hurt", "hurt"),
    ("neutral", "neutral"),
    ("net", "net"),
    ("vetoed", "guard kept model"),
    ("veto_saved", "guard right"),
    ("veto_cost", "guard wrong"),
    ("tool_accuracy", "tool acc %"),
    ("agent_accuracy", "agent acc %"),
)
SHOWN_CHANGES = 30


def _pct(value: float | None) -> float | None:
    return None if value is None else round(100.0 * value, 2)


def _mean(values: Sequence[float], digits: int = 2) -> float | None:
    average = page.mean(values)
    return None if average is None else round(average, digits)


def _trial(record: dict[str, Any]) -> dict[str, Any]:
    """The episode stored with a record (see ``graphreason.evals.graphagent.evaluate``): ended_by, tool_prediction, ..."""
    details = record.get("details")
    return details if isinstance(details, dict) else {}


def tool_label_of(record: dict[str, Any]) -> str | None:
    """The graph model's label stored with an agent record (None when the tool did not run)."""
    prediction = _trial(record).get("tool_prediction")
    return prediction.get("label") if isinstance(prediction, dict) else None


def _row(records: Sequence[dict[str, Any]], common: set[str]) -> dict[str, Any]:
    ok = [r for r in records if r.get("status") == "ok"]
    golds = [r.get("gold") for r in ok]
    predictions = [r.get("prediction") or None for r in ok]
    same = [r for r in ok if r["qid"] in common]
    usage = [r.get("usage") or {} for r in ok]
    scores = [r.get("scores") or {} for r in ok]
    row: dict[str, Any] = {
        "n": len(records),
        "errors": len(records) - len(ok),
        "accuracy": _pct(accuracy(golds, predictions)),
        "accuracy_common": _pct(accuracy([r.get("gold") for r in same], [r.get("prediction") for r in same])),
        "common_n": len(same),
        "macro_f1": _pct(macro_f1(golds, predictions)),
        "no_answer": sum(1 for p in predictions if not p),
        "llm_calls": _mean([float(u.get("llm_calls", 0) or 0) for u in usage]),
        "input_tokens": _mean([float(u.get("input_tokens", 0) or 0) for u in usage], 1),
        "output_tokens": _mean([float(u.get("output_tokens", 0) or 0) for u in usage], 1),
        "tokens": _mean([float(u.get("input_tokens", 0) or 0) + float(u.get("output_tokens", 0) or 0)
                         for u in usage], 1),
        "seconds": _mean([float(r.get("seconds") or 0.0) for r in ok], 3),
        "steps": _mean([float(s.get("steps", 0.0)) for s in scores]),
        "lessons": _mean([float(len(_trial(r).get("lessons") or [])) for r in ok]),
    }
    for key in ("ended_answer", "ended_t_max", "ended_errors"):
        row[key] = _pct(page.mean([float(s.get(key, 0.0)) for s in scores]))
    row["per_class_f1"] = {k: round(100 * v, 2) for k, v in per_class_f1(golds, predictions).items()}
    return row


def _tool_analysis(records: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    ok = [r for r in records if r.get("status") == "ok"]
    triples = [(r.get("prediction") or None, tool_label_of(r), r.get("gold")) for r in ok]
    counts = tool_change_counts(triples)
    counts["net"] = counts["helped"] - counts["hurt"]
    # the tool guard: the agent's own label, when the guard replaced it by the model's
    vetoed = [(a, _trial(r).get("agent_answer"), g) for r, (a, _, g) in zip(ok, triples, strict=True)
              if _trial(r).get("agent_answer") and label_key(_trial(r).get("agent_answer")) != label_key(a)]
    counts["vetoed"] = len(vetoed)
    counts["veto_saved"] = sum(1 for final, wanted, gold in vetoed if same_label(final, gold))
    counts["veto_cost"] = sum(1 for final, wanted, gold in vetoed if same_label(wanted, gold))
    counts["tool_accuracy"] = _pct(counts["tool_accuracy"])
    counts["agent_accuracy"] = _pct(counts["agent_accuracy"])
    changes = [
        {"node": r["qid"], "title": r.get("question"), "tool": tool, "agent": agent, "gold": gold,
         "outcome": change_outcome(agent, tool, gold)}
        for r, (agent, tool, gold) in zip(ok, triples, strict=True)
        if change_outcome(agent, tool, gold) is not None
    ]
    return counts, changes


def _versus(by_variant: dict[str, list[dict[str, Any]]], agent: str, baseline: str) -> dict[str, Any] | None:
    """``agent`` against ``baseline`` on the nodes both answered: accuracies and the difference in points."""
    if agent not in by_variant or baseline not in by_variant:
        return None
    first = {r["qid"]: r for r in by_variant[agent] if r.get("status") == "ok"}
    second = {r["qid"]: r for r in by_variant[baseline] if r.get("status") == "ok"}
    nodes = sorted(first.keys() & second.keys())
    if not nodes:
        return None
    a = accuracy([first[n].get("gold") for n in nodes], [first[n].get("prediction") for n in nodes])
    b = accuracy([second[n].get("gold") for n in nodes], [second[n].get("prediction") for n in nodes])
    return {"nodes": len(nodes), agent: _pct(a), baseline: _pct(b), "points": round(100.0 * (a - b), 2)}


def summarize(records: page.Records, meta: dict[str, Any]) -> dict[str, Any]:
    by_variant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_variant[str(record["mode"])].append(record)
    order = [v for v in meta.get("variants") or [] if v in by_variant]
    order += sorted(v for v in by_variant if v not in order)
    answered = [{r["qid"] for r in by_variant[v] if r.get("status") == "ok"} for v in order]
    common = set.intersection(*answered) if answered else set()
    rows = {v: _row(by_variant[v], common) for v in order}
    references = meta.get("references") or {}
    for variant, row in rows.items():
        reference = references.get(variant, None if variant == "faithful" else "faithful")
        row["reference"] = reference if reference in rows else None
        row["relative"] = (
            None if row["reference"] is None
            else _round(relative_change(row["accuracy"], rows[row["reference"]]["accuracy"]))
        )
    tool: dict[str, Any] = {}
    changes: dict[str, list[dict[str, Any]]] = {}
    for variant in order:
        if any("tool_correct" in (r.get("scores") or {}) for r in by_variant[variant]):
            tool[variant], changes[variant] = _tool_analysis(by_variant[variant])
    return {
        **meta,
        "common_nodes": len(common),
        "variants": rows,
        "tool_changes": tool,
        "changes": changes,
        "versus": {
            key: value for key, value in (
                ("tool_vs_graph_model", _versus(by_variant, "tool", "graph_model")),
                ("tool_vs_faithful", _versus(by_variant, "tool", "faithful")),
                ("faithful_vs_title_zero_shot", _versus(by_variant, "faithful", "title_zero_shot")),
            ) if value is not None
        },
        "errors": [
            {"mode": r["mode"], "qid": r["qid"], "error": r.get("error", "")}
            for r in records if r.get("status") != "ok"
        ],
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


# ------------------------------------------------------------------ page

_EXPLAIN = (
    "acc / macro-F1 over the nodes a variant answered (err: runs that failed; a rerun retries them); "
    "acc same: on the {common} nodes every variant answered; Δ: relative change of acc against the full "
    "agent named in Δ vs (ablations against their base, the rest against faithful), as the paper's "
    "Tables 4-5; "
    "answer / T_max / errors: how runs ended, % of answered nodes."
)
_EXPLAIN_TOOL = (
    "kept: the agent answered the graph model's label; changed = helped (agent right, model wrong) + hurt "
    "(model right, agent wrong) + neutral (both wrong); net = helped - hurt. guard kept model: the agent "
    "answered another label and the tool guard kept the model's; guard right / wrong: the model's / the "
    "agent's label was the gold one."
)


def _versus_lines(versus: dict[str, Any]) -> list[str]:
    lines = []
    for value in versus.values():
        names = [k for k in value if k not in ("nodes", "points")]
        lines.append(
            f"- {names[0]} {page.cell(value[names[0]])} % vs {names[1]} {page.cell(value[names[1]])} % "
            f"on the same {value['nodes']} nodes: {value['points']:+.2f} points"
        )
    return lines


def render(summary: dict[str, Any], plot_name: str) -> str:
    rows = summary["variants"]
    facts = [
        f"dataset: {summary.get('dataset')} ({summary.get('source')}), split {summary.get('split')}, "
        f"part {summary.get('part')}: {summary.get('n_questions')} nodes"
        + (f" (a seeded sample, limit {summary['limit']})" if summary.get("limit") else ""),
        f"agent model: {summary.get('agent_model')}",
        "settings: " + ", ".join(f"{k}={v}" for k, v in (summary.get("settings") or {}).items()),
        f"records: {summary.get('records_file')}",
    ]
    settings = summary.get("settings") or {}
    if settings.get("long_term") and not settings.get("experience_path"):
        facts.append("long-term memory: no experience store given (--experience-path), so no lessons were "
                      "replayed; no_long_term equals its base here")
    side = {v: rows[v] for v in MAIN if v in rows}
    tool_rows = summary.get("tool_changes") or {}
    changes = [
        f"- {variant} `{c['node']}` {c['outcome']}: model {c['tool']} -> agent {c['agent']} (gold {c['gold']})"
        f"{': ' + str(c['title'])[:90] if c.get('title') else ''}"
        for variant, variant_changes in (summary.get("changes") or {}).items()
        for c in variant_changes[:SHOWN_CHANGES]
    ]
    return page.markdown_page(
        summary.get("title") or "GraphAgent evaluation",
        facts,
        _EXPLAIN.format(common=summary.get("common_nodes", 0)),
        page.section("Variants", page.markdown_table(rows, "variant", COLUMNS)),
        page.section(
            "Faithful and tool mode beside the graph model and title-only zero-shot",
            page.markdown_table(side, "variant", SIDE_COLUMNS) + (
                "\n\n" + "\n".join(_versus_lines(summary.get("versus") or {})) if summary.get("versus") else ""
            ),
        ) if len(side) > 1 else None,
        page.section(
            "Where the agent changed the graph model's answer",
            _EXPLAIN_TOOL + "\n\n" + page.markdown_table(tool_rows, "variant", TOOL_COLUMNS)
            + ("\n\n" + "\n".join(changes) if changes else ""),
        ) if tool_rows else None,
        page.image("accuracy and cost per variant", plot_name),
        page.errors_section(summary.get("errors") or []),
    )


def plot(records: page.Records, summary: dict[str, Any], path: Path) -> None:
    """Accuracy and macro-F1 per variant, and LLM calls per node."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = summary["variants"]
    names = list(rows)
    xs = range(len(names))
    fig, (left, right) = plt.subplots(1, 2, figsize=(max(8.0, 1.1 * len(names) + 4), 4.2), dpi=110)
    for offset, key, label in ((-0.2, "accuracy", "accuracy"), (0.2, "macro_f1", "macro-F1")):
        page.labelled_bars(left, [i + offset for i in xs], [rows[n].get(key) for n in names], 0.4, label=label)
    left.set_ylim(0, 130)  # room for the value labels above a 100% bar and the legend above them
    left.set_yticks(range(0, 101, 20))
    left.set_ylabel("%")
    left.legend(fontsize="small", loc="upper center", ncols=2)
    left.set_title("accuracy per variant")
    page.labelled_bars(right, list(xs), [rows[n].get("llm_calls") for n in names], 0.6, digits=1, color="tab:gray")
    right.margins(y=0.15)
    right.set_ylabel("LLM calls per node")
    right.set_title("cost per variant")
    for ax in (left, right):
        ax.set_xticks(list(xs), names, rotation=40, ha="right", fontsize="small")
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(summary.get("title") or "GraphAgent")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


GRAPHAGENT_REPORT = page.ReportKind(summarize=summarize, render=render, plot=plot, plot_name="accuracy.png")
