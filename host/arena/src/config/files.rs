//! The files a bot's line names, found and checked before anything runs:
//! a process bot's relative paths taken beside the tournament file
//! ([`paths_beside_file`]), and every bot's program, script, library or
//! component looked for, with what is wrong named at the bot's line
//! ([`check_files`], [`given_bot_problem`]).

use std::path::Path;

use clue_runtime::bots::{BotKind, BotSpec};

use super::{BotEntry, FileError, Sandbox, Tournament, build};

/// A process bot's command line with its relative paths taken beside the
/// tournament file, as the file's other paths are, when they are not where
/// `clue` runs: the program when written as a path (`entrants/c/client`;
/// a build may make it later, and [`check_files`] finds it the same way),
/// and any other word, or piece of a `--flag=value` or `a:b` word, that
/// names a file or folder beside the file (`python3 bots/x.py`,
/// `java -cp bots/java:lib/x.jar Main`, `--model=weights.bin`). A path
/// found where `clue` runs is made absolute (as the process runtime would
/// make it when it starts the bot), so that the line names the same files
/// wherever it is read again (`clue replay --db`). The words are taken
/// apart by the runtime's own rule (`clue_runtime::process::anchor_word`).
/// A bare program name looked up in `PATH`, an absolute path, a flag
/// without a value and a Speed Clue placeholder (`{ID}`, `%%`) are left as
/// they are, and so is a line that does not split into words.
/// A word a bot's build makes is taken beside the file once it is there
/// ([`Tournament::take_built_paths`]). When nothing is taken beside the file
/// the line is returned unchanged; otherwise its words are quoted again for
/// the shell.
pub(super) fn paths_beside_file(command: &str, base_dir: &Path) -> String {
    let Ok(words) = shell_words::split(command) else {
        return command.to_string();
    };
    let here_or_beside = |piece: &str| -> Option<String> {
        let path = Path::new(piece);
        if !may_name_a_path(piece) || path.is_absolute() {
            return None;
        }
        if path.exists() {
            return std::path::absolute(path)
                .ok()
                .map(|whole| whole.display().to_string());
        }
        let beside = base_dir.join(path);
        beside.exists().then(|| beside.display().to_string())
    };
    let anchored: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            let path = Path::new(word.as_str());
            let to_be_built = i == 0
                && word.contains('/')
                && may_name_a_path(word)
                && path.is_relative()
                && !path.exists();
            if to_be_built {
                base_dir.join(path).display().to_string()
            } else {
                clue_runtime::process::anchor_word(word, i == 0, &here_or_beside)
            }
        })
        .collect();
    if anchored == words {
        command.to_string()
    } else {
        shell_words::join(&anchored)
    }
}

/// Whether a word of a command line may name a file as a whole: not empty,
/// not a flag (`-x`, `--x=path`), not a Speed Clue placeholder (`{ID}`,
/// `%%`).
fn may_name_a_path(word: &str) -> bool {
    !word.is_empty() && !word.starts_with('-') && !word.contains(['=', '{', '}', '%'])
}

/// What is wrong with the file a bot plays from, if anything: a native or
/// wasm bot's file missing or a folder; a process bot's program, written as
/// a path, missing (where `clue` runs and beside the file), a folder, or
/// not executable, or written as a bare name, not found on `PATH`.
fn file_problem(spec: &BotSpec, base_dir: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    if spec.kind == BotKind::Builtin {
        return None;
    }
    if spec.kind.is_file() {
        let path = Path::new(&spec.target);
        return match std::fs::metadata(path) {
            Err(_) => Some(format!(
                "file not found: {}{}",
                path.display(),
                near_file(&spec.target, &[Path::new(".")])
            )),
            Ok(meta) if meta.is_dir() => {
                Some(format!("{} is a folder, not a file", path.display()))
            }
            Ok(_) => None,
        };
    }
    let words = shell_words::split(&spec.target).ok()?;
    let program = words.first()?;
    if !program.contains('/') {
        // A bare name runs what `PATH` finds, as a shell runs it.
        let found = clue_runtime::sandbox::program_file(std::ffi::OsStr::new(program));
        return found.is_none().then(|| match near_program(program) {
            Some(near) => format!("no program `{program}` on PATH: did you mean `{near}`?"),
            None => format!("no program `{program}` on PATH: install it, or give its path"),
        });
    }
    let path = [Path::new(program).to_path_buf(), base_dir.join(program)]
        .into_iter()
        .find(|p| p.exists());
    let found = path.and_then(|p| std::fs::metadata(&p).ok().map(|meta| (p, meta)));
    let Some((path, meta)) = found else {
        return Some(format!(
            "file not found: {program}{}",
            near_file(program, &[Path::new("."), base_dir])
        ));
    };
    if meta.is_dir() {
        Some(format!("{program} is a folder, not a program"))
    } else if meta.permissions().mode() & 0o111 == 0 {
        Some(format!(
            "{program} is not executable: `chmod +x {program}`, or name the program that \
             runs it first (`python3 {program}`)"
        ))
    } else {
        interpreter_line_problem(&path, program)
    }
}

