//! The concepts of the 2016 text (000) a referee argues in, computed on one board for the
//! presets whose eye rule is `m2016` (m3go-2016, m3go-2013): true and false eyes (真眼/假眼,
//! private and common), the conditions a–d of each 2016 closed region, chains (棋链) and their
//! long-living sub-chains (子棋链), groups (棋群), long life (长活), seki (双活) and dead strings
//! (死棋状态). Reporting only: legality, attributes and the score do not read it (they read
//! [`crate::judge::eyes2016`], [`crate::judge::longlife`] and [`crate::judge::scoring`], which
//! this module calls). Register D31 states the readings.
//!
//! Strings are the black and white strings of the upper layer (converted grey joined to its
//! colour, neutral grey off-board), as for 000's common eyes and long life, except the
//! conditions a–d, which belong to the strings of the lower layer (every grey neutral), where
//! 2016 private eyes are judged (register D17).

use crate::board::grid::{neighbours, Colour};
use crate::board::layers::{Attribute, Cell, Layer};
use crate::board::strings::{flood, strings_of, Strings};
use crate::judge::analysis::Analysis;
use crate::judge::eyes::{Lower, Region};
use crate::judge::eyes2016::{
    capture_condition, common_eyes_2016, condition_a, condition_b, condition_c, condition_d,
};
use crate::judge::longlife::{long_living_strings, pass_alive, seki};
use crate::judge::rings2016::rings_2016;
use crate::judge::scoring::long_living_upper;
use crate::rules::{FalseEye2016, Rules};

/// The most empty points of a string's area [`dead_2016`] searches (2^8 fillings).
pub(crate) const MAX_DEAD_AREA: usize = 8;

/// Whether an eye is a private eye (私眼) or a common eye (公眼).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EyeKind {
    Private,
    Common,
}

/// One eye of 000 九: its kind, whether it is true, and the upper strings it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Eye2016 {
    pub kind: EyeKind,
    pub true_eye: bool,
    /// Upper strings (indices into `upper_strings`) the eye belongs to, ascending: the string
    /// holding the private eye's owner, or every string closing the common eye.
    pub owners: Vec<usize>,
    /// The region's points (a private eye's closed region, stones inside included; a common
    /// eye's empty points), ascending.
    pub points: Vec<usize>,
    /// Its empty points, ascending.
    pub empty: Vec<usize>,
    /// The clause that decided `true_eye`.
    pub clause: &'static str,
}

/// The conditions of 000 九.2 on one 2016 closed region of a lower string, each judged on its
/// own (the verdict stops at the first that fails, in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Conditions2016 {
    /// a: an empty point of the region touches the string (M16-EYE-A).
    pub a: bool,
    /// b: no other string of its colour inside (M16-EYE-B).
    pub b: bool,
    /// The opponent strings inside can be captured by filling inside (M16-EYE-CAPTURE); not
    /// judged (`None`) when b fails, the fill being defined for a region without own stones.
    pub capture: Option<bool>,
    /// c: no opponent string inside has a private eye of its own (M16-EYE-C).
    pub c: bool,
    /// d: no opponent string inside is long-living (M16-EYE-D).
    pub d: bool,
}

/// A chain (棋链) and its long-living sub-chain (子棋链).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Chain2016 {
    /// Upper strings, ascending.
    pub strings: Vec<usize>,
    /// The common eyes linking them (indices into [`Concepts2016::eyes`]).
    pub eyes: Vec<usize>,
    /// The largest sub-chain each of whose strings has two true eyes (possibly empty).
    pub sub_chain: Vec<usize>,
    /// The other strings of the chain: 「会被分割提吃」 (all of them when the sub-chain is empty:
    /// 「此棋链处于将死状态」).
    pub split_off: Vec<usize>,
}

