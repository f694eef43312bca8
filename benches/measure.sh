#!/usr/bin/env bash
# Every performance measurement of issue 12 in one go, printed as one table at the end:
#   - the criterion medians of the benches on the committed inputs (benches/data/): dense 19x19
#     analysis, the legal-move list of the dense 19x19 positions, plain-Go perft against the goban
#     crate (ratio in the same run), complete random 19x19 games per second (one core), and the
#     conformance suite on the built-in implementation;
#   - the fuzz throughput (libFuzzer's exec/s) of the eye targets eye_simulation and eye_engine,
#     FUZZ_SECONDS each (default 30) with seed 1 from an empty corpus;
#   - the whole-process `m3go analyze` of the dense 19x19 positions against the binary built from
#     main before issue 12 (commit 3369d41), side by side in one hyperfine run;
#   - the wall time of `cargo test --release --features testing --test conformance` (built first,
#     so only the run is timed; hyperfine, RUNS runs).
# Usage: benches/measure.sh [WORKDIR]   (WORKDIR: logs and the tables, default a new temp folder)
# Environment: M3GO_BASELINE=path of the pre-issue-12 binary (built from 3369d41 into
#   target/baseline/m3go-pre12 when it is missing); FUZZ_SECONDS (30); BENCH_TIME (criterion
#   measurement seconds, 3); RUNS (hyperfine runs of the conformance test, 3); NICE=1 runs the
#   builds, benches and fuzzing under `nice` (for a shared machine: say so when quoting figures).
# Needs cargo, cargo-fuzz (installed when missing), hyperfine and python3 (for reading the
# criterion and hyperfine JSON).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
fuzz_secs="${FUZZ_SECONDS:-30}"
bench_time="${BENCH_TIME:-3}"
runs="${RUNS:-3}"
nice_cmd=()
if [ "${NICE:-0}" = 1 ]; then nice_cmd=(nice); fi
baseline="${M3GO_BASELINE:-$root/target/baseline/m3go-pre12}"
dense=(alphago-lee-sedol-2016-g5-100 alphago-lee-sedol-2016-g5-150 alphago-lee-sedol-2016-g5-last)

for tool in hyperfine python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "measure.sh: $tool is missing (Debian: apt-get install -y $tool)" >&2
    exit 2
  fi
done
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(git rev-parse --short HEAD)"
echo "== logs in $work"
stamp="$work/.start"
touch "$stamp"

echo "== the pre-issue-12 binary: $baseline"
if [ ! -x "$baseline" ]; then
  tree="$(mktemp -d)/base12"
  git worktree add --detach "$tree" 3369d41 >/dev/null
  (cd "$tree" && "${nice_cmd[@]}" cargo build --release --quiet)
  mkdir -p "$(dirname "$baseline")"
  cp "$tree/target/release/m3go" "$baseline"
  git worktree remove --force "$tree"
fi

echo "== build (release binary, benches, conformance test, fuzz targets)"
"${nice_cmd[@]}" cargo build --release --quiet
"${nice_cmd[@]}" cargo bench --no-run --quiet
"${nice_cmd[@]}" cargo test --release --features testing --test conformance --no-run --quiet 2>/dev/null
(cd fuzz && "${nice_cmd[@]}" cargo fuzz build -s none eye_simulation && "${nice_cmd[@]}" cargo fuzz build -s none eye_engine) >"$work/fuzz-build.log" 2>&1

echo "== criterion benches (--warm-up-time 1 --measurement-time $bench_time)"
for b in analysis legal_moves plain_go random_games conformance_suite; do
  echo "   $b"
  "${nice_cmd[@]}" cargo bench --quiet --bench "$b" -- --warm-up-time 1 --measurement-time "$bench_time" \
    >"$work/bench-$b.log" 2>&1 || { tail -n 30 "$work/bench-$b.log"; exit 1; }
done

echo "== fuzz throughput (${fuzz_secs}s each, seed 1, empty corpus)"
for t in eye_simulation eye_engine; do
  echo "   $t"
  corpus="$(mktemp -d)"
  # the CPU seconds of the run too (user + system, cargo's start included): executions per CPU
  # second is what an unshared core gives, whatever the load
  TIMEFORMAT="cpu-seconds %U %S"
  { time (cd fuzz && "${nice_cmd[@]}" cargo fuzz run -s none "$t" "$corpus" -- -max_total_time="$fuzz_secs" \
    -seed=1 -print_final_stats=1 >"$work/fuzz-$t.log" 2>&1); } 2>"$work/fuzz-$t.time" \
    || { tail -n 30 "$work/fuzz-$t.log"; exit 1; }
  rm -rf "$corpus"
done

echo "== whole process: m3go analyze, pre-issue-12 binary against this one (hyperfine)"
cmds=()
for p in "${dense[@]}"; do
  cmds+=(-n "before/$p" "$baseline analyze benches/data/$p.yaml" -n "now/$p" "target/release/m3go analyze benches/data/$p.yaml")
done
hyperfine --warmup 1 --min-runs 10 -N --export-json "$work/analyze.json" "${cmds[@]}" >"$work/analyze.log" 2>&1 \
  || hyperfine --warmup 1 --min-runs 10 --export-json "$work/analyze.json" "${cmds[@]}" >"$work/analyze.log" 2>&1

