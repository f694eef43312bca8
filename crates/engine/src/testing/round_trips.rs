//! Round trips: a position through its YAML and JSON setup, and what a record's round trip must
//! keep (its moves, its game information).

use super::failure::CheckFailure;
use crate::game::play::{Position, PositionParts};

/// `Position::to_setup` written as YAML and read back gives the same position; the setup's
/// JSON round trip is lossless.
pub fn check_round_trips(pos: &Position) -> Result<(), CheckFailure> {
    let setup = pos.to_setup();
    let yaml = serde_yaml::to_string(&setup).map_err(CheckFailure::ToYaml)?;
    let back: crate::game::setup::Setup =
        crate::game::setup::from_yaml(&yaml, "round trip").map_err(CheckFailure::Setup)?;
    if back != setup {
        return Err(CheckFailure::Broken(format!(
            "YAML round trip changed the setup:\n{yaml}"
        )));
    }
    let p2 = back
        .to_position("round trip")
        .map_err(|source| CheckFailure::PositionOfYaml {
            source,
            yaml: yaml.clone(),
        })?;
    // Under Flystone, `flystone: None` means "the timings drawn from the seed, nothing thrown";
    // the file writes them out, so compare the state the position stands for.
    let norm = |p: &Position| PositionParts {
        flystone: p.flystone_state(),
        ..p.to_parts()
    };
    if norm(&p2) != norm(pos) {
        return Err(CheckFailure::Broken(format!(
            "YAML round trip changed the position:\n{yaml}"
        )));
    }
    if p2.to_setup() != setup {
        return Err(CheckFailure::Broken(format!(
            "a second YAML round trip changed the setup:\n{yaml}"
        )));
    }
    let json = serde_json::to_string(&setup).map_err(CheckFailure::ToJson)?;
    let back: crate::game::setup::Setup =
        serde_json::from_str(&json).map_err(|source| CheckFailure::FromJson {
            source,
            json: json.clone(),
        })?;
    if back != setup {
        return Err(CheckFailure::Broken(format!(
            "JSON round trip changed the setup: {json}"
        )));
    }
    Ok(())
}

/// Whether two records hold the same moves: numbers, actions, refusals kept as replaced moves
/// with their comments, and the claimed turn where the first record names one (a record read
/// back after writing may name turns the original left implicit).
pub fn same_record_moves(
    a: &crate::formats::record::Record,
    b: &crate::formats::record::Record,
) -> bool {
    a.moves.len() == b.moves.len()
        && a.moves.iter().zip(&b.moves).all(|(x, y)| {
            x.number == y.number
                && x.action == y.action
                && (x.claimed.is_none() || x.claimed == y.claimed)
                && x.replaced == y.replaced
                && x.comment == y.comment
        })
}

/// A record's game information but the komi (which a writer writes once, as the rules' komi),
/// in key order (a writer may put `RU` first): what a round trip must keep.
pub fn record_info_but_komi(r: &crate::formats::record::Record) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = r
        .info
        .iter()
        .filter(|(k, _)| k != "komi")
        .cloned()
        .collect();
    v.sort();
    v
}
