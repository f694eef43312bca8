//! The reference move: a move played on a [`Position`] clause by clause — the turn it takes,
//! placement, captures in the upper layer, the capture / attribute cascade, suicide, ko,
//! passes and the end of the game (GO-CAPTURE, GO-CASCADE, GO-SUICIDE, GO-KO, GO-PASS, GO-END,
//! M20-LIFE-1, M20-LIFE-2, Q20-HOLO-CAPTURE), with its report ([`Report`], the move_report
//! module) — and the legal and special moves it lists. The position itself is the position
//! module.

use crate::board::coord::{Point, StringName};
use crate::board::grid::{Board, Colour, Stone};
use crate::board::layers::Attribute;
use crate::game::advance::Engine;
use crate::game::cascade::{conversion_ataris, CascadeBoard, CascadeStep, NoAtari};
use crate::game::move_report::{ataris, attribute_changes, eyes_made, illegal};
pub use crate::game::move_report::{Illegal, Report};
pub use crate::game::moves::{Action, Move};
use crate::game::notation::Notation;
use crate::game::order::{team_wrong_turn, StoneKind, Turn};
pub use crate::game::position::Position;
pub(crate) use crate::game::position::PositionParts;
pub use crate::game::refusal::Refusal;
use crate::game::text::{text, Text};
use crate::judge::analysis::Analysis;
use crate::judge::forbidden::flower_forbidden_reason;
use crate::judge::freeze::FrozenString;
use crate::rules::{CaptureTiming, Rules, Schedule};

/// How a move uses its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Special {
    /// The turn the schedule gives.
    Normal,
    /// D3-EMERGENCY: a flower turn placing a stone of the player's own colour.
    Conversion,
    /// S3-ROUND: a chosen flystone thrown right after the player's own-colour turn.
    Flystone,
}

/// M20-LIFE-1 / M20-LIFE-2 — "一个处于“中性分隔串”状态的花棋串无气 … 仍可存活 … 当花棋串上层属性变为
/// 黑棋串属性或白棋串属性时，其生死则按照黑棋串或白棋串判断、处理" (003). Only black and white strings
/// of the upper layer are ever capturable; a neutral flower is off-board there, so it never is.
/// M16-LIFE-1, Q20-LIFE-1, D3-LIFE-FLOWER: a neutral grey/flower string lives without liberties.
/// M16-GREY-CONVERT, Q20-LIFE-2: a converted one is part of a black or white upper string and is
/// captured with it. D3-ATTR-BW: black and white strings are captured as in Go.
pub(crate) fn capturable(a: &Analysis, colour: Colour) -> Vec<usize> {
    a.strings_without_liberty(colour)
}

/// GO-CAPTURE / Q20-HOLO-CAPTURE — "没有气的黑棋串或白棋串是“死棋串”，死棋串中的所有棋子必须立即从棋盘上
/// 拿走" (000); "全息棋局中提吃棋串时，底层棋局中的对应棋串也同时被提走" (001). Removes the upper
/// strings `groups` from the direct board — black/white stones and attributed flowers alike —
/// and returns the removed indices. M16-LIFE-2: a dead string is removed at once, whole.
pub(crate) fn remove_captured(board: &mut Board, a: &Analysis, groups: &[usize]) -> Vec<usize> {
    let mut removed = Vec::new();
    for &g in groups {
        for &i in &a.upper_strings.groups[g].points {
            board.set(i, None);
            removed.push(i);
        }
    }
    removed.sort_unstable();
    removed
}

/// The result of a cascade: the settled board, its analysis, what was removed, the log.
pub(crate) struct Settled {
    pub board: Board,
    pub analysis: Analysis,
    pub captured: Vec<usize>,
    pub steps: Vec<Text>,
}

/// The direct board of the reference as the cascade settles it: the analysis of each round,
/// the removed points and the step log.
struct ReferenceBoard<'a> {
    board: Board,
    rules: &'a Rules,
    /// The attributes held from before the move (`capture-timing: holographic-first`).
    held: Option<&'a [Option<Attribute>]>,
    /// The grey strings frozen before the move (M13-FREEZE, `grey-freeze: kept`).
    frozen: &'a [FrozenString],
    /// The last round's analysis (the first made when the board is built).
    analysis: Analysis,
    /// Whether `analysis` is of the board as it stands, and with the held attributes or not:
    /// `None` once stones were removed since.
    current: Option<bool>,
    captured: Vec<usize>,
    steps: Vec<Text>,
}

