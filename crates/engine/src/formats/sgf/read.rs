//! Reading an SGF record ([`parse_record`]): a structural pre-scan that names the line and
//! column of a problem, the crate's parse, then the root's game information and rules, the
//! set-up stones and the main line's moves with m3go's extension, every dropped property and
//! variation counted.

use super::{
    sgf_coord, sgf_point, ADD_FLOWER_PROP, FLOWER_PROP, INFO_ALIASES, MAX_NODES, REPLACED_PROP,
    RULES_PROP,
};
use crate::board::grid::{Board, Colour, Stone};
use crate::formats::record::{Record, RecordMove, MAX_FIRST_MOVE};
use crate::game::order::{StoneKind, Turn};
use crate::game::play::Action;
use crate::game::setup::{InputError, Place, Setup, MAX_FILE_BYTES};
use crate::rules::{Rules, RulesField, RulesSpec};
use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use sgf_parse::{SgfNode, SgfProp};

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

/// The text of a property as its reader sees it (the crate's reader has removed the escapes:
/// the text is kept as it is, line breaks and tabs included).
fn info_value(p: &Prop) -> Option<String> {
    match p {
        simple_text_info!(t) => Some(t.text.clone()),
        Prop::GC(t) | Prop::C(t) => Some(t.text.clone()),
        Prop::KM(k) | Prop::TM(k) => Some(k.to_string()),
        Prop::HA(n) => Some(n.to_string()),
        Prop::Unknown(_, v) | Prop::Invalid(_, v) => Some(v.join("][")),
        _ => None,
    }
}

/// Reads the first game of an SGF text as a [`Record`]. Errors name the line and column
/// (structure) or the node and move number (content).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn parse_record(text: &str, place: &str) -> Result<Record, InputError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(err(place, format!("{} bytes is too large", text.len()))
            .expected(format!("at most {MAX_FILE_BYTES} bytes")));
    }
    prescan(text, place)?;
    let parsed = std::panic::catch_unwind(|| sgf_parse::go::parse(text))
        .map_err(|_| err(place, "the SGF reader failed on this file".into()))?;
    let games = parsed.map_err(|e| err(place, format!("not a valid SGF Go game: {e}")))?;
    let count = games.len();
    let root = games
        .into_iter()
        .next()
        .ok_or_else(|| err(place, "no game tree".into()))?;
    let mut record = from_root(&root, place, &|id| root_raw_value(text, id))?;
    // a collection: m3go reads its first game, and says so
    record.dropped.further_games = count.saturating_sub(1);
    Ok(record)
}

/// The number of nodes of a game tree that are not on its main line (its variations), counted
/// without recursion (the reader has already bounded the nodes to [`MAX_NODES`]).
fn variation_nodes(root: &SgfNode<Prop>) -> usize {
    let (mut all, mut stack) = (0usize, vec![root]);
    while let Some(n) = stack.pop() {
        all += 1;
        stack.extend(n.children());
    }
    all - root.main_variation().count()
}

/// Root properties a written SGF file states anew (the format, the character set, the
/// application), which are therefore not reported as dropped.
const REWRITTEN_PROPS: [&str; 4] = ["FF", "GM", "CA", "AP"];

/// The game-file key of an SGF game-information property (`PB` → `black`), aliases included.
fn info_key(id: &str) -> Option<&'static str> {
    let id = INFO_ALIASES
        .iter()
        .find(|(a, _)| *a == id)
        .map_or(id, |(_, p)| p);
    Record::INFO_KEYS
        .iter()
        .find(|(_, p)| *p == id)
        .map(|(k, _)| *k)
}

/// The points of a set-up list (`AB`, `AW`, `AF`, `AE`), each once.
fn setup_points(id: &str, p: &Prop, place: &str) -> Result<Vec<SgfPoint>, InputError> {
    let list = |v: &[String]| format!("{id}[{}]", crate::error::InputError::quote(&v.join("][")));
    match p {
        Prop::AB(s) | Prop::AW(s) | Prop::AE(s) => Ok(s.iter().copied().collect()),
        Prop::Unknown(_, v) => {
            let mut out: Vec<SgfPoint> = Vec::new();
            for x in v {
                let pt: SgfPoint = x.parse().map_err(|_| {
                    err(place, String::new())
                        .key(format!("{id}[{}]", crate::error::InputError::quote(x)))
                        .expected("a point")
                })?;
                if out.contains(&pt) {
                    return Err(err(place, format!("{} is listed twice", sgf_coord(pt)))
                        .key(list(v))
                        .expected("each point once"));
                }
                out.push(pt);
            }
            Ok(out)
        }
        Prop::Invalid(_, v) => Err(err(place, String::new())
            .key(list(v))
            .expected("a list of points")),
        _ => Ok(Vec::new()),
    }
}

