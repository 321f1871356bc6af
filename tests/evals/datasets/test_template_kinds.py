"""The question kinds both graphs share, on a toy raw graph: drafts, eligibility, ties."""

from __future__ import annotations

from dataclasses import dataclass, field

from graphreason.evals.datasets.template_base import Kinds, Subject, title_answer, unique_argmax

# papers p1..p5; p1 cites p2, p3, p4; p2 and p3 are cited twice, p4 once
CITES = {"p1": ["p2", "p3", "p4"], "p2": ["p3"], "p3": [], "p4": ["p2"], "p5": []}


@dataclass
class Toy:
    titles: dict[str, str] = field(
        default_factory=lambda: {"p1": "Alpha", "p2": "Beta", "p3": "Gamma", "p4": "Delta", "p5": ""}
    )
    cites: dict[str, list[str]] = field(default_factory=lambda: {k: list(v) for k, v in CITES.items()})
    labels: dict[str, str] = field(
        default_factory=lambda: {"p1": "ML", "p2": "ML", "p3": "DB", "p4": "ML", "p5": "DB"}
    )

    def subject(self, kind: str, sid: str) -> Subject:
        return Subject.titled(self.titles[sid], sid)

    def neighbours(self, sid: str, hop: str) -> list[str]:
        if hop == "cites":
            return self.cites[sid]
        return [p for p, refs in self.cites.items() if sid in refs]  # cited_by

    def feature(self, nid: str, name: str) -> str:
        return {"title": self.titles, "label": self.labels}[name][nid]


PAPER = Kinds("paper")


def test_subjects_name_the_node_in_the_question_and_the_action() -> None:
    draft = Subject.titled("A {b} title", "7").draft("Who wrote {s}?", "x", "Feature[{ref}, author]", n=1)
    assert (
        draft.question == 'Who wrote "A {b} title"?'
        and draft.action == "Feature[Retrieve[A {b} title], author]"
    )
    assert (draft.subject, draft.subject_id, draft.extra) == ("A {b} title", "7", {"n": 1})
    by_id = Subject.by_id("u3").draft("Age of user {s}?", "30", "Feature[{ref}, age]")
    assert (by_id.question, by_id.action) == ("Age of user u3?", "Feature[u3, age]")


def test_kinds_fix_level_rule_and_subject_kind() -> None:
    templates = [
        PAPER.lookup("a", "q {s}", "label"),
        PAPER.neighbour_titles("b", "q {s}", "cites"),
        PAPER.degree("c", "q {s}", "cites"),
        PAPER.top_neighbour("d", "q {s}", "cites", "cited_by"),
        PAPER.neighbourhood_vote("e", "q {s}", "cites", "label", (1, 5)),
    ]
    assert [(t.level, t.rule, t.subject_kind) for t in templates] == [
        ("easy", "value", "paper"),
        ("easy", "list", "paper"),
        ("easy", "value", "paper"),
        ("medium", "value", "paper"),
        ("hard", "most_common", "paper"),
    ]


def test_lookup_titles_and_degree() -> None:
    raw = Toy()
    label = PAPER.lookup("label", "Area of {s}?", "label").make(raw, "p1")
    assert (label.question, label.gold, label.action) == (
        'Area of "Alpha"?',
        "ML",
        "Feature[Retrieve[Alpha], label]",
    )
    refs = PAPER.neighbour_titles("refs", "What does {s} cite?", "cites").make(raw, "p1")
    assert refs.gold == ["Beta", "Delta", "Gamma"]
    assert refs.action == "Feature[Neighbour[Retrieve[Alpha], cites], title]"
    assert PAPER.neighbour_titles("refs", "q {s}", "cites").make(raw, "p3") is None  # cites nothing
    assert PAPER.degree("n", "q {s}", "cited_by").make(raw, "p2").gold == "2"
    assert PAPER.degree("n", "q {s}", "cited_by").make(raw, "p1") is None  # never cited: skipped