impl<'a> ReferenceBoard<'a> {
    /// The board with the placed stone, analysed as the cascade's first round analyses it:
    /// with the held attributes under `capture-timing: holographic-first` (register D8).
    fn new(
        board: Board,
        rules: &'a Rules,
        held: Option<&'a [Option<Attribute>]>,
        frozen: &'a [FrozenString],
    ) -> ReferenceBoard<'a> {
        let holding = rules.capture_timing == CaptureTiming::HolographicFirst;
        ReferenceBoard {
            analysis: reference_analysis(&board, rules, held.filter(|_| holding), frozen),
            current: Some(holding),
            board,
            rules,
            held,
            frozen,
            captured: Vec::new(),
            steps: Vec::new(),
        }
    }

    fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    fn names(&self, colour: Colour) -> Vec<StringName> {
        let a = self.analysis();
        capturable(a, colour)
            .iter()
            .map(|&g| self.board.string_name(&a.upper_strings.groups[g].points))
            .collect()
    }
}

/// The analysis of the reference board: with the attributes `held` from before the move, or
/// recomputed with the strings `frozen` before it.
fn reference_analysis(
    board: &Board,
    rules: &Rules,
    held: Option<&[Option<Attribute>]>,
    frozen: &[FrozenString],
) -> Analysis {
    match held {
        Some(h) => Analysis::with_held_attributes(board, rules, h),
        None => Analysis::with_frozen(board, rules, frozen),
    }
}

impl CascadeBoard for ReferenceBoard<'_> {
    fn analyse(&mut self, held: bool) {
        // the board unchanged since an analysis of the same kind: that analysis stands (the
        // first round's, made with the board)
        if self.current == Some(held) {
            return;
        }
        self.analysis = reference_analysis(
            &self.board,
            self.rules,
            self.held.filter(|_| held),
            self.frozen,
        );
        self.current = Some(held);
    }
    fn any_without_liberty(&self, colour: Colour) -> bool {
        !capturable(self.analysis(), colour).is_empty()
    }
    fn remove_without_liberty(&mut self, colour: Colour) {
        let dead = capturable(&self.analysis, colour);
        self.captured
            .extend(remove_captured(&mut self.board, &self.analysis, &dead));
        self.current = None;
    }
    fn note(&mut self, step: CascadeStep) {
        match step {
            CascadeStep::Capture(colour) => {
                let a = self.analysis();
                let lines: Vec<Text> = capturable(a, colour)
                    .iter()
                    .map(|&g| {
                        let pts = &a.upper_strings.groups[g].points;
                        text!(
                            "GO-CAPTURE: ",
                            colour.name(),
                            " upper string ",
                            self.board.string_name(pts),
                            " (",
                            pts.len(),
                            " stones) has no liberty: removed"
                        )
                    })
                    .collect();
                self.steps.extend(lines);
            }
            CascadeStep::Suicide(colour) => {
                let names = self.names(colour);
                self.steps.push(text!(
                    "GO-SUICIDE: ",
                    colour.name(),
                    " upper string(s) ",
                    Text::join(names, ", "),
                    " without liberty removed (suicide allowed)"
                ));
            }
            CascadeStep::Recomputed => self
                .steps
                .push("GO-CASCADE: private eyes and attributes recomputed".into()),
            CascadeStep::RecomputedBeforeSuicide => self.steps.push(
                "GO-CASCADE: private eyes and attributes recomputed before the mover's strings without liberty are judged (D10)".into(),
            ),
        }
    }
}

