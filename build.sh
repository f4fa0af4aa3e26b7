#!/usr/bin/env bash
# build.sh — the one entry point of the project.
#
#   ./build.sh serve   build the browser app and serve it on http://localhost:${PORT:-8080}
#   ./build.sh test    go vet, native tests, short fuzz runs, wasm tests (node), browser tests (chromium)
#   ./build.sh build   compile every command into ./build and check that everything compiles for wasm
#   ./build.sh dist    write the static app into ./dist (relative URLs; any static host serves it)
#   ./build.sh bench   Go benchmarks natively and as wasm under node (+ browser timings), medians
#
# A fresh Debian machine needs only Go: `test` and `bench` install node and chromium with apt
# when they are missing (as root; otherwise they print what to install and stop).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT=$(pwd)
GOROOT_DIR=$(go env GOROOT)
WASM_EXEC="$GOROOT_DIR/lib/wasm/go_js_wasm_exec"
BUILD_DIR="$ROOT/build"
# Per-package limit for go test, so one hung package cannot eat the 15-minute budget.
TEST_TIMEOUT=${TEST_TIMEOUT:-5m}
# The browser suite is one package of about 60 page tests that drive chromium one after another
# (280-310 s on this 2-core machine): its own limit, so a slow day does not fail it at 5 minutes.
BROWSER_TEST_TIMEOUT=${BROWSER_TEST_TIMEOUT:-9m}

log() { printf '==> %s\n' "$*" >&2; }

# ---------------------------------------------------------------------------
# Tools that Go modules don't bring: node (runs the wasm tests), chromium (browser tests).

# ensure_tools CMD... — makes sure each command (node, chromium) exists, installing the
# Debian packages with apt-get when running as root; otherwise prints the command to run
# and returns 1.
ensure_tools() {
	local missing=() pkgs=() c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 && continue
		missing+=("$c")
		case $c in
		node) pkgs+=(nodejs) ;;
		chromium) pkgs+=(chromium) ;;
		*) pkgs+=("$c") ;;
		esac
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
		echo "missing: ${missing[*]}. Install them first, e.g.:" >&2
		echo "    sudo apt-get update && sudo apt-get install -y ${pkgs[*]}" >&2
		return 1
	fi
	log "installing ${pkgs[*]} with apt-get"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
	for c in "${missing[@]}"; do
		command -v "$c" >/dev/null 2>&1 || { echo "apt-get installed ${pkgs[*]} but '$c' is still not on PATH" >&2; return 1; }
	done
}

# ---------------------------------------------------------------------------
# The browser app. Everything that builds it lives in build_dist.

