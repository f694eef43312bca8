//! Rule sets as data (KataGo-style): one field per independent choice, named presets that fill
//! the fields, overrides from YAML with unknown keys refused. Every option names the entry of
//! rules.md's disputed-points register that motivates it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// How a flower string's upper attribute is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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

/// Whether the 2013 rule's attribute of a grey string is kept once every point next to it has
/// been occupied (register D21; read only under `attribute: m2013`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum GreyFreeze {
    /// The default: the attribute a grey string has when the last point next to it is occupied
    /// is kept while the string stands as it is, even if a neighbour is later captured (000
    /// "当此灰棋串的所有紧邻点被占完后，灰棋串的属性也就被定格，失去了再变化的可能").
    #[default]
    Kept,
    /// The attribute is recomputed from the board after every move: it cannot change while
    /// every point next to the string stays occupied, and can again once a capture empties one.
    Recomputed,
}

/// Which private-eye definition feeds the attribute rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EyeRule {
    /// 003: conditions 1 and 2 with the fill simulation.
    M2020,
    /// 000: capture inside with one outside liberty; no nested private eye; no long-living string.
    M2016,
}

/// What bounds a closed region (register D1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ClosedRegion {
    /// Only the string itself, the edge and the flowers bound its regions (003's figures 4, 6, 7
    /// and region T hold other strings inside the region).
    SingleString,
    /// Every string of the same colour is a wall.
    SameColour,
}

/// Which parts a string cuts the board into are its 2016 closed regions (000 九.1, M16-REGION,
/// register D26). The parts are the 4-connected components of the board without the string's
/// stones (every other stone, grey included, counted as a point of its part).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ClosedRegion2016 {
    /// Only the inside of the ring band (000 九.1 "此环状带可以将棋盘分成内部区域和外部区域…则此内部区域即为
    /// 封闭区域"): every part except the outer one, in D27's terms — the part touching the edge that
    /// is strictly larger than every other part touching the edge. A string that cuts nothing off
    /// (a lone stone) has no closed region.
    #[default]
    Inside,
    /// Every part, the outer one (the rest of the board) included, as 003's region T does for
    /// 2020 (the default before issue 37).
    WholeBoard,
}

/// Which 2016 common eyes are false eyes (000 九.4, 九.5, M16-FALSE-EYE, register D32).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FalseEye2016 {
    /// Go's false eye (九.4 "真眼是两色围棋中的概念，也适用于萌式三色围棋"): a common eye through which
    /// the opponent can capture a string sharing it, and also the diagonal false eye — a
    /// one-point eye with opponent stones on two of its diagonal points (one on the edge).
    #[default]
    TwoColourGo,
    /// Only a capture by a stone played inside the eye (九.5's sentence read to the letter, the
    /// reading before issue 52).
    InsideCapture,
}

/// Which regions neutral flowers enclose at scoring (M20-SCORE-NEUTRAL-ENCLOSED, register D27).
/// The regions are the 4-connected components of the upper layer's points that are not neutral
/// flowers; a region so enclosed that holds no long-living string counts for nobody.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FlowerEnclosed {
    /// The regions on the inner side of a wall of neutral flowers (with the edge): every part a
    /// wall cuts off except its outer part — the part touching the edge that is strictly the
    /// largest of those (000 九.1 "此内部区域即为封闭区域"). A pocket encloses the pocket, not the
    /// rest of the board.
    #[default]
    Inner,
    /// Every region, but only when the neutral flowers (with the edge) split those points into two
    /// or more regions (the default before issue 21: one pocket made the whole board enclosed).
    Split,
    /// Every region that touches a neutral flower, split or not (m3go before D27).
    Touching,
    /// Every region, flowers or not (the edge alone encloses the board).
    Any,
}

/// Where the private eyes that make a string long-living for scoring are judged (register D14).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum LongLifeEyes {
    /// On the holographic board (001 "判断棋串生死…都在全息棋局中进行"): a private eye counts only
    /// if no flower of the opponent's attribute touches it, through which the opponent could
    /// fill it.
    #[default]
    Holographic,
    /// On the lower layer, every private eye (000 "私眼皆是真眼" read alone; the default before
    /// issue 21).
    Lower,
}