/// The value of the root property `id` as written in `text` (the reader keeps `KM[1e400]` only
/// as the number it read, infinity), escapes removed: the first value of the first node.
fn root_raw_value(text: &str, id: &str) -> Option<String> {
    let start = text.find('(')?;
    let mut chars = text[start + 1..].chars().skip_while(|c| c.is_whitespace());
    if chars.next() != Some(';') {
        return None;
    }
    let (mut ident, mut after_value) = (String::new(), false);
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                let mut value = String::new();
                let mut escaped = false;
                for v in chars.by_ref() {
                    match (escaped, v) {
                        (false, '\\') => escaped = true,
                        (false, ']') => break,
                        _ => {
                            escaped = false;
                            value.push(v);
                        }
                    }
                }
                if ident == id {
                    return Some(value);
                }
                after_value = true;
            }
            ';' | '(' | ')' => return None,
            c if c.is_ascii_uppercase() => {
                if after_value {
                    ident.clear();
                    after_value = false;
                }
                ident.push(c);
            }
            _ => {}
        }
    }
    None
}

/// What the root node says: the board size, the rules, the game information, the set-up lists
/// and the player to move first, with the properties read but not kept.
#[derive(Default)]
struct Root {
    /// The property that gave the komi (KM, or the Fan Hui files' KO).
    komi_id: String,
    size: Option<usize>,
    rules: Option<RulesField>,
    full_rules: Option<RulesField>,
    info: Vec<(String, String)>,
    /// The set-up lists: AB, AW, AF.
    setup: [Vec<SgfPoint>; 3],
    /// AE: the cleared points.
    cleared: Vec<SgfPoint>,
    /// PL: the player to move first (a handicap game's `PL[W]`).
    to_play: Option<Colour>,
    /// The properties read but not kept, with the number of nodes holding each.
    not_kept: std::collections::BTreeMap<String, usize>,
}

/// What one node of the main line says: its move (colour, move, text as written), m3go's
/// flower and replaced-move marks, its MN and its comment.
#[derive(Default)]
struct Node<'a> {
    mv: Option<(Colour, &'a SgfMove, String)>,
    flower: bool,
    replaced: Option<SgfPoint>,
    mn: Option<i64>,
    comment: Option<String>,
}

fn from_root(
    root: &SgfNode<Prop>,
    place: &str,
    raw: &dyn Fn(&str) -> Option<String>,
) -> Result<Record, InputError> {
    let mut r = read_root(root, place, raw)?;
    let size = r.size.unwrap_or(19);
    let rules = r.full_rules.take().or(r.rules.take());
    crate::formats::record::reconcile_komi(&mut r.info, rules.as_ref(), &r.komi_id)
        .map_err(|e| e.in_file(place))?;
    let start = set_up(&r, size, rules.as_ref(), place)?;
    // D30: a game that starts from set-up stones, or says white moves first
    let handicap = start.is_some() || r.to_play == Some(Colour::White);
    let mut record = Record::new(size, rules);
    if start.is_some() {
        record.start_place = Some(format!("{place}: SGF set-up (AB/AW/AF)"));
    }
    record.start = start;
    // the main line: the root may itself carry a move (rare); then every first child
    let mut number: Option<u32> = None;
    // a comment on a node without a move goes with the move before it (the root's before any)
    let mut pending_comment: Option<String> = None;
    for (k, node) in root.main_variation().enumerate() {
        let node_place = format!("SGF node {}", k + 1);
        let next = number.map(|n| n + 1).unwrap_or(record.first_move);
        let node = read_node(node, k, next, place, &node_place, &mut r.not_kept)?;
        let Some((colour, m, text)) = node.mv else {
            if node.flower || node.replaced.is_some() {
                return Err(err(
                    place,
                    format!("{FLOWER_PROP}[] or {REPLACED_PROP}[] without a B or W move"),
                )
                .at(&node_place));
            }
            if let Some(n) = node.mn {
                return Err(err(place, format!("MN[{n}] on a node without a move"))
                    .at(&node_place)
                    .expected("MN beside a B or W move"));
            }
            if let Some(c) = node.comment {
                keep_comment(&mut record, &mut pending_comment, c);
            }
            continue;
        };
        let white_first = colour == Colour::White && !node.flower && handicap;
        let n = move_number(number, node.mn, white_first, place, &node_place)?;
        if number.is_none() {
            record.first_move = n;
        }
        number = Some(n);
        crate::game::notation::Notation::check_move_number(n)
            .map_err(|e| InputError::from(e).file(place).at(&node_place))?;
        let action = node_action(m, node.replaced, &text, size, n, place, &node_place)?;
        if record.moves.len() >= crate::game::notation::Notation::max_moves(size) {
            return Err(err(
                place,
                format!(
                    "a {size}x{size} record is limited to {} moves",
                    crate::game::notation::Notation::max_moves(size)
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
                kind: if node.flower {
                    StoneKind::Flower
                } else {
                    StoneKind::Own
                },
            }),
            place: format!("{place} {node_place}"),
            text: if node.flower {
                format!("{text}{FLOWER_PROP}[]")
            } else {
                text
            },
            replaced: node.replaced.is_some(),
            comment: node.comment,
        });
    }
    finish(record, root, r, pending_comment, place)
}

