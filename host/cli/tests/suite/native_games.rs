//! Native bots at the table: several plugins and several players of one
//! plugin in one game, both modes; time limits; the `clue play` acceptance
//! games; load errors, named.

use crate::native_support;

use std::process::Command;
use std::time::Duration;

use clue_engine::SeatController;
use clue_plugin_api::DqReason;
use clue_runtime::native::isolated::worker_limits;
use clue_runtime::native::{IsolatedNative, LoadError, NativePlugin, TrustedNative};
use native_support::*;

fn trusted(name: &str) -> Box<dyn SeatController> {
    Box::new(TrustedNative::load(&plugin(name), Duration::from_secs(10)).expect("loads"))
}

fn isolated(name: &str) -> Box<dyn SeatController> {
    Box::new(IsolatedNative::spawn_with(clue(), &plugin(name), &worker_limits()).expect("starts"))
}

#[test]
fn two_plugins_and_two_players_of_each_in_one_game_trusted() {
    // Two libraries side by side in this process, two players from each.
    let seats = vec![
        trusted("notebook"),
        trusted("clueless"),
        trusted("notebook"),
        trusted("clueless"),
    ];
    let record = play(&speedclue(4), 11, seats);
    for seat in 0..4 {
        assert_eq!(dq(&record, seat), None, "seat {seat}");
    }
    // The same seeds with the built-in bots give the same game: the plugins
    // are the bundled bots, each instance with its own state.
    let builtin = ["notebook", "clueless", "notebook", "clueless"]
        .map(|n| clue_runtime::bots::builtin(n).expect("built-in"))
        .into_iter()
        .collect();
    let again = play(&speedclue(4), 11, builtin);
    assert_eq!(record.log, again.log);
    assert_eq!(record.winner, again.winner);
}

#[test]
fn two_plugins_and_two_players_of_each_in_one_game_isolated_and_mixed() {
    let seats = vec![
        isolated("notebook"),
        isolated("clueless"),
        isolated("notebook"),
        trusted("clueless"),
        trusted("notebook"),
    ];
    let record = play(&speedclue(5), 5, seats);
    for seat in 0..5 {
        assert_eq!(dq(&record, seat), None, "seat {seat}");
    }
    let builtin = ["notebook", "clueless", "notebook", "clueless", "notebook"]
        .map(|n| clue_runtime::bots::builtin(n).expect("built-in"))
        .into_iter()
        .collect();
    assert_eq!(record.log, play(&speedclue(5), 5, builtin).log);
}

#[test]
fn an_overrun_is_a_timeout_in_both_modes() {
    let limit = Duration::from_millis(100);
    let trusted = TrustedNative::load(&plugin("sleepy"), limit).expect("loads");
    let mut limits = worker_limits();
    limits.message = limit;
    let isolated = IsolatedNative::spawn_with(clue(), &plugin("sleepy"), &limits).expect("starts");
    let seats: Vec<Box<dyn SeatController>> = vec![
        Box::new(trusted),
        Box::new(isolated),
        clue_runtime::bots::builtin("notebook").expect("built-in"),
    ];
    let record = play(&speedclue(3), 2, seats);
    for seat in 0..2 {
        let (reason, detail) = dq(&record, seat).expect("disqualified");
        assert_eq!(reason, DqReason::Timeout, "seat {seat}: {detail}");
    }
    // Trusted: seen when the call returned; isolated: cut off at the limit.
    let (_, trusted_detail) = dq(&record, 0).expect("disqualified");
    assert!(
        trusted_detail.contains("(limit 100 ms)"),
        "{trusted_detail}"
    );
}

/// Runs `clue` with `args`; returns (exit code, stdout, stderr).
fn clue_run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(clue())
        .args(args)
        .current_dir(root())
        .output()
        .expect("clue runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn clue_play_plays_a_native_notebook_isolated_and_trusted() {
    let library = plugin("notebook");
    let library = library.to_str().expect("a UTF-8 path");
    let mut accounts = Vec::new();
    for kind in ["native", "native-trusted"] {
        let spec = format!("{kind}:{library}");
        let (code, out, err) = clue_run(&[
            "play",
            "--variant",
            "speedclue",
            "--seed",
            "4",
            "--bot",
            &spec,
            "--bot",
            "builtin:clueless",
            "--bot",
            "builtin:clueless",
        ]);
        assert_eq!(code, 0, "{kind}: {err}");
        assert!(!out.contains("disqualified"), "{kind}: {out}");
        assert!(out.contains("game over"), "{out}");
        accounts.push(out.replace(&spec, "BOT"));
    }
    // Both modes play the very same game.
    assert_eq!(accounts[0], accounts[1]);
}

/// A plugin named without a `/` (`native-trusted:libnotebook.so`, from its
/// own folder) is the file there, in both modes: the system's loader would
/// have searched its library folders for that name instead.
#[test]
fn a_plugin_named_by_its_file_name_alone_is_the_file_in_the_working_folder() {
    let library = plugin("notebook");
    let folder = library.parent().expect("the plugin's folder");
    let name = library
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a file name");
    for kind in ["native", "native-trusted"] {
        let output = Command::new(clue())
            .args(["play", "--variant", "speedclue", "--seed", "4", "--bot"])
            .arg(format!("{kind}:{name}"))
            .current_dir(folder)
            // Cargo's test run lists the build's folders there, where the
            // loader's search for the bare name would find the file anyway.
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .expect("clue runs");
        let (out, err) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert_eq!(output.status.code(), Some(0), "{kind}: {err}");
        assert!(!out.contains("disqualified"), "{kind}: {out}");
    }
}

#[test]
fn load_errors_are_named() {
    let check = |name: &str, expected: &str| {
        let path = plugin(name);
        let error = match NativePlugin::load(&path) {
            Ok(_) => panic!("{name} should not load"),
            Err(e) => e,
        };
        let text = error.to_string();
        assert!(text.contains(expected), "{name}: {text}");
        assert!(text.contains(&path.display().to_string()), "{name}: {text}");
        // The same error from `clue play`, in either mode, before the game
        // (a missing file is named by the check of the bots given, before
        // any load, in a tournament's words).
        let expected_by_play = match error {
            LoadError::Missing { .. } => "file not found",
            _ => expected,
        };
        for kind in ["native", "native-trusted"] {
            let spec = format!("{kind}:{}", path.display());
            let (code, out, err) = clue_run(&["play", "--variant", "speedclue", "--bot", &spec]);
            assert_eq!(code, 2, "{kind} {name}: {out}");
            assert!(err.contains(expected_by_play), "{kind} {name}: {err}");
        }
        error
    };
    let error = check(
        "mismatch",
        "was built against plugin-api 0.0.9; this host speaks 0.1",
    );
    assert!(matches!(error, LoadError::Version { .. }));
    let error = check("badlayout", "does not match this host's (layout check)");
    assert!(matches!(error, LoadError::Layout { .. }));
    let error = check("plain", "is a library but not a Clue Arena plugin");
    assert!(matches!(error, LoadError::NotAPlugin { .. }));
    let error = check("nothere", "no such file");
    assert!(matches!(error, LoadError::Missing { .. }));
}
