//! The upper attribute of a flower string from its neighbours' private eyes (M20-ATTR-*, 003
//! 选摘三; Q20-ATTR, 001).

use crate::board::grid::Colour;
use crate::board::layers::Attribute;
use crate::rules::AttributeRule;
use serde::Serialize;

/// The four counts of 003: adjacent black strings with (Hs) and without (Hw) a private eye,
/// adjacent white strings with (Bs) and without (Bw). 001 names them HEIy, HEIo, BAIy, BAIo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct Counts {
    pub hs: u32,
    pub hw: u32,
    pub bs: u32,
    pub bw: u32,
}

/// M20-ATTR-COUNT — "设花棋串A的紧邻有私眼黑棋串数量为Hs、紧邻无私眼黑棋串数量为Hw、紧邻有私眼白棋串数量
/// 为Bs、紧邻无私眼白棋串数量为Bw" (003). `adjacent` lists each distinct adjacent black/white
/// string once, as (is black, has a private eye).
/// Q20-ATTR-COUNT: 001's HEIy/BAIy/HEIo/BAIo are these counts of strings (not stones).
/// M16-CONV: the 2016 rule counts the same four kinds of adjacent string (with 2016 private eyes).
pub(crate) fn counts(adjacent: impl IntoIterator<Item = (bool, bool)>) -> Counts {
    let mut c = Counts::default();
    for (black, eyed) in adjacent {
        match (black, eyed) {
            (true, true) => c.hs += 1,
            (true, false) => c.hw += 1,
            (false, true) => c.bs += 1,
            (false, false) => c.bw += 1,
        }
    }
    c
}

