"""`m3go.replay`: a record replayed as `m3go replay --format json` replays it, the mechanical
replay's replaced passes reported (they never count towards the end of the game: register D25)."""

import json

import pytest

import m3go
from conftest import ROOT

RECORD = ROOT / "spec" / "records" / "replaced-passes-3x3.sgf"


@pytest.fixture
def record_text():
    return RECORD.read_text(encoding="utf-8")


def cli_entries(entries):
    """The entries as the command writes them: without the keys `replay` adds."""
    out = []
    for e in entries:
        e = {k: v for k, v in e.items() if k != "replaced"}
        for key in ("reason", "clause", "message"):
            if e[key] is None:
                del e[key]
        out.append(e)
    return out


def test_replaced_passes_are_reported_and_do_not_end_the_game(record_text):
    r = m3go.replay(record_text, mechanical=True)
    assert r["mechanical"] is True
    moves = [(e["number"], e["notation"], e["replaced"], e["reason"]) for e in r["entries"]]
    # 白2 and 黑3 fall on the occupied centre (spec/cases/cov-m20-replay-pass-not-an-end.yaml)
    assert moves == [
        (1, "黑1.OO", False, None),
        (2, "白2.pass", True, "occupied"),
        (3, "黑3.pass", True, "occupied"),
        (4, "白4.一一", False, None),
    ]
    assert [e["clause"] for e in r["entries"] if e["replaced"]] == ["M20-STRING", "M20-STRING"]
    assert all(e["status"] == "replaced" for e in r["entries"] if e["replaced"])
    assert r["replaced"] == {"occupied": 2}
    end = r["position"]
    assert isinstance(end, m3go.Position)
    assert (end.move_number, end.to_move, end.game_over) == (5, "黑", False)
    assert end.diagram.splitlines() == [". . O", ". X .", ". . ."]


def test_after_two_replaced_passes_the_game_goes_on(record_text):
    # two real passes on stone turns would end the game (D12); two replaced ones do not
    after = m3go.replay(record_text, mechanical=True, to=3)["position"]
    assert (after.move_number, after.game_over, after.trailing_passes) == (4, False, 0)
    assert after.play("一一") == m3go.replay(record_text, mechanical=True)["position"]
    start = m3go.replay(record_text, mechanical=True, to=1)["position"]
    real = start.play(["pass", "pass"])
    assert real.trailing_passes == 2 and real.game_over
    with pytest.raises(m3go.IllegalMoveError) as e:
        real.play("一一")
    assert e.value.reason == "game-over"


def test_replay_is_the_cli_json(cli, record_text):
    for args, kwargs in [(["--mechanical"], {"mechanical": True}),
                         (["--mechanical", "--to", "3"], {"mechanical": True, "to": 3}),
                         (["--mechanical", "--rules", "dullstone"],
                          {"mechanical": True, "rules": "dullstone"})]:
        expected = json.loads(cli("replay", *args, "--format", "json", str(RECORD)))
        got = m3go.replay(record_text, **kwargs)
        assert cli_entries(got["entries"]) == expected["entries"]
        assert got["replaced"] == expected["replaced"]
        cli_end = m3go.Position(expected["position"])
        assert (cli_end.diagram, cli_end.move_number, cli_end.to_move) == \
            (got["position"].diagram, got["position"].move_number, got["position"].to_move)
        assert cli_end.legal_moves() == got["position"].legal_moves()


def test_a_strict_replay_refuses_with_the_reason(record_text):
    with pytest.raises(m3go.IllegalMoveError) as e:
        m3go.replay(record_text)
    assert (e.value.code, e.value.field) == ("illegal-move", "record")
    assert (e.value.reason, e.value.clause, e.value.move) == ("occupied", "M20-STRING", "W[bb]")
    strict = m3go.replay(record_text, to=1, rules={"preset": "m3go-2020"})
    assert strict["mechanical"] is False
    assert [e["status"] for e in strict["entries"]] == ["played"]
    assert strict["replaced"] == {}


def test_a_game_file_replays_too():
    text = "size: 3\nrules: m3go-2020\nOO OO 一一\n"
    r = m3go.replay(text, mechanical=True)
    assert [e["replaced"] for e in r["entries"]] == [False, True, False]
    assert r["entries"][1]["reason"] == "occupied"


def test_bad_records_and_rules_are_bad_requests(record_text):
    with pytest.raises(m3go.BadRequestError) as e:
        m3go.replay("(;GM[1]SZ[3];B[bb", mechanical=True)
    assert e.value.field == "record"
    with pytest.raises(m3go.BadRequestError) as e:
        m3go.replay(record_text, mechanical=True, rules="no-such-preset")
    assert e.value.field == "rules"
    with pytest.raises(m3go.BadRequestError) as e:
        m3go.replay("size: 3\nposition: start.yaml\nOO\n", mechanical=True)
    assert e.value.field == "record"
    with pytest.raises(TypeError):
        m3go.replay(record_text, rules=3)
    with pytest.raises(m3go.TooLargeError):
        m3go.replay("(" + " " * (4 * 1024 * 1024), mechanical=True)
