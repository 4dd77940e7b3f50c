//! Invalid tournament files: each gives one precise error naming the line and
//! column of the offending value.

use crate::config_support;

use std::path::Path;

use clue_arena::config;
use clue_runtime::bots::BotKind;
use config_support::check;

const GOOD_BOTS: &str = "bots:
  - name: a
    kind: builtin
    path: notebook
  - name: b
    kind: builtin
    path: clueless
  - name: c
    kind: builtin
    path: notebook
";

#[test]
fn unknown_kind() {
    check(
        "variant: speedclue\nschedule: {kind: all-seatings}\nbots:\n  - name: x\n    kind: pyhton\n    command: python3 bot.py\n",
        5,
        11,
        "bot `x`: unknown kind `pyhton` (expected one of: builtin, native, native-trusted, wasm, jsonl, framework, uniclue, speedclue)",
    );
}

#[test]
fn missing_file() {
    check(
        "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: n, kind: native, path: libgone.so}\n",
        7,
        35,
        "bot `n`: file not found: /nonexistent-dir/libgone.so",
    );
}

#[test]
fn a_protocol_that_cannot_play_the_variant() {
    check(
        "variant: speedclue\nschedule: {kind: all-seatings}\nbots:\n  - name: u\n    kind: uniclue\n    command: ./client\n",
        5,
        11,
        "bot `u`: the uniclue protocol plays only uniclue, not speedclue",
    );
    check(
        "variant: generalized\nschedule: {kind: all-seatings}\nbots:\n  - name: s\n    kind: speedclue\n    command: java -jar s.jar\n",
        5,
        11,
        "bot `s`: the speedclue protocol plays only speedclue, not generalized",
    );
}

#[test]
fn a_player_count_the_variant_forbids() {
    check(
        &format!("variant: speedclue\nplayers: 8\nschedule: {{kind: all-seatings}}\n{GOOD_BOTS}"),
        2,
        10,
        "speedclue is played by 3 to 6 players, not 8",
    );
    // In a sweep, the setting's own value is named.
    check(
        &format!(
            "variant: generalized\nschedule: {{kind: random, games: 2}}\nsweep:\n  - {{players: 3, items: 20, hidden: 2}}\n  - {{players: 4, items: 20, hidden: 2}}\n{GOOD_BOTS}"
        ),
        5,
        37,
        "generalized needs (n - k) divisible by p: n = 20, k = 2, p = 4",
    );
}

/// A value the variant's rules refuse is named at its place in `options`
/// or in a sweep setting.
#[test]
fn an_option_the_variant_refuses() {
    check(
        &format!("variant: uniclue\nplayers: 3\noptions:\n  rooms: [3, 12]\n{GOOD_BOTS}"),
        4,
        14,
        "uniclue room 12 does not exist (rooms are 1 to 9)",
    );
    check(
        &format!("variant: framework\nplayers: 3\noptions: {{persons: 6, width: 4}}\n{GOOD_BOTS}"),
        3,
        30,
        "framework needs a width of at least 5, got 4",
    );
    check(
        &format!(
            "variant: framework\nplayers: 3\noptions: {{persons: 6, weapons: 0}}\n{GOOD_BOTS}"
        ),
        3,
        32,
        "framework needs at least one person and one weapon",
    );
    // A hand past the byte a bot is told its size in.
    check(
        &format!(
            "variant: generalized\nplayers: 3\noptions: {{items: 900, hidden: 3}}\n{GOOD_BOTS}"
        ),
        3,
        18,
        "generalized's deck of 900 cards, 3 hidden, deals hands of up to 299 cards to 3 players; \
         a hand holds at most 255 (a bot is told each hand's size in a byte): use fewer items or \
         more players",
    );
    check(
        &format!(
            "variant: speedclue\nplayers: 3\nschedule: {{kind: random, games: 2}}\nsweep:\n  - {{max_rounds: 9}}\n  - {{max_rounds: 0}}\n{GOOD_BOTS}"
        ),
        6,
        18,
        "max_rounds must be at least 1",
    );
}

