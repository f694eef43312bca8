//! `explain`: the clause trace for a point (capture point? one-liberty eye? tiger's mouth? each
//! flower's verdict), a string (its closed regions and their verdicts; a flower string's
//! neighbours and counts) or a move (legal with its cascade, or the clause that refuses it).

use crate::board::coord::{StringName, Target};
use crate::board::grid::{Colour, Stone};
use crate::formats::report::verdict_text;
use crate::game::moves::Move;
use crate::game::notation::{is_pass_word, is_round_notation, turn_of_symbol, Notation, Prefix};
use crate::game::play::{Illegal, Position, Report};
use crate::game::setup::InputError;
use crate::game::text::{text, Text};
use crate::judge::analysis::Analysis;
use crate::judge::eyes::{Region, RegionVerdict};
use crate::judge::forbidden::{
    flower_forbidden_reason, is_capture_point, is_one_liberty_eye, is_tigers_mouth,
};
use crate::rules::{ClosedRegion2016, EyeRule};
use serde::Serialize;

/// A clause trace: its steps in order, one line of the text each (a refused move's step has
/// two). The text form ([`Trace::format`]) is the steps' lines, each ended by a newline.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Trace {
    pub steps: Vec<TraceStep>,
}

/// One step of a clause trace: what it is about, the verdict, the clause that decides it (when
/// the step names one) and its line of text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "Step")]
pub struct TraceStep {
    /// The clause id of rules.md that decides the step (`M20-FORBID-TIGER`), when it names one.
    pub clause: Option<String>,
    /// What the step is about, when it is about one thing.
    pub subject: Option<Subject>,
    /// The player whose flower the step judges (an empty point's two flower verdicts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<crate::board::grid::Colour>,
    /// The verdict, a kebab-case code (`yes`, `no`, `private-eye`, `legal`, a refusal code,
    /// `forbidden`, `playable`, an attribute), when the step gives one.
    pub verdict: Option<String>,
    /// The line of the text trace (points in the Chinese labels; no final newline).
    pub text: Text,
}

/// What a step is about: its kind and its name (points in the Chinese labels).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Subject {
    pub kind: SubjectKind,
    /// The point (`六四`), the string's name (`七九*`), the region's points, the move.
    pub name: Text,
}

/// The kinds of a step's subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SubjectKind {
    /// An empty point.
    Point,
    /// A black or white string of the lower layer.
    String,
    /// A flower string.
    FlowerString,
    /// A string of the upper layer.
    UpperString,
    /// A closed region (its points).
    Region,
    /// A move.
    Move,
}

impl Trace {
    /// The format tag of `explain --format json`.
    pub const FORMAT: &str = "m3go-explain/1";

    fn new() -> Trace {
        Trace::default()
    }

    /// Adds a step from its line (a final newline is dropped).
    fn line(&mut self, line: impl Into<Text>) -> &mut TraceStep {
        let mut text = line.into();
        text.trim_final_newline();
        let clause = first_clause_id(&text.to_string());
        self.steps.push(TraceStep {
            clause,
            subject: None,
            player: None,
            verdict: None,
            text,
        });
        let last = self.steps.len() - 1;
        &mut self.steps[last]
    }

    fn extend(&mut self, other: Trace) {
        self.steps.extend(other.steps);
    }

    /// The text trace in `labels`: each step's line and a newline.
    pub fn format(&self, labels: crate::board::coord::Labels) -> String {
        let mut o = String::new();
        for s in &self.steps {
            o.push_str(&s.text.format(labels));
            o.push('\n');
        }
        o
    }

    /// The text trace with its points typed.
    pub fn text(&self) -> Text {
        let mut o = Text::new();
        for s in &self.steps {
            o.push(s.text.clone());
            o.push("\n");
        }
        o
    }
}

impl std::fmt::Display for Trace {
    /// The text trace, in the Chinese labels.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format(crate::board::coord::Labels::Chinese))
    }
}

impl TraceStep {
    fn about(&mut self, kind: SubjectKind, name: impl Into<Text>) -> &mut TraceStep {
        self.subject = Some(Subject {
            kind,
            name: name.into(),
        });
        self
    }

    fn verdict(&mut self, v: impl Into<String>) -> &mut TraceStep {
        self.verdict = Some(v.into());
        self
    }