# build_dist OUT — writes the static app into the directory OUT: index.html, assets/
# (with Go's wasm_exec.js and Vugu's renderer helper, which the page loads as a file
# because its CSP forbids eval), app.wasm (wasm/app: the Vugu UI), worker.wasm
# (wasm/worker: the compute worker) and parquet.wasm (wasm/parquet: the Parquet
# reader, which the page fetches only when given a Parquet file; the service worker
# keeps it once fetched). The Vugu components' generated Go (web/*_gen.go)
# is committed; `go generate ./web` remakes it and `./build.sh test` checks it is up to
# date (stage_generated). Only relative URLs, so OUT can be served from any path.
# Prints the wasm sizes, raw and gzipped.
build_dist() {
	local out=$1
	mkdir -p "$out/assets"
	cp "$ROOT/index.html" "$out/index.html"
	cp -R "$ROOT/assets/." "$out/assets/"
	# The service worker must sit next to index.html for its scope to be the whole app.
	cp "$ROOT/assets/sw.js" "$out/sw.js"
	cp "$GOROOT_DIR/lib/wasm/wasm_exec.js" "$out/assets/wasm_exec.js"
	(cd "$ROOT" && go run ./cmd/vugujs -o "$out/assets/vugu-render.js")
	(cd "$ROOT" && GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/app.wasm" ./wasm/app)
	(cd "$ROOT" && GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/worker.wasm" ./wasm/worker)
	(cd "$ROOT" && GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/parquet.wasm" ./wasm/parquet)
	local f
	for f in "$out/app.wasm" "$out/worker.wasm" "$out/parquet.wasm"; do
		echo "$(basename "$f"): $(wc -c <"$f") bytes, $(gzip -9c "$f" | wc -c) gzipped"
	done
}

# bench_browser OUTFILE — chromedp timings of the full pipeline in the page,
# written as Go benchmark lines to OUTFILE: BenchmarkPipeline in internal/browsertest
# (k1 = 100 and 500, r = 10, k2 = 2000) reports drop-s, dropseen-s, droptask-ms,
# baseline-s, cleanex-s, paper-eta-s (CleaneX paper: elapsed + ETA after ~15 s),
# longtask-ms, cancel-ms, cancelsettle-ms and peak-MB (the tab's renderer process)
# per run; BENCH_COUNT runs each, benchmed takes medians.
bench_browser() {
	local outfile=$1
	ensure_tools chromium || return 1
	local dist
	dist=$(mktemp -d)
	build_dist "$dist" >&2
	CLEANEX_DIST="$dist" CLEANEX_CHROMIUM="$(command -v chromium)" \
		go test -tags browser -run '^$' -bench Pipeline -benchtime 1x -count "${BENCH_COUNT:-3}" -timeout 60m ./internal/browsertest | tee "$outfile"
	local rc=${PIPESTATUS[0]}
	rm -rf "$dist"
	return "$rc"
}

# bench_prepared OUTFILE — BenchmarkPrepared in internal/browsertest, written as Go
# benchmark lines to OUTFILE with one table at the end: the page on large pilots, which it
# prepares into per-point summaries (a score file in one worker, embeddings across every
# worker, each on its own test points) handed to every worker, against
# `cleanex predict --k2 10k1` on the same file in the same run (wall time, peak RSS from
# /usr/bin/time -v). Per case: file picked -> observed curve drawn (observed-s), -> every
# method and the recommended estimate done (all-s), and the tab's peak memory (tab-MB:
# VmRSS of the tab's renderer process, which hosts the page and its dedicated workers,
# sampled every 100 ms from /proc); the table gives the ratios page/CLI. The pilots are
# written once into build/pilots by `cleanex simulate --k K --k1 K --r 10`: k1 = 1000
# (N = 10,000, 185 MB) always; BENCH_PREPARED_BIG=1 adds k1 = 2000 (N = 20,000, 738 MB;
# about 2 minutes for page and CLI) and the embeddings case (20,000 test embeddings of
# d = 128 against the centroids of 10,000 classes, an .npz, k2 = 100,000);
# BENCH_PREPARED_EMBED=1 adds only the embeddings case.
bench_prepared() {
	local outfile=$1
	ensure_tools chromium || return 1
	if [ ! -x /usr/bin/time ]; then
		echo "SKIPPED: /usr/bin/time is missing (apt-get install time)" >&2
		return 3
	fi
	go build -o "$BUILD_DIR/" ./cmd/cleanex
	local dist
	dist=$(mktemp -d)
	build_dist "$dist" >&2
	CLEANEX_CLI="$BUILD_DIR/cleanex" CLEANEX_PILOTS="$BUILD_DIR/pilots" CLEANEX_DIST="$dist" CLEANEX_CHROMIUM="$(command -v chromium)" \
		go test -tags browser -run '^$' -bench Prepared -benchtime 1x -count 1 -timeout 120m ./internal/browsertest | tee "$outfile"
	local rc=${PIPESTATUS[0]}
	rm -rf "$dist"
	return "$rc"
}

# ---------------------------------------------------------------------------
# Stages: each runs in a subshell with `set -e`; its result and time are recorded so
# one failing stage still lets the others run and report.

STAGE_NAMES=()
STAGE_RESULTS=()
STAGE_SECONDS=()

# stage NAME CMD... — runs CMD, recording PASS (status 0), SKIP (status 3) or FAIL.
stage() {
	local name=$1 rc start
	shift
	printf '\n==> stage %s\n' "$name" >&2
	start=$(date +%s)
	set +e
	(set -e; "$@")
	rc=$?
	set -e
	STAGE_NAMES+=("$name")
	STAGE_SECONDS+=($(($(date +%s) - start)))
	case $rc in
	0) STAGE_RESULTS+=(PASS) ;;
	3) STAGE_RESULTS+=(SKIP) ;;
	*) STAGE_RESULTS+=(FAIL) ;;
	esac
}

