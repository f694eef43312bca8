//! `explain`: the clause trace for a point (capture point? one-liberty eye? tiger's mouth? each
//! flower's verdict), a string (its closed regions and their verdicts; a flower string's
//! neighbours and counts) or a move (legal with its cascade, or the clause that refuses it).

use crate::board::coord::{StringName, Target};
use crate::board::grid::{Colour, Stone};
use crate::formats::report::verdict_text;
use crate::game::moves::Move;
use crate::game::notation::{
    is_pass_word, is_round_notation, parse_move_in, turn_of_symbol, Notation, Prefix,
};
use crate::game::play::{string_name, Illegal, Position, Report};
use crate::game::setup::InputError;
use crate::game::text::{text, Text};
use crate::judge::analysis::Analysis;
use crate::judge::eyes::{Region, RegionVerdict};
use crate::judge::forbidden::{
    flower_forbidden_reason, is_capture_point, is_one_liberty_eye, is_tigers_mouth,
};
use crate::rules::{ClosedRegion2016, EyeRule};

/// The clause trace for a point, a string or a move: a target that starts with a turn symbol
/// (or `pass`) is a move; otherwise a point, explained by what stands on it. Its points are
/// typed: [`Text::format`] writes them in either label system.
pub fn explain_target(p: &Position, target: &str) -> Result<Text, InputError> {
    let size = p.board().size();
    if is_move_target(target) {
        return explain_move(p, target);
    }
    let t = Target::parse(target, size)
        .map_err(|e| InputError::new(e.to_string()).key(format!("target `{target}`")))?;
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
    let typed = if is_move_target(target) {
        parse_move_in(target, p.rules(), size)
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
fn explain_move(p: &Position, target: &str) -> Result<Text, InputError> {
    let size = p.board().size();
    let mv = parse_move_in(target, p.rules(), size).map_err(|e| InputError::new(e.to_string()))?;
    Ok(match p.play(&mv) {
        Ok((_, r)) => explain_legal_move(&r),
        Err(e) => explain_refused_move(target_text(p, target), &e),
    })
}

/// A legal move: its turn, each step of its cascade, each flower attribute it changed.
fn explain_legal_move(r: &Report) -> Text {
    let mut o = text!(r.notation, " is legal (", r.turn.describe(), ").\n");
    for s in &r.steps {
        o.push(text!("  ", s, "\n"));
    }
    for c in &r.attribute_changes {
        o.push(text!(
            "  flower ",
            c.string,
            ": ",
            c.from.name(),
            " -> ",
            c.to.name(),
            " (M20-ATTR)\n"
        ));
    }
    o
}

/// A refused move: the reason, the clause and the message.
fn explain_refused_move(target: Text, e: &Illegal) -> Text {
    text!(
        target,
        format!(" is refused: {} — clause {}\n  ", e.reason, e.clause),
        &e.message,
        "\n"
    )
}

/// A flower string (the flower at point `i`): its adjacent strings of the lower layer, whether
/// each has a private eye, and the counts that decide its attribute.
fn explain_flower_string(p: &Position, a: &Analysis, i: usize) -> Text {
    let f = &a.flowers[a.flower_of[i].unwrap_or(0)];
    let mut o = text!(
        "flower string ",
        string_name(p.board(), &f.points),
        " (",
        f.points.len(),
        " stones)\n"
    );
    o.push("  adjacent strings (lower layer, each counted once — M20-ATTR-COUNT):\n");
    for &g in &f.adjacent {
        o.push(adjacent_string_line(p, a, g));
    }
    o.push(format!(
        "  Hs={} Hw={} Bs={} Bw={} → {} ({})\n",
        f.counts.hs,
        f.counts.hw,
        f.counts.bs,
        f.counts.bw,
        f.attribute.name(),
        f.clause
    ));
    o
}

/// One string adjacent to a flower string (lower string `g`): its colour, name and whether it
/// has a private eye.
fn adjacent_string_line(p: &Position, a: &Analysis, g: usize) -> Text {
    let s = &a.lower_strings.groups[g];
    text!(
        "    ",
        s.colour.map(|c| c.name()).unwrap_or("?"),
        " ",
        string_name(p.board(), &s.points),
        ": ",
        if a.has_private_eye(g) {
            "has a private eye"
        } else {
            "no private eye"
        },
        "\n"
    )
}

/// A black or white string (the stone at point `i`): its closed regions with their verdicts,
/// then its upper string.
fn explain_string(p: &Position, a: &Analysis, i: usize) -> Text {
    let g = a.lower_strings.of[i].unwrap_or(0);
    let s = &a.lower_strings.groups[g];
    let mut o = text!(
        s.colour.map(|c| c.name()).unwrap_or("?"),
        " string ",
        string_name(p.board(), &s.points),
        format!(
            " ({} stones, {} lower liberties)\n",
            s.points.len(),
            s.liberties.len()
        )
    );
    let m2016 = p.rules().private_eye == EyeRule::M2016;
    o.push(if !m2016 {
        "  closed regions (M20-EYE-REGION, lower layer: flowers as off-board):\n"
    } else if p.rules().closed_region_2016 == ClosedRegion2016::Inside {
        "  closed regions (M16-REGION, the inside of the string's ring band: walls the string and the edge, grey stones inside):\n"
    } else {
        "  closed regions (M16-REGION, every part the string cuts off, the rest of the board included: walls the string and the edge, grey stones inside):\n"
    });
    if a.regions[g].is_empty() && m2016 {
        o.push("    none: the string cuts nothing off the board (M16-REGION)\n");
    }
    for (r, v) in &a.regions[g] {
        o.push(closed_region_lines(p, r, v));
    }
    if let Some(u) = a.upper_strings.at(i) {
        o.push(text!(
            "  upper string ",
            string_name(p.board(), &u.points),
            format!(
                ": {} stones, {} liberties ({})\n",
                u.points.len(),
                u.liberties.len(),
                if m2016 {
                    "M16-GREY-CONVERT"
                } else {
                    "M20-UPPER"
                }
            )
        ));
    }
    if p.rules().private_eye == crate::rules::EyeRule::M2016 {
        o.push(concepts_2016_lines(p, a, g, i));
    }
    o
}

/// Under the 2016 rules, a string's 000 concepts: the conditions a–d of each of its closed
/// regions, then, for its upper string, its eyes (true or false), its chain and sub-chain, its
/// group, and whether it is long-living, in seki or dead.
fn concepts_2016_lines(p: &Position, a: &Analysis, g: usize, i: usize) -> Text {
    use crate::judge::concepts2016::{concepts_2016, regions_with_conditions, EyeKind};
    let c = concepts_2016(a, p.rules());
    let b = p.board();
    let yn = |v: bool| if v { "yes" } else { "no" };
    let names = |v: &[usize]| Text::join(v.iter().map(|&q| b.point(q)), " ");
    let strings = |v: &[usize]| {
        Text::join(
            v.iter()
                .map(|&u| string_name(b, &a.upper_strings.groups[u].points)),
            " ",
        )
    };
    let mut o = Text::from(
        "  2016 conditions of each closed region (000's private eye, a–d, each judged on its own):\n",
    );
    for (r, k) in regions_with_conditions(a, &c, g) {
        o.push(format!(
            "    {} point(s), {} empty: a (inner liberty, M16-EYE-A) {}, b (M16-EYE-B) {}, capture (M16-EYE-CAPTURE) {}, c (M16-EYE-C) {}, d (M16-EYE-D) {}\n",
            r.points.len(),
            r.empty.len(),
            yn(k.a),
            yn(k.b),
            k.capture.map_or("not judged", yn),
            yn(k.c),
            yn(k.d)
        ));
    }
    let Some(u) = a.upper_strings.of[i] else {
        return o;
    };
    o.push(text!(
        "  2016 concepts of upper string ",
        string_name(b, &a.upper_strings.groups[u].points),
        format!(": {} true eye(s)\n", c.true_eyes[u])
    ));
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
        o.push(text!(
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
            ")\n"
        ));
    }
    for ch in c.chains.iter().filter(|ch| ch.strings.contains(&u)) {
        o.push(text!(
            "    chain (棋链, M16-CHAIN): ",
            strings(&ch.strings),
            "\n"
        ));
        o.push(if ch.sub_chain.is_empty() {
            Text::from("    no sub-chain has two true eyes in each string: the chain is dying (将死状态, M16-LIFE-4-SPLIT)\n")
        } else {
            text!(
                "    long-living sub-chain (子棋链, M16-SUBCHAIN): ",
                strings(&ch.sub_chain),
                if ch.split_off.is_empty() {
                    Text::from(" — the whole chain (M16-LIFE-4)\n")
                } else {
                    text!("; split off and captured (M16-LIFE-4-SPLIT): ", strings(&ch.split_off), "\n")
                }
            )
        });
    }
    if let Some(gr) = c.groups.iter().find(|gr| gr.contains(&u)) {
        o.push(text!("    group (棋群, M16-GROUP): ", strings(gr), "\n"));
    }
    o.push(format!(
        "    long-living (长活, M16-LIFE-3): {}; seki (双活, M16-LIFE-5): {}; dead (死棋状态): {}\n",
        yn(c.long_living[u]),
        yn(c.seki[u]),
        yn(c.dead[u])
    ));
    o
}

/// One closed region of a string: its size, its verdict with the clause, and for a private eye
/// its points.
fn closed_region_lines(p: &Position, r: &Region, v: &RegionVerdict) -> Text {
    let eye = v.point().map(|q| p.board().point(q));
    let mut o = text!(
        format!("    {} point(s), {} empty: ", r.points.len(), r.empty.len()),
        verdict_text(v.code(), eye),
        " (",
        v.clause_under(p.rules().private_eye),
        ")\n"
    );
    if *v == RegionVerdict::PrivateEye {
        // M20-EYE-FIG6: the private eye is the closed region, stones inside included
        let names = |v: &[usize]| Text::join(v.iter().map(|&q| p.board().point(q)), " ");
        o.push(text!(
            "      private eye: region ",
            names(&r.points),
            "; empty points ",
            names(&r.empty),
            "\n"
        ));
        if 2 * r.points.len() > p.board().len() {
            o.push(match p.rules().private_eye {
                EyeRule::M2020 => OUTER_AREA_EYE,
                EyeRule::M2016 => OUTER_AREA_EYE_2016,
            });
        }
    }
    o
}

/// What a referee is told when a private eye is the rest of the board (more than half of it):
/// a lone stone on an empty board already has one (register D2, README "Rule sets").
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
fn explain_point(p: &Position, a: &Analysis, i: usize) -> Text {
    let mut o = text!("empty point ", p.board().point(i), "\n");
    o.push(format!(
        "  capture point (M20-FORBID-CAPTURE): {}\n",
        yes(is_capture_point(a, i))
    ));
    o.push(format!(
        "  one-liberty eye (M20-FORBID-EYE): {}\n",
        is_one_liberty_eye(a, i)
            .map(|c| format!("yes, of {}", c.name()))
            .unwrap_or("no".into())
    ));
    o.push(format!(
        "  tiger's mouth (M20-FORBID-TIGER): {}\n",
        is_tigers_mouth(a, p.rules(), i)
            .map(|c| format!("yes, of {}", c.name()))
            .unwrap_or("no".into())
    ));
    for c in [Colour::Black, Colour::White] {
        let v = flower_forbidden_reason(a, p.rules(), i, c);
        o.push(format!(
            "  {}'s flower: {}\n",
            c.name(),
            v.map(|f| format!("forbidden ({}, {})", f.code(), f.clause()))
                .unwrap_or("playable".into())
        ));
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
        let t = explain_target(&lone_stone("OO"), "OO")
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
        let t = explain_target(&pos, "DC").expect("explained").to_string();
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
        let t = explain_target(&lone_stone_under("OO", rules.clone()), "OO")
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
        let t = explain_target(&lone_stone_under("OO", whole), "OO")
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
