//! Placeholder.
use crate::{Bot, RandomBot};
use uno::{Action, Observation};
#[derive(Clone, Debug)]
pub struct IsmctsConfig {
    pub iterations: u32,
}
impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig { iterations: 1000 }
    }
}
pub struct IsmctsBot(RandomBot);
impl IsmctsBot {
    pub fn new(_c: IsmctsConfig, seed: u64) -> IsmctsBot {
        IsmctsBot(RandomBot::new(seed))
    }
}
impl Bot for IsmctsBot {
    fn name(&self) -> &str {
        "ismcts"
    }
    fn choose(&mut self, obs: &Observation) -> Action {
        self.0.choose(obs)
    }
}