/// Whose one-liberty eyes and tiger's mouths forbid a player's flower (register D5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ForbiddenOwner {
    /// 003: "黑棋或白棋的" — either colour's.
    Any,
    /// 004: "彼方" — only the opponent's.
    Opponent,
}

/// Which points are tiger's mouths forbidden to a flower (register D29).
/// Written `stones`, `upper-layer` or `none`; `true` means `stones` and `false` means `none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TigersMouth {
    /// 003's replay of Ke Jie vs AlphaGo: a colour's stones of the upper layer (stones and flowers
    /// of that attribute) and the board edge close the mouth; a neutral flower does not (default).
    Stones,
    /// The whole upper layer: a neutral flower, off-board there, closes the mouth like the edge.
    UpperLayer,
    /// No tiger's-mouth rule (000's 2016 text names only the capture point and the one-liberty eye).
    None,
}

impl TigersMouth {
    /// Whether the rule applies at all.
    pub fn applies(self) -> bool {
        self != TigersMouth::None
    }
}

impl schemars::JsonSchema for TigersMouth {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TigersMouth".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Which points are tiger's mouths forbidden to a flower (D29); true = stones, false = none.",
            "oneOf": [
                {"type": "string", "enum": ["stones", "upper-layer", "none", "true", "false"]},
                {"type": "boolean"}
            ]
        })
    }
}

impl<'de> Deserialize<'de> for TigersMouth {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TigersMouth, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = TigersMouth;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("one of stones, upper-layer, none (or true = stones, false = none)")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<TigersMouth, E> {
                Ok(if v {
                    TigersMouth::Stones
                } else {
                    TigersMouth::None
                })
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<TigersMouth, E> {
                match v {
                    "stones" | "true" => Ok(TigersMouth::Stones),
                    "upper-layer" => Ok(TigersMouth::UpperLayer),
                    "none" | "false" => Ok(TigersMouth::None),
                    other => Err(E::invalid_value(serde::de::Unexpected::Str(other), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// How a flower move is checked for captures (registers D7, D9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FlowerCaptureCheck {
    /// 003 "禁着点判断在上层棋局中进行" alone: judged on the upper layer before the stone is placed;
    /// removals caused later by attribute changes happen.
    Static,
    /// The default (D9): 003/004 "也即花子不具有提吃功能", 000 "灰子不具有提吃棋子的功能" — a flower
    /// move after which any stone would be removed by the cascade is refused as a capture point.
    Cascade,
}

/// When captures are judged relative to the attribute update a move causes (register D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureTiming {
    /// The stone goes onto the holographic board as it stands (the attributes of the position
    /// before the move); strings without liberty there are captured, attributed flowers with
    /// them (000 "当灰棋串变性为黑棋串或白棋串时，则可以当作黑子或白子被提吃"; 001 "全息棋局中提吃棋串时，
    /// 底层棋局中的对应棋串也同时被提走"); then attributes are recomputed and the cascade goes on.
    HolographicFirst,
    /// Private eyes and attributes are recomputed with the new stone before any capture is
    /// judged (an attributed flower then never dies with its string: filling the last liberty,
    /// inside the private eye, first unmakes the eye).
    RecomputeFirst,
}

/// Suicide (register D10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Suicide {
    Forbidden,
    Allowed,
}

/// When a move is judged suicide relative to the cascade (register D10).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum SuicideTiming {
    /// The default: at the fixpoint of the cascade, after the holographic-first round's
    /// attributes have been recomputed and every opponent capture is done (000 "下子方提吃对方无气
    /// 棋串中所有棋子，使下子方的无气棋串变为有气棋串").
    #[default]
    Fixpoint,
    /// In the first round under `capture-timing: holographic-first`: a move whose strings have
    /// no liberty on the holographic board as it stood (the stone added, its captures done) is
    /// suicide even if recomputing the attributes would capture more and give them liberties.
    FirstRound,
}

/// Ko (register D11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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

/// When the game ends (register D12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum GameEnd {
    /// Two consecutive black/white-turn moves were passes, with only passes between.
    TwoStoneTurnPasses,
    /// Any two consecutive passes.
    TwoPasses,
}

/// Flystone mode (004, S3-MODE-A/B/C): A one random + two chosen, B three random, C three
/// chosen (with `flystones: n`: A 1 random + n−1 chosen, B n random, C n chosen). Written `A`
/// or `a` (register D20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum FlystoneMode {
    #[serde(alias = "a")]
    A,
    #[serde(alias = "b")]
    B,
    #[serde(alias = "c")]
    C,
}

