//! `clue play` and `clue replay` as a user runs them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn clue(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(args)
        .output()
        .expect("the clue binary runs")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A path named `name` in a scratch directory that is removed when the
/// returned guard drops.
fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let path = dir.path().join(name);
    (dir, path)
}

#[test]
fn each_boardless_variant_prints_a_whole_game() {
    for args in [
        vec!["--variant", "speedclue", "--players", "4"],
        vec![
            "--variant",
            "generalized",
            "--items",
            "20",
            "--hidden",
            "2",
            "--players",
            "3",
        ],
        vec!["--variant", "uniclue", "--players", "4"],
    ] {
        let mut all = vec!["play", "--seed", "1"];
        all.extend(args.iter());
        let out = clue(&all);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(stdout.contains("envelope:"), "{stdout}");
        assert!(stdout.contains("game over after"), "{stdout}");
        assert!(
            stdout.contains("suggests") || stdout.contains("asks"),
            "{stdout}"
        );
    }
}

#[test]
fn a_logged_game_replays_identically_and_a_tampered_one_does_not() {
    let (_log_dir, log) = temp("speed.jsonl");
    let log_s = log.to_str().unwrap();
    let out = clue(&[
        "play",
        "--variant",
        "speedclue",
        "--players",
        "5",
        "--seed",
        "42",
        "--bot",
        "builtin:clueless",
        "--log",
        log_s,
    ]);
    assert!(out.status.success(), "{}", text(&out).1);
    let out = clue(&["replay", log_s]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.starts_with("identical"), "{stdout}");

    // Change the seed in the header: the replay must notice.
    let content = std::fs::read_to_string(&log).unwrap();
    let tampered = content.replacen("\"seed\":42", "\"seed\":43", 1);
    assert_ne!(content, tampered);
    std::fs::write(&log, tampered).unwrap();
    let out = clue(&["replay", log_s]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).0.starts_with("differs at event"),
        "{}",
        text(&out).0
    );
}

/// A log that is not one, or is cut short: `clue replay` names the file,
/// the line and the column where reading stopped, and exits 2.
#[test]
fn a_broken_log_is_named_at_its_line_and_column() {
    let (_log_dir, log) = temp("game.jsonl");
    let log_s = log.to_str().unwrap();
    let out = clue(&["play", "--seed", "3", "--quiet", "--log", log_s]);
    assert!(out.status.success(), "{}", text(&out).1);
    let content = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = content.lines().collect();
    let cases = [
        // Cut short in the middle of its third line.
        (
            format!("{}\n{}\n{{\"event\": ", lines[0], lines[1]),
            ":3:10: EOF while parsing a value".to_string(),
        ),
        // Another format's header.
        (
            content.replacen("\"clue-arena-log\":\"1\"", "\"clue-arena-log\":\"9\"", 1),
            ":1: log format 9 is not the format 1 this host reads".to_string(),
        ),
        (String::new(), ": the file is empty".to_string()),
    ];
    for (broken, expected) in cases {
        std::fs::write(&log, &broken).unwrap();
        let out = clue(&["replay", log_s]);
        assert_eq!(out.status.code(), Some(2), "{expected}");
        assert_eq!(text(&out).1.trim_end(), format!("error: {log_s}{expected}"));
    }
    // A seat that is not a number: serde reads an event whole before its
    // fields, so the column is where the event ends.
    let broken = content.replacen("\"seat\":0", "\"seat\":\"x\"", 1);
    std::fs::write(&log, &broken).unwrap();
    let out = clue(&["replay", log_s]);
    assert_eq!(out.status.code(), Some(2));
    let column = broken.lines().nth(1).unwrap().len();
    assert_eq!(
        text(&out).1.trim_end(),
        format!("error: {log_s}:2:{column}: invalid type: string \"x\", expected u8")
    );
}

/// `clue serve --tournament` with a broken file stops before it listens,
/// naming the file's line and column once, as `clue tournament check` does.
#[test]
fn serve_refuses_a_broken_tournament_file_at_its_place() {
    let (_dir, file) = temp("t.yaml");
    std::fs::write(
        &file,
        "variant: speedclue\nplayers: four\nschedule: {kind: all-seatings}\nbots: []\n",
    )
    .unwrap();
    let file_s = file.to_str().unwrap();
    let expected =
        format!("error: {file_s}:2:10: expected a whole number from 0 to 255, found `four`");
    for args in [
        &["serve", "--port", "0", "--tournament", file_s][..],
        &["tournament", "check", file_s][..],
    ] {
        let out = clue(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out).1.trim_end(), expected, "{args:?}");
    }
}

/// `--log` names a file that cannot be written: refused before the game is
/// played (it was refused after, the game lost). A game that cannot start
/// leaves a log already there as it was, and makes none.
#[test]
fn a_log_that_cannot_be_written_is_refused_before_the_game() {
    let (dir, missing) = temp("no-such-folder/game.jsonl");
    let out = clue(&["play", "--log", missing.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stdout.is_empty(), "the game was played: {stdout}");
    assert!(
        stderr.contains("cannot write the game log")
            && stderr.contains("no-such-folder/game.jsonl"),
        "{stderr}"
    );

    let not_a_library = dir.path().join("bot.so");
    std::fs::write(&not_a_library, "not a library").unwrap();
    let bot = format!("native:{}", not_a_library.display());
    let (old, new) = (dir.path().join("old.jsonl"), dir.path().join("new.jsonl"));
    std::fs::write(&old, "an earlier game\n").unwrap();
    for log in [&old, &new] {
        let out = clue(&["play", "--bot", &bot, "--log", log.to_str().unwrap()]);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("not a loadable library"), "{stderr}");
    }
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "an earlier game\n");
    assert!(!new.exists(), "a log was left by a game that did not start");
}

/// A game with a person in it is logged, but cannot be replayed: the
/// person's answers are not in the log. `clue replay` says so, naming the
/// seat, rather than refusing to seat `builtin:human` as if it were asked to.
#[test]
fn a_game_a_person_played_is_not_replayed() {
    let (_dir, log) = temp("person.jsonl");
    let log_s = log.to_str().unwrap();
    // The person's terminal is closed at once: the bots finish the game.
    let out = clue(&["play", "--bot", "builtin:human", "--log", log_s]);
    assert!(out.status.success(), "{}", text(&out).1);
    let out = clue(&["replay", log_s]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("seat 0 was played by a person (builtin:human)")
            && stderr.contains("not in the log"),
        "{stderr}"
    );
}

