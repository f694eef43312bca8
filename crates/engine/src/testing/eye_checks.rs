//! The engine's private-eye verdicts compared with the literal oracle
//! ([`crate::testing::literal_private_eyes`]) and with the fast engine's closed form.

use super::failure::CheckFailure;
use super::literal_eyes::{literal_private_eyes, nbrs, LiteralVerdict};
use crate::board::grid::{Board, Stone};
use crate::board::strings::Strings;
use crate::judge::eyes::{Region, RegionVerdict};
use crate::rules::{ClosedRegion, Rules};

/// The lower strings of `b` and, for each, its closed regions with the clause-by-clause verdict
/// on each (`judge::eyes::judge_regions` on the lower layer, under the 2020 eye with `rule`):
/// the reference private eyes, as [`Analysis::new`] computes them, without the attributes and
/// the upper layer that the eye checks do not read.
pub fn reference_eye_verdicts(
    b: &Board,
    rule: ClosedRegion,
) -> (Strings, Vec<Vec<(Region, RegionVerdict)>>) {
    let lower = crate::board::layers::lower_layer(b);
    let strings = crate::board::strings::strings_of(&lower);
    let bits = crate::judge::eyes::LayerBits::new(&lower);
    let regions = (0..strings.groups.len())
        .map(|g| crate::judge::eyes::judge_regions(&lower, &bits, &strings, g, rule))
        .collect();
    (strings, regions)
}

/// The clause-by-clause private-eye verdicts ([`reference_eye_verdicts`]: closed regions,
/// conditions 1 and 2 and the closed form of the fill) against the fast engine's per-component
/// closed form (`game::fast`), string by string, under the 2020 eye with single-string regions:
/// whether each string has a private eye. Also checks the regions' shape: each touches its
/// string, holds none of its stones and no flower, and its empty points are its empty points.
/// Returns the number of strings compared.
pub fn compare_eyes_with_fast(b: &Board) -> Result<usize, CheckFailure> {
    let rules = Rules::m3go_2020();
    let (strings, regions) = reference_eye_verdicts(b, rules.closed_region);
    let fast = crate::game::fast::FastAnalysis::new(b, &rules);
    let place = || format!("board:\n{}", b.to_diagram());
    for (g, s) in strings.groups.iter().enumerate() {
        let i = s.points[0];
        let eyed = regions[g]
            .iter()
            .any(|(_, v)| *v == RegionVerdict::PrivateEye);
        if fast.has_private_eye(i) != Some(eyed) {
            return Err(CheckFailure::Broken(format!(
                "string {}: reference private eye {}, fast {:?}; {}",
                b.point(i),
                eyed,
                fast.has_private_eye(i),
                place()
            )));
        }
        let of_s = |q: usize| strings.of[q] == Some(g);
        for (r, _) in &regions[g] {
            let touches = r
                .points
                .iter()
                .any(|&p| crate::board::grid::neighbours(b.size(), p).any(of_s));
            let inside_ok = r
                .points
                .iter()
                .all(|&p| !of_s(p) && b.get(p) != Some(Stone::Flower));
            let empty: Vec<usize> = r
                .points
                .iter()
                .copied()
                .filter(|&p| b.get(p).is_none())
                .collect();
            if !touches || !inside_ok || empty != r.empty {
                return Err(CheckFailure::Broken(format!(
                    "string {}: malformed region {:?}; {}",
                    b.point(i),
                    r.points,
                    place()
                )));
            }
        }
    }
    Ok(strings.groups.len())
}

/// Compares the engine's closed regions and private-eye verdicts ([`reference_eye_verdicts`],
/// 2020 private eye with `rule`) with the literal oracle. Returns how many verdicts were compared
/// (regions too large for the oracle are compared on their points only).
pub fn compare_eyes_with_oracle(
    b: &Board,
    rule: ClosedRegion,
    max_empty: usize,
) -> Result<usize, CheckFailure> {
    let (strings, regions) = reference_eye_verdicts(b, rule);
    // (string's points, region's points, region's empty points, verdict)
    type EngineRegion<'a> = (&'a [usize], &'a [usize], &'a [usize], &'a RegionVerdict);
    let mut engine: Vec<EngineRegion> = Vec::new();
    for (g, rs) in regions.iter().enumerate() {
        for (r, v) in rs {
            engine.push((&strings.groups[g].points, &r.points, &r.empty, v));
        }
    }
    // (string, region) is unique (a string's regions are disjoint): an unstable sort is exact.
    engine.sort_unstable_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
    let mut oracle = literal_private_eyes(b, rule, max_empty);
    oracle.sort_unstable_by(|x, y| (&x.string, &x.points).cmp(&(&y.string, &y.points)));
    let place = || format!("board ({rule:?}):\n{}", b.to_diagram());
    if engine.len() != oracle.len() {
        return Err(CheckFailure::Broken(format!(
            "engine finds {} closed regions, the literal reading {}; {}",
            engine.len(),
            oracle.len(),
            place()
        )));
    }
    let mut compared = 0;
    for (e, o) in engine.iter().zip(&oracle) {
        let name = |v: &[usize]| {
            v.iter()
                .map(|&i| b.point(i).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if e.0 != o.string || e.1 != o.points || e.2 != o.empty {
            return Err(CheckFailure::Broken(format!(
                "regions differ: engine string [{}] region [{}], literal string [{}] region [{}]; {}",
                name(e.0),
                name(e.1),
                name(&o.string),
                name(&o.points),
                place()
            )));
        }
        let engine_kind = match e.3 {
            RegionVerdict::PrivateEye => LiteralVerdict::PrivateEye,
            RegionVerdict::SameColourInside | RegionVerdict::NoAdjacentEmptyString => {
                LiteralVerdict::Condition1Fails
            }
            RegionVerdict::OpponentCanMakeEye(_) | RegionVerdict::Rule2016 { .. } => {
                LiteralVerdict::Condition2Fails
            }
        };
        if o.verdict == LiteralVerdict::TooLarge {
            // Condition 1 held for the oracle: it must for the engine too.
            if engine_kind == LiteralVerdict::Condition1Fails {
                return Err(CheckFailure::Broken(format!(
                    "string [{}] region [{}]: engine says condition 1 fails ({}), the literal reading says it holds; {}",
                    name(e.0), name(e.1), e.3.code(), place()
                )));
            }
            continue;
        }
        if engine_kind != o.verdict {
            return Err(CheckFailure::Broken(format!(
                "string [{}] region [{}]: engine verdict {} ({:?}), literal fill simulation {:?}; {}",
                name(e.0),
                name(e.1),
                e.3.code(),
                e.3,
                o.verdict,
                place()
            )));
        }
        if let RegionVerdict::OpponentCanMakeEye(p) = e.3 {
            // The engine's witness must be an empty point of the region that no stone of the
            // string's colour touches (filling its empty neighbours makes the eye).
            let colour = b.get(e.0[0]).and_then(Stone::colour);
            let ok = e.2.contains(p)
                && nbrs(b, *p)
                    .into_iter()
                    .all(|n| b.get(n).and_then(Stone::colour) != colour);
            if !ok {
                return Err(CheckFailure::Broken(format!(
                    "string [{}]: the engine's eye point {} is no eye the opponent can fill; {}",
                    name(e.0),
                    b.point(*p),
                    place()
                )));
            }
        }
        compared += 1;
    }
    Ok(compared)
}
