//! What an implementation declares it supports (the answer to the `capabilities` request,
//! spec/README.md "Capabilities"), and whether a request is inside the declaration.

use crate::conform::case::ReplayMode;
use crate::conform::protocol::{CapabilitiesAnswer, Implementation, PROTOCOL};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// What an implementation declares it supports: the answer to the `capabilities` request
/// (spec/README.md "Capabilities"). A case is run only when its rules' preset is among
/// `presets`, every option its rules set away from that preset's value is declared in
/// `options` (`"any"`, or a list holding the value), and its `replay` mode (if any) is among
/// `replay`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Capabilities {
    /// The presets supported, with their own option values.
    pub presets: Vec<String>,
    /// Option (its YAML key) -> `"any"` or the list of values supported away from a preset's.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// The replay modes supported (mechanical, strict).
    #[serde(default = "all_replay_modes")]
    pub replay: Vec<ReplayMode>,
}

fn all_replay_modes() -> Vec<ReplayMode> {
    vec![ReplayMode::Mechanical, ReplayMode::Strict]
}

/// The presets m3go implements, by their canonical names.
pub const PRESETS: &[&str] = &[
    "m3go-2020",
    "m3go-2016",
    "m3go-2013",
    "dullstone",
    "flystone",
];

impl Capabilities {
    /// m3go's own: every preset, every value of every option, both replay modes.
    pub fn m3go() -> Capabilities {
        Capabilities {
            presets: PRESETS.iter().map(|p| p.to_string()).collect(),
            options: crate::rules::OPTIONS
                .iter()
                .map(|(name, _, _)| (name.to_string(), json!("any")))
                .collect(),
            replay: all_replay_modes(),
        }
    }

    /// Only these presets, with their own option values (`m3go protocol --presets`).
    pub fn only_presets(presets: &[String]) -> Capabilities {
        Capabilities {
            presets: presets.to_vec(),
            options: BTreeMap::new(),
            replay: all_replay_modes(),
        }
    }

    /// Why a request with these rules and this replay mode is outside the declaration, or
    /// `None` when it is inside.
    pub fn refuses(
        &self,
        rules: &crate::rules::Rules,
        replay: Option<ReplayMode>,
    ) -> Option<String> {
        use crate::rules::canonical_preset;
        let preset = canonical_preset(&rules.preset);
        if !self.presets.iter().any(|p| canonical_preset(p) == preset) {
            return Some(format!(
                "preset `{preset}` is not declared (presets: {})",
                self.presets.join(", ")
            ));
        }
        if let Ok(base) = crate::rules::Rules::preset(preset) {
            let (mine, theirs) = (json!(rules), json!(base));
            for (name, _, _) in crate::rules::OPTIONS {
                let v = &mine[*name];
                if *v == theirs[*name] {
                    continue;
                }
                let ok = match self.options.get(*name) {
                    Some(Value::String(a)) => a == "any",
                    Some(Value::Array(vals)) => vals.contains(v),
                    _ => false,
                };
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

/// The answer to a `capabilities` request: the protocol versions spoken, the implementation's
/// name and version, and its capabilities.
pub fn capabilities_answer(id: Value, caps: &Capabilities) -> Value {
    let ans = CapabilitiesAnswer {
        protocol: Some(PROTOCOL.to_string()),
        id,
        protocols: vec![PROTOCOL.to_string()],
        implementation: Implementation {
            name: "m3go".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        capabilities: caps.clone(),
    };
    serde_json::to_value(ans).unwrap_or(Value::Null)
}

