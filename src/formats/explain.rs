//! `explain`: the clause trace for a point (capture point? one-liberty eye? tiger's mouth? each
//! flower's verdict), a string (its closed regions and their verdicts; a flower string's
//! neighbours and counts) or a move (legal with its cascade, or the clause that refuses it).

use crate::board::coord::Target;
use crate::board::grid::Colour;
use crate::formats::report::verdict_text;
use crate::game::notation::{parse_move_in, turn_of_symbol};
use crate::game::play::{string_name, Position};
use crate::game::setup::InputError;
use crate::judge::analysis::Analysis;
use crate::judge::forbidden::{
    flower_forbidden_reason, is_capture_point, is_one_liberty_eye, is_tigers_mouth,
};

/// The clause trace for a point, a string or a move.
pub fn explain_target(p: &Position, target: &str) -> Result<String, InputError> {
    let size = p.board().size();
    let mut o = String::new();
    let first = target.chars().next().unwrap_or(' ');
    if turn_of_symbol(first).is_some() || target.eq_ignore_ascii_case("pass") {
        let mv = parse_move_in(target, p.rules(), size).map_err(|e| InputError(e.0))?;
        match p.play(&mv) {
            Ok((_, r)) => {
                o.push_str(&format!(
                    "{} is legal ({}).\n",
                    r.notation,
                    r.turn.describe()
                ));
                for s in &r.steps {
                    o.push_str(&format!("  {s}\n"));
                }
                for c in &r.attribute_changes {
                    o.push_str(&format!(
                        "  flower {}: {} -> {} (M20-ATTR)\n",
                        c.string,
                        c.from.name(),
                        c.to.name()
                    ));
                }
            }
            Err(e) => o.push_str(&format!(
                "{target} is refused: {} — clause {}\n  {}\n",
                e.reason, e.clause, e.message
            )),
        }
        return Ok(o);
    }
    let t =
        Target::parse(target, size).map_err(|e| InputError(format!("target `{target}`: {e}")))?;
    let a = Analysis::new(p.board(), p.rules());
    let i = p.board().index(t.point);
    match p.board().at(t.point) {
        Some(crate::board::grid::Stone::Flower) => {
            let f = &a.flowers[a.flower_of[i].unwrap_or(0)];
            o.push_str(&format!(
                "flower string {} ({} stones)\n",
                string_name(p.board(), &f.points),
                f.points.len()
            ));
            o.push_str("  adjacent strings (lower layer, each counted once — M20-ATTR-COUNT):\n");
            for &g in &f.adjacent {
                let s = &a.lower_strings.groups[g];
                o.push_str(&format!(
                    "    {} {}: {}\n",
                    s.colour.map(|c| c.name()).unwrap_or("?"),
                    string_name(p.board(), &s.points),
                    if a.has_private_eye(g) {
                        "has a private eye"
                    } else {
                        "no private eye"
                    }
                ));
            }
            o.push_str(&format!(
                "  Hs={} Hw={} Bs={} Bw={} → {} ({})\n",
                f.counts.hs,
                f.counts.hw,
                f.counts.bs,
                f.counts.bw,
                f.attribute.name(),
                f.clause
            ));
        }
        Some(_) => {
            let g = a.lower_strings.of[i].unwrap_or(0);
            let s = &a.lower_strings.groups[g];
            o.push_str(&format!(
                "{} string {} ({} stones, {} lower liberties)\n",
                s.colour.map(|c| c.name()).unwrap_or("?"),
                string_name(p.board(), &s.points),
                s.points.len(),
                s.liberties.len()
            ));
            o.push_str("  closed regions (M20-EYE-REGION, lower layer: flowers as off-board):\n");
            for (r, v) in &a.regions[g] {
                let eye = v.point().map(|q| p.board().point(q).to_string());
                o.push_str(&format!(
                    "    {} point(s), {} empty: {} ({})\n",
                    r.points.len(),
                    r.empty.len(),
                    verdict_text(v.code(), eye.as_deref()),
                    v.clause_under(p.rules().private_eye)
                ));
                if *v == crate::judge::eyes::RegionVerdict::PrivateEye {
                    // M20-EYE-FIG6: the private eye is the closed region, stones inside included
                    let names = |v: &[usize]| {
                        v.iter()
                            .map(|&q| p.board().point(q).to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    o.push_str(&format!(
                        "      private eye: region {}; empty points {}\n",
                        names(&r.points),
                        names(&r.empty)
                    ));
                }
            }
            if let Some(u) = a.upper_strings.at(i) {
                o.push_str(&format!(
                    "  upper string {}: {} stones, {} liberties (M20-UPPER)\n",
                    string_name(p.board(), &u.points),
                    u.points.len(),
                    u.liberties.len()
                ));
            }
        }
        None => {
            o.push_str(&format!("empty point {}\n", t.point));
            o.push_str(&format!(
                "  capture point (M20-FORBID-CAPTURE): {}\n",
                yes(is_capture_point(&a, i))
            ));
            o.push_str(&format!(
                "  one-liberty eye (M20-FORBID-EYE): {}\n",
                is_one_liberty_eye(&a, i)
                    .map(|c| format!("yes, of {}", c.name()))
                    .unwrap_or("no".into())
            ));
            o.push_str(&format!(
                "  tiger's mouth (M20-FORBID-TIGER): {}\n",
                is_tigers_mouth(&a, p.rules(), i)
                    .map(|c| format!("yes, of {}", c.name()))
                    .unwrap_or("no".into())
            ));
            for c in [Colour::Black, Colour::White] {
                let v = flower_forbidden_reason(&a, p.rules(), i, c);
                o.push_str(&format!(
                    "  {}'s flower: {}\n",
                    c.name(),
                    v.map(|f| format!("forbidden ({}, {})", f.code(), f.clause()))
                        .unwrap_or("playable".into())
                ));
            }
        }
    }
    Ok(o)
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}