/// M20-ATTR-1 … M20-ATTR-2C3 — 003's rule (= 001's Q20-ATTR with HEIy=Hs, BAIy=Bs, HEIo=Hw,
/// BAIo=Bw). Returns the attribute and the id of the branch that decided it:
/// 1 "当Hs+Bs=0 … 中性"; 2a "当Hs>Bs … 黑"; 2b "当Hs<Bs … 白"; 2c1 "当Hs=Bs … 当Hw>Bw … 黑";
/// 2c2 "当Hw<Bw … 白"; 2c3 "当Hw=Bw … 中性".
/// Q20-ATTR: 001's statement of the same rule; its branches are cited below with 003's.
pub(crate) fn attribute_2020(c: Counts) -> (Attribute, &'static str) {
    // M20-ATTR-1, Q20-ATTR-1; M20-ATTR-SWITCH: no adjacent string with a private eye, no change.
    if c.hs + c.bs == 0 {
        return (Attribute::Neutral, "M20-ATTR-1");
    }
    // M20-ATTR-2A, Q20-ATTR-2-1
    if c.hs > c.bs {
        return (Attribute::Black, "M20-ATTR-2A");
    }
    // M20-ATTR-2B, Q20-ATTR-2-2
    if c.hs < c.bs {
        return (Attribute::White, "M20-ATTR-2B");
    }
    // M20-ATTR-2C1, Q20-ATTR-2-3-1 / M20-ATTR-2C2, Q20-ATTR-2-3-2 / M20-ATTR-2C3, Q20-ATTR-2-3-3
    if c.hw > c.bw {
        (Attribute::Black, "M20-ATTR-2C1")
    } else if c.hw < c.bw {
        (Attribute::White, "M20-ATTR-2C2")
    } else {
        (Attribute::Neutral, "M20-ATTR-2C3")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(hs: u32, hw: u32, bs: u32, bw: u32) -> Counts {
        Counts { hs, hw, bs, bw }
    }

    #[test]
    fn q20_attr_worked_example_of_001() {
        // CA*: HEIy=0 BAIy=1 HEIo=1 BAIo=1 -> white; O二*: 1,1,1,0 -> black; A四*: 1,1,0,0 -> neutral.
        assert_eq!(attribute_2020(c(0, 1, 1, 1)).0, Attribute::White);
        assert_eq!(attribute_2020(c(1, 1, 1, 0)).0, Attribute::Black);
        assert_eq!(attribute_2020(c(1, 0, 1, 0)).0, Attribute::Neutral);
    }

    #[test]
    fn m20_attr_every_branch() {
        assert_eq!(
            attribute_2020(c(0, 5, 0, 0)),
            (Attribute::Neutral, "M20-ATTR-1")
        );
        assert_eq!(
            attribute_2020(c(2, 0, 1, 3)),
            (Attribute::Black, "M20-ATTR-2A")
        );
        assert_eq!(
            attribute_2020(c(1, 3, 2, 0)),
            (Attribute::White, "M20-ATTR-2B")
        );
        assert_eq!(
            attribute_2020(c(1, 2, 1, 1)),
            (Attribute::Black, "M20-ATTR-2C1")
        );
        assert_eq!(
            attribute_2020(c(1, 0, 1, 1)),
            (Attribute::White, "M20-ATTR-2C2")
        );
        assert_eq!(
            attribute_2020(c(1, 1, 1, 1)),
            (Attribute::Neutral, "M20-ATTR-2C3")
        );
    }
}

/// M16-CONV-1 … M16-CONV-3C-TIE, M16-CONV-SWITCH — 000's 2016 rule over the distinct adjacent
/// black / white strings with (hs / bs) and without (hw / bw) a 2016 private eye:
/// switch "才能开启此灰棋串变性的开关" (no adjacent string with a private eye: neutral);
/// 1 "当至少一个紧邻黑棋串含有私眼，所有紧邻白棋串皆无私眼时，则此灰棋串变性为黑棋串"; 2 the same for white;
/// 3a/3b "当含私眼黑棋串个数>含私眼白棋串个数时 … 黑" / "<" … 白; 3c "则比较与此灰棋串紧邻的黑棋串和紧邻的
/// 白棋串个数" (all adjacent strings, with or without a private eye); 3c tie "当黑棋串个数=白棋串个数时，
/// 则此灰棋串仍为“中性分隔串”". With equal private-eye counts, comparing all strings is comparing
/// those without, so 2016 and 2020 agree on every count (register D17); the clause ids differ.
/// M16-EYE-SWITCH: private eyes are the switch (first branch) and the first weight (3a/3b).
/// M16-CONV-NOFREEZE: the result depends on the current counts only, no state, so a grey string
/// with every adjacent point occupied still changes when eyes elsewhere change.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn attribute_2016(c: Counts) -> (Attribute, &'static str) {
    // M16-CONV-SWITCH, M16-EYE-SWITCH
    if c.hs + c.bs == 0 {
        return (Attribute::Neutral, "M16-CONV-SWITCH");
    }
    if c.hs >= 1 && c.bs == 0 {
        return (Attribute::Black, "M16-CONV-1");
    }
    if c.bs >= 1 && c.hs == 0 {
        return (Attribute::White, "M16-CONV-2");
    }
    // M16-CONV-3: both colours have strings with a private eye; compare their numbers.
    if c.hs > c.bs {
        return (Attribute::Black, "M16-CONV-3A");
    }
    if c.hs < c.bs {
        return (Attribute::White, "M16-CONV-3B");
    }
    let (black, white) = (c.hs + c.hw, c.bs + c.bw);
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => (Attribute::Black, "M16-CONV-3C"),
        std::cmp::Ordering::Less => (Attribute::White, "M16-CONV-3C"),
        std::cmp::Ordering::Equal => (Attribute::Neutral, "M16-CONV-3C-TIE"),
    }
}

/// M13-CONV / M13-FLIP / M13-FREEZE — a reconstruction of 000's summary of the 2013 rule:
/// "灰棋串的紧邻黑子和紧邻白子数量的竞争 … 连续地一手棋一变，当此灰棋串的所有紧邻点被占完后，灰棋串的属性也就
/// 被定格" (register D21). `stones` = (distinct black stones, distinct white stones) adjacent to
/// the grey string on the direct board ([`stone_counts`]): more black: black; more white:
/// white; equal (0 = 0 included): neutral. The attribute is recomputed from the board after
/// every move (M13-FLIP) until the string is frozen: under `grey-freeze: kept` (D21) a string
/// whose adjacent points were all occupied keeps the attribute it had then (M13-FREEZE,
/// [`crate::judge::freeze`], applied by [`crate::judge::analysis::Analysis::with_frozen`]);
/// under `recomputed` the counts merely cannot change while the neighbours stay.
pub(crate) fn attribute_2013(stones: (u32, u32)) -> (Attribute, &'static str) {
    match stones.0.cmp(&stones.1) {
        std::cmp::Ordering::Greater => (Attribute::Black, "M13-CONV"),
        std::cmp::Ordering::Less => (Attribute::White, "M13-CONV"),
        std::cmp::Ordering::Equal => (Attribute::Neutral, "M13-CONV"),
    }
}