#[test]
fn a_replay_from_another_folder_says_where_to_replay_from() {
    // The game's bot is `python3 bot.py`, run in the folder `clue play` ran
    // in; replayed from elsewhere, the script is not there.
    let played = tempfile::tempdir().expect("a scratch directory");
    let elsewhere = tempfile::tempdir().expect("a scratch directory");
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/python-example/bot.py");
    std::fs::copy(&bot, played.path().join("bot.py")).expect("copy the example bot");
    let in_dir = |dir: &Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(args)
            .current_dir(dir)
            .output()
            .expect("the clue binary runs")
    };
    let args = [
        "play",
        "--variant",
        "speedclue",
        "--players",
        "3",
        "--seed",
        "4",
        "--quiet",
        "--bot",
        "jsonl:python3 bot.py",
        "--log",
        "g.jsonl",
    ];
    let out = in_dir(played.path(), &args);
    assert!(out.status.success(), "{}", text(&out).1);
    let out = in_dir(played.path(), &["replay", "g.jsonl"]);
    assert!(out.status.success(), "{}", text(&out).0);
    let log = played.path().join("g.jsonl");
    let out = in_dir(elsewhere.path(), &["replay", log.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stdout.is_empty(), "nothing was replayed: {stdout}");
    assert!(
        stderr.contains("bot `jsonl:python3 bot.py`: `bot.py` on its command line names no file")
            && stderr.contains("replay from the folder the game was played in"),
        "{stderr}"
    );
}

#[test]
fn bad_flags_exit_with_code_two_and_a_clear_message() {
    let check = |args: &[&str], part: &str| {
        let out = clue(args);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(part),
            "{args:?}: `{stderr}` should mention `{part}`"
        );
    };
    check(&["play", "--variant", "chess"], "unknown variant `chess`");
    check(
        &["play", "--variant", "speedclue", "--players", "9"],
        "3 to 6 players",
    );
    check(&["play", "--bot", "notebook"], "write it as KIND:TARGET");
    check(
        &["play", "--bot", "builtin:sherlock"],
        "unknown built-in bot `sherlock`",
    );
    check(
        &["play", "--bot", "carrier:pigeon"],
        "unknown kind `carrier`",
    );
    // A slip of a name gets the name it is a slip of; a word far from
    // every name (above) gets none.
    check(
        &["play", "--variant", "speedcleu"],
        "speedclue): did you mean `speedclue`?\n",
    );
    check(
        &["play", "--bot", "builtin:Sleth"],
        "rival): did you mean `sleuth`?\n",
    );
    check(
        &["play", "--bot", "jsnl:python3 bot.py"],
        "speedclue): did you mean `jsonl`?\n",
    );
    for no_hint in [
        &["play", "--variant", "chess"][..],
        &["play", "--bot", "builtin:sherlock"][..],
    ] {
        let out = clue(no_hint);
        assert!(!text(&out).1.contains("did you mean"), "{no_hint:?}");
    }
    check(
        &[
            "play",
            "--variant",
            "generalized",
            "--items",
            "20",
            "--hidden",
            "3",
            "--players",
            "3",
        ],
        "divisible by p",
    );
    check(
        &[
            "play",
            "--players",
            "3",
            "--bot",
            "builtin:notebook",
            "--bot",
            "builtin:notebook",
            "--bot",
            "builtin:notebook",
            "--bot",
            "builtin:notebook",
        ],
        "4 bots given",
    );
    check(
        &["replay", "/nonexistent/game.jsonl"],
        "/nonexistent/game.jsonl",
    );
    check(&["play", "--seed", "minus one"], "invalid value");
    // The flag is held to the file's bound, before any file is read.
    check(
        &[
            "tournament",
            "run",
            "/nonexistent/t.yaml",
            "--concurrency",
            "100000",
        ],
        "concurrency 100000 is more than the 1024 games one process may play at once",
    );
    check(
        &[
            "tournament",
            "worker",
            "--db",
            "/nonexistent/r.sqlite",
            "--concurrency",
            "many",
        ],
        "invalid value 'many' for '--concurrency <N>': invalid digit found in string",
    );
}