/// What is wrong with the first line of an executable script, as the
/// kernel reads it: a script in another language than the shell's with no
/// `#!` line is run by `sh` (the C library's fallback), which fails on its
/// first line (`import: not found`); a `#!` line ending in a carriage return
/// (a file saved with Windows line ends) names an interpreter that does not
/// exist (`python3\r`). Nothing for a binary, a shell script, or a file
/// that cannot be read.
fn interpreter_line_problem(path: &Path, program: &str) -> Option<String> {
    use std::io::Read;
    let mut start = [0u8; 256];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut start))
        .ok()?;
    let start = &start[..n];
    if let Some(line) = start.strip_prefix(b"#!") {
        let line = line.split(|&b| b == b'\n').next().unwrap_or(line);
        return line.ends_with(b"\r").then(|| {
            format!(
                "{program}'s `#!` line ends with a carriage return (the file has Windows line \
                 ends), so the system looks for an interpreter named with it: convert the file \
                 (`sed -i 's/\\r$//' {program}`, or `dos2unix {program}`)"
            )
        });
    }
    if start.starts_with(b"\x7fELF") {
        return None;
    }
    let ext = path.extension().and_then(|e| e.to_str())?;
    let interpreter = match ext {
        "py" => "python3",
        "js" | "mjs" | "cjs" => "node",
        "rb" => "ruby",
        "pl" => "perl",
        "php" => "php",
        "lua" => "lua",
        "R" | "r" => "Rscript",
        "jl" => "julia",
        _ => return None,
    };
    Some(format!(
        "{program} has no `#!` line, so it would run as a shell script: make its first line \
         `#!/usr/bin/env {interpreter}`, or name the program that runs it first \
         (`{interpreter} {program}`)"
    ))
}

/// The program on `PATH` whose name is closest to `program`, a name found
/// nowhere on it (`pyhton3`: `python3`), if one is close enough to be a
/// slip (`clue_runtime::suggest::closest`).
fn near_program(program: &str) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let path = std::env::var_os("PATH")?;
    let names: Vec<String> = std::env::split_paths(&path)
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(Result::ok)
        .filter(|entry| {
            std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file() && m.mode() & 0o111 != 0)
        })
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    clue_runtime::suggest::closest(program, names.iter().map(String::as_str)).map(str::to_string)
}

/// `: did you mean `NEAR`?` for a file a bot's line names that is missing,
/// `NEAR` being `word` with its last part replaced by the closest name in
/// its folder, looked for under each of `bases` in turn (where `clue` runs,
/// beside the tournament file): `bots/bott.py` finds `bots/bot.py`.
/// Nothing when no name there is close enough to be a slip.
fn near_file(word: &str, bases: &[&Path]) -> String {
    let path = Path::new(word);
    let (Some(name), parent) = (path.file_name().and_then(|n| n.to_str()), path.parent()) else {
        return String::new();
    };
    let parent = parent.unwrap_or(Path::new(""));
    bases
        .iter()
        .find_map(|base| {
            let names: Vec<String> = std::fs::read_dir(base.join(parent))
                .ok()?
                .filter_map(Result::ok)
                .filter_map(|entry| entry.file_name().into_string().ok())
                .collect();
            let near = clue_runtime::suggest::closest(name, names.iter().map(String::as_str))?;
            Some(parent.join(near).display().to_string())
        })
        .map(|near| format!(": did you mean `{near}`?"))
        .unwrap_or_default()
}

