#!/usr/bin/env bash
# The instruction-count guard (issue 41): the workloads of examples/instructions.rs (dense
# analysis, random games, perft, a protocol answer), each run once under callgrind, which counts
# the instructions executed inside the measured function alone; the counts are compared with the
# committed baseline (benches/instructions/baseline-PROFILE.tsv). An instruction count does not
# depend on the machine or its load, so a change that makes the engine do more work fails here
# on any machine, where a timed test would be noise.
#
# Usage: benches/instructions.sh            compare with the baseline (exit 1 on a regression)
#        UPDATE=1 benches/instructions.sh   write the baseline (commit it on its own, saying why)
# Environment: PROFILE (dev, default: the build `cargo test` makes, at opt-level 1, so that CI
#   builds nothing more; release: the optimised build); TOLERANCE (percent, default 5): a count
#   more than this above its baseline fails, one more than this below it asks for an update.
#   With another rustc than the baseline's, the tolerance is doubled (a compiler's code
#   generation moves counts by itself) and the note says so.
# Needs valgrind (callgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
profile="${PROFILE:-dev}"
tolerance="${TOLERANCE:-5}"
baseline="benches/instructions/baseline-$profile.tsv"
command -v valgrind >/dev/null 2>&1 || { echo "instructions.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }

case "$profile" in
  dev) cargo build --quiet --example instructions; bin=target/debug/examples/instructions ;;
  release) cargo build --quiet --release --example instructions; bin=target/release/examples/instructions ;;
  *) echo "instructions.sh: PROFILE=$profile: expected dev or release" >&2; exit 2 ;;
esac
rustc_version="$(rustc --version)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

counts="$work/counts.tsv"
"$bin" | cut -f1 | while read -r w; do
  valgrind --tool=callgrind --callgrind-out-file="$work/$w.out" --toggle-collect='*measured*' \
    "$bin" "$w" >/dev/null 2>"$work/$w.log" || { cat "$work/$w.log" >&2; exit 1; }
  n="$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$work/$w.out" | head -n 1)"
  [ -n "$n" ] || { echo "instructions.sh: no count for $w" >&2; exit 1; }
  printf '%s\t%s\n' "$w" "$n" >>"$counts"
done

if [ "${UPDATE:-0}" = 1 ]; then
  {
    echo "# instruction counts of examples/instructions.rs, profile $profile, $rustc_version"
    echo "# written by UPDATE=1 benches/instructions.sh at $(git rev-parse --short HEAD)"
    cat "$counts"
  } >"$baseline"
  echo "wrote $baseline:"
  cat "$counts"
  exit 0
fi

[ -f "$baseline" ] || { echo "instructions.sh: no baseline $baseline: run UPDATE=1 $0" >&2; exit 2; }
python3 - "$baseline" "$counts" "$tolerance" "$rustc_version" <<'PY'
import sys
base_path, counts_path, tol, rustc = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
base, header = {}, ""
for line in open(base_path, encoding="utf-8"):
    if line.startswith("#"):
        header += line
        continue
    name, n = line.split()
    base[name] = int(n)
if rustc not in header:
    tol *= 2
    print(f"note: the baseline was counted with another rustc than {rustc}: tolerance {tol:g} %")
failed = stale = 0
print(f"{'workload':<18} {'baseline':>14} {'now':>14} {'change':>9}")
for line in open(counts_path, encoding="utf-8"):
    name, n = line.split()
    n = int(n)
    if name not in base:
        print(f"{name:<18} {'(none)':>14} {n:>14,}   new: run UPDATE=1")
        stale += 1
        continue
    change = (n - base[name]) / base[name] * 100
    mark = ""
    if change > tol:
        mark, failed = "  REGRESSION", failed + 1
    elif change < -tol:
        mark, stale = "  faster: update the baseline", stale + 1
    print(f"{name:<18} {base[name]:>14,} {n:>14,} {change:>+8.2f}%{mark}")
if failed:
    print(f"{failed} workload(s) execute more than {tol:g} % more instructions than the baseline")
    sys.exit(1)
print(f"within {tol:g} % of the baseline" + (f" ({stale} to update)" if stale else ""))
PY
