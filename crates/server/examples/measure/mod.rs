//! What the two load examples (`load`, `ws_floor`) measure alike: a process's CPU time and the
//! latencies of the actions timed, with their percentiles.

/// User + system CPU time of a process (`self` or a pid) in milliseconds, from `/proc/PID/stat`.
pub fn cpu_ms(pid: &str) -> f64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let f: Vec<&str> = s.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let t: f64 =
        f.get(11).and_then(|x| x.parse().ok()).unwrap_or(0.0) + f.get(12).and_then(|x| x.parse().ok()).unwrap_or(0.0);
    t * 10.0
}

/// Actions timed while measuring, with each one's latency in microseconds.
#[derive(Default)]
pub struct Stats {
    pub lat_us: Vec<u64>,
    pub actions: u64,
}

impl Stats {
    /// The 50th, 95th and 99th percentile latencies, in milliseconds.
    pub fn percentiles_ms(&mut self) -> [f64; 3] {
        self.lat_us.sort_unstable();
        let n = self.lat_us.len();
        [0.50, 0.95, 0.99].map(|q| {
            self.lat_us.get(((n as f64 * q) as usize).min(n.saturating_sub(1))).copied().unwrap_or(0) as f64 / 1000.0
        })
    }
}
