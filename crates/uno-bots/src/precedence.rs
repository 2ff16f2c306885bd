//! Placeholder.
use crate::Bot;
use uno::{Action, Observation};
pub struct PrecedenceBot;
impl Bot for PrecedenceBot {
    fn name(&self) -> &str {
        "precedence"
    }
    fn choose(&mut self, obs: &Observation) -> Action {
        obs.legal_actions[0]
    }
}