/// GO-CASCADE on the reference board: [`crate::game::cascade::cascade`] (the cascade, written
/// once for both boards) over the direct board with the placed stone, `held` the attributes of
/// the board before the move (used under `capture-timing: holographic-first`, register D8),
/// `frozen` the grey strings frozen before it (they keep their attribute in every round,
/// M13-FREEZE). Returns the settled board, its analysis, the removed points and the step log, or the
/// suicide refusal naming the strings left without liberty (GO-SUICIDE).
pub(crate) fn settle_reference(
    board: Board,
    rules: &Rules,
    mover: Colour,
    held: Option<&[Option<Attribute>]>,
    frozen: &[FrozenString],
) -> Result<Settled, Illegal> {
    let mut b = ReferenceBoard::new(board, rules, held, frozen);
    if let Err(reason) = crate::game::cascade::cascade(&mut b, rules, mover) {
        return Err(illegal(
            reason,
            text!(
                "the move would leave the ",
                mover.name(),
                " string(s) ",
                Text::join(b.names(mover), ", "),
                " without a liberty"
            ),
        ));
    }
    let ReferenceBoard {
        board,
        analysis,
        mut captured,
        steps,
        ..
    } = b;
    captured.sort_unstable();
    Ok(Settled {
        analysis,
        board,
        captured,
        steps,
    })
}

impl Position {
    /// The wrong-turn refusal of move `m`, naming whose turn it is (in the team format: the
    /// round and the seat, M16-TEAM-CYCLE).
    fn wrong_turn(&self, m: &Move, detail: String) -> Illegal {
        let n = self.move_number;
        let schedule = self.rules.schedule;
        let detail = match schedule {
            Schedule::Team2016 => team_wrong_turn(n, self.rules.team_grey_start, m.number, m.turn),
            _ => detail,
        };
        // the turn's words name no point
        let detail = Text::from(detail);
        illegal(Refusal::WrongTurn(schedule), detail)
    }

    /// Which turn a move takes: the schedule's, or — when the move claims it — an emergency
    /// conversion on a flower turn (D3-EMERGENCY) or a chosen flystone (S3-ROUND).
    /// D3-EMERGENCY-OPTIONAL: the conversion is taken only when the move claims it.
    pub(super) fn resolve_turn(&self, m: &Move) -> Result<(Turn, Special), Illegal> {
        let n = self.move_number;
        let turn = self.turn();
        if let Some(claimed) = m.number {
            if claimed != n {
                return Err(self.wrong_turn(
                    m,
                    format!(
                        "move number {claimed} given, but the next move is {n}, a {} ({})",
                        turn.describe(),
                        turn.symbol()
                    ),
                ));
            }
        }
        let Some(t) = m.turn else {
            return Ok((turn, Special::Normal));
        };
        if t == turn {
            return Ok((turn, Special::Normal));
        }
        let plain = format!(
            "move {n} is a {} ({}), not a {} ({})",
            turn.describe(),
            turn.symbol(),
            t.describe(),
            t.symbol()
        );
        // D3-EMERGENCY-COLOUR: the converted flower is a stone of the player's own colour.
        if t.player == turn.player && t.kind == StoneKind::Own && turn.kind == StoneKind::Flower {
            if self.rules.emergency_conversion {
                return Ok((t, Special::Conversion));
            }
            return Err(self.wrong_turn(
                m,
                format!("{plain}; a flower turn becomes a stone only by the emergency conversion, which these rules do not allow (emergency-conversion: false)"),
            ));
        }
        if let Some(state) = self.flystone_state() {
            if t.kind == StoneKind::Flower && turn.kind == StoneKind::Own && t.player != turn.player
            {
                let prev = if n >= 2 {
                    Some(self.turn_of(n - 1))
                } else {
                    None
                };
                if prev
                    != Some(Turn {
                        player: t.player,
                        kind: StoneKind::Own,
                    })
                {
                    return Err(self.wrong_turn(m, format!("{plain}; a flystone follows its thrower's own black/white turn (S3-ROUND-ORDER)")));
                }
                if state.chosen_flystones_left(&self.rules, t.player, n) == 0 {
                    return Err(illegal(
                        Refusal::NoFlystone,
                        format!(
                            "move {n}: {} has no chosen flystone left (mode {:?}, {} flystones a side)",
                            t.player.name(),
                            self.rules.flystone_mode,
                            self.rules.flystones
                        )
                        .into(),
                    ));
                }
                return Ok((t, Special::Flystone));
            }
        }
        Err(self.wrong_turn(m, plain))
    }

