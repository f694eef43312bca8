//! Rule sets as data (KataGo-style): one field per independent choice, named presets that fill
//! the fields, overrides from YAML with unknown keys refused. Every option names the entry of
//! rules.md's disputed-points register that motivates it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// How a flower string's upper attribute is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttributeRule {
    /// 003 / 001: Hs, Hw, Bs, Bw.
    M2020,
    /// 000: private-eye strings first, then all adjacent strings.
    M2016,
    /// 000's summary of 2013: adjacent black stones against adjacent white stones.
    M2013,
    /// 004 Dullstone / Flystone: flower strings are always neutral.
    AlwaysNeutral,
}

/// Which private-eye definition feeds the attribute rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EyeRule {
    /// 003: conditions 1 and 2 with the fill simulation.
    M2020,
    /// 000: capture inside with one outside liberty; no nested private eye; no long-living string.
    M2016,
}

/// What bounds a closed region (register D1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClosedRegion {
    /// Only the string itself, the edge and the flowers bound its regions (003's figures 4, 6, 7
    /// and region T hold other strings inside the region).
    SingleString,
    /// Every string of the same colour is a wall.
    SameColour,
}

/// Whose one-liberty eyes and tiger's mouths forbid a player's flower (register D4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ForbiddenOwner {
    /// 003: "黑棋或白棋的" — either colour's.
    Any,
    /// 004: "彼方" — only the opponent's.
    Opponent,
}

/// How a flower move is checked for captures (registers D6, D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlowerCaptureCheck {
    /// 003 "禁着点判断在上层棋局中进行": judged on the upper layer before the stone is placed;
    /// removals caused later by attribute changes happen.
    Static,
    /// A flower move after which any stone would be removed is a capture point.
    Cascade,
}

/// Suicide (register D9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Suicide {
    Forbidden,
    Allowed,
}

/// Ko (register D9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ko {
    None,
    /// A move may not recreate the direct board as it stood before the previous move.
    Simple,
    /// A move may not recreate any earlier direct board.
    Positional,
    /// A move may not recreate an earlier direct board with the same next turn.
    Situational,
}

/// Who plays which stone when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Schedule {
    /// 003 / 001 / 004: ten-move cycle, moves 9 and 10 of each cycle are the flowers.
    Cycle10,
    /// 000: four players, rounds; grey joins from round 31.
    Team2016,
    /// 004 Flystone: ordinary alternation plus three flystone rounds per side.
    Flystone,
    /// Plain alternation of black and white, no flower turns.
    Alternate,
}

/// When the game ends (register D10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameEnd {
    /// Two consecutive black/white-turn moves were passes, with only passes between.
    TwoStoneTurnPasses,
    /// Any two consecutive passes.
    TwoPasses,
}

/// Flystone mode (004): A one random + two chosen, B three random, C three chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlystoneMode {
    A,
    B,
    C,
}

/// Komi in quarter points: the margin black's area must exceed white's (register D11).
/// Written in YAML as a number of points, a multiple of 0.25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Komi(pub i32);

impl Komi {
    pub fn quarters(self) -> i32 {
        self.0
    }
    pub fn points(self) -> f64 {
        f64::from(self.0) / 4.0
    }
}

impl Serialize for Komi {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.points())
    }
}

impl<'de> Deserialize<'de> for Komi {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Komi, D::Error> {
        let v = f64::deserialize(d)?;
        let q = v * 4.0;
        if !v.is_finite() || q.fract() != 0.0 || q.abs() > 4.0 * 400.0 {
            return Err(serde::de::Error::custom(format!(
                "komi {v} is not allowed: expected a number of points that is a multiple of 0.25, between -400 and 400"
            )));
        }
        Ok(Komi(q as i32))
    }
}

/// A complete rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Rules {
    /// The preset these rules started from.
    pub preset: String,
    pub attribute: AttributeRule,
    pub private_eye: EyeRule,
    pub closed_region: ClosedRegion,
    pub forbidden_owner: ForbiddenOwner,
    /// Whether the tiger's mouth is a forbidden point for flowers (2020: yes; 2016: no).
    pub tigers_mouth: bool,
    pub flower_capture_check: FlowerCaptureCheck,
    pub suicide: Suicide,
    pub ko: Ko,
    pub schedule: Schedule,
    pub game_end: GameEnd,
    pub komi: Komi,
    /// 004's "花子条件变黑白": a flower turn may place a black/white stone to save a string in atari.
    pub emergency_conversion: bool,
    pub flystone_mode: FlystoneMode,
    /// Seed of the random flystone timings (modes A and B).
    pub flystone_seed: u64,
}

/// Names of the presets, in the order `m3go rules` lists them.
pub const PRESETS: [&str; 5] = [
    "m3go-2020",
    "m3go-2016",
    "m3go-2013",
    "dullstone",
    "flystone",
];

impl Rules {
    /// M3Go 2020 (003 with 001): the default.
    pub fn m3go_2020() -> Rules {
        Rules {
            preset: "m3go-2020".into(),
            attribute: AttributeRule::M2020,
            private_eye: EyeRule::M2020,
            closed_region: ClosedRegion::SingleString,
            forbidden_owner: ForbiddenOwner::Any,
            tigers_mouth: true,
            flower_capture_check: FlowerCaptureCheck::Static,
            suicide: Suicide::Forbidden,
            ko: Ko::Simple,
            schedule: Schedule::Cycle10,
            game_end: GameEnd::TwoStoneTurnPasses,
            komi: Komi(0),
            emergency_conversion: false,
            flystone_mode: FlystoneMode::C,
            flystone_seed: 0,
        }
    }

