//! SGF (FF\[4\]) records through the `sgf-parse` crate, with m3go's documented extension
//! (spec/README.md, "SGF"): a flower move is an ordinary `B`/`W` move node that also carries the
//! private property `FL[]`; the root names the rules with `RU[preset]` and, in full, with the
//! private property `TCR[json]`; set-up flower stones are `AF[..]`. Ordinary two-colour SGF
//! files load unchanged (unknown and malformed properties such as the Fan Hui files' `KO[7.5]`
//! or `RD[...]` are kept as information or ignored, never refused).

use crate::board::coord::{half, Point};
use crate::board::grid::{Board, Colour, Stone};
use crate::formats::record::Record;
use crate::formats::record::{max_moves, RecordMove, MAX_FIRST_MOVE};
use crate::game::order::{Kind, Turn};
use crate::game::play::Action;
use crate::game::setup::{InputError, Setup, MAX_FILE_BYTES};
use crate::rules::{Rules, RulesField, RulesSpec, PRESETS};
use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use sgf_parse::{SgfNode, SgfProp, SimpleText};

/// The private property marking a flower move (`B[dd]FL[]` = 华, `W[dd]FL[]` = 花).
pub const FLOWER_PROP: &str = "FL";
/// The private root property holding the whole rule set as JSON (what `m3go rules` prints).
pub const RULES_PROP: &str = "TCR";
/// The private set-up property for flower stones (like `AB` / `AW`).
pub const ADD_FLOWER_PROP: &str = "AF";
/// Most nodes m3go reads from one SGF file.
pub const MAX_NODES: usize = 20_000;

/// Game-information properties kept in the record, with their game-file keys.
const INFO_PROPS: [(&str, &str); 10] = [
    ("PB", "black"),
    ("PW", "white"),
    ("BR", "black-rank"),
    ("WR", "white-rank"),
    ("RE", "result"),
    ("DT", "date"),
    ("RD", "date"),
    ("EV", "event"),
    ("KM", "komi"),
    ("KO", "komi"),
];

fn err(place: &str, what: String) -> InputError {
    InputError::new(what).file(place)
}

/// Line and column (1-based) of byte offset `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

