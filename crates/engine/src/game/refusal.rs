//! Why a move is refused: one variant per reason, each with its stable code (written in JSON
//! answers, replay logs and conformance cases), the clause that refuses it, and its text in
//! Chinese (003's log) and English.

use crate::judge::forbidden::Forbidden;
use crate::rules::Schedule;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The reason a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// GO-END: the game is over by passes.
    GameOver,
    /// The move is not this move's turn under the schedule: its number or the claimed turn
    /// (M20-ORDER; M16-TEAM-CYCLE in the 2016 team format; S3-ROUND under Flystone).
    WrongTurn(Schedule),
    /// S3-COUNT: a chosen flystone claimed by a player who has none left.
    NoFlystone,
    /// D3-EMERGENCY-P: an emergency conversion without a string put in atari by the previous
    /// move.
    ConversionP,
    /// D3-EMERGENCY-Q: an emergency conversion not on the single liberty of such a string (or a
    /// pass).
    ConversionQ,
    /// M16-COORD: the point is off the board.
    OffBoard,
    /// M20-STRING: the point is occupied.
    Occupied,
    /// M20-FORBID-CAPTURE: a flower on a capture point, or a flower whose attribute cascade
    /// would remove stones (D9).
    CapturePoint,
    /// M20-FORBID-EYE: a flower in a one-liberty eye.
    OneLibertyEye,
    /// M20-FORBID-TIGER: a flower in a tiger's mouth.
    TigersMouth,
    /// GO-SUICIDE: the move would leave a string of the mover without a liberty.
    Suicide,
    /// GO-KO: the move repeats a position the ko rule forbids.
    Ko,
}

impl Refusal {
    /// Every refusal (the wrong turn once per schedule).
    pub const ALL: [Refusal; 15] = [
        Refusal::GameOver,
        Refusal::WrongTurn(Schedule::Cycle10),
        Refusal::WrongTurn(Schedule::Team2016),
        Refusal::WrongTurn(Schedule::Flystone),
        Refusal::WrongTurn(Schedule::Alternate),
        Refusal::NoFlystone,
        Refusal::ConversionP,
        Refusal::ConversionQ,
        Refusal::OffBoard,
        Refusal::Occupied,
        Refusal::CapturePoint,
        Refusal::OneLibertyEye,
        Refusal::TigersMouth,
        Refusal::Suicide,
        Refusal::Ko,
    ];

    /// The stable reason code (kebab-case), as written in JSON answers and case files.
    pub fn code(self) -> &'static str {
        match self {
            Refusal::GameOver => "game-over",
            Refusal::WrongTurn(_) => "wrong-turn",
            Refusal::NoFlystone => "no-flystone",
            Refusal::ConversionP => "conversion-p",
            Refusal::ConversionQ => "conversion-q",
            Refusal::OffBoard => "off-board",
            Refusal::Occupied => "occupied",
            Refusal::CapturePoint => "capture-point",
            Refusal::OneLibertyEye => "one-liberty-eye",
            Refusal::TigersMouth => "tigers-mouth",
            Refusal::Suicide => "suicide",
            Refusal::Ko => "ko",
        }
    }

    /// The clause that refuses the move.
    pub fn clause(self) -> &'static str {
        match self {
            Refusal::GameOver => "GO-END",
            Refusal::WrongTurn(Schedule::Team2016) => "M16-TEAM-CYCLE",
            Refusal::WrongTurn(Schedule::Flystone) => "S3-ROUND",
            Refusal::WrongTurn(Schedule::Cycle10 | Schedule::Alternate) => "M20-ORDER",
            Refusal::NoFlystone => "S3-COUNT",
            Refusal::ConversionP => "D3-EMERGENCY-P",
            Refusal::ConversionQ => "D3-EMERGENCY-Q",
            Refusal::OffBoard => "M16-COORD",
            Refusal::Occupied => "M20-STRING",
            Refusal::CapturePoint => "M20-FORBID-CAPTURE",
            Refusal::OneLibertyEye => "M20-FORBID-EYE",
            Refusal::TigersMouth => "M20-FORBID-TIGER",
            Refusal::Suicide => "GO-SUICIDE",
            Refusal::Ko => "GO-KO",
        }
    }

    /// The reason in Chinese, as 003's mechanical-replay log gives it.
    pub fn zh(self) -> &'static str {
        match self {
            Refusal::Occupied => "该点已有棋子",
            Refusal::OffBoard => "超出棋盘",
            Refusal::Suicide => "自杀禁着",
            Refusal::Ko => "打劫禁着（同形再现）",
            Refusal::CapturePoint => "花子“提吃点”禁着",
            Refusal::OneLibertyEye => "花子“一气眼”禁着",
            Refusal::TigersMouth => "花子“虎口”禁着",
            Refusal::GameOver => "终局之后",
            Refusal::WrongTurn(_) => "次序不符",
            Refusal::NoFlystone | Refusal::ConversionP | Refusal::ConversionQ => "规则不允许",
        }
    }

    /// The reason in English.
    pub fn en(self) -> &'static str {
        match self {
            Refusal::Occupied => "the point is occupied",
            Refusal::OffBoard => "off the board",
            Refusal::Suicide => "suicide",
            Refusal::Ko => "ko (a repeated position)",
            Refusal::CapturePoint => "a capture point, forbidden to a flower",
            Refusal::OneLibertyEye => "a one-liberty eye, forbidden to a flower",
            Refusal::TigersMouth => "a tiger's mouth, forbidden to a flower",
            Refusal::GameOver => "after the end of the game",
            Refusal::WrongTurn(_) => "not this move's turn",
            Refusal::NoFlystone | Refusal::ConversionP | Refusal::ConversionQ => {
                "refused by the rules"
            }
        }
    }
}