/// An option of another variant would be ignored: it is refused at its
/// place, in `options` and in a sweep setting.
#[test]
fn an_option_of_another_variant() {
    check(
        &format!(
            "variant: speedclue\nplayers: 3\noptions: {{max_rounds: 50, rooms: [3, 5]}}\n{GOOD_BOTS}"
        ),
        3,
        34,
        "`rooms` applies to uniclue, not speedclue",
    );
    check(
        &format!("variant: uniclue\nplayers: 3\noptions:\n  contest_rules: false\n{GOOD_BOTS}"),
        4,
        18,
        "`contest_rules` applies to speedclue, not uniclue",
    );
    check(
        &format!(
            "variant: speedclue\nschedule: {{kind: random, games: 2}}\nsweep:\n  - {{players: 3}}\n  - {{players: 4, items: 20}}\n{GOOD_BOTS}"
        ),
        5,
        25,
        "`items` applies to generalized, not speedclue",
    );
    check(
        &format!("variant: classic\nplayers: 3\noptions: {{width: 9}}\n{GOOD_BOTS}"),
        3,
        18,
        "`width` applies to framework, not classic",
    );
}

#[test]
fn duplicate_names() {
    check(
        "variant: speedclue\nschedule: {kind: all-seatings}\nbots:\n  - {name: twin, kind: builtin, path: notebook}\n  - {name: twin, kind: builtin, path: clueless}\n",
        5,
        12,
        "duplicate bot name `twin` (first used at line 4)",
    );
}

#[test]
fn a_name_that_would_write_to_the_terminal_is_refused() {
    // A name from an entrants' list is printed in every report as it is:
    // an escape would clear the screen, a line break split a table's row.
    check(
        "variant: speedclue\nbots:\n  - {name: \"evil\\e[2J\", kind: builtin, path: notebook}\n",
        3,
        12,
        "bot `evil\\u{1b}[2J`: a bot name may not hold U+001B (a control character, a direction override or an invisible character): names are printed as they are in every report",
    );
    check(
        "variant: speedclue\nbots:\n  - name: \"two\\nlines\"\n    kind: builtin\n    path: notebook\n",
        3,
        11,
        "bot `two\\u{a}lines`: a bot name may not hold U+000A (a control character, a direction override or an invisible character): names are printed as they are in every report",
    );
    check(
        "variant: speedclue\nbots:\n  - {name: \"a\\u202Eb\", kind: builtin, path: notebook}\n",
        3,
        12,
        "bot `a\\u{202e}b`: a bot name may not hold U+202E (a control character, a direction override or an invisible character): names are printed as they are in every report",
    );
}

#[test]
fn unknown_fields_and_bad_values() {
    // In the parser's words for users, not its advice to programmers
    // (`set DuplicateKeyPolicy in Options if acceptable`).
    check(
        &format!("variant: speedclue\nplayers: 3\nvariant: classic\n{GOOD_BOTS}"),
        3,
        1,
        "duplicate mapping key `variant` is not allowed here",
    );
    check(
        &format!(
            "variant: speedclue\nschedule: {{kind: all-seatings}}\nconcurency: 2\n{GOOD_BOTS}"
        ),
        3,
        1,
        "unknown field `concurency`, expected one of variant, players, options, seed, concurrency, limits, sandbox, store, schedule, sweep, bots: did you mean `concurrency`?",
    );
    check(
        &format!(
            "variant: speedclue\nplayers: four\nschedule: {{kind: all-seatings}}\n{GOOD_BOTS}"
        ),
        2,
        10,
        "expected a whole number from 0 to 255, found `four`",
    );
    check(
        &format!("variant: speedclue\nseed: -1\nschedule: {{kind: all-seatings}}\n{GOOD_BOTS}"),
        2,
        7,
        "expected a whole number from 0 to 18446744073709551615, found `-1`",
    );
    check(
        &format!("variant: speedclue\nschedule: {{kind: round-robin}}\n{GOOD_BOTS}"),
        2,
        18,
        "unknown schedule kind `round-robin` (expected all-seatings, random or speedclue-contest)",
    );
    check(
        &format!("variant: speedcleu\nschedule: {{kind: all-seatings}}\n{GOOD_BOTS}"),
        1,
        10,
        "unknown variant `speedcleu` (expected one of: classic, csci306, framework, uniclue, generalized, cyberclue, speedclue): did you mean `speedclue`?",
    );
    check(
        &format!("variant: speedclue\nschedule: {{kind: randum, games: 3}}\n{GOOD_BOTS}"),
        2,
        18,
        "unknown schedule kind `randum` (expected all-seatings, random or speedclue-contest): did you mean `random`?",
    );
    check(
        "variant: speedclue\nplayers: 4\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: sherlock}\n",
        6,
        36,
        "bot `b`: unknown built-in bot `sherlock` (built-in bots: clueless, notebook, sleuth, rival)",
    );
    // A slip of a name gets the name it is a slip of.
    check(
        "variant: speedclue\nplayers: 4\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: Sleth}\n",
        6,
        36,
        "bot `b`: unknown built-in bot `Sleth` (built-in bots: clueless, notebook, sleuth, rival): did you mean `sleuth`?",
    );
    check(
        "variant: speedclue\nplayers: 4\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: buildin, path: sleuth}\n",
        6,
        21,
        "bot `b`: unknown kind `buildin` (expected one of: builtin, native, native-trusted, wasm, jsonl, framework, uniclue, speedclue): did you mean `builtin`?",
    );
}

