//! The `.uno` position notation (seed 000): deck, discard and hands files.