/// Everything this module reports on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Concepts2016 {
    pub eyes: Vec<Eye2016>,
    /// Per upper string: how many true eyes it has (private eyes of its lower strings and the
    /// true common eyes it closes).
    pub true_eyes: Vec<usize>,
    /// Per lower string, per closed region (in the order of `Analysis::regions`).
    pub conditions: Vec<Vec<Conditions2016>>,
    pub chains: Vec<Chain2016>,
    /// Groups of upper strings, each ascending, by their first string.
    pub groups: Vec<Vec<usize>>,
    /// Per upper string: long-living as the score judges it (pass-alive, seki, or two private
    /// eyes: register D14).
    pub long_living: Vec<bool>,
    /// Per upper string: in seki.
    pub seki: Vec<bool>,
    /// Per upper string: dead by the bounded local reading ([`dead_2016`], 死棋状态).
    pub dead: Vec<bool>,
    /// Per upper string: dying by its chain — split off a chain, or in a chain with no
    /// long-living sub-chain ([`dying_2016`]). A verdict apart from `dead` (register D31 item 6).
    pub dying: Vec<bool>,
}

/// The 2016 concepts of the board of `a` under `rules` (whose eye rule is `m2016`).
pub(crate) fn concepts_2016(a: &Analysis, rules: &Rules) -> Concepts2016 {
    let eyes = eyes_2016(a, rules.false_eye_2016);
    let n = a.upper_strings.groups.len();
    let true_eyes = (0..n)
        .map(|u| {
            eyes.iter()
                .filter(|e| e.true_eye && e.owners.contains(&u))
                .count()
        })
        .collect();
    let chains = chains_2016(a, &eyes);
    let groups = groups_2016(a, &eyes);
    let long_living = long_living_upper(a, rules);
    let seki = seki_2016(&a.upper, &a.upper_strings);
    let dead = dead_2016(&a.upper, &a.upper_strings, &long_living);
    let dying = dying_2016(&chains, &long_living);
    Concepts2016 {
        conditions: conditions_2016(a),
        eyes,
        true_eyes,
        chains,
        groups,
        long_living,
        seki,
        dead,
        dying,
    }
}

/// M16-LIFE-4-SPLIT — "则此棋链中的棋串会被分割提吃 … 如果前述子棋链为空集，则此棋链处于将死状态，最终棋链中的
/// 所有棋串皆会被提吃" (000 十二.4). Per upper string: dying by its chain, the strings each chain
/// splits off (all of them when its sub-chain is empty), except a string long-living as the score
/// judges it (`long_living`: pass-alive, seki, two private eyes), which no answer may call
/// captured and alive at once. Named apart from the local reading of [`dead_2016`] (死棋状态):
/// 十二.4 says what will be captured, not that the string is dead as it stands (register D31
/// item 6).
pub(crate) fn dying_2016(chains: &[Chain2016], long_living: &[bool]) -> Vec<bool> {
    let mut out = vec![false; long_living.len()];
    for &u in chains.iter().flat_map(|ch| &ch.split_off) {
        out[u] = !long_living[u];
    }
    out
}

/// The upper string holding lower string `g`.
fn upper_of(a: &Analysis, g: usize) -> Option<usize> {
    a.upper_strings.of[a.lower_strings.groups[g].points[0]]
}