/// A field left out is told with the values it may take, and with the
/// fields written beside it where they say which one was meant.
#[test]
fn a_missing_kind_or_target_is_told_what_it_may_be() {
    check(
        &format!("variant: speedclue\nschedule:\n  games: 6\n{GOOD_BOTS}"),
        3,
        3,
        "a schedule needs `kind:` (all-seatings, random or speedclue-contest); `games: G` goes \
         with `kind: random` (G tables drawn from the seed) or `kind: speedclue-contest` (G \
         games of each table)",
    );
    check(
        &format!("variant: speedclue\nschedule: {{repeats: 2}}\n{GOOD_BOTS}"),
        2,
        11,
        "a schedule needs `kind:` (all-seatings, random or speedclue-contest); `repeats: R` \
         goes with `kind: all-seatings`",
    );
    check(
        "variant: speedclue\nbots:\n  - name: a\n    command: python3 bot.py\n",
        3,
        11,
        "bot `a`: no `kind` (one of: builtin, native, native-trusted, wasm, jsonl, framework, uniclue, speedclue)",
    );
    check(
        "variant: speedclue\nbots:\n  - name: a\n    kind: builtin\n",
        3,
        11,
        "bot `a`: a builtin bot needs `path`, the built-in bot's name (clueless, notebook, sleuth, rival)",
    );
    check(
        "variant: speedclue\nbots:\n  - name: a\n    kind: jsonl\n",
        3,
        11,
        "bot `a`: a jsonl bot needs `command`, the command line that starts it",
    );
    check(
        "variant: speedclue\nbots:\n  - name: a\n    kind: wasm\n",
        3,
        11,
        "bot `a`: a wasm bot needs `path`, its file",
    );
}

#[test]
fn the_default_tournament_file_is_valid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tournament.yaml");
    let t = config::load(&path).unwrap();
    assert!(t.bots.len() >= 2);
}

/// A file without `schedule:` plays every seating once; one that names a
/// schedule gets it.
#[test]
fn the_schedule_defaults_to_every_seating_once() {
    let parse = |text: &str| config::parse(text, "t.yaml", Path::new("/contest")).unwrap();
    let t = parse(&format!("variant: speedclue\nplayers: 3\n{GOOD_BOTS}"));
    assert_eq!(t.schedule, config::ScheduleKind::AllSeatings { repeats: 1 });
    let t = parse(&format!(
        "variant: speedclue\nplayers: 3\nschedule: {{kind: all-seatings, repeats: 4}}\n{GOOD_BOTS}"
    ));
    assert_eq!(t.schedule, config::ScheduleKind::AllSeatings { repeats: 4 });
    let t = parse(&format!(
        "variant: speedclue\nplayers: 3\nschedule: {{kind: random, games: 7}}\n{GOOD_BOTS}"
    ));
    assert_eq!(t.schedule, config::ScheduleKind::Random { games: 7 });
}