/// Reads the root's properties: each once, the size square and valid, the rules by preset name
/// or in full, the set-up lists, PL, and the game information (the komi as written).
fn read_root(
    root: &SgfNode<Prop>,
    place: &str,
    raw: &dyn Fn(&str) -> Option<String>,
) -> Result<Root, InputError> {
    let mut r = Root {
        komi_id: "KM".to_string(),
        ..Root::default()
    };
    let mut seen: Vec<String> = Vec::new();
    for p in root.properties() {
        let (id, _) = ident_values(p);
        if seen.contains(&id) {
            return Err(err(place, format!("{id} is given twice in the root"))
                .expected("each property once in a node (FF[4])"));
        }
        seen.push(id.clone());
        match p {
            Prop::SZ((w, h)) => {
                if w != h {
                    return Err(
                        err(place, "m3go boards are square (odd sizes 3 to 19)".into())
                            .key(format!("SZ[{w}:{h}]")),
                    );
                }
                let n = usize::from(*w);
                crate::board::grid::Board::check_size(n)
                    .map_err(|e| err(place, e.to_string()).key("SZ"))?;
                r.size = Some(n);
            }
            Prop::Invalid(id, v) if id == "SZ" => {
                return Err(err(place, String::new())
                    .key(format!(
                        "SZ[{}]",
                        crate::error::InputError::quote(&v.join("]["))
                    ))
                    .expected("a board size"))
            }
            Prop::RU(t) => {
                let name = t.text.trim().to_ascii_lowercase();
                if Rules::PRESETS.contains(&name.as_str()) {
                    r.rules = Some(RulesField::Name(name));
                } else {
                    r.info.push(("original-rules".into(), t.text.clone()));
                }
            }
            Prop::Unknown(id, v) if id == RULES_PROP => {
                let json = v.first().cloned().unwrap_or_default();
                // JSON is YAML: one reader, whose messages name no Rust types
                let spec: RulesSpec = crate::game::setup::parse_yaml(&json).map_err(|e| {
                    e.within(
                        Place::default()
                            .file(place)
                            .key(format!("{RULES_PROP}[...]")),
                    )
                })?;
                let f = RulesField::Spec(spec);
                f.resolve()
                    .map_err(|e| err(place, e.to_string()).key(format!("{RULES_PROP}[...]")))?;
                r.full_rules = Some(f);
            }
            Prop::AB(_) => r.setup[0].extend(setup_points("AB", p, place)?),
            Prop::AW(_) => r.setup[1].extend(setup_points("AW", p, place)?),
            Prop::AE(_) => r.cleared.extend(setup_points("AE", p, place)?),
            Prop::Unknown(id, _) if id == ADD_FLOWER_PROP => {
                r.setup[2].extend(setup_points(ADD_FLOWER_PROP, p, place)?)
            }
            Prop::Invalid(id, _) if ["AB", "AW", "AE"].contains(&id.as_str()) => {
                setup_points(id, p, place)?;
            }
            Prop::MN(_) => {}
            Prop::Invalid(id, v) if id == "MN" => {
                return Err(err(place, String::new())
                    .key(format!(
                        "MN[{}]",
                        crate::error::InputError::quote(&v.join("]["))
                    ))
                    .expected("a move number"))
            }
            Prop::PL(c) => {
                r.to_play = Some(match c {
                    sgf_parse::Color::Black => Colour::Black,
                    sgf_parse::Color::White => Colour::White,
                })
            }
            Prop::Invalid(id, v) if id == "PL" => {
                return Err(err(place, String::new())
                    .key(format!(
                        "PL[{}]",
                        crate::error::InputError::quote(&v.join("]["))
                    ))
                    .expected("PL[B] or PL[W]"))
            }
            Prop::B(_) | Prop::W(_) | Prop::C(_) => {}
            _ if REWRITTEN_PROPS.contains(&id.as_str()) => {}
            other => root_info(&mut r, &id, other, place, raw)?,
        }
    }
    Ok(r)
}