/// M16-TRUE-EYE / M16-FALSE-EYE / M16-EYE-PRIVATE-TRUE — "私眼皆是真眼；不能在黑棋串（或白棋串）共享的
/// 公眼中下白子（或黑子）来提吃此黑棋串（或白棋串），则此公眼也是真眼" and "能在黑棋串（或白棋串）共享的公眼中下
/// 白子（或黑子）来提吃此黑棋串（或白棋串），则此公眼是假眼" (000). Every eye of the board: each 2016
/// private eye (of the lower layer, `Analysis::regions`), true by M16-TRUE-EYE; each common eye
/// (M16-COMMON-EYE, of the upper layer), listed once with every string closing it, true or
/// false by [`true_eye_2016`] (M16-FALSE-EYE when the opponent can capture a string through it).
pub(crate) fn eyes_2016(a: &Analysis, false_eye: FalseEye2016) -> Vec<Eye2016> {
    let mut out = Vec::new();
    for g in 0..a.regions.len() {
        let Some(u) = upper_of(a, g) else { continue };
        for r in a.private_eyes(g) {
            // M16-TRUE-EYE: 私眼皆是真眼
            out.push(Eye2016 {
                kind: EyeKind::Private,
                true_eye: true,
                owners: vec![u],
                points: r.points.clone(),
                empty: r.empty.clone(),
                clause: "M16-TRUE-EYE",
            });
        }
    }
    out.extend(joined_eyes_2016(a, &out));
    for e in common_eyes_2016(&a.upper, &a.upper_strings, false_eye) {
        out.push(Eye2016 {
            kind: EyeKind::Common,
            true_eye: e.true_eye,
            owners: e.owners,
            points: e.points,
            empty: e.empty,
            // M16-FALSE-EYE: the opponent can capture through it
            clause: if e.true_eye {
                "M16-TRUE-EYE"
            } else {
                "M16-FALSE-EYE"
            },
        });
    }
    out
}

/// M16-LIFE-1 — "当灰棋串变性为黑棋串或白棋串时，其生死则按照黑棋串或白棋串判断、处理" (000 十二.1). The
/// eyes of a string a converted grey joined: a closed region of the upper layer ([`rings_2016`])
/// whose ring band is one upper string holding a converted grey (no neutral grey in the ring, so
/// no common eye), with a liberty of it inside and no stone inside, that no lower string closes
/// as a private eye of its own (`private`): on the lower layer the grey is neutral and the
/// region no string's private eye, on the upper it is one string's; judged as a black or white
/// string's, it is that string's private eye (true: 「私眼皆是真眼」). Regions holding stones are
/// left to the lower layer's judgement (register D31 item 1).
fn joined_eyes_2016(a: &Analysis, private: &[Eye2016]) -> Vec<Eye2016> {
    rings_2016(&a.upper, &a.upper_strings)
        .into_iter()
        .filter(|r| r.owners.len() == 1 && !r.grey && r.inner_liberty)
        .filter(|r| r.points == r.empty)
        .filter(|r| {
            a.upper_strings.groups[r.owners[0]]
                .points
                .iter()
                .any(|&p| a.flower_of[p].is_some())
        })
        .filter(|r| !private.iter().any(|e| e.empty == r.empty))
        .map(|r| Eye2016 {
            kind: EyeKind::Private,
            true_eye: true,
            owners: r.owners,
            points: r.points,
            empty: r.empty,
            clause: "M16-LIFE-1",
        })
        .collect()
}

/// M16-EYE-A … M16-EYE-D — "由上述私眼的定义可知：a、围出私眼的棋串必须具有至少1口内气；b、私眼内不能具有
/// 其它同色棋串；c、私眼内的异色棋串（非灰棋串）不能嵌套私眼 … d、私眼内不能有异色棋串（非灰棋串）处于长活状态"
/// (000). Each condition judged on its own on every 2016 closed region of every lower string
/// (`Analysis::regions`), so that a region failing one condition only shows which: a
/// (`condition_a`), b, the capture by filling (M16-EYE-CAPTURE, when b holds), c and d (long
/// life on the lower layer, as the verdict judges it).
pub(crate) fn conditions_2016(a: &Analysis) -> Vec<Vec<Conditions2016>> {
    let (layer, strings) = (&a.lower, &a.lower_strings);
    let view = Lower { layer, strings };
    let alive = long_living_strings(layer, strings);
    // a, b, the capture and d of every region, each on its own
    let mut out: Vec<Vec<Conditions2016>> = (0..a.regions.len())
        .map(|g| {
            let Some(colour) = strings.groups[g].colour else {
                return Vec::new();
            };
            a.regions[g]
                .iter()
                .map(|(r, _)| {
                    let points = || r.points.iter().copied();
                    let b = condition_b(&view, colour, points());
                    Conditions2016 {
                        a: condition_a(&view, g, points()),
                        b,
                        capture: b.then(|| capture_condition(layer, strings, g, r).is_ok()),
                        c: true,
                        d: condition_d(layer, strings, g, r, &alive).is_ok(),
                    }
                })
                .collect()
        })
        .collect();
    // c is judged over the whole board (M16-EYE-C): the claims of every region as the verdict
    // makes them (a, b and the capture for the claim, d as well for an eye that stands)
    let regions: Vec<Vec<Region>> = a
        .regions
        .iter()
        .map(|rs| rs.iter().map(|(r, _)| r.clone()).collect())
        .collect();
    let claims: Vec<Vec<(bool, bool)>> = out
        .iter()
        .map(|row| {
            row.iter()
                .map(|k| {
                    let claim = k.a && k.b && k.capture != Some(false);
                    (claim, claim && k.d)
                })
                .collect()
        })
        .collect();
    let c = condition_c(layer, strings, &regions, &claims);
    for (row, cs) in out.iter_mut().zip(c) {
        for (k, c) in row.iter_mut().zip(cs) {
            k.c = c.is_ok();
        }
    }
    out
}

