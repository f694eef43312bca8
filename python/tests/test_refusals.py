"""A refused move says why, with the values the protocol's probe answers give: an
IllegalMoveError its `reason`, `clause` and `move`, a BadMoveError its `problem`, `reason` and
`move`."""

import pytest

import m3go
from conftest import CASES

# every problem code BadMoveError.problem may take (the stub lists them)
PROBLEMS = {
    "off-board", "malformed-point", "empty", "no-number", "bad-move-number", "move-zero",
    "bad-round", "round-zero", "round-past-the-limit", "seat-not-in-round", "bad-conversion",
    "not-own-flower", "replaced-pass",
}


def probed_cases():
    """The case files whose request probes moves on a position (no record replay)."""
    out = []
    for path in sorted(CASES.glob("*.yaml")):
        request = m3go.case_request(str(path))
        if request.get("probes") and "replay" not in request:
            out.append((path.name, request))
    return out


PROBED = probed_cases()


def test_there_are_probed_cases_with_every_common_refusal():
    reasons = set()
    for _, request in PROBED:
        for probe in m3go.conform_case(request)["probes"]:
            reasons.add(probe.get("reason"))
    for reason in ["occupied", "suicide", "ko", "tigers-mouth", "capture-point", "wrong-turn"]:
        assert reason in reasons, reason


@pytest.mark.parametrize("name,request_", PROBED, ids=[n for n, _ in PROBED])
def test_a_refusal_is_the_probe_answer(name, request_):
    """Every probe of every case: the move played from the case's position is refused with the
    reason and clause the protocol's probe answer gives, or played when the answer says legal."""
    answer = m3go.conform_case(request_)
    pos = m3go.Position(request_["position"]).play(request_["moves"]) if request_["moves"] \
        else m3go.Position(request_["position"])
    for probe in answer["probes"]:
        move = probe["move"]
        if probe["legal"]:
            assert pos.play(move).move_number == pos.move_number + 1
            continue
        if probe["reason"] in ("off-board", "malformed"):
            with pytest.raises(m3go.BadMoveError) as e:
                pos.play(move)
            assert e.value.reason == probe["reason"]
            assert e.value.problem in PROBLEMS
            assert (e.value.problem == "off-board") == (probe["reason"] == "off-board")
        else:
            with pytest.raises(m3go.IllegalMoveError) as e:
                pos.play(move)
            assert (e.value.reason, e.value.clause) == (probe["reason"], probe["clause"]), move
        assert e.value.move == move
        assert e.value.field == "moves[0]"


def test_tigers_mouth_needs_no_regex():
    path = CASES / "m20-tiger-black.yaml"
    request = m3go.case_request(str(path))
    pos = m3go.Position(request["position"]).play(request["moves"]) if request["moves"] \
        else m3go.Position(request["position"])
    tigers = [p["move"] for p in m3go.conform_case(request)["probes"]
              if p.get("reason") == "tigers-mouth"]
    assert tigers, "the case probes a tiger's mouth"
    with pytest.raises(m3go.IllegalMoveError) as e:
        pos.play(tigers[0])
    assert e.value.reason == "tigers-mouth"
    assert e.value.clause == "M20-FORBID-TIGER"
    assert e.value.move == tigers[0]


def test_the_refused_move_of_a_list_is_named(example_text):
    pos = m3go.Position(example_text)
    first = pos.legal_moves()[0]
    point = first.split(".")[1]
    with pytest.raises(m3go.IllegalMoveError) as e:
        pos.play([first, "pass", point])
    assert (e.value.field, e.value.move, e.value.reason) == ("moves[2]", point, "occupied")
    assert e.value.clause == "M20-STRING"
    # a move numbered for another turn
    with pytest.raises(m3go.IllegalMoveError) as e:
        pos.play("黑1.一一")
    assert (e.value.reason, e.value.clause, e.value.move) == ("wrong-turn", "M20-ORDER", "黑1.一一")


@pytest.mark.parametrize("move,problem", [
    ("hello", "malformed-point"),
    ("黑289.ZZ", "malformed-point"),
    ("", "empty"),
    ("华0.一一", "move-zero"),
    ("华x.一一", "bad-move-number"),
    ("华一一", "no-number"),
    ("(30,0)", "off-board"),
    ("华289.(0,12)", "off-board"),
])
def test_a_bad_move_says_its_problem(example_text, move, problem):
    with pytest.raises(m3go.BadMoveError) as e:
        m3go.Position(example_text).play(["pass", move])
    assert (e.value.code, e.value.field, e.value.move) == ("bad-move", "moves[1]", move)
    assert e.value.problem == problem
    assert e.value.reason == ("off-board" if problem == "off-board" else "malformed")


def test_an_off_board_move_is_the_probe_answer_off_board():
    request = {"protocol": m3go.PROTOCOL, "id": "o", "moves": [],
               "position": {"rules": "m3go-2020", "diagram": ". . .\n. . .\n. . .\n"},
               "probes": ["黑1.九九", "黑1.ZZ"]}
    probes = m3go.conform_case(request)["probes"]
    pos = m3go.Position(request["position"])
    for probe in probes:
        with pytest.raises(m3go.BadMoveError) as e:
            pos.play(probe["move"])
        assert e.value.reason == probe["reason"]
    assert [p["reason"] for p in probes] == ["off-board", "malformed"]


def test_errors_made_without_the_attributes_have_none():
    assert m3go.IllegalMoveError("x").reason is None
    assert m3go.IllegalMoveError("x").clause is None
    assert m3go.BadMoveError("x").problem is None
    assert m3go.M3goError("x").code is None
