//! SGF (FF\[4\]) records through the `sgf-parse` crate, with m3go's documented extension
//! (spec/README.md, "SGF"): a flower move is an ordinary `B`/`W` move node that also carries the
//! private property `FL[]`; the root names the rules with `RU[preset]` and, in full, with the
//! private property `TCR[json]`; set-up flower stones are `AF[..]`. Ordinary two-colour SGF
//! files load unchanged (unknown and malformed properties such as the Fan Hui files' `KO[7.5]`
//! or `RD[...]` are kept as information or ignored, never refused).
//!
//! This file holds the extension's properties, the point mapping and the property pattern both
//! directions share; reading is in `read` (`parse_record`), writing in `write`
//! ([`Record::to_sgf`](crate::formats::record::Record::to_sgf)).

use crate::board::coord::Point;
use crate::game::play::Action;
use sgf_parse::go::Point as SgfPoint;

/// The private property marking a flower move (`B[dd]FL[]` = 华, `W[dd]FL[]` = 花).
pub(crate) const FLOWER_PROP: &str = "FL";
/// The private root property holding the whole rule set as JSON (what `m3go rules` prints).
pub(crate) const RULES_PROP: &str = "TCR";
/// The private set-up property for flower stones (like `AB` / `AW`).
pub(crate) const ADD_FLOWER_PROP: &str = "AF";
/// Most nodes m3go reads from one SGF file.
pub(crate) const MAX_NODES: usize = 20_000;

/// Game-information properties that are read as another one: `RD` (the date, in some files)
/// and `KO` (the komi, in the Fan Hui files; FF\[4\]'s `KO` takes no value).
const INFO_ALIASES: [(&str, &str); 2] = [("RD", "DT"), ("KO", "KM")];

/// The private property of a move the rules refused in a mechanical replay (M20-REPLAY-PASS):
/// `B[]RF[dd]` = the record's move at dd was refused and a pass played instead.
pub(crate) const REPLACED_PROP: &str = "RF";

/// The pattern of the game-information properties whose value is simple text, binding it to
/// `$t` (one list for the reader, [`info_value`], and the writer, [`info_prop`]).
macro_rules! simple_text_info {
    ($t:ident) => {
        Prop::PB($t)
            | Prop::PW($t)
            | Prop::BR($t)
            | Prop::WR($t)
            | Prop::BT($t)
            | Prop::WT($t)
            | Prop::RE($t)
            | Prop::DT($t)
            | Prop::EV($t)
            | Prop::RO($t)
            | Prop::PC($t)
            | Prop::GN($t)
            | Prop::ON($t)
            | Prop::SO($t)
            | Prop::AN($t)
            | Prop::US($t)
            | Prop::CP($t)
            | Prop::OT($t)
            | Prop::RU($t)
    };
}

mod read;
mod write;

#[cfg(feature = "testing")]
pub use read::parse_record;
#[cfg(not(feature = "testing"))]
pub(crate) use read::parse_record;

/// An SGF point on a board of `size`; `tt` on boards up to 19 is the FF\[3\] pass.
fn sgf_point(p: SgfPoint, size: usize) -> Option<Action> {
    let n = size as u8;
    if p.x < n && p.y < n {
        let h = Point::half(size);
        Some(Action::Place(Point::new(
            i32::from(p.x) - h,
            h - i32::from(p.y),
        )))
    } else if p.x == 19 && p.y == 19 && size <= 19 {
        Some(Action::Pass)
    } else {
        None
    }
}

/// The SGF point of a board point.
pub(crate) fn to_sgf_point(p: Point, size: usize) -> SgfPoint {
    let h = Point::half(size);
    SgfPoint {
        x: (p.x + h) as u8,
        y: (h - p.y) as u8,
    }
}

