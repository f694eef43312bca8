//! A position written back as a setup ([`Position::to_setup`], the file it would be read
//! from) and validated again under other rules ([`Position::with_rules`]). A child of the
//! position module, so that the setup module (which builds positions) and the position module
//! do not import each other.

use crate::game::position::{Position, PositionParts};
use crate::game::setup::{setup_of, PositionError, Setup};
use crate::rules::Rules;

impl Position {
    /// The setup that writes this position back (rules as the full option mapping).
    pub fn to_setup(&self) -> Setup {
        setup_of(&self.to_parts())
    }

    /// [`Position::to_setup`] without the earlier boards (`history` left empty), and how many
    /// there are: what a caller keeping every position of a game stores, the boards being the
    /// game's own (the page's loaded records, `serve`).
    pub fn to_setup_without_history(&self) -> (Setup, usize) {
        let mut parts = self.to_parts();
        let earlier = parts.history.len();
        parts.history.clear();
        (setup_of(&parts), earlier)
    }

    /// This position under other rules (a record replayed under rules other than its start
    /// position's), validated again: the board must be settled under `rules` too.
    pub fn with_rules(&self, rules: &Rules, place: &str) -> Result<Position, PositionError> {
        PositionParts {
            rules: rules.clone(),
            ..self.to_parts()
        }
        .validate(place)
        .map(|pos| pos.with_engine(self.engine()))
    }
}