    fn clause(&mut self, c: impl Into<String>) -> &mut TraceStep {
        self.clause = Some(c.into());
        self
    }
}

/// The first clause id a line names (`M20-ATTR-COUNT`, `GO-CAPTURE`): a word of capitals,
/// digits and hyphens, with a hyphen, opening with a capital.
fn first_clause_id(line: &str) -> Option<String> {
    line.split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-'))
        .map(|w| w.trim_matches('-'))
        .find(|w| {
            w.starts_with(|c: char| c.is_ascii_uppercase())
                && w.contains('-')
                && w.split('-').all(|part| !part.is_empty())
                && w.split('-').next().is_some_and(|head| head.len() >= 2)
        })
        .map(str::to_string)
}

impl Trace {
    /// The clause trace for a point, a string or a move: a target that starts with a turn symbol
    /// (or `pass`) is a move; otherwise a point, explained by what stands on it. Its points are
    /// typed: [`Text::format`] writes them in either label system.
    pub fn explain(p: &Position, target: &str) -> Result<Trace, InputError> {
        let size = p.board().size();
        if Trace::is_move_target(target) {
            return explain_move(p, target);
        }
        let t = Target::parse(target, size)
            .map_err(|e| InputError::from(e).key(format!("target `{target}`")))?;
        let a = p.analysis();
        let i = p.board().index(t.point);
        Ok(match p.board().at(t.point) {
            Some(Stone::Flower) => explain_flower_string(p, &a, i),
            Some(_) => explain_string(p, &a, i),
            None => explain_point(p, &a, i),
        })
    }

    /// Whether `explain` reads `target` as a move: it starts with a turn symbol, is a pass (`pass`,
    /// `虚着`), or is written in 000's round notation (`31D.DC`), as `play` and the protocol read
    /// moves.
    pub fn is_move_target(target: &str) -> bool {
        let first = target.chars().next().unwrap_or(' ');
        turn_of_symbol(first).is_some() || is_pass_word(target) || is_round_notation(target)
    }

    /// The target as its writer gave it (`target`, user input), its point or move typed when it is
    /// written as m3go writes it (so that it is shown in either label system); otherwise the words
    /// as given.
    pub fn target_text(p: &Position, target: &str) -> Text {
        let size = p.board().size();
        let typed = if Trace::is_move_target(target) {
            Move::parse_in(target, p.rules(), size)
                .map(|m| move_texts(p, &m))
                .unwrap_or_default()
        } else {
            Target::parse(target, size)
                .map(|t| {
                    vec![if t.whole_string {
                        text!(StringName(t.point))
                    } else {
                        text!(t.point)
                    }]
                })
                .unwrap_or_default()
        };
        typed
            .into_iter()
            .find(|t| t.to_string() == target)
            .unwrap_or_else(|| Text::from(target))
    }
}

/// The ways m3go writes a move: its notation by the rules' records and by move number when it
/// claims its number and turn, its point (or `pass`) when it claims neither.
fn move_texts(p: &Position, m: &Move) -> Vec<Text> {
    match (m.number, m.turn) {
        (Some(n), Some(t)) => vec![
            text!(Notation::new(p.rules(), n, t, m.action)),
            text!(Notation {
                prefix: Prefix::Numbered(t, n),
                action: m.action,
            }),
        ],
        (None, None) => vec![text!(m.action)],
        _ => Vec::new(),
    }
}

/// A move: legal, with its cascade, or the clause that refuses it.
fn explain_move(p: &Position, target: &str) -> Result<Trace, InputError> {
    let size = p.board().size();
    let mv = Move::parse_in(target, p.rules(), size)?;
    Ok(match p.play_reported(&mv) {
        Ok((_, r)) => explain_legal_move(&r),
        Err(e) => explain_refused_move(Trace::target_text(p, target), &e),
    })
}

/// A legal move: its turn, each step of its cascade, each flower attribute it changed.
fn explain_legal_move(r: &Report) -> Trace {
    let mut o = Trace::new();
    o.line(text!(r.notation, " is legal (", r.turn.describe(), ")."))
        .about(SubjectKind::Move, text!(r.notation))
        .verdict("legal");
    for s in &r.steps {
        o.line(text!("  ", s));
    }
    for c in &r.attribute_changes {
        o.line(text!(
            "  flower ",
            c.string,
            ": ",
            c.from.name(),
            " -> ",
            c.to.name(),
            " (M20-ATTR)"
        ))
        .about(SubjectKind::FlowerString, text!(c.string))
        .verdict(c.to.name());
    }
    o
}