    /// GO-KO — whether `board` (the result of the move) repeats a position the ko rule forbids
    /// (`crate::game::cascade::repeats_earlier` over this game's earlier boards): `simple`,
    /// the board before the previous move; `positional`, any earlier board; `situational`, an
    /// earlier board with the same next turn.
    pub fn ko_violation(&self, board: &Board) -> bool {
        let len = self.history.len() as i64;
        let n = i64::from(self.move_number);
        crate::game::cascade::repeats_earlier(
            self.rules.ko,
            // (index from the oldest, board), newest first
            (0..self.history.len())
                .rev()
                .zip(self.history.newest_first()),
            |&(j, _)| n - (len - j as i64),
            |&(_, b)| b == board,
            |m| self.turn_of(m),
            self.turn_of(self.move_number + 1),
        )
    }

    /// Plays a move: checks the turn, the point, the flower's forbidden points (judged on the
    /// upper layer before the stone is placed), runs the cascade, checks ko. Returns the new
    /// position and the report, or the reason the move is refused; `self` is never changed.
    /// M16-PLAY-GO: black and white stones are played, captured and live as in Go.
    /// On the fast engine ([`Engine::Fast`]) the next position also keeps its fast form: the
    /// fast engine plays the same move from this position's.
    pub fn play_reported(&self, m: &Move) -> Result<(Position, Report), Illegal> {
        self.play_from(m, None)
            .map(|(next, report, _)| (self.with_next_fast(m, &report, next), report))
    }

    /// [`Position::play_reported`], with the analysis of the resulting board when the move placed a
    /// stone: the cascade's last, which is `Position::analysis` of the new position (the cascade stops
    /// only after analysing the settled board without held attributes), for a caller that
    /// reports on the new position (one analysis per board). `None` after a pass, whose board
    /// is this one.
    pub fn play_analysed(&self, m: &Move) -> Result<(Position, Report, Option<Analysis>), Illegal> {
        self.play_from(m, None)
            .map(|(next, report, a)| (self.with_next_fast(m, &report, next), report, a))
    }

    /// `next`, the reference's position after `m` (reported in `report`), keeping the fast
    /// form of the same move played from this position's, on the fast engine; on the
    /// reference, or should the fast engine refuse the move (the tests compare the two), `next`
    /// as it is (its fast form built when needed).
    fn with_next_fast(&self, m: &Move, report: &Report, next: Position) -> Position {
        if self.engine != Engine::Fast {
            return next;
        }
        match self.with_fast(|f| f.play_as(m.action, report.turn)) {
            Ok(fast) => next.keeping_fast(fast),
            Err(_) => next,
        }
    }

    /// [`Position::play_reported`], reusing `before` — the analysis of this position — when the caller
    /// already has it (e.g. [`Position::legal_moves`], which tries every point). The steps, in
    /// the order their refusals take precedence: the end of the game, the turn, a pass, the
    /// point, the special turn, the flower's forbidden points, the placement and its cascade
    /// (suicide), the flower's capture, ko; then the report.
    /// M20-LIFE-GO: everything not special to flowers is Go: GO-END in
    /// [`Position::refuse_after_end`], GO-PASS in [`Position::pass`], capture and suicide in
    /// [`settle_reference`], ko in [`Position::refuse_ko`].
    fn play_from(
        &self,
        m: &Move,
        before: Option<&Analysis>,
    ) -> Result<(Position, Report, Option<Analysis>), Illegal> {
        self.refuse_after_end()?;
        let (turn, special) = self.resolve_turn(m)?;
        let p = match m.action {
            Action::Pass => return self.pass(turn, special).map(|(next, r)| (next, r, None)),
            Action::Place(p) => p,
        };
        let i = self.empty_point(p)?;
        let computed;
        let before = match before {
            Some(a) => a,
            None => {
                computed = self.analysis();
                &computed
            }
        };
        let mut steps = self.take_special_turn(turn, special, i)?;
        self.refuse_forbidden_flower(before, turn, p, i)?;
        let (stone, settled) = self.place_and_settle(before, turn, p, i)?;
        steps.push(text!("placed ", stone.name(), " at ", p));
        self.refuse_flower_capture(&settled, turn, p)?;
        self.refuse_ko(&settled.board, p)?;
        steps.extend(settled.steps.iter().cloned());
        Ok(self.report_move(before, turn, p, settled, steps))
    }

