//! Hostile bots (grown as the runtimes land).
