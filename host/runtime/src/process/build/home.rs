//! What a sandboxed build leaves in its `HOME`, which is its scratch
//! folder and vanishes with it: the script the build's command runs in
//! ([`wrapper`]), which names, while the folder is still there, each folder
//! of [`HOME_INSTALLS`] the build filled, and the host's reading of its
//! marker lines ([`take_marks`]).

/// A folder of a build's `HOME` that it filled ([`super::Built::left_in_home`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftInHome {
    /// The folder, relative to `HOME` (`.local/lib/python3.11/site-packages`).
    pub folder: String,
    /// Which tool puts files there, and how to install into the entrant's
    /// folder instead.
    pub hint: &'static str,
}

/// The folders of `HOME` (shell patterns) where an install lands that a
/// bot needs when it plays, with the tool that puts it there and how to
/// install into the entrant's folder instead. Caches (pip's, cargo's
/// registry, Go's module cache, Maven's `~/.m2`) are left out: losing them
/// costs a later build time, not the bot its code.
pub const HOME_INSTALLS: &[(&str, &str)] = &[
    (
        ".local/lib/*/site-packages",
        "pip's user site, where `pip install --user` puts packages and where plain `pip install` puts them when the system's packages are not writable, as in the sandbox: install into the entrant's folder with `pip install --target deps` and put that folder on the bot's `sys.path`, or into a virtual environment there (`python3 -m venv .venv`, then `.venv/bin/pip install` and a bot run by `.venv/bin/python`)",
    ),
    (
        ".local/bin",
        "where user installs put their programs (`pip install --user`, `pipx`): install into the entrant's folder",
    ),
    (
        ".local/share/pipx",
        "pipx's environments: install into the entrant's folder with `pip install --target` or a `venv` there",
    ),
    (
        ".local/share/virtualenvs",
        "pipenv's virtual environments: set `PIPENV_VENV_IN_PROJECT=1` so that it makes `.venv` in the entrant's folder",
    ),
    (
        ".cache/pypoetry/virtualenvs",
        "poetry's virtual environments: run `poetry config virtualenvs.in-project true --local` first, so that it makes `.venv` in the entrant's folder",
    ),
    (
        ".cargo/bin",
        "where `cargo install` puts its programs: pass `--root .` to install into the entrant's folder, or run `cargo build --release` and name `target/release/...`",
    ),
    (
        "go/bin",
        "where `go install` puts its programs: run `go build -o` into the entrant's folder instead",
    ),
    (
        ".gem",
        "where `gem install --user-install` puts gems: pass `--install-dir` in the entrant's folder, or use `bundle config set --local path vendor/bundle`",
    ),
    (
        ".local/share/gem",
        "where `gem install --user-install` puts gems: pass `--install-dir` in the entrant's folder, or use `bundle config set --local path vendor/bundle`",
    ),
];

/// What starts a marker line of the build's wrapper ([`wrapper`]): a
/// folder of [`HOME_INSTALLS`] the build filled. A build could print one
/// itself; that makes a warning about its own build, nothing more.
const LEFT_MARK: &str = "clue-build-left-in-home";

/// The end of each file the wrapper writes ([`wrapper`]'s `files`), in
/// the here-document that holds it.
const FILE_END: &str = "CLUE_ARENA_FILE_END";

/// The script `sh` runs for a build (its command is `$1`): first `files`
/// written into its `HOME` (a path below it, and the text: the proxy's
/// settings for a tool that reads only its own), then the command, in
/// a shell of its own, so that whatever it does (`exit`, `set -e`, `exec`)
/// ends only that shell; then, while the build's scratch folder is still
/// there, a marker line for each folder of [`HOME_INSTALLS`] it filled;
/// then the command's end as its own: the same status, or, when a shell
/// reports the command killed by a signal (status 128 + N), the same
/// signal, so that a compiler's crash still reads "killed by signal 11".
/// The signals whose default is not to end a process (SIGCHLD, SIGCONT,
/// the stops, SIGURG, SIGWINCH) are left as statuses.
pub(super) fn wrapper(files: &[(&str, String)]) -> String {
    let mut script = String::new();
    for (path, text) in files {
        // The host's own paths and texts: no quote to escape, no line
        // that would end the here-document early.
        debug_assert!(!path.contains('\'') && !text.lines().any(|l| l == FILE_END));
        script.push_str(&format!(
            "mkdir -p \"$(dirname \"$HOME\"/'{path}')\" && cat > \"$HOME\"/'{path}' <<'{FILE_END}'\n{text}{FILE_END}\n"
        ));
    }
    script.push_str("sh -c \"$1\"\nstatus=$?\n");
    for (i, (pattern, _)) in HOME_INSTALLS.iter().enumerate() {
        script.push_str(&format!(
            "for d in \"$HOME\"/{pattern}; do [ -d \"$d\" ] && [ -n \"$(ls -A \"$d\" 2>/dev/null)\" ] && printf '\\n{LEFT_MARK}\\t%s\\t%s\\n' {i} \"${{d#\"$HOME\"/}}\" >&2; done\n",
        ));
    }
    script.push_str(
        "if [ \"$status\" -gt 128 ]; then\n\
         \x20 case $((status - 128)) in\n\
         \x20   17|18|19|20|21|22|23|28) ;;\n\
         \x20   *) trap - $((status - 128)) 2>/dev/null; kill -$((status - 128)) $$ ;;\n\
         \x20 esac\n\
         fi\n\
         exit \"$status\"\n",
    );
    script
}