    /// GO-END — "着子完毕的棋局" (003): no move, not even a pass, after the game is over
    /// ([`Position::game_over`]).
    pub(super) fn refuse_after_end(&self) -> Result<(), Illegal> {
        if self.game_over() {
            return Err(illegal(
                Refusal::GameOver,
                format!(
                    "move {}: the game is over (the last moves were passes)",
                    self.move_number
                )
                .into(),
            ));
        }
        Ok(())
    }

    /// GO-PASS — "这手棋就用虚着（Pass）代替" (003): any turn, stone or flower, may be passed; the
    /// board stays, the pass is counted towards the end of the game (GO-END). An emergency
    /// conversion is a stone, never a pass (D3-EMERGENCY-Q).
    pub(super) fn pass(&self, turn: Turn, special: Special) -> Result<(Position, Report), Illegal> {
        let n = self.move_number;
        if special == Special::Conversion
            && !crate::game::cascade::conversion_q(None.into_iter(), None)
        {
            return Err(illegal(
                Refusal::ConversionQ,
                format!("move {n}: a converted flower is a stone placed on the single liberty of a string in atari, not a pass").into(),
            ));
        }
        let next = self.successor(turn, Action::Pass, self.board.clone());
        let report = Report {
            number: n,
            notation: Notation::new(&self.rules, n, turn, Action::Pass),
            turn,
            action: Action::Pass,
            captured: vec![],
            eyes_made: vec![],
            eyes_lost: vec![],
            attribute_changes: vec![],
            ataris: vec![],
            steps: vec![Text::from("GO-PASS: pass")],
            game_over: next.game_over(),
        };
        Ok((next, report))
    }

    /// M16-COORD / M20-STRING — a stone goes on an empty point of the board: the index of `p`,
    /// or the refusal (off the board, occupied).
    pub(super) fn empty_point(&self, p: Point) -> Result<usize, Illegal> {
        let n = self.move_number;
        if !p.on_board(self.board.size()) {
            return Err(illegal(
                Refusal::OffBoard,
                format!("move {n}: ({},{}) is off the board", p.x, p.y).into(),
            ));
        }
        let i = self.board.index(p);
        if let Some(s) = self.board.get(i) {
            return Err(illegal(
                Refusal::Occupied,
                text!(
                    "move ",
                    n,
                    ": ",
                    p,
                    " is occupied by a ",
                    s.name(),
                    " stone"
                ),
            ));
        }
        Ok(i)
    }

    /// D3-EMERGENCY / S3-ROUND — a move taking a turn other than the schedule's: an emergency
    /// conversion must save a string put in atari ([`emergency_conversion`]); a chosen flystone
    /// is logged. Returns the first steps of the report.
    pub(super) fn take_special_turn(
        &self,
        turn: Turn,
        special: Special,
        i: usize,
    ) -> Result<Vec<Text>, Illegal> {
        let n = self.move_number;
        Ok(match special {
            Special::Normal => Vec::new(),
            Special::Conversion => {
                let saved = emergency_conversion(self, i)?;
                vec![text!(
                    "D3-EMERGENCY: ",
                    turn.player.name(),
                    "'s flower turn becomes a ",
                    turn.player.name(),
                    " stone on the single liberty of ",
                    Text::join(saved, ", "),
                    " (P: put in atari by move ",
                    n - 1,
                    "; Q: its only liberty)"
                )]
            }
            Special::Flystone => vec![format!(
                "S3-ROUND: {} throws a chosen flystone right after move {}",
                turn.player.name(),
                n - 1
            )
            .into()],
        })
    }

