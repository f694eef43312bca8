//! What an implementation declares it supports (the answer to the `capabilities` request,
//! spec/README.md "Capabilities" and "Partial support"): presets, option values (for every
//! preset, or for one), replay modes, and the readings of a preset it lacks (with the checks
//! that depend on them); whether a request is inside the declaration, and which of a case's
//! checks it declines.

use crate::conform::case::ReplayMode;
use m3go_engine::Rules;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// What an implementation declares it supports: the answer to the `capabilities` request
/// (spec/README.md "Capabilities"). A case is run only when its rules' preset is among
/// `presets`, every option its rules set away from that preset's value is declared in
/// `options` or in the preset's `by_preset.options` (`"any"`, or a list holding the value), and
/// its `replay` mode (if any) is among `replay`. A check the preset's `by_preset.declines` name
/// is left out of the case (and counted as a skipped check).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Capabilities {
    /// The presets supported, with their own option values.
    pub presets: Vec<String>,
    /// Option (its YAML key) -> `"any"` or the list of values supported away from a preset's,
    /// under every preset.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// The replay modes supported (mechanical, strict).
    #[serde(default = "all_replay_modes")]
    pub replay: Vec<ReplayMode>,
    /// `m3go-conform/2`: what holds under one preset only (its name -> option values supported
    /// away from its own, and its own readings declined).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_preset: BTreeMap<String, PresetCapabilities>,
}

/// What an implementation supports under one preset (`capabilities.by_preset.PRESET`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PresetCapabilities {
    /// Option -> `"any"` or the values supported away from this preset's own, under this preset
    /// (besides the top-level `options`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, Value>,
    /// The preset's own readings the implementation lacks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declines: Vec<Decline>,
}

/// A reading of a preset an implementation lacks: the preset's own value of `option`, and the
/// checks of a case that depend on it, which it does not answer under that value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Decline {
    /// The option (its YAML key, `m3go rules`) whose value in the preset is the reading lacked.
    pub option: String,
    /// The checks (`expect` keys: `score`, `private_eyes`, …) that depend on it.
    pub checks: Vec<String>,
    /// Why, for people (shown with each skipped check).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The longest reason text of a program (a decline's `reason`, an answer's `declined` or
/// `unsupported` reason) m3go keeps and prints, in characters: a longer one is cut, with `…`.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const MAX_REASON_CHARS: usize = 200;

/// A program's reason text, cut to [`MAX_REASON_CHARS`] characters (with `…` when cut).
pub(crate) fn clip_reason(s: &str) -> String {
    crate::io::clip(s, MAX_REASON_CHARS)
}

/// A check of a case left out, and why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SkippedCheck {
    pub check: String,
    pub reason: String,
}

fn all_replay_modes() -> Vec<ReplayMode> {
    vec![ReplayMode::Mechanical, ReplayMode::Strict]
}

impl Capabilities {
    /// m3go's own: every preset ([`Rules::PRESETS`], by their canonical names), every value of every option, both replay modes.
    pub fn m3go() -> Capabilities {
        Capabilities {
            presets: Rules::PRESETS.iter().map(|p| p.to_string()).collect(),
            options: Rules::OPTIONS
                .iter()
                .map(|(name, _, _)| (name.to_string(), json!("any")))
                .collect(),
            replay: all_replay_modes(),
            by_preset: BTreeMap::new(),
        }
    }

    /// Only these presets, with their own option values (`m3go protocol --presets`).
    pub fn only_presets(presets: &[String]) -> Capabilities {
        Capabilities {
            presets: presets.to_vec(),
            options: BTreeMap::new(),
            replay: all_replay_modes(),
            by_preset: BTreeMap::new(),
        }
    }

    /// The declaration under `preset` (canonical or an alias), if any.
    fn of_preset(&self, preset: &str) -> Option<&PresetCapabilities> {
        let preset = Rules::canonical_preset(preset);
        self.by_preset
            .iter()
            .find(|(p, _)| Rules::canonical_preset(p) == preset)
            .map(|(_, c)| c)
    }

