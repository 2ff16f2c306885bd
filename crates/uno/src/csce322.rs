//! Seed 000's four operations, driven by its precedence policy.
