//! Perft: the number of legal move sequences of a given length from a position, which pins the
//! engine's move generation as numbers anyone can check (after shakmaty's `perft`).
//!
//! What counts as a move is exactly [`Position::legal_moves`]: every empty point where the side
//! to move may place its stone (its own colour, or a flower on moves 9 and 10 of the cycle), plus
//! the pass, which is always one move while the game goes on. A sequence that ends the game by
//! passes before the depth is reached has no continuation and adds nothing (like a mate in
//! chess); perft(0) is 1.
//!
//! Perft files (`tests/perft/*.perft`) hold entries, each starting with `id`; lines starting
//! with `#` are comments (a `#` inside a `row` is a flower stone):
//!
//! ```text
//! # how the numbers were checked
//! id m20-empty-5x5
//! rules m3go-2020
//! move 1
//! row . . . . .          (size rows, top first; or `position FILE.yaml`, relative to the file)
//! perft 1 26
//! perft 2 651
//! ```

#[cfg(any(test, feature = "testing"))]
use crate::input::read_text;
#[cfg(any(test, feature = "testing"))]
use m3go_engine::game::{from_yaml, parse_yaml};
#[cfg(any(test, feature = "testing"))]
use m3go_engine::rules::RulesField;
#[cfg(test)]
use m3go_engine::Board;
use m3go_engine::{Engine, Position};
#[cfg(any(test, feature = "testing"))]
use m3go_engine::{InputError, Place, Setup};

/// The number of legal move sequences of length `depth` (passes included; the special moves of
/// [`Position::special_moves`] — Dullstone's emergency conversions and Flystone's chosen
/// flystones — count as moves too), on the position's engine ([`Position::engine`]).
/// ([`Position::perft`]: the fast engine walks the tree in place; the reference goes level by
/// level with [`Position::legal_moves`] and [`Position::play`]). The two agree.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    pos.perft(depth)
}

/// Each legal move, in notation, with the position it leads to: the moves of
/// [`Position::legal_moves`] in board order, the pass, then the special moves, each played with
/// [`Position::play`] (on the position's engine).
pub(crate) fn children(pos: &Position) -> Vec<(String, Position)> {
    if pos.game_over() {
        return Vec::new();
    }
    let turn = pos.turn();
    let n = pos.move_number();
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        if let Ok(next) = pos.play(m) {
            out.push((
                m3go_engine::Notation::format_numbered(pos.rules(), n, turn, m.action),
                next,
            ));
        }
    }
    for m in pos.special_moves() {
        if let Ok(next) = pos.play(m) {
            let t = m.turn.unwrap_or(turn);
            out.push((
                m3go_engine::Notation::format_numbered(pos.rules(), n, t, m.action),
                next,
            ));
        }
    }
    out
}

/// A bound on the work of a perft: the nodes (positions made and sequences counted) it may
/// visit. [`perft_within`] and [`divide_within`] stop when it runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeBudget {
    pub max: u64,
    pub used: u64,
}

impl NodeBudget {
    pub fn new(max: u64) -> NodeBudget {
        NodeBudget { max, used: 0 }
    }

    /// No bound.
    pub fn unlimited() -> NodeBudget {
        NodeBudget::new(u64::MAX)
    }

    /// Spends `n` nodes; `Err` once the budget is exceeded.
    fn spend(&mut self, n: u64) -> Result<(), NodeBudget> {
        self.used = self.used.saturating_add(n);
        if self.used > self.max {
            Err(*self)
        } else {
            Ok(())
        }
    }
}

/// The depth up to which [`perft_within`] counts a subtree in one call of [`perft`] and
/// spends its count afterwards: a subtree of depth 2 has at most 362² leaves, so a budget is
/// overrun by at most that many nodes.
const BUDGET_LEAF_DEPTH: u32 = 2;

/// [`perft`] within `budget`: `Err` with the budget when the count would visit more nodes.
/// Subtrees of depth up to 2 are counted whole by the engine; deeper levels go move by move,
/// spending a node per position made.
pub(crate) fn perft_within(
    pos: &Position,
    depth: u32,
    budget: &mut NodeBudget,
) -> Result<u64, NodeBudget> {
    // the reference lists a 19x19 position's legal moves in about a second: its subtrees are
    // counted whole only to depth 1, so that the budget is checked every legal list
    let leaf_depth = match pos.engine() {
        Engine::Reference => 1,
        Engine::Fast => BUDGET_LEAF_DEPTH,
    };
    if depth <= leaf_depth {
        let n = perft(pos, depth);
        budget.spend(n)?;
        return Ok(n);
    }
    let kids = children(pos);
    budget.spend(kids.len() as u64)?;
    let mut total = 0u64;
    for (_, p) in &kids {
        total += perft_within(p, depth - 1, budget)?;
    }
    Ok(total)
}

/// Perft split by the first move within `budget`: (move in notation, count), calling
/// `progress(done, of, nodes)` after each first move is counted (a progress bar), on the position's
/// engine.
pub(crate) fn divide_within(
    pos: &Position,
    depth: u32,
    budget: &mut NodeBudget,
    progress: &dyn Fn(usize, usize, u64),
) -> Result<Vec<(String, u64)>, NodeBudget> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let kids = children(pos);
    budget.spend(kids.len() as u64)?;
    let of = kids.len();
    let mut out = Vec::with_capacity(of);
    for (k, (label, p)) in kids.into_iter().enumerate() {
        let n = perft_within(&p, depth - 1, budget)?;
        progress(k + 1, of, budget.used);
        out.push((label, n));
    }
    Ok(out)
}