/// A schedule too large to make (a slip of zeros, or every seating of
/// many bots) is refused where the file names it, before it fills the
/// memory; the count is the schedule's own, and the largest one allowed is
/// accepted.
#[test]
fn a_schedule_past_the_most_games_is_refused_where_it_is_named() {
    let too_many = |games: u64| {
        format!(
            "this schedule has {games} games, more than the 10000000 a tournament may hold (the \
             whole schedule is made before play, in memory and in the store): use `kind: random` \
             with `games:` the number you want"
        )
    };
    check(
        &format!(
            "variant: speedclue\nplayers: 3\nschedule: {{kind: random, games: 10000001}}\n{GOOD_BOTS}"
        ),
        3,
        11,
        &too_many(10_000_001),
    );
    // No `schedule:`: every seating of 30 bots at 6 seats, at the bots.
    let mut many = "variant: speedclue\nplayers: 6\nbots:\n".to_string();
    for i in 0..30 {
        many.push_str(&format!(
            "  - {{name: b{i}, kind: builtin, path: notebook}}\n"
        ));
    }
    check(&many, 4, 3, &too_many(427_518_000));
    let t = config::parse(
        &format!("variant: speedclue\nplayers: 3\nschedule: {{kind: random, games: 10000000}}\n{GOOD_BOTS}"),
        "t.yaml",
        Path::new("/contest"),
    )
    .expect("the most games allowed");
    assert_eq!(
        clue_arena::schedule::count(t.schedule, &t.settings, t.bots.len()),
        10_000_000
    );
    // The count is the schedule's length, for every kind and a sweep.
    for schedule in [
        "{kind: all-seatings, repeats: 3}",
        "{kind: random, games: 17}",
        "{kind: speedclue-contest, games: 2}",
    ] {
        let players = if schedule.contains("contest") {
            ""
        } else {
            "players: 3\nsweep: [{max_rounds: 50}, {max_rounds: 60}]\n"
        };
        let text = format!(
            "variant: speedclue\n{players}schedule: {schedule}\n{GOOD_BOTS}  - {{name: d, kind: builtin, path: clueless}}\n"
        );
        let t = config::parse(&text, "t.yaml", Path::new("/contest")).expect(schedule);
        assert_eq!(
            clue_arena::schedule::count(t.schedule, &t.settings, t.bots.len()),
            clue_arena::schedule::schedule(&t).len() as u128,
            "{schedule}"
        );
    }
}

#[test]
fn a_trusted_native_plugin_is_loaded_in_process_and_others_are_isolated() {
    let text = "variant: speedclue
players: 3
schedule: { kind: random, games: 1 }
bots:
  - name: a
    kind: native
    path: liba.so
    isolation: trusted
    build: make liba.so
  - name: b
    kind: native
    path: libb.so
    build: make libb.so
  - name: c
    kind: builtin
    path: notebook
";
    let t = config::parse(text, "t.yaml", Path::new("/plugins")).unwrap();
    let kinds: Vec<BotKind> = t.bots.iter().map(|b| b.spec.kind).collect();
    assert_eq!(
        kinds,
        [BotKind::NativeTrusted, BotKind::Native, BotKind::Builtin]
    );
    assert_eq!(t.bots[0].spec.target, "/plugins/liba.so");
}

/// Regression: `kind: native-trusted` was taken for a process kind, so its
/// `path:` was refused ("native-trusted bots take `command`"), and its file
/// was not resolved against the tournament's folder.
#[test]
fn native_trusted_takes_a_path_like_native() {
    check(
        "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: t, kind: native-trusted, path: libgone.so}\n",
        7,
        43,
        "bot `t`: file not found: /nonexistent-dir/libgone.so",
    );
    check(
        "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: t, kind: native-trusted, command: ./bot}\n",
        7,
        46,
        "bot `t`: native-trusted bots take `path`, not `command`",
    );
}