#[test]
fn variant_files_give_options_and_precise_errors() {
    let (_good_dir, good) = temp("good.yaml");
    std::fs::write(
        &good,
        "variant: generalized\nplayers: 4\nitems: 26\nhidden: 2\nmax_rounds: 50\n",
    )
    .unwrap();
    let out = clue(&[
        "play",
        "--variant-file",
        good.to_str().unwrap(),
        "--seed",
        "3",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("generalized game, 4 players"),
        "{stdout}"
    );

    let (_bad_dir, bad) = temp("bad.yaml");
    std::fs::write(&bad, "variant: generalized\nplayers: 4\nitemz: 26\n").unwrap();
    let out = clue(&["play", "--variant-file", bad.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    // One line, `FILE:LINE:COLUMN: message`, as a tournament file's: no
    // rendered snippet of the parser's.
    assert_eq!(
        stderr.trim_end(),
        format!(
            "error: {}:3:1: unknown field `itemz`, expected one of variant, players, \
             max_rounds, items, hidden, rooms, query_limit, contest_rules, width, persons, \
             weapons, layout, setup, table: did you mean `items`?",
            bad.display()
        ),
    );

    let (_wrong_type_dir, wrong_type) = temp("wrong.yaml");
    std::fs::write(&wrong_type, "players: lots\nmax_rounds: -1\n").unwrap();
    let out = clue(&["play", "--variant-file", wrong_type.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out).1.trim_end(),
        format!(
            "error: {}:1:10: expected a whole number from 0 to 255, found `lots`",
            wrong_type.display()
        ),
    );

    // A value the variant's rules refuse is placed at it in the file; values
    // that do not go together are named with the flags given with the file.
    let (_uneven_dir, uneven) = temp("uneven.yaml");
    let uneven_s = uneven.to_str().unwrap();
    for (yaml, place, message) in [
        (
            "variant: generalized\nitems: 20\nhidden: 3\n",
            "3:9",
            "generalized needs (n - k) divisible by p: n = 20, k = 3, p = 3",
        ),
        (
            "variant: uniclue\nrooms: [3, 12]\n",
            "2:12",
            "uniclue room 12 does not exist (rooms are 1 to 9)",
        ),
        (
            "variant: uniclue\nrooms:\n  - 3\n  - 0\n",
            "4:5",
            "uniclue room 0 does not exist (rooms are 1 to 9)",
        ),
        (
            "{variant: framework, width: 3}",
            "1:29",
            "framework needs a width of at least 5, got 3",
        ),
        (
            "variant: framework\npersons: 4\nweapons: 0\n",
            "3:10",
            "framework needs at least one person and one weapon",
        ),
        ("max_rounds: 0\n", "1:13", "max_rounds must be at least 1"),
        (
            "variant: generalized\nplayers: 2\nitems: 602\nhidden: 2\n",
            "3:8",
            "generalized's deck of 602 cards, 2 hidden, deals hands of up to 300 cards to 2 \
             players; a hand holds at most 255 (a bot is told each hand's size in a byte): use \
             fewer items or more players",
        ),
        (
            "variant: cyberclue\nplayers: 3\n",
            "2:10",
            "cyberclue is played by 2, 4 or 5 players, not 3",
        ),
    ] {
        std::fs::write(&uneven, yaml).unwrap();
        let out = clue(&["play", "--variant-file", uneven_s, "--quiet"]);
        assert_eq!(out.status.code(), Some(2), "{yaml}");
        assert_eq!(
            text(&out).1.trim_end(),
            format!("error: {uneven_s}:{place}: {message}"),
            "{yaml}"
        );
    }
    // The same value given as a flag is the flag's, not the file's.
    let out = clue(&[
        "play",
        "--variant-file",
        uneven_s,
        "--players",
        "3",
        "--quiet",
    ]);
    assert_eq!(
        text(&out).1.trim_end(),
        format!(
            "error: {uneven_s} with --players: cyberclue is played by 2, 4 or 5 players, not 3"
        ),
    );
    // A flag's own error does not name a file that gave nothing to it.
    let out = clue(&[
        "play",
        "--variant-file",
        uneven_s,
        "--variant",
        "speedclue",
        "--players",
        "8",
        "--quiet",
    ]);
    assert_eq!(
        text(&out).1.trim_end(),
        "error: speedclue is played by 3 to 6 players, not 8"
    );
    std::fs::write(&uneven, "variant: generalized\nitems: 20\nhidden: 3\n").unwrap();
    let out = clue(&[
        "play",
        "--variant-file",
        uneven_s,
        "--players",
        "4",
        "--hidden",
        "2",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out).1.trim_end(),
        format!(
            "error: {uneven_s} with --players, --hidden: generalized needs (n - k) divisible \
             by p: n = 20, k = 2, p = 4"
        ),
    );
}

/// A flag or a variant file's option of another variant would be ignored:
/// refused, naming where it was given.
#[test]
fn an_option_of_another_variant_is_refused() {
    let out = clue(&[
        "play",
        "--variant",
        "speedclue",
        "--rooms",
        "3,5",
        "--quiet",
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--rooms: `rooms` applies to uniclue, not speedclue"),
        "{stderr}"
    );
    let out = clue(&[
        "play",
        "--variant",
        "uniclue",
        "--no-contest-rules",
        "--quiet",
    ]);
    assert!(
        text(&out)
            .1
            .contains("--no-contest-rules: `contest_rules` applies to speedclue, not uniclue"),
        "{:?}",
        text(&out)
    );
    let (_dir, file) = temp("v.yaml");
    std::fs::write(&file, "variant: generalized\nitems: 20\nhidden: 2\n").unwrap();
    let file_s = file.to_str().unwrap();
    // The flag's variant wins over the file's, and the file's items are
    // then of another variant.
    let out = clue(&[
        "play",
        "--variant-file",
        file_s,
        "--variant",
        "classic",
        "--quiet",
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{file_s}: `items:`: `items` applies to generalized, not classic"
        )),
        "{stderr}"
    );
    let out = clue(&[
        "play",
        "--variant-file",
        file_s,
        "--players",
        "3",
        "--quiet",
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
}

/// A board's two files may come one from the variant file and one from the
/// command line; one alone is refused, naming where it came from, rather
/// than played on the default board.
#[test]
fn a_boards_files_merge_from_the_variant_file_and_the_flags() {
    let board = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/boards/community/BrownHub-Clue");
    let (layout, setup) = (board.join("ClueLayout.csv"), board.join("ClueSetup.txt"));
    let (_dir, file) = temp("board.yaml");
    std::fs::write(
        &file,
        format!("variant: classic\nlayout: {}\n", layout.display()),
    )
    .unwrap();
    let file_s = file.to_str().unwrap();

    let out = clue(&["play", "--variant-file", file_s, "--quiet"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "a board is two files: the layout is given ({}, from the variant file) but not \
             the setup: give --setup FILE or `setup:` in the variant file",
            layout.display()
        )),
        "{stderr}"
    );

    let out = clue(&[
        "play",
        "--variant",
        "classic",
        "--setup",
        setup.to_str().unwrap(),
        "--quiet",
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the setup is given (")
            && stderr.contains(", from --setup) but not the layout"),
        "{stderr}"
    );

    // The layout from the file, the setup from the flag: the community
    // board's game (its Pizza Place and Vape Shop), not the project's.
    let out = clue(&[
        "play",
        "--variant-file",
        file_s,
        "--setup",
        setup.to_str().unwrap(),
        "--seed",
        "4",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("classic game, "), "{stdout}");
    assert!(
        stdout.contains("Pizza Place") && stdout.contains("Vape Shop"),
        "{stdout}"
    );
}

#[test]
fn doctor_prints_every_sandbox_layer_and_all_are_available_here() {
    // CI runs as root in a VM like the development machine: every layer
    // must be there (a missing one fails this test, naming it).
    let out = clue(&["doctor"]);
    let (stdout, stderr) = text(&out);
    for layer in [
        "Landlock",
        "seccomp filter",
        "namespaces (PID, mount, network",
        "cgroup process cap",
        "cgroup memory cap",
        "cgroup CPU time",
        "overlay file system (a build's throwaway copy",
    ] {
        let line = stdout
            .lines()
            .find(|l| l.contains(layer))
            .unwrap_or_else(|| panic!("no `{layer}` line:\n{stdout}"));
        assert!(line.trim_start().starts_with("available"), "{line}");
    }
    // Which cgroup hierarchy is used is said (v1 here: its memory and pids
    // controllers are writable as root; v2 only where v1 is not).
    assert!(
        stdout.contains("cgroup v1, controllers pids, memory, cpuacct"),
        "{stdout}"
    );
    assert!(stdout.contains("sandboxed bots can start here"), "{stdout}");
    assert!(out.status.success(), "{stdout}{stderr}");
}

#[test]
fn the_no_sandbox_flag_is_accepted_before_a_subcommand() {
    let out = clue(&[
        "--no-sandbox",
        "play",
        "--quiet",
        "--variant",
        "speedclue",
        "--players",
        "3",
        "--bot",
        "builtin:notebook",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
}

/// `clue bench decisions` times sleuth against the opponents asked for:
/// against `rival` its Speed Clue race runs, the slowest decisions it makes.
#[test]
fn bench_decisions_times_sleuth_against_the_chosen_opponents() {
    let out = clue(&[
        "bench",
        "decisions",
        "--games",
        "2",
        "--players",
        "4",
        "--variant",
        "speedclue",
        "--against",
        "rival",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("against rival, 4 players, 2 games"),
        "{stdout}"
    );
    assert!(stdout.contains("speedclue  suggest"), "{stdout}");
    assert!(stdout.contains("every decision within 100 ms"), "{stdout}");

    // By default every classic-deck variant and the framework grid, whose
    // larger deck once made a decision take 160 ms (the sampler's start).
    let out = clue(&["bench", "decisions", "--games", "1"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for variant in ["speedclue", "classic", "csci306", "uniclue", "framework"] {
        assert!(
            stdout.contains(&format!("{variant:<10} accuse")),
            "{variant}: {stdout}"
        );
    }

    let out = clue(&["bench", "decisions", "--games", "1", "--against", "nobody"]);
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success(), "{stdout}");
    assert!(stderr.contains("no built-in bot `nobody`"), "{stderr}");
}

/// A tournament folder (not under `/tmp`, a sandboxed build's own) with an
/// empty `entrants/NAME` for each of `names`, open to every user and, when
/// the host is root, owned by `nobody` (a sandboxed build runs as its
/// folder's owner, never as root).
fn entrants_folder(names: &[&str]) -> (tempfile::TempDir, Vec<std::path::PathBuf>) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    let entrants: Vec<_> = names
        .iter()
        .map(|name| dir.path().join("entrants").join(name))
        .collect();
    for entrant in &entrants {
        std::fs::create_dir_all(entrant).expect("the entrant's folder");
    }
    let open = [dir.path().to_path_buf(), dir.path().join("entrants")];
    for folder in open.iter().chain(&entrants) {
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    // SAFETY: `geteuid` has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        for entrant in &entrants {
            std::os::unix::fs::chown(entrant, Some(65534), Some(65534)).expect("chown");
        }
    }
    (dir, entrants)
}

/// `clue tournament check` validates a file, and with `--build` builds its
/// bots, without playing: it says what `run` would play and how each bot
/// is built; a mistake is named at its line.
#[test]
fn tournament_check_validates_and_builds_without_playing() {
    let (dir, entrants) = entrants_folder(&["c", "d"]);
    let entrant = &entrants[0];
    let file = dir.path().join("t.yaml");
    std::fs::write(
        &file,
        "variant: uniclue
players: 4
schedule: {kind: random, games: 7}
bots:
  - name: c
    kind: uniclue
    command: entrants/c/client
    build: {command: \"printf '#!/bin/sh\\\\n' > client; chmod +x client\", dir: entrants/c}
  - name: d
    kind: uniclue
    command: entrants/d/client
    build: {command: \"printf '#!/bin/sh\\\\n' > client; chmod +x client\", dir: entrants/d, network: [PyPI.org, '*.pythonhosted.org', 'mirror.example:8443']}
  - {name: sleuth, kind: builtin, path: sleuth}
",
    )
    .expect("the file");
    let file_arg = file.to_str().expect("a UTF-8 path");
    let out = clue(&["tournament", "check", file_arg]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "{file_arg}: ok: 1 setting, 3 bots, 7 games
  c (uniclue:{d}/entrants/c/client): built by `printf '#!/bin/sh\\n' > client; chmod +x client` sandboxed, writing only {d}/entrants/c, no network
  d (uniclue:{d}/entrants/d/client): built by `printf '#!/bin/sh\\n' > client; chmod +x client` sandboxed, writing only {d}/entrants/d, reaching only pypi.org:443, *.pythonhosted.org:443, mirror.example:8443 (through the host's proxy)
  sleuth (builtin:sleuth)
",
            d = dir.path().display(),
        )
    );
    assert!(
        !entrant.join("client").exists(),
        "check alone builds nothing"
    );
    let out = clue(&["tournament", "check", "--build", file_arg]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("7 games, every bot built"), "{stdout}");
    assert!(entrant.join("client").is_file(), "the build ran");
    assert!(
        !dir.path().join("results.sqlite").exists(),
        "check plays nothing and makes no store"
    );

    std::fs::write(
        &file,
        "variant: uniclue\nplayers: 4\nschedule: {kind: random, games: 1}\nbots:\n  - {name: s, kind: builtin, path: sleuth}\n",
    )
    .expect("the file");
    let out = clue(&["tournament", "check", file_arg]);
    assert_eq!(
        text(&out).0,
        format!("{file_arg}: ok: 1 setting, 1 bot, 1 game\n  s (builtin:sleuth)\n")
    );

    std::fs::write(
        &file,
        "variant: uniclue\nplayers: 4\nbots:\n  - {name: c, kind: uniclue, comand: x}\n",
    )
    .expect("the file");
    let out = clue(&["tournament", "check", file_arg]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("{file_arg}:4:")), "{stderr}");
    assert!(stderr.contains("comand"), "{stderr}");
}

/// A wheel of one module, `sixlocal` (`VALUE = 6`), written into `folder`
/// with Python's `zipfile`, as `pip wheel` would make it: an entrant's own
/// dependency, installed by the real pip without a network.
fn a_wheel_in(folder: &Path) -> &'static str {
    const WHEEL: &str = "sixlocal-1.0-py3-none-any.whl";
    let script = r#"
import sys, zipfile
files = {
    "sixlocal.py": "VALUE = 6\n",
    "sixlocal-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: sixlocal\nVersion: 1.0\n",
    "sixlocal-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: clue-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
with zipfile.ZipFile(sys.argv[1], "w") as wheel:
    for name, text in files.items():
        wheel.writestr(name, text)
    wheel.writestr("sixlocal-1.0.dist-info/RECORD", "".join(f"{n},,\n" for n in files) + "sixlocal-1.0.dist-info/RECORD,,\n")
"#;
    let status = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(folder.join(WHEEL))
        .status()
        .expect("python3 is needed by this test: install it (Debian: apt-get install python3)");
    assert!(status.success(), "the wheel is written");
    WHEEL
}

/// A sandboxed build whose pip installs into `HOME` (plain `pip install`,
/// which falls back to the user site because the system's packages are not
/// writable) succeeds, but its `HOME` is the build's scratch folder, gone
/// when the build ends: `check --build` warns of it, naming the bot, the
/// folder and the fix. The same package installed with `--target` into the
/// entrant's folder is there afterwards and draws no warning.
#[test]
fn a_build_that_installs_into_its_vanishing_home_is_warned_of() {
    let (dir, entrants) = entrants_folder(&["home", "folder"]);
    let mut wheels = Vec::new();
    for entrant in &entrants {
        std::fs::write(entrant.join("bot.py"), "import sixlocal\n").expect("the bot");
        wheels.push(a_wheel_in(entrant));
    }
    let file = dir.path().join("t.yaml");
    std::fs::write(
        &file,
        format!(
            "variant: uniclue
players: 3
schedule: {{kind: random, games: 1}}
bots:
  - name: home
    kind: uniclue
    command: python3 entrants/home/bot.py
    build: {{command: python3 -m pip install --no-index --no-cache-dir --disable-pip-version-check {w}, dir: entrants/home}}
  - name: folder
    kind: uniclue
    command: python3 entrants/folder/bot.py
    build: {{command: python3 -m pip install --no-index --no-cache-dir --disable-pip-version-check --target deps {w}, dir: entrants/folder}}
  - {{name: sleuth, kind: builtin, path: sleuth}}
",
            w = wheels[0]
        ),
    )
    .expect("the file");
    let file_arg = file.to_str().expect("a UTF-8 path");
    let out = clue(&["tournament", "check", "--build", file_arg]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("every bot built"), "{stdout}");
    assert!(
        stderr.contains(
            "bot `home`: its build left files in its HOME, the build's scratch folder, which is gone now that the build is over, so the bot will not find them when it plays: ~/.local/lib/python3."
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("/site-packages is pip's user site"),
        "{stderr}"
    );
    assert!(stderr.contains("pip install --target deps"), "{stderr}");
    assert!(!stderr.contains("bot `folder`"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(entrants[1].join("deps/sixlocal.py")).expect("installed"),
        "VALUE = 6\n"
    );
    assert!(
        !entrants[0].join("deps").exists() && !entrants[0].join("sixlocal.py").exists(),
        "the home entrant's package is nowhere in its folder"
    );
}

/// A bot disqualified in a run is shown under the standings, by reason, with
/// the first game where it happened and what happened there, the end of
/// its stderr included, so an organizer sees at once why an entrant loses
/// every game; stderr stays quiet at the default log level. A UniClue
/// client's stderr is kept too.
#[test]
fn a_disqualified_bot_is_shown_with_its_first_game_and_the_end_of_its_stderr() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    for (variant, kind, other) in [("classic", "jsonl", "notebook"), ("uniclue", "uniclue", "")] {
        let file = dir.path().join(format!("{variant}.yaml"));
        let db = dir.path().join(format!("{variant}.sqlite"));
        let other = if other.is_empty() {
            String::new()
        } else {
            format!("  - {{name: other, kind: builtin, path: {other}}}\n")
        };
        std::fs::write(
            &file,
            format!(
                "variant: {variant}
players: 3
schedule: {{kind: random, games: 6}}
bots:
  - name: broken
    kind: {kind}
    command: \"sh -c 'echo starting >&2; echo cannot open model.bin >&2; exit 3'\"
  - {{name: sleuth, kind: builtin, path: sleuth}}
{other}"
            ),
        )
        .expect("the file");
        let (file, db) = (file.to_str().expect("UTF-8"), db.to_str().expect("UTF-8"));
        let out = clue(&["tournament", "run", file, "--db", db, "--quiet"]);
        let (run, stderr) = text(&out);
        assert!(out.status.success(), "{variant}: {stderr}");
        assert_eq!(stderr, "", "{variant}: nothing on stderr by default");
        let report = clue(&["tournament", "report", "--db", db]);
        let (report, stderr) = text(&report);
        assert!(stderr.is_empty(), "{variant}: {stderr}");
        // The store may be named bare too, and not both ways at once.
        let bare = clue(&["tournament", "report", db]);
        assert_eq!(text(&bare), (report.clone(), String::new()), "{variant}");
        let both = clue(&["tournament", "report", db, "--db", db]);
        assert_eq!(both.status.code(), Some(2), "{variant}");
        assert!(
            text(&both)
                .1
                .contains("'[STORE]' cannot be used with '--db <PATH>'"),
            "{variant}: {}",
            text(&both).1
        );
        for shown in [&run, &report] {
            let line = shown
                .lines()
                .find(|l| l.starts_with("broken ") && l.contains(" crash "))
                .unwrap_or_else(|| panic!("{variant}: no disqualification line in {shown}"));
            let words: Vec<&str> = line.split_whitespace().collect();
            let count: u32 = words[2].parse().expect("a count");
            assert!(count >= 2, "{variant}: {line}");
            assert_eq!(words[3], "game", "{variant}: {line}");
            // "exited ... before its hello" (or before its first command),
            // or "stopped reading its input", as the race goes.
            assert!(line.contains(" with status 3"), "{variant}: {line}");
            assert!(
                line.contains("; its stderr ends: starting | cannot open model.bin"),
                "{variant}: {line}"
            );
        }
    }
}

/// The plainest entrant, `command: python3 bot.py` with `bot.py` beside the
/// file, run from that folder: under the sandbox the bot starts in its
/// scratch folder, so the host gives it the script whole, and it plays.
#[test]
fn a_bare_script_name_plays_from_the_tournament_files_folder() {
    use std::os::unix::fs::PermissionsExt;
    let contest = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../plugins/python-example/bot.py"
    );
    std::fs::copy(example, contest.path().join("bot.py")).expect("the example bot");
    for path in [contest.path().to_path_buf(), contest.path().join("bot.py")] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    std::fs::write(
        contest.path().join("t.yaml"),
        "variant: classic
players: 3
schedule: {kind: random, games: 3}
bots:
  - {name: py, kind: jsonl, command: python3 bot.py}
  - {name: notebook, kind: builtin, path: notebook}
  - {name: sleuth, kind: builtin, path: sleuth}
",
    )
    .expect("the file");
    let out = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["tournament", "run", "--quiet", "t.yaml", "--db", "t.sqlite"])
        .current_dir(contest.path())
        .output()
        .expect("clue runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("py "))
        .unwrap_or_else(|| panic!("no line for py in {stdout}"));
    let columns: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(columns[1], "3", "three games: {stdout}");
    assert_eq!(columns[8], "0", "never disqualified: {stdout}");
    // The stored seats name the script whole: a game replays the same from
    // another folder.
    let elsewhere = tempfile::tempdir().expect("a folder");
    let db = contest.path().join("t.sqlite");
    for game in ["0", "1", "2"] {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args([
                "replay",
                "--db",
                db.to_str().expect("UTF-8"),
                "--game",
                game,
            ])
            .current_dir(elsewhere.path())
            .output()
            .expect("clue runs");
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success() && stdout.contains("identical"),
            "game {game}: {stdout}{stderr}"
        );
    }
    // With the script gone, the replay differs, and says why: the bot's
    // disqualification on replay and the end of its stderr.
    std::fs::rename(
        contest.path().join("bot.py"),
        contest.path().join("gone.py"),
    )
    .expect("mv");
    let out = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["replay", "--db", db.to_str().expect("UTF-8"), "--game", "0"])
        .current_dir(elsewhere.path())
        .output()
        .expect("clue runs");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("differs at event"), "{stdout}");
    assert!(
        stdout.contains("was disqualified on replay: crash") && stdout.contains("bot.py"),
        "{stdout}"
    );
}

/// Paths in a tournament file are relative to its folder: a script named on
/// a process bot's command line (`python3 bots/wrap.py`), and a file named
/// in a flag's value (`--notes=bots/notes.txt`), are found beside the file
/// when `clue` runs elsewhere, and the bot plays its games; so is a script
/// its build makes.
#[test]
fn a_script_beside_the_tournament_file_plays_when_clue_runs_elsewhere() {
    let contest = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    let elsewhere = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    let bots = contest.path().join("bots");
    std::fs::create_dir(&bots).expect("the bots' folder");
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../plugins/python-example/bot.py"
    );
    std::fs::copy(example, bots.join("bot.py")).expect("the example bot");
    // The example bot, once it has read the file its flag names.
    std::fs::write(
        bots.join("wrap.py"),
        "import os, runpy, sys\n\
         notes = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--notes=')][0]\n\
         open(notes).read()\n\
         sys.argv = sys.argv[:1]\n\
         runpy.run_path(os.path.join(os.path.dirname(__file__), 'bot.py'), run_name='__main__')\n",
    )
    .expect("the wrapper");
    std::fs::write(bots.join("notes.txt"), "notes\n").expect("the notes");
    for folder in [
        contest.path(),
        &bots,
        &bots.join("bot.py"),
        &bots.join("wrap.py"),
        &bots.join("notes.txt"),
    ] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    std::fs::write(
        contest.path().join("t.yaml"),
        "variant: classic
players: 3
schedule: {kind: all-seatings}
bots:
  - {name: py, kind: jsonl, command: python3 bots/wrap.py --notes=bots/notes.txt}
  - {name: sleuth, kind: builtin, path: sleuth}
  - name: made
    kind: jsonl
    command: python3 -u gen/made.py
    build: mkdir -p gen && cp bots/bot.py gen/made.py
",
    )
    .expect("the file");
    let file = contest.path().join("t.yaml");
    let db = contest.path().join("t.sqlite");
    let out = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["tournament", "run", "--quiet", "--db"])
        .args([&db, &file])
        .current_dir(elsewhere.path())
        .output()
        .expect("clue runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("disqualified"), "{stderr}");
    assert!(
        contest.path().join("gen/made.py").is_file(),
        "the build ran"
    );
    // The `DQ` column of each script's line of the standings.
    for bot in ["py ", "made "] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(bot))
            .unwrap_or_else(|| panic!("no line for {bot}in {stdout}"));
        let columns: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(columns[1], "6", "six games: {stdout}");
        assert_eq!(columns[8], "0", "never disqualified: {stdout}");
    }
}

/// The bundled tournament files, checked from the checkout's root and from
/// another folder: their paths are written from their own folder, so both
/// name the same files; the framework one also built, its command then
/// naming the classes its build made (`../target/java`, beside the file).
#[test]
fn the_bundled_tournament_files_check_from_any_folder() {
    let root = std::fs::canonicalize(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .expect("the checkout's root");
    let elsewhere = tempfile::tempdir().expect("another folder");
    let check = |from: &Path, args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(["tournament", "check"])
            .args(args)
            .current_dir(from)
            .output()
            .expect("clue runs");
        let (stdout, stderr) = text(&out);
        assert!(
            out.status.success(),
            "{args:?} from {}: {stderr}",
            from.display()
        );
        stdout
    };
    let example = root.join("tournaments/../plugins/python-example/bot.py");
    for file in ["tournaments/watch.yaml", "tournaments/languages.yaml"] {
        let whole = root.join(file).display().to_string();
        for (from, named) in [(root.as_path(), file), (elsewhere.path(), whole.as_str())] {
            let out = check(from, &[named]);
            assert!(out.starts_with(&format!("{named}: ok: ")), "{out}");
            assert!(
                out.contains(&format!("(jsonl:python3 {})", example.display())),
                "{out}"
            );
        }
    }
    // As on a fresh clone: its build has not made `target/java` yet. (No
    // other test uses that folder.)
    let classes = root.join("target/java");
    if classes.exists() {
        std::fs::remove_dir_all(&classes).expect("target/java removed");
    }
    let framework = root
        .join("tournaments/framework.yaml")
        .display()
        .to_string();
    let built = check(elsewhere.path(), &["--build", &framework]);
    assert!(
        classes.join("FrameworkBot.class").is_file(),
        "the build ran"
    );
    let command = format!(
        "java-framework-example (framework:java -cp {}/tournaments/../target/java FrameworkBot): built by",
        root.display()
    );
    assert!(built.contains(&command), "{built}");
    let again = check(&root, &["--build", "tournaments/framework.yaml"]);
    assert!(again.contains(&command), "{again}");
}

/// `clue ... | head`: a reader of stdout that has gone ends `clue` quietly,
/// with the status of a process killed by `SIGPIPE`, and no panic on
/// stderr. The pipe's reader is closed before `clue` starts, so its first
/// line meets a closed pipe.
#[test]
fn a_closed_stdout_ends_clue_quietly() {
    for args in [
        &["doctor"][..],
        &["play", "--variant", "speedclue", "--seed", "3"][..],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(args)
            .stdout(writer)
            .output()
            .expect("clue runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// A worker, a resume and a report name a store that is not there, and
/// make none.
#[test]
fn a_missing_store_is_named_and_not_made() {
    let (_dir, db) = temp("t.sqlite");
    let db_s = db.to_str().expect("UTF-8");
    for args in [
        &["tournament", "worker", "--db", db_s][..],
        &["tournament", "resume", "--db", db_s][..],
        &["tournament", "report", "--db", db_s][..],
    ] {
        let out = clue(args);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr.contains(&format!("{db_s}: no such results store")),
            "{args:?}: {stderr}"
        );
        assert!(!db.exists(), "{args:?} made the store");
    }
}

/// A bot given on the command line whose files are not there is refused by
/// name before any game, as a tournament refuses it at its line, rather than
/// disqualified in its game with an error about its scratch folder; the
/// same bot with its script beside it plays.
#[test]
fn a_given_bot_whose_files_are_not_there_is_refused_by_name() {
    use std::os::unix::fs::PermissionsExt;
    // Where a sandboxed bot may read (not a private /tmp folder).
    let here = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    std::fs::set_permissions(here.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(args)
            .current_dir(here.path())
            .output()
            .expect("clue runs");
        let (stdout, stderr) = text(&out);
        (out.status.code(), stdout, stderr)
    };
    let place = here.path().display().to_string();
    for (args, words) in [
        (
            &["play", "--quiet", "--bot", "jsonl:python3 nothere.py"][..],
            vec!["bot `jsonl:python3 nothere.py`", "`nothere.py`", &place],
        ),
        (
            &[
                "play",
                "--quiet",
                "--bot",
                "builtin:notebook",
                "--bot",
                "native:gone.so",
            ][..],
            vec!["bot `native:gone.so`", "file not found: gone.so"],
        ),
        (
            &["play", "--quiet", "--bot", "jsonl:./gone-bot --fast"][..],
            vec!["file not found: ./gone-bot"],
        ),
        (
            &["uniclue", "client", "--bot", "jsonl:python3 nothere.py"][..],
            vec!["`nothere.py`"],
        ),
        (
            &["speedclue", "client", "--bot", "wasm:gone.wasm", "1", "1"][..],
            vec!["file not found: gone.wasm"],
        ),
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {stdout}{stderr}");
        for word in words {
            assert!(stderr.contains(word), "{args:?}: no {word:?} in {stderr}");
        }
        assert!(!stdout.contains("winner"), "{args:?} played: {stdout}");
    }
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../plugins/python-example/bot.py"
    );
    std::fs::copy(example, here.path().join("nothere.py")).expect("the example bot");
    let (code, stdout, stderr) = run(&["play", "--quiet", "--bot", "jsonl:python3 nothere.py"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.starts_with("winner: ") || stdout.starts_with("no winner"),
        "{stdout}"
    );
    assert!(!stderr.contains("disqualified"), "{stderr}");
    // A slip in the script's or the program's name is refused with the
    // name it is a slip of.
    for (bot, said) in [
        (
            "jsonl:python3 nothre.py",
            format!("names no file where `clue` runs ({place}): did you mean `nothere.py`?"),
        ),
        (
            "jsonl:pyhton3 nothere.py",
            "no program `pyhton3` on PATH: did you mean `python3`?".to_string(),
        ),
    ] {
        let (code, stdout, stderr) = run(&["play", "--quiet", "--bot", bot]);
        assert_eq!(code, Some(2), "{bot}: {stdout}{stderr}");
        assert!(stderr.contains(&said), "{bot}: no {said:?} in {stderr}");
    }
}

/// `--quiet` prints the result line alone on stdout, and each
/// disqualification on stderr as the account words it: a bot that crashes
/// is not hidden.
#[test]
fn quiet_keeps_one_result_line_and_names_each_disqualification() {
    let quietly = |bot: &str| {
        clue(&[
            "play",
            "--variant",
            "speedclue",
            "--players",
            "3",
            "--seed",
            "2",
            "--quiet",
            "--bot",
            bot,
        ])
    };
    // It takes the hello, so that the host's write cannot meet a closed
    // pipe, and ends without answering.
    let out = quietly("jsonl:sh -c 'read x; exit 3'");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with("winner: seat "), "{stdout}");
    let lines: Vec<&str> = stderr.lines().collect();
    let [line] = lines.as_slice() else {
        panic!("one disqualification: {stderr}")
    };
    // Its status, unless the machine is too busy to reap it within the
    // host's brief wait.
    let detail = line
        .strip_prefix("seat 0 (jsonl:sh -c 'read x; exit 3') is disqualified (crash): ")
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        [
            "exited with status 3 before its hello",
            "closed its output before its hello"
        ]
        .contains(&detail),
        "{stderr}"
    );
    // A bot that said why on its stderr has the last thing it said there
    // quoted too: a missing module is the usual first crash.
    let out = quietly("jsonl:python3 -c 'import sys; sys.stdin.readline(); import no_such_module'");
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.starts_with("seat 0 (jsonl:python3 -c ")
            && stderr.contains(") is disqualified (crash): ")
            && stderr.ends_with(
                "; its stderr ends `ModuleNotFoundError: No module named 'no_such_module'`\n"
            ),
        "{stderr}"
    );
    // A game without a disqualification says nothing more.
    let out = clue(&["play", "--variant", "speedclue", "--seed", "5", "--quiet"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(
        (stdout.lines().count(), stderr.as_str()),
        (1, ""),
        "{stdout}"
    );
}

/// `clue replay` takes a log, or a store and a game: a missing half of the
/// second form is named alone, and the two forms are not mixed.
#[test]
fn replay_names_the_argument_its_form_lacks() {
    let check = |args: &[&str], says: &str| {
        let out = clue(&[&["replay"], args].concat());
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    };
    check(
        &["--game", "3"],
        "required arguments were not provided:\n  --db <PATH>\n\n",
    );
    check(
        &["--db", "r.sqlite"],
        "required arguments were not provided:\n  --game <N>\n\n",
    );
    check(&[], "required arguments were not provided:\n  <LOG>\n\n");
    check(
        &["game.jsonl", "--game", "3"],
        "the argument '[LOG]' cannot be used with '--game <N>'",
    );
    check(
        &["game.jsonl", "--db", "r.sqlite", "--game", "3"],
        "cannot be used with",
    );
}

/// `clue ARGS` run in a terminal (a pseudo-terminal of util-linux's
/// `script`, which Debian always has): what it printed there, stdout and
/// stderr together, with `\r` and the terminal's escapes as written.
fn in_a_terminal(args: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let typescript = dir.path().join("typescript");
    let mut line = String::from(env!("CARGO_BIN_EXE_clue"));
    for arg in args {
        line.push(' ');
        line.push_str(arg);
    }
    let out = Command::new("script")
        .args(["--quiet", "--return", "--command", &line])
        .arg(&typescript)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("util-linux's `script` runs (apt-get install bsdutils)");
    assert!(out.status.success(), "{line}: {out:?}");
    let typescript = std::fs::read(&typescript).expect("the typescript");
    String::from_utf8_lossy(&typescript).into_owned()
}

/// The bots' builds (an entrant's `cargo build` takes minutes) show on a
/// terminal's stderr which bot is being built, how and for how long, taken
/// off the screen before the summary; not without a terminal.
#[test]
fn tournament_builds_show_a_spinner_on_a_terminal() {
    let (dir, entrants) = entrants_folder(&["c"]);
    let entrant = &entrants[0];
    let file = dir.path().join("t.yaml");
    std::fs::write(
        &file,
        "variant: uniclue
players: 3
schedule: {kind: random, games: 1}
bots:
  - name: c
    kind: uniclue
    command: entrants/c/client
    build: {command: \"sleep 1; printf '#!/bin/sh\\\\n' > client; chmod +x client\", dir: entrants/c}
  - {name: sleuth, kind: builtin, path: sleuth}
",
    )
    .expect("the file");
    let file_arg = file.to_str().expect("a UTF-8 path");
    let shown = in_a_terminal(&["tournament", "check", "--build", file_arg]);
    let spinner = format!("building c (sandboxed in {})", entrant.display());
    let first = shown
        .find(&spinner)
        .unwrap_or_else(|| panic!("no spinner on the terminal: {shown}"));
    let summary = shown
        .find(&format!("{file_arg}: ok:"))
        .unwrap_or_else(|| panic!("no summary: {shown}"));
    let last = shown.rfind(&spinner).expect("drawn");
    assert!(first < summary && last < summary, "{shown}");
    assert!(
        shown[last..summary].contains("\u{1b}[2K"),
        "not cleared: {:?}",
        &shown[last..summary]
    );
    let plain = clue(&["tournament", "check", "--build", file_arg]);
    let (stdout, stderr) = text(&plain);
    assert!(plain.status.success(), "{stderr}");
    assert!(stdout.contains("every bot built"), "{stdout}");
    assert!(
        !stderr.contains("building"),
        "a spinner without a terminal: {stderr}"
    );
}

/// A long game (32 seats on a large deck take a minute) shows on a
/// terminal's stderr how far it is: the decisions made and the seat asked
/// now, taken off the screen before the account is printed. Not without a
/// terminal, not with `--quiet` or a person's seat, and the account is the
/// same either way; `clue framework` shows it too.
#[test]
fn play_shows_its_progress_on_a_terminal_and_clears_it_before_the_account() {
    let args = ["play", "--variant", "classic", "--seed", "4"];
    let shown = in_a_terminal(&args);
    let first = shown
        .find("decisions made; seat ")
        .unwrap_or_else(|| panic!("no progress on the terminal: {shown}"));
    assert!(
        shown[first..].contains("decisions made; seat 0 (builtin:")
            || shown[first..].contains("decisions made; seat 1 (builtin:"),
        "{shown}"
    );
    let plain = clue(&args);
    let (stdout, stderr) = text(&plain);
    assert!(plain.status.success(), "{stderr}");
    assert!(
        !stderr.contains("decisions"),
        "progress without a terminal: {stderr}"
    );
    // The account begins after the last draw of the spinner, which was
    // cleared (`ESC [2K`) first; the terminal turns each `\n` into `\r\n`.
    let account_first_line = stdout.lines().next().expect("an account");
    let at = shown
        .find(account_first_line)
        .unwrap_or_else(|| panic!("no account on the terminal: {shown}"));
    let last_draw = shown.rfind("decisions made").unwrap();
    assert!(last_draw < at, "the spinner was drawn over the account");
    assert!(
        shown[last_draw..at].contains("\u{1b}[2K"),
        "not cleared: {:?}",
        &shown[last_draw..at]
    );
    let account: String = shown[at..].replace("\r\n", "\n");
    assert!(
        account.starts_with(&stdout),
        "the account differs on a terminal"
    );
    let quiet = in_a_terminal(&["play", "--variant", "classic", "--seed", "4", "--quiet"]);
    assert!(
        !quiet.contains("decisions"),
        "progress with --quiet: {quiet}"
    );
    assert!(
        quiet.contains("winner: seat ") || quiet.contains("no winner"),
        "{quiet}"
    );
    // A person's seat (here one whose input ends at once, so that the bots
    // play on): no spinner under the person's prompts.
    let person = in_a_terminal(&[
        "play",
        "--variant",
        "classic",
        "--seed",
        "4",
        "--bot",
        "builtin:human",
        "<",
        "/dev/null",
    ]);
    assert!(
        !person.contains("decisions"),
        "progress under a person's prompts: {person}"
    );
    assert!(person.contains("game over"), "{person}");
    let framework = in_a_terminal(&["framework", "builtin:notebook", "builtin:clueless"]);
    assert!(
        framework.contains("decisions made; seat 1 (builtin:clueless) to "),
        "no progress in `clue framework`: {framework}"
    );
}

/// The processes whose command line holds `token`, but `except`.
fn processes_holding(token: &str, except: u32) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if pid != except && cmdline.contains(token) {
            found.push((pid, cmdline));
        }
    }
    found
}

#[test]
fn a_bot_does_not_outlive_a_host_killed_mid_game() {
    // A host killed with SIGKILL (the OOM killer, `kill -9`) drops nothing:
    // a bot that is not reading its stdin (it computes, or it sleeps) would
    // never see the pipe close, and played on for ever. The sandbox's init
    // ends it.
    no_bot_outlives_a_killed_host(&[]);
}

#[test]
fn an_unsandboxed_bot_and_its_children_do_not_outlive_a_host_killed_mid_game() {
    // Without the sandbox there is no init: the host's warden kills the
    // bot's whole process group, the child it forked included.
    no_bot_outlives_a_killed_host(&["--no-sandbox"]);
}

/// Starts `clue play` (with `flags`) against a bot that forks and then
/// sleeps without reading its stdin, kills the host with SIGKILL once both
/// of the bot's processes run, and asserts that no process holding the
/// bot's token is left.
fn no_bot_outlives_a_killed_host(flags: &[&str]) {
    let token = format!("outlive-{}-{}", std::process::id(), flags.len());
    let bot = format!("jsonl:python3 -c 'import os, time; os.fork(); time.sleep(1000)' {token}");
    let mut host = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(flags)
        .args([
            "play",
            "--variant",
            "speedclue",
            "--players",
            "3",
            "--quiet",
            "--bot",
            &bot,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the clue binary runs");
    let host_pid = host.id();
    // The bot itself and its child, not the host's forks that wait for it
    // (their command line is the host's).
    let bots = |found: &[(u32, String)]| {
        found
            .iter()
            .filter(|(_, cmdline)| {
                cmdline
                    .split_whitespace()
                    .next()
                    .is_some_and(|program| program.ends_with("python3"))
            })
            .count()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while bots(&processes_holding(&token, host_pid)) < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the bot and its child never both ran: {:?}",
            processes_holding(&token, host_pid)
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    host.kill().expect("kill the host");
    host.wait().expect("reap the host");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let left = processes_holding(&token, host_pid);
        if left.is_empty() {
            break;
        }
        if std::time::Instant::now() > deadline {
            for (pid, _) in &left {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
            panic!("processes outlived their host ({flags:?}): {left:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