/// The extensions of the files a command line names to be run or loaded:
/// scripts and archives an interpreter or a virtual machine is given, in
/// the languages bot authors write in. A word with another extension is not
/// taken for a file to run (it may be a host name, a number, a file the bot
/// writes), so this errs towards letting a bot start.
///
/// By line: Python, JavaScript and TypeScript, Ruby, Perl and Raku, PHP,
/// Lua; the JVM (Java, Kotlin and Groovy scripts, Clojure), .NET,
/// WebAssembly and shells; R, Julia, Tcl, Scheme and Racket, Common Lisp,
/// Haskell, OCaml, Elixir, Erlang, Dart, Swift and awk.
#[rustfmt::skip]
const SCRIPT_EXTENSIONS: &[&str] = &[
    "py", "pyc", "pyz", "js", "mjs", "cjs", "ts", "mts", "rb", "pl", "pm", "raku", "php", "lua",
    "jar", "kts", "groovy", "clj", "dll", "wasm", "sh", "bash", "zsh", "fish", "ps1",
    "R", "r", "jl", "tcl", "scm", "rkt", "lisp", "hs", "ml", "exs", "erl", "escript", "dart",
    "swift", "awk",
];

/// The first word after the program of a process bot's command line that
/// names a script or archive (`bot.py`, `x.jar`) found neither where `clue`
/// runs nor beside the tournament file: the bot would fail every game (it
/// starts in its scratch folder, where the word is looked for last). Flags,
/// Speed Clue placeholders and `sh -c` strings are not looked at.
fn missing_script(command: &str, base_dir: &Path) -> Option<String> {
    let words = shell_words::split(command).ok()?;
    words.into_iter().skip(1).find(|word| {
        let path = Path::new(word.as_str());
        may_name_a_path(word)
            && !word.contains(' ')
            && is_script(path)
            && !path.exists()
            && !base_dir.join(path).exists()
    })
}

/// Whether `path` has the extension of a script or archive
/// ([`SCRIPT_EXTENSIONS`]).
fn is_script(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SCRIPT_EXTENSIONS.contains(&e))
}

/// What is wrong with the files of a bot named on the command line (`clue
/// play --bot`), looked for where `clue` runs: the checks a tournament makes
/// at a bot's line before any game (`file_problem`, a script found
/// nowhere), so that such a bot is refused by name rather than disqualified
/// in its game with an error about its scratch folder.
pub fn given_bot_problem(spec: &BotSpec) -> Option<String> {
    let here = Path::new(".");
    if let Some(problem) = file_problem(spec, here) {
        return Some(problem);
    }
    let word = missing_script(&spec.target, here).filter(|_| spec.kind.is_process())?;
    Some(format!(
        "`{word}` on its command line names no file where `clue` runs ({}){}",
        std::path::absolute(here)
            .unwrap_or_else(|_| here.to_path_buf())
            .display(),
        near_file(&word, &[here])
    ))
}

/// Checks every bot's files, once the builds ran: that each native or wasm
/// bot's file exists, that a process bot's program does (a path, or a name
/// on `PATH`), and the rest of `files_refused`.
pub fn check_files(t: &Tournament) -> Result<(), FileError> {
    refuse_all(t, t.bots.iter())
}

/// Each bot whose files are refused ([`check_files`]), with the error at
/// its line: for `clue serve --tournament`, which seats the bots that can
/// play and says why the others cannot.
pub fn refused_bots(t: &Tournament) -> Vec<(&BotEntry, FileError)> {
    t.bots
        .iter()
        .filter_map(|bot| Some((bot, refusal(t, bot)?)))
        .collect()
}

/// Why `bot`'s files are refused, at its line.
fn refusal(t: &Tournament, bot: &BotEntry) -> Option<FileError> {
    let problem = files_refused(t, bot)?;
    let message = format!("bot `{}`: {problem}", bot.name);
    Some(FileError::at(&t.file, bot.target_pos, message))
}

/// [`check_files`] for the bots whose files are there before any build:
/// those without a `build:` command, checked when the file is read.
pub(super) fn check_files_before_builds(t: &Tournament) -> Result<(), FileError> {
    refuse_all(t, t.bots.iter().filter(|bot| bot.build.is_none()))
}

