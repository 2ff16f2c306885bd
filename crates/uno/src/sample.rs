//! Determinization: dealing the unseen cards consistently with an observation.
