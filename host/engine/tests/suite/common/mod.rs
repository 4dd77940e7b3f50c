//! Shared helpers of the engine tests: seating built-in bots and scripted ones.

use clue_engine::{Fault, GameConfig, GameRecord, InProcess, SeatController, acting_seats, play};
use clue_plugin_api::{Reply, Request, Variant};

/// Built-in bots by turns: notebook, clueless, notebook, ...
pub fn builtins(n: usize) -> Vec<Box<dyn SeatController>> {
    (0..n)
        .map(|i| -> Box<dyn SeatController> {
            if i % 2 == 0 {
                Box::new(InProcess(notebook::Notebook::default()))
            } else {
                Box::new(InProcess(clueless::Clueless::default()))
            }
        })
        .collect()
}

pub fn play_builtins(config: &GameConfig, seed: u64) -> GameRecord {
    let mut bots = builtins(acting_seats(config));
    play(config, seed, &mut bots).expect("valid config")
}

/// The configurations exercised by the seeded-game tests.
pub fn boardless_configs() -> Vec<GameConfig> {
    let mut configs = Vec::new();
    for p in 3..=6 {
        configs.push(GameConfig::new(Variant::Speedclue, p));
        configs.push(GameConfig::new(Variant::Uniclue, p));
    }
    for (items, hidden, players) in [(20, 2, 3), (13, 1, 4), (30, 3, 3), (9, 1, 2)] {
        let mut config = GameConfig::new(Variant::Generalized, players);
        config.generalized.items = items;
        config.generalized.hidden = hidden;
        configs.push(config);
    }
    configs
}

/// A bot that answers every request with a closure's reply, falling back to an
/// honest `notebook` when the closure returns `None`.
pub struct Scripted<F> {
    pub honest: InProcess<notebook::Notebook>,
    pub script: F,
    pub calls: usize,
}

impl<F> Scripted<F>
where
    F: FnMut(usize, &Request) -> Option<Result<Reply, Fault>>,
{
    pub fn new(script: F) -> Self {
        Scripted {
            honest: InProcess(notebook::Notebook::default()),
            script,
            calls: 0,
        }
    }
}

impl<F> SeatController for Scripted<F>
where
    F: FnMut(usize, &Request) -> Option<Result<Reply, Fault>>,
{
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        self.calls += 1;
        match (self.script)(self.calls, request) {
            Some(answer) => answer,
            None => self.honest.call(request),
        }
    }
}