echo "== cargo test --release --features testing --test conformance (wall time, $runs runs)"
hyperfine --runs "$runs" --export-json "$work/conformance.json" \
  -n conformance "cargo test --release --features testing --test conformance --quiet" >"$work/conformance.log" 2>&1

python3 - "$root/target/criterion" "$stamp" "$work" <<'EOF'
import json, os, re, sys
crit, stamp, work = sys.argv[1], os.path.getmtime(sys.argv[2]), sys.argv[3]
med = {}
for d, _, files in os.walk(crit):
    if d.endswith("/new") and "benchmark.json" in files and "estimates.json" in files:
        est = os.path.join(d, "estimates.json")
        if os.path.getmtime(est) < stamp:
            continue  # a result of an earlier run
        full = json.load(open(os.path.join(d, "benchmark.json")))["full_id"]
        med[full] = json.load(open(est))["median"]["point_estimate"]  # ns

def fmt(ns):
    for unit, f in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= f:
            return f"{ns / f:.3g} {unit}"
    return f"{ns:.3g} ns"

rows = []
def row(what, figure, target, met):
    rows.append((what, figure, target, "met" if met else "MISSED"))

for k in sorted(med):
    m = re.fullmatch(r"analysis/fast/(.*)", k)
    if m:
        row(f"analysis, {m.group(1)} (fast)", fmt(med[k]), "<= 10 µs", med[k] <= 10e3)
for k in sorted(med):
    m = re.fullmatch(r"legal_moves/(fast|position)/(.*)", k)
    if m:
        row(f"legal moves, {m.group(2)} ({m.group(1)})", fmt(med[k]), "<= 0.5 ms", med[k] <= 0.5e6)
for k in sorted(med):
    m = re.fullmatch(r"plain_go/goban/(.*)", k)
    if m and f"plain_go/m3go-fast/{m.group(1)}" in med:
        r = med[k] / med[f"plain_go/m3go-fast/{m.group(1)}"]
        row(f"plain-Go perft {m.group(1)}: goban / m3go", f"{r:.2f}x ({fmt(med[k])} / {fmt(med[f'plain_go/m3go-fast/{m.group(1)}'])})", ">= 2x", r >= 2)
for k in sorted(med):
    m = re.fullmatch(r"random_games/fast/19x19", k)
    if m:
        gps = 10 / (med[k] / 1e9)  # one iteration plays 10 games
        row("random 19x19 M3Go games per second (one core)", f"{gps:.0f}/s", ">= 500/s", gps >= 500)
for k in sorted(med):
    if k.startswith("conformance/"):
        rows.append((f"conformance suite, {k.split('/', 1)[1]} (criterion)", fmt(med[k]), "", ""))

for t, target in (("eye_simulation", 20000), ("eye_engine", None)):
    text = open(os.path.join(work, f"fuzz-{t}.log"), errors="replace").read()
    m = re.search(r"stat::average_exec_per_sec:\s*(\d+)", text)
    e = int(m.group(1)) if m else 0
    m = re.search(r"stat::number_of_executed_units:\s*(\d+)", text)
    units = int(m.group(1)) if m else 0
    cpu = re.search(r"cpu-seconds ([0-9.]+) ([0-9.]+)", open(os.path.join(work, f"fuzz-{t}.time")).read())
    per_cpu = units / (float(cpu.group(1)) + float(cpu.group(2))) if cpu else 0
    fig = f"{e} ({per_cpu:.0f} per CPU-second)"
    if target:
        row(f"fuzz {t} exec/s (libFuzzer's, wall)", fig, f">= {target}", e >= target)
    else:
        rows.append((f"fuzz {t} exec/s (libFuzzer's, wall)", fig, "(no target)", ""))

res = {r["command"]: r for r in json.load(open(os.path.join(work, "analyze.json")))["results"]}
for name in sorted(res):
    if name.startswith("before/"):
        p = name.split("/", 1)[1]
        b, n = res[name]["median"], res[f"now/{p}"]["median"]
        fig = f"{b / n:.1f}x ({b * 1e3:.1f} ms / {n * 1e3:.1f} ms)"
        if p.endswith("-last"):
            # two passes ended this game: no legal-move list, the same work before and after
            rows.append((f"m3go analyze {p} (game over), whole process: before / now", fig, "(not a target)", ""))
        else:
            row(f"m3go analyze {p}, whole process: before / now", fig, ">= 20x", b / n >= 20)

c = json.load(open(os.path.join(work, "conformance.json")))["results"][0]
rows.append(("cargo test --release --test conformance, wall", f"{c['median']:.1f} s (median of {len(c['times'])})", "well under 25 s", ""))

w = [max(len(str(r[i])) for r in rows + [("measurement", "figure", "target", "")]) for i in range(4)]
line = lambda r: "| " + " | ".join(str(x).ljust(w[i]) for i, x in enumerate(r)) + " |"
out = [line(("measurement", "figure", "target", "")), "|" + "|".join("-" * (x + 2) for x in w) + "|"]
out += [line(r) for r in rows]
out.append("")
out.append("all criterion medians of this run:")
out += [f"  {k}: {fmt(med[k])}" for k in sorted(med)]
text = "\n".join(out)
open(os.path.join(work, "table.md"), "w").write(text + "\n")
print(text)
EOF
echo "(table also in $work/table.md; load at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
