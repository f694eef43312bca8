"""The type stub (m3go/_m3go.pyi) says what the module has: every name, every documented
constant's value, every attribute of the classes it declares."""

import ast
import re

import m3go
import m3go._m3go as native
from conftest import ROOT

# the repository's stub (an installed wheel holds the same file)
STUB = ROOT / "python" / "m3go" / "_m3go.pyi"


def stub_tree():
    return ast.parse(STUB.read_text(encoding="utf-8"))


def documented_constants():
    """The stub's module constants (`NAME: str`) with the docstring under each."""
    body = stub_tree().body
    out = {}
    for node, after in zip(body, body[1:] + [None]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            doc = None
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                doc = after.value.value
            out[node.target.id] = doc
    return out


def test_the_stub_documents_each_version_constant_with_its_value():
    constants = documented_constants()
    for name in ["ANALYSIS_FORMAT", "PLAY_FORMAT", "PROTOCOL"]:
        doc = constants[name]
        assert doc, f"{name} has no docstring in the stub"
        # the docstring starts with the value, as ``m3go-NAME/N``
        first = re.match(r"``([^`]+)``", doc)
        assert first, f"{name}: the docstring does not start with its value: {doc!r}"
        assert first.group(1) == getattr(native, name), name
    assert constants["PROTOCOL"].startswith("``m3go-conform/2``")


def test_every_name_of_the_module_is_in_the_stub_and_back():
    tree = stub_tree()
    declared = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
        elif isinstance(node, ast.Assign):
            declared.update(t.id for t in node.targets if isinstance(t, ast.Name))
    aliases = {"JSON", "PositionLike"}
    for name in m3go.__all__:
        assert name in declared, f"{name} is not in the stub"
    for name in declared - aliases:
        assert hasattr(native, name), f"the stub declares {name}, the module has none"


def test_every_attribute_the_stub_declares_exists():
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(native, node.name)
        for item in node.body:
            if isinstance(item, ast.AnnAssign):
                name = item.target.id
            elif isinstance(item, ast.FunctionDef):
                name = item.name
            else:
                continue
            assert hasattr(cls, name), f"{node.name}.{name} is in the stub, not in the module"


def test_the_refusal_attributes_are_declared():
    classes = {n.name: n for n in stub_tree().body if isinstance(n, ast.ClassDef)}

    def attributes(name):
        return {i.target.id for i in classes[name].body if isinstance(i, ast.AnnAssign)}

    assert {"reason", "clause", "move"} <= attributes("IllegalMoveError")
    assert {"problem", "reason", "move"} <= attributes("BadMoveError")
    methods = {i.name for i in classes["Position"].body if isinstance(i, ast.FunctionDef)}
    assert {"__eq__", "__hash__", "trailing_passes"} <= methods
