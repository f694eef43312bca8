//! Closed regions and private eyes (私眼) of black and white strings, judged in the lower layer
//! (M20-EYE-REGION, M20-EYE-1, M20-EYE-2, M20-EYE-SIM, M20-EYE; 003 选摘二).

use crate::board::grid::{neighbours, Colour};
use crate::board::layers::{Cell, Layer};
use crate::board::strings::Strings;
use crate::rules::ClosedRegion;

/// A closed region of a string: a 4-connected set of points that are not the string's stones
/// nor flowers (in the lower layer), bounded by the string, the edge and flowers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Every point of the region (empty points and the stones of other strings), ascending.
    pub points: Vec<usize>,
    /// The empty points of the region, ascending.
    pub empty: Vec<usize>,
}

/// A region's verdict as reports write it: one code over the 2020 verdicts ([`RegionVerdict`])
/// and the 2016 ones (`eyes2016::Verdict2016`), serialized as its kebab-case code
/// (`private-eye`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictCode {
    PrivateEye,
    SameColourInside,
    NoAdjacentEmptyString,
    OpponentCanMakeEye,
    /// 2016, a: no empty point inside touches the string.
    NoInnerLiberty,
    /// 2016: an opponent string inside cannot be captured by filling inside.
    OpponentUncapturable,
    /// 2016, c: an opponent string inside has a private eye.
    NestedPrivateEye,
    /// 2016, c: an opponent string inside and this string each claim a region around the
    /// other, and neither keeps it.
    MutualPrivateEye,
    /// 2016, d: an opponent string inside is long-living.
    OpponentLongLiving,
}

impl VerdictCode {
    /// The code (`private-eye`), as serialized.
    pub fn code(self) -> &'static str {
        match self {
            VerdictCode::PrivateEye => "private-eye",
            VerdictCode::SameColourInside => "same-colour-inside",
            VerdictCode::NoAdjacentEmptyString => "no-adjacent-empty-string",
            VerdictCode::OpponentCanMakeEye => "opponent-can-make-eye",
            VerdictCode::NoInnerLiberty => "no-inner-liberty",
            VerdictCode::OpponentUncapturable => "opponent-uncapturable",
            VerdictCode::NestedPrivateEye => "nested-private-eye",
            VerdictCode::MutualPrivateEye => "mutual-private-eye",
            VerdictCode::OpponentLongLiving => "opponent-long-living",
        }
    }
}

impl std::fmt::Display for VerdictCode {
    /// The code.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Which condition decided that a closed region is or is not a private eye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionVerdict {
    /// Conditions 1 and 2 hold.
    PrivateEye,
    /// Condition 1 fails: the region holds another string of the same colour.
    SameColourInside,
    /// Condition 1 fails: no empty string of the region touches the string (only other
    /// same-coloured strings, in the same-colour reading, or none at all).
    NoAdjacentEmptyString,
    /// Condition 2 fails: the opponent strings inside have, or can make by the fill simulation,
    /// a one-liberty eye (at the given point).
    OpponentCanMakeEye(usize),
    /// A 2016 verdict (000's private eye, `private-eye: m2016`) other than a private eye: its
    /// code, its clause, and the point it names (see `eyes2016::Verdict2016`).
    Rule2016 {
        code: VerdictCode,
        clause: &'static str,
        at: Option<usize>,
    },
}

impl RegionVerdict {
    /// The verdict's code in reports.
    pub fn code(&self) -> VerdictCode {
        match self {
            RegionVerdict::PrivateEye => VerdictCode::PrivateEye,
            RegionVerdict::SameColourInside => VerdictCode::SameColourInside,
            RegionVerdict::NoAdjacentEmptyString => VerdictCode::NoAdjacentEmptyString,
            RegionVerdict::OpponentCanMakeEye(_) => VerdictCode::OpponentCanMakeEye,
            RegionVerdict::Rule2016 { code, .. } => *code,
        }
    }

