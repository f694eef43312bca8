#!/usr/bin/env bash
# Every performance figure of issue 41 in one run, before and after side by side, printed as one
# table at the end. "Before" is the tree of a baseline commit (BASE, default 03194e1: main when
# issue 41's table was measured; BASE=f71cce4 gives the start of issue 23's round, BASE=082e1f3
# main before the incremental engine), exported with `git archive` into target/baseline/src-BASE and built with
# its own benches into target/baseline/target-BASE (the dependencies copied from this tree's
# target/ first, so only m3go itself is compiled); "now" is this tree (its uncommitted changes
# included: the table says so). Both are measured in the
# same run, bench by bench one after the other, so the ratios are of one machine state:
#   - criterion medians of the committed inputs (benches/data/): dense 19x19 analysis, the
#     legal-move list of the dense 19x19 positions, plain-Go perft against the goban crate (the
#     ratio of the same binary's run), complete random 19x19 and 9x9 games per second (one core),
#     the fast perft of the random 19x19 position at depth 2 (leaves per second);
#   - the whole-process `m3go analyze` of the dense 19x19 Ke Jie position at move 288 (text and
#     JSON) and `m3go diff --impl 'm3go protocol'` games per second on 9x9 and 19x19 (each binary
#     against itself), timed by python3 (median of RUNS runs, interleaved before/now);
#   - with FUZZ=1 (needs cargo-fuzz; stable, no sanitizer): libFuzzer's exec/s of eye_simulation and
#     eye_engine, FUZZ_SECONDS each from an empty corpus, seed 1 (this tree only).
# Usage: benches/measure.sh [WORKDIR]   (WORKDIR: logs and the table, default a new temp folder)
# Environment: BASE (commit, default 03194e1; BASE= measures this tree alone); BENCH_TIME
#   (criterion measurement seconds, 2); RUNS (analyze runs, 5; diff runs once); DIFF_GAMES9 (10),
#   DIFF_GAMES19 (1); FUZZ (0), FUZZ_SECONDS (30); NICE=1 runs everything under `nice` (for a
#   shared machine: say so when quoting figures).
# Needs cargo and python3. About 10 minutes on 2 loaded cores once the baseline is built.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
# this tree's target dir (CARGO_TARGET_DIR if set, relative to the tree); the baselines live in it
tdir="${CARGO_TARGET_DIR:-target}"
case "$tdir" in /*) ;; *) tdir="$root/$tdir" ;; esac
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
base="${BASE-03194e1}"
bench_time="${BENCH_TIME:-2}"
runs="${RUNS:-5}"
games9="${DIFF_GAMES9:-10}"
games19="${DIFF_GAMES19:-1}"
fuzz="${FUZZ:-0}"
fuzz_secs="${FUZZ_SECONDS:-30}"
nice_cmd=()
if [ "${NICE:-0}" = 1 ]; then nice_cmd=(nice); fi
kejie=spec/records/kejie-alphago-2017-g1.sgf

command -v python3 >/dev/null 2>&1 || { echo "measure.sh: python3 is missing" >&2; exit 2; }

head_commit="$(git rev-parse --short HEAD)"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then head_commit="$head_commit+uncommitted"; fi
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
started="$(date -u '+%Y-%m-%d %H:%M UTC')"
echo "== machine: $(nproc) cores, load $load_start, $head_commit, base ${base:-none}"
echo "== logs in $work"

# The bench executables of a tree: `cargo bench --no-run` with JSON messages, one line per
# bench target, "name path".
bench_exes() {
  "${nice_cmd[@]}" cargo bench --no-run --message-format=json "$@" 2>"$work/bench-build.log" \
    | python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in m["target"]["kind"]:
        print(m["target"]["name"], m["executable"])'
}

sides=(now)
if [ -n "$base" ]; then
  sides=(base now)
  git rev-parse --verify --quiet "$base^{commit}" >/dev/null \
    || { echo "measure.sh: BASE=$base is not a commit of this repository" >&2; exit 2; }
  base="$(git rev-parse --short "$base^{commit}")"
  bsrc="$tdir/baseline/src-$base"
  btarget="$tdir/baseline/target-$base"
  if [ ! -f "$bsrc/Cargo.toml" ]; then
    echo "== exporting $base into $bsrc"
    mkdir -p "$bsrc"
    git archive "$base" | tar -x -C "$bsrc"
    # The export sits under this tree's workspace: a baseline without a workspace of its own is
    # made one, so cargo does not take it for an unlisted member of this one.
    grep -q '^\[workspace\]' "$bsrc/Cargo.toml" || printf '\n[workspace]\n' >>"$bsrc/Cargo.toml"
  fi
  if [ ! -d "$btarget/release" ] && [ -d "$tdir/release" ]; then
    echo "== seeding $btarget with this tree's release dependencies"
    mkdir -p "$btarget"
    cp -r "$tdir/release" "$btarget/release"
  fi
  echo "== building the baseline ($base): release binary and benches"
  (cd "$bsrc" && CARGO_TARGET_DIR="$btarget" "${nice_cmd[@]}" cargo build --release --quiet)
  cp "$btarget/release/m3go" "$work/m3go-base"
  (cd "$bsrc" && CARGO_TARGET_DIR="$btarget" bench_exes) >"$work/exes-base"
fi
echo "== building this tree: release binary and benches"
"${nice_cmd[@]}" cargo build --release --quiet
cp "$tdir/release/m3go" "$work/m3go-now"
bench_exes >"$work/exes-now"

# (bench, criterion filter): only what the table reads.
benches=("analysis:^analysis/fast" "legal_moves:^legal_moves/(fast|position)/" "plain_go:^plain_go/(goban|m3go-fast)/" "random_games:^random_games/fast/" "perft:^perft/fast/random-19x19-m3go-120/depth-2")
echo "== criterion benches (--warm-up-time 1 --measurement-time $bench_time), before and after"
for entry in "${benches[@]}"; do
  b="${entry%%:*}"
  filter="${entry#*:}"
  for side in "${sides[@]}"; do
    exe="$(awk -v b="$b" '$1 == b { print $2 }' "$work/exes-$side")"
    # a bench renamed or added since the baseline: measured on the side that has it
    [ -n "$exe" ] || { echo "   $b ($side): no such bench, skipped"; continue; }
    echo "   $b ($side)"
    if [ "$side" = base ]; then dir="$bsrc"; else dir="$root"; fi
    # ten samples: a complete 19x19 random game takes tens of milliseconds
    (cd "$dir" && CRITERION_HOME="$work/criterion-$side" "${nice_cmd[@]}" "$exe" --bench "$filter" --sample-size 10 \
      --warm-up-time 1 --measurement-time "$bench_time" >"$work/bench-$b-$side.log" 2>&1) \
      || { tail -n 30 "$work/bench-$b-$side.log"; exit 1; }
  done
done

if [ "$fuzz" = 1 ]; then
  echo "== fuzz throughput (${fuzz_secs}s each, seed 1, empty corpus; this tree)"
  for t in eye_simulation eye_engine; do
    # built as fuzz/smoke.sh builds it: eye_simulation without comparison tracing (its
    # NO_TRACE_COMPARES list; docs/src/contributing.md, "Formal testing")
    build=()
    if [ "$t" = eye_simulation ]; then build=(--no-trace-compares --target-dir target/no-trace-compares); fi
    (cd fuzz && cargo fuzz build -s none "${build[@]}" "$t") >>"$work/fuzz-build.log" 2>&1
    corpus="$(mktemp -d)"
    (cd fuzz && "${nice_cmd[@]}" cargo fuzz run -s none "${build[@]}" "$t" "$corpus" -- -max_total_time="$fuzz_secs" \
      -seed=1 -print_final_stats=1 >"$work/fuzz-$t.log" 2>&1) || { tail -n 30 "$work/fuzz-$t.log"; exit 1; }
    rm -rf "$corpus"
  done
fi

echo "== whole process: analyze (Ke Jie, move 288) and diff games per second, $runs runs each"
python3 - "$work" "$runs" "$kejie" "$games9" "$games19" "${sides[@]}" <<'EOF'
import json, os, statistics, subprocess, sys, time
work, runs, kejie, g9, g19 = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
sides = sys.argv[6:]
# the Ke Jie position at move 288, as a position file written by this tree's binary
pos = os.path.join(work, "kejie-288.yaml")
subprocess.run([os.path.join(work, "m3go-now"), "replay", "--mechanical", kejie, "--to", "288",
                "-o", pos], check=True, stdout=subprocess.DEVNULL)
cmds = {
    "analyze-text": lambda b: [b, "analyze", pos],
    "analyze-json": lambda b: [b, "analyze", "--format", "json", pos],
    "diff-9": lambda b: [b, "diff", "--size", "9", "--games", g9, "--impl", f"{b} protocol"],
    "diff-19": lambda b: [b, "diff", "--size", "19", "--games", g19, "--impl", f"{b} protocol"],
}
out = {}
for name, cmd in cmds.items():
    n = runs if name.startswith("analyze") else 1  # diff: one run (long)
    for _ in range(n):
        for side in sides:
            b = os.path.join(work, f"m3go-{side}")
            t = time.perf_counter()
            r = subprocess.run(cmd(b), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            dt = time.perf_counter() - t
            if r.returncode != 0:
                sys.exit(f"{' '.join(cmd(b))}: exit {r.returncode}: {r.stderr.decode()[-500:]}")
            out.setdefault(f"{name}/{side}", []).append(dt)
json.dump({k: statistics.median(v) for k, v in out.items()}, open(os.path.join(work, "process.json"), "w"))
EOF

M_STARTED="$started" M_LOAD_START="$load_start" M_LOAD_END="$(cut -d' ' -f1-3 /proc/loadavg)" \
M_NOW="$head_commit" M_BASE="${base:-none}" M_RUNS="$runs" M_CORES="$(nproc)" M_NICE="${NICE:-0}" \
python3 - "$work" "$games9" "$games19" "${sides[@]}" <<'EOF'
import json, os, re, sys
work, g9, g19 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = os.environ
sides = sys.argv[4:]

def medians(side):
    med = {}
    for d, _, files in os.walk(os.path.join(work, f"criterion-{side}")):
        if d.endswith("/new") and "benchmark.json" in files and "estimates.json" in files:
            full = json.load(open(os.path.join(d, "benchmark.json")))["full_id"]
            med[full] = json.load(open(os.path.join(d, "estimates.json")))["median"]["point_estimate"]
    return med

def fmt(ns):
    for unit, f in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= f:
            return f"{ns / f:.3g} {unit}"
    return f"{ns:.3g} ns"

med = {s: medians(s) for s in sides}
proc = json.load(open(os.path.join(work, "process.json")))
rows = []
# (what, before, now, ratio now against before, target, met)
def row(what, fig, target, met, better=None):
    b = fig("base") if "base" in sides else ""
    n = fig("now")
    rows.append((what, b, n, better or "", target, "met" if met else "MISSED"))

now = med["now"]
for k in sorted(now):
    m = re.fullmatch(r"analysis/fast/(.*)", k)
    if m:
        row(f"analysis, {m.group(1)} (fast)", lambda s: fmt(med[s].get(k, 0)), "<= 5 µs", now[k] <= 5e3,
            f"{med['base'][k] / now[k]:.2f}x" if "base" in sides and k in med["base"] else None)
for k in sorted(now):
    m = re.fullmatch(r"legal_moves/(fast|position)/(.*)", k)
    if m:
        row(f"legal moves, {m.group(2)} ({m.group(1)})", lambda s: fmt(med[s].get(k, 0)), "<= 0.3 ms", now[k] <= 0.3e6,
            f"{med['base'][k] / now[k]:.2f}x" if "base" in sides and k in med["base"] else None)
for k in sorted(now):
    m = re.fullmatch(r"plain_go/goban/(.*)", k)
    if m and f"plain_go/m3go-fast/{m.group(1)}" in now:
        f = f"plain_go/m3go-fast/{m.group(1)}"
        ratio = lambda s: med[s][k] / med[s][f] if k in med[s] and f in med[s] else 0
        row(f"plain-Go perft {m.group(1)}: goban / m3go", lambda s: f"{ratio(s):.2f}x ({fmt(med[s].get(k, 0))} / {fmt(med[s].get(f, 0))})",
            ">= 3x", ratio("now") >= 3)
for k in sorted(now):
    if re.fullmatch(r"random_games/fast/(19x19|9x9)", k):
        gps = lambda s: 10 / (med[s][k] / 1e9) if k in med[s] else 0  # one iteration plays 10 games
        big = k.endswith("19x19")
        row(f"random {k.rsplit('/', 1)[1]} M3Go games per second (one core)", lambda s: f"{gps(s):.0f}/s",
            ">= 500/s" if big else ">= 5000/s", gps("now") >= (500 if big else 5000),
            f"{gps('now') / gps('base'):.1f}x" if "base" in sides and gps("base") else None)
for k in sorted(now):
    if re.fullmatch(r"perft/fast/random-19x19-m3go-120/depth-2", k):
        # the same leaves both sides (benches/perft.rs checks the count), so nodes per second go
        # as the inverse of the time
        speed = lambda: med["base"][k] / now[k] if "base" in sides and k in med["base"] else 0
        row("perft, random 19x19 position, depth 2 (fast; nodes/s as 1/time)", lambda s: fmt(med[s].get(k, 0)),
            ">= 2x before", speed() >= 2, f"{speed():.2f}x" if speed() else None)
for name, what in (("analyze-text", "m3go analyze Ke Jie 288, text, whole process"),
                   ("analyze-json", "m3go analyze Ke Jie 288, JSON, whole process")):
    row(what, lambda s: f"{proc[f'{name}/{s}'] * 1e3:.1f} ms", "<= 3 ms", proc[f"{name}/now"] <= 3e-3,
        f"{proc[f'{name}/base'] / proc[f'{name}/now']:.2f}x" if "base" in sides else None)
for name, games, size in (("diff-9", g9, 9), ("diff-19", g19, 19)):
    gps = lambda s: games / proc[f"{name}/{s}"]
    row(f"m3go diff --impl 'm3go protocol', {size}x{size}, games/s (whole process, {games} games)",
        lambda s: f"{gps(s):.2f}/s", ">= 60/s" if size == 9 else "(no target)", gps("now") >= 60 or size != 9,
        f"{gps('now') / gps('base'):.1f}x" if "base" in sides else None)
for t, target in (("eye_simulation", 30000), ("eye_engine", None)):
    p = os.path.join(work, f"fuzz-{t}.log")
    if not os.path.exists(p):
        continue
    m = re.search(r"stat::average_exec_per_sec:\s*(\d+)", open(p, errors="replace").read())
    e = int(m.group(1)) if m else 0
    rows.append((f"fuzz {t} exec/s (libFuzzer's, wall)", "", str(e), "", f">= {target}" if target else "(no target)",
                 ("met" if e >= target else "MISSED") if target else ""))

head = ("measurement", "before", "now", "speed-up", "target", "")
w = [max(len(str(r[i])) for r in rows + [head]) for i in range(6)]
line = lambda r: "| " + " | ".join(str(x).ljust(w[i]) for i, x in enumerate(r)) + " |"
about = (f"{env['M_STARTED']}, {env['M_CORES']} cores, load {env['M_LOAD_START']} at the start and "
         f"{env['M_LOAD_END']} at the end{' (under nice)' if env['M_NICE'] == '1' else ''}; "
         f"before = {env['M_BASE']}, now = {env['M_NOW']}; criterion medians of one run each, "
         f"whole-process figures the median of {env['M_RUNS']} runs (analyze) or one run (diff), "
         "before and now interleaved; speed-up = before / now (games/s: now / before).")
out = [about, "", line(head), "|" + "|".join("-" * (x + 2) for x in w) + "|"] + [line(r) for r in rows]
for s in sides:
    out += ["", f"all criterion medians ({s}):"] + [f"  {k}: {fmt(v)}" for k, v in sorted(med[s].items())]
text = "\n".join(out)
open(os.path.join(work, "table.md"), "w").write(text + "\n")
print(text)
EOF
echo "(table also in $work/table.md; load at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
