# gamelab: `make run` plays the quickstart experiment and writes its report; `make test` runs
# the test suite. Both build in the release profile, so dependencies are built once for both.

CARGO ?= cargo
GAMELAB = $(CARGO) run --release --quiet --
EXPERIMENT ?= experiments/quickstart.toml

.PHONY: engines readers import-circles design-check openspiel reproduce-openspiel check-openspiel-othello check-gotools fuzz-experiments chromium run test test-mpi mpi mpi-deps test-cluster bench-mpi check-experiments bench deps perft clean-results reproduce-othello reproduce-colosseum reproduce-freckers reproduce-gotools reproduce-gotools-quick reproduce-gotools-files reproduce-gotools-files-mpi reproduce-gotools-files-scaled reproduce-gotools-search reproduce-gotools-files-quick reproduce-summary reproduction reproduce-all reproduce-course-time

run: deps
	@echo "Building gamelab (release; the first build compiles about 450 crates, some 20 minutes on 2 cores, with cargo's progress below)"
	$(CARGO) build --release
	$(GAMELAB) run $(EXPERIMENT)
	$(GAMELAB) report $(EXPERIMENT)

test: deps chromium openspiel engines readers
	$(CARGO) test --release
	# The benchmarks compile (they are not run here: speed lives in `cargo bench`).
	$(CARGO) bench --no-run
	$(MAKE) --no-print-directory check-experiments
	$(MAKE) --no-print-directory test-mpi
	$(MAKE) --no-print-directory import-circles
	$(MAKE) --no-print-directory design-check

# OpenSpiel (Python package open-spiel, with numpy, absl-py and python-chess: 166 MB measured) in a virtual environment of the repository
# (.venv/, git-ignored): the OpenSpiel tests use it and say SKIPPED without it (with
# REQUIRE_OPENSPIEL=1, as CI sets, they fail instead). Installs python3-venv where it is missing.
OPENSPIEL_PYTHON = .venv/bin/python
openspiel:
	@if $(OPENSPIEL_PYTHON) -c "import pyspiel, chess, sgfmill" 2> /dev/null; then :; else \
		echo "installing OpenSpiel (pip package open-spiel, and python-chess and sgfmill, which check the PGN and SGF records) into .venv/"; \
		{ python3 -m venv .venv 2> /dev/null || { rm -rf .venv; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv > /dev/null && python3 -m venv .venv; }; } \
		&& .venv/bin/pip install -q --no-deps open-spiel numpy absl-py chess sgfmill \
		|| { echo "OpenSpiel could not be installed: its tests will say SKIPPED"; [ -z "$$REQUIRE_OPENSPIEL" ] || exit 1; }; \
	fi

# pandas (with pyarrow), polars and DuckDB in the same .venv/: the test of docs/rows.md's one-line
# reads of the rows (tests/outside_tools.rs) runs them, and says SKIPPED without them (with
# REQUIRE_READERS=1, as CI sets, it fails instead). About 550 MB installed, 10 s from PyPI.
readers: openspiel
	@if $(OPENSPIEL_PYTHON) -c "import duckdb, polars, pandas, pyarrow" 2> /dev/null; then :; else \
		echo "installing pandas, pyarrow, polars and duckdb into .venv/ (docs/rows.md's reads of the rows are tested with them)"; \
		.venv/bin/pip install -q duckdb==2.0.1 polars==2.1.0 pandas==3.1.1 pyarrow==26.0.1 \
		|| { echo "the readers could not be installed: their test will say SKIPPED"; [ -z "$$REQUIRE_READERS" ] || exit 1; }; \
	fi

# OpenSpiel's games and bots in sweeps (docs/openspiel.md): connect_four (C x simulations),
# 6x6 breakthrough (our UCT against OpenSpiel's MCTS), Othello (OpenSpiel's MCTS against
# SimpleMCTS on our engine); each with its report. About 2 minutes on 2 cores.
OPENSPIEL_EXPERIMENTS = experiments/openspiel-connect-four.toml experiments/openspiel-breakthrough.toml \
                        experiments/openspiel-othello.toml
reproduce-openspiel: deps openspiel
	@for f in $(OPENSPIEL_EXPERIMENTS); do $(GAMELAB) run "$$f" && $(GAMELAB) report "$$f" || exit 1; done

