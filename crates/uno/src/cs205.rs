//! Seed 004's printed game status (the course's `cs205` format) and its transcript checks.
