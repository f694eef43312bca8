"""A differential test of the kind an implementer writes: random positions, a tiny independent
engine of one's own (here: strings, liberties and flower strings of the lower layer, where every
flower is off-board, rules.md M20-LOWER / Q20-LOWER) against ``m3go.analyze``, and every legal
move m3go lists played through ``Position.play``."""

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import m3go

# rules.md's label system (Chinese): values -9..9
LABELS = "IHGFEDCBAO一二三四五六七八九"


def label(x, y):
    return LABELS[x + 9] + LABELS[y + 9]


def point_of(size, row, col):
    """The label of the diagram's cell (row 0 at the top): tengen origin, y upwards."""
    half = size // 2
    return label(col - half, half - row)


def components(grid, stones):
    """The 4-connected components of cells holding one of `stones`, as sets of (row, col)."""
    size = len(grid)
    seen, out = set(), []
    for r in range(size):
        for c in range(size):
            if grid[r][c] not in stones or (r, c) in seen:
                continue
            colour, todo, comp = grid[r][c], [(r, c)], set()
            seen.add((r, c))
            while todo:
                a, b = todo.pop()
                comp.add((a, b))
                for n in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                    if 0 <= n[0] < size and 0 <= n[1] < size and n not in seen:
                        if grid[n[0]][n[1]] == colour:
                            seen.add(n)
                            todo.append(n)
            out.append((colour, comp))
    return out


def my_engine(grid):
    """The implementer's own answer: black/white strings with their lower liberties, and the
    flower strings, each a set of point labels."""
    size = len(grid)
    name = lambda cells: frozenset(point_of(size, r, c) for r, c in cells)
    strings = {}
    for colour, comp in components(grid, "XO"):
        libs = {
            n
            for a, b in comp
            for n in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1))
            if 0 <= n[0] < size and 0 <= n[1] < size and grid[n[0]][n[1]] == "."
        }
        strings[name(comp)] = ("black" if colour == "X" else "white", name(libs))
    flowers = {name(comp) for _, comp in components(grid, "#")}
    return strings, flowers


@st.composite
def positions(draw):
    size = draw(st.sampled_from([3, 5, 7, 9]))
    cell = st.sampled_from(list("......XXOO#"))
    grid = [[draw(cell) for _ in range(size)] for _ in range(size)]
    rules = draw(st.sampled_from(["m3go-2020", "dullstone", "m3go-2016"]))
    move = draw(st.integers(min_value=1, max_value=60))
    text = f"rules: {rules}\nsize: {size}\nmove: {move}\ndiagram: |\n" + "".join(
        "  " + " ".join(row) + "\n" for row in grid
    )
    return grid, text


def analysis_or_reject(text):
    try:
        return m3go.analyze(text)
    except m3go.BadPositionError as e:
        # a string without liberty would have been captured: not a position (spec/README.md)
        assert e.code == "bad-position" and e.field == "position"
        assume(False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(positions())
def test_strings_and_flowers_agree_with_my_engine(case):
    grid, text = case
    a = analysis_or_reject(text)
    strings, flowers = my_engine(grid)
    theirs = {
        frozenset(s["points"]): (s["colour"], frozenset(s["lower_liberties"]))
        for s in a["strings"]
    }
    assert theirs == strings
    assert {frozenset(f["points"]) for f in a["flowers"]} == flowers


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(positions())
def test_every_legal_move_plays_and_lands_on_an_empty_point(case):
    grid, text = case
    a = analysis_or_reject(text)
    pos = m3go.Position(text)
    size = len(grid)
    empty = {point_of(size, r, c) for r in range(size) for c in range(size) if grid[r][c] == "."}
    assert pos.legal_moves() == a["legal_moves"]
    for mv in a["legal_moves"]:
        point = mv.split(".", 1)[1]
        assert point == "pass" or point in empty, mv
        after = pos.play(mv)
        assert after.move_number == pos.move_number + 1
