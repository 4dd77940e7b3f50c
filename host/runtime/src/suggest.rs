//! "Did you mean": the known name a misspelt one is closest to, for the
//! errors that list the names a user could have meant (bot kinds, built-in
//! bots, variants, a file's fields).
//!
//! ```
//! use clue_runtime::suggest::did_you_mean;
//! assert_eq!(did_you_mean("sleth", ["notebook", "sleuth"]), ": did you mean `sleuth`?");
//! assert_eq!(did_you_mean("chess", ["notebook", "sleuth"]), "");
//! ```

/// The candidate closest to `word` by edit distance (a swap of two
/// neighbouring letters counts one edit; case is ignored, so a word in the
/// wrong case finds its name), if it is close enough to be a slip: at most
/// one edit in three letters. `word` itself is no suggestion. The first of
/// equally close candidates wins.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let bound = (lower.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|&candidate| candidate != word)
        .map(|candidate| {
            let distance = strsim::damerau_levenshtein(&lower, &candidate.to_lowercase());
            (distance, candidate)
        })
        .filter(|&(distance, _)| distance <= bound)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, candidate)| candidate)
}

/// `": did you mean `CANDIDATE`?"` for the [`closest`] candidate, or
/// nothing: to follow the name in an error.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates)
        .map(|c| format!(": did you mean `{c}`?"))
        .unwrap_or_default()
}

/// For a serde message about an unknown name (`unknown field `X`,
/// expected one of a, b, c`, serde_json's `... one of `a`, `b` at line 1
/// column 9`, `expected `a` or `b``, and the same for `unknown variant`),
/// [`did_you_mean`] among the names it lists.
pub fn serde_hint(message: &str) -> String {
    let Some(rest) = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"))
    else {
        return String::new();
    };
    let Some((word, expected)) = rest.split_once("`, expected ") else {
        return String::new();
    };
    let expected = expected.split(" at line ").next().unwrap_or(expected);
    let expected = expected.strip_prefix("one of ").unwrap_or(expected);
    let names = expected
        .split([',', ' '])
        .map(|name| name.trim_matches('`'))
        .filter(|name| !name.is_empty() && *name != "or");
    did_you_mean(word, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELDS: [&str; 5] = ["variant", "players", "concurrency", "seed", "schedule"];

    #[test]
    fn a_slip_finds_its_name_and_anything_else_finds_none() {
        for (word, expected) in [
            ("concurency", Some("concurrency")),
            ("playrs", Some("players")),
            ("Players", Some("players")),
            ("varaint", Some("variant")),
            ("sed", Some("seed")),
            ("players", None),
            ("rounds", None),
            ("x", None),
            ("", None),
        ] {
            assert_eq!(closest(word, FIELDS), expected, "{word}");
        }
    }

    #[test]
    fn the_nearer_of_two_wins_and_the_first_of_a_tie() {
        assert_eq!(closest("seeds", ["seed", "seeds2"]), Some("seed"));
        assert_eq!(closest("cat", ["bat", "hat"]), Some("bat"));
    }

    #[test]
    fn serdes_lists_of_names_are_read_in_each_form() {
        let hint = ": did you mean `speedclue`?";
        for message in [
            "unknown variant `speedcleu`, expected one of classic, speedclue",
            "unknown variant `speedcleu`, expected one of `classic`, `speedclue` at line 1 column 23",
            "unknown field `speedcleu`, expected `classic` or `speedclue`",
        ] {
            assert_eq!(serde_hint(message), hint, "{message}");
        }
        for message in [
            "unknown field `chess`, expected one of classic, speedclue",
            "invalid type: string \"x\", expected u8",
            "unknown variant `speedcleu`",
        ] {
            assert_eq!(serde_hint(message), "", "{message}");
        }
    }
}
