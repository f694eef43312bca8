//! The results table of a match, per pairing: wins, losses and draws of the first player, the
//! mean score margin in half-points, and the Elo difference with a 95 % interval (the normal
//! approximation of the mean game score, as fastchess and cutechess-cli report it), and the
//! sequential probability ratio test that stops a match once it has decided (`--sprt`).

use m3go_engine::QuarterPoints;

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
    pub margins_quarters: Vec<QuarterPoints>,
}

impl Pairing {
    /// The games counted: wins, losses and draws.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The mean margin of the counted games in half-points (the first player's view).
    pub fn mean_margin_half_points(&self) -> Option<f64> {
        if self.margins_quarters.is_empty() {
            return None;
        }
        let sum: f64 = self.margins_quarters.iter().map(|&q| f64::from(q.0)).sum();
        Some(sum / self.margins_quarters.len() as f64 / 2.0)
    }

    /// The Elo difference (first minus second) and its 95 % interval.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        elo_interval(self.wins, self.losses, self.draws)
    }

    /// One line of the table. A margin or an Elo that cannot be given says why: no game
    /// counted by the rules (every one forfeited or resigned), every game lost or won (a score
    /// of 0 or 1, whose Elo and interval are infinite).
    pub fn line(&self) -> String {
        let margin = self.mean_margin_half_points().map_or_else(
            || "— (no game was counted by the rules: each was forfeited or resigned)".into(),
            |m| format!("{m:+.1} half-points"),
        );
        let elo = match self.elo() {
            None => "— (no game)".into(),
            Some((e, _, _)) if e.is_infinite() => format!(
                "{} (every game {}: no finite estimate or interval; play a closer opponent)",
                fmt_elo(e),
                if e > 0.0 { "won" } else { "lost" }
            ),
            Some((e, lo, hi)) => {
                format!("{} [{}, {}] (95 %)", fmt_elo(e), fmt_elo(lo), fmt_elo(hi))
            }
        };
        format!(
            "{} vs {}: {} games, {} wins {} losses {} draws; mean margin {}; Elo {}; forfeits {} / {}",
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
pub(crate) fn elo_of(p: f64) -> f64 {
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
pub(crate) fn elo_interval(wins: u32, losses: u32, draws: u32) -> Option<(f64, f64, f64)> {
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

/// `--sprt ELO0,ELO1[,ALPHA,BETA]`: the sequential probability ratio test of fastchess and
/// cutechess-cli between H0 "the first player is ELO0 stronger" and H1 "ELO1 stronger" (logistic
/// Elo), with the error rates ALPHA (accepting H1 when H0 holds) and BETA (the reverse), 0.05
/// each unless given. The log-likelihood ratio is the generalised SPRT's normal approximation
/// over the trinomial of wins, draws and losses (fastchess's `model=logistic`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Why an `--sprt` does not read ([`Sprt::parse`]); each holds the value given (its messages
/// quote it short, however long the argument).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SprtError {
    /// Not two or four numbers.
    Shape(String),
    /// A part that is not a number.
    NotANumber { part: String, value: String },
    /// Not ELO0 < ELO1 within ±2000.
    Elo(String),
    /// ALPHA or BETA not above 0 and below 0.5.
    Risks(String),
}

/// What an SPRT expects, as its messages say.
const SPRT_EXPECTED: &str = "expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (`0,10`, `0,10,0.05,0.05`)";

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = |v: &str| crate::io::clip(v, 60);
        match self {
            SprtError::Shape(v) => write!(f, "`{}`: {SPRT_EXPECTED}", shown(v)),
            SprtError::NotANumber { part, value } => write!(
                f,
                "`{}` in `{}` is not a number: {SPRT_EXPECTED}",
                crate::io::clip(part, 30),
                shown(value)
            ),
            SprtError::Elo(v) => {
                write!(f, "`{}`: expected ELO0 < ELO1, each within ±2000", shown(v))
            }
            SprtError::Risks(v) => write!(
                f,
                "`{}`: expected ALPHA and BETA above 0 and below 0.5",
                shown(v)
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// What an SPRT says of the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H0 accepted: the first player is not ELO1 stronger.
    H0,
    /// H1 accepted: it is at least ELO1 stronger (more than ELO0).
    H1,
    /// Neither bound is crossed: more games are needed.
    Continue,
}

impl Sprt {
    /// Reads `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (ELO0 < ELO1, 0 < ALPHA, BETA < 0.5).
    pub fn parse(v: &str) -> Result<Sprt, SprtError> {
        let parts: Vec<&str> = v.split(',').map(str::trim).collect();
        if parts.len() != 2 && parts.len() != 4 {
            return Err(SprtError::Shape(v.to_string()));
        }
        let mut x = [0.0, 0.0, 0.05, 0.05];
        for (k, p) in parts.iter().enumerate() {
            x[k] = p
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    part: p.to_string(),
                    value: v.to_string(),
                })?;
        }
        let [elo0, elo1, alpha, beta] = x;
        if elo0 >= elo1 || elo0.abs() > 2000.0 || elo1.abs() > 2000.0 {
            return Err(SprtError::Elo(v.to_string()));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(SprtError::Risks(v.to_string()));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: ln(β/(1−α)) and ln((1−β)/α) (±2.94 at 0.05).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `wins`, `losses`, `draws` (the first player's): N·(s1−s0)·
    /// (2s−s0−s1) / (2σ²), s the mean score, σ² its per-game variance, s0 and s1 the scores of
    /// ELO0 and ELO1. Each count is raised by one half first (Jeffreys' prior), so that a run
    /// of one result alone (σ² = 0 otherwise: an infinite ratio) needs games to decide, as a
    /// single game never does. 0 without games.
    pub fn llr(&self, wins: u32, losses: u32, draws: u32) -> f64 {
        if wins + losses + draws == 0 {
            return 0.0;
        }
        let eps = 0.5;
        let (w, l, d) = (
            f64::from(wins) + eps,
            f64::from(losses) + eps,
            f64::from(draws) + eps,
        );
        let n = w + l + d;
        let (pw, pl, pd) = (w / n, l / n, d / n);
        let s = pw + pd / 2.0;
        let var = pw * (1.0 - s).powi(2) + pl * s.powi(2) + pd * (0.5 - s).powi(2);
        let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (score(self.elo0), score(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The verdict on `wins`, `losses`, `draws`.
    pub fn verdict(&self, wins: u32, losses: u32, draws: u32) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        let llr = self.llr(wins, losses, draws);
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }

    /// The SPRT's line of the results: the ratio, its bounds, the hypotheses and the verdict.
    pub fn line(&self, p: &Pairing) -> String {
        let (lower, upper) = self.bounds();
        let verdict = match self.verdict(p.wins, p.losses, p.draws) {
            SprtVerdict::H0 => format!(
                "H0 accepted ({} over {}: {:+} Elo rather than {:+})",
                p.first, p.second, self.elo0, self.elo1
            ),
            SprtVerdict::H1 => format!(
                "H1 accepted ({} over {}: {:+} Elo rather than {:+})",
                p.first, p.second, self.elo1, self.elo0
            ),
            SprtVerdict::Continue => "no decision yet".to_string(),
        };
        format!(
            "SPRT {} vs {}: LLR {:.2} ({:.2}, {:.2}) [{}, {}]: {}",
            p.first,
            p.second,
            self.llr(p.wins, p.losses, p.draws),
            lower,
            upper,
            self.elo0,
            self.elo1,
            verdict
        )
    }
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

    #[test]
    fn sprt_bounds_and_verdicts() {
        let t = Sprt::parse("0,10").expect("reads");
        let (lo, hi) = t.bounds();
        assert!(
            (lo + 2.944).abs() < 0.001 && (hi - 2.944).abs() < 0.001,
            "{lo} {hi}"
        );
        assert_eq!(t.llr(0, 0, 0), 0.0);
        // an even score leans to H0 (the first player is not 10 Elo stronger), more with more games
        assert!(t.llr(50, 50, 0) < 0.0);
        assert!(t.llr(500, 500, 0) < t.llr(50, 50, 0));
        assert_eq!(t.verdict(5000, 5000, 0), SprtVerdict::H0);
        // one game never decides; a run of wins alone does, soon; a lopsided score takes longer
        assert_eq!(t.verdict(1, 0, 0), SprtVerdict::Continue);
        assert_eq!(t.verdict(20, 0, 0), SprtVerdict::H1);
        assert_eq!(t.verdict(18, 2, 0), SprtVerdict::Continue);
        assert_eq!(t.verdict(90, 10, 0), SprtVerdict::H1);
        assert_eq!(t.verdict(3, 2, 1), SprtVerdict::Continue);
        let wide = Sprt::parse("0, 10, 0.01, 0.01").expect("reads");
        assert!(wide.bounds().1 > hi);
        for bad in [
            "10,0",
            "0",
            "0,10,0.05",
            "0,x",
            "0,10,0,0.05",
            "0,10,0.5,0.05",
            "0,inf",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sprt_llr_matches_the_closed_form() {
        // 60.5 wins, 30.5 losses, 10.5 draws (each raised by one half: 101.5 in all) against
        // H0 = 0, H1 = 20: s0 = 0.5, s1 = 1/(1+10^(-0.05))
        let t = Sprt::parse("0,20").expect("reads");
        let s1 = 1.0 / (1.0 + 10f64.powf(-0.05));
        let (w, l, d) = (60.5 / 101.5, 30.5 / 101.5, 10.5 / 101.5);
        let s = w + d / 2.0;
        let var = w * (1.0 - s) * (1.0 - s) + l * s * s + d * (0.5 - s) * (0.5 - s);
        let expected = 101.5 * (s1 - 0.5) * (2.0 * s - 0.5 - s1) / (2.0 * var);
        assert!(
            (t.llr(60, 30, 10) - expected).abs() < 0.01,
            "{}",
            t.llr(60, 30, 10)
        );
    }
}