# summary — one line per stage, then "N passed, N failed, N skipped"; returns 1 if any failed.
summary() {
	local i pass=0 fail=0 skip=0
	printf '\n==> summary\n'
	for i in "${!STAGE_NAMES[@]}"; do
		printf '%-5s %-24s %5ss\n' "${STAGE_RESULTS[$i]}" "${STAGE_NAMES[$i]}" "${STAGE_SECONDS[$i]}"
		case ${STAGE_RESULTS[$i]} in
		PASS) pass=$((pass + 1)) ;;
		FAIL) fail=$((fail + 1)) ;;
		SKIP) skip=$((skip + 1)) ;;
		esac
	done
	printf '%d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
	[ "$fail" -eq 0 ]
}

wasm_go() { GOOS=js GOARCH=wasm go "$@"; }

# browser_test_pkgs — the packages that have files built only with the `browser` tag.
browser_test_pkgs() {
	grep -rlE --include='*.go' '^//go:build .*\bbrowser\b' . 2>/dev/null |
		xargs -r -n1 dirname | sort -u | sed 's#^\./#./#'
}

stage_browser() {
	local pkgs
	pkgs=$(browser_test_pkgs)
	if [ -z "$pkgs" ]; then
		echo "SKIPPED: no browser tests (no files with //go:build browser)"
		return 3
	fi
	ensure_tools chromium npm
	# axe-core, pinned, for the accessibility checks of internal/browsertest.
	local axe="$BUILD_DIR/node/node_modules/axe-core/axe.min.js"
	[ -f "$axe" ] || npm install --no-audit --no-fund --prefix "$BUILD_DIR/node" axe-core@4.10.3 >&2
	local dist
	dist=$(mktemp -d "${TMPDIR:-/tmp}/cleanex-dist.XXXXXX")
	# The stage runs in a subshell: expand $dist now, the local is gone by EXIT.
	# shellcheck disable=SC2064
	trap "rm -rf '$dist'" EXIT
	build_dist "$dist"
	# shellcheck disable=SC2086
	CLEANEX_AXE="$axe" CLEANEX_DIST="$dist" CLEANEX_CHROMIUM="$(command -v chromium)" go test -tags browser -timeout "$BROWSER_TEST_TIMEOUT" $pkgs
}

