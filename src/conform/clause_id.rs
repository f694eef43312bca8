//! Clause ids (`M20-EYE-SIM`, `GO-CASCADE`), written once: what an id looks like, the ids of
//! rules.md's clause tables, and the ids a text cites.

/// Clause ids of rules.md: the first cell of every table row that looks like an id.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn clause_ids(rules_md: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in rules_md.lines() {
        let Some(rest) = line.trim_start().strip_prefix('|') else {
            continue;
        };
        let Some(cell) = rest.split('|').next() else {
            continue;
        };
        let id = cell.trim().trim_matches('`');
        if is_clause_id(id) && !out.contains(&id.to_string()) {
            out.push(id.to_string());
        }
    }
    out
}

/// `^[A-Z0-9]+(-[A-Z0-9]+)+$`
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn is_clause_id(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        })
        && parts[0].chars().any(|c| c.is_ascii_uppercase())
}

/// The clause ids a text names as whole words, in order, once each.
pub(crate) fn cited(text: &str) -> Vec<String> {
    words(text)
        .filter(|w| is_clause_id(w))
        .fold(Vec::new(), |mut v, w| {
            if !v.iter().any(|x: &String| x == w) {
                v.push(w.to_string());
            }
            v
        })
}

/// The words of a text: runs of ASCII letters, digits and `-`, without a leading or trailing
/// `-`.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
}