/// Perft split by the first move: (move in notation, count), unbounded.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    divide_within(pos, depth, &mut NodeBudget::unlimited(), &|_, _, _| {}).unwrap_or_default()
}

/// One entry of a perft file.
#[derive(Clone, Debug)]
#[cfg(any(test, feature = "testing"))]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct PerftCase {
    pub id: String,
    /// Line of the `id` in the file.
    pub line: usize,
    pub setup: Setup,
    /// (depth, expected count)
    pub checks: Vec<(u32, u64)>,
}

/// Reads a perft file. `dir` resolves `position` paths.
#[cfg(any(test, feature = "testing"))]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn parse_perft_file(
    text: &str,
    place: &str,
    dir: &str,
) -> Result<Vec<PerftCase>, InputError> {
    let mut out: Vec<PerftCase> = Vec::new();
    let mut cur: Option<(PerftCase, Vec<String>, bool)> = None;
    let finish = |c: Option<(PerftCase, Vec<String>, bool)>,
                  out: &mut Vec<PerftCase>|
     -> Result<(), InputError> {
        if let Some((mut case, rows, has_pos)) = c {
            if !rows.is_empty() {
                if has_pos {
                    return Err(InputError::new("both `row` lines and `position`")
                        .file(place)
                        .at(format!("entry `{}`", case.id))
                        .expected("one"));
                }
                case.setup.diagram = rows.join("\n") + "\n";
                case.setup.size = Some(rows.len());
            }
            if case.setup.diagram.is_empty() {
                return Err(InputError::new("no position")
                    .file(place)
                    .at(format!("entry `{}`", case.id))
                    .expected("`row` lines or `position FILE`"));
            }
            if case.checks.is_empty() {
                return Err(InputError::new("no `perft DEPTH COUNT` line")
                    .file(place)
                    .at(format!("entry `{}`", case.id)));
            }
            out.push(case);
        }
        Ok(())
    };
    for (ln, raw) in text.lines().enumerate() {
        let ln = ln + 1;
        // a comment is a whole line starting with `#` (a `#` inside a row is a flower)
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let bad = |what: &str| InputError::new(what).file(place).line(ln).text(line);
        if key == "id" {
            finish(cur.take(), &mut out)?;
            cur = Some((
                PerftCase {
                    id: rest.to_string(),
                    line: ln,
                    setup: Setup::default(),
                    checks: Vec::new(),
                },
                Vec::new(),
                false,
            ));
            continue;
        }
        let Some((case, rows, has_pos)) = cur.as_mut() else {
            return Err(bad("expected `id NAME` to start an entry"));
        };
        match key {
            "rules" => {
                case.setup.rules = parse_yaml::<RulesField>(rest)
                    .map_err(|e| e.within(Place::default().file(place).line(ln)))?
            }
            "move" => {
                case.setup.move_number =
                    Some(rest.parse().map_err(|_| bad("expected a move number"))?)
            }
            "trailing-passes" => {
                case.setup.trailing_passes = rest.parse().map_err(|_| bad("expected a number"))?
            }
            "row" => rows.push(rest.to_string()),
            "position" => {
                let path = std::path::Path::new(dir).join(rest);
                let path = path.to_string_lossy().into_owned();
                let s: Setup = from_yaml(&read_text(&path)?, &path)?;
                let rules = std::mem::take(&mut case.setup.rules);
                let keep_rules = rules != RulesField::default();
                case.setup = s;
                if keep_rules {
                    case.setup.rules = rules;
                }
                *has_pos = true;
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let (Some(d), Some(c), None) = (it.next(), it.next(), it.next()) else {
                    return Err(bad("expected `perft DEPTH COUNT`"));
                };
                let d: u32 = d.parse().map_err(|_| bad("DEPTH is not a number"))?;
                let c: u64 = c.parse().map_err(|_| bad("COUNT is not a number"))?;
                case.checks.push((d, c));
            }
            _ => {
                return Err(bad(
                    "unknown key: expected id, rules, move, trailing-passes, row, position, perft",
                ))
            }
        }
    }
    finish(cur.take(), &mut out)?;
    Ok(out)
}

#[cfg(any(test, feature = "testing"))]
impl PerftCase {
    /// The position of the entry.
    pub fn position(&self, place: &str) -> Result<Position, InputError> {
        Ok(self.setup.to_position(&format!(
            "{place}: entry `{}` (line {})",
            self.id, self.line
        ))?)
    }
}

/// An empty board of `size` as a diagram (for building perft entries).
#[cfg(test)]
fn empty_diagram(size: usize) -> String {
    Board::empty(size)
        .map(|b| b.to_diagram())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_pass_perft_counts_the_pass_as_one_move() {
        let setup = Setup {
            diagram: empty_diagram(3),
            ..Setup::default()
        };
        let pos = setup.to_position("t").unwrap();
        // 9 points + pass
        assert_eq!(perft(&pos, 1), 10);
        // after a stone: 8 points + pass (9 ways); after the pass: 9 points + pass
        assert_eq!(perft(&pos, 2), 9 * 9 + 10);
        let d = divide(&pos, 2);
        assert_eq!(d.len(), 10);
        assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), perft(&pos, 2));
    }
}