/// Union-find root.
fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// The classes of `parent` with at least `min` members, each ascending, by first member.
fn classes(
    parent: &mut [usize],
    members: impl Iterator<Item = usize>,
    min: usize,
) -> Vec<Vec<usize>> {
    let mut by_root: Vec<(usize, Vec<usize>)> = Vec::new();
    for x in members {
        let r = root(parent, x);
        match by_root.iter_mut().find(|(k, _)| *k == r) {
            Some((_, v)) => v.push(x),
            None => by_root.push((r, vec![x])),
        }
    }
    by_root
        .into_iter()
        .map(|(_, v)| v)
        .filter(|v| v.len() >= min)
        .collect()
}

/// M16-CHAIN — "由两个或两个以上同色棋串，通过一个或多个公眼连接起来的生死紧密相关或属性同一的棋串组合，称为棋链"
/// (000). The chains: the classes of upper strings linked through common eyes (true or false:
/// the definition asks only for a common eye), of at least two strings; each with its long-living
/// sub-chain ([`sub_chain_2016`]).
pub(crate) fn chains_2016(a: &Analysis, eyes: &[Eye2016]) -> Vec<Chain2016> {
    let n = a.upper_strings.groups.len();
    let mut parent: Vec<usize> = (0..n).collect();
    for e in eyes.iter().filter(|e| e.kind == EyeKind::Common) {
        for w in e.owners.windows(2) {
            let (x, y) = (root(&mut parent, w[0]), root(&mut parent, w[1]));
            parent[x] = y;
        }
    }
    let members = (0..n).filter(|&u| a.upper_strings.groups[u].colour.is_some());
    classes(&mut parent, members, 2)
        .into_iter()
        .map(|strings| {
            let linking: Vec<usize> = (0..eyes.len())
                .filter(|&k| {
                    eyes[k].kind == EyeKind::Common
                        && eyes[k].owners.iter().any(|u| strings.contains(u))
                })
                .collect();
            let sub_chain = sub_chain_2016(eyes, &strings, &linking);
            let split_off = strings
                .iter()
                .copied()
                .filter(|u| !sub_chain.contains(u))
                .collect();
            Chain2016 {
                strings,
                eyes: linking,
                sub_chain,
                split_off,
            }
        })
        .collect()
}

