"""Question sets: GRBench files, template-generated sets, and the QAItem record."""

from graphreason.evals.datasets.generated import generate_questions, list_templates, make_splits
from graphreason.evals.datasets.grbench import load_grbench_questions
from graphreason.evals.datasets.items import QAItem, load_items, save_items

__all__ = [
    "QAItem",
    "generate_questions",
    "list_templates",
    "load_grbench_questions",
    "load_items",
    "make_splits",
    "save_items",
]