/// Komi in quarter points: the margin black's area must exceed white's (register D13).
/// Written in YAML as a number of points, a multiple of 0.25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Komi(pub i32);

impl Komi {
    /// Komi in quarter points.
    pub fn quarters(self) -> i32 {
        self.0
    }
    /// Komi in points (a quarter point is 0.25).
    pub fn points(self) -> f64 {
        f64::from(self.0) / 4.0
    }
}

impl Serialize for Komi {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.points())
    }
}

impl schemars::JsonSchema for Komi {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Komi".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Komi in points, a multiple of 0.25 (D13).",
            "type": "number",
            "multipleOf": 0.25,
            "minimum": -400,
            "maximum": 400
        })
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

/// The rule options, each written once: its field, its type, its key in YAML (serde's name and
/// the one `m3go rules` prints), its values and its meaning, with the field's doc comment and
/// serde attributes. From this one list `rule_options!` writes the `Rules` struct, the
/// `RulesSpec` struct of overrides (one `Option` per option), the overrides step of
/// `RulesSpec::resolve` and the `Rules::OPTIONS` table of `m3go rules`, so the four cannot drift
/// apart. An option written `TYPE | None` is absent by default (`Option<TYPE>` in `Rules`, still
/// one `Option<TYPE>` in `RulesSpec`). The order is the order of the JSON and YAML written and
/// of `m3go rules`.
macro_rules! rule_options {
    ($(
        $(#[$attr:meta])*
        $field:ident: $ty:ty $(| $none:ident)?, $name:literal, $values:literal, $meaning:literal;
    )*) => {
        /// A complete rule set.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "kebab-case", deny_unknown_fields)]
        pub struct Rules {
            /// The preset these rules started from.
            pub preset: Preset,
            $(
                $(#[$attr])*
                #[serde(rename = $name)]
                pub $field: option_type!($ty $(| $none)?),
            )*
        }

        /// Overrides over a preset, as written in YAML: `{ preset: dullstone, ko: positional }`.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "kebab-case", deny_unknown_fields)]
        pub struct RulesSpec {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub preset: Option<String>,
            $(
                #[doc = $meaning]
                #[serde(rename = $name, default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }

        impl RulesSpec {
            /// Every option this spec writes replaces the one of `r`.
            fn override_options(&self, r: &mut Rules) {
                $( override_option(&mut r.$field, &self.$field); )*
            }

            /// The options of `rules` whose value is not `base`'s, each written (the others
            /// left out).
            fn differing(rules: &Rules, base: &Rules) -> RulesSpec {
                RulesSpec {
                    preset: None,
                    $( $field: differing_option(&rules.$field, &base.$field), )*
                }
            }
        }

        impl Rules {
            /// One line per option for `m3go rules`: name, values, meaning.
            pub const OPTIONS: &[(&str, &str, &str)] = &[$(($name, $values, $meaning)),*];
        }
    };
}

/// The type of an option's field in `Rules`: its type, or `Option` of it for an option absent
/// by default (`TYPE | None`).
macro_rules! option_type {
    ($ty:ty) => { $ty };
    ($ty:ty | None) => { Option<$ty> };
}

/// The value a `RulesSpec` writes for an option whose value is `value` where the preset's is
/// `base`: none when they are the same (for an option absent by default, none as well when
/// `value` is absent).
fn differing_option<T: Clone, U: PartialEq + Clone + Into<Option<T>>>(
    value: &U,
    base: &U,
) -> Option<T> {
    if value == base {
        None
    } else {
        value.clone().into()
    }
}

/// An override written in a `RulesSpec` (`T`) replaces the option's value (`U`: `T` itself, or
/// `Option<T>` for an option absent by default).
fn override_option<T: Clone + Into<U>, U>(option: &mut U, written: &Option<T>) {
    if let Some(v) = written {
        *option = v.clone().into();
    }
}

rule_options! {
    attribute: AttributeRule,
        "attribute",
        "m2020 | m2016 | m2013 | always-neutral",
        "how a flower string's upper attribute is decided";
    /// Whether a 2013 grey string fully surrounded keeps its attribute (register D21).
    #[serde(default)]
    grey_freeze: GreyFreeze,
        "grey-freeze",
        "kept | recomputed",
        "2013 rule: a grey string's attribute once every adjacent point is occupied is kept, or recomputed after captures (D21)";
    private_eye: EyeRule,
        "private-eye",
        "m2020 | m2016",
        "which private-eye definition feeds the attribute rule";
    closed_region: ClosedRegion,
        "closed-region",
        "single-string | same-colour",
        "what bounds a closed region (register D1)";
    /// Which parts a string cuts off are its 2016 closed regions (register D26).
    #[serde(default)]
    closed_region_2016: ClosedRegion2016,
        "closed-region-2016",
        "inside | whole-board",
        "2016 closed regions: only the inside of the string's ring band, or every part the string cuts the board into, the outer one included (D26)";
    /// Which 2016 common eyes are false eyes (register D32).
    #[serde(default)]
    false_eye_2016: FalseEye2016,
        "false-eye-2016",
        "two-colour-go | inside-capture",
        "2016 false eyes: Go's (also the diagonal false eye), or only a capture by a stone played inside the eye (D32)";
    /// Which regions neutral flowers enclose at scoring (register D27).
    #[serde(default)]
    flower_enclosed: FlowerEnclosed,
        "flower-enclosed",
        "inner | split | touching | any",
        "which regions neutral flowers enclose at scoring (D27)";
    /// Where the private eyes that make a string long-living for scoring are judged (register
    /// D14).
    #[serde(default)]
    long_life_eyes: LongLifeEyes,
        "long-life-eyes",
        "holographic | lower",
        "private eyes counted for long life at scoring: those no opponent-attributed flower touches, or all (D14)";
    forbidden_owner: ForbiddenOwner,
        "forbidden-owner",
        "any | opponent",
        "whose one-liberty eyes / tiger's mouths forbid a flower (D5)";
    /// Which tiger's mouths are forbidden points for flowers (2020: `stones`; 2016: `none`;
    /// register D29).
    tigers_mouth: TigersMouth,
        "tigers-mouth",
        "stones | upper-layer | none (true = stones, false = none)",
        "which tiger's mouths forbid a flower: closed by stones and the edge, also by neutral flowers, or no rule (D29)";
    flower_capture_check: FlowerCaptureCheck,
        "flower-capture-check",
        "static | cascade",
        "capture point judged before the flower is placed, or after its attribute cascade (D7, D9)";
    capture_timing: CaptureTiming,
        "capture-timing",
        "holographic-first | recompute-first",
        "captures judged on the holographic board as it stood, or after recomputing attributes (D8)";
    suicide: Suicide,
        "suicide",
        "forbidden | allowed",
        "a move leaving the mover's own string without liberty (D8, D10)";
    /// When suicide is judged relative to the cascade (register D10).
    #[serde(default)]
    suicide_timing: SuicideTiming,
        "suicide-timing",
        "fixpoint | first-round",
        "suicide judged when the cascade ends, or in its first (holographic-first) round (D10)";
    ko: Ko,
        "ko",
        "none | simple | positional | situational",
        "which repeated positions are refused (D11)";
    schedule: Schedule,
        "schedule",
        "cycle10 | team2016 | flystone | alternate",
        "who plays which stone when";
    game_end: GameEnd,
        "game-end",
        "two-stone-turn-passes | two-passes",
        "which passes end the game (D12)";
    komi: Komi,
        "komi",
        "points, multiple of 0.25",
        "margin black's area must exceed white's (D13)";
    /// 004's "花子条件变黑白": a flower turn may place a black/white stone to save a string in atari.
    emergency_conversion: bool,
        "emergency-conversion",
        "true | false",
        "Dullstone's 花子条件变黑白 (conditions P and Q)";
    flystone_mode: FlystoneMode,
        "flystone-mode",
        "A | B | C",
        "Flystone: one random + two chosen, three random, three chosen";
    /// Seed of the random flystone timings (modes A and B).
    flystone_seed: u64,
        "flystone-seed",
        "integer",
        "seed of the random flystone timings (splitmix64; D20)";
    /// Flystones per side (004 "每方3个飞石"; register D20).
    #[serde(default = "default_flystones")]
    flystones: u32,
        "flystones",
        "0..10000 (default 3)",
        "Flystone: flystones per side (D20)";
    /// Random flystone turns are drawn from each side's turns within the first this-many moves;
    /// absent = ⌊n²/2⌋ on an n×n board (register D20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    flystone_window: u32 | None,
        "flystone-window",
        "1..10000 moves (default n*n/2)",
        "Flystone: random flystones fall on a side's turns within the first this-many moves (D20)";
    /// Team format (000): the round in which the grey players join ("如从第31回合才开始下棋";
    /// register D22).
    #[serde(default = "default_team_grey_start")]
    team_grey_start: u32,
        "team-grey-start",
        "1..10000 (default 31)",
        "2016 team format: the round the grey players join (D22)";
}

fn default_flystones() -> u32 {
    3
}

fn default_team_grey_start() -> u32 {
    31
}

/// Largest `team-grey-start`, `flystones` and `flystone-window` accepted.
pub(crate) const MAX_ROUNDS: u32 = 10_000;

/// A rule set from its preset's name, or built in ([`Rules::m3go_2020`]):
///
/// ```
/// use m3go_engine::rules::Ko;
/// use m3go_engine::Rules;
///
/// let rules = Rules::preset("m3go-2020")?;
/// assert_eq!(rules, Rules::m3go_2020());
/// assert!(Rules::preset("no-such-rules").is_err());
/// assert_ne!(rules.ko, Ko::None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Rules {
    /// M3Go 2020 (003 with 001): the default.
    pub fn m3go_2020() -> Rules {
        Rules {
            preset: Preset::M3go2020,
            attribute: AttributeRule::M2020,
            grey_freeze: GreyFreeze::Kept,
            private_eye: EyeRule::M2020,
            closed_region: ClosedRegion::SingleString,
            closed_region_2016: ClosedRegion2016::Inside,
            false_eye_2016: FalseEye2016::TwoColourGo,
            flower_enclosed: FlowerEnclosed::Inner,
            long_life_eyes: LongLifeEyes::Holographic,
            forbidden_owner: ForbiddenOwner::Any,
            tigers_mouth: TigersMouth::Stones,
            flower_capture_check: FlowerCaptureCheck::Cascade,
            capture_timing: CaptureTiming::HolographicFirst,
            suicide: Suicide::Forbidden,
            suicide_timing: SuicideTiming::Fixpoint,
            ko: Ko::Simple,
            schedule: Schedule::Cycle10,
            game_end: GameEnd::TwoStoneTurnPasses,
            komi: Komi(0),
            emergency_conversion: false,
            flystone_mode: FlystoneMode::C,
            flystone_seed: 0,
            flystones: 3,
            flystone_window: None,
            team_grey_start: 31,
        }
    }

    /// A preset by name; the error lists the valid names. The clauses that name each preset
    /// are cited at its arm.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        let base = Rules::m3go_2020();
        let Some(preset) = Preset::named(name) else {
            return Err(RulesError {
                problems: vec![RulesProblem::UnknownPreset(
                    Rules::canonical_preset(name).to_string(),
                )],
            });
        };
        let r = match preset {
            Preset::M3go2020 => base,
            // M16-NAME: Meng three-colour Go, the 2016 text.
            Preset::M3go2016 => Rules {
                preset,
                attribute: AttributeRule::M2016,
                private_eye: EyeRule::M2016,
                tigers_mouth: TigersMouth::None,
                schedule: Schedule::Team2016,
                ..base
            },
            Preset::M3go2013 => Rules {
                preset,
                attribute: AttributeRule::M2013,
                private_eye: EyeRule::M2016,
                tigers_mouth: TigersMouth::None,
                schedule: Schedule::Team2016,
                ..base
            },
            // D3-NAME: Dullstone, M3Go without upper attributes; D3-KOMI: 3¾ stones = 7.5 points.
            Preset::Dullstone => Rules {
                preset,
                attribute: AttributeRule::AlwaysNeutral,
                forbidden_owner: ForbiddenOwner::Opponent,
                emergency_conversion: true,
                komi: Komi(30),
                ..base
            },
            // S3-NAME: Flystone. S3-FLOWER-SAME: Dullstone's flowers (always neutral, the
            // opponent's eyes and tigers' mouths forbidden, same komi); S3-FLOWER: no emergency
            // conversion (`emergency_conversion` stays false).
            Preset::Flystone => Rules {
                preset,
                attribute: AttributeRule::AlwaysNeutral,
                forbidden_owner: ForbiddenOwner::Opponent,
                schedule: Schedule::Flystone,
                flystone_mode: FlystoneMode::A,
                komi: Komi(30),
                ..base
            },
        };
        Ok(r)
    }
}

/// A named rule set, written by its name: `m3go-2020` (003), `m3go-2016` and `m3go-2013` (000),
/// `dullstone` and `flystone` (004).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Preset {
    #[serde(rename = "m3go-2020")]
    M3go2020,
    #[serde(rename = "m3go-2016")]
    M3go2016,
    #[serde(rename = "m3go-2013")]
    M3go2013,
    #[serde(rename = "dullstone")]
    Dullstone,
    #[serde(rename = "flystone")]
    Flystone,
}

impl Preset {
    /// Every preset, in the order `m3go rules` lists them.
    pub const ALL: [Preset; 5] = [
        Preset::M3go2020,
        Preset::M3go2016,
        Preset::M3go2013,
        Preset::Dullstone,
        Preset::Flystone,
    ];

    /// The preset's name, as rules files and records write it.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::M3go2020 => "m3go-2020",
            Preset::M3go2016 => "m3go-2016",
            Preset::M3go2013 => "m3go-2013",
            Preset::Dullstone => "dullstone",
            Preset::Flystone => "flystone",
        }
    }

    /// The preset a name (or one of the documents' short names,
    /// [`Rules::canonical_preset`]) names.
    pub fn named(name: &str) -> Option<Preset> {
        let name = Rules::canonical_preset(name);
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Rules {
    /// Names of the presets, in the order `m3go rules` lists them.
    pub const PRESETS: [&str; 5] = [
        Preset::ALL[0].name(),
        Preset::ALL[1].name(),
        Preset::ALL[2].name(),
        Preset::ALL[3].name(),
        Preset::ALL[4].name(),
    ];

    /// D3-NAME-ABBR / S3-NAME — "可以简称为钝石围棋（DullstoneGo）或钝围（D3Go）" (004), "可以简称为飞石围棋
    /// （FlystoneGo/S3Go）" (004): the documents' short names are accepted for the presets (case
    /// insensitive): `d3go`, `dullstonego` → `dullstone`; `s3go`, `flystonego` → `flystone`. Other
    /// names are returned unchanged.
    pub fn canonical_preset(name: &str) -> &str {
        match name.to_ascii_lowercase().as_str() {
            "d3go" | "dullstonego" | "dullstone-go" => "dullstone",
            "s3go" | "flystonego" | "flystone-go" => "flystone",
            _ => name,
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::m3go_2020()
    }
}

/// One rule-set problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesProblem {
    /// A preset name that is not one of [`Rules::PRESETS`].
    UnknownPreset(String),
    /// An option value outside its range: the option, the value, the range as words.
    OutOfRange {
        option: &'static str,
        value: u32,
        expected: String,
    },
}

impl fmt::Display for RulesProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesProblem::UnknownPreset(name) => write!(
                f,
                "unknown rule preset `{}`: expected one of {}",
                crate::error::InputError::quote(name),
                Rules::PRESETS.join(", ")
            ),
            RulesProblem::OutOfRange {
                option,
                value,
                expected,
            } => write!(f, "{option} {value} is out of range: expected {expected}"),
        }
    }
}