    /// The declaration is one a runner can use: every option it names is an option of the rules
    /// (`m3go rules`), every check an `expect` key, every preset of `by_preset` among `presets`.
    pub fn validate(&self) -> Result<(), CapabilitiesError> {
        let known = |o: &str| Rules::OPTIONS.iter().any(|(name, _, _)| *name == o);
        for o in self.options.keys() {
            if !known(o) {
                return Err(CapabilitiesError::UnknownOption(o.clone()));
            }
        }
        for (p, c) in &self.by_preset {
            if !self
                .presets
                .iter()
                .any(|q| Rules::canonical_preset(q) == Rules::canonical_preset(p))
            {
                return Err(CapabilitiesError::UndeclaredPreset(p.clone()));
            }
            for o in c.options.keys().chain(c.declines.iter().map(|d| &d.option)) {
                if !known(o) {
                    return Err(CapabilitiesError::UnknownPresetOption {
                        preset: p.clone(),
                        option: o.clone(),
                    });
                }
            }
            for d in &c.declines {
                if let Some(x) = d
                    .checks
                    .iter()
                    .find(|x| !crate::conform::check::is_check(x))
                {
                    return Err(CapabilitiesError::NotACheck {
                        preset: p.clone(),
                        check: x.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// The checks declined under these rules: those of each reading of the rules' preset that
    /// the declaration declines and the rules keep (the preset's own value of the option).
    pub fn declined(&self, rules: &Rules) -> Vec<SkippedCheck> {
        let preset = rules.preset.name();
        let (Some(c), Ok(base)) = (self.of_preset(preset), Rules::preset(preset)) else {
            return Vec::new();
        };
        let (mine, theirs) = (json!(rules), json!(base));
        let mut out = Vec::new();
        for d in &c.declines {
            let v = &mine[d.option.as_str()];
            if *v != theirs[d.option.as_str()] {
                continue;
            }
            let shown = v
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string());
            let why = format!(
                "declined by capability: {preset}'s own `{}: {shown}`{}",
                d.option,
                d.reason
                    .as_ref()
                    .map(|r| format!(" ({})", clip_reason(r)))
                    .unwrap_or_default()
            );
            for x in &d.checks {
                if !out.iter().any(|s: &SkippedCheck| s.check == *x) {
                    out.push(SkippedCheck {
                        check: x.clone(),
                        reason: why.clone(),
                    });
                }
            }
        }
        out
    }

    /// Why a request with these rules and this replay mode is outside the declaration, or
    /// `None` when it is inside.
    pub fn refuses(&self, rules: &Rules, replay: Option<ReplayMode>) -> Option<String> {
        let preset = rules.preset.name();
        if !self
            .presets
            .iter()
            .any(|p| Rules::canonical_preset(p) == preset)
        {
            return Some(format!(
                "preset `{preset}` is not declared (presets: {})",
                self.presets.join(", ")
            ));
        }
        // rules equal to their preset's depart from it in no option (the common case, asked
        // for every request: the JSON of both is made only otherwise)
        let departing = Rules::preset(preset).ok().filter(|base| base != rules);
        if let Some(base) = departing {
            let (mine, theirs) = (json!(rules), json!(base));
            for (name, _, _) in Rules::OPTIONS {
                let v = &mine[*name];
                if *v == theirs[*name] {
                    continue;
                }
                let allows = |o: Option<&Value>| match o {
                    Some(Value::String(a)) => a == "any",
                    Some(Value::Array(vals)) => vals.contains(v),
                    _ => false,
                };
                let ok = allows(self.options.get(*name))
                    || allows(self.of_preset(preset).and_then(|c| c.options.get(*name)));
                if !ok {
                    let shown = v
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string());
                    return Some(format!(
                        "option `{name}: {shown}` (away from {preset}'s) is not declared"
                    ));
                }
            }
        }
        if let Some(m) = replay {
            if !self.replay.contains(&m) {
                return Some(format!("replay mode `{}` is not declared", json!(m)));
            }
        }
        None
    }
}

/// Why a declaration is not one a runner can use ([`Capabilities::validate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CapabilitiesError {
    /// An option that is not an option of the rules.
    UnknownOption(String),
    /// A preset of `by_preset` not among the presets declared.
    UndeclaredPreset(String),
    /// An option of `by_preset.PRESET` that is not an option of the rules.
    UnknownPresetOption { preset: String, option: String },
    /// A check declined under `by_preset.PRESET` that is not a check.
    NotACheck { preset: String, check: String },
}

impl std::error::Error for CapabilitiesError {}

impl std::fmt::Display for CapabilitiesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CapabilitiesError::UnknownOption(o) => {
                write!(f, "option `{o}` is not an option of the rules (m3go rules)")
            }
            CapabilitiesError::UndeclaredPreset(p) => write!(
                f,
                "by_preset names `{p}`, which is not among the presets declared"
            ),
            CapabilitiesError::UnknownPresetOption { preset, option } => write!(
                f,
                "by_preset.{preset}: option `{option}` is not an option of the rules (m3go rules)"
            ),
            CapabilitiesError::NotACheck { preset, check } => write!(
                f,
                "by_preset.{preset}.declines: `{check}` is not a check: expected one of {}",
                crate::conform::check::all_checks()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(v: Value) -> Rules {
        serde_json::from_value::<m3go_engine::rules::RulesField>(v)
            .expect("rules")
            .resolve()
            .expect("valid rules")
    }

    /// Option values declared under one preset hold under that preset only.
    #[test]
    fn option_values_per_preset() {
        let mut caps = Capabilities::only_presets(&["m3go-2020".into(), "m3go-2016".into()]);
        caps.by_preset.insert(
            "m3go-2020".into(),
            PresetCapabilities {
                options: [("forbidden-owner".to_string(), json!("any"))].into(),
                declines: vec![],
            },
        );
        caps.validate().expect("valid");
        // each preset with the value of forbidden-owner that is not its own
        let under = |preset: &str| {
            let own = json!(Rules::preset(preset).expect("preset"))["forbidden-owner"].clone();
            let other = if own == json!("any") {
                "opponent"
            } else {
                "any"
            };
            caps.refuses(
                &rules(json!({"preset": preset, "forbidden-owner": other})),
                None,
            )
        };
        assert_eq!(under("m3go-2020"), None);
        assert!(under("m3go-2016").is_some_and(|w| w.contains("forbidden-owner")));
        caps.by_preset
            .insert("dullstone".into(), PresetCapabilities::default());
        assert!(caps
            .validate()
            .is_err_and(|e| e.to_string().contains("dullstone")));
    }

    /// A declined reading declines its checks only while the rules keep the preset's value.
    #[test]
    fn declines_follow_the_preset_value() {
        let mut caps = Capabilities::m3go();
        caps.by_preset.insert(
            "d3go".into(),
            PresetCapabilities {
                options: BTreeMap::new(),
                declines: vec![Decline {
                    option: "ko".into(),
                    checks: vec!["legal".into(), "illegal".into()],
                    reason: None,
                }],
            },
        );
        let own = rules(json!("dullstone"));
        let d = caps.declined(&own);
        assert_eq!(
            d.iter().map(|s| s.check.as_str()).collect::<Vec<_>>(),
            ["legal", "illegal"]
        );
        assert!(
            d[0].reason.contains("dullstone's own `ko: "),
            "{}",
            d[0].reason
        );
        let other_ko = if json!(own)["ko"] == json!("none") {
            "simple"
        } else {
            "none"
        };
        assert!(caps
            .declined(&rules(json!({"preset": "dullstone", "ko": other_ko})))
            .is_empty());
        assert!(caps.declined(&rules(json!("m3go-2020"))).is_empty());
    }
}
