#!/usr/bin/env bash
# Runs every cargo-fuzz target of m3go for N seconds each (default 30), after writing the seed
# corpora (examples/seed_corpora.rs: from spec/cases, spec/records and tests/bad_input). Stable
# toolchain, no sanitizer. Usage: fuzz/smoke.sh [SECONDS] [TARGET...]
# Exits non-zero as soon as a target finds a crash (the input is left in fuzz/artifacts/TARGET/).
# The libFuzzer seed is fixed (FUZZ_SEED, default 1) so that a CI smoke run is reproducible;
# a campaign should set FUZZ_SEED=0 (random) or call cargo fuzz run directly.
# At the end, one line per target: executions, exec/s, the coverage counters (cov: edges,
# ft: features) after the seed corpus was read (INITED) and at the end (DONE), and the corpus at
# the end (inputs/bytes). The targets are built with debug assertions (fuzz/Cargo.toml's release
# profile), so that the engine's consistency checks under `debug_assert!` run on every input.
# The targets in NO_TRACE_COMPARES are built without libFuzzer's comparison tracing
# (`--no-trace-compares`, in a target folder of their own so the two builds do not undo each
# other): for eye_simulation the hooks were about 60 % of an execution, and without them the 30 s
# reach the same coverage or more (docs/src/contributing.md, "Formal testing").
# The seed corpora are written by the root crate's example in the test profile, so that CI
# reuses its `cargo test` build; M3GO_CARGO_FEATURES names the features that build was made
# with, if not the default ones.
set -euo pipefail
cd "$(dirname "$0")"

# The targets of the smoke, one a line: the name, then its libFuzzer options. A new target is
# one more line (and, for a seed corpus, a section of examples/seed_corpora.rs). -max_len bounds
# the inputs of the targets whose work grows with them (a board's points, a game's moves), so
# that 30 s go to many small inputs rather than a few large ones; see docs/src/contributing.md, "Formal testing".
TARGETS=(
  "eye_simulation"
  "eye_engine"
  "position_yaml -max_len=512"
  "notation"
  "moves -max_len=128"
  "fast_equals_reference -max_len=128"
  "sgf_record -max_len=1024"
  "game_file -max_len=512"
  "protocol"
  "serve_request"
  "game_header"
  "output_target -max_len=256"
  "player_reader -max_len=4096"
)

# Built without comparison tracing (see the header).
NO_TRACE_COMPARES=(eye_simulation)

secs="${1:-30}"
shift || true
wanted=("$@")
run=()
for entry in "${TARGETS[@]}"; do
  name="${entry%% *}"
  if [ ${#wanted[@]} -eq 0 ] || printf '%s\n' "${wanted[@]}" | grep -qx "$name"; then
    run+=("$entry")
  fi
done
for w in "${wanted[@]}"; do
  printf '%s\n' "${TARGETS[@]}" | grep -q "^$w\( \|$\)" || { echo "unknown fuzz target: $w" >&2; exit 2; }
done

if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
(cd .. && cargo run --quiet --profile test ${M3GO_CARGO_FEATURES:+--features "$M3GO_CARGO_FEATURES"} \
  --example seed_corpora -- spec/cases fuzz/corpus)
cargo fuzz build -s none
summary=()
for entry in "${run[@]}"; do
  read -r t opts <<<"$entry"
  mkdir -p "corpus/$t"
  echo "== fuzz $t for ${secs}s ${opts:-}"
  log="$(mktemp)"
  status=0
  # shellcheck disable=SC2086 # the options are words
  build=()
  if printf '%s\n' "${NO_TRACE_COMPARES[@]}" | grep -qx "$t"; then
    build=(--no-trace-compares --target-dir target/no-trace-compares)
  fi
  cargo fuzz run -s none "${build[@]}" "$t" "corpus/$t" -- -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" \
    -print_final_stats=1 ${opts:-} >"$log" 2>&1 || status=$?
  grep -E '^(#[0-9]+.*(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec)' "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log"
    echo "fuzz target $t: failed (exit $status); the input is in fuzz/artifacts/$t/"
    rm -f "$log"
    exit 1
  fi
  inited="$(grep -E '^#[0-9]+.*INITED' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)"
  done_="$(grep -E '^#[0-9]+.*DONE' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)"
  corp="$(grep -E '^#[0-9]+.*DONE' "$log" | tail -n 1 | grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' || true)"
  units="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)"
  rate="$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)"
  summary+=("$(printf '%-22s %10s runs %8s exec/s   seeds: %-18s end: %-18s corpus: %s' "$t" "$units" "$rate" \
    "$inited" "$done_" "${corp#corp: }")")
  rm -f "$log"
done
echo "== fuzz smoke summary (${secs}s each, seed ${FUZZ_SEED:-1})"
printf '%s\n' "${summary[@]}"
echo "fuzz smoke: ${#run[@]} targets ran ${secs}s each, no crash"