/// Why a rule set was refused: every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    pub problems: Vec<RulesProblem>,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::error::write_joined(f, &self.problems)
    }
}

impl std::error::Error for RulesError {}

/// As a bad input, with this error's message.
impl From<RulesError> for crate::error::InputError {
    fn from(e: RulesError) -> Self {
        crate::error::InputError::new(e.to_string())
    }
}

/// The `rules:` value of a position: a preset name or a mapping of overrides.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum RulesField {
    Name(String),
    Spec(RulesSpec),
}

/// Reads a preset name or a mapping; a bad mapping keeps its own message (an unknown key lists
/// the valid keys, an unknown value the valid values) instead of "no variant matched".
impl<'de> Deserialize<'de> for RulesField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RulesField, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RulesField;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(
                    f,
                    "a preset name ({}) or a mapping of rule options",
                    Rules::PRESETS.join(", ")
                )
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RulesField, E> {
                Ok(RulesField::Name(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<RulesField, A::Error> {
                RulesSpec::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(RulesField::Spec)
            }
        }
        d.deserialize_any(V)
    }
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
        self.override_options(&mut r);
        r.check()?;
        Ok(r)
    }
}

impl Rules {
    /// Checks the values that have a range: `team-grey-start` 1..=10000, `flystones` 0..=10000,
    /// `flystone-window` 1..=10000. The message names the option and the range.
    pub fn check(&self) -> Result<(), RulesError> {
        let mut problems = Vec::new();
        if !(1..=MAX_ROUNDS).contains(&self.team_grey_start) {
            problems.push(RulesProblem::OutOfRange {
                option: "team-grey-start",
                value: self.team_grey_start,
                expected: format!("a round from 1 to {MAX_ROUNDS}"),
            });
        }
        if self.flystones > MAX_ROUNDS {
            problems.push(RulesProblem::OutOfRange {
                option: "flystones",
                value: self.flystones,
                expected: format!("0 to {MAX_ROUNDS} per side"),
            });
        }
        if let Some(w) = self.flystone_window {
            if !(1..=MAX_ROUNDS).contains(&w) {
                problems.push(RulesProblem::OutOfRange {
                    option: "flystone-window",
                    value: w,
                    expected: format!("1 to {MAX_ROUNDS} moves"),
                });
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(RulesError { problems })
        }
    }
}

impl Rules {
    /// The rules in their smallest form, as m3go writes them for other programs (requests of
    /// every protocol, position files, dumped cases, records, SGF `TCR`): the preset and only
    /// the options whose value is not the preset's. An option added to m3go later is written
    /// only when set away from its preset's value, so a program that refuses unknown keys keeps
    /// reading what m3go sends (spec/README.md "Compatibility"); [`RulesSpec::resolve`] gives
    /// these rules back.
    pub fn to_spec(&self) -> RulesSpec {
        let base = Rules::preset(self.preset.name()).unwrap_or_default();
        RulesSpec {
            preset: Some(self.preset.to_string()),
            ..RulesSpec::differing(self, &base)
        }
    }
}

impl RulesField {
    /// The rules field that names `rules` in their smallest form ([`Rules::to_spec`]): the
    /// preset's name when they are exactly a preset, else the preset and the options that
    /// differ from it.
    pub fn of(rules: &Rules) -> RulesField {
        let spec = rules.to_spec();
        if spec
            == (RulesSpec {
                preset: spec.preset.clone(),
                ..RulesSpec::default()
            })
        {
            return RulesField::Name(rules.preset.to_string());
        }
        RulesField::Spec(spec)
    }

