"""A built wheel (`maturin build --release`, or `pip wheel ./python`) holds the package: the
module (m3go/__init__.py, m3go/__main__.py and the native m3go/_m3go, with the command line
linked in) and the `m3go` console script's entry point (m3go.__main__:main), which pip turns
into the command when it installs the wheel. One native library: the engine compiled once, for
the module and the command. The wheel is named by $M3GO_WHEEL (.ci/run builds one and sets
it); without it the test is skipped, unless M3GO_WHEEL_REQUIRED=1."""

import configparser
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
    version = m3go.__version__
    with zipfile.ZipFile(wheel) as archive:
        infos = {info.filename: info for info in archive.infolist()}
        heads = {name: archive.read(name)[:4] for name in infos}
        entry_points = archive.read(f"m3go-{version}.dist-info/entry_points.txt").decode()
    for name in ["m3go/__init__.py", "m3go/__main__.py", "m3go/_m3go.pyi", "m3go/py.typed"]:
        assert name in infos, sorted(infos)
    native = [n for n in infos if n.startswith("m3go/_m3go.") and n.endswith((".so", ".pyd"))]
    assert len(native) == 1, sorted(infos)
    # the command line is linked into the module: a native library of some size
    assert infos[native[0]].file_size > 1_000_000, infos[native[0]]
    # one native program in all: no second build of the engine beside the module
    natives = [
        n for n, head in heads.items()
        if head == b"\x7fELF" or head[:2] == b"MZ" or head in (b"\xcf\xfa\xed\xfe",)
    ]
    assert natives == native, natives
    # no data folder: the command is a console script pip writes, not a file of the wheel
    assert not [n for n in infos if n.startswith(f"m3go-{version}.data/")], sorted(infos)
    parser = configparser.ConfigParser()
    parser.read_string(entry_points)
    assert dict(parser["console_scripts"]) == {"m3go": "m3go.__main__:main"}, entry_points