    /// A preset by name; the error lists the valid names.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        let base = Rules::m3go_2020();
        let r = match name {
            "m3go-2020" => base,
            "m3go-2016" => Rules {
                preset: name.into(),
                attribute: AttributeRule::M2016,
                private_eye: EyeRule::M2016,
                tigers_mouth: false,
                schedule: Schedule::Team2016,
                ..base
            },
            "m3go-2013" => Rules {
                preset: name.into(),
                attribute: AttributeRule::M2013,
                private_eye: EyeRule::M2016,
                tigers_mouth: false,
                schedule: Schedule::Team2016,
                ..base
            },
            "dullstone" => Rules {
                preset: name.into(),
                attribute: AttributeRule::AlwaysNeutral,
                forbidden_owner: ForbiddenOwner::Opponent,
                emergency_conversion: true,
                komi: Komi(30),
                ..base
            },
            "flystone" => Rules {
                preset: name.into(),
                attribute: AttributeRule::AlwaysNeutral,
                forbidden_owner: ForbiddenOwner::Opponent,
                schedule: Schedule::Flystone,
                komi: Komi(30),
                ..base
            },
            other => {
                return Err(RulesError(format!(
                    "unknown rule preset `{other}`: expected one of {}",
                    PRESETS.join(", ")
                )))
            }
        };
        Ok(r)
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::m3go_2020()
    }
}

/// A rule-set problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Overrides over a preset, as written in YAML: `{ preset: dullstone, ko: positional }`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RulesSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<AttributeRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_eye: Option<EyeRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_region: Option<ClosedRegion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbidden_owner: Option<ForbiddenOwner>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tigers_mouth: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flower_capture_check: Option<FlowerCaptureCheck>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suicide: Option<Suicide>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ko: Option<Ko>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_end: Option<GameEnd>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub komi: Option<Komi>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emergency_conversion: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flystone_mode: Option<FlystoneMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flystone_seed: Option<u64>,
}

/// The `rules:` value of a position: a preset name or a mapping of overrides.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RulesField {
    Name(String),
    Spec(RulesSpec),
}

impl Default for RulesField {
    fn default() -> RulesField {
        RulesField::Name("m3go-2020".into())
    }
}

impl RulesSpec {
    /// The rules: the preset (m3go-2020 if none) with the overrides applied.
    pub fn resolve(&self) -> Result<Rules, RulesError> {
        let mut r = Rules::preset(self.preset.as_deref().unwrap_or("m3go-2020"))?;
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = self.$f.clone() { r.$f = v; } )* };
        }
        set!(
            attribute,
            private_eye,
            closed_region,
            forbidden_owner,
            tigers_mouth,
            flower_capture_check,
            suicide,
            ko,
            schedule,
            game_end,
            komi,
            emergency_conversion,
            flystone_mode,
            flystone_seed
        );
        Ok(r)
    }
}

impl RulesField {
    pub fn resolve(&self) -> Result<Rules, RulesError> {
        match self {
            RulesField::Name(n) => Rules::preset(n),
            RulesField::Spec(s) => s.resolve(),
        }
    }
}

/// One line per option for `m3go rules`: name, values, meaning.
pub const OPTIONS: &[(&str, &str, &str)] = &[
    (
        "attribute",
        "m2020 | m2016 | m2013 | always-neutral",
        "how a flower string's upper attribute is decided",
    ),
    (
        "private-eye",
        "m2020 | m2016",
        "which private-eye definition feeds the attribute rule",
    ),
    (
        "closed-region",
        "single-string | same-colour",
        "what bounds a closed region (register D1)",
    ),
    (
        "forbidden-owner",
        "any | opponent",
        "whose one-liberty eyes / tiger's mouths forbid a flower (D4)",
    ),
    (
        "tigers-mouth",
        "true | false",
        "whether tiger's mouths are flower forbidden points",
    ),
    (
        "flower-capture-check",
        "static | cascade",
        "capture point judged before the flower is placed, or after its attribute cascade (D6, D8)",
    ),
    (
        "suicide",
        "forbidden | allowed",
        "a move leaving the mover's own string without liberty (D9)",
    ),
    (
        "ko",
        "none | simple | positional | situational",
        "which repeated positions are refused (D9)",
    ),
    (
        "schedule",
        "cycle10 | team2016 | flystone | alternate",
        "who plays which stone when",
    ),
    (
        "game-end",
        "two-stone-turn-passes | two-passes",
        "which passes end the game (D10)",
    ),
    (
        "komi",
        "points, multiple of 0.25",
        "margin black's area must exceed white's (D11)",
    ),
    (
        "emergency-conversion",
        "true | false",
        "Dullstone's 花子条件变黑白 (conditions P and Q)",
    ),
    (
        "flystone-mode",
        "A | B | C",
        "Flystone: one random + two chosen, three random, three chosen",
    ),
    (
        "flystone-seed",
        "integer",
        "seed of the random flystone timings",
    ),
];
