//! duel
