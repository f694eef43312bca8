//! Coordinates (M16-COORD, 000): the tengen is the origin (0,0), x grows to the right, y grows
//! upwards, a point is written x then y, in either of two label systems.

use std::fmt;

/// Chinese label system, values -9..=9: `I H G F E D C B A O 一 二 … 九`.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const CHINESE_LABELS: [char; 19] = [
    'I', 'H', 'G', 'F', 'E', 'D', 'C', 'B', 'A', 'O', '一', '二', '三', '四', '五', '六', '七',
    '八', '九',
];
/// Latin label system, values -9..=9: `i h g f e d c b a 0 1 … 9`.
pub(crate) const LATIN_LABELS: [char; 19] = [
    'i', 'h', 'g', 'f', 'e', 'd', 'c', 'b', 'a', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
];

/// Largest board size.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const MAX_SIZE: usize = 19;
/// Smallest board size.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const MIN_SIZE: usize = 3;

/// A point of the board in tengen-origin coordinates.
///
/// ```
/// use m3go_engine::Point;
///
/// let tengen = Point::new(0, 0);
/// assert!(tengen.on_board(5));
/// assert_eq!(Point::parse(&tengen.to_string(), 5)?, tengen);
/// assert_eq!(tengen.neighbours(5).count(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

/// A point of m3go's JSON is its label in the Chinese system (`七A`; inside a
/// [`Labeled`](crate::board::labeled::Labeled) value, in the system it names), written by this
/// one formatter; the text formats write [`Point::format`] in the label system asked for.
impl serde::Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.write_in(Labels::serializing(), &mut LabelBuf::default()))
    }
}

impl schemars::JsonSchema for Point {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Point".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A point's label in the Chinese system (七A).",
            "type": "string",
            "minLength": 2
        })
    }
}

/// Which label system to write: the one type of the concept, read from a command line's
/// `--labels` (clap's `ValueEnum`, with the feature `clap`), from the server's requests and from
/// files (serde: `chinese`, `latin`), and by [`str::parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Labels {
    /// I H G F E D C B A O 一 二 … 九
    #[default]
    Chinese,
    /// i h g f e d c b a 0 1 … 9
    Latin,
}

/// A label system's name that is neither `chinese` nor `latin`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLabels(pub String);

impl fmt::Display for UnknownLabels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`labels: {}`: expected chinese or latin", self.0)
    }
}

impl std::error::Error for UnknownLabels {}

impl std::str::FromStr for Labels {
    type Err = UnknownLabels;

    fn from_str(s: &str) -> Result<Labels, UnknownLabels> {
        match s {
            "chinese" => Ok(Labels::Chinese),
            "latin" => Ok(Labels::Latin),
            other => Err(UnknownLabels(other.to_owned())),
        }
    }
}

impl Labels {
    /// The labels of this system, values -9..=9 (the one table points, edges and figures are
    /// written from).
    pub fn table(self) -> &'static [char; 19] {
        match self {
            Labels::Chinese => &CHINESE_LABELS,
            Labels::Latin => &LATIN_LABELS,
        }
    }

    /// The label of the coordinate value `v` (-9..=9).
    pub fn label(self, v: i32) -> char {
        self.table()[(v + 9) as usize]
    }

    /// The edge labels of a board of `size` (the frame every figure draws, written once): the
    /// columns left to right, then the rows top to bottom.
    pub fn edges(self, size: usize) -> (Vec<char>, Vec<char>) {
        let h = Point::half(size);
        let columns = (0..size as i32).map(|k| self.label(k - h)).collect();
        let rows = (0..size as i32).map(|r| self.label(h - r)).collect();
        (columns, rows)
    }

    /// A label as a terminal cell two columns wide (a CJK label is two columns wide, an ASCII
    /// one is followed by a space).
    pub fn cell(c: char) -> String {
        if c.is_ascii() {
            format!("{c} ")
        } else {
            c.to_string()
        }
    }

    /// The column labels of a board of `size` as one terminal line (each a [`Labels::cell`]).
    pub fn header(self, size: usize) -> String {
        self.edges(size).0.into_iter().map(Labels::cell).collect()
    }
}

thread_local! {
    /// The label system of the serialization running on this thread (set by
    /// [`Labeled`](crate::board::labeled::Labeled) while it serializes its value).
    static JSON_LABELS: std::cell::Cell<Labels> = const { std::cell::Cell::new(Labels::Chinese) };
}

impl Labels {
    /// The label system points are serialized in now: Chinese, or the one of the
    /// [`Labeled`](crate::board::labeled::Labeled) value being serialized.
    pub fn serializing() -> Labels {
        JSON_LABELS.with(std::cell::Cell::get)
    }
}

/// Sets the label system of this thread's serialization, returning the one it replaces.
pub(crate) fn replace_json_labels(labels: Labels) -> Labels {
    JSON_LABELS.with(|l| l.replace(labels))
}

