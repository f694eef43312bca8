"""In-process `analyze` of dense 19x19 positions from Python against the library's own call in
a Rust loop, both in this one process and run (README.md, "Python"): prints per position the
median of several rounds of each.

    python python/bench/analyze_speed.py [POS.yaml ...]

The Rust side (`m3go._m3go._analyze_loop`) reads the text, validates the position, analyses it
and makes the JSON value `m3go analyze --format json` prints; the Python side is
`m3go.analyze(text)` (the same, and the value made a dict) and `m3go.analyze(position)` on a
`Position` read once.
"""

import pathlib
import statistics
import sys
import timeit

import m3go
from m3go import _m3go

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFAULT = [
    ROOT / "benches" / "data" / "alphago-lee-sedol-2016-g5-150.yaml",
    ROOT / "benches" / "data" / "alphago-lee-sedol-2016-g5-last.yaml",
]


def median_per_call(fn, number, rounds=7):
    return statistics.median(timeit.repeat(fn, number=number, repeat=rounds)) / number


def main(paths):
    print("| position | Rust loop | Python analyze(text) | ratio | Python analyze(Position) | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    for path in paths:
        text = pathlib.Path(path).read_text(encoding="utf-8")
        pos = m3go.Position(text)
        n = 20
        rust = statistics.median(_m3go._analyze_loop(text, n) for _ in range(7))
        py_text = median_per_call(lambda: m3go.analyze(text), n)
        py_pos = median_per_call(lambda: m3go.analyze(pos), n)
        print(
            f"| {pathlib.Path(path).stem} | {rust * 1e3:.2f} ms | {py_text * 1e3:.2f} ms "
            f"| {py_text / rust:.2f}x | {py_pos * 1e3:.2f} ms | {py_pos / rust:.2f}x |"
        )


if __name__ == "__main__":
    main(sys.argv[1:] or DEFAULT)
