//! `--preset NAME` / `--rules FILE`, shared by every command that takes a rule set.
