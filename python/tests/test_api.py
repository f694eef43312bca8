"""The package answers what the command line answers, and refuses what it refuses with the
protocol's error codes."""

import json

import pytest

import m3go
from conftest import CASES, EXAMPLE


def test_analyze_is_the_cli_json(cli, example_text):
    expected = json.loads(cli("analyze", "--format", "json", str(EXAMPLE)))
    assert m3go.analyze(example_text) == expected
    assert m3go.analyze(m3go.Position(example_text)) == expected


def test_play_is_the_cli_json(cli, example_text):
    pos = m3go.Position(example_text)
    moves = pos.legal_moves()[:1] + ["pass"]
    expected = json.loads(cli("play", "--format", "json", str(EXAMPLE), *moves))
    assert m3go.play(example_text, moves) == expected


def test_explain_is_the_cli_trace(cli, example_text):
    for target in ["六九*", "八八", "华289.一九"]:
        assert m3go.explain(example_text, target) == cli("explain", str(EXAMPLE), target)


def test_conform_case_is_the_protocol_answer(cli):
    request = m3go.case_request(str(CASES / "m20-eye-fig1.yaml"))
    line = json.dumps(request, ensure_ascii=False)
    expected = json.loads(cli("protocol", stdin=line + "\n"))
    assert m3go.conform_case(request) == expected
    assert m3go.conform_case(line) == expected


def test_analysis_format_and_legal_moves(example_text):
    a = m3go.analyze(example_text)
    assert a["format"] == m3go.ANALYSIS_FORMAT
    assert a["format"].startswith("m3go-analysis/")
    assert m3go.legal_moves(example_text) == a["legal_moves"]
    assert len(a["legal_moves"]) > 0


def test_position_round_trips(example_text):
    pos = m3go.Position.from_yaml(example_text)
    assert m3go.Position(pos.to_yaml()) == pos
    assert m3go.Position(pos.to_dict()) == pos
    assert m3go.Position(pos) == pos
    assert (pos.size, pos.move_number, pos.to_move) == (19, 289, "华")
    assert pos.diagram.splitlines()[0].split() == example_text.split("diagram: |")[1].splitlines()[1].split()


def test_position_play_is_the_play_report(example_text):
    pos = m3go.Position(example_text)
    first = pos.legal_moves()[0]
    after = pos.play(first)
    assert after.move_number == pos.move_number + 1
    assert after != pos
    assert after.analyze() == m3go.play(pos, [first])["analysis"]
    assert pos.play([first, "pass"]) == after.play("pass")


def test_bad_position_is_bad_position():
    with pytest.raises(m3go.BadPositionError) as e:
        m3go.analyze("rules: m3go-2020\ndiagram: |\n  . .\n  . .\n")
    assert e.value.code == "bad-position"
    assert e.value.field == "position"
    assert isinstance(e.value, m3go.M3goError)
    with pytest.raises(m3go.BadPositionError):
        m3go.Position({"rules": "m3go-2020", "diagram": ". . .\n. . .\n. . .\n", "colour": 1})


def test_refused_moves_carry_their_code_and_field(example_text):
    first = m3go.legal_moves(example_text)[0]
    with pytest.raises(m3go.IllegalMoveError) as e:
        m3go.play(example_text, [first, "pass", first.split(".")[1]])
    assert (e.value.code, e.value.field) == ("illegal-move", "moves[2]")
    with pytest.raises(m3go.BadMoveError) as e:
        m3go.Position(example_text).play(["pass", "not a move"])
    assert (e.value.code, e.value.field) == ("bad-move", "moves[1]")
    assert "not a move" in e.value.message


def test_a_move_past_the_last_move_number_is_too_large():
    # as `m3go protocol` answers it: the position after move 999,999 is the last m3go plays
    last = "rules: m3go-2020\nmove: 999999\ndiagram: |\n  . . .\n  . . .\n  . . .\n"
    with pytest.raises(m3go.TooLargeError) as e:
        m3go.Position(last).play(["pass", "pass"])
    assert (e.value.code, e.value.field) == ("too-large", "moves[1]")
    request = {"protocol": m3go.PROTOCOL, "id": "n", "position": {"rules": "m3go-2020",
               "move": 999999, "diagram": ". . .\n. . .\n. . .\n"}, "moves": ["pass", "pass"]}
    assert m3go.conform_case(request)["error"]["code"] == "too-large"


def test_wrong_types_are_type_errors(example_text):
    with pytest.raises(TypeError):
        m3go.analyze(42)
    with pytest.raises(TypeError):
        m3go.play(example_text, [1, 2])


def test_protocol_errors_are_answers_not_exceptions():
    ans = m3go.conform_case("{not json")
    assert ans["error"]["code"] == "bad-request"
    ans = m3go.conform_case({"protocol": m3go.PROTOCOL, "id": "x", "position": {"diagram": ". ."}})
    assert ans["error"]["code"] == "bad-position"
    caps = m3go.conform_case({"protocol": m3go.PROTOCOL, "id": 1, "action": "capabilities"})
    assert m3go.PROTOCOL in caps["protocols"]


def test_check_case_passes_m3go_and_fails_a_wrong_answer():
    path = str(CASES / "m20-eye-fig1.yaml")
    answer = m3go.conform_case(m3go.case_request(path))
    assert m3go.check_case(path, answer) == []
    # the analysis of an empty board instead: the case's private eye is not there
    empty = "rules: m3go-2020\ndiagram: |\n" + ("  " + " ".join(["."] * 19) + "\n") * 19
    wrong = dict(answer, analysis=m3go.analyze(empty))
    assert m3go.check_case(path, wrong) != []
