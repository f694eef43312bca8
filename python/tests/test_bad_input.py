"""No Python value takes the interpreter down, and the module refuses bad input with the code
`m3go protocol` gives the same input (issue 36, findings 2, 6 and 8).

The hypothesis test runs 200 examples by default; ``M3GO_HYPOTHESIS_PROFILE=campaign`` runs it
for as long as it is let run (``timeout 1800 nice pytest -k arbitrary ...``), counting the
examples it tried in ``$M3GO_HYPOTHESIS_COUNT`` (a file) when that is set."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import m3go
from conftest import CASES, EXAMPLE, required_binary

CASE = str(CASES / "m20-eye-fig1.yaml")
MIB = 1024 * 1024

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.register_profile(
    "campaign",
    max_examples=10**9,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("M3GO_HYPOTHESIS_PROFILE", "default"))


def recursive_list():
    x = []
    x.append(x)
    return x


def recursive_dict():
    d = {"protocol": m3go.PROTOCOL, "id": 1}
    d["position"] = d
    return d


def deep_list(n=100_000):
    x = []
    for _ in range(n):
        x = [x]
    return x


def deep_dict(n=100_000):
    d = {}
    for _ in range(n):
        d = {"a": d}
    return d


HOSTILE = {
    "recursive list": recursive_list,
    "recursive dict": recursive_dict,
    "100,000-deep list": deep_list,
    "100,000-deep dict": deep_dict,
}


def example_text():
    return EXAMPLE.read_text(encoding="utf-8")


# every public function taking Python objects, with the hostile value in each argument it reads
ENTRY_POINTS = {
    "analyze": lambda v: m3go.analyze(v),
    "legal_moves": lambda v: m3go.legal_moves(v),
    "explain(position)": lambda v: m3go.explain(v, "六九*"),
    "play(position)": lambda v: m3go.play(v, ["pass"]),
    "Position": lambda v: m3go.Position(v),
    "check_case(answer)": lambda v: m3go.check_case(CASE, v),
    "conform_case": lambda v: m3go.conform_case(v),
    "conform_case(position)": lambda v: m3go.conform_case(
        {"protocol": m3go.PROTOCOL, "id": "x", "position": v}
    ),
    "conform_case(moves)": lambda v: m3go.conform_case(
        {"protocol": m3go.PROTOCOL, "id": "x", "position": {"diagram": ". . .\n. . .\n. . .\n"},
         "moves": v}
    ),
}


# a position is a dict (a list is a TypeError, as before); a request or an answer any value
CRASHES = [(e, v) for e in ENTRY_POINTS for v in HOSTILE
           if "dict" in v or e.startswith(("conform_case", "check_case"))]


@pytest.mark.parametrize("entry,value", CRASHES, ids=[f"{e}-{v}" for e, v in CRASHES])
def test_recursive_and_deep_values_are_refused_not_a_crash(entry, value):
    """Finding 2: each of these killed the interpreter with a segmentation fault (run in a
    child process, so that a crash fails this test rather than the whole run)."""
    code = f"""
import sys
sys.path.insert(0, {str(CASES.parent.parent / 'python' / 'tests')!r})
import m3go, test_bad_input as t
try:
    ans = t.ENTRY_POINTS[{entry!r}](t.HOSTILE[{value!r}]())
except m3go.M3goError as e:
    print("raised", e.code, len(str(e)))
except TypeError as e:
    print("raised TypeError", len(str(e)))
else:
    print("answered", ans["error"]["code"], len(ans["error"]["message"]))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    words = done.stdout.split()
    if entry.startswith("conform_case"):
        # conform_case never raises: the protocol's answer to such a line
        assert words[:2] == ["answered", "bad-request"], done.stdout
    else:
        assert words[:2] == ["raised", "bad-request"], done.stdout
    assert int(words[-1]) <= 2100, "the message is bounded"


def test_an_id_beyond_64_bits_is_echoed_not_raised():
    """Finding 8: an id of 2**70 raised from conform_case, documented never to raise."""
    for ident in (2**70, -(2**70), 123456789012345678901234567890):
        ans = m3go.conform_case({"protocol": m3go.PROTOCOL, "id": ident, "action": "capabilities"})
        assert ans["id"] == ident and isinstance(ans["id"], int), ans["id"]
        ans = m3go.conform_case({"protocol": m3go.PROTOCOL, "id": ident, "position": {}})
        assert ans["id"] == ident and "error" in ans


