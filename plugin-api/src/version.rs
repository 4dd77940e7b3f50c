//! The one rule for every version the host and a bot compare: the wire
//! protocol a process or wasm bot speaks ([`crate::wire`]), the plugin-api a
//! native plugin was built against, and the `clue:player` WIT interface a
//! wasm component exports.
//!
//! Cargo's caret rule, as `semver` reads it: `x.*` goes with `x.*` for
//! `x >= 1`, `0.y.*` with `0.y.*`. A version may leave out its minor or patch
//! part (the wire protocol is `1.0`); anything else that is not a version is
//! compatible with nothing.

use semver::{Comparator, Op, Prerelease, Version};

/// Whether `theirs` can be used by a side at `ours`.
pub fn compatible(theirs: &str, ours: &str) -> bool {
    match (parse(theirs), parse(ours)) {
        (Some(theirs), Some(ours)) => caret(&ours).matches(&theirs),
        _ => false,
    }
}

/// The part of a version that decides compatibility: `0.1` for `0.1.3`,
/// `2` for `2.4.0`; the text as given when it is not a version.
pub fn class(version: &str) -> String {
    match parse(version) {
        Some(v) if v.major == 0 => format!("0.{}", v.minor),
        Some(v) => v.major.to_string(),
        None => version.to_string(),
    }
}

/// `^0.y` for `0.y.z`, `^x` otherwise: the versions compatible with `v`.
fn caret(v: &Version) -> Comparator {
    Comparator {
        op: Op::Caret,
        major: v.major,
        minor: (v.major == 0).then_some(v.minor),
        patch: None,
        pre: Prerelease::EMPTY,
    }
}

/// A full version, or one without its patch (`1.0`) or minor part (`1`). A
/// pre-release or build suffix is dropped: it does not change the class, and
/// a host at `0.2.0-dev` takes the plugins built against itself.
fn parse(text: &str) -> Option<Version> {
    let text = text.trim();
    let (core, suffix) = text.split_at(text.find(['-', '+']).unwrap_or(text.len()));
    let full = match core.split('.').count() {
        1 => format!("{core}.0.0{suffix}"),
        2 => format!("{core}.0{suffix}"),
        _ => text.to_string(),
    };
    let mut version = Version::parse(&full).ok()?;
    version.pre = Prerelease::EMPTY;
    version.build = semver::BuildMetadata::EMPTY;
    Some(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_compatible_by_cargos_caret_rule() {
        let check = |theirs: &str, ours: &str, expected: bool| {
            assert_eq!(compatible(theirs, ours), expected, "{theirs} vs {ours}");
        };
        check("0.1.0", "0.1.0", true);
        check("0.1.3", "0.1.0", true);
        check("0.1.0", "0.1.7", true);
        check("0.0.9", "0.1.0", false);
        check("0.2.0", "0.1.0", false);
        check("1.0.0", "1.4.2", true);
        check("2.0.0", "1.4.2", false);
        // The wire protocol and WIT versions may be short.
        check("1.0", "1.0", true);
        check("1.7", "1.0", true);
        check("2.0", "1.0", false);
        check("0.2", "0.2.0", true);
        check("1", "1.3", true);
        // A pre-release is in its version's class.
        check("0.2.0-dev", "0.2.0", true);
        check("0.2.0", "0.2.0-dev.3", true);
        check("0.3.0-dev", "0.2.0", false);
        check("1.0-beta", "1.0", true);
        // Not versions at all.
        check("garbage", "0.1.0", false);
        check("1.x", "1.0", false);
        check("", "1.0", false);
        check("1.0", "(unversioned)", false);
    }

    #[test]
    fn a_version_is_named_by_the_part_that_decides() {
        assert_eq!(class("0.1.0"), "0.1");
        assert_eq!(class("2.4.1"), "2");
        assert_eq!(class("1.0"), "1");
        assert_eq!(class("nonsense"), "nonsense");
    }
}