/// A refused move: the reason, the clause and the message.
fn explain_refused_move(target: Text, e: &Illegal) -> Trace {
    let mut o = Trace::new();
    o.line(text!(
        target.clone(),
        format!(" is refused: {} — clause {}\n  ", e.reason, e.clause),
        &e.message
    ))
    .about(SubjectKind::Move, target)
    .verdict(e.reason.code())
    .clause(e.clause);
    o
}

/// A flower string (the flower at point `i`): its adjacent strings of the lower layer, whether
/// each has a private eye, and the counts that decide its attribute.
fn explain_flower_string(p: &Position, a: &Analysis, i: usize) -> Trace {
    let f = &a.flowers[a.flower_of[i].unwrap_or(0)];
    let name = p.board().string_name(&f.points);
    let mut o = Trace::new();
    o.line(text!(
        "flower string ",
        name,
        " (",
        f.points.len(),
        " stones)"
    ))
    .about(SubjectKind::FlowerString, text!(name));
    o.line("  adjacent strings (lower layer, each counted once — M20-ATTR-COUNT):");
    for &g in &f.adjacent {
        adjacent_string_line(&mut o, p, a, g);
    }
    o.line(format!(
        "  Hs={} Hw={} Bs={} Bw={} → {} ({})",
        f.counts.hs,
        f.counts.hw,
        f.counts.bs,
        f.counts.bw,
        f.attribute.name(),
        f.clause
    ))
    .about(SubjectKind::FlowerString, text!(name))
    .verdict(f.attribute.name())
    .clause(f.clause);
    o
}

/// One string adjacent to a flower string (lower string `g`): its colour, name and whether it
/// has a private eye.
fn adjacent_string_line(o: &mut Trace, p: &Position, a: &Analysis, g: usize) {
    let s = &a.lower_strings.groups[g];
    let name = p.board().string_name(&s.points);
    let eye = a.has_private_eye(g);
    o.line(text!(
        "    ",
        s.colour.map(|c| c.name()).unwrap_or("?"),
        " ",
        name,
        ": ",
        if eye {
            "has a private eye"
        } else {
            "no private eye"
        }
    ))
    .about(SubjectKind::String, text!(name))
    .verdict(if eye { "private-eye" } else { "no-private-eye" })
    .clause("M20-ATTR-COUNT");
}

/// A black or white string (the stone at point `i`): its closed regions with their verdicts,
/// then its upper string.
fn explain_string(p: &Position, a: &Analysis, i: usize) -> Trace {
    let g = a.lower_strings.of[i].unwrap_or(0);
    let s = &a.lower_strings.groups[g];
    let name = p.board().string_name(&s.points);
    let mut o = Trace::new();
    o.line(text!(
        s.colour.map(|c| c.name()).unwrap_or("?"),
        " string ",
        name,
        format!(
            " ({} stones, {} lower liberties)",
            s.points.len(),
            s.liberties.len()
        )
    ))
    .about(SubjectKind::String, text!(name));
    let m2016 = p.rules().private_eye == EyeRule::M2016;
    o.line(if !m2016 {
        "  closed regions (M20-EYE-REGION, lower layer: flowers as off-board):"
    } else if p.rules().closed_region_2016 == ClosedRegion2016::Inside {
        "  closed regions (M16-REGION, the inside of the string's ring band: walls the string and the edge, grey stones inside):"
    } else {
        "  closed regions (M16-REGION, every part the string cuts off, the rest of the board included: walls the string and the edge, grey stones inside):"
    })
    .about(SubjectKind::String, text!(name));
    if a.regions[g].is_empty() && m2016 {
        o.line("    none: the string cuts nothing off the board (M16-REGION)")
            .about(SubjectKind::String, text!(name))
            .verdict("no-closed-region");
    }
    for (r, v) in &a.regions[g] {
        o.extend(closed_region_lines(p, r, v));
    }
    if let Some(u) = a.upper_strings.at(i) {
        let upper = p.board().string_name(&u.points);
        o.line(text!(
            "  upper string ",
            upper,
            format!(
                ": {} stones, {} liberties ({})",
                u.points.len(),
                u.liberties.len(),
                if m2016 {
                    "M16-GREY-CONVERT"
                } else {
                    "M20-UPPER"
                }
            )
        ))
        .about(SubjectKind::UpperString, text!(upper));
    }
    if p.rules().private_eye == crate::rules::EyeRule::M2016 {
        o.extend(concepts_2016_lines(p, a, g, i));
    }
    o
}