    /// M20-FORBID-UPPER — "禁着点判断在上层棋局中进行" (003): a flower is refused on a capture point,
    /// a one-liberty eye or a tiger's mouth, judged on the upper layer before it is placed
    /// (`before`; [`flower_forbidden_reason`]: M20-FORBID-CAPTURE, M20-FORBID-EYE,
    /// M20-FORBID-TIGER).
    pub(super) fn refuse_forbidden_flower(
        &self,
        before: &Analysis,
        turn: Turn,
        p: Point,
        i: usize,
    ) -> Result<(), Illegal> {
        if turn.kind != StoneKind::Flower {
            return Ok(());
        }
        let Some(f) = flower_forbidden_reason(before, &self.rules, i, turn.player) else {
            return Ok(());
        };
        let owner = f
            .owner()
            .map(|c| format!(" of {}", c.name()))
            .unwrap_or_default();
        Err(illegal(
            Refusal::from(f),
            text!(
                "move ",
                self.move_number,
                ": ",
                p,
                " is a ",
                f.code(),
                owner,
                ", forbidden to ",
                turn.describe()
            ),
        ))
    }

    /// GO-CASCADE — the stone of the turn (the player's colour, or a flower) is placed at `p`
    /// and [`settle_reference`] settles the board: captures, recomputed attributes, and the
    /// suicide refusal (GO-SUICIDE). Under `capture-timing: holographic-first` the first
    /// captures use the attributes of `before` (register D8).
    pub(super) fn place_and_settle(
        &self,
        before: &Analysis,
        turn: Turn,
        p: Point,
        i: usize,
    ) -> Result<(Stone, Settled), Illegal> {
        let stone = match turn.kind {
            StoneKind::Own => turn.player.stone(),
            StoneKind::Flower => Stone::Flower,
        };
        let mut board = self.board.clone();
        board.set(i, Some(stone));
        let held = (self.rules.capture_timing == CaptureTiming::HolographicFirst)
            .then_some(before.attribute_at.as_slice());
        let settled = settle_reference(board, &self.rules, turn.player, held, &self.frozen)
            .map_err(|mut e| {
                e.message = text!("move ", self.move_number, ": ", p, ": ", e.message);
                e
            })?;
        Ok((stone, settled))
    }

    /// M20-FORBID-CAPTURE / D3-FORBID-CAPTURE, register D9 (default `flower-capture-check:
    /// cascade`): "也即花子不具有提吃功能" (003, 004), "灰子不具有提吃棋子的功能" (000) — a flower
    /// whose attribute cascade removes stones is refused as a capture point.
    fn refuse_flower_capture(
        &self,
        settled: &Settled,
        turn: Turn,
        p: Point,
    ) -> Result<(), Illegal> {
        if crate::game::cascade::flower_capture_refused(
            &self.rules,
            turn,
            !settled.captured.is_empty(),
        ) {
            return Err(self.flower_capture_refusal(p));
        }
        Ok(())
    }

    /// The refusal of a flower at `p` whose attribute cascade removes stones.
    pub(super) fn flower_capture_refusal(&self, p: Point) -> Illegal {
        illegal(
            Refusal::CapturePoint,
            text!(
                "move ",
                self.move_number,
                ": a flower at ",
                p,
                " would remove stones through the attribute cascade (flower-capture-check: cascade)"
            ),
        )
    }

    /// GO-KO — the settled board may not repeat a position the ko rule forbids
    /// ([`Position::ko_violation`]).
    fn refuse_ko(&self, board: &Board, p: Point) -> Result<(), Illegal> {
        if self.ko_violation(board) {
            return Err(self.ko_refusal(p));
        }
        Ok(())
    }

    /// The refusal of a stone at `p` that repeats an earlier position.
    pub(super) fn ko_refusal(&self, p: Point) -> Illegal {
        illegal(
            Refusal::Ko,
            text!(
                "move ",
                self.move_number,
                ": ",
                p,
                format!(" repeats an earlier position ({:?} ko)", self.rules.ko)
            ),
        )
    }