#[test]
fn sandbox_off_is_read_for_the_file_and_for_one_bot() {
    let text = "variant: speedclue
players: 3
schedule: {kind: all-seatings}
sandbox: off
bots:
  - {name: a, kind: jsonl, command: sh -c exit}
  - {name: b, kind: jsonl, command: sh -c exit, sandbox: on}
  - {name: c, kind: builtin, path: notebook}
";
    let t = config::parse(text, "t.yaml", Path::new("/nonexistent-dir")).expect("parses");
    let sandbox: Vec<config::Sandbox> = t.bots.iter().map(|b| b.sandbox).collect();
    assert_eq!(
        sandbox,
        [
            config::Sandbox::Off,
            config::Sandbox::On,
            config::Sandbox::Off
        ]
    );
    let default = config::parse(
        &format!("variant: speedclue\nplayers: 3\nschedule: {{kind: all-seatings}}\n{GOOD_BOTS}"),
        "t.yaml",
        Path::new("/nonexistent-dir"),
    )
    .expect("parses");
    assert!(
        default
            .bots
            .iter()
            .all(|b| b.sandbox == config::Sandbox::On)
    );
}

#[test]
fn a_sandbox_value_other_than_on_or_off_is_refused() {
    let text = format!(
        "variant: speedclue\nschedule: {{kind: all-seatings}}\nsandbox: maybe\n{GOOD_BOTS}"
    );
    let err = config::parse(&text, "t.yaml", Path::new("/nonexistent-dir")).expect_err("refused");
    assert_eq!(err.pos.line, 3, "{err}");
    assert!(err.message.contains("maybe"), "{err}");
}

/// A process bot's program that the sandbox cannot run (here the ELF header
/// of a 32-bit x86 program, all the check reads) is named at its line, not
/// disqualified in every game; with `sandbox: off` the file is accepted.
#[cfg(target_arch = "x86_64")]
#[test]
fn a_32_bit_program_is_refused_at_its_line() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let mut header = b"\x7fELF\x01\x01\x01\x00".to_vec();
    header.extend([0; 8]);
    header.extend([2, 0, 3, 0]); // an executable for EM_386
    std::fs::write(dir.path().join("entrant"), &header).expect("the program is written");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            dir.path().join("entrant"),
            std::fs::Permissions::from_mode(0o755),
        )
        .expect("chmod");
    }
    let text = "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: old, kind: jsonl, command: ./entrant --fast}\n";
    let err = config::parse(text, "t.yaml", dir.path()).expect_err("the file is refused");
    assert_eq!((err.pos.line, err.pos.column), (7, 39), "{err}");
    let program = dir.path().join("./entrant");
    assert_eq!(
        err.message,
        format!(
            "bot `old`: {} is a 32-bit x86 (i386) program, and the sandbox runs only x86_64 \
             programs (its seccomp filter kills a process at its first system call of another \
             architecture): rebuild it for x86_64, or, for a bot you trust, opt out with \
             `sandbox: off` / `--no-sandbox`",
            program.display()
        )
    );
    let trusted = text.replace("--fast}", "--fast, sandbox: off}");
    config::parse(&trusted, "t.yaml", dir.path()).expect("accepted without the sandbox");
}

/// A process bot whose command line names a folder that leads through a
/// symbolic link out of its entrant's folder (the sandbox would show the
/// bot what the link points at) is named at its line.
#[test]
fn a_link_out_of_an_entrants_folder_is_refused_at_its_line() {
    let entrant = tempfile::tempdir().expect("the entrant's folder");
    let elsewhere = tempfile::tempdir().expect("a folder of the host's");
    let data = entrant.path().join("data");
    std::os::unix::fs::symlink(elsewhere.path(), &data).expect("the entrant's link");
    std::fs::write(entrant.path().join("bot.py"), "").expect("the entrant's script");
    let text = format!(
        "variant: speedclue\nplayers: 3\nschedule: {{kind: all-seatings}}\nbots:\n  - {{name: a, kind: builtin, path: notebook}}\n  - {{name: b, kind: builtin, path: clueless}}\n  - {{name: x, kind: jsonl, command: \"python3 bot.py {}\"}}\n",
        data.display()
    );
    let err = config::parse(&text, "t.yaml", entrant.path()).expect_err("the file is refused");
    assert_eq!(err.pos.line, 7, "{err}");
    let real = std::fs::canonicalize(elsewhere.path()).expect("the real folder");
    assert!(
        err.message.starts_with(&format!(
            "bot `x`: the bot's folder {} leads through a symbolic link to {}",
            data.display(),
            real.display()
        )),
        "{err}"
    );
}