    /// The point the verdict names: where the opponent can make an eye, or the 2016 opponent
    /// string that spoils the region.
    pub fn point(&self) -> Option<usize> {
        match self {
            RegionVerdict::OpponentCanMakeEye(p) => Some(*p),
            RegionVerdict::Rule2016 { at, .. } => *at,
            _ => None,
        }
    }

    /// The clause that decided the verdict under the given private-eye rule (a 2016 private eye
    /// is M16-EYE).
    pub fn clause_under(&self, rule: crate::rules::EyeRule) -> &'static str {
        match (self, rule) {
            (RegionVerdict::PrivateEye, crate::rules::EyeRule::M2016) => "M16-EYE",
            _ => self.clause(),
        }
    }

    /// The clause that decided the verdict.
    pub fn clause(&self) -> &'static str {
        match self {
            RegionVerdict::PrivateEye => "M20-EYE",
            RegionVerdict::SameColourInside | RegionVerdict::NoAdjacentEmptyString => "M20-EYE-1",
            RegionVerdict::OpponentCanMakeEye(_) => "M20-EYE-SIM",
            RegionVerdict::Rule2016 { clause, .. } => clause,
        }
    }
}

/// M20-EYE-REGION — "黑棋串八九*与上边界外区域形成一个封闭区域R" (003): the closed regions formed by
/// string `a` with the board edge and the flowers (off-board in the lower layer). Each is a
/// 4-connected component of the points that are neither `a`'s stones nor off-board (nor, in the
/// same-colour reading, stones of `a`'s colour), adjacent to `a`. Region T of 003 ("白棋串六九*
/// 左边和下边广大区域") shows a region may be the whole rest of the board.
pub(crate) fn closed_regions(
    bits: &LayerBits,
    strings: &Strings,
    a: usize,
    rule: ClosedRegion,
) -> Vec<Region> {
    let string = &strings.groups[a];
    let Some(colour) = string.colour else {
        return Vec::new();
    };
    // M20-EYE-NEUTRAL: flowers (off-board here) are walls; opponent stones lie inside. Inside:
    // the on-board points (not off-board) without `a`'s stones (single-string reading) or without
    // every stone of `a`'s colour (same-colour reading).
    let own = match rule {
        ClosedRegion::SingleString => bits.points_of(&string.points),
        ClosedRegion::SameColour => bits.stones[colour_index(colour)],
    };
    let mut within = bits.on_board;
    for (w, o) in within.iter_mut().zip(&own) {
        *w &= !o;
    }
    regions_around(bits, &string.points, &within)
}

