"""The `m3go` command that the package installs: one `pip install ./python` gives `import m3go`
and, next to the environment's `python` (its bin/ or Scripts/), the `m3go` console script
(pyproject.toml's [project.scripts]), which runs the root crate's whole command line linked into
the native module (`m3go._m3go._run_command`, called by m3go/__main__.py); `python -m m3go`
runs the same. Its version is the package's, its exit codes are the command line's, Ctrl-C ends
it as it ends the binary, and `m3go conform`, run outside the checkout, passes the suite built
into it against m3go's own protocol."""

import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

import m3go


def installed_command():
    """The m3go command installed with this environment's package (not one elsewhere on PATH)."""
    scripts = pathlib.Path(sys.executable).parent
    for name in ("m3go", "m3go.exe"):
        path = scripts / name
        if path.is_file():
            return path
    raise AssertionError(
        f"no m3go command beside {sys.executable}: the package was installed without it"
    )


def run(*args, cwd=None, command=None):
    done = subprocess.run(
        [*(command or [str(installed_command())]), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
    )
    return done.returncode, done.stdout, done.stderr


def test_the_command_is_the_entry_point_of_the_package():
    path = installed_command()
    assert os.access(path, os.X_OK), path
    if path.suffix != ".exe":
        # pip's console script: this environment's python, calling m3go.__main__.main
        text = path.read_text(encoding="utf-8")
        assert text.startswith("#!"), text[:200]
        assert "from m3go.__main__ import main" in text, text


def test_the_command_is_the_version_of_the_module():
    code, out, err = run("--version")
    assert code == 0, err
    assert out.strip() == f"m3go {m3go.__version__}"
    code, out, err = run("--version", command=[sys.executable, "-m", "m3go"])
    assert code == 0, err
    assert out.strip() == f"m3go {m3go.__version__}"


def test_the_command_exits_with_the_command_lines_code_and_message():
    # bad input: exit 2, the message on standard error, nothing on standard output
    with tempfile.TemporaryDirectory() as folder:
        code, out, err = run("analyze", "no-such-position.yaml", cwd=folder)
    assert code == 2, out + err
    assert out == ""
    assert err.startswith("error: ") and "no-such-position.yaml" in err, err
    # a usage error names the program `m3go`, whatever the script's path
    code, out, err = run("analyse")
    assert code == 2, out + err
    assert "Usage: m3go" in err, err


def test_ctrl_c_ends_the_command_as_it_ends_the_binary():
    # `m3go protocol` waits for requests on standard input, in Rust; SIGINT ends it at once
    # (Python's own handler would only raise KeyboardInterrupt once the call returned)
    child = subprocess.Popen(
        [str(installed_command()), "protocol"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        # the process is in the Rust loop once it answers a line (here with an error answer)
        child.stdin.write(b'{"id": 1}\n')
        child.stdin.flush()
        assert child.stdout.readline(), child.stderr.read()
        child.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 10
        while child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert child.returncode == -signal.SIGINT, child.returncode
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()


def test_the_command_passes_its_own_conformance_suite():
    # Outside the checkout, `m3go conform` runs the suite built into the binary against m3go's
    # own protocol; a temporary folder keeps spec/cases of the checkout out of it.
    with tempfile.TemporaryDirectory() as folder:
        code, out, err = run("conform", "--jobs", "2", cwd=folder)
    assert code == 0, out + err
    summary = out.strip().splitlines()[-1]
    match = re.fullmatch(r"(\d+) passed, 0 failed, 0 errored, 0 skipped", summary)
    assert match, summary
    assert int(match.group(1)) > 200, summary
