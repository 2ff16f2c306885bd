//! A sequential probability ratio test on the means of independent values (duplicate sets):
//! is the mean at most `mu0` (H0) or at least `mu1` (H1)?
//!
//! The values need not be Bernoulli (a deal's win-share difference takes a handful of values),
//! so this is the generalized SPRT of the chess-engine testing frameworks: the log-likelihood
//! ratio of two normal laws with the sample's own variance,
//! `LLR = (mu1 - mu0) · (2·sum - n·(mu0 + mu1)) / (2·var)`,
//! against Wald's bounds `ln(beta / (1 - alpha))` (accept H0) and `ln((1 - beta) / alpha)`
//! (accept H1). Wald's bounds keep the error rates at about `alpha` and `beta` or below; the
//! property test in this module measures them on Bernoulli data with means from 0.4 to 0.6.
//! The sample's variance moves with its mean when the values are skewed (Bernoulli at 0.2:
//! a low run also looks less variable), and then the rate of the error towards the skew grows
//! (β measured 0.14 for 0.08 asked, at 0.20 against 0.22). A deal's win-share difference is
//! centred near 0 in the middle of its range, the well-behaved case.

use serde::Serialize;

use crate::moments::Moments;

/// Values needed before the test may decide: the ratio uses the sample's own variance, and a
/// handful of values can show almost none (two losses in a row), which would decide at once
/// and wrongly (on Bernoulli data, β measured over 0.5 when deciding from two values).
pub const MIN_VALUES: u64 = 30;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub mu0: f64,
    pub mu1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SprtError {
    #[error("alpha and beta must lie strictly between 0 and 1 (got {alpha} and {beta})")]
    ErrorRate { alpha: f64, beta: f64 },
    #[error("the two hypotheses must differ, H1's mean above H0's (got {mu0} and {mu1})")]
    Hypotheses { mu0: f64, mu1: f64 },
}

/// What a sequential test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The mean is at most `mu0`.
    AcceptH0,
    /// The mean is at least `mu1`.
    AcceptH1,
    /// The most values allowed were used without a decision.
    Undecided,
}

/// The test's state when a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    #[serde(flatten)]
    pub test: Sprt,
    /// The log-likelihood ratio; null when the values never varied (identical bots): the
    /// ratio is then unbounded, and the test decides for the hypothesis nearer their value.
    pub llr: Option<f64>,
    /// `[accept H0 at or below, accept H1 at or above]`.
    pub bounds: [f64; 2],
    pub decision: Decision,
    /// Values (deals) used.
    pub n: u64,
}

impl Sprt {
    pub fn new(mu0: f64, mu1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let rate = |p: f64| p > 0.0 && p < 1.0;
        if !(rate(alpha) && rate(beta)) {
            return Err(SprtError::ErrorRate { alpha, beta });
        }
        if !(mu0.is_finite() && mu1.is_finite() && mu1 > mu0) {
            return Err(SprtError::Hypotheses { mu0, mu1 });
        }
        Ok(Sprt { mu0, mu1, alpha, beta })
    }