/// The index of `colour` in [`LayerBits::stones`].
fn colour_index(colour: Colour) -> usize {
    match colour {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

/// 000 九.1 — "此环状带可以将棋盘分成内部区域和外部区域…则此内部区域即为封闭区域": of the parts a ring band
/// (a wall) cuts the board into, given as (number of points, touches the edge), the index of the
/// outer one, the rest of the board; every other part is inside (registers D26, D27). A wall
/// with one part cuts off nothing: that part is the outside. Otherwise the outer part is the
/// part touching the edge that is strictly larger than every other part touching the edge (for a
/// ring that does not reach the edge, the one part outside it); when none is strictly the
/// largest (a wall halving the board) there is no outer part: no side is the rest of the board.
/// If no part touches the edge (the wall covers the whole edge line), all parts compete alike.
/// Used for neutral-flower walls at scoring (`judge::scoring::inner_sides`) and for the ring of
/// one string in the 2016 closed region (`judge::eyes2016::closed_regions_2016`).
pub(crate) fn outer_part(parts: &[(usize, bool)]) -> Option<usize> {
    if parts.len() == 1 {
        return Some(0);
    }
    let any_on_edge = parts.iter().any(|&(_, edge)| edge);
    let candidate = |k: &usize| !any_on_edge || parts[*k].1;
    let largest = (0..parts.len())
        .filter(candidate)
        .map(|k| parts[k].0)
        .max()?;
    let mut at_largest = (0..parts.len()).filter(|k| candidate(k) && parts[*k].0 == largest);
    match (at_largest.next(), at_largest.next()) {
        (Some(k), None) => Some(k),
        _ => None,
    }
}

/// The words of a bit set of the points of the largest board (one bit a point).
pub(crate) const WORDS: usize =
    (crate::board::coord::MAX_SIZE * crate::board::coord::MAX_SIZE).div_ceil(64);

/// A lower layer's points as bit sets (point i: bit i % 64 of word i / 64), read once per board
/// and shared by the closed regions of all its strings: the board's points, the on-board ones
/// (not off-board), the stones of each colour, and the points where a step right (+1) or left
/// (-1) may land (not across the end of a row). Fixed arrays of the largest board's words, the
/// first `words` used.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct LayerBits {
    size: usize,
    words: usize,
    pub(crate) all: [u64; WORDS],
    pub(crate) on_board: [u64; WORDS],
    /// Black stones, white stones.
    pub(crate) stones: [[u64; WORDS]; 2],
    not_first_column: [u64; WORDS],
    not_last_column: [u64; WORDS],
}

impl LayerBits {
    #[cfg_attr(feature = "testing", visibility::make(pub))]
    pub(crate) fn new(layer: &Layer) -> LayerBits {
        let size = layer.size;
        let mut bits = LayerBits {
            size,
            words: (size * size).div_ceil(64),
            all: [0; WORDS],
            on_board: [0; WORDS],
            stones: [[0; WORDS]; 2],
            not_first_column: [0; WORDS],
            not_last_column: [0; WORDS],
        };
        for (i, cell) in layer.cells.iter().enumerate() {
            let (w, bit) = (i / 64, 1u64 << (i % 64));
            bits.all[w] |= bit;
            match cell {
                Cell::OffBoard => {}
                Cell::Empty => bits.on_board[w] |= bit,
                Cell::Stone(c) => {
                    bits.on_board[w] |= bit;
                    bits.stones[colour_index(*c)][w] |= bit;
                }
            }
            if i % size != 0 {
                bits.not_first_column[w] |= bit;
            }
            if i % size != size - 1 {
                bits.not_last_column[w] |= bit;
            }
        }
        bits
    }

    /// `points` as a bit set.
    pub(crate) fn points_of(&self, points: &[usize]) -> [u64; WORDS] {
        let mut out = [0u64; WORDS];
        for &i in points {
            out[i / 64] |= 1 << (i % 64);
        }
        out
    }
}

/// The 4-connected components of the points of `within` (a bit set of [`LayerBits`]) that touch
/// `walls` (a string's stones), each with its empty points (the on-board points that hold no
/// stone), in a stable order. Shared by the 2020 and 2016 region definitions, which differ only
/// in what counts as inside.
pub(crate) fn regions_around(
    bits: &LayerBits,
    walls: &[usize],
    within: &[u64; WORDS],
) -> Vec<Region> {
    let (size, words) = (bits.size, bits.words);
    // The points flooded a word at a time: the inside points, and those where a step right (+1)
    // or left (-1) may land.
    let (mut from_left, mut from_right) = ([0u64; WORDS], [0u64; WORDS]);
    for w in 0..words {
        from_left[w] = within[w] & bits.not_first_column[w];
        from_right[w] = within[w] & bits.not_last_column[w];
    }
    let (within, from_left, from_right) =
        (&within[..words], &from_left[..words], &from_right[..words]);
    let mut seeds = bits.points_of(walls);
    // The points next to the walls (not the walls themselves) that are inside.
    let (mut comp, mut next) = ([0u64; WORDS], [0u64; WORDS]);
    grow(
        &seeds[..words],
        false,
        size,
        [within, from_left, from_right],
        &mut next[..words],
    );
    std::mem::swap(&mut seeds, &mut next);
    let seeds = &mut seeds[..words];
    let mut out = Vec::new();
    while let Some(w) = seeds.iter().position(|&x| x != 0) {
        comp.fill(0);
        comp[w] = seeds[w] & seeds[w].wrapping_neg();
        while grow(
            &comp[..words],
            true,
            size,
            [within, from_left, from_right],
            &mut next[..words],
        ) {
            std::mem::swap(&mut comp, &mut next);
        }
        for (s, c) in seeds.iter_mut().zip(&comp) {
            *s &= !c;
        }
        let mut vacant = [0u64; WORDS];
        for (w, v) in vacant[..words].iter_mut().enumerate() {
            *v = comp[w] & bits.on_board[w] & !(bits.stones[0][w] | bits.stones[1][w]);
        }
        out.push(Region {
            points: points_in(&comp[..words]),
            empty: points_in(&vacant[..words]),
        });
    }
    out.sort_by(|x, y| x.points.cmp(&y.points));
    out
}

/// The points of bit set `set`, ascending.
fn points_in(set: &[u64]) -> Vec<usize> {
    // sized from the bit counts: growing by doubling cost a reallocation or more a region
    let n = set.iter().map(|w| w.count_ones() as usize).sum();
    let mut points = Vec::with_capacity(n);
    for (w, &word) in set.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            points.push(w * 64 + rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
    }
    points
}

/// Writes into `out` the four neighbours of the points of `x` (and, with `keep`, the points
/// themselves) on a board of `size` (bits as in [`regions_around`]), kept to `within`;
/// `from_left` (`from_right`) is `within` without the first (last) column, where no step right
/// (left) may land. Returns whether `out` differs from `x` (word by word, not a slice
/// comparison: no `memcmp` call for the fuzzer's hooks to trace).
fn grow(
    x: &[u64],
    keep: bool,
    size: usize,
    [within, from_left, from_right]: [&[u64]; 3],
    out: &mut [u64],
) -> bool {
    let mut changed = 0;
    for (i, o) in out.iter_mut().enumerate() {
        let own = if keep { x[i] } else { 0 };
        let vertical = shifted_word(x, i, size, true) | shifted_word(x, i, size, false);
        *o = (own | vertical) & within[i]
            | shifted_word(x, i, 1, true) & from_left[i]
            | shifted_word(x, i, 1, false) & from_right[i];
        changed |= *o ^ x[i];
    }
    changed != 0
}

/// Word `i` of `x` with every point moved by `k` points, towards higher indices (`up`) or lower.
fn shifted_word(x: &[u64], i: usize, k: usize, up: bool) -> u64 {
    let (words, bits) = (k / 64, (k % 64) as u32);
    let get = |j: Option<usize>| j.and_then(|j| x.get(j)).copied().unwrap_or(0);
    let carry = |w: u64, left: bool| match (bits, left) {
        (0, _) => 0,
        (_, true) => w << (64 - bits),
        (_, false) => w >> (64 - bits),
    };
    if up {
        let j = i.checked_sub(words);
        get(j) << bits | carry(get(j.and_then(|j| j.checked_sub(1))), false)
    } else {
        get(Some(i + words)) >> bits | carry(get(Some(i + words + 1)), true)
    }
}

/// What the private-eye conditions read of a lower layer, whatever stores it: the cell at a
/// point, the point's on-board neighbours and the black or white string through a point. The
/// clause-by-clause [`Lower`] (a [`Layer`] with its [`Strings`]) and the fast engine
/// (`game::fast`, on its padded board) both provide it, so conditions 1 and 2, the fill
/// simulation and 2016's conditions a and b are written once for both. Points are the
/// provider's own indices, all below [`VIEW_POINTS`]; a region is given as an iterator over its
/// points (empty points, other strings' stones and, for 2016, grey stones).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) trait LowerView {
    /// The lower-layer cell at `p` (a flower is [`Cell::OffBoard`]).
    fn cell(&self, p: usize) -> Cell;
    /// The on-board neighbours of `p` (the edge has none).
    fn neighbours(&self, p: usize) -> impl Iterator<Item = usize>;
    /// The black or white string through `p` (an id of the provider's), if there is one.
    fn string_of(&self, p: usize) -> Option<usize>;
}

