//! Placeholder.
use crate::{Bot, RandomBot};
use uno::{Action, Observation};
#[derive(Clone, Debug, Default)]
pub struct HeuristicConfig;
pub struct HeuristicBot(RandomBot);
impl HeuristicBot {
    pub fn new(seed: u64) -> HeuristicBot {
        HeuristicBot(RandomBot::new(seed))
    }
}
impl Bot for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }
    fn choose(&mut self, obs: &Observation) -> Action {
        self.0.choose(obs)
    }
}