/// Under the 2016 rules, a string's 000 concepts: the conditions a–d of each of its closed
/// regions, then, for its upper string, its eyes (true or false), its chain and sub-chain, its
/// group, and whether it is long-living, in seki or dead.
fn concepts_2016_lines(p: &Position, a: &Analysis, g: usize, i: usize) -> Trace {
    use crate::judge::concepts2016::{concepts_2016, regions_with_conditions, EyeKind};
    let c = concepts_2016(a, p.rules());
    let b = p.board();
    let yn = |v: bool| if v { "yes" } else { "no" };
    let names = |v: &[usize]| Text::join(v.iter().map(|&q| b.point(q)), " ");
    let strings = |v: &[usize]| {
        Text::join(
            v.iter()
                .map(|&u| b.string_name(&a.upper_strings.groups[u].points)),
            " ",
        )
    };
    let mut o = Trace::new();
    o.line(
        "  2016 conditions of each closed region (000's private eye, a–d, each judged on its own):",
    );
    for (r, k) in regions_with_conditions(a, &c, g) {
        o.line(format!(
            "    {} point(s), {} empty: a (inner liberty, M16-EYE-A) {}, b (M16-EYE-B) {}, capture (M16-EYE-CAPTURE) {}, c (M16-EYE-C) {}, d (M16-EYE-D) {}",
            r.points.len(),
            r.empty.len(),
            yn(k.a),
            yn(k.b),
            k.capture.map_or("not judged", yn),
            yn(k.c),
            yn(k.d)
        ))
        .about(SubjectKind::Region, names(&r.points));
    }
    let Some(u) = a.upper_strings.of[i] else {
        return o;
    };
    let upper = b.string_name(&a.upper_strings.groups[u].points);
    o.line(text!(
        "  2016 concepts of upper string ",
        upper,
        format!(": {} true eye(s)", c.true_eyes[u])
    ))
    .about(SubjectKind::UpperString, text!(upper));
    for e in c.eyes.iter().filter(|e| e.owners.contains(&u)) {
        let kind = match e.kind {
            EyeKind::Private => "private eye (私眼)",
            EyeKind::Common => "common eye (公眼)",
        };
        let truth = if e.true_eye {
            "true (真眼)"
        } else {
            "false (假眼)"
        };
        let at = if e.empty.len() > 8 {
            Text::from(format!("{} empty points", e.empty.len()))
        } else {
            names(&e.empty)
        };
        o.line(text!(
            "    ",
            kind,
            ", ",
            truth,
            ": ",
            at,
            " — of ",
            strings(&e.owners),
            " (",
            e.clause,
            ")"
        ))
        .about(SubjectKind::UpperString, text!(upper))
        .verdict(if e.true_eye { "true-eye" } else { "false-eye" })
        .clause(e.clause);
    }
    for ch in c.chains.iter().filter(|ch| ch.strings.contains(&u)) {
        o.line(text!("    chain (棋链, M16-CHAIN): ", strings(&ch.strings)))
            .about(SubjectKind::UpperString, text!(upper));
        if ch.sub_chain.is_empty() {
            o.line("    no sub-chain has two true eyes in each string: the chain is dying (将死状态, M16-LIFE-4-SPLIT)")
                .verdict("dying");
        } else {
            o.line(text!(
                "    long-living sub-chain (子棋链, M16-SUBCHAIN): ",
                strings(&ch.sub_chain),
                if ch.split_off.is_empty() {
                    Text::from(" — the whole chain (M16-LIFE-4)")
                } else {
                    text!(
                        "; split off and captured (M16-LIFE-4-SPLIT): ",
                        strings(&ch.split_off)
                    )
                }
            ));
        }
        o.steps
            .last_mut()
            .map(|s| s.about(SubjectKind::UpperString, text!(upper)));
    }
    if let Some(gr) = c.groups.iter().find(|gr| gr.contains(&u)) {
        o.line(text!("    group (棋群, M16-GROUP): ", strings(gr)))
            .about(SubjectKind::UpperString, text!(upper));
    }
    let state = if c.dead[u] {
        "dead"
    } else if c.dying[u] {
        "dying"
    } else if c.seki[u] {
        "seki"
    } else if c.long_living[u] {
        "long-living"
    } else {
        "none"
    };
    o.line(format!(
        "    long-living (长活, M16-LIFE-3): {}; seki (双活, M16-LIFE-5): {}; dying by its chain (会被提吃, M16-LIFE-4-SPLIT): {}; dead by the local reading (死棋状态, M16-EX-UL-3): {}",
        yn(c.long_living[u]),
        yn(c.seki[u]),
        yn(c.dying[u]),
        yn(c.dead[u])
    ))
    .about(SubjectKind::UpperString, text!(upper))
    .verdict(state);
    o
}