/// Every one of `bots` whose files are refused, each at its line: a
/// contest's organiser mends them all in one go.
fn refuse_all<'a>(
    t: &Tournament,
    bots: impl Iterator<Item = &'a BotEntry>,
) -> Result<(), FileError> {
    let mut refused = bots.filter_map(|bot| refusal(t, bot));
    let Some(first) = refused.next() else {
        return Ok(());
    };
    Err(FileError {
        more: refused.collect(),
        ..first
    })
}

/// Why a bot cannot play from its files, found before any game: the first
/// of its file's problem, a built file linked out of its build's folder, a
/// file the host reads linked out of its folder, a Speed Clue launch line
/// with a port and no identifier, a script found nowhere, and a command the
/// sandbox would refuse.
fn files_refused(t: &Tournament, bot: &BotEntry) -> Option<String> {
    if let Some(problem) = file_problem(&bot.spec, &t.base_dir) {
        return Some(problem);
    }
    if let Some(message) = build::linked_out(bot) {
        return Some(message);
    }
    // A file the host itself reads for a sandboxed bot (a wasm component,
    // an isolated native library), when no sandboxed build says where the
    // entrant's folder is: no link out of the folder it is named in.
    let reads_file = matches!(bot.spec.kind, BotKind::Wasm | BotKind::Native);
    let built_in_sandbox = bot.build.as_ref().is_some_and(|b| b.runs_sandboxed());
    if reads_file
        && bot.sandbox == Sandbox::On
        && !built_in_sandbox
        && let Some(refused) = clue_runtime::sandbox::refuses_file(Path::new(&bot.spec.target))
    {
        return Some(refused.to_string());
    }
    if !bot.spec.kind.is_process() {
        return None;
    }
    if bot.spec.kind == BotKind::Speedclue
        && let Some(refused) = clue_runtime::process::speedclue::launch_refused(&bot.spec.target)
    {
        return Some(refused);
    }
    if let Some(word) = missing_script(&bot.spec.target, &t.base_dir) {
        return Some(format!(
            "`{word}` on its command line names no file, neither where `clue` runs nor \
             beside the file ({}){}",
            std::path::absolute(&t.base_dir)
                .unwrap_or_else(|_| t.base_dir.clone())
                .display(),
            near_file(&word, &[Path::new("."), &t.base_dir])
        ));
    }
    // A command the sandbox cannot run (a 32-bit entrant, a link out of the
    // entrant's folder) is named here, at its line, rather than
    // disqualified in every game.
    if bot.sandbox == Sandbox::On
        && let Ok(mut argv) = clue_runtime::process::split_command(&bot.spec.target)
    {
        // As the check above finds it: where `clue` runs, else beside the file.
        if argv[0].contains('/') && !Path::new(&argv[0]).exists() {
            argv[0] = t.base_dir.join(&argv[0]).display().to_string();
        }
        return clue_runtime::sandbox::refuses(&argv).map(|refused| refused.to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_or_program_suggests_the_name_it_is_a_slip_of() {
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::create_dir(dir.path().join("bots")).expect("a folder");
        std::fs::write(dir.path().join("bots/bot.py"), "").expect("a file");
        let bases = [Path::new("/nonexistent-base"), dir.path()];
        assert_eq!(
            near_file("bots/bott.py", &bases),
            ": did you mean `bots/bot.py`?"
        );
        assert_eq!(
            near_file("bots/Bot.py", &bases),
            ": did you mean `bots/bot.py`?"
        );
        // Nothing close, or no such folder: no suggestion.
        assert_eq!(near_file("bots/chess.py", &bases), "");
        assert_eq!(near_file("bost/bot.py", &bases), "");
        // `python3` is on PATH wherever the suite runs (its bots need it).
        assert_eq!(near_program("pyhton3").as_deref(), Some("python3"));
        assert_eq!(near_program("no-such-program-here"), None);
    }

    #[test]
    fn a_script_found_nowhere_is_named() {
        let base = Path::new("/nonexistent-contest");
        assert_eq!(
            missing_script("python3 -u bots/nothere.py --depth 3", base),
            Some("bots/nothere.py".into())
        );
        assert_eq!(
            missing_script("java -Xmx1g -jar gone.jar {ID} %%", base),
            Some("gone.jar".into())
        );
        for (command, word) in [
            ("Rscript bots/bot.R", "bots/bot.R"),
            ("julia --project=. bot.jl", "bot.jl"),
            ("deno run --allow-read bot.ts", "bot.ts"),
            ("dotnet Bot.dll", "Bot.dll"),
            ("wasmtime run client.wasm", "client.wasm"),
        ] {
            assert_eq!(
                missing_script(command, base),
                Some(word.into()),
                "{command}"
            );
        }
        // Found where `clue` runs (the crate's folder, for tests), not a
        // script, a flag, an `sh -c` string, the program itself: no word.
        for fine in [
            "python3 ../../plugins/python-example/bot.py",
            "./client game.log out.json",
            "x --script=bots/x.py",
            "./client localhost:8080 0.5 results.csv",
            "sh -c 'python3 nothere.py'",
            "bots/x.py",
        ] {
            assert_eq!(missing_script(fine, base), None, "{fine}");
        }
    }

    #[test]
    fn relative_paths_missing_where_clue_runs_are_taken_beside_the_file() {
        let base = Path::new("/contest/2026");
        assert_eq!(
            paths_beside_file("entrants/c/client --fast", base),
            "/contest/2026/entrants/c/client --fast"
        );
        assert_eq!(
            paths_beside_file("bots/x {ID} %%", Path::new("/my contest")),
            "'/my contest/bots/x' {ID} '%%'"
        );
        assert_eq!(
            paths_beside_file("'a b/c' d", base),
            "'/contest/2026/a b/c' d"
        );
        // Another word is taken beside the file only where it names
        // something there: here the crate's own folder plays the file's.
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let here = std::env::current_dir().expect("the current folder");
        let elsewhere = tempfile::tempdir().expect("a folder");
        std::fs::create_dir(elsewhere.path().join("bots")).expect("a folder");
        std::fs::write(elsewhere.path().join("bots/x.py"), "").expect("a file");
        assert_eq!(
            paths_beside_file("python3 bots/x.py bots/missing.py", elsewhere.path()),
            format!(
                "python3 {}/bots/x.py bots/missing.py",
                elsewhere.path().display()
            )
        );
        assert_eq!(
            paths_beside_file("java -cp bots Main", elsewhere.path()),
            format!("java -cp {}/bots Main", elsewhere.path().display())
        );
        // Found where `clue` runs (the crate's folder, for tests): made
        // absolute, the program too when written as a path.
        assert_eq!(here, crate_dir, "tests run in the crate's folder");
        let crate_dir = crate_dir.display();
        assert_eq!(
            paths_beside_file("python3 src/config.rs Cargo.toml", elsewhere.path()),
            format!("python3 {crate_dir}/src/config.rs {crate_dir}/Cargo.toml")
        );
        assert_eq!(
            paths_beside_file("src/config.rs x", elsewhere.path()),
            format!("{crate_dir}/src/config.rs x")
        );
        // The pieces of a flag's value and of a class path, as the process
        // runtime takes them where `clue` runs: beside the file, or where
        // `clue` runs, where they name something.
        let beside = elsewhere.path().display();
        assert_eq!(
            paths_beside_file("x --model=bots/x.py -Dbots", elsewhere.path()),
            format!("x '--model={beside}/bots/x.py' -Dbots")
        );
        assert_eq!(
            paths_beside_file("java -cp bots:Cargo.toml:lib/no.jar Main", elsewhere.path()),
            format!("java -cp {beside}/bots:{crate_dir}/Cargo.toml:lib/no.jar Main")
        );
        // A name looked up in `PATH` (even one that is also a file here),
        // an absolute path, a flag with a value that names nothing, an
        // `sh -c` string, a line that does not split: unchanged.
        for kept in [
            "Cargo.toml x",
            "python3 bot.py",
            "/usr/bin/env x",
            "x --model=bots/missing.py -Dbots --level=3",
            "sh -c 'python3 bots/x.py'",
            "x 'unclosed",
        ] {
            assert_eq!(paths_beside_file(kept, elsewhere.path()), kept);
        }
    }
}
