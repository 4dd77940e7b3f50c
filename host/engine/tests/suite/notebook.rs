//! `notebook` accuses only when certain: never a wrong accusation of its own choosing.

use crate::common;

use clue_engine::{Fault, GameConfig, InProcess, SeatController, acting_seats, play};
use clue_plugin_api::{Accusation, AccusePoint, Reply, Request, Variant};

/// Records the accusations notebook makes when it is not forced to: not
/// at a forced point, and not a UniClue client's guess once its queries are
/// used up (the next query would disqualify it).
struct Spy {
    inner: InProcess<notebook::Notebook>,
    voluntary: Vec<Accusation>,
    query_limit: Option<u32>,
    queries: u32,
}

impl SeatController for Spy {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let reply = self.inner.call(request)?;
        match (request, &reply) {
            (Request::BeginGame { setup }, _) => {
                self.query_limit = setup.rules.query_limit;
                self.queries = 0;
            }
            (
                Request::Suggest(_),
                Reply::Suggest {
                    suggestion: Some(_),
                },
            ) => self.queries += 1,
            (
                Request::Accuse(r),
                Reply::Accuse {
                    accusation: Some(a),
                },
            ) => {
                let out_of_queries = self.query_limit.is_some_and(|l| self.queries >= l);
                if r.point != AccusePoint::Forced && !out_of_queries {
                    self.voluntary.push(a.clone());
                }
            }
            _ => {}
        }
        Ok(reply)
    }
}

#[test]
fn notebook_never_accuses_wrongly() {
    let mut configs = common::boardless_configs();
    configs.push(GameConfig::new(Variant::Speedclue, 6));
    let mut accusations = 0;
    for config in configs {
        for seed in 0..250u64 {
            let seats = acting_seats(&config);
            let mut spies: Vec<Spy> = (0..seats)
                .map(|_| Spy {
                    inner: InProcess(notebook::Notebook::default()),
                    voluntary: Vec::new(),
                    query_limit: None,
                    queries: 0,
                })
                .collect();
            let record = {
                let mut bots: Vec<Box<dyn SeatController + '_>> = spies
                    .iter_mut()
                    .map(|s| Box::new(s) as Box<dyn SeatController + '_>)
                    .collect();
                play(&config, seed, &mut bots).expect("valid")
            };
            let mut envelope = record.envelope.clone();
            envelope.sort();
            for spy in &spies {
                for a in &spy.voluntary {
                    let mut cards = a.cards.clone();
                    cards.sort();
                    assert_eq!(
                        cards, envelope,
                        "{} seed {seed}: wrong accusation",
                        config.variant
                    );
                    accusations += 1;
                }
            }
        }
    }
    assert!(
        accusations > 1000,
        "notebook should solve most games, made {accusations}"
    );
}

impl SeatController for &mut Spy {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        (**self).call(request)
    }
}
