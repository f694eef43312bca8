//! The JSON summary of `m3go diff --format json` (`m3go-diff-summary/1`) built from a run of
//! random games against another implementation, and its checks skipped by reason.

use crate::conform::diff::{DiffOptions, DiffOutcome, DiffRun, GameVerdict};
use crate::conform::report::{
    CheckSkipReason, DiffDisagreement, DiffError, DiffSummary, DiffVerdict, FieldDifference,
    DIFF_SUMMARY,
};

/// The checks skipped of a run by reason: each check with in how many moves.
pub(crate) fn by_reason(
    run: &DiffRun,
) -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, usize>> {
    let mut m: std::collections::BTreeMap<String, std::collections::BTreeMap<String, usize>> =
        std::collections::BTreeMap::new();
    for (d, n) in &run.checks_skipped {
        *m.entry(d.reason.clone())
            .or_default()
            .entry(d.check.clone())
            .or_default() += *n as usize;
    }
    m
}

/// The JSON summary (`--format json`, `m3go-diff-summary/1`).
pub(crate) fn summary_of(
    opts: &DiffOptions,
    run: &DiffRun,
    case_path: Option<String>,
) -> DiffSummary {
    let mut s = DiffSummary {
        format: DIFF_SUMMARY.to_string(),
        outcome: DiffVerdict::Agree,
        seed: opts.seed,
        size: opts.size,
        rules: opts.rules.preset.to_string(),
        games: run.games.len(),
        games_agreed: run
            .games
            .iter()
            .filter(|g| matches!(g.verdict, GameVerdict::Agree))
            .count(),
        moves_compared: run.games.iter().map(|g| g.compared).sum(),
        moves_skipped: run.games.iter().map(|g| g.skipped).sum(),
        checks_skipped: run.checks_skipped.values().sum(),
        checks_skipped_by_reason: by_reason(run)
            .into_iter()
            .map(|(reason, checks)| CheckSkipReason { reason, checks })
            .collect(),
        disagreement: None,
        error: None,
        unsupported: None,
    };
    match &run.outcome {
        DiffOutcome::Agree { moves, skipped, .. } => {
            s.moves_compared = *moves;
            s.moves_skipped = *skipped;
        }
        DiffOutcome::Unsupported(why) => {
            s.outcome = DiffVerdict::Unsupported;
            s.unsupported = Some(why.clone());
        }
        DiffOutcome::Errored {
            game,
            move_number,
            message,
        } => {
            s.outcome = DiffVerdict::Errored;
            s.error = Some(DiffError {
                game: *game,
                move_number: *move_number,
                message: message.clone(),
            });
        }
        DiffOutcome::Disagree(d) => {
            s.outcome = DiffVerdict::Disagree;
            s.disagreement = Some(DiffDisagreement {
                game: d.game,
                game_seed: crate::conform::diff::game_seed(opts.seed, d.game),
                game_seed_text: crate::conform::diff::game_seed(opts.seed, d.game).to_string(),
                move_number: d.move_number,
                mv: d.notation.clone(),
                differences: d
                    .differences
                    .iter()
                    .map(|x| FieldDifference {
                        field: x.field.to_string(),
                        detail: x.detail.clone(),
                    })
                    .collect(),
                stones_before: d.stones_before,
                stones_after: d.stones_after,
                case_id: d.case.id.clone(),
                case_path,
                case: d.case.clone(),
            });
        }
    }
    s
}
