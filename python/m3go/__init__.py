"""m3go: the reference rules interpreter for three-colour Go (Meng three-colour Go 2016/2020,
Dullstone, Flystone), in-process.

Every function answers what the ``m3go`` command line answers: ``analyze`` returns the object
``m3go analyze --format json`` prints, ``play`` the one ``m3go play --format json`` prints,
``conform_case`` the answer ``m3go protocol`` gives to one ``m3go-conform/2`` (or ``/1``)
request, ``replay`` the log ``m3go replay --format json`` prints. A position is a
:class:`Position`, the YAML text of a position file or a dict of the same keys. A refused input
raises an :class:`M3goError` whose ``code`` is the protocol's error code; an
:class:`IllegalMoveError` carries the refusal's ``reason`` and ``clause``, a
:class:`BadMoveError` the ``problem``.
"""

from ._m3go import (
    ANALYSIS_FORMAT,
    PLAY_FORMAT,
    PROTOCOL,
    BadMoveError,
    BadPositionError,
    BadRequestError,
    IllegalMoveError,
    M3goError,
    Position,
    TooLargeError,
    __version__,
    analyze,
    case_request,
    check_case,
    conform_case,
    explain,
    legal_moves,
    play,
    replay,
)

__all__ = [
    "ANALYSIS_FORMAT",
    "PLAY_FORMAT",
    "PROTOCOL",
    "BadMoveError",
    "BadPositionError",
    "BadRequestError",
    "IllegalMoveError",
    "M3goError",
    "Position",
    "TooLargeError",
    "__version__",
    "analyze",
    "case_request",
    "check_case",
    "conform_case",
    "explain",
    "legal_moves",
    "play",
    "replay",
]