/// A wasm component or isolated native library, which the host itself
/// reads, whose path leads through a symbolic link out of the folder it is
/// named in (an entrant shipping `bot.wasm -> ../bob/bot.wasm` would play
/// as bob) is refused at its line; a link inside the folder, `sandbox: off`
/// and a trusted plugin are the organizer's business.
#[test]
fn a_bot_file_linked_to_another_entrants_is_refused_at_its_line() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().expect("the tournament's folder");
    let root = std::fs::canonicalize(dir.path()).expect("real");
    for folder in ["alice/sub", "bob"] {
        std::fs::create_dir_all(root.join(folder)).expect("an entrant's folder");
    }
    for file in ["bob/bot.wasm", "bob/libbot.so", "alice/sub/real.wasm"] {
        std::fs::write(root.join(file), "bob's bot").expect("a file");
    }
    symlink("../bob/bot.wasm", root.join("alice/bot.wasm")).expect("link");
    symlink("../bob/libbot.so", root.join("alice/libbot.so")).expect("link");
    symlink("../bob", root.join("alice/lib")).expect("link");
    symlink("sub/real.wasm", root.join("alice/own.wasm")).expect("link");
    let text = |bot: &str| {
        format!(
            "variant: speedclue\nplayers: 3\nschedule: {{kind: all-seatings}}\nbots:\n  - {{name: a, kind: builtin, path: notebook}}\n  - {{name: b, kind: builtin, path: clueless}}\n{bot}"
        )
    };
    for (bot, column, file, real) in [
        (
            "  - name: alice\n    kind: wasm\n    path: alice/bot.wasm\n",
            11,
            "alice/bot.wasm",
            "bob/bot.wasm",
        ),
        (
            "  - name: alice\n    kind: wasm\n    path: alice/lib/bot.wasm\n",
            11,
            "alice/lib/bot.wasm",
            "bob/bot.wasm",
        ),
        (
            "  - name: alice\n    kind: native\n    path: alice/libbot.so\n",
            11,
            "alice/libbot.so",
            "bob/libbot.so",
        ),
    ] {
        let err = config::parse(&text(bot), "t.yaml", &root).expect_err("refused");
        assert_eq!((err.pos.line, err.pos.column), (9, column), "{err}");
        assert!(
            err.message.starts_with(&format!(
                "bot `alice`: the bot's file {} leads through a symbolic link to {}, out of the \
                 folder it is named in",
                root.join(file).display(),
                root.join(real).display()
            )),
            "{err}"
        );
    }
    for fine in [
        "  - {name: alice, kind: wasm, path: alice/own.wasm}\n",
        "  - {name: alice, kind: wasm, path: alice/sub/real.wasm}\n",
        "  - {name: alice, kind: wasm, path: alice/bot.wasm, sandbox: off}\n",
        "  - {name: alice, kind: native, path: alice/libbot.so, isolation: trusted}\n",
        "  - {name: alice, kind: native-trusted, path: alice/libbot.so}\n",
    ] {
        config::parse(&text(fine), "t.yaml", &root).unwrap_or_else(|e| panic!("{fine}: {e}"));
    }
}

/// A script or archive named on a process bot's command line that is
/// neither where `clue` runs nor beside the file would fail every game: it
/// is named at the bot's line instead.
#[test]
fn a_script_found_nowhere_is_named_at_its_line() {
    check(
        "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: py, kind: jsonl, command: python3 -u bots/nothere.py}\n",
        7,
        38,
        "bot `py`: `bots/nothere.py` on its command line names no file, neither where `clue` runs nor beside the file (/nonexistent-dir)",
    );
}

