"""Packaging: the design card's top-level folders are installed under the ``graphreason`` namespace only.

``llm/``, ``tools/``, ``memory/``, ``workflows/`` and ``evals/`` stay where the design
card puts them, beside ``graphreason/`` (the CLI and settings), but they install as
``graphreason.llm``, ``graphreason.tools``, ... so the project claims one import name
and cannot clash with PyPI's own ``llm`` or ``evals`` packages. Everything else is
declared in pyproject.toml.
"""

from setuptools import find_packages, setup

LAYERS = ("llm", "tools", "memory", "workflows", "evals")

packages = find_packages(include=["graphreason", "graphreason.*"])
package_dir = {"graphreason": "graphreason"}
for layer in LAYERS:
    package_dir[f"graphreason.{layer}"] = layer
    packages += [f"graphreason.{p}" for p in find_packages(include=[layer, f"{layer}.*"])]

setup(
    packages=sorted(set(packages)),
    package_dir=package_dir,
    # the shipped generator adapter (fp16 LoRA weights, config, card) travels with the package
    # and the Spark engine's logging profile
    package_data={"graphreason.llm": ["adapters/*/*"], "graphreason.tools": ["gar/spark/log4j2.properties"]},
)
