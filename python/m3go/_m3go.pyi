"""Type stubs of m3go's native module (python/src/lib.rs)."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

__version__: str
ANALYSIS_FORMAT: str
"""``m3go-analysis/4``: the version of the analysis object (its ``format``)."""
PLAY_FORMAT: str
"""``m3go-play/1``: the version of the play object (its ``format``)."""
PROTOCOL: str
"""``m3go-conform/2``: the conformance protocol spoken by ``conform_case`` (which answers
``m3go-conform/1`` requests too, in that version)."""

JSON = Any
"""A JSON value as Python objects: dict (string keys), list, str, int, float, bool, None."""

class M3goError(Exception):
    """An input m3go refuses, with the conformance protocol's error code."""

    code: str
    """``bad-position``, ``bad-move``, ``illegal-move``, ``bad-request`` or ``too-large``."""
    field: Optional[str]
    """The argument or field at fault (``position``, ``moves[2]``, ``target``), or None."""
    message: str
    """The message for people (also ``str(error)``), at most 2,000 characters and then
    ``… (N more characters)``."""

class BadPositionError(M3goError):
    """The position does not read or is not valid (``bad-position``)."""

class BadMoveError(M3goError):
    """A move does not read (``bad-move``)."""

    problem: Optional[str]
    """What is wrong with it, one stable code per problem: ``off-board`` (a point off the
    board), ``malformed-point`` (no coordinate at all: ``hello``, ``黑1.ZZ``), ``empty``,
    ``no-number`` (``黑七A``), ``bad-move-number``, ``move-zero``, ``bad-round``, ``round-zero``,
    ``round-past-the-limit``, ``seat-not-in-round`` (the 2016 team format), ``bad-conversion``,
    ``not-own-flower`` (Dullstone's ``=黑`` / ``=白``), ``replaced-pass`` (``=pass`` after a
    pass). None on an error made without it."""
    reason: Optional[str]
    """The refusal code the protocol's probe answer gives such a move: ``off-board`` or
    ``malformed`` (spec/README.md, the reason codes)."""
    move: Optional[str]
    """The move as written."""

class IllegalMoveError(M3goError):
    """A move reads but the rules refuse it (``illegal-move``)."""

    reason: Optional[str]
    """The refusal code, as the protocol's probe answer gives it (spec/README.md, the reason
    codes): ``occupied``, ``wrong-turn``, ``suicide``, ``ko``, ``capture-point``,
    ``one-liberty-eye``, ``tigers-mouth``, ``game-over``, ``conversion-p``, ``conversion-q``,
    ``no-flystone``. None when it is not known (an error made without it)."""
    clause: Optional[str]
    """The id of the clause that refused the move (rules.md's register: ``M20-STRING``,
    ``M20-FORBID-TIGER``, ``GO-KO``, …), as the probe answer's ``clause``."""
    move: Optional[str]
    """The move as written (a ``moves`` entry; in ``replay``, the record's move as the record
    writes it: ``W[bb]``, ``黑12.七A``)."""

class BadRequestError(M3goError):
    """An argument is not of the expected form (``bad-request``): a dict or list nested more than
    128 deep or holding itself, a value JSON has no form for, a string with a lone surrogate."""

class TooLargeError(M3goError):
    """An input is larger than m3go accepts (``too-large``): a position text, or the JSON text of a
    dict, over 4 MiB."""

class Position:
    """A valid position (immutable)."""

    def __init__(self, position: "PositionLike") -> None:
        """Reads the YAML text of a position file, a dict of its keys, or copies a Position."""
    @staticmethod
    def from_yaml(text: str) -> "Position":
        """The position of a position file's text."""
    def to_yaml(self) -> str:
        """The position file that reads back as this position."""
    def to_dict(self) -> Dict[str, JSON]:
        """The position file's keys as a dict (``Position(d)`` reads it back)."""
    def play(self, moves: Union[str, Sequence[str]]) -> "Position":
        """The position after one move or a list of moves (``七A``, ``华289.一九``, ``pass``)."""
    def legal_moves(self) -> List[str]:
        """The legal moves of the side to move, in notation."""
    def analyze(self) -> Dict[str, JSON]:
        """The analysis, as ``m3go.analyze`` returns it."""
    def explain(self, target: str) -> str:
        """The clause trace of a point, a string or a move."""
    @property
    def size(self) -> int: ...
    @property
    def move_number(self) -> int:
        """The number of the next move."""
    @property
    def to_move(self) -> str:
        """The stone of the next move as the notation writes it (黑, 白, 华, 花, …)."""
    @property
    def game_over(self) -> bool: ...
    @property
    def trailing_passes(self) -> int:
        """How many of the last moves were passes that count towards the end of the game (a
        mechanical replay's replaced pass never does: it resets the count, register D25)."""
    @property
    def diagram(self) -> str:
        """The direct board, top row first (``.`` empty, ``X`` black, ``O`` white, ``#`` flower)."""
    def __eq__(self, other: object) -> bool:
        """Equal when the game state is: rules, board, move number, earlier boards, trailing
        passes, dead stones and the Flystone state (not the engine)."""
    def __hash__(self) -> int:
        """Consistent with ``__eq__``: equal positions hash equal (a set or dict key)."""

