#!/usr/bin/env bash
# Runs every cargo-fuzz target of m3go for N seconds each (default 30), after writing the seed
# corpora from spec/cases. Stable toolchain, no sanitizer. Usage: fuzz/smoke.sh [SECONDS] [TARGET...]
# Exits non-zero as soon as a target finds a crash (the input is left in fuzz/artifacts/TARGET/).
# The libFuzzer seed is fixed (FUZZ_SEED, default 1) so that a CI smoke run is reproducible;
# a campaign should set FUZZ_SEED=0 (random) or call cargo fuzz run directly.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(eye_simulation eye_engine position_yaml notation moves fast_equals_reference sgf_record game_file protocol serve_request game_header)
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
cargo run --quiet --release --example seed_corpora -- ../spec/cases corpus
cargo fuzz build -s none
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  echo "== fuzz $t for ${secs}s"
  log="$(mktemp)"
  status=0
  cargo fuzz run -s none "$t" "corpus/$t" -- -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" -print_final_stats=1 >"$log" 2>&1 || status=$?
  grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec)' "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log"
    echo "fuzz target $t: failed (exit $status); the input is in fuzz/artifacts/$t/"
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
done
echo "fuzz smoke: ${#targets[@]} targets ran ${secs}s each, no crash"
