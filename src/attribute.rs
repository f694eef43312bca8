//! The upper attribute of a flower string from its neighbours' private eyes (M20-ATTR-*, 003
//! 选摘三; Q20-ATTR, 001).

use crate::layers::Attribute;
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
pub fn counts(adjacent: impl IntoIterator<Item = (bool, bool)>) -> Counts {
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
pub fn attribute_2020(c: Counts) -> (Attribute, &'static str) {
    if c.hs + c.bs == 0 {
        return (Attribute::Neutral, "M20-ATTR-1");
    }
    if c.hs > c.bs {
        return (Attribute::Black, "M20-ATTR-2A");
    }
    if c.hs < c.bs {
        return (Attribute::White, "M20-ATTR-2B");
    }
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

/// M16-CONVERT — 000's 2016 rule: 1 "当至少一个紧邻黑棋串含有私眼，所有紧邻白棋串皆无私眼时，则此灰棋串
/// 变性为黑棋串"; 2 the same for white; 3a/3b compare the private-eye strings; 3c "则比较与此灰棋串紧邻
/// 的黑棋串和紧邻的白棋串个数" (all adjacent strings, with or without a private eye). With equal
/// private-eye counts, comparing all strings is comparing those without, so 2016 and 2020 agree
/// on every count (register D17); the clause ids differ.
pub fn attribute_2016(c: Counts) -> (Attribute, &'static str) {
    if c.hs + c.bs == 0 {
        return (Attribute::Neutral, "M16-CONVERT-0");
    }
    if c.hs >= 1 && c.bs == 0 {
        return (Attribute::Black, "M16-CONVERT-1");
    }
    if c.bs >= 1 && c.hs == 0 {
        return (Attribute::White, "M16-CONVERT-2");
    }
    if c.hs > c.bs {
        return (Attribute::Black, "M16-CONVERT-3A");
    }
    if c.hs < c.bs {
        return (Attribute::White, "M16-CONVERT-3B");
    }
    let (black, white) = (c.hs + c.hw, c.bs + c.bw);
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => (Attribute::Black, "M16-CONVERT-3C"),
        std::cmp::Ordering::Less => (Attribute::White, "M16-CONVERT-3C"),
        std::cmp::Ordering::Equal => (Attribute::Neutral, "M16-CONVERT-3C"),
    }
}

/// M13-CONVERT — 000's summary of the 2013 rule: "灰棋串的紧邻黑子和紧邻白子数量的竞争" — more
/// adjacent black stones than white stones: black; fewer: white; equal: neutral (register D21
/// records the reconstruction). `stones` = (adjacent black stones, adjacent white stones).
pub fn attribute_2013(stones: (u32, u32)) -> (Attribute, &'static str) {
    match stones.0.cmp(&stones.1) {
        std::cmp::Ordering::Greater => (Attribute::Black, "M13-CONVERT"),
        std::cmp::Ordering::Less => (Attribute::White, "M13-CONVERT"),
        std::cmp::Ordering::Equal => (Attribute::Neutral, "M13-CONVERT"),
    }
}