    /// The rules this field stands for: the named preset, or a preset with the options given
    /// over it; every problem found is in the error.
    pub fn resolve(&self) -> Result<Rules, RulesError> {
        match self {
            RulesField::Name(n) => Rules::preset(n),
            RulesField::Spec(s) => s.resolve(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each preset is named as the rules files write it: its rules carry it, it serializes as
    /// its name, `Rules::PRESETS` lists the names in `Preset::ALL`'s order, and the documents'
    /// short names (D3-NAME-ABBR, S3-NAME, any case) name Dullstone and Flystone.
    #[test]
    fn every_preset_is_named_as_written() {
        for (p, name) in Preset::ALL.into_iter().zip(Rules::PRESETS) {
            assert_eq!(p.name(), name);
            assert_eq!(Rules::preset(name).map(|r| r.preset).ok(), Some(p));
            assert_eq!(serde_json::to_value(p).ok(), Some(serde_json::json!(name)));
            assert_eq!(p.to_string(), name);
        }
        assert_eq!(Preset::named("D3Go"), Some(Preset::Dullstone));
        assert_eq!(Preset::named("FlystoneGo"), Some(Preset::Flystone));
        assert_eq!(Preset::named("m3go-2021"), None);
    }

    /// The smallest form: a preset writes its name alone, each option set away from its
    /// preset's value is the only option written, an option at its preset's value is never
    /// written (a key added later reaches no program at its default), and the form resolves
    /// back to the rules; an old full mapping still reads.
    #[test]
    fn rules_are_written_as_the_preset_and_the_options_that_differ() -> Result<(), RulesError> {
        for p in Preset::ALL {
            let r = Rules::preset(p.name())?;
            assert_eq!(RulesField::of(&r), RulesField::Name(p.name().into()));
            let spec = r.to_spec();
            let v = serde_json::to_value(&spec).map_err(|_| RulesError { problems: vec![] })?;
            assert_eq!(v, serde_json::json!({"preset": p.name()}));
            assert_eq!(spec.resolve()?, r);
            let full: RulesSpec = serde_json::to_value(&r)
                .ok()
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default();
            assert_eq!(full.resolve()?, r, "the full mapping still reads");
        }
        let dull = Rules {
            ko: Ko::Positional,
            grey_freeze: GreyFreeze::Recomputed,
            flystone_window: Some(7),
            ..Rules::preset("dullstone")?
        };
        let v = serde_json::to_value(RulesField::of(&dull)).unwrap_or_default();
        assert_eq!(
            v,
            serde_json::json!({"preset": "dullstone", "grey-freeze": "recomputed",
                "ko": "positional", "flystone-window": 7})
        );
        assert_eq!(dull.to_spec().resolve()?, dull);
        Ok(())
    }

    /// The keys `Rules` and `RulesSpec` write are `Rules::OPTIONS`'s names, in `Rules::OPTIONS`'s order, and a
    /// spec written from rules resolves back to them.
    #[test]
    fn options_table_names_every_key_written_in_order() {
        let all = Rules {
            flystone_window: Some(5),
            ..Rules::m3go_2020()
        };
        let spec: RulesSpec =
            serde_json::from_value(serde_json::to_value(&all).expect("rules serialize"))
                .expect("rules read back as a spec");
        for text in [
            serde_json::to_string(&all).expect("rules serialize"),
            serde_json::to_string(&spec).expect("spec serializes"),
        ] {
            let mut keys = vec!["preset"];
            keys.extend(Rules::OPTIONS.iter().map(|(name, _, _)| *name));
            let at: Vec<usize> = keys
                .iter()
                .map(|k| {
                    text.find(&format!("\"{k}\":"))
                        .expect("every option is written")
                })
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
            assert_eq!(text.matches("\":").count(), keys.len(), "{text}");
        }
        assert_eq!(spec.resolve(), Ok(all));
    }
}