def test_title_answer_needs_titled_nodes_within_the_list_limit() -> None:
    raw = Toy()
    assert title_answer(raw, ["p3", "p2"]) == ["Beta", "Gamma"]
    assert title_answer(raw, ["p2", "p5"]) is None  # p5 has no title to quote
    assert title_answer(raw, []) is None
    raw.titles.update({f"x{i}": f"T{i}" for i in range(16)})
    assert title_answer(raw, [f"x{i}" for i in range(16)]) is None  # over MAX_LIST (15)


def test_top_neighbour_skips_ties_and_counts_the_winner() -> None:
    raw = Toy()
    top = PAPER.top_neighbour("top", "Most cited of {s}'s references?", "cites", "cited_by")
    assert top.make(raw, "p1") is None  # p2 and p3 are both cited twice
    raw.cites["p5"] = ["p2"]  # p2 now leads with three citers
    draft = top.make(raw, "p1")
    assert (draft.gold, draft.extra) == ("Beta", {"winning_count": 3})
    inner = "Neighbour[Retrieve[Alpha], cites]"
    assert draft.action == f"Feature[MaxDegree[{inner}, cited_by], title]"
    assert top.make(raw, "p4") is None  # a single reference is below the size bound


def test_neighbourhood_vote_counts_values_and_skips_ties() -> None:
    raw = Toy()
    vote = PAPER.neighbourhood_vote(
        "vote", "Main area cited by {s}?", "cites", "label", (2, 5), counts_key="n"
    )
    draft = vote.make(raw, "p1")  # ML (p2, p4) beats DB (p3)
    assert (draft.gold, draft.extra) == ("ML", {"n": {"ML": 2, "DB": 1}})
    assert draft.action == "Mode[Feature[Neighbour[Retrieve[Alpha], cites], label]]"
    assert vote.make(raw, "p2") is None  # one neighbour, under the size bound
    raw.labels["p4"] = "AI"
    assert vote.make(raw, "p1") is None  # ML, DB, AI: a three-way tie
    raw.labels["p3"] = ["AI", "DB"]  # a list-valued feature counts each of its values
    assert vote.make(raw, "p1").extra == {"n": {"ML": 1, "AI": 2, "DB": 1}}


def test_unique_argmax() -> None:
    assert unique_argmax({"a": 1, "b": 3}) == ("b", 3)
    assert unique_argmax({"a": 2, "b": 2}) is None
    assert unique_argmax({}) is None


def test_a_subject_that_leaves_a_parenthesis_open_is_never_asked_about() -> None:
    from graphreason.evals.datasets.generated import instantiate
    from graphreason.evals.datasets.template_base import Draft, Template, balanced_parentheses
    from graphreason.tools.counselor.calls import parse_action

    assert balanced_parentheses("Visual Ranking (Extended Abstract) Methods") and balanced_parentheses("Plain")
    assert not balanced_parentheses("Some Methods (Some additions are planned for")
    assert not balanced_parentheses("A ) B ( C")
    # a parenthesis no call opens is text to the parser, so the call ends at its own bracket (the templates, written
    # before the parser read it so, still leave such a name out)
    assert parse_action("Feature[Retrieve[Some Methods (Some additions], title]")[0].args[0].args == (
        "Some Methods (Some additions",
    )

    class Raw:
        names = {"a": "Some Methods (Some additions", "b": "Learning (Extended Abstract) Here", "c": "Plain Title"}

        def subjects(self, kind: str) -> list[str]:
            return sorted(self.names)

    def make(raw: Raw, sid: str) -> Draft:
        name = raw.names[sid]
        return Draft(f"What is {name}?", "x", f"Feature[Retrieve[{name}], label]", name, sid)

    items = instantiate("toy", Template("what", "easy", "value", "paper", make), Raw(), 5, 0)
    assert sorted(i.meta["subject_id"] for i in items) == ["b", "c"]
