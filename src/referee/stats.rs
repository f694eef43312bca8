//! The results table of a match, per pairing: wins, losses and draws of the first player, the
//! mean score margin in half-points, and the Elo difference with a 95 % interval (the normal
//! approximation of the mean game score, as fastchess and cutechess-cli report it).

/// The tally of one pairing, from the first player's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairing {
    pub first: String,
    pub second: String,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// The first player's forfeits and the second's.
    pub forfeits: [u32; 2],
    /// The first player's margins (its count less the other's, komi applied), in quarter
    /// points, of the games counted.
    pub margins_quarters: Vec<i32>,
}

impl Pairing {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The mean margin of the counted games in half-points (the first player's view).
    pub fn mean_margin_half_points(&self) -> Option<f64> {
        if self.margins_quarters.is_empty() {
            return None;
        }
        let sum: f64 = self.margins_quarters.iter().map(|&q| f64::from(q)).sum();
        Some(sum / self.margins_quarters.len() as f64 / 2.0)
    }

    /// The Elo difference (first minus second) and its 95 % interval.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        elo_interval(self.wins, self.losses, self.draws)
    }

    /// One line of the table.
    pub fn line(&self) -> String {
        let margin = self
            .mean_margin_half_points()
            .map_or_else(|| "—".into(), |m| format!("{m:+.1}"));
        let elo = self.elo().map_or_else(
            || "—".into(),
            |(e, lo, hi)| format!("{} [{}, {}]", fmt_elo(e), fmt_elo(lo), fmt_elo(hi)),
        );
        format!(
            "{} vs {}: {} games, {} wins {} losses {} draws; mean margin {} half-points; Elo {} (95 %); forfeits {} / {}",
            self.first,
            self.second,
            self.games(),
            self.wins,
            self.losses,
            self.draws,
            margin,
            elo,
            self.forfeits[0],
            self.forfeits[1]
        )
    }
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        // rounded first, and `+ 0.0` turns −0 into +0: an even score is `+0`, never `-0`
        format!("{:+.0}", e.round() + 0.0)
    }
}

/// The Elo difference of a mean game score `p` (0 to 1): −400·log10(1/p − 1), infinite at 0 and 1.
pub fn elo_of(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The Elo difference of `wins`, `losses`, `draws` and its 95 % interval: the mean score ±1.96
/// standard errors (the games' scores' deviation over the root of their number), each turned
/// into Elo. `None` without games.
pub fn elo_interval(wins: u32, losses: u32, draws: u32) -> Option<(f64, f64, f64)> {
    let n = f64::from(wins + losses + draws);
    if n == 0.0 {
        return None;
    }
    let (w, l, d) = (
        f64::from(wins) / n,
        f64::from(losses) / n,
        f64::from(draws) / n,
    );
    let p = w + d / 2.0;
    let var = w * (1.0 - p).powi(2) + l * p.powi(2) + d * (0.5 - p).powi(2);
    let se = (var / n).sqrt();
    Some((
        elo_of(p),
        elo_of(p - 1.959964 * se),
        elo_of(p + 1.959964 * se),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_is_plus_zero_elo() {
        assert_eq!(fmt_elo(elo_of(0.5)), "+0");
        assert_eq!(fmt_elo(-0.3), "+0");
        assert_eq!(fmt_elo(-0.6), "-1");
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        assert_eq!(elo_of(0.5), 0.0);
        assert!((elo_of(0.75) - 190.848).abs() < 0.01);
        assert_eq!(elo_of(1.0), f64::INFINITY);
        let (e, lo, hi) = elo_interval(6, 4, 0).expect("games");
        assert!(lo < e && e < hi, "{lo} {e} {hi}");
        assert!((e - 70.437).abs() < 0.01);
        let (e, lo, hi) = elo_interval(10, 0, 0).expect("games");
        assert_eq!((e, lo, hi), (f64::INFINITY, f64::INFINITY, f64::INFINITY));
    }
}
