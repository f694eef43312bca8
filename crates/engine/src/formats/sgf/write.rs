//! Writing a record as SGF FF\[4\] with m3go's extension ([`Record::to_sgf`]), one node per line.

use super::{sgf_coord, to_sgf_point, ADD_FLOWER_PROP, FLOWER_PROP, REPLACED_PROP, RULES_PROP};
use crate::board::grid::{Board, Colour, Stone};
use crate::formats::record::Record;
use crate::game::order::StoneKind;
use crate::game::play::Action;
use crate::game::setup::InputError;
use crate::rules::Rules;
use sgf_parse::go::{Move as SgfMove, Prop};
use sgf_parse::{SgfNode, SgfProp, SimpleText};

fn prop(id: &str, value: &str) -> Prop {
    Prop::new(id.to_string(), vec![value.to_string()])
}

/// Escapes a value the crate writes as it is (a private or unknown property's).
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// A game-information property holding `v` as its reader will see it: the value is read as
/// written in a file (escaped here), and a text value is then set to `v` itself, which the crate
/// escapes when it writes it.
fn info_prop(id: &str, v: &str) -> Prop {
    let mut p = Prop::new(id.to_string(), vec![escape(v)]);
    match &mut p {
        simple_text_info!(t) => t.text = v.to_string(),
        Prop::GC(t) | Prop::C(t) => t.text = v.to_string(),
        _ => {}
    }
    p
}

impl Record {
    /// Writes a record as SGF FF\[4\] with m3go's extension. Moves whose turn the record does not
    /// name take it from `rules`' schedule.
    pub fn to_sgf(&self, rules: &Rules) -> Result<String, InputError> {
        let record = self;
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
            // an `RU` that named no m3go preset stays; TCR says the rules m3go plays
            Prop::RU(SimpleText {
                text: record
                    .info("original-rules")
                    .unwrap_or(rules.preset.name())
                    .to_string(),
            }),
            // the komi once: the rules' (TCR holds the same)
            Prop::KM(rules.komi.points()),
        ];
        // the rules in their smallest form: the preset and the options that differ from it
        let json = serde_json::to_string(&rules.to_spec())
            .map_err(|e| InputError::internal(e).key("rules"))?;
        root_props.push(prop(RULES_PROP, &escape(&json)));
        for (k, v) in &record.info {
            if matches!(k.as_str(), "komi" | "original-rules") {
                continue;
            }
            let Some((_, id)) = Record::INFO_KEYS.iter().find(|(key, _)| key == k) else {
                continue;
            };
            if root_props.iter().all(|q| q.identifier() != *id) {
                root_props.push(info_prop(id, v));
            }
        }
        if let Some(s) = &record.start {
            let b = Board::from_diagram(&s.diagram, size)
                .map_err(|e| InputError::from(e).key("record start position"))?;
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
                .unwrap_or_else(|| crate::game::order::Turn::of_move(rules, m.number));
            let v = match m.action {
                Action::Place(p) if !m.replaced => SgfMove::Move(to_sgf_point(p, size)),
                _ => SgfMove::Pass,
            };
            let mut props = vec![match turn.player {
                Colour::Black => Prop::B(v),
                Colour::White => Prop::W(v),
            }];
            if turn.kind == StoneKind::Flower {
                props.push(Prop::new(FLOWER_PROP.to_string(), vec![String::new()]));
            }
            if let (true, Action::Place(p)) = (m.replaced, m.action) {
                props.push(prop(REPLACED_PROP, &sgf_coord(to_sgf_point(p, size))));
            }
            if let Some(c) = &m.comment {
                props.push(Prop::C(sgf_parse::Text { text: c.clone() }));
            }
            // the first move's number, wherever the reader would not infer it: a number other than
            // 1, or a white stone, which after set-up stones or PL[W] reads as move 2 (D30)
            if nodes.is_empty()
                && (m.number != 1
                    || (turn.player == Colour::White && turn.kind != StoneKind::Flower))
            {
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
        let text =
            root.serialize()
                .replacen(&format!("SZ[{size}:{size}]"), &format!("SZ[{size}]"), 1);
        Ok(format!("{}\n", node_per_line(&text)))
    }
}

/// SGF text with each node after the root on a line of its own, for people and diffs: a line
/// break before every `;` that starts a node (never inside a property value).
fn node_per_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let (mut in_value, mut escaped, mut nodes) = (false, false, 0usize);
    for c in text.chars() {
        if in_value {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == ']' {
                in_value = false;
            }
        } else if c == '[' {
            in_value = true;
        } else if c == ';' {
            nodes += 1;
            if nodes > 1 {
                out.push('\n');
            }
        }
        out.push(c);
    }
    out
}
