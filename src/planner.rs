//! The pipeline a user runs: ground, search, validate.