/// An SGF point as written: `a`–`z` for 0–25, `A`–`Z` for 26–51 (`EE` is off every m3go
/// board, and is written `EE` in the message).
fn sgf_coord(p: SgfPoint) -> String {
    let letter = |v: u8| match v {
        0..=25 => (b'a' + v) as char,
        26..=51 => (b'A' + v - 26) as char,
        _ => '?',
    };
    format!("{}{}", letter(p.x), letter(p.y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::record::Record;
    use crate::rules::{Rules, RulesField};

    #[test]
    fn sgf_extension_round_trips_flower_moves_and_rules() {
        let text = "(;FF[4]GM[1]SZ[9]RU[dullstone];B[ee];W[ce];B[];W[dd]FL[])";
        let r = parse_record(text, "t").unwrap();
        assert_eq!(r.size, 9);
        assert_eq!(r.rules, Some(RulesField::Name("dullstone".into())));
        assert_eq!(r.moves.len(), 4);
        assert_eq!(r.moves[0].action, Action::Place(Point::new(0, 0)));
        assert_eq!(r.moves[2].action, Action::Pass);
        assert_eq!(r.moves[3].claimed.map(|t| t.symbol()), Some('花'));
        let rules = Rules::preset("dullstone").unwrap();
        let out = r.to_sgf(&rules).unwrap();
        let back = parse_record(&out, "out").unwrap();
        assert_eq!(back.moves, {
            let mut m = r.moves.clone();
            for (a, b) in m.iter_mut().zip(back.moves.iter()) {
                a.place = b.place.clone();
                a.text = b.text.clone();
            }
            m
        });
        assert!(out.contains("FL[]"), "{out}");
        assert!(out.contains("TCR["), "{out}");
    }

    /// Issue 14 item 7: comments, game information and time settings survive `convert` both
    /// ways (SGF → game file → SGF), `#` in a value included; the komi is written once.
    #[test]
    fn sgf_comments_game_information_and_time_survive_both_ways() {
        let text =
            "(;FF[4]GM[1]SZ[9]RU[m3go-2020]EV[Cup #5: final]PB[A \\] B \\\\ C]PW[W]TM[300]OT[3x30 byo-yomi]\
                    PC[Wuzhen]GN[g1]C[root comment\nsecond line]\
                    ;B[ee]C[first move {braces}]\n;W[cc];B[];W[gg]C[end # not a comment])";
        let r = parse_record(text, "t.sgf").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.info("event"), Some("Cup #5: final"));
        assert_eq!(r.info("black"), Some("A ] B \\ C"));
        assert_eq!(r.info("time"), Some("300"));
        assert_eq!(r.info("overtime"), Some("3x30 byo-yomi"));
        assert_eq!(r.info("comment"), Some("root comment\nsecond line"));
        assert_eq!(r.moves[0].comment.as_deref(), Some("first move {braces}"));
        assert_eq!(r.moves[3].comment.as_deref(), Some("end # not a comment"));
        let rules = r.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
        let game = r
            .to_game_text(&rules, crate::board::coord::Labels::Chinese)
            .unwrap_or_else(|e| panic!("{e}"));
        let back = crate::formats::record::Record::parse_game_text(
            &game,
            "t.txt",
            crate::formats::record::StartFiles::Refused,
        )
        .unwrap_or_else(|e| panic!("{e}\n{game}"));
        assert_eq!(back.info, r.info, "{game}");
        let comments = |r: &Record| -> Vec<Option<String>> {
            r.moves.iter().map(|m| m.comment.clone()).collect()
        };
        assert_eq!(comments(&back), comments(&r), "{game}");
        let sgf = back.to_sgf(&rules).unwrap_or_else(|e| panic!("{e}"));
        let again = parse_record(&sgf, "again.sgf").unwrap_or_else(|e| panic!("{e}\n{sgf}"));
        assert_eq!(again.info, r.info, "{sgf}");
        assert_eq!(comments(&again), comments(&r), "{sgf}");
        assert_eq!(sgf.matches("KM[").count(), 1, "{sgf}");
    }

    /// The komi is written once, as the rules' komi: flystone's 7.5 is written (`TCR` holds the
    /// rules in their smallest form, the preset alone, whose komi it is), an ordinary
    /// record's KM[7.5] becomes the two-colour rules' komi, and a komi that disagrees with the
    /// rules the record names is an error.
    #[test]
    fn sgf_komi_is_the_rules_komi() {
        let r =
            parse_record("(;SZ[9]RU[flystone];B[ee])", "f.sgf").unwrap_or_else(|e| panic!("{e}"));
        let rules = r.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
        let sgf = r.to_sgf(&rules).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            sgf.contains("KM[7.5]") && sgf.contains("TCR[{\"preset\":\"flystone\"}]"),
            "{sgf}"
        );
        let back = parse_record(&sgf, "f2.sgf").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.resolve_rules(None).ok(), Some(rules.clone()), "{sgf}");
        let r = parse_record("(;SZ[9]KM[7.5];B[ee])", "g.sgf").unwrap_or_else(|e| panic!("{e}"));
        let rules = r.resolve_rules(None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rules.komi.points(), 7.5);
        let sgf = r.to_sgf(&rules).unwrap_or_else(|e| panic!("{e}"));
        assert!(sgf.contains("KM[7.5]") && !sgf.contains("KM[0]"), "{sgf}");
        let e = parse_record("(;SZ[9]RU[m3go-2020]KM[6.5];B[ee])", "h.sgf").unwrap_err();
        assert!(
            e.to_string()
                .contains("h.sgf: KM[6.5]: the record's komi disagrees with the komi 0"),
            "{e}"
        );
    }

    #[test]
    fn sgf_structure_errors_name_line_and_column() {
        let e = parse_record("(;FF[4]\n;B[dd];W[ee", "x.sgf").unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        let e = parse_record("(;SZ[9];B[dd];W[zz])", "x.sgf").unwrap_err();
        assert!(e.to_string().contains("move 2"), "{e}");
        let e = parse_record("(;SZ[9];B[dd]", "x.sgf").unwrap_err();
        assert!(e.to_string().contains("open game tree"), "{e}");
    }
}