/// A Speed Clue launch line with `%%` and no identifier in braces, which the
/// contest's servers refused, is named at its line, not played into every
/// game with its identifier after the port.
#[test]
fn a_speedclue_line_with_a_port_and_no_identifier_is_named_at_its_line() {
    check(
        "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: sc, kind: speedclue, command: python3 bots/sc.py %%}\n",
        7,
        42,
        "bot `sc`: `%%` places the port, but nothing in braces names the bot: put its \
         identifier in braces where it goes, as the contest's launch files did (`{Name} %%`), \
         or leave out both and the host appends `ID PORT`",
    );
}

/// A process bot's program given by a bare name that `PATH` does not find
/// would crash in every game (the tournament played them all, each bot a
/// `crash` "cannot start"): it is named at the bot's line instead. A name
/// `PATH` finds passes.
#[test]
fn a_program_not_on_path_is_named_at_its_line() {
    check(
        "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: nb, kind: jsonl, command: no-such-program-here --fast}\n",
        7,
        38,
        "bot `nb`: no program `no-such-program-here` on PATH: install it, or give its path",
    );
    let root = Path::new("/nonexistent-dir");
    let fine = "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: sh, kind: jsonl, command: sh -c 'exit 0'}\n";
    config::parse(fine, "t.yaml", root).unwrap_or_else(|e| panic!("sh is on PATH: {e}"));
}

/// Every bot whose files are refused is named, each at its line, not only
/// the first: an organiser mends a contest's file in one go.
#[test]
fn every_refused_bot_is_named_at_its_line() {
    let text = "variant: speedclue\nplayers: 3\nschedule: {kind: all-seatings}\nbots:\n  - {name: a, kind: builtin, path: notebook}\n  - {name: nb, kind: jsonl, command: no-such-program-here}\n  - {name: b, kind: builtin, path: clueless}\n  - {name: w, kind: wasm, path: nothere.wasm}\n";
    let error = config::parse(text, "t.yaml", Path::new("/nonexistent-dir"))
        .expect_err("two bots are refused");
    assert_eq!(
        error.to_string(),
        "t.yaml:6:38: bot `nb`: no program `no-such-program-here` on PATH: install it, or give its path\n\
         t.yaml:8:33: bot `w`: file not found: /nonexistent-dir/nothere.wasm"
    );
}