/// M16-SUBCHAIN / M16-LIFE-4 / M16-LIFE-4-SPLIT — "由此棋链中的部分公眼连接起来的生死紧密相关或属性同一的
/// 棋串组合，称为此棋链的子棋链" and "当此棋链的某个子棋链中的每个棋串皆具有至少2个真眼，此子棋链以外、此棋链
/// 之中的其它棋串只具有1个真眼或0个真眼，则此棋链中的棋串会被分割提吃，最后只留下前述子棋链；如果前述子棋链为空集，
/// 则此棋链处于将死状态" (000). The largest sub-chain of `chain` each of whose strings has two true
/// eyes: starting from the whole chain, drop every string with fewer than two true eyes (its
/// private eyes, and the true common eyes among `linking` all of whose strings are still in),
/// until none is dropped; a common eye of a dropped string no longer counts for the others (it
/// becomes part of the dropped string's area once that is captured). The whole chain when every
/// string has two true eyes (M16-LIFE-4: it is long-living); empty when none keeps two
/// (「将死状态」).
pub(crate) fn sub_chain_2016(eyes: &[Eye2016], chain: &[usize], linking: &[usize]) -> Vec<usize> {
    let mut sub: Vec<usize> = chain.to_vec();
    loop {
        let keep: Vec<usize> = sub
            .iter()
            .copied()
            .filter(|&u| {
                let private = eyes
                    .iter()
                    .filter(|e| e.kind == EyeKind::Private && e.owners.contains(&u))
                    .count();
                let common = linking
                    .iter()
                    .map(|&k| &eyes[k])
                    .filter(|e| {
                        e.true_eye
                            && e.owners.contains(&u)
                            && e.owners.iter().all(|o| sub.contains(o))
                    })
                    .count();
                private + common >= 2
            })
            .collect();
        if keep.len() == sub.len() {
            return sub;
        }
        sub = keep;
    }
}

/// M16-GROUP — "由二个及二个以上的生死相关或属性同一的同色棋串构成棋群，特别地，单独的一个棋串也可以认为是一个
/// 特殊的棋群。棋群是一个模糊概念" (000). A vague notion; m3go's reading (register D31): the classes of
/// upper strings of one colour linked when they share a liberty, close a common eye together
/// (a chain lies in one group), or touch the same neutral grey string (their fate hangs on its
/// conversion: 000's 「此处黑棋群」 of the upper right, 八九* and 八四 around grey 七六*). A lone
/// string is a group.
pub(crate) fn groups_2016(a: &Analysis, eyes: &[Eye2016]) -> Vec<Vec<usize>> {
    let (upper, strings) = (&a.upper, &a.upper_strings);
    let n = strings.groups.len();
    let mut parent: Vec<usize> = (0..n).collect();
    let join = |parent: &mut Vec<usize>, x: usize, y: usize| {
        if strings.groups[x].colour == strings.groups[y].colour {
            let (rx, ry) = (root(parent, x), root(parent, y));
            parent[rx] = ry;
        }
    };
    for p in 0..upper.cells.len() {
        if upper.cells[p] != Cell::Empty {
            continue;
        }
        let around: Vec<usize> = neighbours(upper.size, p)
            .filter_map(|q| strings.of[q])
            .collect();
        for x in &around {
            for y in &around {
                join(&mut parent, *x, *y);
            }
        }
    }
    for e in eyes.iter().filter(|e| e.kind == EyeKind::Common) {
        for w in e.owners.windows(2) {
            join(&mut parent, w[0], w[1]);
        }
    }
    for f in a
        .flowers
        .iter()
        .filter(|f| f.attribute == Attribute::Neutral)
    {
        let around: Vec<usize> = f.adjacent.iter().filter_map(|&g| upper_of(a, g)).collect();
        for x in &around {
            for y in &around {
                join(&mut parent, *x, *y);
            }
        }
    }
    let members = (0..n).filter(|&u| strings.groups[u].colour.is_some());
    classes(&mut parent, members, 1)
}

/// M16-LIFE-5 — "则这两个棋群中的棋串处于长活状态，此种活棋方式又称为双活" (000). The upper strings in
/// seki: [`seki`] of the upper layer, given the pass-alive strings of both colours.
pub(crate) fn seki_2016(upper: &Layer, strings: &Strings) -> Vec<bool> {
    let black = pass_alive(upper, strings, Colour::Black);
    let white = pass_alive(upper, strings, Colour::White);
    let alive: Vec<bool> = black.iter().zip(&white).map(|(b, w)| *b || *w).collect();
    seki(upper, strings, &alive)
}