/// A root property of game information (`PB`, `KM`, …) kept under its game-file key, each key
/// once; any other property counted as not kept.
fn root_info(
    r: &mut Root,
    id: &str,
    p: &Prop,
    place: &str,
    raw: &dyn Fn(&str) -> Option<String>,
) -> Result<(), InputError> {
    let Some(key) = info_key(id) else {
        *r.not_kept.entry(id.to_string()).or_default() += 1;
        return Ok(());
    };
    // the komi as written, not as the reader's number (`1e400`, not `inf`)
    let value = match key {
        "komi" => raw(id).or_else(|| info_value(p)),
        _ => info_value(p),
    };
    if key == "komi" {
        r.komi_id = id.to_string();
    }
    if let Some(v) = value.filter(|v| !v.trim().is_empty()) {
        if let Some(k) = r.info.iter().position(|(k, _)| k == key) {
            return Err(err(
                place,
                format!(
                    "`{id}` gives the {key} again (it is `{}` already)",
                    crate::error::InputError::quote(&r.info[k].1)
                ),
            )
            .expected("each game-information property once"));
        }
        r.info.push((key.to_string(), v));
    }
    Ok(())
}

/// The start position of the root's set-up lists (AB, AW, AF), `None` without any: each point
/// on the board, set up once and not also cleared by AE; every AE point on the board.
fn set_up(
    r: &Root,
    size: usize,
    rules: Option<&RulesField>,
    place: &str,
) -> Result<Option<Setup>, InputError> {
    let start = if r.setup.iter().all(|s| s.is_empty()) {
        None
    } else {
        let mut b = Board::empty(size).map_err(|e| err(place, e.to_string()))?;
        let names = ["AB", "AW", ADD_FLOWER_PROP];
        let mut by: Vec<Option<&str>> = vec![None; b.len()];
        for (k, stone) in [Stone::Black, Stone::White, Stone::Flower]
            .iter()
            .enumerate()
        {
            for &sp in &r.setup[k] {
                match sgf_point(sp, size) {
                    Some(Action::Place(p)) => {
                        let i = b.index(p);
                        if let Some(other) = by[i] {
                            return Err(err(
                                place,
                                format!(
                                    "{other}[{1}] and {0}[{1}] set up the same point",
                                    names[k],
                                    sgf_coord(sp)
                                ),
                            )
                            .at("SGF set-up")
                            .expected("one stone per point"));
                        }
                        by[i] = Some(names[k]);
                        b.set(i, Some(*stone));
                    }
                    _ => {
                        return Err(err(
                            place,
                            format!(
                                "set-up stone {}[{}] is off the {size}x{size} board",
                                names[k],
                                sgf_coord(sp)
                            ),
                        ))
                    }
                }
            }
        }
        if let Some(&sp) = r.cleared
            .iter()
            .find(|&&sp| matches!(sgf_point(sp, size), Some(Action::Place(p)) if by[b.index(p)].is_some()))
        {
            return Err(err(
                place,
                format!("AE[{}] clears a point the root also sets up", sgf_coord(sp)),
            )
            .at("SGF set-up")
            .expected("a point in one set-up list"));
        }
        Some(Setup {
            rules: rules.cloned().unwrap_or_default(),
            size: Some(size),
            diagram: b.to_diagram(),
            ..Setup::default()
        })
    };
    if let Some(&sp) = r
        .cleared
        .iter()
        .find(|&&sp| !matches!(sgf_point(sp, size), Some(Action::Place(_))))
    {
        return Err(err(
            place,
            format!("AE[{}] is off the {size}x{size} board", sgf_coord(sp)),
        ));
    }
    Ok(start)
}

