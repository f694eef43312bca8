//! rules.md must say what the code does: every function it names exists, every clause row has a
//! kind, every normative clause is cited in the function that implements it, every clause id a
//! comment cites is in the register, every rule option of the code is in its options table.

use m3go::conform::clause_id::{clause_ids, is_clause_id};
use std::collections::BTreeSet;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn rules_md() -> String {
    std::fs::read_to_string(format!("{ROOT}/rules.md")).expect("rules.md is readable")
}

/// Every source file of the two crates with its module path (`judge::eyes` for the engine's
/// crates/engine/src/judge/eyes.rs, `conform` for src/conform/mod.rs): the root crate re-exports
/// the engine's modules under the same paths.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, prefix: &str, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("src/ is readable")
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            let stem = p
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_string();
            let join = |name: &str| {
                if prefix.is_empty() {
                    name.to_string()
                } else if name.is_empty() {
                    prefix.to_string()
                } else {
                    format!("{prefix}::{name}")
                }
            };
            if p.is_dir() {
                walk(&p, &join(&stem), out);
            } else if p.extension().and_then(|x| x.to_str()) == Some("rs") {
                let module = if stem == "mod" { join("") } else { join(&stem) };
                out.push((module, std::fs::read_to_string(&p).unwrap_or_default()));
            }
        }
    }
    let mut out = Vec::new();
    for root in SOURCE_ROOTS {
        walk(
            std::path::Path::new(&format!("{ROOT}/{root}")),
            "",
            &mut out,
        );
    }
    out
}

/// The source folders: the engine's, then the root crate's.
const SOURCE_ROOTS: [&str; 2] = ["crates/engine/src", "src"];

/// The file of a module path, for messages: `judge::eyes` -> `crates/engine/src/judge/eyes.rs`.
fn file_of(module: &str) -> String {
    let rel = format!("{}.rs", module.replace("::", "/"));
    SOURCE_ROOTS
        .iter()
        .map(|root| format!("{root}/{rel}"))
        .find(|f| std::path::Path::new(&format!("{ROOT}/{f}")).exists())
        .unwrap_or_else(|| format!("src/{rel}"))
}

/// Splits `a::b::Item[::method]` into the longest module path of src/ and the rest.
fn split_path<'a>(path: &'a str, srcs: &[(String, String)]) -> Option<(String, Vec<&'a str>)> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..parts.len()).rev().find_map(|k| {
        let module = parts[..k].join("::");
        srcs.iter()
            .any(|(m, _)| *m == module)
            .then(|| (module, parts[k..].to_vec()))
    })
}

