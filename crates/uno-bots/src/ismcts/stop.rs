//! Stopping a search once its answer is settled.
//!
//! The search plays the root move visited most. Each iteration adds one visit to one root
//! move, so once the leader's lead over the runner-up is more than the iterations left, no
//! move can overtake it and the rest of the budget would not change the answer: the search
//! stops there. The moves played are the ones the whole budget would give, but the budget
//! buys more where the choice is close, and a larger budget costs less time on average.

/// How often (in iterations) the root is looked at: a pass over its children costs about as
/// much as an iteration's bookkeeping.
pub(crate) const CHECK_EVERY: u32 = 128;

/// Whether the move visited most can no longer be overtaken with `left` iterations to come,
/// given the root children's visit counts.
pub(crate) fn settled(visits: impl IntoIterator<Item = u32>, left: u32) -> bool {
    // A tie at the end is broken by wins, so the runner-up must not even draw level.
    lead(visits.into_iter().map(f64::from), 0.0) > f64::from(left)
}

/// How far the largest value is ahead of the second largest, each counted from `floor` (the
/// value of a move that is missing). The flat search stops on the same rule with wins.
pub(crate) fn lead(values: impl IntoIterator<Item = f64>, floor: f64) -> f64 {
    let (mut first, mut second) = (floor, floor);
    for v in values {
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    first - second
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settled_only_when_the_runner_up_cannot_draw_level() {
        assert!(settled([50, 10, 5], 39));
        assert!(!settled([50, 10, 5], 40), "40 more visits to the runner-up tie it");
        assert!(!settled([10, 50], 40));
        assert!(settled([10, 50], 39), "the order of the children does not matter");
        assert!(!settled([30, 30], 0), "a tie is not settled");
        assert!(settled([7], 6), "a single move leads by its visits");
        assert!(!settled(std::iter::empty(), 0));
    }
}