/// M16-EX-UL-3 / M16-LIFE-4-SPLIT — "黑棋串（I四）处于死棋状态" and "最终棋链中的所有棋串皆会被提吃"
/// (000). The dead strings (死棋状态) of the upper layer, a bounded reading (register D31): a
/// black or white string that is not long-living (`long_living`) and whose *area* — the points
/// reachable from it through empty points and stones of its colour, walled by the other colour,
/// neutral grey and the edge — cannot give it long life: every opponent string walling the area
/// is long-living or has a liberty outside the area (so filling inside captures nothing), the
/// area has at most [`MAX_DEAD_AREA`] empty points, and no way of filling some of them with
/// stones of the string's colour (every string keeping a liberty) makes the string pass-alive
/// or puts it in seki, even with the opponent never answering. A string with a larger area, or
/// walled by an opponent string it might capture, is not judged dead.
pub(crate) fn dead_2016(upper: &Layer, strings: &Strings, long_living: &[bool]) -> Vec<bool> {
    let size = upper.size;
    (0..strings.groups.len())
        .map(|g| {
            let Some(colour) = strings.groups[g].colour else {
                return false;
            };
            if long_living.get(g).copied().unwrap_or(false) {
                return false;
            }
            let area = flood(size, strings.groups[g].points[0], |j| {
                matches!(upper.cells[j], Cell::Empty) || upper.cells[j] == Cell::Stone(colour)
            });
            let mut in_area = vec![false; upper.cells.len()];
            for &p in &area {
                in_area[p] = true;
            }
            let mut walls: Vec<usize> = area
                .iter()
                .flat_map(|&p| neighbours(size, p))
                .filter(|&q| upper.cells[q] == Cell::Stone(colour.opponent()))
                .filter_map(|q| strings.of[q])
                .collect();
            walls.sort_unstable();
            walls.dedup();
            let held = walls.iter().all(|&w| {
                long_living.get(w).copied().unwrap_or(false)
                    || strings.groups[w].liberties.iter().any(|&l| !in_area[l])
            });
            let empty: Vec<usize> = area
                .iter()
                .copied()
                .filter(|&p| upper.cells[p] == Cell::Empty)
                .collect();
            if !held || empty.len() > MAX_DEAD_AREA {
                return false;
            }
            !(0u32..1 << empty.len()).any(|mask| {
                let mut filled = upper.clone();
                for (k, &p) in empty.iter().enumerate() {
                    if mask & (1 << k) != 0 {
                        filled.cells[p] = Cell::Stone(colour);
                    }
                }
                let s = strings_of(&filled);
                // every string of the colour in the area keeps a liberty
                if s.groups.iter().any(|x| {
                    x.colour == Some(colour) && x.liberties.is_empty() && in_area[x.points[0]]
                }) {
                    return false;
                }
                let Some(h) = s.of[strings.groups[g].points[0]] else {
                    return false;
                };
                long_living_strings(&filled, &s)[h]
            })
        })
        .collect()
}

