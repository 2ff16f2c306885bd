//! The fault harness's support (`cluster_chaos.rs` holds the test and the faults): the
//! cluster's nodes and proxies, what the clients saw, the people who play, and the checks made
//! after each fault.

pub mod audit;
pub mod checks;
pub mod node;
pub mod people;
pub mod world;

use std::time::Duration;

/// A setting from the environment, or its default.
pub fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Sleeps `ms` milliseconds.
pub fn pause(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}