/// Reads node `k` of the main line (the root is node 0, whose other properties `read_root`
/// has read): one move, each property once, no set-up or size inside the game; `next` is the
/// number its move would have, for the message of a move that is none.
fn read_node<'a>(
    node: &'a SgfNode<Prop>,
    k: usize,
    next: u32,
    place: &str,
    node_place: &str,
    not_kept: &mut std::collections::BTreeMap<String, usize>,
) -> Result<Node<'a>, InputError> {
    let mut out = Node::default();
    let mut ids: Vec<String> = Vec::new();
    for p in node.properties() {
        let (id, _) = ident_values(p);
        if k > 0 && ids.contains(&id) && id != "B" && id != "W" {
            return Err(err(place, format!("{id} is given twice in one node"))
                .at(node_place)
                .expected("each property once in a node (FF[4])"));
        }
        ids.push(id);
        match p {
            Prop::B(m) | Prop::W(m) => {
                let c = if matches!(p, Prop::B(_)) {
                    Colour::Black
                } else {
                    Colour::White
                };
                if out.mv.is_some() {
                    return Err(err(place, "two moves in one node".into())
                        .at(node_place)
                        .expected("one B or W"));
                }
                let id = if c == Colour::Black { "B" } else { "W" };
                let raw = match m {
                    SgfMove::Pass => String::new(),
                    SgfMove::Move(pt) => sgf_coord(*pt),
                };
                out.mv = Some((c, m, format!("{id}[{raw}]")));
            }
            Prop::Invalid(id, v) if id == "B" || id == "W" => {
                return Err(err(
                    place,
                    format!(
                        "{id}[{}] is not a move",
                        crate::error::InputError::quote(&v.join("]["))
                    ),
                )
                .at(node_place)
                .move_number(next)
                .expected("two letters a-s or []"));
            }
            Prop::MN(n) => out.mn = Some(*n),
            Prop::Invalid(id, v) if id == "MN" => {
                return Err(err(place, String::new())
                    .key(format!(
                        "MN[{}]",
                        crate::error::InputError::quote(&v.join("]["))
                    ))
                    .at(node_place)
                    .expected("a move number"))
            }
            Prop::C(t) if k > 0 => out.comment = Some(t.text.clone()),
            Prop::Unknown(id, _) if id == FLOWER_PROP => out.flower = true,
            Prop::Unknown(id, v) if id == REPLACED_PROP => {
                let raw = v.first().cloned().unwrap_or_default();
                out.replaced = Some(raw.parse().map_err(|_| {
                    err(place, String::new())
                        .key(format!(
                            "{REPLACED_PROP}[{}]",
                            crate::error::InputError::quote(&raw)
                        ))
                        .at(node_place)
                        .expected("the point of the refused move")
                })?);
            }
            Prop::AB(_) | Prop::AW(_) | Prop::AE(_) if k > 0 => return Err(err(
                place,
                "set-up properties (AB/AW/AE) inside the game are not supported: only in the root"
                    .into(),
            )
            .at(node_place)),
            Prop::Unknown(id, _) if id == ADD_FLOWER_PROP && k > 0 => {
                return Err(err(
                    place,
                    format!("{ADD_FLOWER_PROP} inside the game is not supported: only in the root"),
                )
                .at(node_place))
            }
            Prop::SZ(_) if k > 0 => {
                return Err(
                    err(place, "SZ inside the game: expected it in the root".into()).at(node_place),
                )
            }
            other if k > 0 => {
                *not_kept.entry(other.identifier()).or_default() += 1;
            }
            _ => {}
        }
    }
    Ok(out)
}

/// A comment on a node without a move goes with the move before it, or, before the first move,
/// with the root's.
fn keep_comment(record: &mut Record, pending_comment: &mut Option<String>, c: String) {
    match record.moves.last_mut() {
        Some(last) => {
            let joined = match last.comment.take() {
                Some(prev) => format!("{prev}\n{c}"),
                None => c,
            };
            last.comment = Some(joined);
        }
        None => {
            *pending_comment = Some(match pending_comment.take() {
                Some(prev) => format!("{prev}\n{c}"),
                None => c,
            })
        }
    }
}