/// Why a coordinate could not be read: the text as written and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordError {
    /// The coordinate as written (trimmed).
    pub text: String,
    pub problem: CoordProblem,
}

/// What is wrong with a coordinate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordProblem {
    /// `(x,y)` without exactly two parts.
    NotAPair,
    /// A part of `(x,y)` that is not an integer.
    NotAnInteger(String),
    /// Not two label characters.
    NotTwoLabels,
    /// A character that is no label of either system.
    NotALabel(char),
    /// A point outside the board of `size`.
    OffBoard { x: i32, y: i32, size: usize },
}

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.text;
        match &self.problem {
            CoordProblem::NotAPair => {
                write!(
                    f,
                    "malformed coordinate `{t}`: expected `(x,y)` with two integers"
                )
            }
            CoordProblem::NotAnInteger(part) => {
                write!(f, "malformed coordinate `{t}`: `{part}` is not an integer")
            }
            CoordProblem::NotTwoLabels => write!(
                f,
                "malformed coordinate `{t}`: expected two labels (x then y) such as `七A` or `7a`"
            ),
            CoordProblem::NotALabel(c) => write!(
                f,
                "malformed coordinate `{t}`: `{c}` is not a label (I…A O 一…九 or i…a 0 1…9)"
            ),
            CoordProblem::OffBoard { x, y, size } => {
                let h = Point::half(*size);
                write!(
                    f,
                    "coordinate `{t}` = ({x},{y}) is off the {size}x{size} board (x and y run from -{h} to {h})"
                )
            }
        }
    }
}

impl std::error::Error for CoordError {}

/// As a bad input, with this error's message.
impl From<CoordError> for crate::error::InputError {
    fn from(e: CoordError) -> Self {
        crate::error::InputError::new(e.to_string())
    }
}

/// The value (-9..=9) of one label character, in either system; letters in either case.
/// M16-COORD-SPEECH: O and 0 (and 一 and 1, both read 幺) name the same value.
pub(crate) fn label_value(c: char) -> Option<i32> {
    let lower = c.to_ascii_lowercase();
    if let Some(i) = LATIN_LABELS.iter().position(|&l| l == lower) {
        return Some(i as i32 - 9);
    }
    if c == 'o' || c == 'O' {
        return Some(0);
    }
    CHINESE_LABELS
        .iter()
        .position(|&l| l == c)
        .map(|i| i as i32 - 9)
}

impl Point {
    /// The point `x` columns right and `y` rows up of tengen (negative: left, down).
    pub const fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }

    /// M16-COORD — "纵坐标或横坐标 … 可以用 I 、 H … 九表示 … 也可用 i、h … 9表示" (000).
    /// Reads `七A`, `7a`, `(7,-1)`; a trailing `*` is not part of a point (see [`Target`]).
    /// The point must lie on a board of `size`. M16-COORD-LABELS (`I`…`九`) and M16-COORD-LATIN
    /// (`i`…`9`) are both read; D3-BOARD: Dullstone uses the same tengen-origin coordinates.
    pub fn parse(text: &str, size: usize) -> Result<Point, CoordError> {
        let t = text.trim();
        let err = |problem| CoordError {
            text: t.to_string(),
            problem,
        };
        let p = if let Some(inner) = t.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
            let mut parts = inner.split(',');
            let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(err(CoordProblem::NotAPair));
            };
            let x = a
                .trim()
                .parse::<i32>()
                .map_err(|_| err(CoordProblem::NotAnInteger(a.to_string())))?;
            let y = b
                .trim()
                .parse::<i32>()
                .map_err(|_| err(CoordProblem::NotAnInteger(b.to_string())))?;
            Point::new(x, y)
        } else {
            let mut chars = t.chars();
            let (Some(a), Some(b), None) = (chars.next(), chars.next(), chars.next()) else {
                return Err(err(CoordProblem::NotTwoLabels));
            };
            let x = label_value(a).ok_or_else(|| err(CoordProblem::NotALabel(a)))?;
            let y = label_value(b).ok_or_else(|| err(CoordProblem::NotALabel(b)))?;
            Point::new(x, y)
        };
        if !p.on_board(size) {
            return Err(err(CoordProblem::OffBoard {
                x: p.x,
                y: p.y,
                size,
            }));
        }
        Ok(p)
    }

    /// Whether the point lies on a board of `size`.
    pub fn on_board(self, size: usize) -> bool {
        let h = Point::half(size);
        (-h..=h).contains(&self.x) && (-h..=h).contains(&self.y)
    }

    /// M16-COORD: writes the point (x then y, tengen (0,0)) in a label system:
    /// M16-COORD-LABELS (Chinese, the default) or M16-COORD-LATIN; D3-BOARD the same.
    pub fn format(self, labels: Labels) -> String {
        self.write_in(labels, &mut LabelBuf::default()).to_string()
    }

    /// [`Point::format`] written into `buf`, without allocating (a point is written for every
    /// point of every list of a JSON answer).
    pub fn write_in(self, labels: Labels, buf: &mut LabelBuf) -> &str {
        let x = labels.label(self.x).encode_utf8(&mut buf.0).len();
        let (_, rest) = buf.0.split_at_mut(x);
        let y = labels.label(self.y).encode_utf8(rest).len();
        std::str::from_utf8(&buf.0[..x + y]).unwrap_or_default()
    }

    /// The up-to-four neighbours on a board of `size` (M16-ADJ: (x±1,y), (x,y±1)).
    pub fn neighbours(self, size: usize) -> impl Iterator<Item = Point> {
        let p = self;
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .into_iter()
            .map(move |(dx, dy)| Point::new(p.x + dx, p.y + dy))
            .filter(move |q| q.on_board(size))
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.write_in(Labels::Chinese, &mut LabelBuf::default()))
    }
}