def test_a_lone_surrogate_says_so():
    """Finding 8: a lone surrogate in a moves list said "expected a list of strings"."""
    with pytest.raises(m3go.BadRequestError) as e:
        m3go.play(example_text(), ["pass", "\ud800"])
    assert e.value.field == "moves[1]"
    assert "lone surrogate (U+D800)" in e.value.message
    with pytest.raises(m3go.BadRequestError) as e:
        m3go.explain(example_text(), "六\udfff")
    assert e.value.field == "target"
    assert "lone surrogate (U+DFFF) at character 1" in e.value.message
    ans = m3go.conform_case({"protocol": m3go.PROTOCOL, "id": "x", "moves": ["\udc00"]})
    assert ans["error"]["code"] == "bad-request" and "surrogate" in ans["error"]["message"]


def test_a_yaml_text_over_4_mib_is_too_large():
    """Finding 8: 4 MiB + 1 bytes of YAML was BadPositionError, not TooLargeError."""
    text = "#" * (4 * MIB + 1)
    for call in (m3go.Position, m3go.Position.from_yaml, m3go.analyze):
        with pytest.raises(m3go.TooLargeError) as e:
            call(text)
        assert (e.value.code, e.value.field) == ("too-large", "position")


def test_exception_messages_are_bounded():
    """Finding 6: a position listing one dead point a million times raised a 45 MB message."""
    text = "diagram: |\n  . . .\n  . . .\n  . . .\ndead: [" + ", ".join(["一一"] * 300_000) + "]\n"
    with pytest.raises(m3go.M3goError) as e:
        m3go.Position(text)
    assert len(str(e.value)) <= 2100
    # the library lists 20 problems and counts the rest; a longer message is cut by the module
    assert e.value.message.endswith(("; and 299980 more", "more characters)")), e.value.message


# the same bad input through the module and through `m3go protocol`: (name, the Python call's
# code, the protocol line). The Python call raises (or answers, for conform_case) a code.
def _line(obj):
    return json.dumps(obj).encode()


def _cc(request):
    """conform_case, an exception made an answer whose code says so (it must never raise)."""
    try:
        return m3go.conform_case(request)
    except Exception as e:  # noqa: BLE001 - any exception is the failure compared
        return {"error": {"code": f"raised {type(e).__name__}"}}


def _code_of(call):
    try:
        ans = call()
    except m3go.M3goError as e:
        return e.code
    return ans["error"]["code"] if isinstance(ans, dict) and "error" in ans else "ok"


REQ = {"protocol": m3go.PROTOCOL, "id": "t"}
SMALL = {"diagram": ". . .\n. . .\n. . .\n"}
TABLE = [
    ("a 100,000-deep list", lambda: _cc(deep_list()),
     b"[" * 100_000 + b"]" * 100_000),
    ("a 100,000-deep dict as the position",
     lambda: m3go.Position(deep_dict()),
     _line(dict(REQ, position={"a": 0})).replace(b'{"a": 0}', b'{"a":' * 100_000 + b"0"
                                                + b"}" * 100_000)),
    ("a 100,000-deep dict as the request", lambda: _cc(deep_dict()),
     b'{"a":' * 100_000 + b"0" + b"}" * 100_000),
    ("an id of 2**70", lambda: _cc(dict(REQ, id=2**70, action="capabilities")),
     _line(dict(REQ, id=2**70, action="capabilities"))),
    ("a 5 MiB text line", lambda: _cc("x" * (5 * MIB)), b"x" * (5 * MIB)),
    ("a 5 MiB request", lambda: _cc(dict(REQ, position=SMALL, probes=["x" * (5 * MIB)])),
     _line(dict(REQ, position=SMALL, probes=["x" * (5 * MIB)]))),
    ("a 5 MiB position", lambda: m3go.Position(dict(SMALL, diagram="." * (5 * MIB))),
     _line(dict(REQ, position=dict(SMALL, diagram="." * (5 * MIB))))),
    ("a YAML text of 4 MiB + 1", lambda: m3go.Position("#" * (4 * MIB + 1)),
     _line(dict(REQ, position={"diagram": "#" * (4 * MIB + 1)}))),
    ("a lone surrogate in a moves list", lambda: m3go.play(SMALL, ["\ud800"]),
     _line(dict(REQ, position=SMALL, moves=["\ud800"]))),
    ("a lone surrogate in a request", lambda: _cc(dict(REQ, id="\udfff")),
     _line(dict(REQ, id="\udfff"))),
    ("NaN in the position", lambda: m3go.Position(dict(SMALL, komi=float("nan"))),
     _line(dict(REQ, position=dict(SMALL, komi=float("nan"))))),
]


