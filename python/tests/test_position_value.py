"""A Position is a value: equal when the game state is, hashable consistently with that."""

import m3go


def test_equal_positions_from_two_routes_hash_equal(example_text):
    pos = m3go.Position(example_text)
    first = pos.legal_moves()[0]
    one = pos.play([first, "pass"])
    # the other route: through the position file written after the first move, then its text
    other = m3go.Position(m3go.Position(pos.play(first).to_dict()).play("pass").to_yaml())
    assert one == other and one is not other
    assert hash(one) == hash(other)
    assert len({one, other}) == 1
    seen = {one: "after two moves"}
    assert seen[other] == "after two moves"


def test_a_replay_and_play_reach_the_same_position():
    record = "(;GM[1]FF[4]SZ[3];B[bb];W[ca])"
    replayed = m3go.replay(record, mechanical=True)["position"]
    played = m3go.Position({"rules": "m3go-2020", "diagram": ". . .\n. . .\n. . .\n"}).play(
        ["OO", "一一"])
    assert replayed == played
    assert hash(replayed) == hash(played)


def test_different_positions_are_different_keys(example_text):
    pos = m3go.Position(example_text)
    moves = pos.legal_moves()[:3]
    after = [pos.play(m) for m in moves]
    keys = {pos: 0}
    for k, p in enumerate(after, 1):
        keys[p] = k
    assert len(keys) == 4
    assert [keys[pos.play(m)] for m in moves] == [1, 2, 3]
    # the same board and move number, one pass more: not the same game state
    passed = pos.play("pass")
    assert passed != pos and passed.trailing_passes == pos.trailing_passes + 1
    assert pos != "not a position"


def test_rules_are_part_of_the_state():
    board = {"diagram": ". . .\n. . .\n. . .\n"}
    a = m3go.Position(dict(board, rules="m3go-2020"))
    b = m3go.Position(dict(board, rules="dullstone"))
    assert a != b
    assert len({a, b, m3go.Position(a)}) == 2
