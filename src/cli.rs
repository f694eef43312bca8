//! The `m3go` command line. Exit codes: 0 success, 1 conformance failures, 2 bad input.

use crate::analysis::Analysis;
use crate::board::Colour;
use crate::conform::{self, Case};
use crate::coord::Target;
use crate::forbidden::{
    flower_forbidden_reason, is_capture_point, is_one_liberty_eye, is_tigers_mouth,
};
use crate::notation::{parse_move_in, turn_of_symbol};
use crate::play::{string_name, Position};
use crate::position::{from_yaml, read_text, InputError, Setup};
use crate::report::{verdict_text, AnalysisReport};
use crate::rules::{Rules, RulesSpec, OPTIONS, PRESETS};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Write};

const USAGE: &str = "m3go — reference rules interpreter for three-colour Go

usage:
  m3go analyze POS.yaml [--format text|yaml|json] [--color]
                                                    the three boards, strings, private eyes,
                                                    flower attributes, forbidden points, legal
                                                    moves and the score
  m3go play POS.yaml MOVE... [-o OUT.yaml] [--format text|json]
                                                    play moves (黑291.七A, 华289.H九, 七A, pass)
  m3go explain POS.yaml TARGET                      the clause trace for a point, a string (七九*)
                                                    or a move (黑291.七A)
  m3go conform [DIR] [--id ID] [--filter CLAUSE] [--impl 'COMMAND'] [--coverage]
               [--dump-json] [--update-rules]      run the conformance suite (default spec/cases)
  m3go protocol                                     answer m3go-conform/1 requests on stdin
  m3go rules [check FILE]                           list presets and options / validate a rules file
  m3go replay GAME [--mechanical] [--rules PRESET] [--to N] [-o POS.yaml] [--gloss]
              [--format text|json] [--save OUT.sgf|OUT.txt]
                                                    replay a record (SGF or game file); with
                                                    --mechanical, 003's 机械式排局 of a Go record
  m3go convert GAME OUT [--rules PRESET] [--labels chinese|latin]
                                                    write a record as SGF (OUT.sgf) or game file
  m3go render POS.yaml [--svg OUT.svg] [--layer direct|holographic|upper] [--ansi]
                                                    draw the board (SVG figure or colour terminal)
  m3go perft POS.yaml DEPTH [--divide]              count legal move sequences (passes included)
  m3go diff --impl 'COMMAND' [--games N] [--seed S] [--size 9] [--rules PRESET]
            [--max-moves M] [-o DIR]                random games against another implementation;
                                                    the first disagreement, shrunk, as a case

exit codes: 0 success, 1 conformance failures, 2 bad input";