/// The counting of M13-CONV — "灰棋串的紧邻黑子和紧邻白子数量的竞争" (000): (black stones, white
/// stones) among the stones adjacent to a grey string, `adjacent` giving each adjacent stone's
/// colour once (every point next to the string counted once, however many of its stones it
/// touches).
pub(crate) fn stone_counts(adjacent: impl IntoIterator<Item = Colour>) -> (u32, u32) {
    adjacent.into_iter().fold((0, 0), |(b, w), c| match c {
        Colour::Black => (b + 1, w),
        Colour::White => (b, w + 1),
    })
}

/// The attribute of a flower string under `rule`, with the clause that decided it: the 2020 or
/// 2016 rule on its four counts, the 2013 rule on its adjacent stones ([`stone_counts`]), or
/// always neutral. The counts are asked for only by the rules that read them.
pub(crate) fn attribute_under(
    rule: AttributeRule,
    counts: impl FnOnce() -> Counts,
    stones: impl FnOnce() -> (u32, u32),
) -> (Attribute, &'static str) {
    match rule {
        AttributeRule::M2020 => attribute_2020(counts()),
        AttributeRule::M2016 => attribute_2016(counts()),
        AttributeRule::M2013 => attribute_2013(stones()),
        AttributeRule::AlwaysNeutral => attribute_neutral(),
    }
}

/// D3-FLOWER-NEUTRAL / D3-ATTR-FLOWER — "花棋串只具有不会发生变化的一种底层属性——中性分隔串属性，黑棋主角和
/// 白棋主角“争地决胜”，无法争花" (004): in Dullstone and Flystone every flower string is neutral.
pub(crate) fn attribute_neutral() -> (Attribute, &'static str) {
    (Attribute::Neutral, "D3-FLOWER-NEUTRAL")
}

#[cfg(test)]
mod tests_2016_2013 {
    use super::*;

    fn c(hs: u32, hw: u32, bs: u32, bw: u32) -> Counts {
        Counts { hs, hw, bs, bw }
    }

    #[test]
    fn m16_conv_every_branch() {
        assert_eq!(
            attribute_2016(c(0, 3, 0, 1)),
            (Attribute::Neutral, "M16-CONV-SWITCH")
        );
        assert_eq!(
            attribute_2016(c(1, 0, 0, 4)),
            (Attribute::Black, "M16-CONV-1")
        );
        assert_eq!(
            attribute_2016(c(0, 4, 2, 0)),
            (Attribute::White, "M16-CONV-2")
        );
        assert_eq!(
            attribute_2016(c(2, 0, 1, 5)),
            (Attribute::Black, "M16-CONV-3A")
        );
        assert_eq!(
            attribute_2016(c(1, 5, 2, 0)),
            (Attribute::White, "M16-CONV-3B")
        );
        assert_eq!(
            attribute_2016(c(1, 2, 1, 1)),
            (Attribute::Black, "M16-CONV-3C")
        );
        assert_eq!(
            attribute_2016(c(1, 0, 1, 1)),
            (Attribute::White, "M16-CONV-3C")
        );
        assert_eq!(
            attribute_2016(c(1, 1, 1, 1)),
            (Attribute::Neutral, "M16-CONV-3C-TIE")
        );
    }

    #[test]
    fn m16_ex_ur_counts_of_000() {
        // 七六*: one eyed string each side, 2 : 2 strings -> neutral; after 黑九五 3 : 2 -> black;
        // if 七四* makes an eye, white has 2 eyed strings against 1 -> white.
        assert_eq!(attribute_2016(c(1, 1, 1, 1)).0, Attribute::Neutral);
        assert_eq!(attribute_2016(c(1, 2, 1, 1)).0, Attribute::Black);
        assert_eq!(attribute_2016(c(1, 2, 2, 0)).0, Attribute::White);
    }

    #[test]
    fn m16_conv_agrees_with_2020_on_every_small_count() {
        for hs in 0..4 {
            for hw in 0..4 {
                for bs in 0..4 {
                    for bw in 0..4 {
                        let k = c(hs, hw, bs, bw);
                        assert_eq!(attribute_2016(k).0, attribute_2020(k).0, "{k:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn m13_conv_stones_ties_neutral() {
        assert_eq!(attribute_2013((3, 1)), (Attribute::Black, "M13-CONV"));
        assert_eq!(attribute_2013((1, 2)), (Attribute::White, "M13-CONV"));
        assert_eq!(attribute_2013((2, 2)).0, Attribute::Neutral);
        assert_eq!(attribute_2013((0, 0)).0, Attribute::Neutral);
    }

    #[test]
    fn d3_flower_neutral_always() {
        assert_eq!(attribute_neutral().0, Attribute::Neutral);
    }
}