# stage_generated — fails when a generated file (web/*_gen.go) is not what
# `go generate ./web` makes from its sources, naming it; the tree is left as it was.
stage_generated() {
	local saved f stale=0
	saved=$(mktemp -d "${TMPDIR:-/tmp}/cleanex-gen.XXXXXX")
	cp -p web/*_gen.go "$saved/"
	go generate ./web || stale=2
	for f in web/*_gen.go; do
		if [ ! -e "$saved/$(basename "$f")" ] || ! cmp -s "$f" "$saved/$(basename "$f")"; then
			echo "$f is stale: run \`go generate ./web\` and commit it" >&2
			stale=1
		fi
	done
	rm -f web/*_gen.go
	cp -p "$saved"/*_gen.go web/
	rm -rf "$saved"
	[ "$stale" -eq 0 ]
}

cmd_test() {
	stage "generated code" stage_generated
	stage "vet" go vet ./...
	stage "vet (wasm)" wasm_go vet ./...
	stage "test (native)" go test -timeout "$TEST_TIMEOUT" ./...
	stage "fuzz FuzzParse 15s" go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 15s ./internal/scores
	stage "fuzz FuzzPredict 15s" go test -run '^$' -fuzz '^FuzzPredict$' -fuzztime 15s ./cmd/cleanex
	stage "test (wasm, node)" stage_wasm
	stage "test (browser)" stage_browser
	summary
}

stage_wasm() {
	ensure_tools node
	wasm_go test -exec="$WASM_EXEC" -timeout "$TEST_TIMEOUT" ./internal/...
}

# ---------------------------------------------------------------------------

cmd_build() {
	mkdir -p "$BUILD_DIR"
	go build -o "$BUILD_DIR/" ./cmd/...
	wasm_go build ./...
	log "commands in $BUILD_DIR: $(cd "$BUILD_DIR" && ls -x)"
}

cmd_dist() {
	local tmp
	tmp=$(mktemp -d "$ROOT/.dist.XXXXXX")
	if ! build_dist "$tmp"; then
		rm -rf "$tmp"
		return 1
	fi
	rm -rf "$ROOT/dist"
	mv "$tmp" "$ROOT/dist"
	chmod 755 "$ROOT/dist"
	log "wrote $ROOT/dist:"
	(cd "$ROOT/dist" && find . -type f -exec ls -l {} + | awk '{printf "    %10d  %s\n", $5, $9}') >&2
}

cmd_serve() {
	cmd_dist
	mkdir -p "$BUILD_DIR"
	go build -o "$BUILD_DIR/serve" ./cmd/serve
	exec "$BUILD_DIR/serve" -dir "$ROOT/dist" -addr "localhost:${PORT:-8080}"
}

# bench_accuracy — every method on the cases of internal/benchcases/testdata/sim-d5-k100
# (or $BENCH_CASES) against the reference RMSEs: prints the table and fails when the cases
# cannot be read or a method misses its bar (internal/benchcases).
bench_accuracy() {
	go test -tags benchcases -run TestBenchmarkCases -v -count 1 -timeout 60m ./internal/benchcases | tee "$BUILD_DIR/bench-accuracy.txt"
}

# bench_memory — the peak memory of `cleanex predict` (all methods, k2 = 10 k1) on a
# simulated pilot of k1 = ${BENCH_MEM_K1:-500} classes, r = 10 points each, measured with
# `/usr/bin/time -v`; fails when the maximum resident set size exceeds 3 x the score
# matrix as float64 (k1 r x k1 x 8 bytes) + 100 MB.
bench_memory() {
	if [ ! -x /usr/bin/time ]; then
		echo "SKIPPED: /usr/bin/time is missing (apt-get install time)" >&2
		return 3
	fi
	go build -o "$BUILD_DIR/" ./cmd/cleanex
	local k1=${BENCH_MEM_K1:-500} r=10 tmp kb limit
	tmp=$(mktemp -d)
	"$BUILD_DIR/cleanex" simulate --k "$k1" --r "$r" --seed 1 >"$tmp/sim.csv"
	/usr/bin/time -v "$BUILD_DIR/cleanex" predict --k2 $((10 * k1)) "$tmp/sim.csv" >/dev/null 2>"$tmp/time.txt" || {
		cat "$tmp/time.txt" >&2
		rm -rf "$tmp"
		return 1
	}
	kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$tmp/time.txt")
	rm -rf "$tmp"
	limit=$(((3 * k1 * r * k1 * 8 + 100000000) / 1024))
	echo "cleanex predict, k1 = $k1, r = $r: peak $kb kB (limit 3 x matrix + 100 MB = $limit kB)" | tee "$BUILD_DIR/bench-memory.txt"
	[ "$kb" -le "$limit" ]
}

# bench_bank — the benchmark bank (internal/bank: simulated and real families with exact
# truth): fits every method on every pilot of the bank, of its first two replicates (fresh
# pilots of the same families, bank.Replicate(1) and (2)) and of its larger worlds (pilots of
# 200 and 500 classes in worlds of 5,500-20,000, bank.Large); cached per pilot in build/bank,
# build/replicate, build/replicate2 and build/large, so a rerun resumes; about 35 minutes on
# 2 cores from scratch), prints the per-family tables of docs/recommendation.md, writes the
# calibration fitted on all four (864 pilots) to build/calibration.json and fails when it
# differs from the one internal/recommend embeds (regenerate that with
# `go run ./cmd/calibrate study -with-replicates 2 -with-large -write internal/recommend/calibration.json`).
bench_bank() {
	go run ./cmd/calibrate fit -dir "$BUILD_DIR/bank" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate fit -replicate 1 -dir "$BUILD_DIR/replicate" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate fit -replicate 2 -dir "$BUILD_DIR/replicate2" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate fit -large -dir "$BUILD_DIR/large" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate study -dir "$BUILD_DIR/bank" -with-replicates 2 -with-large -write "$BUILD_DIR/calibration.json" | tee "$BUILD_DIR/bench-bank.txt" &&
		if ! cmp -s "$BUILD_DIR/calibration.json" internal/recommend/calibration.json; then
			echo "the bank's calibration differs from internal/recommend/calibration.json:" >&2
			diff "$BUILD_DIR/calibration.json" internal/recommend/calibration.json | head -20 >&2
			return 1
		fi
}

# bench_probabilities — the bank's pilots at k1 = 50, 100, 200 handed in as class probabilities
# (softmax of 8 x / sd), as one-vs-rest probabilities (sigma of 2 (x - c) / sd) and as those of a
# model that gives no point more than 1/2 (sigma of 2 (x - x_max) / sd): read as they are
# (rawsoftmax, rawsigmoid, rawlowsigmoid) and as the product reads them (their logarithms, their
# log-odds, their logarithms); fits cached in build/bank-{rawsoftmax,softmax}-8 and
# build/bank-{rawsigmoid,sigmoid,rawlowsigmoid,lowsigmoid}-2 (about 4-8 minutes each on 2 cores)
# and prints every method's RMSE and the interval's coverage with the embedded calibration, next
# to the pilots' own scores (docs/recommendation.md, "Class probabilities as scores").
bench_probabilities() {
	local t dir
	for t in rawsoftmax:8 softmax:8 rawsigmoid:2 sigmoid:2 rawlowsigmoid:2 lowsigmoid:2; do
		dir="$BUILD_DIR/bank-${t%%:*}-${t##*:}"
		go run ./cmd/calibrate fit -transform "$t" -dir "$dir" -k1 50,100,200 -seeds 4 -j "${BENCH_BANK_JOBS:-2}" || return
	done
	for dir in bank bank-rawsoftmax-8 bank-softmax-8 bank-rawsigmoid-2 bank-sigmoid-2 bank-rawlowsigmoid-2 bank-lowsigmoid-2; do
		printf '\n%s\n' "$dir"
		go run ./cmd/calibrate embedded -dir "$BUILD_DIR/$dir" -k1 50,100,200 || return
	done | tee "$BUILD_DIR/bench-probabilities.txt"
}

# bench_heldout — families outside the bank (internal/bank/heldout.go): simulated, d = 4 with
# r = 5, d = 7 with r = 20, d = 5 with K = 5,000, d = 6 with r = 2, d = 8 with K = 20,000 and
# d = 5 with K = 10,000, both with pilots of 500 to 2,000, classes in groups at d = 5 and 8,
# and real, Hangul syllables rendered by Korean fonts, scored by distance and as binary
# codes by Hamming distance, Bible verses across two translations, English words across accents,
# Debian package descriptions and English words rendered in many fonts, and pilots of 500 and
# 1,000 of those accents and renderings in worlds of 5,000 and 4,500: fits every method on
# their 464 pilots
# (cached in build/heldout; about 27 minutes on 2 cores), then on 192
# pilots of 10, 20 and 30 classes, smaller than the bank's (build/small; 2 minutes), then
# on 256 fresh pilots of the bank's own families drawn with new seeds (bank.Replicate(3), (4)
# and (5), build/replicate3 to build/replicate5; about 7 minutes each), then on 96 fresh pilots
# of the bank's larger worlds (bank.LargeFresh, build/large2; about 10 minutes), then on 144
# pilots of 50 and 100 classes carried to worlds of 5,000 (bank.Long, build/long; about 7
# minutes), and prints every
# method's RMSE and the interval's coverage with the calibration the product embeds
# (docs/recommendation.md).
bench_heldout() {
	go run ./cmd/calibrate fit -heldout -dir "$BUILD_DIR/heldout" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate heldout -dir "$BUILD_DIR/heldout" | tee "$BUILD_DIR/bench-heldout.txt" &&
		go run ./cmd/calibrate fit -small -dir "$BUILD_DIR/small" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate heldout -small -dir "$BUILD_DIR/small" | tee "$BUILD_DIR/bench-small.txt" &&
		go run ./cmd/calibrate fit -replicate 3 -dir "$BUILD_DIR/replicate3" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate heldout -replicate 3 -dir "$BUILD_DIR/replicate3" | tee "$BUILD_DIR/bench-replicate3.txt" &&
		go run ./cmd/calibrate fit -replicate 4 -dir "$BUILD_DIR/replicate4" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate heldout -replicate 4 -dir "$BUILD_DIR/replicate4" | tee "$BUILD_DIR/bench-replicate4.txt" &&
		go run ./cmd/calibrate fit -replicate 5 -dir "$BUILD_DIR/replicate5" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate heldout -replicate 5 -dir "$BUILD_DIR/replicate5" | tee "$BUILD_DIR/bench-replicate5.txt" &&
		go run ./cmd/calibrate fit -large-fresh -dir "$BUILD_DIR/large2" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate heldout -large-fresh -dir "$BUILD_DIR/large2" | tee "$BUILD_DIR/bench-large2.txt" &&
		go run ./cmd/calibrate fit -long -dir "$BUILD_DIR/long" -j "${BENCH_BANK_JOBS:-2}" &&
		go run ./cmd/calibrate heldout -long -dir "$BUILD_DIR/long" | tee "$BUILD_DIR/bench-long.txt"
}

# bench_summary — the per-point summary (docs/summary.md): DuckDB (@duckdb/node-api from
# npm, pinned, installed into build/node) runs the SQL recipe assets/summary.sql on the
# first pilot of every bank family at k1 = 100 and 500, written as long tables; the run fails
# unless DuckDB's summaries equal the ones Go writes. Then every method's curve from each
# pilot's summary is compared with the one from its score matrix (2 pilots per family at
# k1 = 100, 200 and 500; table in build/bench-summary.txt).
bench_summary() {
	ensure_tools node npm
	local duck="$BUILD_DIR/node/node_modules/@duckdb/node-api/package.json" dir="$BUILD_DIR/summary-duckdb"
	[ -f "$duck" ] || npm install --no-audit --no-fund --prefix "$BUILD_DIR/node" @duckdb/node-api@1.5.6-r.1 >&2
	rm -rf "$dir"
	go run ./cmd/calibrate summary-files -dir "$dir" -per 1 -k1 100,500 &&
		node cmd/calibrate/duckdb_summary.cjs "$BUILD_DIR/node" assets/summary.sql "$dir" &&
		go run ./cmd/calibrate summary-compare -dir "$dir" -per 1 -k1 100,500 &&
		rm -rf "$dir" &&
		go run ./cmd/calibrate summary -per 2 -k1 100,200,500 -j 2 | tee "$BUILD_DIR/bench-summary.txt"
}

# bench_paper — opt-in (BENCH_PAPER=1): the published CleaneX (the paper's network, Adam,
# 10,000 steps) in PyTorch, internal/bank/paper/cleanex_paper.py, on the first
# ${BENCH_PAPER_PER:-2} pilots per family at k1 = ${BENCH_PAPER_K1:-100}, stored in the bank's
# cache under "paper" (resumable), then the study with its "published CleaneX" tables, and
# the same script on the 16 shared benchmark cases next to the RMSE an independent
# implementation reached there (calibrate paper-cases; about 30 minutes, resumable).
# Benchmark only: the product stays Go. Needs Debian's python3-torch and python3-numpy (and
# OpenBLAS: with Debian's reference BLAS a fit is several times slower); installs them with
# apt-get when missing (as root). Several minutes per fit on a shared 2-core machine.
bench_paper() {
	local py=${PYTHON:-/usr/bin/python3}
	if ! "$py" -c 'import torch, numpy' >/dev/null 2>&1 || [ ! -e /usr/lib/x86_64-linux-gnu/openblas-pthread ]; then
		if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
			echo "missing: python3-torch for $py. Install it first, e.g.:" >&2
			echo "    sudo apt-get update && sudo apt-get install -y python3-torch python3-numpy libopenblas0-pthread" >&2
			return 1
		fi
		log "installing python3-torch python3-numpy libopenblas0-pthread with apt-get"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq python3-torch python3-numpy libopenblas0-pthread >/dev/null
		"$py" -c 'import torch, numpy' || { echo "apt-get installed python3-torch but $py cannot import it" >&2; return 1; }
	fi
	go run ./cmd/calibrate fit -dir "$BUILD_DIR/bank" -j "${BENCH_BANK_JOBS:-2}" &&
		PYTHON=$py go run ./cmd/calibrate paper -dir "$BUILD_DIR/bank" -k1 "${BENCH_PAPER_K1:-100}" -- -per "${BENCH_PAPER_PER:-2}" &&
		go run ./cmd/calibrate study -dir "$BUILD_DIR/bank" | tee "$BUILD_DIR/bench-paper.txt" &&
		PYTHON=$py go run ./cmd/calibrate paper-cases -dir "$BUILD_DIR/paper-cases" | tee "$BUILD_DIR/bench-paper-cases.txt"
}

cmd_bench() {
	mkdir -p "$BUILD_DIR"
	local pkgs=${BENCH_PKGS:-./internal/...} pattern=${BENCH:-.} count=${BENCH_COUNT:-5}
	local native="$BUILD_DIR/bench-native.txt" wasm="$BUILD_DIR/bench-wasm.txt" browser="$BUILD_DIR/bench-browser.txt"
	local prepared="$BUILD_DIR/bench-prepared.txt"
	# shellcheck disable=SC2086
	stage "bench (native)" bench_native "$pkgs" "$pattern" "$count" "$native"
	stage "bench (wasm, node)" bench_wasm "$pkgs" "$pattern" "$count" "$wasm"
	if [ "${BENCH_ACCURACY:-1}" = 1 ]; then
		stage "accuracy (benchmark cases)" bench_accuracy
	fi
	if [ "${BENCH_BANK:-1}" = 1 ]; then
		stage "bank (recommendation calibration)" bench_bank
	fi
	if [ "${BENCH_HELDOUT:-1}" = 1 ]; then
		stage "held-out families" bench_heldout
	fi
	if [ "${BENCH_PROBABILITIES:-1}" = 1 ]; then
		stage "class probabilities as scores" bench_probabilities
	fi
	if [ "${BENCH_SUMMARY:-1}" = 1 ]; then
		stage "summary (DuckDB recipe, summary vs matrix)" bench_summary
	fi
	if [ "${BENCH_PAPER:-0}" = 1 ]; then
		stage "published CleaneX (PyTorch)" bench_paper
	fi
	if [ "${BENCH_MEMORY:-1}" = 1 ]; then
		stage "memory (cleanex predict)" bench_memory
	fi
	if [ "${BENCH_BROWSER:-1}" = 1 ]; then
		stage "bench (browser)" bench_browser "$browser"
	else
		rm -f "$browser"
	fi
	if [ "${BENCH_PREPARED:-1}" = 1 ]; then
		stage "bench (large pilots: page vs CLI)" bench_prepared "$prepared"
	else
		rm -f "$prepared"
	fi
	local files=("$native" "$wasm")
	[ -s "$browser" ] && files+=("$browser")
	[ -s "$prepared" ] && files+=("$prepared")
	printf '\n==> medians of %s runs\n' "$count"
	go run ./cmd/benchmed "${files[@]}" || true
	summary
}

bench_native() {
	local pkgs=$1 pattern=$2 count=$3 out=$4
	# shellcheck disable=SC2086
	go test -run '^$' -bench "$pattern" -count "$count" $pkgs | tee "$out"
}

bench_wasm() {
	local pkgs=$1 pattern=$2 count=$3 out=$4
	ensure_tools node
	# shellcheck disable=SC2086
	wasm_go test -exec="$WASM_EXEC" -run '^$' -bench "$pattern" -count "$count" $pkgs | tee "$out"
}

usage() {
	sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
}

case ${1:-} in
test) cmd_test ;;
build) cmd_build ;;
dist) cmd_dist ;;
serve) cmd_serve ;;
bench) cmd_bench ;;
-h | --help | help) usage ;;
*)
	usage >&2
	exit 2
	;;
esac