impl From<Forbidden> for Refusal {
    /// A flower's forbidden point (M20-FORBID-CAPTURE, M20-FORBID-EYE, M20-FORBID-TIGER).
    fn from(f: Forbidden) -> Self {
        match f {
            Forbidden::CapturePoint => Refusal::CapturePoint,
            Forbidden::OneLibertyEye(_) => Refusal::OneLibertyEye,
            Forbidden::TigersMouth(_) => Refusal::TigersMouth,
        }
    }
}

impl fmt::Display for Refusal {
    /// The code.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Refusal {
    /// Serialized as its code.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// The codes, each once, in the order of [`Refusal::ALL`] (the values a case or an answer may
/// write).
const CODES: [&str; 12] = [
    "game-over",
    "wrong-turn",
    "no-flystone",
    "conversion-p",
    "conversion-q",
    "off-board",
    "occupied",
    "capture-point",
    "one-liberty-eye",
    "tigers-mouth",
    "suicide",
    "ko",
];

impl<'de> Deserialize<'de> for Refusal {
    /// Read from its code. The code does not say the schedule: `wrong-turn` reads as the first
    /// of [`Refusal::ALL`]'s wrong turns, so a refusal read back serializes to the same code.
    /// An unknown code is refused, naming the codes.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Refusal, D::Error> {
        let code = String::deserialize(d)?;
        Refusal::ALL
            .into_iter()
            .find(|r| r.code() == code)
            .ok_or_else(|| serde::de::Error::unknown_variant(&code, &CODES))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_kebab_case_and_forbidden_points_keep_theirs() {
        for r in Refusal::ALL {
            assert!(r.code().chars().all(|c| c.is_ascii_lowercase() || c == '-'));
            assert!(!r.clause().is_empty() && !r.zh().is_empty() && !r.en().is_empty());
        }
        for (f, r) in [
            (Forbidden::CapturePoint, Refusal::CapturePoint),
            (
                Forbidden::OneLibertyEye(crate::Colour::White),
                Refusal::OneLibertyEye,
            ),
            (
                Forbidden::TigersMouth(crate::Colour::White),
                Refusal::TigersMouth,
            ),
        ] {
            assert_eq!(Refusal::from(f), r);
            assert_eq!((r.code(), r.clause()), (f.code(), f.clause()));
        }
        assert_eq!(
            serde_json::to_string(&Refusal::WrongTurn(Schedule::Team2016)).ok(),
            Some("\"wrong-turn\"".to_string())
        );
    }

    #[test]
    fn codes_read_back_to_the_same_code_and_unknown_ones_are_refused() {
        let codes: Vec<&str> = Refusal::ALL.iter().map(|r| r.code()).collect();
        for c in CODES {
            assert!(codes.contains(&c), "{c}");
        }
        for r in Refusal::ALL {
            assert!(CODES.contains(&r.code()));
            let json = serde_json::to_string(&r).ok();
            let back: Option<Refusal> = json.as_deref().and_then(|j| serde_json::from_str(j).ok());
            assert_eq!(back.map(Refusal::code), Some(r.code()));
        }
        let err = serde_json::from_str::<Refusal>("\"blocked\"")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("blocked") && err.contains("tigers-mouth"),
            "{err}"
        );
    }
}
