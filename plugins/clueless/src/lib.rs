//! clueless
