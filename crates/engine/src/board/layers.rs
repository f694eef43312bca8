//! The layers (Q20-LAYERS, Q20-VIEWS): the lower layer (底层, parameter layer) where every flower
//! string is off-board; the upper layer (上层) where each flower string is off-board, black or
//! white by its attribute; and the holographic view (全息 / 三合棋局) that shows the attributes as
//! stars on the direct board.

use crate::board::grid::{render_rows, Board, Colour, Stone};

/// What a point is in a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Stone(Colour),
    /// Like the area outside the board edge: a neutral flower stone.
    OffBoard,
}

/// A layer: the board as seen by one stage of the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layer {
    pub size: usize,
    pub cells: Vec<Cell>,
}

/// The upper attribute of a flower string (M20-UPPER).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Attribute {
    /// 中性分隔串属性: like the area outside the board.
    Neutral,
    Black,
    White,
}

impl Attribute {
    /// The player the attribute counts for (`None` for neutral).
    pub fn colour(self) -> Option<Colour> {
        match self {
            Attribute::Neutral => None,
            Attribute::Black => Some(Colour::Black),
            Attribute::White => Some(Colour::White),
        }
    }
    /// The name the outputs write (`black`, `white`, …).
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Neutral => "neutral",
            Attribute::Black => "black",
            Attribute::White => "white",
        }
    }
}

/// M20-LOWER — "判断一个棋串A有无私眼时，采用底层棋局和底层逻辑，也即与棋串A关联的花棋串皆视同为
/// 边界外区域" (003). Every flower stone is off-board; black and white stones stay.
/// M20-LOWER-ATTR, Q20-LOWER, M16-GREY-NEUTRAL: a flower's lower (basic) attribute is always
/// neutral, like the area beyond the edge. Q20-LAYERS: this is the parameter layer.
/// Q20-LOWER-DEAD: black and white stones are kept even where they have no liberty here.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn lower_layer(board: &Board) -> Layer {
    Layer {
        size: board.size(),
        cells: board
            .cells()
            .iter()
            .map(|c| match c {
                None => Cell::Empty,
                Some(Stone::Black) => Cell::Stone(Colour::Black),
                Some(Stone::White) => Cell::Stone(Colour::White),
                Some(Stone::Flower) => Cell::OffBoard,
            })
            .collect(),
    }
}

/// M20-UPPER — "花棋串的上层属性 … 可能分化为三种上层属性：黑棋串属性、白棋串属性、中性分隔串属性"
/// (003). `flower_attribute[i]` is the attribute of the flower string through point `i` (ignored
/// where there is no flower). Black-attributed flowers are black stones of the upper layer.
/// M20-ATTR-LAYERS, Q20-ATTR-LAYERS: the upper attribute is the second attribute of a flower.
/// Q20-UPPER: this is the board on which forbidden points, life and death and the score are
/// judged. Q20-VIEW-UPPER: neutral flowers off-board, attributed ones stones of their colour.
pub(crate) fn upper_layer(board: &Board, flower_attribute: &[Option<Attribute>]) -> Layer {
    Layer {
        size: board.size(),
        cells: board
            .cells()
            .iter()
            .enumerate()
            .map(|(i, &c)| upper_cell(c, flower_attribute[i]))
            .collect(),
    }
}

/// M20-UPPER, Q20-VIEW-UPPER — one point of the upper layer: a black or white stone as it is, a
/// flower as a stone of its attribute's colour, a neutral (or unknown) flower off-board. Both
/// boards build their upper layer with it ([`upper_layer`], the fast engine's).
pub(crate) fn upper_cell(stone: Option<Stone>, flower_attribute: Option<Attribute>) -> Cell {
    match stone {
        None => Cell::Empty,
        Some(Stone::Black) => Cell::Stone(Colour::Black),
        Some(Stone::White) => Cell::Stone(Colour::White),
        Some(Stone::Flower) => match flower_attribute {
            Some(Attribute::Black) => Cell::Stone(Colour::Black),
            Some(Attribute::White) => Cell::Stone(Colour::White),
            _ => Cell::OffBoard,
        },
    }
}

/// M20-HOLO — "某花棋串上层属性进行变化时，则只需要将某花棋串的每个花子中心加上相应的黑星（黑色圆点）、
/// 白星（白色圆点）或恢复花子原状即可，此棋局也称为三合棋局" (003). Diagram of the holographic view:
/// `x` / `o` for flowers with a black / white star, `#` for neutral flowers.
/// Q20-LAYERS: the display layer; Q20-DERIVE: computed from the direct board and the attributes
/// alone. Q20-HOLO-STARS, Q20-VIEW-HOLO: black star `x`, white star `o`, neutral unchanged `#`.
pub(crate) fn holographic(board: &Board, flower_attribute: &[Option<Attribute>]) -> String {
    render_rows(board.size(), |i| match board.get(i) {
        None => '.',
        Some(Stone::Flower) => match flower_attribute[i] {
            Some(Attribute::Black) => 'x',
            Some(Attribute::White) => 'o',
            _ => '#',
        },
        Some(s) => s.diagram_char(),
    })
}

impl Layer {
    /// Diagram of a layer: `X`, `O`, `.`, and `#` for off-board (neutral flower).
    pub fn to_diagram(&self) -> String {
        render_rows(self.size, |i| match self.cells[i] {
            Cell::Empty => '.',
            Cell::Stone(Colour::Black) => 'X',
            Cell::Stone(Colour::White) => 'O',
            Cell::OffBoard => '#',
        })
    }
}