/// `output` without the wrapper's marker lines, and the folders they name.
pub(super) fn take_marks(output: &str) -> (String, Vec<LeftInHome>) {
    let mut kept = String::with_capacity(output.len());
    let mut left = Vec::new();
    for line in output.split_inclusive('\n') {
        let Some(mark) = line
            .strip_prefix(LEFT_MARK)
            .and_then(|rest| rest.strip_prefix('\t'))
        else {
            kept.push_str(line);
            continue;
        };
        let mut fields = mark.trim_end_matches('\n').splitn(2, '\t');
        let hint = fields
            .next()
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| HOME_INSTALLS.get(i));
        match (hint, fields.next()) {
            (Some((_, hint)), Some(folder)) if !folder.is_empty() => {
                let found = LeftInHome {
                    folder: folder.to_string(),
                    hint,
                };
                if !left.contains(&found) {
                    left.push(found);
                }
            }
            _ => kept.push_str(line),
        }
    }
    (kept, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Command;

    /// The wrapper run by the real `sh` outside the sandbox, `HOME` a
    /// folder of its own: the command's status and output, what it left.
    fn wrapped(command: &str) -> (std::process::ExitStatus, String, Vec<LeftInHome>) {
        wrapped_with(&[], command)
    }

    /// [`wrapped`] with `files` for the wrapper to write.
    fn wrapped_with(
        files: &[(&str, String)],
        command: &str,
    ) -> (std::process::ExitStatus, String, Vec<LeftInHome>) {
        let home = tempfile::tempdir().expect("a home");
        let out = Command::new("sh")
            .arg("-c")
            .arg(wrapper(files))
            .arg("clue-build")
            .arg(command)
            .env("HOME", home.path())
            .output()
            .expect("sh runs");
        let mut both = out.stdout.clone();
        both.extend_from_slice(&out.stderr);
        let (output, left) = take_marks(&super::super::printable(&both));
        (out.status, output, left)
    }

    #[test]
    fn the_wrapper_names_the_home_folders_a_build_filled_and_no_others() {
        let (status, output, left) = wrapped(
            "mkdir -p $HOME/.local/lib/python3.11/site-packages $HOME/.cargo/bin $HOME/.cache/pip $HOME/go/bin \
             && touch $HOME/.local/lib/python3.11/site-packages/six.py $HOME/.cargo/bin/bot $HOME/.cache/pip/x \
             && echo installed",
        );
        assert!(status.success(), "{status:?} {output}");
        assert_eq!(output.trim_end(), "installed");
        let folders: Vec<&str> = left.iter().map(|l| l.folder.as_str()).collect();
        // The empty go/bin and pip's cache are not named.
        assert_eq!(
            folders,
            [".local/lib/python3.11/site-packages", ".cargo/bin"]
        );
        assert!(left[0].hint.contains("pip install --target"), "{left:?}");
        assert!(left[1].hint.contains("cargo install"), "{left:?}");
        let (_, _, left) = wrapped("echo nothing installed");
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn the_wrapper_ends_as_its_command_ended() {
        let (status, output, _) = wrapped("echo failing >&2; exit 3");
        assert_eq!(status.code(), Some(3));
        assert_eq!(output.trim_end(), "failing");
        // `exit` and `set -e` in the command end its own shell, not the
        // check after it.
        let (status, _, left) = wrapped(
            "set -e; mkdir -p $HOME/.cargo/bin; touch $HOME/.cargo/bin/b; false; echo not reached",
        );
        assert_eq!(status.code(), Some(1));
        assert_eq!(left.len(), 1, "{left:?}");
        // A command killed by a signal: the wrapper ends by the same one.
        let (status, _, _) = wrapped("kill -SEGV $$");
        assert_eq!(status.signal(), Some(libc::SIGSEGV), "{status:?}");
        let (status, _, _) = wrapped("kill -KILL $$");
        assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
        // One whose default is not to end a process stays a status.
        let (status, _, _) = wrapped("exit 145");
        assert_eq!(status.code(), Some(145), "{status:?}");
    }

    #[test]
    fn the_wrapper_writes_its_files_into_home_before_the_command() {
        let settings = crate::process::proxy::maven_settings();
        let (status, output, left) = wrapped_with(
            &[
                (".m2/settings.xml", settings.clone()),
                ("a b/$x.txt", "'$HOME'\n".into()),
            ],
            "cat \"$HOME/.m2/settings.xml\" \"$HOME/a b/\\$x.txt\"",
        );
        assert!(status.success(), "{output}");
        assert_eq!(output, format!("{settings}'$HOME'\n"));
        assert!(
            settings.contains("<protocol>https</protocol><host>127.0.0.1</host><port>3128</port>")
        );
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_marker_line_is_taken_out_and_a_malformed_one_left_in() {
        let (output, left) = take_marks(
            "compiling\nclue-build-left-in-home\t5\t.cargo/bin\nclue-build-left-in-home\tx\t.y\nclue-build-left-in-home\t999\t.z\ndone\n",
        );
        assert_eq!(
            output,
            "compiling\nclue-build-left-in-home\tx\t.y\nclue-build-left-in-home\t999\t.z\ndone\n"
        );
        assert_eq!(
            left,
            [LeftInHome {
                folder: ".cargo/bin".into(),
                hint: HOME_INSTALLS[5].1
            }]
        );
    }
}