/// One closed region of a string: its size, its verdict with the clause, and for a private eye
/// its points.
fn closed_region_lines(p: &Position, r: &Region, v: &RegionVerdict) -> Trace {
    let eye = v.point().map(|q| p.board().point(q));
    let names = |v: &[usize]| Text::join(v.iter().map(|&q| p.board().point(q)), " ");
    let clause = v.clause_under(p.rules().private_eye);
    let mut o = Trace::new();
    o.line(text!(
        format!("    {} point(s), {} empty: ", r.points.len(), r.empty.len()),
        verdict_text(v.code(), eye),
        " (",
        clause,
        ")"
    ))
    .about(SubjectKind::Region, names(&r.points))
    .verdict(v.code().code())
    .clause(clause);
    if *v == RegionVerdict::PrivateEye {
        // M20-EYE-FIG6: the private eye is the closed region, stones inside included
        o.line(text!(
            "      private eye: region ",
            names(&r.points),
            "; empty points ",
            names(&r.empty)
        ))
        .about(SubjectKind::Region, names(&r.points))
        .verdict(v.code().code())
        .clause(clause);
        if 2 * r.points.len() > p.board().len() {
            o.line(match p.rules().private_eye {
                EyeRule::M2020 => OUTER_AREA_EYE,
                EyeRule::M2016 => OUTER_AREA_EYE_2016,
            })
            .about(SubjectKind::Region, names(&r.points));
        }
    }
    o
}

/// What a referee is told when a private eye is the rest of the board (more than half of it):
/// a lone stone on an empty board already has one (register D2, docs/src/rule-sets.md).
const OUTER_AREA_EYE: &str = "      note: this private eye is the rest of the board around the string. A closed region may be \
the vast outer area (003's region T: 「也即白棋串六九*左边和下边广大区域」), and one that holds no opponent \
string is a private eye, so a single stone on an empty board already has one. The first opponent \
stone in it that could make an eye there ends it (condition 2 and its fill simulation, register D2).\n";

/// The same note under the 2016 private eye, which reaches the rest of the board only under
/// `closed-region-2016: whole-board` (register D26).
const OUTER_AREA_EYE_2016: &str = "      note: this private eye is the rest of the board around the string. 000 九.1 makes \
only the inside of a ring band a closed region (「则此内部区域即为封闭区域」); the rule set reads every part the \
string cuts off as one (closed-region-2016: whole-board, register D26). A part that holds no other \
string of the colour and only opponent strings the string could capture by filling, with one \
outside liberty, is a private eye (M16-EYE-CAPTURE), unless an opponent string inside has an eye of \
its own or claims one around this string (M16-EYE-C).\n";

