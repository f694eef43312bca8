//! `m3go render`: the board drawn as an SVG figure or in ANSI colours.

use crate::cli::common::{check_extension, write_file};
use clap::ValueEnum;
use m3go_engine::formats::render::View;

/// Draw the board (SVG figure or colour terminal).
///
/// The figure follows the documents: tengen-origin labels, flower stones in 004's grey zebra
/// pattern, 003's stars on attributed flowers (holographic layer), private eyes shaded, the
/// flower's forbidden points lettered C, E and T. Without --svg the board is drawn on stdout: in
/// ANSI colours on a terminal, without them into a pipe or a file or when NO_COLOR is set.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// The position file (YAML, spec/README.md).
    #[arg(value_name = "POS.yaml")]
    pub pos: String,
    /// Write an SVG figure to this file.
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<String>,
    /// Which board to draw.
    #[arg(long, value_enum, default_value_t = LayerArg::Holographic)]
    pub layer: LayerArg,
    /// Draw the board on stdout as well (the default without --svg): in ANSI colours on a
    /// terminal, plain into a pipe or with NO_COLOR set.
    #[arg(long)]
    pub ansi: bool,
    /// The label system of the edges (latin needs no CJK font in the SVG viewer).
    #[arg(long, value_enum, default_value_t = m3go_engine::Labels::Chinese)]
    pub labels: m3go_engine::Labels,
    /// Write on each stone of the SVG the number of the move that placed it (found from the
    /// position's history boards; the set-up position's stones get none).
    #[arg(long, requires = "svg")]
    pub numbers: bool,
}

/// `render --layer`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum LayerArg {
    /// 直弈棋局: the stones as placed; flowers without stars.
    Direct,
    /// 全息棋局: the direct board with a black or white star on attributed flowers.
    #[default]
    #[value(alias = "holo")]
    Holographic,
    /// 上层棋局: attributed flowers as black or white stones, neutral flowers off-board.
    Upper,
}

pub fn run(args: RenderArgs) -> Result<(), crate::errors::Error> {
    let view = match args.layer {
        LayerArg::Direct => View::Direct,
        LayerArg::Holographic => View::Holographic,
        LayerArg::Upper => View::Upper,
    };
    if let Some(out) = &args.svg {
        check_extension(out, "--svg", &["svg"])?;
    }
    let p = crate::input::load_position(&args.pos)?;
    let labels = args.labels;
    if let Some(out) = &args.svg {
        let svg = if args.numbers {
            view.svg_numbered(&p, labels)
        } else {
            view.svg(&p, labels)
        };
        write_file(out, &svg)?;
    }
    if args.ansi || args.svg.is_none() {
        out!("{}", crate::cli::common::board_for_stdout(&p, view, labels));
    }
    Ok(())
}
