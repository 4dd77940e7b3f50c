//! `sleuth`'s race in Speed Clue against `rival`, the exact counter it is
//! made for: the envelope it bets on is weighed by how often the opponents
//! named its cards (`rival` names its own cards to narrow a question), and
//! those bets are right about half the time. On the plain counts, with the
//! same bar, they were right one time in ten (docs/strength.md).

use std::cell::RefCell;
use std::rc::Rc;

use clue_engine::{GameConfig, InProcess, SeatController, play};
use clue_plugin_api::{
    Accusation, AccuseRequest, Card, Event, MoveRequest, Player, Position, RespondRequest, Setup,
    SuggestRequest, Suggestion, Variant,
};
use clue_runtime::bots;
use sleuth::{Grounds, Sleuth};

/// Every accusation made and its grounds.
type Accusations = Rc<RefCell<Vec<(Vec<Card>, Grounds)>>>;

/// Sleuth, with every accusation it makes and its grounds written down.
struct Spy {
    sleuth: Sleuth,
    accusations: Accusations,
}

impl Player for Spy {
    fn name(&self) -> String {
        self.sleuth.name()
    }
    fn begin_game(&mut self, setup: &Setup) {
        self.sleuth.begin_game(setup);
    }
    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        let accusation = self.sleuth.accuse(request)?;
        let grounds = self
            .sleuth
            .last_grounds()
            .expect("grounds of an accusation");
        self.accusations
            .borrow_mut()
            .push((accusation.cards.clone(), grounds));
        Some(accusation)
    }
    fn move_to(&mut self, request: &MoveRequest) -> Position {
        self.sleuth.move_to(request)
    }
    fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
        self.sleuth.suggest(request)
    }
    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        self.sleuth.respond(request)
    }
    fn watch(&mut self, event: &Event) {
        self.sleuth.watch(event);
    }
}

#[test]
fn race_bets_against_rival_are_right_about_half_the_time() {
    let players = 4;
    let (mut bets, mut right, mut certain_wrong) = (0, 0, 0);
    for seed in 1..=60u64 {
        let mine = (seed % players) as usize;
        let accusations = Accusations::default();
        let mut seats: Vec<Box<dyn SeatController>> = (0..players as usize)
            .map(|s| {
                if s == mine {
                    Box::new(InProcess(Spy {
                        sleuth: Sleuth::default(),
                        accusations: accusations.clone(),
                    })) as Box<dyn SeatController>
                } else {
                    bots::builtin("rival").expect("rival is built in")
                }
            })
            .collect();
        let record = play(
            &GameConfig::new(Variant::Speedclue, players as u8),
            seed,
            &mut seats,
        )
        .expect("a valid game");
        let mut envelope = record.envelope.clone();
        envelope.sort();
        for (cards, grounds) in accusations.borrow().iter() {
            let mut cards = cards.clone();
            cards.sort();
            match grounds {
                Grounds::Odds => {
                    bets += 1;
                    right += usize::from(cards == envelope);
                }
                Grounds::Certain => certain_wrong += usize::from(cards != envelope),
            }
        }
    }
    eprintln!("{bets} race bets in 60 games against three rival, {right} right");
    assert_eq!(certain_wrong, 0, "a wrong accusation sleuth was certain of");
    assert!(bets >= 10, "only {bets} race bets in 60 games");
    assert!(
        right * 100 >= bets * 35,
        "{right} of {bets} race bets right: the weighed odds are not picking the envelope"
    );
}
