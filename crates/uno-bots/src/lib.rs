//! uno-bots
