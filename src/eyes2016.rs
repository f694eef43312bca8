//! The 2016 private eye of 000 (M16-PRIVATE-EYE). Work in progress: until the 2016 preset is
//! built this module applies the 2020 judgement, so that the 2016 presets are not yet usable.

use crate::eyes::{judge_regions, Region, RegionVerdict};
use crate::layers::Layer;
use crate::rules::ClosedRegion;
use crate::strings::Strings;

/// M16-PRIVATE-EYE — placeholder delegating to the 2020 rule until the 2016 reading is built.
pub fn judge_regions_2016(
    layer: &Layer,
    strings: &Strings,
    a: usize,
) -> Vec<(Region, RegionVerdict)> {
    judge_regions(layer, strings, a, ClosedRegion::SingleString)
}