/// A structural pre-scan: brackets, parentheses and the number of nodes, with the line and
/// column of the first problem (the crate's own errors do not say where).
fn prescan(text: &str, place: &str) -> Result<(), InputError> {
    let mut depth = 0usize;
    let mut nodes = 0usize;
    let mut in_value: Option<usize> = None;
    let mut escaped = false;
    let mut seen_tree = false;
    for (at, c) in text.char_indices() {
        if in_value.is_some() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == ']' {
                in_value = None;
            }
            continue;
        }
        match c {
            '[' => in_value = Some(at),
            '(' => {
                depth += 1;
                seen_tree = true;
            }
            ')' => {
                if depth == 0 {
                    let (l, c) = line_col(text, at);
                    return Err(err(place, "`)` closes no game tree".into())
                        .at(format!("SGF line {l} column {c}")));
                }
                depth -= 1;
            }
            ';' => {
                nodes += 1;
                if nodes > MAX_NODES {
                    return Err(err(
                        place,
                        format!(
                            "SGF has more than {MAX_NODES} nodes: m3go reads at most {MAX_NODES}"
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    if let Some(at) = in_value {
        let (l, c) = line_col(text, at);
        return Err(err(
            place,
            "the property value opened here is never closed with `]`".into(),
        )
        .at(format!("SGF line {l} column {c}")));
    }
    if !seen_tree {
        return Err(err(place, "not an SGF game".into()).expected("a game tree `(;...)`"));
    }
    if depth > 0 {
        return Err(
            err(place, format!("SGF ends inside {depth} open game tree(s)")).expected("`)`"),
        );
    }
    Ok(())
}

/// The identifiers and raw values of a property.
fn ident_values(p: &Prop) -> (String, Vec<String>) {
    match p {
        Prop::Unknown(i, v) | Prop::Invalid(i, v) => (i.clone(), v.clone()),
        other => {
            let s = other.to_string();
            let id = other.identifier();
            let rest = s.get(id.len()..).unwrap_or("");
            let inner = rest
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .unwrap_or(rest);
            (id, vec![inner.to_string()])
        }
    }
}

/// The text of a property for the game information.
fn info_value(p: &Prop) -> Option<String> {
    match p {
        Prop::PB(t)
        | Prop::PW(t)
        | Prop::BR(t)
        | Prop::WR(t)
        | Prop::RE(t)
        | Prop::DT(t)
        | Prop::EV(t) => Some(t.text.clone()),
        Prop::KM(k) => Some(k.to_string()),
        Prop::Unknown(_, v) | Prop::Invalid(_, v) => v.first().cloned(),
        _ => None,
    }
}

/// An SGF point on a board of `size`; `tt` on boards up to 19 is the FF\[3\] pass.
fn sgf_point(p: SgfPoint, size: usize) -> Option<Action> {
    let n = size as u8;
    if p.x < n && p.y < n {
        let h = half(size);
        Some(Action::Place(Point::new(
            i32::from(p.x) - h,
            h - i32::from(p.y),
        )))
    } else if p.x == 19 && p.y == 19 && size <= 19 {
        Some(Action::Pass)
    } else {
        None
    }
}

/// The SGF point of a board point.
pub fn to_sgf_point(p: Point, size: usize) -> SgfPoint {
    let h = half(size);
    SgfPoint {
        x: (p.x + h) as u8,
        y: (h - p.y) as u8,
    }
}

fn sgf_coord(p: SgfPoint) -> String {
    format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)
}

/// Reads the first game of an SGF text as a [`Record`]. Errors name the line and column
/// (structure) or the node and move number (content).
pub fn parse_record(text: &str, place: &str) -> Result<Record, InputError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(err(place, format!("{} bytes is too large", text.len()))
            .expected(format!("at most {MAX_FILE_BYTES} bytes")));
    }
    prescan(text, place)?;
    let parsed = std::panic::catch_unwind(|| sgf_parse::go::parse(text))
        .map_err(|_| err(place, "the SGF reader failed on this file".into()))?;
    let games = parsed.map_err(|e| err(place, format!("not a valid SGF Go game: {e}")))?;
    let root = games
        .into_iter()
        .next()
        .ok_or_else(|| err(place, "no game tree".into()))?;
    from_root(&root, place)
}

fn from_root(root: &SgfNode<Prop>, place: &str) -> Result<Record, InputError> {
    let mut size = 19usize;
    let mut rules: Option<RulesField> = None;
    let mut full_rules: Option<RulesField> = None;
    let mut info: Vec<(String, String)> = Vec::new();
    let mut setup: [Vec<SgfPoint>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for p in root.properties() {
        match p {
            Prop::SZ((w, h)) => {
                if w != h {
                    return Err(
                        err(place, "m3go boards are square (odd sizes 3 to 19)".into())
                            .key(format!("SZ[{w}:{h}]")),
                    );
                }
                size = usize::from(*w);
                crate::board::grid::check_size(size)
                    .map_err(|e| err(place, e.to_string()).key("SZ"))?;
            }
            Prop::Invalid(id, v) if id == "SZ" => {
                return Err(err(place, String::new())
                    .key(format!("SZ[{}]", v.join("][")))
                    .expected("a board size"))
            }
            Prop::RU(t) => {
                let name = t.text.trim().to_ascii_lowercase();
                if PRESETS.contains(&name.as_str()) {
                    rules = Some(RulesField::Name(name));
                } else {
                    info.push(("original-rules".into(), t.text.clone()));
                }
            }
            Prop::Unknown(id, v) if id == RULES_PROP => {
                let json = v.first().cloned().unwrap_or_default();
                let spec: RulesSpec = serde_json::from_str(&json)
                    .or_else(|_| serde_yaml::from_str(&json))
                    .map_err(|e| err(place, e.to_string()).key(format!("{RULES_PROP}[...]")))?;
                let f = RulesField::Spec(spec);
                f.resolve()
                    .map_err(|e| err(place, e.to_string()).key(format!("{RULES_PROP}[...]")))?;
                full_rules = Some(f);
            }
            Prop::AB(s) => setup[0].extend(s.iter().copied()),
            Prop::AW(s) => setup[1].extend(s.iter().copied()),
            Prop::Unknown(id, v) if id == ADD_FLOWER_PROP => {
                for x in v {
                    let pt: SgfPoint = x.parse().map_err(|_| {
                        err(place, String::new())
                            .key(format!("{ADD_FLOWER_PROP}[{x}]"))
                            .expected("a point")
                    })?;
                    setup[2].push(pt);
                }
            }
            Prop::Invalid(id, v) if id == "AB" || id == "AW" => {
                return Err(err(place, String::new())
                    .key(format!("{id}[{}]", v.join("][")))
                    .expected("a list of points"))
            }
            other => {
                let (id, _) = ident_values(other);
                if let Some((_, key)) = INFO_PROPS.iter().find(|(p, _)| *p == id) {
                    if let Some(v) = info_value(other).filter(|v| !v.trim().is_empty()) {
                        if !info.iter().any(|(k, _)| k == key) {
                            info.push((key.to_string(), v));
                        }
                    }
                }
            }
        }
    }
    let rules = full_rules.or(rules);
    let start = if setup.iter().all(|s| s.is_empty()) {
        None
    } else {
        let mut b = Board::empty(size).map_err(|e| err(place, e.to_string()))?;
        for (k, stone) in [Stone::Black, Stone::White, Stone::Flower]
            .iter()
            .enumerate()
        {
            for &sp in &setup[k] {
                match sgf_point(sp, size) {
                    Some(Action::Place(p)) => b.set(b.index(p), Some(*stone)),
                    _ => {
                        return Err(err(
                            place,
                            format!(
                                "set-up stone [{}] is off the {size}x{size} board",
                                sgf_coord(sp)
                            ),
                        ))
                    }
                }
            }
        }
        Some(Setup {
            rules: rules.clone().unwrap_or_default(),
            size: Some(size),
            diagram: b.to_diagram(),
            ..Setup::default()
        })
    };
    let mut record = Record::new(size, rules);
    record.start = start;
    record.info = info;
    // the main line: the root may itself carry a move (rare); then every first child
    let mut number: Option<u32> = None;
    for (k, node) in root.main_variation().enumerate() {
        let node_place = format!("SGF node {}", k + 1);
        let mut mv: Option<(Colour, &SgfMove, String)> = None;
        let mut flower = false;
        let mut mn: Option<i64> = None;
        for p in node.properties() {
            match p {
                Prop::B(m) | Prop::W(m) => {
                    let c = if matches!(p, Prop::B(_)) {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    if mv.is_some() {
                        return Err(err(place, "two moves in one node".into())
                            .at(&node_place)
                            .expected("one B or W"));
                    }
                    mv = Some((c, m, p.to_string()));
                }
                Prop::Invalid(id, v) if id == "B" || id == "W" => {
                    let n = number.map(|n| n + 1).unwrap_or(record.first_move);
                    return Err(err(place, format!("{id}[{}] is not a move", v.join("][")))
                        .at(&node_place)
                        .move_number(n)
                        .expected("two letters a-s or []"));
                }
                Prop::MN(n) => mn = Some(*n),
                Prop::Unknown(id, _) if id == FLOWER_PROP => flower = true,
                Prop::AB(_) | Prop::AW(_) | Prop::AE(_) if k > 0 => {
                    return Err(err(
                        place,
                        "set-up properties (AB/AW/AE) inside the game are not supported: only in the root".into(),
                    )
                    .at(&node_place))
                }
                Prop::Unknown(id, _) if id == ADD_FLOWER_PROP && k > 0 => {
                    return Err(err(
                        place,
                        format!("{ADD_FLOWER_PROP} inside the game is not supported: only in the root"),
                    )
                    .at(&node_place))
                }
                _ => {}
            }
        }
        let Some((colour, m, text)) = mv else {
            if flower {
                return Err(
                    err(place, format!("{FLOWER_PROP}[] without a B or W move")).at(&node_place)
                );
            }
            continue;
        };
        let n = match (number, mn) {
            (None, Some(n)) if (1..=i64::from(MAX_FIRST_MOVE)).contains(&n) => n as u32,
            (None, _) => 1,
            (Some(prev), Some(n)) if n != i64::from(prev) + 1 => {
                return Err(err(place, format!("MN[{n}] renumbers the game"))
                    .at(&node_place)
                    .expected(format!("MN[{}] or none", prev + 1)))
            }
            (Some(prev), _) => prev + 1,
        };
        if number.is_none() {
            record.first_move = n;
        }
        number = Some(n);
        let action = match m {
            SgfMove::Pass => Action::Pass,
            SgfMove::Move(p) => sgf_point(*p, size).ok_or_else(|| {
                err(place, format!("{text} is off the {size}x{size} board"))
                    .at(&node_place)
                    .move_number(n)
            })?,
        };
        if record.moves.len() >= max_moves(size) {
            return Err(err(
                place,
                format!(
                    "a {size}x{size} record is limited to {} moves",
                    max_moves(size)
                ),
            )
            .at(&node_place)
            .move_number(n));
        }
        record.moves.push(RecordMove {
            number: n,
            action,
            claimed: Some(Turn {
                player: colour,
                kind: if flower { Kind::Flower } else { Kind::Own },
            }),
            place: format!("{place} {node_place}"),
            text: if flower {
                format!("{text}{FLOWER_PROP}[]")
            } else {
                text
            },
        });
    }
    Ok(record)
}

fn prop(id: &str, value: &str) -> Prop {
    Prop::new(id.to_string(), vec![value.to_string()])
}

/// Escapes a value of a private property (the crate writes those raw).
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes a record as SGF FF\[4\] with m3go's extension. Moves whose turn the record does not
/// name take it from `rules`' schedule.
pub fn write_record(record: &Record, rules: &Rules) -> Result<String, InputError> {
    let size = record.size;
    let mut root_props = vec![
        Prop::FF(4),
        Prop::GM(1),
        Prop::CA(SimpleText {
            text: "UTF-8".into(),
        }),
        Prop::AP((
            SimpleText {
                text: "m3go".into(),
            },
            SimpleText {
                text: env!("CARGO_PKG_VERSION").into(),
            },
        )),
        Prop::SZ((size as u8, size as u8)),
        Prop::RU(SimpleText {
            text: rules.preset.clone(),
        }),
    ];
    let json =
        serde_json::to_string(rules).map_err(|e| InputError::new(e.to_string()).key("rules"))?;
    root_props.push(prop(RULES_PROP, &escape(&json)));
    for (k, v) in &record.info {
        let id = match k.as_str() {
            "black" => "PB",
            "white" => "PW",
            "black-rank" => "BR",
            "white-rank" => "WR",
            "result" => "RE",
            "date" => "DT",
            "event" => "EV",
            "komi" => "KM",
            _ => continue,
        };
        let p = Prop::new(id.to_string(), vec![v.clone()]);
        if !matches!(p, Prop::Invalid(..)) && root_props.iter().all(|q| q.identifier() != id) {
            root_props.push(p);
        }
    }
    if let Some(s) = &record.start {
        let b = Board::from_diagram(&s.diagram, size)
            .map_err(|e| InputError::new(e.to_string()).key("record start position"))?;
        let mut lists: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for i in 0..b.len() {
            let k = match b.get(i) {
                Some(Stone::Black) => 0,
                Some(Stone::White) => 1,
                Some(Stone::Flower) => 2,
                None => continue,
            };
            lists[k].push(sgf_coord(to_sgf_point(b.point(i), size)));
        }
        for (k, id) in ["AB", "AW", ADD_FLOWER_PROP].iter().enumerate() {
            if !lists[k].is_empty() {
                root_props.push(Prop::new(id.to_string(), lists[k].clone()));
            }
        }
    }
    let mut nodes: Vec<Vec<Prop>> = Vec::new();
    for m in &record.moves {
        let turn = m
            .claimed
            .unwrap_or_else(|| crate::game::order::turn_of_move(rules, m.number));
        let v = match m.action {
            Action::Pass => SgfMove::Pass,
            Action::Place(p) => SgfMove::Move(to_sgf_point(p, size)),
        };
        let mut props = vec![match turn.player {
            Colour::Black => Prop::B(v),
            Colour::White => Prop::W(v),
        }];
        if turn.kind == Kind::Flower {
            props.push(Prop::new(FLOWER_PROP.to_string(), vec![String::new()]));
        }
        if nodes.is_empty() && m.number != 1 {
            props.push(Prop::MN(i64::from(m.number)));
        }
        nodes.push(props);
    }
    // build the main line from its end (the crate's nodes own their children)
    let mut child: Option<SgfNode<Prop>> = None;
    for props in nodes.into_iter().rev() {
        child = Some(SgfNode::new(props, child.into_iter().collect(), false));
    }
    let root = SgfNode::new(root_props, child.into_iter().collect(), true);
    // SZ[19] rather than the crate's equivalent SZ[19:19], which some readers refuse
    let text = root
        .serialize()
        .replacen(&format!("SZ[{size}:{size}]"), &format!("SZ[{size}]"), 1);
    // one move node per line, for people and diffs
    Ok(format!(
        "{}\n",
        text.replace(";B[", "\n;B[").replace(";W[", "\n;W[")
    ))
}

/// The rules to write for a record: its own, or `fallback`.
pub fn rules_for_writing(record: &Record, fallback: &Rules) -> Rules {
    record
        .rules
        .as_ref()
        .and_then(|f| f.resolve().ok())
        .unwrap_or_else(|| fallback.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_extension_round_trips_flower_moves_and_rules() {
        let text = "(;FF[4]GM[1]SZ[9]RU[dullstone];B[ee];W[ce];B[];W[dd]FL[])";
        let r = parse_record(text, "t").unwrap();
        assert_eq!(r.size, 9);
        assert_eq!(r.rules, Some(RulesField::Name("dullstone".into())));
        assert_eq!(r.moves.len(), 4);
        assert_eq!(r.moves[0].action, Action::Place(Point::new(0, 0)));
        assert_eq!(r.moves[2].action, Action::Pass);
        assert_eq!(r.moves[3].claimed.map(|t| t.symbol()), Some('花'));
        let rules = Rules::preset("dullstone").unwrap();
        let out = write_record(&r, &rules).unwrap();
        let back = parse_record(&out, "out").unwrap();
        assert_eq!(back.moves, {
            let mut m = r.moves.clone();
            for (a, b) in m.iter_mut().zip(back.moves.iter()) {
                a.place = b.place.clone();
                a.text = b.text.clone();
            }
            m
        });
        assert!(out.contains("FL[]"), "{out}");
        assert!(out.contains("TCR["), "{out}");
    }

    #[test]
    fn sgf_structure_errors_name_line_and_column() {
        let e = parse_record("(;FF[4]\n;B[dd];W[ee", "x.sgf").unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        let e = parse_record("(;SZ[9];B[dd];W[zz])", "x.sgf").unwrap_err();
        assert!(e.to_string().contains("move 2"), "{e}");
        let e = parse_record("(;SZ[9];B[dd]", "x.sgf").unwrap_err();
        assert!(e.to_string().contains("open game tree"), "{e}");
    }
}
