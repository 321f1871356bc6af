"""A folder that lays the sources out as they are installed, for import-linter.

setup.py installs ``llm/``, ``tools/``, ``memory/``, ``workflows/`` and ``evals/``
as ``graphreason.llm``, ``graphreason.tools``, ... (``package_dir``). The
editable install maps those names with an import hook, which grimp (the graph
builder behind ``lint-imports``) cannot see: it walks the folder of the root
package, and ``graphreason/`` on disk holds only the CLI and the settings.
:func:`build` makes ``DEST/graphreason/`` out of symbolic links (the files of
``graphreason/`` and one link per layer folder), so grimp walks the real files
under their installed names; new files show up without rebuilding.
``lint-imports`` must run with ``DEST`` as its working folder, because it puts the
working folder first on ``sys.path``::

    python -m tests.import_tree build/import-tree
    cd build/import-tree && lint-imports --no-cache ../../pyproject.toml

The layer folders are read from setup.py's ``LAYERS``, so the two cannot disagree.
"""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = "graphreason"


def layer_folders(setup_py: Path = REPO / "setup.py") -> tuple[str, ...]:
    """The ``LAYERS`` tuple of setup.py, read without running it."""
    for node in ast.parse(setup_py.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "LAYERS" for t in node.targets):
            value = ast.literal_eval(node.value)
            if isinstance(value, (tuple, list)) and all(isinstance(v, str) for v in value):
                return tuple(value)
    raise ValueError(f"{setup_py} assigns no LAYERS tuple of folder names")


def installed_modules(repo: Path = REPO) -> dict[str, Path]:
    """Every module the package installs, by dotted name, with its source file.

    Mirrors setup.py: ``graphreason/`` and each layer folder, descending only into
    folders that hold an ``__init__.py`` (what ``find_packages`` takes).
    """
    roots = {PACKAGE: repo / PACKAGE}
    roots.update({f"{PACKAGE}.{layer}": repo / layer for layer in layer_folders(repo / "setup.py")})
    modules: dict[str, Path] = {}
    for prefix, top in roots.items():
        pending = [(prefix, top)]
        while pending:
            name, folder = pending.pop()
            if not (folder / "__init__.py").is_file():
                continue
            for entry in sorted(folder.iterdir()):
                if entry.is_dir() and entry.name != "__pycache__":
                    if f"{name}.{entry.name}" not in roots:
                        pending.append((f"{name}.{entry.name}", entry))
                elif entry.suffix == ".py":
                    modules[name if entry.stem == "__init__" else f"{name}.{entry.stem}"] = entry
    return dict(sorted(modules.items()))


def build(dest: Path | str, repo: Path = REPO) -> Path:
    """Make (or remake) ``dest/graphreason`` as links to the installed layout; returns ``dest``."""
    dest = Path(dest).resolve()
    package = dest / PACKAGE
    if package.is_symlink() or package.is_file():
        package.unlink()
    elif package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    layers = layer_folders(repo / "setup.py")
    for entry in sorted((repo / PACKAGE).iterdir()):
        if entry.name == "__pycache__":
            continue
        if entry.name in layers:
            raise ValueError(f"{entry} clashes with the layer folder {repo / entry.name} installed under that name")
        (package / entry.name).symlink_to(entry)
    for layer in layers:
        source = repo / layer
        if not (source / "__init__.py").is_file():
            raise ValueError(f"layer folder {source} is not a package (no __init__.py)")
        (package / layer).symlink_to(source, target_is_directory=True)
    return dest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m tests.import_tree DEST")
    print(build(sys.argv[1]))
