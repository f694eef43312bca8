//! The rule sets the tests run under: every preset, and the single-option variants that "fast
//! equals reference" compares on.

use crate::rules::{CaptureTiming, Rules, Schedule, Suicide, SuicideTiming, PRESETS};

/// The presets that `Rules::preset` currently builds (all five while they all work).
pub fn working_presets() -> Vec<Rules> {
    PRESETS
        .iter()
        .filter_map(|p| Rules::preset(p).ok())
        .collect()
}

/// The rule sets "fast equals reference" compares on (tests/it/fast_equals_reference.rs, the fuzz
/// target): every preset, then single-option variants that reach every ko rule, schedule and
/// special move and the cascade's options — each a preset with one or two options changed.
pub fn fast_rule_sets() -> Vec<Rules> {
    use crate::rules::{AttributeRule, FlowerCaptureCheck, FlystoneMode, GameEnd, Ko, TigersMouth};
    let base = Rules::m3go_2020();
    let preset = |name: &str| Rules::preset(name).unwrap_or_else(|_| base.clone());
    let mut out = working_presets();
    // The analysis options on the 2020 rules (the eye, the regions, the attribute).
    out.extend([
        Rules {
            private_eye: crate::rules::EyeRule::M2016,
            ..base.clone()
        },
        Rules {
            closed_region: crate::rules::ClosedRegion::SameColour,
            ..base.clone()
        },
        Rules {
            attribute: AttributeRule::M2013,
            private_eye: crate::rules::EyeRule::M2016,
            ..base.clone()
        },
    ]);
    out.extend([
        Rules {
            ko: Ko::Positional,
            ..base.clone()
        },
        Rules {
            ko: Ko::Situational,
            ..base.clone()
        },
        Rules {
            ko: Ko::None,
            suicide: Suicide::Allowed,
            ..base.clone()
        },
        Rules {
            schedule: Schedule::Team2016,
            ..base.clone()
        },
        Rules {
            schedule: Schedule::Flystone,
            ..base.clone()
        },
        Rules {
            emergency_conversion: true,
            ..base.clone()
        },
        Rules {
            attribute: AttributeRule::M2016,
            tigers_mouth: TigersMouth::None,
            ..base.clone()
        },
        Rules {
            tigers_mouth: TigersMouth::UpperLayer,
            ..base.clone()
        },
        Rules {
            flower_capture_check: FlowerCaptureCheck::Static,
            game_end: GameEnd::TwoPasses,
            ..base.clone()
        },
        Rules {
            suicide_timing: SuicideTiming::FirstRound,
            ..base.clone()
        },
        Rules {
            suicide_timing: SuicideTiming::FirstRound,
            suicide: Suicide::Allowed,
            ..base.clone()
        },
        Rules {
            capture_timing: match base.capture_timing {
                CaptureTiming::HolographicFirst => CaptureTiming::RecomputeFirst,
                CaptureTiming::RecomputeFirst => CaptureTiming::HolographicFirst,
            },
            ..base.clone()
        },
        Rules {
            schedule: Schedule::Alternate,
            attribute: AttributeRule::AlwaysNeutral,
            ..base.clone()
        },
        Rules {
            ko: Ko::Situational,
            ..preset("dullstone")
        },
        Rules {
            attribute: AttributeRule::M2020,
            ..preset("dullstone")
        },
        Rules {
            flystone_mode: FlystoneMode::C,
            ko: Ko::Positional,
            ..preset("flystone")
        },
        Rules {
            flystone_mode: FlystoneMode::B,
            ko: Ko::Situational,
            ..preset("flystone")
        },
        Rules {
            ko: Ko::Positional,
            ..preset("m3go-2016")
        },
    ]);
    out
}