/// Room for a point's two labels and a string name's star ([`Point::write_in`]): a label is
/// one character of at most three bytes in UTF-8.
#[derive(Default)]
pub struct LabelBuf([u8; 8]);

/// A string named by its first point (top row first), written with a star (`七九*`, as 003
/// names strings: "白棋串六九*").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StringName(pub Point);

impl StringName {
    /// The name in the label system `labels` (`七九*`, `79*`).
    pub fn format(self, labels: Labels) -> String {
        self.write_in(labels, &mut LabelBuf::default()).to_string()
    }

    /// [`StringName::format`] written into `buf`, without allocating.
    pub fn write_in(self, labels: Labels, buf: &mut LabelBuf) -> &str {
        let n = self.0.write_in(labels, buf).len();
        buf.0[n] = b'*';
        std::str::from_utf8(&buf.0[..=n]).unwrap_or_default()
    }
}

impl fmt::Display for StringName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.write_in(Labels::Chinese, &mut LabelBuf::default()))
    }
}

/// In JSON the name in the Chinese system (`七九*`), as [`Point`]'s.
impl serde::Serialize for StringName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.write_in(Labels::serializing(), &mut LabelBuf::default()))
    }
}

impl schemars::JsonSchema for StringName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StringName".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A string named by its first point (top row first) with a star (七九*).",
            "type": "string",
            "minLength": 3
        })
    }
}

impl Point {
    /// (size-1)/2: the largest coordinate value.
    pub fn half(size: usize) -> i32 {
        (size as i32 - 1) / 2
    }
}

/// M16-POINT: the index of point `p` (on a board of `size`) in the cells, top row first — the
/// one point↔index formula, used by `Board::index` and the fast engine's padded board.
pub(crate) fn index_of(size: usize, p: Point) -> usize {
    let h = Point::half(size);
    ((h - p.y) as usize) * size + (p.x + h) as usize
}

/// The point of index `i` on a board of `size` (the inverse of [`index_of`]).
pub(crate) fn point_of(size: usize, i: usize) -> Point {
    let h = Point::half(size);
    Point::new((i % size) as i32 - h, h - (i / size) as i32)
}

/// A point, or the string through a point (`八九*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub point: Point,
    pub whole_string: bool,
}

impl Target {
    /// Reads `八九` or `八九*`.
    pub fn parse(text: &str, size: usize) -> Result<Target, CoordError> {
        let t = text.trim();
        match t.strip_suffix('*') {
            Some(rest) => Ok(Target {
                point: Point::parse(rest, size)?,
                whole_string: true,
            }),
            None => Ok(Target {
                point: Point::parse(t, size)?,
                whole_string: false,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m16_coord_both_label_systems_read_the_same_point() {
        assert_eq!(Point::parse("七A", 19).unwrap(), Point::new(7, -1));
        assert_eq!(Point::parse("7a", 19).unwrap(), Point::new(7, -1));
        assert_eq!(Point::parse("(7,-1)", 19).unwrap(), Point::new(7, -1));
        assert_eq!(Point::parse("OE", 19).unwrap(), Point::new(0, -5));
        assert_eq!(Point::parse("0e", 19).unwrap(), Point::new(0, -5));
        assert_eq!(Point::parse("H九", 19).unwrap(), Point::new(-8, 9));
        assert_eq!(Point::new(-8, 9).format(Labels::Latin), "h9");
        assert_eq!(Point::new(6, 3).to_string(), "六三");
    }

    #[test]
    fn m16_coord_rejects_off_board_and_malformed() {
        assert!(Point::parse("九九", 9).is_err());
        assert!(Point::parse("Z九", 19).is_err());
        assert!(Point::parse("七", 19).is_err());
        assert!(Point::parse("(1,2,3)", 19).is_err());
        assert!(Point::parse("", 19).is_err());
    }
}