# Our Othello against OpenSpiel's: OPENSPIEL_OTHELLO_GAMES random games (default 1,000) replayed
# move for move (tests/openspiel.rs).
check-openspiel-othello: openspiel
	REQUIRE_OPENSPIEL=1 $(CARGO) test --release --test tests openspiel:: -- --nocapture

# Distributed runs (`gamelab run FILE --mpi` under mpirun) need the `mpi` feature and Open MPI.
# `make mpi` builds target/release/gamelab with it (the default build, `make run`, needs no MPI).
mpi: mpi-deps
	$(CARGO) build --release --features mpi

# The MPI tests: 3-rank runs of every job kind that sends work to workers, compared with a
# one-process run, and a worker killed mid-run (tests/mpi.rs). Where Open MPI is missing and
# cannot be installed (no apt-get, or not root) they are skipped with a message, unless
# REQUIRE_MPI=1 (CI sets it), which makes that an error.
test-mpi: deps
	@if $(MAKE) --no-print-directory mpi-deps; then \
		$(CARGO) test --release --features mpi --test tests mpi::; \
	elif [ "$(REQUIRE_MPI)" = 1 ]; then \
		echo "REQUIRE_MPI=1: Open MPI is needed for the MPI tests"; exit 1; \
	else \
		echo "MPI tests SKIPPED: Open MPI is not installed and cannot be installed here (make mpi-deps)"; \
	fi

# Open MPI (mpirun and the headers) and libclang (the mpi crate generates its bindings with it),
# from Debian's packages when they are missing.
# Headless Chromium for the HTML report's browser test (tests/runs.rs): Debian's chromium
# package. Where it cannot be installed the test says SKIPPED, unless REQUIRE_CHROMIUM=1 (CI).
chromium:
	@if command -v chromium > /dev/null || command -v chromium-browser > /dev/null || command -v google-chrome > /dev/null; then \
		true; \
	elif command -v apt-get > /dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "installing Chromium for the HTML report test (Debian package chromium)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium > /dev/null; \
	else \
		echo "Chromium is missing (apt-get install chromium): the HTML report's browser test will be skipped"; \
	fi

# Other people's engines (docs/protocol.md, "Other people's engines"): Debian's stockfish (UCI)
# and gnugo (GTP), in /usr/games. The engine tests (tests/engines.rs) play them, and say
# SKIPPED without them unless REQUIRE_ENGINES is set (CI sets it).
engines:
	@if [ -x /usr/games/stockfish ] && [ -x /usr/games/gnugo ]; then \
		true; \
	elif command -v apt-get > /dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "installing the engines the UCI and GTP tests play (Debian packages stockfish, gnugo)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends stockfish gnugo > /dev/null; \
	else \
		echo "stockfish or gnugo is missing (apt-get install stockfish gnugo): the engine tests will be skipped"; \
	fi