/// The closed regions of lower string `g` with the conditions on each (for `explain`).
pub(crate) fn regions_with_conditions<'a>(
    a: &'a Analysis,
    c: &'a Concepts2016,
    g: usize,
) -> impl Iterator<Item = (&'a Region, Conditions2016)> + 'a {
    a.regions[g]
        .iter()
        .zip(c.conditions.get(g).into_iter().flatten())
        .map(|((r, _), k)| (r, *k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::Point;
    use crate::board::grid::Board;

    fn analysis(d: &str) -> (Board, Analysis, Rules) {
        let rows = d.lines().filter(|l| !l.trim().is_empty()).count();
        let b = Board::from_diagram(d, rows).expect("diagram");
        let rules = Rules::preset("m3go-2016").expect("preset");
        let a = Analysis::new(&b, &rules);
        (b, a, rules)
    }

    fn up(b: &Board, a: &Analysis, s: &str) -> usize {
        let p = b.index(Point::parse(s, b.size()).expect("point"));
        a.upper_strings.of[p].expect("string")
    }

    #[test]
    fn m16_chain_sub_chain_and_split() {
        // cov-m16-chain: A = D三*, B = C四*, C = DO; bottom 二D, 四D, 三C around 三D.
        let (b, a, rules) = analysis(
            "
. X X . . . . . .
X . X . . . . . .
X X . . . . . . .
. X . . . . . . .
X O . . . . . . .
O O . . . . . . .
. . . . . . . O .
. . . . . . O X O
. . . . . O X . X
",
        );
        let c = concepts_2016(&a, &rules);
        let [ua, ub, uc] = ["D三", "C四", "DO"].map(|s| up(&b, &a, s));
        let left = c
            .chains
            .iter()
            .find(|ch| ch.strings.contains(&ua))
            .expect("chain");
        let mut want = vec![ua, ub, uc];
        want.sort_unstable();
        assert_eq!(left.strings, want);
        let mut sub = vec![ua, ub];
        sub.sort_unstable();
        assert_eq!(left.sub_chain, sub);
        assert_eq!(left.split_off, vec![uc]);
        let bottom = c
            .chains
            .iter()
            .find(|ch| ch.strings.contains(&up(&b, &a, "二D")))
            .expect("chain");
        assert_eq!(bottom.strings.len(), 3);
        assert!(bottom.sub_chain.is_empty());
        for s in ["二D", "四D", "三C"] {
            assert!(c.dead[up(&b, &a, s)], "{s}");
        }
        assert!(!c.dead[uc], "DO can still connect at D一");
        // one verdict per string: DO is dying by its chain (split off), not dead as it stands
        assert!(c.dying[uc] && !c.dying[ua] && !c.dying[ub]);
        for s in ["二D", "四D", "三C"] {
            assert!(c.dying[up(&b, &a, s)], "{s}: its chain has no sub-chain");
        }
        assert_eq!(c.true_eyes[uc], 0);
        assert_eq!(c.true_eyes[ua], 2);
    }

    #[test]
    fn m16_group_joins_every_pair_of_strings_of_a_colour_around_a_point() {
        // Around the empty OO: black O一 and OA, white AO and 一O: the two black stones and
        // the two white stones each share the liberty OO, whatever the order of the neighbours.
        let (b, a, rules) = analysis(
            "
. . . . .
. . X . .
. O . O .
. . X . .
. . . . .
",
        );
        let c = concepts_2016(&a, &rules);
        let [bo, bs, wo, ws] = ["O一", "OA", "AO", "一O"].map(|s| up(&b, &a, s));
        let group = |u: usize| c.groups.iter().find(|g| g.contains(&u)).cloned();
        assert!(group(bo).is_some_and(|g| g.contains(&bs)));
        assert!(group(wo).is_some_and(|g| g.contains(&ws)));
        assert!(group(bo).is_some_and(|g| !g.contains(&wo)));
    }

    #[test]
    fn m16_eye_conditions_are_judged_each_on_its_own() {
        // The inner region of the black ring: its empty point A一 touches only the white strings
        // A二* = {A二 O二 O一} and B一* = {B一 BO AO} (kept apart by the greys B二 and OO), whose
        // only liberty it is: fails a only.
        let (b, a, _) = analysis(
            "
X X X X X . .
X # O O X . .
X O . O X . .
X O O # X . .
X X X X X . .
. . . . . . .
. . . . . . X
",
        );
        let c = conditions_2016(&a);
        let g = a.lower_strings.of[b.index(Point::parse("C三", 7).expect("p"))].expect("g");
        let inner: Vec<Conditions2016> = a.regions[g]
            .iter()
            .zip(&c[g])
            .filter(|((r, _), _)| r.empty.len() == 1)
            .map(|(_, k)| *k)
            .collect();
        assert_eq!(
            inner,
            vec![Conditions2016 {
                a: false,
                b: true,
                capture: Some(true),
                c: true,
                d: true
            }]
        );
    }
}