/// An empty point (point `i`): the three flower forbidden-point tests, then each player's
/// flower verdict.
fn explain_point(p: &Position, a: &Analysis, i: usize) -> Trace {
    let point = p.board().point(i);
    let mut o = Trace::new();
    o.line(text!("empty point ", point))
        .about(SubjectKind::Point, text!(point));
    let capture = is_capture_point(a, i);
    o.line(format!(
        "  capture point (M20-FORBID-CAPTURE): {}",
        yes(capture)
    ))
    .about(SubjectKind::Point, text!(point))
    .verdict(yes(capture));
    let eye = is_one_liberty_eye(a, i);
    o.line(format!(
        "  one-liberty eye (M20-FORBID-EYE): {}",
        eye.map(|c| format!("yes, of {}", c.name()))
            .unwrap_or("no".into())
    ))
    .about(SubjectKind::Point, text!(point))
    .verdict(yes(eye.is_some()));
    let tiger = is_tigers_mouth(a, p.rules(), i);
    o.line(format!(
        "  tiger's mouth (M20-FORBID-TIGER): {}",
        tiger
            .map(|c| format!("yes, of {}", c.name()))
            .unwrap_or("no".into())
    ))
    .about(SubjectKind::Point, text!(point))
    .verdict(yes(tiger.is_some()));
    for c in [Colour::Black, Colour::White] {
        let v = flower_forbidden_reason(a, p.rules(), i, c);
        let step = o
            .line(format!(
                "  {}'s flower: {}",
                c.name(),
                v.map(|f| format!("forbidden ({}, {})", f.code(), f.clause()))
                    .unwrap_or("playable".into())
            ))
            .about(SubjectKind::Point, text!(point))
            .verdict(if v.is_some() { "forbidden" } else { "playable" });
        step.player = Some(c);
        if v.is_none() {
            step.clause = None;
        }
    }
    o
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::grid::Board;
    use crate::rules::Rules;

    fn lone_stone(at: &str) -> Position {
        let mut b = Board::empty(9).expect("9x9");
        let p = crate::board::coord::Point::parse(at, 9).expect("point");
        let i = b.index(p);
        b.set(i, Some(Stone::Black));
        crate::testing::position(b, Rules::m3go_2020(), 2)
    }

    #[test]
    fn explain_of_a_lone_stone_says_its_private_eye_is_the_rest_of_the_board() {
        let t = Trace::explain(&lone_stone("OO"), "OO")
            .expect("explained")
            .to_string();
        assert!(t.contains("80 point(s), 80 empty: private eye"), "{t}");
        assert!(t.contains(OUTER_AREA_EYE.trim_end()), "{t}");
        assert!(
            t.contains("a single stone on an empty board already has one"),
            "{t}"
        );
    }

    #[test]
    fn explain_notes_only_the_private_eye_that_is_the_rest_of_the_board() {
        // black DC CC CD around the corner DD: two private eyes, DD (no note) and the other 77
        // points (the note, once)
        let mut b = Board::empty(9).expect("9x9");
        for at in ["DC", "CC", "CD"] {
            let i = b.index(crate::board::coord::Point::parse(at, 9).expect("point"));
            b.set(i, Some(Stone::Black));
        }
        let pos = crate::testing::position(b, Rules::m3go_2020(), 4);
        let t = Trace::explain(&pos, "DC").expect("explained").to_string();
        assert!(t.contains("1 point(s), 1 empty: private eye"), "{t}");
        assert!(t.contains("77 point(s), 77 empty: private eye"), "{t}");
        assert_eq!(t.matches("note: this private eye").count(), 1, "{t}");
    }

    fn lone_stone_under(at: &str, rules: Rules) -> Position {
        let mut b = Board::empty(9).expect("9x9");
        let i = b.index(crate::board::coord::Point::parse(at, 9).expect("point"));
        b.set(i, Some(Stone::Black));
        crate::testing::position(b, rules, 2)
    }

    #[test]
    fn explain_2016_cites_only_2016_clauses_for_a_string() {
        // inside (the default): a lone stone has no closed region
        let rules = Rules::preset("m3go-2016").expect("preset");
        let t = Trace::explain(&lone_stone_under("OO", rules.clone()), "OO")
            .expect("explained")
            .to_string();
        assert!(t.contains("M16-REGION"), "{t}");
        assert!(t.contains("none: the string cuts nothing off"), "{t}");
        assert!(!t.contains("M20-"), "{t}");
        // whole-board: the rest of the board is its private eye, and the note sends the reader
        // to 2016's capture condition, not to 2020's fill simulation (D2)
        let whole = Rules {
            closed_region_2016: ClosedRegion2016::WholeBoard,
            ..rules
        };
        let t = Trace::explain(&lone_stone_under("OO", whole), "OO")
            .expect("explained")
            .to_string();
        assert!(
            t.contains("80 point(s), 80 empty: private eye (M16-EYE)"),
            "{t}"
        );
        assert!(t.contains(OUTER_AREA_EYE_2016.trim_end()), "{t}");
        assert!(t.contains("M16-EYE-CAPTURE"), "{t}");
        assert!(!t.contains("M20-"), "{t}");
        assert!(
            !t.contains("register D2)") && !t.contains("fill simulation"),
            "{t}"
        );
    }
}