    pub fn bounds(&self) -> [f64; 2] {
        [(self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln()]
    }

    /// The log-likelihood ratio of H1 against H0; `None` when the values never varied (the
    /// normal model then has no spread and the ratio no bound).
    pub fn llr(&self, m: &Moments) -> Option<f64> {
        let var = m.variance();
        (var > 0.0).then(|| (self.mu1 - self.mu0) * (2.0 * m.sum - m.n as f64 * (self.mu0 + self.mu1)) / (2.0 * var))
    }

    /// The decision the values so far allow, if any (none before [`MIN_VALUES`]).
    pub fn decide(&self, m: &Moments) -> Option<Decision> {
        if m.n < MIN_VALUES {
            return None;
        }
        let [lower, upper] = self.bounds();
        // Values that never vary (identical bots) decide for the hypothesis nearer their value.
        let llr = self.llr(m).unwrap_or_else(|| {
            let middle = 0.5 * (self.mu0 + self.mu1);
            match m.mean().total_cmp(&middle) {
                std::cmp::Ordering::Greater => f64::INFINITY,
                std::cmp::Ordering::Less => f64::NEG_INFINITY,
                std::cmp::Ordering::Equal => 0.0,
            }
        });
        if llr >= upper {
            Some(Decision::AcceptH1)
        } else if llr <= lower {
            Some(Decision::AcceptH0)
        } else {
            None
        }
    }

    pub fn report(&self, m: &Moments, decision: Decision) -> SprtReport {
        SprtReport { test: *self, llr: self.llr(m), bounds: self.bounds(), decision, n: m.n }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Runs the test on Bernoulli(p) values, one look per value, up to `cap` values.
    fn run(test: &Sprt, p: f64, cap: u64, rng: &mut ChaCha8Rng) -> Decision {
        let mut m = Moments::default();
        for _ in 0..cap {
            m.add(if rng.gen_bool(p) { 1.0 } else { 0.0 });
            if let Some(d) = test.decide(&m) {
                return d;
            }
        }
        Decision::Undecided
    }

    proptest! {
        // A fixed seed: the rates are measured, so a rare unlucky draw must not make the suite flaky.
        #![proptest_config(ProptestConfig {
            cases: 12,
            rng_seed: proptest::test_runner::RngSeed::Fixed(19),
            ..ProptestConfig::default()
        })]

        /// Under H0 it accepts H1 about `alpha` of the time or less, under H1 it accepts H0
        /// about `beta` of the time or less (300 runs each; the slack is three standard
        /// errors of a rate measured on 300 runs). The gaps are the ones bot tuning tests
        /// (2–8 points): the normal approximation needs the hundreds of values they take.
        #[test]
        fn error_rates_on_bernoulli_data_stay_within_their_bounds(
            p0 in 0.4f64..0.55,
            gap in 0.02f64..0.08,
            alpha in 0.03f64..0.1,
            beta in 0.03f64..0.1,
            seed in any::<u64>(),
        ) {
            let p1 = p0 + gap;
            let test = Sprt::new(p0, p1, alpha, beta).expect("valid");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let runs = 300;
            let cap = 20_000;
            let mut false_h1 = 0;
            let mut false_h0 = 0;
            let mut undecided = 0;
            for _ in 0..runs {
                match run(&test, p0, cap, &mut rng) {
                    Decision::AcceptH1 => false_h1 += 1,
                    Decision::Undecided => undecided += 1,
                    Decision::AcceptH0 => {}
                }
                match run(&test, p1, cap, &mut rng) {
                    Decision::AcceptH0 => false_h0 += 1,
                    Decision::Undecided => undecided += 1,
                    Decision::AcceptH1 => {}
                }
            }
            let slack = |rate: f64| 3.0 * (rate * (1.0 - rate) / runs as f64).sqrt();
            let (a, b) = (false_h1 as f64 / runs as f64, false_h0 as f64 / runs as f64);
            prop_assert!(a <= alpha + slack(alpha), "alpha {alpha}: measured {a}");
            prop_assert!(b <= beta + slack(beta), "beta {beta}: measured {b}");
            prop_assert_eq!(undecided, 0);
        }
    }

    #[test]
    fn refuses_meaningless_parameters() {
        assert!(matches!(Sprt::new(0.0, 0.02, 0.0, 0.05), Err(SprtError::ErrorRate { .. })));
        assert!(matches!(Sprt::new(0.0, 0.02, 0.05, 1.0), Err(SprtError::ErrorRate { .. })));
        assert!(matches!(Sprt::new(0.02, 0.0, 0.05, 0.05), Err(SprtError::Hypotheses { .. })));
        assert!(matches!(Sprt::new(f64::NAN, 0.0, 0.05, 0.05), Err(SprtError::Hypotheses { .. })));
    }

    #[test]
    fn values_that_never_vary_decide_for_the_nearer_hypothesis() {
        let test = Sprt::new(0.0, 0.02, 0.05, 0.05).expect("valid");
        let mut m = Moments::default();
        for _ in 1..MIN_VALUES {
            m.add(0.0);
        }
        assert_eq!(test.decide(&m), None);
        m.add(0.0);
        assert_eq!(test.decide(&m), Some(Decision::AcceptH0));
    }
}