/// The number of a move: its MN on the first move (in range), the one after the previous move
/// (an MN must agree); `white_first` when the move is white's stone in a handicap game.
fn move_number(
    number: Option<u32>,
    mn: Option<i64>,
    white_first: bool,
    place: &str,
    node_place: &str,
) -> Result<u32, InputError> {
    Ok(match (number, mn) {
        (None, Some(n)) if (1..=i64::from(MAX_FIRST_MOVE)).contains(&n) => n as u32,
        (None, Some(n)) => {
            return Err(err(place, format!("MN[{n}] is out of range"))
                .at(node_place)
                .expected(format!("a first move number from 1 to {MAX_FIRST_MOVE}")))
        }
        // D30: without MN, a handicap game (set-up stones or PL[W]) whose first move is
        // white's starts at move 2, the first number the alternation gives white; the
        // rules' schedule then checks the turn. Without set-up a white first move stays
        // move 1 (a strict replay refuses it; a mechanical one takes the cycle's colour).
        (None, None) if white_first => 2,
        (None, None) => 1,
        (Some(prev), Some(n)) if n != i64::from(prev) + 1 => {
            return Err(err(place, format!("MN[{n}] renumbers the game"))
                .at(node_place)
                .expected(format!("MN[{}] or none", prev + 1)))
        }
        (Some(prev), _) => prev + 1,
    })
}

/// The action of move `n` written `text`: its point on the board, a pass, or, for a pass marked
/// with m3go's replaced-move property, the refused point it names.
fn node_action(
    m: &SgfMove,
    replaced: Option<SgfPoint>,
    text: &str,
    size: usize,
    n: u32,
    place: &str,
    node_place: &str,
) -> Result<Action, InputError> {
    let action = match m {
        SgfMove::Pass => Action::Pass,
        SgfMove::Move(p) => sgf_point(*p, size).ok_or_else(|| {
            err(place, format!("{text} is off the {size}x{size} board"))
                .at(node_place)
                .move_number(n)
        })?,
    };
    let Some(rp) = replaced else {
        return Ok(action);
    };
    if action != Action::Pass {
        return Err(err(
            place,
            format!("{REPLACED_PROP}[] beside {text}: a replaced move is written as a pass"),
        )
        .at(node_place)
        .expected(format!(
            "{}[]{REPLACED_PROP}[{}]",
            &text[..1],
            sgf_coord(rp)
        )));
    }
    match sgf_point(rp, size) {
        Some(Action::Place(p)) => Ok(Action::Place(p)),
        _ => Err(err(
            place,
            format!(
                "{REPLACED_PROP}[{}] is off the {size}x{size} board",
                sgf_coord(rp)
            ),
        )
        .at(node_place)
        .move_number(n)),
    }
}

/// The record's end: PL agreeing with the first move, the game information with the comments of
/// the root and of the nodes before the first move, and what was dropped.
fn finish(
    mut record: Record,
    root: &SgfNode<Prop>,
    r: Root,
    pending_comment: Option<String>,
    place: &str,
) -> Result<Record, InputError> {
    // the root's comment, and those of the nodes before the first move
    let root_comment = root.properties().find_map(|p| match p {
        Prop::C(t) => Some(t.text.clone()),
        _ => None,
    });
    let comment = match (root_comment, pending_comment) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    };
    // D30: PL names the player of the first move; a record without moves
    // starts at white's first number for PL[W]
    match (r.to_play, record.moves.first()) {
        (Some(c), Some(m)) if m.claimed.is_some_and(|t| t.player != c) => {
            return Err(err(
                place,
                format!(
                    "PL[{}] says {} moves first, but the first move is {}",
                    if c == Colour::Black { "B" } else { "W" },
                    c.name(),
                    m.text
                ),
            )
            .at(&m.place)
            .expected("PL naming the player of the first move, or no PL"));
        }
        (Some(Colour::White), None) => record.first_move = 2,
        _ => {}
    }
    record.info = r.info;
    if let Some(c) = comment {
        record.info.push(("comment".into(), c));
    }
    record.dropped.variation_nodes = variation_nodes(root);
    record.dropped.properties = r.not_kept.into_iter().collect();
    Ok(record)
}