/// Every index a [`LowerView`] uses is below this (a 19×19 board, padded to 21×21, fits).
pub(crate) const VIEW_POINTS: usize = 512;

/// The reference lower layer as a [`LowerView`]: the layer and its strings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lower<'a> {
    pub layer: &'a Layer,
    pub strings: &'a Strings,
}

impl LowerView for Lower<'_> {
    fn cell(&self, p: usize) -> Cell {
        self.layer.cells[p]
    }
    fn neighbours(&self, p: usize) -> impl Iterator<Item = usize> {
        neighbours(self.layer.size, p)
    }
    fn string_of(&self, p: usize) -> Option<usize> {
        self.strings.of[p]
    }
}

/// Whether the empty string through empty point `p` touches no string of `colour` but `a`;
/// `seen` marks the empty points already flooded (by this call or an earlier one of the same
/// region, whose whole empty string was flooded and touched another string).
fn empty_string_touches_only(
    v: &impl LowerView,
    p: usize,
    colour: Colour,
    a: usize,
    seen: &mut [u64; VIEW_POINTS / 64],
) -> bool {
    let mut stack = [0u16; VIEW_POINTS];
    let bit = |q: usize| (q / 64 % (VIEW_POINTS / 64), q % 64);
    let (w, b) = bit(p);
    seen[w] |= 1 << b;
    stack[0] = p as u16;
    let (mut n, mut k) = (1usize, 0usize);
    let mut only_a = true;
    while k < n {
        let q = stack[k % VIEW_POINTS] as usize;
        k += 1;
        for m in v.neighbours(q) {
            match v.cell(m) {
                Cell::Stone(c) if c == colour => only_a &= v.string_of(m) == Some(a),
                Cell::Empty => {
                    let (w, b) = bit(m);
                    if seen[w] & (1 << b) == 0 {
                        seen[w] |= 1 << b;
                        stack[n % VIEW_POINTS] = m as u16;
                        n += 1;
                    }
                }
                _ => {}
            }
        }
    }
    only_a
}

