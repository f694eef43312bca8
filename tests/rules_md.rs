//! rules.md must say what the code does: every function it names exists, every clause id a doc
//! comment cites is in the register, every rule option of the code is in its options table.

use m3go::conform::{clause_ids, is_clause_id};
use std::collections::BTreeSet;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn rules_md() -> String {
    std::fs::read_to_string(format!("{ROOT}/rules.md")).expect("rules.md is readable")
}

fn sources() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(format!("{ROOT}/src"))
        .expect("src/ is readable")
        .flatten()
    {
        let p = e.path();
        if p.extension().and_then(|x| x.to_str()) == Some("rs") {
            let name = p
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_string();
            out.push((name, std::fs::read_to_string(&p).unwrap_or_default()));
        }
    }
    out
}

/// Whether `module::Item[::method]` names something defined in src/module.rs.
fn defined(path: &str, srcs: &[(String, String)]) -> bool {
    let parts: Vec<&str> = path.split("::").collect();
    let Some((module, rest)) = parts.split_first() else {
        return false;
    };
    let Some((_, text)) = srcs.iter().find(|(m, _)| m == module) else {
        return false;
    };
    let last = rest.last().copied().unwrap_or_default();
    ["fn ", "struct ", "enum ", "trait ", "const ", "type "]
        .iter()
        .any(|kw| {
            text.contains(&format!("{kw}{last}("))
                || text.contains(&format!("{kw}{last} "))
                || text.contains(&format!("{kw}{last}<"))
                || text.contains(&format!("{kw}{last}:"))
        })
}

#[test]
fn rules_md_every_named_function_exists_in_src() {
    let md = rules_md();
    let srcs = sources();
    let mut missing = BTreeSet::new();
    for line in md.lines() {
        let cells: Vec<&str> = line.split('|').collect();
        if cells.len() < 8 || !is_clause_id(cells[1].trim()) {
            continue;
        }
        let func = cells[cells.len() - 3];
        for token in func.split('`').skip(1).step_by(2) {
            if token.contains("::") && !defined(token, &srcs) {
                missing.insert(format!("{} -> {token}", cells[1].trim()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rules.md names functions that src/ does not define:\n{}",
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn rules_md_every_clause_id_cited_in_code_is_registered() {
    let ids: BTreeSet<String> = clause_ids(&rules_md()).into_iter().collect();
    let mut unknown = BTreeSet::new();
    for (module, text) in sources() {
        for line in text.lines() {
            let t = line.trim_start();
            if !(t.starts_with("///") || t.starts_with("//!")) {
                continue;
            }
            let body = t.trim_start_matches('/').trim_start_matches('!').trim();
            let first = body
                .split([' ', ',', ':', '(', ')'])
                .next()
                .unwrap_or_default();
            if is_clause_id(first)
                && (first.starts_with("M")
                    || first.starts_with("Q")
                    || first.starts_with("D3")
                    || first.starts_with("S3")
                    || first.starts_with("GO"))
                && !ids.contains(first)
            {
                unknown.insert(format!("src/{module}.rs: {first}"));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "doc comments cite clause ids missing from rules.md:\n{}",
        unknown.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn rules_md_options_table_lists_every_rule_option() {
    let md = rules_md();
    let section = md.split("## Options").nth(1).unwrap_or_default();
    let table: BTreeSet<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix('|'))
        .filter_map(|l| l.split('|').next())
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty() && c != "option" && !c.starts_with("---"))
        .collect();
    let code: BTreeSet<String> = m3go::rules::OPTIONS
        .iter()
        .map(|(n, _, _)| n.to_string())
        .collect();
    let missing: Vec<&String> = code.difference(&table).collect();
    let extra: Vec<&String> = table.difference(&code).collect();
    assert!(missing.is_empty() && extra.is_empty(), "rules.md options table and rules::OPTIONS differ: only in code {missing:?}, only in rules.md {extra:?}");
}

#[test]
fn rules_md_cases_column_lists_exactly_the_cases_that_cite_each_clause() {
    use m3go::conform::{case_files, Case};
    use std::collections::BTreeMap;
    let md = rules_md();
    let mut citing: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in case_files(&format!("{ROOT}/spec/cases")).expect("spec/cases is readable") {
        let case = Case::load(&f, None).expect("every case loads");
        for c in case.clauses {
            citing.entry(c).or_default().insert(case.id.clone());
        }
    }
    let mut stale = Vec::new();
    for line in md.lines() {
        let cells: Vec<&str> = line.split('|').collect();
        if cells.len() < 8 || !is_clause_id(cells[1].trim()) {
            continue;
        }
        let id = cells[1].trim();
        let listed: BTreeSet<String> = cells[cells.len() - 2]
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty() && s != "—")
            .collect();
        let actual = citing.get(id).cloned().unwrap_or_default();
        if listed != actual {
            stale.push(id.to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "rules.md's cases column is stale for {} clause(s) ({}): run `m3go conform --coverage --update-rules`",
        stale.len(),
        stale.join(", ")
    );
}
