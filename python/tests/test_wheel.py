"""A built wheel (`maturin build --release`, or `pip wheel ./python`) holds both halves of the
package: the module (m3go/__init__.py and the native m3go/_m3go) and the m3go command (the
root crate's binary, in m3go-VERSION.data/scripts/, which pip installs into bin/). The wheel is
named by $M3GO_WHEEL (.ci/run builds one and sets it); without it the test is skipped, unless
M3GO_WHEEL_REQUIRED=1."""

import os
import pathlib
import zipfile

import pytest

import m3go


def wheel_path():
    name = os.environ.get("M3GO_WHEEL")
    if not name:
        if os.environ.get("M3GO_WHEEL_REQUIRED") == "1":
            pytest.fail("M3GO_WHEEL names no wheel")
        pytest.skip("no wheel to look into (set M3GO_WHEEL to one built with maturin build)")
    return pathlib.Path(name)


def test_the_wheel_holds_the_module_and_the_command():
    wheel = wheel_path()
    with zipfile.ZipFile(wheel) as archive:
        infos = {info.filename: info for info in archive.infolist()}
    version = m3go.__version__
    assert "m3go/__init__.py" in infos, sorted(infos)
    native = [n for n in infos if n.startswith("m3go/_m3go.") and n.endswith((".so", ".pyd"))]
    assert len(native) == 1, sorted(infos)
    scripts = f"m3go-{version}.data/scripts/"
    command = [n for n in infos if n in (scripts + "m3go", scripts + "m3go.exe")]
    assert len(command) == 1, sorted(infos)
    info = infos[command[0]]
    # an executable native program of some size, not a link or a placeholder
    assert info.file_size > 1_000_000, info
    if command[0].endswith("m3go"):
        mode = info.external_attr >> 16
        assert mode & 0o111, oct(mode)
    with zipfile.ZipFile(wheel) as archive:
        head = archive.read(command[0])[:4]
    assert head == b"\x7fELF" or head[:2] == b"MZ" or head in (b"\xcf\xfa\xed\xfe",), head
    # nothing else in the data folder: the command is its only script
    data = [n for n in infos if n.startswith(f"m3go-{version}.data/")]
    assert data == command, data