/// M20-EYE-1 — "黑棋串私眼内至少有一个空点串与这个黑棋串紧邻，而且此空点串不与其它黑棋串紧邻，黑棋串
/// 私眼内也不能具有其它黑棋串" (003). On closed region `region` (its points) of string `a` of
/// `colour`: no stone of `colour` inside, and some empty string of the region touches `a` and no
/// other string of `colour` (an empty string lies wholly inside one region, so it is the empty
/// string through an empty point of the region next to `a`). `Ok(())` or the failing part.
pub(crate) fn condition_1(
    v: &impl LowerView,
    a: usize,
    colour: Colour,
    region: impl Iterator<Item = usize> + Clone,
) -> Result<(), RegionVerdict> {
    if region.clone().any(|p| v.cell(p) == Cell::Stone(colour)) {
        return Err(RegionVerdict::SameColourInside);
    }
    let mut seen = [0u64; VIEW_POINTS / 64];
    for p in region {
        let (w, b) = (p / 64 % (VIEW_POINTS / 64), p % 64);
        if v.cell(p) != Cell::Empty
            || seen[w] & (1 << b) != 0
            || !v.neighbours(p).any(|q| v.string_of(q) == Some(a))
        {
            continue;
        }
        if empty_string_touches_only(v, p, colour, a, &mut seen) {
            return Ok(());
        }
    }
    Err(RegionVerdict::NoAdjacentEmptyString)
}

