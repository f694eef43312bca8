"""The `m3go` command that the package installs: one `pip install ./python` gives `import m3go`
and, next to the environment's `python` (its bin/ or Scripts/), the root crate's own m3go binary
(python/build.rs builds it; the wheel's .data/scripts/ holds it). It is the whole command line:
its version is the package's, and `m3go conform`, run outside the checkout, passes the suite
built into it against m3go's own protocol."""

import os
import pathlib
import re
import subprocess
import sys
import tempfile

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


def run(*args, cwd=None):
    done = subprocess.run(
        [str(installed_command()), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
    )
    return done.returncode, done.stdout, done.stderr


def test_the_command_is_installed_beside_python_and_executable():
    path = installed_command()
    assert os.access(path, os.X_OK), path
    # a native program (ELF, Mach-O or PE), not a Python launcher script
    head = path.read_bytes()[:4]
    assert head in (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe") or head[:2] == b"MZ", head


def test_the_command_is_the_version_of_the_module():
    code, out, err = run("--version")
    assert code == 0, err
    assert out.strip() == f"m3go {m3go.__version__}"


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
