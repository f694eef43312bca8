//! The two units of a count: [`HalfPoints`] (one point is 2: a seki point gives 1 to each side)
//! and [`QuarterPoints`] (one point is 4: komi such as 3¾ points, and the margin). Each is its
//! own type, so a half-point value never adds to a quarter-point one; the conversion is
//! [`HalfPoints::to_quarters`]. Both are written as a bare integer (JSON and text alike).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub};

/// An amount in half-points: one point is 2, a seki point gives 1 to each side.
///
/// ```
/// use m3go_engine::{HalfPoints, QuarterPoints};
///
/// // 7.5 points are 15 half-points, that is 30 quarter-points
/// let komi = HalfPoints(15);
/// assert_eq!(komi.to_quarters(), QuarterPoints(30));
/// assert_eq!(HalfPoints(3).to_quarters(), QuarterPoints(6));
/// assert_eq!(HalfPoints(2) + HalfPoints(1) - HalfPoints(4), -HalfPoints(1));
/// // written as the bare integer
/// assert_eq!(HalfPoints(15).to_string(), "15");
/// assert_eq!(serde_json::to_string(&HalfPoints(15))?, "15");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct HalfPoints(pub i32);

/// An amount in quarter-points: one point is 4 (komi 3¾ points is 15; the margin of a count).
///
/// ```
/// use m3go_engine::{HalfPoints, QuarterPoints};
///
/// // komi 7.5 points = 30 quarter-points = 15 half-points
/// let komi = QuarterPoints(30);
/// assert_eq!(komi, HalfPoints(15).to_quarters());
/// assert_eq!(komi.points(), 7.5);
/// // 004's komi, 3¾ points, has no half-point form
/// assert_eq!(QuarterPoints(15).points(), 3.75);
/// // the margin: 2·(black − white) − komi
/// let margin = (HalfPoints(40) - HalfPoints(22)).to_quarters() - QuarterPoints(15);
/// assert_eq!(margin, QuarterPoints(21));
/// assert_eq!(margin.to_string(), "21");
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct QuarterPoints(pub i32);

impl HalfPoints {
    /// The same amount in quarter-points (×2).
    pub fn to_quarters(self) -> QuarterPoints {
        QuarterPoints(2 * self.0)
    }
}

impl QuarterPoints {
    /// The amount in points (÷4), as the reports write komi and margins (`3.75`, `7.5`).
    pub fn points(self) -> f64 {
        f64::from(self.0) / 4.0
    }

    /// −1, 0 or 1: the sign of the amount.
    pub fn signum(self) -> i32 {
        self.0.signum()
    }

    /// The amount without its sign.
    pub fn abs(self) -> QuarterPoints {
        QuarterPoints(self.0.abs())
    }
}

impl From<HalfPoints> for QuarterPoints {
    fn from(h: HalfPoints) -> QuarterPoints {
        h.to_quarters()
    }
}

/// The arithmetic and the bare-integer text of one unit.
macro_rules! unit_ops {
    ($t:ident) => {
        impl Add for $t {
            type Output = $t;
            fn add(self, o: $t) -> $t {
                $t(self.0 + o.0)
            }
        }

        impl AddAssign for $t {
            fn add_assign(&mut self, o: $t) {
                self.0 += o.0;
            }
        }

        impl Sub for $t {
            type Output = $t;
            fn sub(self, o: $t) -> $t {
                $t(self.0 - o.0)
            }
        }

        impl Neg for $t {
            type Output = $t;
            fn neg(self) -> $t {
                $t(-self.0)
            }
        }

        impl Sum for $t {
            fn sum<I: Iterator<Item = $t>>(it: I) -> $t {
                $t(it.map(|v| v.0).sum())
            }
        }

        /// The schema of the bare integer, inlined where it is used (as the `i32` it wraps).
        impl schemars::JsonSchema for $t {
            fn inline_schema() -> bool {
                <i32 as schemars::JsonSchema>::inline_schema()
            }

            fn schema_name() -> std::borrow::Cow<'static, str> {
                <i32 as schemars::JsonSchema>::schema_name()
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                <i32 as schemars::JsonSchema>::schema_id()
            }

            fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
                <i32 as schemars::JsonSchema>::json_schema(g)
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

unit_ops!(HalfPoints);
unit_ops!(QuarterPoints);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_are_the_bare_integer() {
        let int = schemars::schema_for!(i32);
        assert_eq!(schemars::schema_for!(HalfPoints), int);
        assert_eq!(schemars::schema_for!(QuarterPoints), int);
    }

    #[test]
    fn sums_and_signs() {
        let total: HalfPoints = [HalfPoints(2), HalfPoints(1), HalfPoints(1)]
            .into_iter()
            .sum();
        assert_eq!(total, HalfPoints(4));
        assert_eq!(QuarterPoints(-7).signum(), -1);
        assert_eq!(QuarterPoints(-7).abs(), QuarterPoints(7));
        assert_eq!(format!("{:>3}", HalfPoints(5)), "  5");
    }
}