/// Whether `module::Item[::method]` names something defined in the module's file.
fn defined(path: &str, srcs: &[(String, String)]) -> bool {
    let Some((module, rest)) = split_path(path, srcs) else {
        return false;
    };
    let Some((_, text)) = srcs.iter().find(|(m, _)| *m == module) else {
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
            // Doc comments and the `// ID` comments that mark the branch implementing a clause.
            if !t.starts_with("//") {
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
                unknown.insert(format!("{}: {first}", file_of(&module)));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "comments cite clause ids missing from rules.md:\n{}",
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
    let code: BTreeSet<String> = m3go_engine::Rules::OPTIONS
        .iter()
        .map(|(n, _, _)| n.to_string())
        .collect();
    let missing: Vec<&String> = code.difference(&table).collect();
    let extra: Vec<&String> = table.difference(&code).collect();
    assert!(missing.is_empty() && extra.is_empty(), "rules.md options table and rules::Rules::OPTIONS differ: only in code {missing:?}, only in rules.md {extra:?}");
}

#[test]
fn rules_md_cases_column_lists_exactly_the_cases_that_cite_each_clause() {
    use m3go::conform::case::Case;
    use m3go::conform::suite::case_files;
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

/// The kinds a clause row may have (the `kind` column, third of the clause tables).
const KINDS: [&str; 4] = ["normative", "example", "background", "narrative"];

/// One clause row of rules.md: (line number, id, kind, function cell).
fn clause_rows(md: &str) -> Vec<(usize, String, String, String)> {
    let mut out = Vec::new();
    for (n, line) in md.lines().enumerate() {
        let cells: Vec<&str> = line.split('|').collect();
        if cells.len() < 8 || !is_clause_id(cells[1].trim()) {
            continue;
        }
        out.push((
            n + 1,
            cells[1].trim().to_string(),
            cells[3].trim().to_string(),
            cells[cells.len() - 3].trim().to_string(),
        ));
    }
    out
}

/// The paths a function cell names: every backquoted token; a token without `::` (as in
/// `` `coord::Point::parse` / `format` ``) replaces the last segment of the token before it.
fn named_paths(cell: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for token in cell.split('`').skip(1).step_by(2) {
        let token = token.trim();
        if token.contains("::") {
            out.push(token.to_string());
        } else if let Some(prev) = out.last() {
            let base = prev.rsplit_once("::").map(|(b, _)| b).unwrap_or_default();
            out.push(format!("{base}::{token}"));
        }
    }
    out
}

/// Byte offset just past the `}` that closes the block opened by the first `{` at or after
/// `from` (or just past the first `;` outside brackets if that comes first: a body-less item),
/// skipping line and
/// block comments, string literals (with escapes), raw strings and char literals (a `'` is a
/// char literal only if it closes within a few characters, so lifetimes are skipped).
fn block_end(text: &str, from: usize) -> usize {
    let b = text.as_bytes();
    let mut i = from;
    let mut depth = 0usize;
    // `(` / `[` nesting, so that the `;` of an array type `[T; N]` in a signature is no end.
    let mut parens = 0usize;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
                continue;
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    let start = i + 2 + hashes;
                    i = text[start..]
                        .find(&close)
                        .map_or(b.len(), |k| start + k + close.len());
                    continue;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' => {
                let rest = &text[i + 1..];
                // `len` = bytes between the quotes: `i + len + 1` is the closing quote.
                let len = if let Some(escaped) = rest.strip_prefix('\\') {
                    escaped.get(1..).and_then(|r| r.find('\'')).map(|k| k + 2)
                } else {
                    rest.chars()
                        .next()
                        .filter(|c| rest[c.len_utf8()..].starts_with('\''))
                        .map(char::len_utf8)
                };
                if let Some(len) = len {
                    i += len + 1;
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b'(' | b'[' => parens += 1,
            b')' | b']' => parens = parens.saturating_sub(1),
            b';' if depth == 0 && parens == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// Whether `line` declares `fn name` (any visibility and qualifiers), at `indent` spaces.
fn declares_fn(line: &str, indent: usize, name: &str) -> bool {
    let Some(rest) = line.strip_prefix(&" ".repeat(indent)) else {
        return false;
    };
    if rest.starts_with(char::is_whitespace) {
        return false;
    }
    let mut words = rest.split_whitespace().peekable();
    while let Some(w) = words.peek() {
        if w.starts_with("pub") || ["const", "async", "unsafe", "extern"].contains(w) {
            words.next();
        } else {
            break;
        }
    }
    words.next() == Some("fn")
        && words.next().is_some_and(|w| {
            w.strip_prefix(name)
                .is_some_and(|r| r.starts_with('(') || r.starts_with('<'))
        })
}

/// The self type of an `impl` header line (`impl<T> Trait<T> for a::Type<T> {` → `Type`).
fn impl_self_type(header: &str) -> Option<String> {
    let h = header.strip_prefix("impl")?;
    let h = h.split('{').next()?;
    let ty = h.rsplit(" for ").next()?.trim();
    let ty = if ty.starts_with('<') && !h.contains(" for ") {
        // `impl<T> Type<T>`: drop the generics of `impl`.
        ty.find('>').map_or(ty, |k| ty[k + 1..].trim())
    } else {
        ty
    };
    let name = ty.split(['<', ' ']).next()?;
    Some(name.rsplit("::").next()?.to_string())
}

/// The text of the function `path` names (`module::function` a free function at column 0 of
/// src/module.rs; `module::Type::method` a method at 4 spaces inside an `impl … Type` block at
/// column 0 of src/module.rs): its doc comment and attributes, signature and body. Returns the
/// line of `fn` and the text, or a reason it was not found.
fn function_text(path: &str, srcs: &[(String, String)]) -> Result<(usize, String), String> {
    let Some((module, rest)) = split_path(path, srcs) else {
        return Err(format!("no module of src/ is a prefix of `{path}`"));
    };
    let (ty, name) = match rest.as_slice() {
        [f] => (None, *f),
        [t, f] => (Some(*t), *f),
        _ => return Err("is not `module::function` or `module::Type::method`".into()),
    };
    let file = file_of(&module);
    let Some((_, text)) = srcs.iter().find(|(m, _)| *m == module) else {
        return Err(format!("{file} does not exist"));
    };
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(k, _)| k + 1))
        .collect();
    let line_at = |k: usize| &text[starts[k]..starts.get(k + 1).map_or(text.len(), |&e| e)];
    let n = starts.len();
    // Line ranges to search, and the indentation of the `fn` there.
    let mut ranges = Vec::new();
    match ty {
        None => ranges.push((0, n, 0)),
        Some(t) => {
            for k in 0..n {
                let l = line_at(k);
                if l.starts_with("impl") && impl_self_type(l).as_deref() == Some(t) {
                    let end = block_end(text, starts[k]);
                    let last = starts.partition_point(|&s| s < end);
                    ranges.push((k + 1, last, 4));
                }
            }
            if ranges.is_empty() {
                return Err(format!("{file} has no `impl … {t}` block at column 0"));
            }
        }
    }
    for (from, to, indent) in ranges {
        for k in from..to {
            if !declares_fn(line_at(k), indent, name) {
                continue;
            }
            let mut first = k;
            while first > 0 {
                let t = line_at(first - 1).trim_start();
                if t.starts_with("///") || t.starts_with("#[") || t.starts_with("//") {
                    first -= 1;
                } else {
                    break;
                }
            }
            let end = block_end(text, starts[k]);
            // rustfmt closes a body on a line of its own at the indentation of `fn` (or on the
            // `fn` line itself for `{}` / a body-less declaration): anything else means the
            // scan above lost its way, which must not pass silently.
            let last = &text[starts[starts.partition_point(|&s| s < end) - 1]..end];
            let closed_here = last.trim_start().starts_with('}')
                && last.len() - last.trim_start().len() == indent;
            if !(closed_here || end <= starts.get(k + 1).copied().unwrap_or(text.len())) {
                return Err(format!(
                    "{file}:{}: the end of `fn {name}` was not found (tests/it/rules_md.rs \
                     `block_end` could not delimit its body)",
                    k + 1
                ));
            }
            return Ok((k + 1, text[starts[first]..end].to_string()));
        }
    }
    Err(match ty {
        None => format!("{file} has no free function `fn {name}` at column 0"),
        Some(t) => format!("no `impl … {t}` block of {file} has a method `fn {name}`"),
    })
}

/// Whether `text` contains `id` as a whole clause id (not as the prefix of a longer one).
fn cites(text: &str, id: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(id).any(|(k, _)| {
        !text[..k].chars().next_back().is_some_and(part)
            && !text[k + id.len()..].chars().next().is_some_and(part)
    })
}

#[test]
fn rules_md_every_clause_row_has_a_kind() {
    let md = rules_md();
    let mut bad: Vec<String> = clause_rows(&md)
        .into_iter()
        .filter(|(_, _, kind, _)| !KINDS.contains(&kind.as_str()))
        .map(|(line, id, kind, _)| {
            format!(
                "rules.md:{line}: {id}: third cell `{kind}` is not a kind: insert a `kind` cell \
                 (one of {}) after the seed cell",
                KINDS.join(", ")
            )
        })
        .collect();
    // A row that is not normative is covered by its cases only.
    for (n, line) in md.lines().enumerate() {
        let cells: Vec<&str> = line.split('|').collect();
        if cells.len() < 9 || !is_clause_id(cells[1].trim()) || cells[3].trim() == "normative" {
            continue;
        }
        if matches!(cells[cells.len() - 2].trim(), "" | "—") {
            bad.push(format!(
                "rules.md:{}: {} is {} but has no case: add a case in spec/cases/ citing it",
                n + 1,
                cells[1].trim(),
                cells[3].trim()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A normative clause must be cited (its id, as a whole word) in the doc comment or the body of
/// every function its row names. Functions are located textually in src/<module>.rs, see
/// [`function_text`]; the code is `cargo fmt`-formatted, so items are at column 0 and methods
/// at 4 spaces. Nested functions, macros and methods of `impl` blocks inside modules are not
/// found (name the enclosing function instead).
#[test]
fn rules_md_every_normative_clause_is_cited_in_its_function() {
    let srcs = sources();
    let mut offenders = Vec::new();
    for (line, id, kind, cell) in clause_rows(&rules_md()) {
        if kind != "normative" {
            continue;
        }
        let paths = named_paths(&cell);
        if paths.is_empty() {
            offenders.push(format!(
                "rules.md:{line}: {id} is normative but its function column `{cell}` names no \
                 `module::function` or `module::Type::method`: name the function that implements it"
            ));
        }
        for path in paths {
            match function_text(&path, &srcs) {
                Err(why) => offenders.push(format!(
                    "rules.md:{line}: {id}: `{path}` is not a function ({why}): fix the function \
                     column (free function `module::function`, method `module::Type::method`)"
                )),
                Ok((fn_line, text)) if !cites(&text, &id) => {
                    let file = split_path(&path, &srcs)
                        .map(|(m, _)| file_of(&m))
                        .unwrap_or_default();
                    offenders.push(format!(
                        "rules.md:{line}: {id} is not cited by `{path}` ({file}:{fn_line}): \
                         add `{id}` to its doc comment (`/// {id}: …`) or as `// {id}` at the \
                         branch that implements it"
                    ));
                }
                Ok(_) => {}
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "{} normative clause citation(s) missing:\n{}",
        offenders.len(),
        offenders.join("\n")
    );
}

/// The locator of [`function_text`] delimits every free function and every method of a
/// column-0 `impl` block in src/, so a failure of the citation test is never a parsing accident.
#[test]
fn rules_md_function_locator_delimits_every_function_in_src() {
    let srcs = sources();
    let name_of = |line: &str| -> Option<String> {
        let rest = line.trim_start();
        let at = rest.find("fn ")?;
        let head = &rest[..at];
        if !head
            .split_whitespace()
            .all(|w| w.starts_with("pub") || ["const", "async", "unsafe"].contains(&w))
        {
            return None;
        }
        let name: String = rest[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some(name)
    };
    let mut failed = Vec::new();
    let mut checked = 0;
    for (module, text) in &srcs {
        let mut ty: Option<String> = None;
        for line in text.lines() {
            if line.starts_with('}') {
                ty = None;
            }
            if line.starts_with("impl") {
                ty = impl_self_type(line);
            }
            let path = match (&ty, name_of(line)) {
                (None, Some(n)) if declares_fn(line, 0, &n) => format!("{module}::{n}"),
                (Some(t), Some(n)) if declares_fn(line, 4, &n) => format!("{module}::{t}::{n}"),
                _ => continue,
            };
            checked += 1;
            if let Err(e) = function_text(&path, &srcs) {
                failed.push(format!("{path}: {e}"));
            }
        }
    }
    assert!(checked > 300, "only {checked} functions found in src/");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The `KEY: VALUE | VALUE …` settings written in backticks in the disputed-points register
/// (also inside `rules: { preset: …, KEY: VALUE }`), with the line each is on; paths such as
/// `judge::longlife::seki` and placeholders such as `<n>` are left out.
fn register_settings(md: &str) -> Vec<(usize, String, String)> {
    let start = md
        .find("## Disputed-points register")
        .expect("register section");
    let end = md.find("\n## Options").expect("options section");
    let mut out = Vec::new();
    for (k, line) in md[start..end].lines().enumerate() {
        let line_no = md[..start].lines().count() + k + 1;
        for span in line.split('`').skip(1).step_by(2) {
            let span = span.trim();
            let span = span.strip_prefix("rules:").unwrap_or(span).trim();
            let span = span.trim_start_matches('{').trim_end_matches('}');
            for piece in span.split(", ") {
                let Some((key, values)) = piece.split_once(": ") else {
                    continue;
                };
                let key = key.trim();
                if key.is_empty()
                    || !key.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                    || key == "preset"
                {
                    continue;
                }
                for value in values.split('|').map(str::trim) {
                    if !value.starts_with('<') && !value.is_empty() {
                        out.push((line_no, key.to_string(), value.to_string()));
                    }
                }
            }
        }
    }
    out
}

/// Issue 37, item 5: every option and value the register names exists — the setting, put in a
/// rules mapping under some preset, is accepted — and every option and value of the code is
/// named in rules.md's options table (the register once offered `attribute: m3go-2020`,
/// `flystone-mode: a`, `schedule: ten-move-cycle`, none of which exists).
#[test]
fn rules_md_every_option_value_the_register_names_exists_and_every_value_is_named() {
    use m3go_engine::rules::RulesField;
    use m3go_engine::Rules;
    let md = rules_md();
    let settings = register_settings(&md);
    assert!(
        settings.len() > 20,
        "the register names options: {settings:?}"
    );
    let presets = [
        "m3go-2020",
        "m3go-2016",
        "m3go-2013",
        "dullstone",
        "flystone",
    ];
    let mut wrong = Vec::new();
    for (line, key, value) in &settings {
        let known = Rules::OPTIONS.iter().any(|(n, _, _)| n == key);
        let accepted = presets.iter().any(|preset| {
            m3go_engine::game::from_yaml::<RulesField>(
                &format!("{{preset: {preset}, {key}: {value}}}"),
                "rules.md",
            )
            .is_ok_and(|f| f.resolve().is_ok())
        });
        if !known || !accepted {
            wrong.push(format!("rules.md:{line}: `{key}: {value}`"));
        }
    }
    assert!(
        wrong.is_empty(),
        "settings of the register that no rules mapping accepts:\n{}",
        wrong.join("\n")
    );
    let section = md.split("\n## Options").nth(1).unwrap_or_default();
    for (name, values, _) in Rules::OPTIONS {
        let row = section
            .lines()
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("no row for {name} in rules.md's options table"));
        let cell = row.split('|').nth(2).unwrap_or_default();
        for value in values.split('|').map(str::trim) {
            let value = value.split(" (").next().unwrap_or(value);
            if value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                assert!(
                    cell.split(',')
                        .any(|v| v.trim().split(' ').next() == Some(value)),
                    "rules.md's options table does not name {name}'s value `{value}`: {row}"
                );
            }
        }
    }
}