    /// The position after the stone at `p` and what the move did: the captured points, the
    /// private eyes made and lost, the attribute changes, the ataris (GO-ATARI), the steps.
    fn report_move(
        &self,
        before: &Analysis,
        turn: Turn,
        p: Point,
        settled: Settled,
        steps: Vec<Text>,
    ) -> (Position, Report, Option<Analysis>) {
        let n = self.move_number;
        let report = Report {
            number: n,
            notation: Notation::new(&self.rules, n, turn, Action::Place(p)),
            turn,
            action: Action::Place(p),
            captured: settled
                .captured
                .iter()
                .map(|&j| self.board.point(j))
                .collect(),
            eyes_made: eyes_made(before, &settled.analysis),
            eyes_lost: eyes_made(&settled.analysis, before)
                .into_iter()
                .filter(|s| {
                    // a string that lost its eyes and is still (at least partly) on the board
                    s.points.iter().any(|&q| settled.board.at(q).is_some())
                })
                .collect(),
            attribute_changes: attribute_changes(before, &settled.analysis),
            ataris: ataris(before, &settled.analysis, turn.player.opponent()),
            steps,
            game_over: false,
        };
        let next = self.successor(turn, Action::Place(p), settled.board);
        // the analysis read the strings frozen before the move; the new position's add those
        // the move froze, with the attribute this board gave them (M13-FREEZE): the same
        // analysis, now carrying the new list (`Position::analysis` of `next`)
        let mut analysis = settled.analysis;
        analysis.mark_frozen(&next.frozen);
        (next, report, Some(analysis))
    }

    /// Every legal move of the side to move (passes included), in board order, each one a
    /// [`Move`] that [`Position::play`] takes; on the position's engine: the fast engine (the
    /// incremental state the position keeps) or the clause-by-clause reference (each empty point
    /// played with [`Position::play_reported`]'s steps). The two lists are the same (fast equals
    /// reference). The moves that claim a turn other than the schedule's are
    /// [`Position::special_moves`].
    pub fn legal_moves(&self) -> Vec<Move> {
        let actions = match self.engine {
            Engine::Fast => self.with_fast(|f| f.legal_moves()),
            Engine::Reference => self.legal_moves_reference(),
        };
        actions
            .into_iter()
            .map(|action| Move {
                action,
                number: None,
                turn: None,
            })
            .collect()
    }

    /// [`Position::legal_moves`] by the clause-by-clause reference.
    fn legal_moves_reference(&self) -> Vec<Action> {
        if self.game_over() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let before = self.analysis();
        for i in 0..self.board.len() {
            if self.board.get(i).is_some() {
                continue;
            }
            let a = Action::Place(self.board.point(i));
            let m = Move {
                action: a,
                number: None,
                turn: None,
            };
            if self.play_from(&m, Some(&before)).is_ok() {
                out.push(a);
            }
        }
        out.push(Action::Pass);
        out
    }

    /// The legal moves that take a turn other than the schedule's, written with their claim
    /// (`Move::turn`): emergency conversions on a flower turn (D3-EMERGENCY, e.g. `黑19.一B`)
    /// and chosen flystones (S3-ROUND, e.g. `华16.三三`, and its pass). Empty when none applies.
    pub fn special_moves(&self) -> Vec<Move> {
        if self.game_over() {
            return Vec::new();
        }
        let n = self.move_number;
        let claims = crate::game::order::Turn::special_turns(
            &self.rules,
            self.flystone_state().is_some(),
            self.turn(),
            (n >= 2).then(|| self.turn_of(n - 1)),
        );
        let mut out = Vec::new();
        for t in claims {
            let mut actions: Vec<Action> = if t.kind == StoneKind::Own {
                // a conversion: only the liberties of the strings put in atari (P, Q)
                let mut libs: Vec<usize> = conversion_liberties(self)
                    .map(|v| v.into_iter().map(|(_, l)| l).collect())
                    .unwrap_or_default();
                libs.sort_unstable();
                libs.dedup();
                libs.into_iter()
                    .map(|i| Action::Place(self.board.point(i)))
                    .collect()
            } else {
                (0..self.board.len())
                    .filter(|&i| self.board.get(i).is_none())
                    .map(|i| Action::Place(self.board.point(i)))
                    .collect()
            };
            if t.kind == StoneKind::Flower {
                actions.push(Action::Pass);
            }
            for action in actions {
                let m = Move {
                    action,
                    number: Some(n),
                    turn: Some(t),
                };
                if self.play_from(&m, None).is_ok() {
                    out.push(m);
                }
            }
        }
        out
    }
}