/// A bot's file that is a folder, and a program that is a folder or cannot
/// be executed, are named at the bot's line rather than failing every game.
#[test]
fn a_folder_or_a_program_that_cannot_run_is_named_at_its_line() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("the tournament's folder");
    std::fs::create_dir(dir.path().join("d")).expect("a folder");
    std::fs::write(dir.path().join("client"), "#!/bin/sh\n").expect("a program");
    std::fs::set_permissions(
        dir.path().join("client"),
        std::fs::Permissions::from_mode(0o644),
    )
    .expect("chmod");
    let refused = |bot: &str| {
        let text = format!(
            "variant: uniclue\nplayers: 3\nschedule: {{kind: random, games: 1}}\nbots:\n{bot}"
        );
        config::parse(&text, "t.yaml", dir.path()).expect_err("refused")
    };
    let err = refused("  - {name: w, kind: wasm, path: d}\n");
    assert_eq!((err.pos.line, err.pos.column), (5, 33), "{err}");
    assert_eq!(
        err.message,
        format!(
            "bot `w`: {} is a folder, not a file",
            dir.path().join("d").display()
        )
    );
    // The program is taken beside the file, and named so.
    let err = refused("  - {name: u, kind: uniclue, command: ./d --fast}\n");
    let d = dir.path().join("./d");
    assert_eq!(
        err.message,
        format!("bot `u`: {} is a folder, not a program", d.display()),
        "{err}"
    );
    let err = refused("  - {name: u, kind: uniclue, command: ./client}\n");
    let client = dir.path().join("./client").display().to_string();
    assert_eq!(
        err.message,
        format!(
            "bot `u`: {client} is not executable: `chmod +x {client}`, or name the program \
             that runs it first (`python3 {client}`)"
        ),
        "{err}"
    );
    std::fs::set_permissions(
        dir.path().join("client"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    let text = "variant: uniclue\nplayers: 3\nschedule: {kind: random, games: 1}\nbots:\n  - {name: u, kind: uniclue, command: ./client}\n";
    config::parse(text, "t.yaml", dir.path()).unwrap_or_else(|e| panic!("{e}"));
}

/// An executable script whose first line the kernel cannot use is named at
/// the bot's line: a Python script with no `#!` line (run by `sh`, which
/// fails on `import`), a `#!` line saved with Windows line ends (the
/// interpreter's name ends in a carriage return). A shell script without a
/// `#!` line, and a binary, are fine.
#[test]
fn a_script_whose_first_line_cannot_start_it_is_named_at_its_line() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("the tournament's folder");
    let script = |name: &str, text: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("a script");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path.display().to_string()
    };
    let parse = |command: &str| {
        let text = format!(
            "variant: speedclue\nplayers: 3\nbots:\n  - {{name: a, kind: jsonl, command: {command}}}\n  - {{name: b, kind: builtin, path: notebook}}\n  - {{name: c, kind: builtin, path: rival}}\n"
        );
        config::parse(&text, "t.yaml", dir.path())
    };
    script("bare.py", b"import sys\n");
    let err = parse("./bare.py").expect_err("refused");
    assert_eq!((err.pos.line, err.pos.column), (4, 37), "{err}");
    // The program is taken beside the file, and named so.
    let bare = dir.path().join("./bare.py").display().to_string();
    assert_eq!(
        err.message,
        format!(
            "bot `a`: {bare} has no `#!` line, so it would run as a shell script: make its \
             first line `#!/usr/bin/env python3`, or name the program that runs it first \
             (`python3 {bare}`)"
        )
    );
    script("crlf.js", b"#!/usr/bin/env node\r\nconsole.log(1)\r\n");
    let err = parse("./crlf.js").expect_err("refused");
    assert!(
        err.message.contains(
            "crlf.js's `#!` line ends with a carriage return (the file has Windows line ends)"
        ),
        "{err}"
    );
    // Named with its interpreter, either runs.
    parse("python3 bare.py").unwrap_or_else(|e| panic!("{e}"));
    parse("node crlf.js").unwrap_or_else(|e| panic!("{e}"));
    script("plain.sh", b"echo hi\n");
    parse("./plain.sh").unwrap_or_else(|e| panic!("{e}"));
    script("good.py", b"#!/usr/bin/env python3\nimport sys\n");
    parse("./good.py").unwrap_or_else(|e| panic!("{e}"));
}

/// A `concurrency` past the most games one process plays at once (a slip
/// of zeros would start that many games' process bots together) is refused
/// at its value, with what to do instead; the most allowed is accepted, and
/// the default (the number of cores) is within it.
#[test]
fn a_concurrency_past_the_most_games_at_once_is_refused_at_its_value() {
    check(
        &format!("variant: speedclue\nplayers: 3\nconcurrency: 100000\n{GOOD_BOTS}"),
        3,
        14,
        "concurrency 100000 is more than the 1024 games one process may play at once (each \
         game starts its bots together, so with process bots that many games would start that \
         many processes at once): for more, run more workers (`clue tournament worker`)",
    );
    check(
        &format!("variant: speedclue\nplayers: 3\nconcurrency: 0\n{GOOD_BOTS}"),
        3,
        14,
        "concurrency must be at least 1",
    );
    let at_most = config::parse(
        &format!("variant: speedclue\nplayers: 3\nconcurrency: 1024\n{GOOD_BOTS}"),
        "t.yaml",
        Path::new("/contest"),
    )
    .expect("the most games at once allowed");
    assert_eq!(at_most.concurrency, clue_arena::runner::MAX_CONCURRENCY);
    let default = config::parse(
        &format!("variant: speedclue\nplayers: 3\n{GOOD_BOTS}"),
        "t.yaml",
        Path::new("/contest"),
    )
    .expect("the default concurrency");
    assert!((1..=clue_arena::runner::MAX_CONCURRENCY).contains(&default.concurrency));
}