PositionLike = Union[Position, str, Mapping[str, Any]]
"""A Position, the YAML text of a position file, or a dict of the same keys."""

def analyze(position: PositionLike) -> Dict[str, JSON]:
    """The object ``m3go analyze --format json`` prints (``format``: ``ANALYSIS_FORMAT``)."""

def play(position: PositionLike, moves: Union[str, Sequence[str]]) -> Dict[str, JSON]:
    """The object ``m3go play --format json`` prints: ``reports`` (one per move) and the
    ``analysis`` of the position after the last move."""

def legal_moves(position: PositionLike) -> List[str]:
    """The legal moves of the side to move, in notation (the analysis' ``legal_moves``)."""

def explain(position: PositionLike, target: str) -> str:
    """The clause trace of a point (``六四``), a string (``七九*``) or a move (``华289.一九``)."""

def conform_case(request: Union[str, Mapping[str, Any]]) -> Dict[str, JSON]:
    """The answer ``m3go protocol`` gives to one ``m3go-conform/2`` (or ``/1``) request (a dict or one JSON
    line); error answers are returned, not raised, as the protocol does. A dict is read as the
    line ``json.dumps`` makes of it (too deep, recursive or not JSON: ``bad-request``; over 4 MiB:
    ``too-large``); the answer's ``id`` is the request's (an int of any size). Never raises."""

def replay(
    record: str,
    mechanical: bool = False,
    rules: Union[str, Mapping[str, Any], None] = None,
    to: Optional[int] = None,
) -> Dict[str, Any]:
    """A record replayed as ``m3go replay [--mechanical] --format json`` replays it.

    ``record`` is the text of an SGF record or a game file (nothing is read from disk: a game
    file may not name a position file). ``mechanical``: 003's 机械式排局 (a move the rules refuse
    becomes a pass); else a strict replay. ``rules``: a preset name, a YAML mapping or a dict
    (default: m3go-2020 when mechanical, else the record's). ``to``: stop after that move.

    Returns a dict: ``entries``, the log, one per record move as the command writes them
    (``number``, ``notation``, ``source``, ``status``: ``played``, ``record-pass`` or
    ``replaced``, ``captured``, …) with ``replaced`` (bool) and the replaced move's ``reason``,
    ``clause`` and ``message`` (None when the move was not replaced); ``replaced``, the replaced
    moves counted by reason; ``mechanical``; ``position``, the final :class:`Position` (with
    every earlier board; the command's ``position`` keeps those the ko rule needs). A replaced
    pass never counts towards the end of the game (register D25).

    A record or rules that do not read raise ``BadRequestError``; a move a strict replay
    refuses ``IllegalMoveError`` (``field`` ``record``, with ``reason``, ``clause``, ``move``);
    a text over 4 MiB ``TooLargeError``."""

def case_request(path: str) -> Dict[str, JSON]:
    """The request the conformance runner sends for a case file (``spec/cases/*.yaml``)."""

def check_case(path: str, answer: Mapping[str, Any]) -> List[str]:
    """The runner's verdict on an answer to a case file: one message per failed check. An answer
    that is not JSON (too deep, recursive) raises ``BadRequestError``, over 4 MiB ``TooLargeError``."""

def _analyze_loop(position: str, n: int) -> float:
    """The library's call behind ``analyze`` run ``n`` times in Rust on a position's text: the
    seconds per call (python/bench/analyze_speed.py)."""

def _run_command(args: Sequence[str]) -> int:
    """The ``m3go`` command line run in this process on ``args`` (the program's name first):
    the exit code. The package's ``m3go`` command and ``python -m m3go`` call it."""