/// M20-EYE-SIM — "模拟推演：在此封闭区域内连续补充白色棋子（补充白色棋子的过程中不能提子）也无法做出一个
/// 1气眼" (003). Whether the opponent of `colour`, filling any of the region's empty points with
/// its stones (nothing is ever captured), can leave an empty point whose every neighbour is an
/// opponent stone, the edge or a flower — a one-liberty eye (M20-EYE-KINDS: true or false, however
/// many strings form it). Since stones are only
/// added, this happens exactly when some empty point of the region has no neighbour of `colour`
/// (fill all its empty neighbours): the first such point of `region` is returned.
/// `fill::literal_simulation` in the tests performs the simulation stone by stone and must agree.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn fill_simulation_makes_eye(
    v: &impl LowerView,
    colour: Colour,
    mut region: impl Iterator<Item = usize>,
) -> Option<usize> {
    region.find(|&p| {
        v.cell(p) == Cell::Empty && v.neighbours(p).all(|n| v.cell(n) != Cell::Stone(colour))
    })
}

/// M20-EYE-2 — "黑棋串私眼内可以具有其它白色棋串和中性花棋串（中性花棋串视同边界外区域），但是这些白色
/// 棋串不能具有1气及1气以上的眼，或者模拟推演 … 也无法做出一个1气眼" (003). When the region holds
/// opponent strings, neither may they have an eye nor can the fill simulation make one (an eye
/// they already have is found by the simulation too: fill it down to one point). A region without
/// opponent strings needs no simulation (003's region R).
pub(crate) fn condition_2(
    v: &impl LowerView,
    colour: Colour,
    region: impl Iterator<Item = usize> + Clone,
) -> Result<(), RegionVerdict> {
    let opponent = Cell::Stone(colour.opponent());
    if !region.clone().any(|p| v.cell(p) == opponent) {
        return Ok(());
    }
    match fill_simulation_makes_eye(v, colour, region) {
        Some(p) => Err(RegionVerdict::OpponentCanMakeEye(p)),
        None => Ok(()),
    }
}

/// The verdict of conditions 1 and 2 on closed region `region` of string `a` of `colour`.
pub(crate) fn verdict(
    v: &impl LowerView,
    a: usize,
    colour: Colour,
    region: impl Iterator<Item = usize> + Clone,
) -> RegionVerdict {
    match condition_1(v, a, colour, region.clone()).and_then(|()| condition_2(v, colour, region)) {
        Ok(()) => RegionVerdict::PrivateEye,
        Err(v) => v,
    }
}

/// M20-EYE — "由一个黑棋串独享或者说规则（理论）上可以独享的眼（封闭区域和内气），也即是这个黑棋串的私眼"
/// (003; "白棋串私眼判断规则与上述黑棋串私眼判断规则类同"). Every closed region of string `a` with
/// the verdict on it; the private eyes are those with [`RegionVerdict::PrivateEye`].
/// M20-EYE-WHITE: the test is the same for either colour (`colour` of string `a`).
/// `bits` is the layer's [`LayerBits`] ([`LayerBits::new`]), read once for all its strings.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn judge_regions(
    layer: &Layer,
    bits: &LayerBits,
    strings: &Strings,
    a: usize,
    rule: ClosedRegion,
) -> Vec<(Region, RegionVerdict)> {
    let Some(colour) = strings.groups[a].colour else {
        return Vec::new();
    };
    let v = Lower { layer, strings };
    closed_regions(bits, strings, a, rule)
        .into_iter()
        .map(|r| {
            let verdict = verdict(&v, a, colour, r.points.iter().copied());
            (r, verdict)
        })
        .collect()
}

/// M20-EYE — the private eyes of string `a` (see `judge_regions`).
pub fn private_eyes(layer: &Layer, strings: &Strings, a: usize, rule: ClosedRegion) -> Vec<Region> {
    judge_regions(layer, &LayerBits::new(layer), strings, a, rule)
        .into_iter()
        .filter(|(_, v)| *v == RegionVerdict::PrivateEye)
        .map(|(r, _)| r)
        .collect()
}