/// Runs the CLI; returns the exit code.
pub fn run(args: Vec<String>) -> i32 {
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return 2;
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "analyze" => analyze(rest),
        "play" => play(rest),
        "explain" => explain(rest),
        "conform" => return conform_cmd(rest),
        "protocol" => protocol(),
        "rules" => rules_cmd(rest),
        "replay" => replay_cmd(rest),
        "convert" => convert_cmd(rest),
        "render" => render_cmd(rest),
        "perft" => perft_cmd(rest),
        "diff" => return diff_cmd(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(InputError(format!("unknown command `{other}`: expected analyze, play, explain, conform, protocol, rules, replay, convert, render, perft or diff"))),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Splits arguments into positionals and `--flag value` options (only the named flags take a value).
fn parse_args(
    args: &[String],
    valued: &[&str],
    switches: &[&str],
) -> Result<(Vec<String>, BTreeMap<String, String>), InputError> {
    let mut pos = Vec::new();
    let mut opts = BTreeMap::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if valued.contains(&a.as_str()) {
            let v = args
                .get(i + 1)
                .ok_or_else(|| InputError(format!("option {a}: expected a value after it")))?;
            opts.insert(a.clone(), v.clone());
            i += 2;
        } else if switches.contains(&a.as_str()) {
            opts.insert(a.clone(), String::new());
            i += 1;
        } else if a.starts_with("--") {
            return Err(InputError(format!("unknown option `{a}`")));
        } else {
            pos.push(a.clone());
            i += 1;
        }
    }
    Ok((pos, opts))
}

fn format_of(opts: &BTreeMap<String, String>, allowed: &[&str]) -> Result<String, InputError> {
    let f = opts
        .get("--format")
        .cloned()
        .unwrap_or_else(|| "text".into());
    if !allowed.contains(&f.as_str()) {
        return Err(InputError(format!(
            "--format {f}: expected one of {}",
            allowed.join(", ")
        )));
    }
    Ok(f)
}

fn one_file(pos: &[String], what: &str) -> Result<Position, InputError> {
    let path = pos
        .first()
        .ok_or_else(|| InputError(format!("{what}: expected a position file (POS.yaml)")))?;
    Setup::load(path)
}

fn analyze(args: &[String]) -> Result<(), InputError> {
    let (pos, opts) = parse_args(args, &["--format"], &["--color"])?;
    if pos.len() != 1 {
        return Err(InputError(
            "analyze: expected exactly one position file".into(),
        ));
    }
    let fmt = format_of(&opts, &["text", "yaml", "json"])?;
    let p = one_file(&pos, "analyze")?;
    let report = AnalysisReport::new(&p);
    if opts.contains_key("--color") && fmt == "text" {
        println!(
            "{}",
            crate::render::ansi(&p, crate::render::View::Holographic)
        );
    }
    match fmt.as_str() {
        "json" => println!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| InputError(e.to_string()))?
        ),
        "yaml" => print!(
            "{}",
            serde_yaml::to_string(&report).map_err(|e| InputError(e.to_string()))?
        ),
        _ => print!("{}", report.to_text()),
    }
    Ok(())
}

fn play(args: &[String]) -> Result<(), InputError> {
    let (pos, opts) = parse_args(args, &["-o", "--format"], &[])?;
    let fmt = format_of(&opts, &["text", "json"])?;
    let mut p = one_file(&pos, "play")?;
    let mut reports = Vec::new();
    for (k, m) in pos.iter().skip(1).enumerate() {
        let mv = parse_move_in(m, &p.rules, p.board.size())
            .map_err(|e| InputError(format!("move {} (`{m}`): {e}", k + 1)))?;
        let (next, r) = p
            .play(&mv)
            .map_err(|e| InputError(format!("move {} (`{m}`) is illegal: {e}", k + 1)))?;
        if fmt == "text" {
            println!("{}", r.notation);
            for s in &r.steps {
                println!("    {s}");
            }
            if !r.captured.is_empty() {
                println!("    captured: {}", r.captured.join(" "));
            }
            for e in &r.eyes_made {
                let eyes: Vec<String> = e.eyes.iter().map(|x| x.join(" ")).collect();
                println!(
                    "    private eye made: {} (its private eyes: [{}])",
                    e.string,
                    eyes.join("], [")
                );
            }
            for e in &r.eyes_lost {
                println!("    private eye lost: {}", e.string);
            }
            for a in &r.ataris {
                println!("    put in atari: {}", a.string);
            }
            for c in &r.attribute_changes {
                println!(
                    "    flower {}: {} -> {}",
                    c.string,
                    c.from.name(),
                    c.to.name()
                );
            }
            if r.game_over {
                println!("    the game is over");
            }
        }
        reports.push(r);
        p = next;
    }
    if fmt == "json" {
        let v = serde_json::json!({"reports": reports, "analysis": AnalysisReport::new(&p)});
        println!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| InputError(e.to_string()))?
        );
    } else {
        println!();
        print!("{}", AnalysisReport::new(&p).to_text());
    }
    if let Some(out) = opts.get("-o") {
        let text = serde_yaml::to_string(&p.to_setup()).map_err(|e| InputError(e.to_string()))?;
        std::fs::write(out, text).map_err(|e| InputError(format!("{out}: cannot write: {e}")))?;
    }
    Ok(())
}