mpi-deps:
	@if command -v mpirun > /dev/null && command -v mpicc > /dev/null && ls /usr/lib/llvm-*/lib/libclang.so > /dev/null 2>&1; then \
		true; \
	elif command -v apt-get > /dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "installing Open MPI and libclang (Debian packages openmpi-bin libopenmpi-dev libclang-dev)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openmpi-bin libopenmpi-dev libclang-dev > /dev/null; \
	else \
		echo "Open MPI is missing: install openmpi-bin, libopenmpi-dev and libclang-dev (or your cluster's MPI module)"; exit 1; \
	fi

# A real one-node Slurm cluster on this machine (slurm-wlm and munge from Debian's packages):
# submits the scripts `gamelab slurm` writes, as a job array and as an MPI job, and compares the
# rows with a local run. Needs root; takes a few minutes. See tests/cluster/slurm-local.sh.
test-cluster: mpi
	tests/cluster/slurm-local.sh

# Our solver against GoTools' own answers on GoTools' own problems (the files are copyrighted and
# not part of gamelab: PROBLEMS=DIR or GOTOOLS_PROBLEMS=DIR, a folder of lvA.B files from the
# public repository cameron-martin/tsumego-solver, benches/gotools/puzzles). A seeded sample of
# PER_LEVEL questions a level, TIME_LIMIT seconds each; a table per level. Without a folder it
# exits 2 saying how to get the files.
PER_LEVEL ?= 100
TIME_LIMIT ?= 10
check-gotools: deps
	$(GAMELAB) check-gotools $(PROBLEMS) --per-level $(PER_LEVEL) --time-limit $(TIME_LIMIT)

# Generated experiment files (tests/generated.rs) in many thousands: every job kind x agent kind
# x place x optional section, valid and invalid values; each must run or be refused (exit 0 or
# 2), never panic. `make test` runs 200 of them. CASES=N to change the number.
CASES ?= 5000
fuzz-experiments: deps
	GENERATED_CASES=$(CASES) $(CARGO) test --release --test tests generated:: -- --nocapture
	MUTATED_FILES=all $(CARGO) test --release --test tests mutated:: -- --nocapture

# Every experiment file must parse, validate and expand (nothing is run or written).
check-experiments: deps engines
	@$(CARGO) build --release --quiet
	@for f in experiments/*.toml; do \
		if grep -q '^source = "gotools"' "$$f" && [ -z "$$GOTOOLS_PROBLEMS" ]; then \
			echo "SKIPPED: $$f (reads GoTools' files: set GOTOOLS_PROBLEMS=DIR)"; continue; fi; \
		if grep -q 'openspiel' "$$f" && ! $(OPENSPIEL_PYTHON) -c "import pyspiel" 2> /dev/null; then \
			echo "SKIPPED: $$f (needs OpenSpiel: make openspiel)"; continue; fi; \
		$(GAMELAB) run "$$f" --dry-run > /dev/null || { echo "invalid experiment file: $$f"; exit 1; }; \
		echo "ok: $$f"; \
	done

# The Othello report's tables and figures (Tables 1-2 also at ten times their games).
OTHELLO = experiments/othello-ga-table1.toml experiments/othello-ga-table1-x10.toml \
          experiments/othello-ga-table2.toml experiments/othello-ga-table2-x10.toml \
          experiments/othello-ga-vs-handcrafted.toml experiments/othello-ga-vs-handcrafted-small6.toml \
          experiments/othello-ga-vs-handcrafted-c8.toml
reproduce-othello: deps
	@for f in $(OTHELLO); do $(GAMELAB) run "$$f" && $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done

# Both COMP 424 Colosseum reports (iteration budgets; the course-clock variants,
# experiments/colosseum-*-course-time.toml, take hours: reproduce-course-time).
COLOSSEUM = experiments/colosseum-sims-per-node.toml experiments/colosseum-sims-per-node-x10.toml \
            experiments/colosseum-popcoin.toml experiments/colosseum-popcoin-budget.toml \
            experiments/colosseum-popcoin-sizes.toml experiments/colosseum-annealed-random.toml
reproduce-colosseum: deps
	@for f in $(COLOSSEUM); do $(GAMELAB) run "$$f" && $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done

# The Freckers report's experiment files, about 15 minutes on 2 cores (the course-clock version,
# freckers-search-effort-course-time.toml, takes about 25 minutes: reproduce-course-time).
FRECKERS = experiments/freckers-ensemble.toml experiments/freckers-search-effort.toml experiments/freckers-hillclimb.toml \
           experiments/freckers-hybrid.toml experiments/freckers-hillclimb-readings.toml experiments/freckers-claims.toml
reproduce-freckers: deps
	@for f in $(FRECKERS); do $(GAMELAB) run "$$f" && $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done

# The GoTools report's GA experiments. The quick version (a small library, small GAs) takes a few
# minutes; the full one generates a 3 x 14 x 50 problem library and runs GAs that solve thousands
# of problems per generation: about 2-3 minutes on 2 cores with df-pn (133 s measured 2026-11-27
# on an idle machine, 4.5 minutes on 2026-11-26 beside other work; it was about 40 with the
# depth-first search). The combined and time-per-leaf experiments read the weights the GAs
# trained, so the order matters; the timed runs use one thread.
GOTOOLS_QUICK = experiments/gotools-quick-static.toml experiments/gotools-quick-static-df.toml \
                experiments/gotools-quick-dynamic.toml experiments/gotools-quick-combined.toml
reproduce-gotools-quick: deps
	@for f in $(GOTOOLS_QUICK); do $(GAMELAB) run "$$f" && $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done
	$(GAMELAB) run experiments/gotools-quick-time-per-leaf.toml --threads 1
	$(GAMELAB) report experiments/gotools-quick-time-per-leaf.toml --keep $(KEPT)

GOTOOLS = experiments/gotools-static.toml experiments/gotools-static-dynamic-fitness.toml \
          experiments/gotools-dynamic.toml experiments/gotools-dynamic-range.toml \
          experiments/gotools-dynamic-formulas.toml experiments/gotools-combined.toml
reproduce-gotools: deps
	@for f in $(GOTOOLS); do $(GAMELAB) run "$$f" && $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done
	$(GAMELAB) run experiments/gotools-time-per-leaf.toml --threads 1
	$(GAMELAB) report experiments/gotools-time-per-leaf.toml --keep $(KEPT)

# The GoTools report's experiments on GoTools' own problem sets (lv3.6 trains, lv4.6/10/14 test):
# GOTOOLS_PROBLEMS=DIR names a folder of GoTools' files (not part of gamelab; see
# docs/rules/tsumego.md, "Problem sets"). Without it, gamelab stops at once saying how to get them.
# The combined and time-per-leaf files read the weights the GAs trained (order matters); the
# timed runs use one thread. reproduce-gotools-files-mpi runs the same files over MPI, RANKS
# processes (default 3) on this machine (`make mpi` builds the MPI binary first).
# Wall times on 2 cores (measured 2026-11-26/27; each file's comments say more): static about
# 45 min (idle machine; 65 beside other work), static-dynamic-fitness 4 h 45 min (measured before
# the GA skipped children that copy a parent, so less now), dynamic about 8 h 20 min, combined
# about 7.5 h (from a 1,120-question sample of its 24,371), time-per-leaf about 3 h on one idle
# core: about a day in all. Every file resumes from its checkpoints and rows, so the day may be
# split.
GOTOOLS_FILES = experiments/gotools-files-static.toml experiments/gotools-files-static-dynamic-fitness.toml \
                experiments/gotools-files-dynamic.toml experiments/gotools-files-combined.toml
reproduce-gotools-files: deps
	@for f in $(GOTOOLS_FILES); do GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) run "$$f" && GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done
	GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) run experiments/gotools-files-time-per-leaf.toml --threads 1
	GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) report experiments/gotools-files-time-per-leaf.toml --keep $(KEPT)

RANKS ?= 3
MPIRUN = mpirun --allow-run-as-root --oversubscribe -n $(RANKS)
reproduce-gotools-files-mpi: mpi
	@for f in $(GOTOOLS_FILES); do GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(MPIRUN) -x GOTOOLS_PROBLEMS target/release/gamelab run "$$f" --mpi && GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" target/release/gamelab report "$$f" --keep $(KEPT) || exit 1; done

# The same tables on the report's sets with GAs small enough for 2 cores, about 5 hours in all:
# the full static-fitness file (Table 1, Figures 4-5; about 45 minutes), then the dynamic-fitness
# GAs (the report's GA where affordable, scaled elsewhere; about 1 and 2 hours), and the combined
# heuristics and the timed t-test from their weights (each file's comments say why and how much
# smaller, and what the full files cost).
GOTOOLS_FILES_SCALED = experiments/gotools-files-static.toml experiments/gotools-files-static-dynamic-fitness-scaled.toml \
                       experiments/gotools-files-dynamic-scaled.toml experiments/gotools-files-combined-scaled.toml
# The GoTools GAs with the depth-first search beside df-pn (issue 81: does the report's gain come
# back with the report's kind of search?), on GoTools' files: about an hour on 2 cores.
GOTOOLS_SEARCH = experiments/gotools-files-search.toml experiments/gotools-files-search-combined.toml
reproduce-gotools-search: deps
	@for f in $(GOTOOLS_SEARCH); do GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) run "$$f" && GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done

reproduce-gotools-files-scaled: deps
	@for f in $(GOTOOLS_FILES_SCALED); do GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) run "$$f" && GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done
	GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) run experiments/gotools-files-time-per-leaf-scaled.toml --threads 1
	GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) report experiments/gotools-files-time-per-leaf-scaled.toml --keep $(KEPT)

reproduce-gotools-files-quick: deps
	GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) run experiments/gotools-files-quick.toml
	GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)" $(GAMELAB) report experiments/gotools-files-quick.toml --keep $(KEPT)

# One page of every published value the reports compared, with its two-sample verdict
# (results/summary.md and summary.csv), from the reports that are there: run the reproduce
# targets first (or reproduce-all, which runs every one and then the summary).
reproduce-summary: deps
	$(GAMELAB) summary experiments/*.toml

# The same page as docs/reproduction.md (committed: the reproduction record of all five
# reports), built from the kept reports alone (docs/reports/<experiment>/: each reproduce target
# keeps its reports' tables there, `gamelab report --keep`), without running a game: the
# GoTools-file GAs take hours, so the record is gathered over several machines or sessions, and
# what a run produced is committed. A kept report whose file changed since is named stale; the
# files never reported are listed. `make test` checks that this rebuilds the committed page.
KEPT = docs/reports
reproduction: deps
	$(GAMELAB) summary experiments/*.toml --reports $(KEPT) --page docs/reproduction.md

# The files bounded by a game clock (the course's: 2 s a move in COMP 424, 180 s a game in COMP30024, or a tenth of it):
# their cost is that clock's, about 3 h 30 min in all on 2 cores (each file's comments say its own).
COURSE_TIME = experiments/freckers-search-effort-course-time.toml experiments/colosseum-popcoin-course-time.toml \
              experiments/colosseum-sims-per-node-course-time.toml experiments/freckers-hybrid-clock.toml
reproduce-course-time: deps
	@for f in $(COURSE_TIME); do $(GAMELAB) run "$$f" && $(GAMELAB) report "$$f" --keep $(KEPT) || exit 1; done

# Every experiment file with published values, in an order that trains before it reads the
# weights (GoTools' GAs before their combined and timed files), then the page. With
# GOTOOLS_PROBLEMS=DIR the files on GoTools' own sets run too (about a day more). docs/reproduction.md
# lists what each file cost (`run-times.csv` of each kept report).
reproduce-all: reproduce-othello reproduce-colosseum reproduce-freckers reproduce-gotools reproduce-gotools-quick reproduce-course-time
	@if [ -n "$(GOTOOLS_PROBLEMS)" ]; then $(MAKE) --no-print-directory reproduce-gotools-files GOTOOLS_PROBLEMS="$(GOTOOLS_PROBLEMS)"; \
	else echo "GOTOOLS_PROBLEMS not set: the files on GoTools' own sets are left out (see docs/rules/tsumego.md)"; fi
	$(MAKE) --no-print-directory reproduction

bench: deps
	$(CARGO) bench

# GA fitness evaluation on 1 process and on 2 and 3 MPI ranks, and the cost of a unit.
bench-mpi: mpi-deps
	$(CARGO) bench --features mpi --bench mpi

perft: deps
	$(GAMELAB) perft --game othello --stage standard8 --depth 11

# The toolchain is the machine's (rustup); crates that build C (zstd) need a C compiler.
deps:
	@command -v $(CARGO) > /dev/null || { echo "cargo not found: install Rust (https://rustup.rs) and retry"; exit 1; }
	@command -v cc > /dev/null || { echo "no C compiler: installing gcc"; apt-get update -qq && apt-get install -y -qq gcc; }
	@command -v python3 > /dev/null || { echo "no python3 (the external-agent tests and examples use it): installing it"; apt-get update -qq && apt-get install -y -qq python3; }
	@python3 -c "import numpy" 2> /dev/null || { echo "no numpy (the Colosseum course adapter hands agents numpy arrays): installing it"; python3 -m pip install -q numpy 2> /dev/null || { apt-get update -qq && apt-get install -y -qq python3-numpy; }; }
	@# External agents run in a bubblewrap sandbox (docs/protocol.md); setpriv and prlimit are util-linux's.
	@command -v bwrap > /dev/null || { if command -v apt-get > /dev/null && [ "$$(id -u)" = 0 ]; then echo "no bubblewrap (external agents run in its sandbox): installing it"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap > /dev/null; else echo "bubblewrap (bwrap) is missing: install it (apt-get install bubblewrap) to run external agents, or give them sandbox = \"none\""; fi; }

clean-results:
	rm -rf results/* figures/*
	touch results/.gitkeep figures/.gitkeep

# No import circle among src/'s files (`use crate::` / `super::` arrows, re-exports followed to
# the module that defines the name; issue #63): fails naming the files of a circle, after checking
# that the script finds planted ones (`--self-test`). `make test` runs it;
# `scripts/import-circles.py --arrows` lists every arrow.
import-circles:
	python3 scripts/import-circles.py --self-test
	python3 scripts/import-circles.py

# docs/design.md's layout tree against the code: every file it names exists, every folder of
# src/ is in it.
design-check:
	python3 scripts/design-check.py --self-test
	python3 scripts/design-check.py
