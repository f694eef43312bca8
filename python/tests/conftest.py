"""Shared by the tests: the repository's files and the m3go binary they compare against."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "spec" / "positions" / "example.yaml"
CASES = ROOT / "spec" / "cases"


def m3go_binary():
    """The m3go binary to compare with: $M3GO_BIN, else the repository's debug or release
    build, else `m3go` on PATH; None when there is none. With M3GO_BIN_REQUIRED=1 (.ci/run)
    a missing binary fails the tests that need it instead of skipping them."""
    env = os.environ.get("M3GO_BIN")
    if env:
        return env
    for build in ("debug", "release"):
        path = ROOT / "target" / build / "m3go"
        if path.is_file():
            return str(path)
    return shutil.which("m3go")


def required_binary():
    """The m3go binary to compare with: the test fails without one where CI requires it
    (M3GO_BIN_REQUIRED=1), and is skipped elsewhere."""
    binary = m3go_binary()
    if binary is None:
        if os.environ.get("M3GO_BIN_REQUIRED") == "1":
            pytest.fail("no m3go binary (set M3GO_BIN or build it with cargo build)")
        pytest.skip("no m3go binary to compare with (cargo build, or set M3GO_BIN)")
    return binary


@pytest.fixture
def cli():
    """Runs the m3go binary with arguments, returning its standard output."""
    binary = required_binary()

    def run(*args, stdin=None):
        done = subprocess.run(
            [binary, *args], input=stdin, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


@pytest.fixture
def example_text():
    return EXAMPLE.read_text(encoding="utf-8")