@pytest.fixture(scope="module")
def protocol():
    binary = required_binary()

    def answer(line):
        done = subprocess.run([binary, "protocol"], input=line + b"\n", capture_output=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return answer


@pytest.mark.parametrize("name,call,line", TABLE, ids=[t[0] for t in TABLE])
def test_the_module_and_the_protocol_give_the_same_code(protocol, name, call, line):
    ans = protocol(line)
    expected = ans["error"]["code"] if "error" in ans else "ok"
    assert _code_of(call) == expected, ans


def test_the_protocol_echoes_an_id_beyond_64_bits_as_the_module_does(protocol):
    for ident in (123456789012345678901234567890, 2**64 + 1):
        request = dict(REQ, id=ident, action="capabilities")
        by_protocol = protocol(_line(request))["id"]
        by_module = m3go.conform_case(request)["id"]
        assert by_protocol == ident == by_module, (by_protocol, by_module)
        assert isinstance(by_protocol, int) and isinstance(by_module, int)


# arbitrary nested Python values at every public function: only exceptions, never a crash
KEYS = ["protocol", "id", "position", "moves", "probes", "replay", "checks", "action", "rules",
        "size", "move", "diagram", "history", "dead", "trailing_passes", "komi", "preset", "mode",
        "protocols", "analysis", "score", "legal_moves", "error", "code"]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63 - 2, max_value=2**80)
    | st.integers(min_value=-(2**80), max_value=-(2**63) + 2)
    | st.floats()
    | st.text(max_size=20)
    | st.text(alphabet=st.characters(min_codepoint=0xD7F0, max_codepoint=0xE010), max_size=4)
    | st.binary(max_size=8)
    | st.sampled_from([m3go.PROTOCOL, "m3go-conform/1", "capabilities", "pass", "m3go-2020",
                       "dullstone", ". . .\n. . .\n. . .\n", "七A", "六九*", "华289.一九"])
)


def _wrap(value, depth, kind):
    for _ in range(depth):
        value = [value] if kind else {"position": value}
    return value


def _cycle(value):
    x = [value]
    x.append(x)
    return x


VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5)
    | st.tuples(inner, inner)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=6)
    | st.builds(_wrap, inner, st.integers(0, 300), st.booleans())
    | st.builds(_cycle, inner),
    max_leaves=30,
)

FUNCTIONS = {
    "analyze": lambda a, b: m3go.analyze(a),
    "play": lambda a, b: m3go.play(a, b),
    "play(example)": lambda a, b: m3go.play(example_text(), b),
    "legal_moves": lambda a, b: m3go.legal_moves(a),
    "explain": lambda a, b: m3go.explain(a, b),
    "explain(example)": lambda a, b: m3go.explain(example_text(), a),
    "conform_case": lambda a, b: m3go.conform_case(a),
    "conform_case(request)": lambda a, b: m3go.conform_case(dict(REQ, position=a, moves=b)),
    "case_request": lambda a, b: m3go.case_request(a),
    "check_case": lambda a, b: m3go.check_case(a, b),
    "check_case(case)": lambda a, b: m3go.check_case(CASE, a),
    "Position": lambda a, b: m3go.Position(a),
    "Position.from_yaml": lambda a, b: m3go.Position.from_yaml(a),
    "Position.play": lambda a, b: m3go.Position(SMALL).play(a),
    "Position.explain": lambda a, b: m3go.Position(SMALL).explain(a),
}


@given(st.sampled_from(sorted(FUNCTIONS)), VALUES, VALUES)
def test_arbitrary_values_raise_only_m3go_type_or_value_errors(name, a, b):
    count = os.environ.get("M3GO_HYPOTHESIS_COUNT")
    if count:
        with open(count, "a", encoding="utf-8") as f:
            f.write(".")
    try:
        ans = FUNCTIONS[name](a, b)
    except (m3go.M3goError, TypeError, ValueError) as e:
        assert len(str(e)) <= 2100
        return
    if name.startswith("conform_case"):
        assert isinstance(ans, dict) and ("id" in ans or "error" in ans)
        if "error" in ans:
            assert ans["error"]["code"] in ("bad-request", "bad-position", "bad-move",
                                            "illegal-move", "too-large", "unsupported-protocol",
                                            "unsupported-action")
