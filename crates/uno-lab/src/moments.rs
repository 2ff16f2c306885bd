//! A sample's count, sum and sum of squares: its mean, variance and normal interval, shared by
//! the duplicate matches, the sequential test and the analysis.

/// Variances below this are rounding noise of values that do not vary.
const ROUNDING: f64 = 1e-18;
/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_964;

/// Count, sum and sum of squares of a sample: its mean, variance and interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    pub n: u64,
    pub sum: f64,
    pub sum_sq: f64,
}

impl Moments {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }
    pub fn merge(&mut self, other: &Moments) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }
    pub fn mean(&self) -> f64 {
        self.sum / self.n.max(1) as f64
    }
    /// The unbiased sample variance (0 below two values, and for rounding noise: a quarter
    /// computed as 1/3 + 1/3 + 1/3 over 4 is not exactly one).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let v = (self.sum_sq - self.sum * self.sum / n) / (n - 1.0);
        if v < ROUNDING {
            0.0
        } else {
            v
        }
    }
    /// The variance of the mean.
    pub fn variance_of_mean(&self) -> f64 {
        self.variance() / self.n.max(1) as f64
    }
    /// The normal 95% interval of the mean (none below two values).
    pub fn ci95(&self) -> Option<[f64; 2]> {
        (self.n >= 2).then(|| {
            let half = Z95 * self.variance_of_mean().sqrt();
            [self.mean() - half, self.mean() + half]
        })
    }
}