/// D3-EMERGENCY / D3-EMERGENCY-P / D3-EMERGENCY-Q / D3-EMERGENCY-COLOUR / D3-EMERGENCY-WHY —
/// "当“前一手彼方所下棋子正在叫吃此方棋串”（此为必要条件P），此方将下棋子为花子时，此方可以选择使用“花子在紧急
/// 救命条件下变黑子或白子” … 并且“此黑子或白子只能下在刚才被叫吃棋串紧邻的惟一空点上”（此为必要条件Q）" (004).
/// Whether the player to move, on his flower turn, may place a stone of his own colour at `i`
/// (register D19): P — the previous move (n − 1) was the opponent's (stone or flower) and left
/// some upper string of the player with exactly one liberty that had two or more before it
/// (compared with the board before that move, `history`'s last; a pass puts nothing in atari);
/// Q — `i` is that single liberty. Returns the names of the strings saved. The stone is then an
/// ordinary stone (captures, suicide and ko apply; the flower's forbidden points do not).
/// D3-EMERGENCY-OPTIONAL: P and Q are both required (P in [`conversion_liberties`], Q here).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn emergency_conversion(pos: &Position, i: usize) -> Result<Vec<StringName>, Illegal> {
    let n = pos.move_number;
    let ataris = conversion_liberties(pos)?;
    let saved: Vec<StringName> = ataris
        .iter()
        .filter(|(_, l)| *l == i)
        .map(|&(s, _)| s)
        .collect();
    if !crate::game::cascade::conversion_q(ataris.iter().map(|(_, l)| *l), Some(i)) {
        let libs = ataris
            .iter()
            .map(|&(s, l)| text!(s, " (liberty ", pos.board.point(l), ")"));
        return Err(illegal(
            Refusal::ConversionQ,
            text!(
                "move ",
                n,
                ": ",
                pos.board.point(i),
                " is not the single liberty of a string put in atari by move ",
                n - 1,
                ": expected one of ",
                Text::join(libs, ", ")
            ),
        ));
    }
    Ok(saved)
}

/// D3-EMERGENCY-P — "前一手彼方所下棋子正在叫吃此方棋串" (004): the strings of the player to move that
/// the opponent's previous move put in atari (one liberty now, two or more before that move),
/// each with its single liberty ([`conversion_ataris`], written once for both boards); refused
/// with `conversion-p` when there is none.
pub(crate) fn conversion_liberties(pos: &Position) -> Result<Vec<(StringName, usize)>, Illegal> {
    let n = pos.move_number;
    let me = pos.turn().player;
    let previous = (n >= 2).then(|| pos.turn_of(n - 1).player);
    let prev = pos.history.last();
    let found = conversion_ataris(
        me,
        previous,
        pos.trailing_passes,
        prev.map(|b| *b == pos.board),
        || {
            (
                pos.analysis(),
                // the board before the previous move, recomputed (no freeze of its own is
                // known; D21: only Dullstone offers the conversion)
                Analysis::new(prev.unwrap_or(&pos.board), &pos.rules),
            )
        },
    );
    let why = match found {
        Ok(ataris) => {
            return Ok(ataris
                .into_iter()
                .map(|(points, l)| (pos.board.string_name(&points), l))
                .collect())
        }
        Err(NoAtari::NotOpponent) => {
            format!("the previous move was not {}'s", me.opponent().name())
        }
        Err(NoAtari::NoHistory) => {
            "the position does not record the board before the previous move (history)".into()
        }
        Err(NoAtari::Pass) => "the previous move was a pass".into(),
        Err(NoAtari::NoString) => format!("move {} put no {} string in atari", n - 1, me.name()),
    };
    Err(illegal(
        Refusal::ConversionP,
        format!("move {n}: no emergency conversion: {why}").into(),
    ))
}
