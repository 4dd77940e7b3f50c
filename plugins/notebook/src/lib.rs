//! notebook
