//! The rule sets the tests run under: every preset, and the single-option variants that "fast
//! equals reference" compares on.

use crate::rules::{CaptureTiming, Rules, Schedule, Suicide, SuicideTiming};

/// Every preset of [`PRESETS`], as `Rules::preset` builds it.
///
/// # Panics
/// When a preset fails to build, naming it: a broken preset must fail the tests that run under
/// it, not drop out of them.
pub fn preset_rules() -> Vec<Rules> {
    Rules::PRESETS.iter().map(|p| preset(p)).collect()
}

/// The preset `name`, as `Rules::preset` builds it.
///
/// # Panics
/// When it fails to build, naming it and the error.
pub fn preset(name: &str) -> Rules {
    Rules::preset(name)
        .unwrap_or_else(|e| panic!("test support: the preset `{name}` does not build: {e}"))
}

/// The rule sets "fast equals reference" compares on (tests/it/fast_equals_reference.rs, the fuzz
/// target): every preset, then single-option variants that reach every ko rule, schedule and
/// special move and the cascade's options — each a preset with one or two options changed.
pub fn fast_rule_sets() -> Vec<Rules> {
    use crate::rules::{AttributeRule, FlowerCaptureCheck, FlystoneMode, GameEnd, Ko, TigersMouth};
    let base = Rules::m3go_2020();
    let mut out = preset_rules();
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
        // the 2013 attribute recomputed after captures (register D21; the line above keeps it)
        Rules {
            attribute: AttributeRule::M2013,
            grey_freeze: crate::rules::GreyFreeze::Recomputed,
            ..base.clone()
        },
        Rules {
            closed_region_2016: crate::rules::ClosedRegion2016::WholeBoard,
            ..preset("m3go-2016")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_builds_and_keeps_its_name() {
        let names: Vec<String> = preset_rules()
            .into_iter()
            .map(|r| r.preset.to_string())
            .collect();
        assert_eq!(names, Rules::PRESETS.map(String::from));
    }

    #[test]
    #[should_panic(expected = "the preset `no-such-preset` does not build")]
    fn a_preset_that_does_not_build_fails_loudly() {
        preset("no-such-preset");
    }
}