fn explain(args: &[String]) -> Result<(), InputError> {
    let (pos, _) = parse_args(args, &[], &[])?;
    if pos.len() != 2 {
        return Err(InputError(
            "explain: expected a position file and a target (point, string* or move)".into(),
        ));
    }
    let p = one_file(&pos, "explain")?;
    let target = &pos[1];
    print!("{}", explain_target(&p, target)?);
    Ok(())
}

/// The clause trace for a point, a string or a move.
pub fn explain_target(p: &Position, target: &str) -> Result<String, InputError> {
    let size = p.board.size();
    let mut o = String::new();
    let first = target.chars().next().unwrap_or(' ');
    if turn_of_symbol(first).is_some() || target.eq_ignore_ascii_case("pass") {
        let mv = parse_move_in(target, &p.rules, size).map_err(|e| InputError(e.0))?;
        match p.play(&mv) {
            Ok((_, r)) => {
                o.push_str(&format!(
                    "{} is legal ({}).\n",
                    r.notation,
                    r.turn.describe()
                ));
                for s in &r.steps {
                    o.push_str(&format!("  {s}\n"));
                }
                for c in &r.attribute_changes {
                    o.push_str(&format!(
                        "  flower {}: {} -> {} (M20-ATTR)\n",
                        c.string,
                        c.from.name(),
                        c.to.name()
                    ));
                }
            }
            Err(e) => o.push_str(&format!(
                "{target} is refused: {} — clause {}\n  {}\n",
                e.reason, e.clause, e.message
            )),
        }
        return Ok(o);
    }
    let t =
        Target::parse(target, size).map_err(|e| InputError(format!("target `{target}`: {e}")))?;
    let a = Analysis::new(&p.board, &p.rules);
    let i = p.board.index(t.point);
    match p.board.at(t.point) {
        Some(crate::board::Stone::Flower) => {
            let f = &a.flowers[a.flower_of[i].unwrap_or(0)];
            o.push_str(&format!(
                "flower string {} ({} stones)\n",
                string_name(&p.board, &f.points),
                f.points.len()
            ));
            o.push_str("  adjacent strings (lower layer, each counted once — M20-ATTR-COUNT):\n");
            for &g in &f.adjacent {
                let s = &a.lower_strings.groups[g];
                o.push_str(&format!(
                    "    {} {}: {}\n",
                    s.colour.map(|c| c.name()).unwrap_or("?"),
                    string_name(&p.board, &s.points),
                    if a.has_private_eye(g) {
                        "has a private eye"
                    } else {
                        "no private eye"
                    }
                ));
            }
            o.push_str(&format!(
                "  Hs={} Hw={} Bs={} Bw={} → {} ({})\n",
                f.counts.hs,
                f.counts.hw,
                f.counts.bs,
                f.counts.bw,
                f.attribute.name(),
                f.clause
            ));
        }
        Some(_) => {
            let g = a.lower_strings.of[i].unwrap_or(0);
            let s = &a.lower_strings.groups[g];
            o.push_str(&format!(
                "{} string {} ({} stones, {} lower liberties)\n",
                s.colour.map(|c| c.name()).unwrap_or("?"),
                string_name(&p.board, &s.points),
                s.points.len(),
                s.liberties.len()
            ));
            o.push_str("  closed regions (M20-EYE-REGION, lower layer: flowers as off-board):\n");
            for (r, v) in &a.regions[g] {
                let eye = v.point().map(|q| p.board.point(q).to_string());
                o.push_str(&format!(
                    "    {} point(s), {} empty: {} ({})\n",
                    r.points.len(),
                    r.empty.len(),
                    verdict_text(v.code(), eye.as_deref()),
                    v.clause_under(p.rules.private_eye)
                ));
                if *v == crate::eyes::RegionVerdict::PrivateEye {
                    // M20-EYE-FIG6: the private eye is the closed region, stones inside included
                    let names = |v: &[usize]| {
                        v.iter()
                            .map(|&q| p.board.point(q).to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    o.push_str(&format!(
                        "      private eye: region {}; empty points {}\n",
                        names(&r.points),
                        names(&r.empty)
                    ));
                }
            }
            if let Some(u) = a.upper_strings.at(i) {
                o.push_str(&format!(
                    "  upper string {}: {} stones, {} liberties (M20-UPPER)\n",
                    string_name(&p.board, &u.points),
                    u.points.len(),
                    u.liberties.len()
                ));
            }
        }
        None => {
            o.push_str(&format!("empty point {}\n", t.point));
            o.push_str(&format!(
                "  capture point (M20-FORBID-CAPTURE): {}\n",
                yes(is_capture_point(&a, i))
            ));
            o.push_str(&format!(
                "  one-liberty eye (M20-FORBID-EYE): {}\n",
                is_one_liberty_eye(&a, i)
                    .map(|c| format!("yes, of {}", c.name()))
                    .unwrap_or("no".into())
            ));
            o.push_str(&format!(
                "  tiger's mouth (M20-FORBID-TIGER): {}\n",
                is_tigers_mouth(&a, &p.rules, i)
                    .map(|c| format!("yes, of {}", c.name()))
                    .unwrap_or("no".into())
            ));
            for c in [Colour::Black, Colour::White] {
                let v = flower_forbidden_reason(&a, &p.rules, i, c);
                o.push_str(&format!(
                    "  {}'s flower: {}\n",
                    c.name(),
                    v.map(|f| format!("forbidden ({}, {})", f.code(), f.clause()))
                        .unwrap_or("playable".into())
                ));
            }
        }
    }
    Ok(o)
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn protocol() -> Result<(), InputError> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| InputError(format!("stdin: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let ans = match serde_json::from_str::<conform::Request>(&line) {
            Ok(req) => conform::answer(&req),
            Err(e) => serde_json::json!({"id": Value::Null, "error": format!("request: {e}")}),
        };
        writeln!(out, "{ans}").map_err(|e| InputError(format!("stdout: {e}")))?;
        out.flush()
            .map_err(|e| InputError(format!("stdout: {e}")))?;
    }
    Ok(())
}

fn rules_cmd(args: &[String]) -> Result<(), InputError> {
    match args.first().map(String::as_str) {
        None => {
            println!("presets:");
            for p in PRESETS {
                let r = Rules::preset(p).map_err(|e| InputError(e.0))?;
                println!(
                    "  {p}: {}",
                    serde_json::to_string(&r).map_err(|e| InputError(e.to_string()))?
                );
            }
            println!("\noptions (in a position's `rules:` mapping, with `preset:`):");
            for (name, values, meaning) in OPTIONS {
                println!("  {name:<22} {values:<42} {meaning}");
            }
            Ok(())
        }
        Some("check") => {
            let path = args
                .get(1)
                .ok_or_else(|| InputError("rules check: expected a rules file".into()))?;
            let text = read_text(path)?;
            let spec: RulesSpec = from_yaml(&text, path)?;
            let r = spec
                .resolve()
                .map_err(|e| InputError(format!("{path}: {e}")))?;
            println!(
                "{path}: valid; resolves to {}",
                serde_json::to_string(&r).map_err(|e| InputError(e.to_string()))?
            );
            Ok(())
        }
        Some(other) => Err(InputError(format!(
            "rules {other}: expected no argument or `check FILE`"
        ))),
    }
}

/// Outcome of one case.
pub enum Outcome {
    Passed,
    Failed(Vec<String>),
    Errored(String),
    Skipped(String),
}

/// An implementation under test.
pub trait Oracle {
    fn ask(&mut self, request: &Value) -> Result<Value, String>;
}

/// m3go itself.
pub struct Builtin;

impl Oracle for Builtin {
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        let req: conform::Request =
            serde_json::from_value(request.clone()).map_err(|e| e.to_string())?;
        Ok(conform::answer(&req))
    }
}

/// Another program, driven through the JSON-lines protocol.
pub struct External {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl External {
    pub fn spawn(cmd: &str) -> Result<External, String> {
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{cmd}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(External {
            child,
            stdin,
            lines: rx,
        })
    }
}

impl Oracle for External {
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        writeln!(self.stdin, "{request}").map_err(|e| format!("cannot write the request: {e}"))?;
        self.stdin
            .flush()
            .map_err(|e| format!("cannot write the request: {e}"))?;
        let line = self
            .lines
            .recv_timeout(std::time::Duration::from_secs(60))
            .map_err(|_| "no answer within 60 s (the program crashed or hung)".to_string())?;
        serde_json::from_str(&line).map_err(|e| format!("the answer is not JSON: {e}"))
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs one case against an oracle.
pub fn run_case(case: &Case, oracle: &mut dyn Oracle) -> Outcome {
    match oracle.ask(&case.request()) {
        Err(e) => Outcome::Errored(e),
        Ok(ans) => {
            if ans
                .get("unsupported")
                .is_some_and(|u| u.as_bool() == Some(true))
            {
                return Outcome::Skipped("the implementation does not support this case".into());
            }
            if ans.get("id").and_then(|v| v.as_str()) != Some(case.id.as_str()) {
                return Outcome::Errored(format!(
                    "the answer's id is {}, expected {}",
                    ans["id"], case.id
                ));
            }
            let d = conform::check(case, &ans);
            if d.is_empty() {
                Outcome::Passed
            } else {
                Outcome::Failed(d)
            }
        }
    }
}

fn rules_md_path() -> String {
    "rules.md".into()
}

fn conform_cmd(args: &[String]) -> i32 {
    let parsed = parse_args(
        args,
        &["--id", "--filter", "--impl", "--rules-md"],
        &["--coverage", "--dump-json", "--update-rules"],
    );
    let (pos, opts) = match parsed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let dir = pos.first().cloned().unwrap_or_else(|| "spec/cases".into());
    let rules_md = opts
        .get("--rules-md")
        .cloned()
        .unwrap_or_else(rules_md_path);
    let known: Option<BTreeSet<String>> = std::fs::read_to_string(&rules_md)
        .ok()
        .map(|t| conform::clause_ids(&t).into_iter().collect());
    let files = match conform::case_files(&dir) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut cases = Vec::new();
    let mut load_errors = Vec::new();
    for f in &files {
        match Case::load(f, known.as_ref()) {
            Ok(c) => cases.push((f.clone(), c)),
            Err(e) => load_errors.push((f.clone(), e.0)),
        }
    }
    let mut seen = BTreeMap::new();
    for (f, c) in &cases {
        if let Some(other) = seen.insert(c.id.clone(), f.clone()) {
            load_errors.push((
                f.clone(),
                format!("duplicate id `{}` (also in {other})", c.id),
            ));
        }
    }
    if opts.contains_key("--coverage") || opts.contains_key("--update-rules") {
        return coverage(
            &rules_md,
            &cases,
            opts.contains_key("--update-rules"),
            &load_errors,
        );
    }
    if opts.contains_key("--dump-json") {
        let all: Vec<Value> = cases
            .iter()
            .map(|(_, c)| serde_json::to_value(c).unwrap_or(Value::Null))
            .collect();
        match serde_json::to_string_pretty(&all) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
        return if load_errors.is_empty() { 0 } else { 1 };
    }
    let mut oracle: Box<dyn Oracle> = match opts.get("--impl") {
        None => Box::new(Builtin),
        Some(cmd) => match External::spawn(cmd) {
            Ok(x) => Box::new(x),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
    };
    let (mut passed, mut failed, mut errored, mut skipped) = (0, 0, load_errors.len(), 0);
    for (f, e) in &load_errors {
        println!("ERRORED {f}\n    {e}");
    }
    for (f, c) in &cases {
        if opts.get("--id").is_some_and(|id| *id != c.id) {
            continue;
        }
        if opts
            .get("--filter")
            .is_some_and(|cl| !c.clauses.iter().any(|x| x.starts_with(cl.as_str())))
        {
            continue;
        }
        match run_case(c, oracle.as_mut()) {
            Outcome::Passed => passed += 1,
            Outcome::Skipped(why) => {
                skipped += 1;
                println!("SKIPPED {} ({f}): {why}", c.id);
            }
            Outcome::Errored(e) => {
                errored += 1;
                println!("ERRORED {} ({f}) [{}]\n    {e}", c.id, c.clauses.join(", "));
            }
            Outcome::Failed(d) => {
                failed += 1;
                println!("FAILED {} ({f}) [{}]", c.id, c.clauses.join(", "));
                for x in d {
                    println!("    - {}", x.replace('\n', "\n      "));
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed, {errored} errored, {skipped} skipped");
    if failed + errored > 0 {
        1
    } else {
        0
    }
}

fn coverage(
    rules_md: &str,
    cases: &[(String, Case)],
    update: bool,
    load_errors: &[(String, String)],
) -> i32 {
    let text = match std::fs::read_to_string(rules_md) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {rules_md}: cannot read: {e}");
            return 2;
        }
    };
    let ids = conform::clause_ids(&text);
    let mut by: BTreeMap<&str, Vec<&str>> = ids.iter().map(|i| (i.as_str(), Vec::new())).collect();
    for (_, c) in cases {
        for cl in &c.clauses {
            if let Some(v) = by.get_mut(cl.as_str()) {
                v.push(c.id.as_str());
            }
        }
    }
    let uncovered: Vec<&str> = by
        .iter()
        .filter(|(_, v)| v.is_empty())
        .map(|(k, _)| *k)
        .collect();
    for id in &ids {
        let v = &by[id.as_str()];
        println!(
            "{id}: {}",
            if v.is_empty() {
                "UNCOVERED".to_string()
            } else {
                v.join(", ")
            }
        );
    }
    for (f, e) in load_errors {
        println!("ERRORED {f}: {e}");
    }
    let covered = ids.len() - uncovered.len();
    println!(
        "coverage: {covered}/{} clauses covered ({:.1} %); uncovered: {}",
        ids.len(),
        if ids.is_empty() {
            100.0
        } else {
            100.0 * covered as f64 / ids.len() as f64
        },
        if uncovered.is_empty() {
            "none".to_string()
        } else {
            uncovered.join(", ")
        }
    );
    if update {
        let mut out = String::new();
        for line in text.lines() {
            let cells: Vec<&str> = line.split('|').collect();
            let id = cells
                .get(1)
                .map(|c| c.trim().trim_matches('`'))
                .unwrap_or("");
            if line.trim_start().starts_with('|') && conform::is_clause_id(id) && cells.len() >= 8 {
                let list = by.get(id).map(|v| v.join(", ")).unwrap_or_default();
                let mut c: Vec<String> = cells.iter().map(|s| s.to_string()).collect();
                let n = c.len();
                c[n - 2] = format!(" {} ", if list.is_empty() { "—".into() } else { list });
                out.push_str(&c.join("|"));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
        if let Err(e) = std::fs::write(rules_md, out) {
            eprintln!("error: {rules_md}: cannot write: {e}");
            return 2;
        }
    }
    if uncovered.is_empty() && load_errors.is_empty() {
        0
    } else {
        1
    }
}

/// `--rules`: a preset name or a YAML rules mapping.
fn rules_opt(opts: &BTreeMap<String, String>) -> Result<Option<Rules>, InputError> {
    match opts.get("--rules") {
        None => Ok(None),
        Some(v) => {
            let f: crate::rules::RulesField = from_yaml(v, "--rules")?;
            f.resolve()
                .map(Some)
                .map_err(|e| InputError(format!("--rules: {e}")))
        }
    }
}

fn write_file(path: &str, text: &str) -> Result<(), InputError> {
    std::fs::write(path, text).map_err(|e| InputError(format!("{path}: cannot write: {e}")))
}

/// Writes a record to `path`: SGF for `.sgf`, else a game file.
fn save_record(
    path: &str,
    record: &crate::record::Record,
    rules: &Rules,
    labels: crate::coord::Labels,
) -> Result<(), InputError> {
    let text = if path.to_ascii_lowercase().ends_with(".sgf") {
        crate::sgf::write_record(record, rules)?
    } else {
        record.to_game_text(rules, labels)?
    };
    write_file(path, &text)
}

fn replay_cmd(args: &[String]) -> Result<(), InputError> {
    let (pos, opts) = parse_args(
        args,
        &["--rules", "--to", "-o", "--format", "--save"],
        &["--mechanical", "--gloss", "--quiet"],
    )?;
    let [path] = pos.as_slice() else {
        return Err(InputError(
            "replay: expected one record file (SGF or game file)".into(),
        ));
    };
    let fmt = format_of(&opts, &["text", "json"])?;
    let to = match opts.get("--to") {
        None => None,
        Some(t) => Some(
            t.parse::<u32>()
                .map_err(|_| InputError(format!("--to {t}: expected a move number")))?,
        ),
    };
    let record = crate::record::load(path)?;
    let mechanical = opts.contains_key("--mechanical");
    let rules = match rules_opt(&opts)? {
        Some(r) => r,
        None if mechanical => Rules::m3go_2020(),
        None => record.resolve_rules(None)?,
    };
    let rep = if mechanical {
        crate::replay::mechanical(&record, &rules, to)?
    } else {
        crate::replay::strict(&record, &rules, to)?
    };
    if fmt == "json" {
        let v = serde_json::json!({
            "entries": rep.entries,
            "replaced": rep.replaced_by_reason(),
            "position": crate::replay::position_setup(&rep.position),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| InputError(e.to_string()))?
        );
    } else if opts.contains_key("--quiet") {
        let (zh, en) = rep.summary();
        println!("{zh}");
        if opts.contains_key("--gloss") {
            println!("    {en}");
        }
    } else {
        print!(
            "{}",
            crate::replay::log_text(&rep, opts.contains_key("--gloss"))
        );
    }
    if let Some(out) = opts.get("-o") {
        let setup = crate::replay::position_setup(&rep.position);
        let text = serde_yaml::to_string(&setup).map_err(|e| InputError(e.to_string()))?;
        write_file(out, &text)?;
    }
    if let Some(out) = opts.get("--save") {
        let rec = crate::record::record_of(&rep.start, &rep.reports);
        save_record(out, &rec, &rules, crate::coord::Labels::Chinese)?;
    }
    Ok(())
}

fn convert_cmd(args: &[String]) -> Result<(), InputError> {
    let (pos, opts) = parse_args(args, &["--rules", "--labels"], &[])?;
    let [input, output] = pos.as_slice() else {
        return Err(InputError(
            "convert: expected a record file and an output file (.sgf or game file)".into(),
        ));
    };
    let labels = match opts.get("--labels").map(String::as_str) {
        None | Some("chinese") => crate::coord::Labels::Chinese,
        Some("latin") => crate::coord::Labels::Latin,
        Some(o) => {
            return Err(InputError(format!(
                "--labels {o}: expected chinese or latin"
            )))
        }
    };
    let record = crate::record::load(input)?;
    let rules = record.resolve_rules(rules_opt(&opts)?.as_ref())?;
    // check the whole record before writing it
    crate::replay::strict(&record, &rules, None)?;
    save_record(output, &record, &rules, labels)
}

fn render_cmd(args: &[String]) -> Result<(), InputError> {
    let (pos, opts) = parse_args(args, &["--svg", "--layer"], &["--ansi"])?;
    if pos.len() != 1 {
        return Err(InputError(
            "render: expected exactly one position file".into(),
        ));
    }
    let view = crate::render::View::parse(
        opts.get("--layer")
            .map(String::as_str)
            .unwrap_or("holographic"),
    )
    .map_err(InputError)?;
    let p = one_file(&pos, "render")?;
    if let Some(out) = opts.get("--svg") {
        write_file(out, &crate::render::svg(&p, view))?;
    }
    if opts.contains_key("--ansi") || !opts.contains_key("--svg") {
        print!("{}", crate::render::ansi(&p, view));
    }
    Ok(())
}

fn perft_cmd(args: &[String]) -> Result<(), InputError> {
    let (pos, opts) = parse_args(args, &[], &["--divide"])?;
    let [file, depth] = pos.as_slice() else {
        return Err(InputError(
            "perft: expected a position file and a depth".into(),
        ));
    };
    let depth: u32 = depth
        .parse()
        .ok()
        .filter(|d| *d <= 8)
        .ok_or_else(|| InputError(format!("perft: depth `{depth}`: expected 0 to 8")))?;
    let p = Setup::load(file)?;
    if opts.contains_key("--divide") {
        let d = crate::perft::divide(&p, depth);
        for (m, n) in &d {
            println!("{m} {n}");
        }
        println!("total {}", d.iter().map(|(_, n)| n).sum::<u64>());
    } else {
        println!("perft {depth} {}", crate::perft::perft(&p, depth));
    }
    Ok(())
}

fn diff_cmd(args: &[String]) -> i32 {
    match diff_run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn diff_run(args: &[String]) -> Result<i32, InputError> {
    use std::io::IsTerminal;
    let (pos, opts) = parse_args(
        args,
        &[
            "--impl",
            "--games",
            "--seed",
            "--size",
            "--rules",
            "--max-moves",
            "-o",
        ],
        &[],
    )?;
    if !pos.is_empty() {
        return Err(InputError(format!(
            "diff: unexpected argument `{}`",
            pos[0]
        )));
    }
    let cmd = opts
        .get("--impl")
        .ok_or_else(|| InputError("diff: expected --impl 'COMMAND'".into()))?;
    let num = |k: &str, d: u64| -> Result<u64, InputError> {
        opts.get(k).map_or(Ok(d), |v| {
            v.parse()
                .map_err(|_| InputError(format!("{k} {v}: expected a number")))
        })
    };
    let size = num("--size", 9)? as usize;
    crate::board::check_size(size).map_err(|e| InputError(format!("--size: {e}")))?;
    let opts_d = crate::diff::DiffOptions {
        games: num("--games", 10)? as u32,
        seed: num("--seed", 1)?,
        size,
        rules: rules_opt(&opts)?.unwrap_or_else(Rules::m3go_2020),
        max_moves: num("--max-moves", (size * size) as u64)? as u32,
    };
    let mut other = External::spawn(cmd).map_err(InputError)?;
    let mut reference = Builtin;
    let tty = std::io::stdout().is_terminal();
    let (games, max) = (opts_d.games, opts_d.max_moves);
    let mut progress = |g: u32, m: u32| {
        if tty {
            let done =
                ((g - 1) as f64 + (m as f64 / max.max(1) as f64).min(1.0)) / games.max(1) as f64;
            let w = 30;
            let fill = (done * w as f64) as usize;
            print!(
                "\r[{}{}] game {g}/{games} move {m}   ",
                "#".repeat(fill.min(w)),
                ".".repeat(w - fill.min(w))
            );
            let _ = std::io::stdout().flush();
        }
    };
    let outcome =
        crate::diff::run(&opts_d, &mut reference, &mut other, &mut progress).map_err(InputError)?;
    if tty {
        print!("\r{}\r", " ".repeat(60));
    }
    match outcome {
        crate::diff::DiffOutcome::Agree { games, moves } => {
            println!(
                "diff: {games} games, {moves} moves compared (seed {}, {size}x{size}, {}): no disagreement",
                opts_d.seed, opts_d.rules.preset
            );
            Ok(0)
        }
        crate::diff::DiffOutcome::Disagree(d) => {
            println!(
                "diff: disagreement in game {} at move {} ({}):",
                d.game, d.move_number, d.notation
            );
            for x in &d.differences {
                println!("  - {}: {}", x.field, x.detail.replace('\n', "\n    "));
            }
            println!(
                "shrunk from {} stones to {} stone(s) and {} move(s); conformance case {}:",
                d.stones_before,
                d.stones_after,
                d.case.moves.len(),
                d.case.id
            );
            let yaml = serde_yaml::to_string(&d.case).map_err(|e| InputError(e.to_string()))?;
            println!("---\n{yaml}");
            if let Some(dir) = opts.get("-o") {
                std::fs::create_dir_all(dir)
                    .map_err(|e| InputError(format!("{dir}: cannot create: {e}")))?;
                let path = std::path::Path::new(dir).join(format!("{}.yaml", d.case.id));
                write_file(&path.to_string_lossy(), &yaml)?;
                println!("written to {}", path.display());
            }
            Ok(1)
        }
    }
}
