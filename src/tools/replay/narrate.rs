//! The replay's log as text (003's narrative, with its English gloss) and its summary (the
//! tally of a replay).

use super::*;

/// The log as text: one line per move in 003's style, each followed by its English gloss when
/// `gloss` is set; then the summary.
pub(crate) fn log_text(rep: &Replay, gloss: bool) -> String {
    log_text_in(rep, gloss, Labels::Chinese)
}

/// [`log_text`] with every point in `labels`.
pub(crate) fn log_text_in(rep: &Replay, gloss: bool, labels: Labels) -> String {
    let mut o = String::new();
    for e in &rep.entries {
        o.push_str(&e.line_zh_in(labels));
        o.push('\n');
        if gloss {
            o.push_str("    ");
            o.push_str(&e.line_en_in(labels));
            o.push('\n');
        }
    }
    let (zh, en) = rep.summary();
    o.push_str(&zh);
    o.push('\n');
    if gloss {
        o.push_str("    ");
        o.push_str(&en);
        o.push('\n');
    }
    o
}

/// The record's move `a` in `labels`: its point, or `pass`.
fn source_in(a: Action, labels: Labels) -> String {
    match a {
        Action::Place(p) => p.format(labels),
        Action::Pass => "pass".into(),
    }
}

pub(super) fn colour_zh(kind: &str) -> &'static str {
    match kind {
        "black" => "黑",
        "white" => "白",
        _ => "花",
    }
}

pub(super) fn attr_zh(a: Attribute) -> &'static str {
    match a {
        Attribute::Neutral => "中性",
        Attribute::Black => "黑性",
        Attribute::White => "白性",
    }
}

/// Strings of one colour word joined as 003 does: `白棋串CO*和EO`.
pub(super) fn join_zh(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{}和{}", items[..n - 1].join("、"), items[n - 1]),
    }
}

pub(super) fn join_en(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// Groups strings by a key, keeping first-seen order.
pub(super) fn grouped<T, K: Ord + Clone>(items: &[T], key: impl Fn(&T) -> K) -> Vec<(K, Vec<&T>)> {
    let mut order: Vec<K> = Vec::new();
    let mut map: BTreeMap<K, Vec<&T>> = BTreeMap::new();
    for it in items {
        let k = key(it);
        if !map.contains_key(&k) {
            order.push(k.clone());
        }
        map.entry(k).or_default().push(it);
    }
    order
        .into_iter()
        .map(|k| {
            let v = map.remove(&k).unwrap_or_default();
            (k, v)
        })
        .collect()
}

pub(super) fn string_word_zh(s: &LoggedString) -> String {
    match (s.kind, s.attribute) {
        ("flower", Some(a)) if a != Attribute::Neutral => format!("{}花棋串", attr_zh(a)),
        ("flower", _) => "花棋串".into(),
        (k, _) => format!("{}棋串", colour_zh(k)),
    }
}

pub(super) fn string_word_en(s: &LoggedString) -> String {
    match (s.kind, s.attribute) {
        ("flower", Some(a)) if a != Attribute::Neutral => format!("{}-attributed flower", a.name()),
        ("flower", _) => "flower".into(),
        (k, _) => k.to_string(),
    }
}

impl Entry {
    /// The log line in 003's style.
    pub fn line_zh(&self) -> String {
        self.line_zh_in(Labels::Chinese)
    }

    /// The log line in 003's style, every point in `labels`.
    pub fn line_zh_in(&self, labels: Labels) -> String {
        let pt = |q: &LogName| q.format(labels);
        let notation = self.notation.format(labels);
        let head = match &self.status {
            Status::Played => notation.clone(),
            Status::RecordPass => format!("{}（原谱虚着）", notation.replace("pass", "虚着")),
            Status::Replaced { reason, clause, .. } => format!(
                "{}（原谱{}：{}，{reason}，{clause}）",
                notation.replace("pass", "虚着"),
                source_in(self.source, labels),
                reason.zh()
            ),
        };
        let mut parts = vec![head];
        if !self.captured.is_empty() {
            let g = grouped(&self.captured, string_word_zh);
            let txt: Vec<String> = g
                .iter()
                .map(|(w, v)| {
                    let n: Vec<String> = v.iter().map(|s| pt(&s.name)).collect();
                    format!("{w}{}", join_zh(&n))
                })
                .collect();
            parts.push(format!("提吃{}", txt.join("和")));
        }
        for (k, e) in self.eyes_made.iter().enumerate() {
            let eyes: Vec<String> = e.eyes.iter().map(|x| format!("私眼{}", pt(x))).collect();
            parts.push(format!(
                "{}为{}{}做出{}",
                if k == 0 && !self.captured.is_empty() {
                    "并"
                } else {
                    ""
                },
                string_word_zh(&e.string),
                pt(&e.string.name),
                join_zh(&eyes)
            ));
        }
        for s in &self.eyes_lost {
            parts.push(format!("{}{}失去私眼", string_word_zh(s), pt(&s.name)));
        }
        for (_, v) in grouped(&self.attribute_changes, |c| (c.from.name(), c.to.name())) {
            let (from, to) = (v[0].from, v[0].to);
            let n: Vec<String> = v.iter().map(|c| pt(&c.name)).collect();
            parts.push(format!(
                "{}花棋串{}{}变为{}花棋串",
                attr_zh(from),
                n.join("/"),
                if n.len() > 1 { "皆" } else { "" },
                attr_zh(to)
            ));
        }
        format!("{}。", parts.join("，"))
    }

    /// The English gloss of the line.
    pub fn line_en(&self) -> String {
        self.line_en_in(Labels::Chinese)
    }

    /// The English gloss, every point in `labels`.
    pub fn line_en_in(&self, labels: Labels) -> String {
        let pt = |q: &LogName| q.format(labels);
        let notation = self.notation.format(labels);
        let head = match &self.status {
            Status::Played => format!("{notation}: played"),
            Status::RecordPass => format!("{notation}: the record passes"),
            Status::Replaced {
                reason,
                clause,
                message,
            } => format!(
                "{notation}: the record's {} is refused — {} [{reason}, {clause}]: {message}; replaced by a pass",
                source_in(self.source, labels),
                reason.en(),
                message = message.format(labels)
            ),
        };
        let mut parts = vec![head];
        if !self.captured.is_empty() {
            let g = grouped(&self.captured, string_word_en);
            let txt: Vec<String> = g
                .iter()
                .map(|(w, v)| {
                    let n: Vec<String> = v.iter().map(|s| pt(&s.name)).collect();
                    format!(
                        "{w} string{} {}",
                        if n.len() > 1 { "s" } else { "" },
                        join_en(&n)
                    )
                })
                .collect();
            parts.push(format!("captures {}", txt.join(" and ")));
        }
        for e in &self.eyes_made {
            parts.push(format!(
                "makes private eye{} {} for {} string {}",
                if e.eyes.len() > 1 { "s" } else { "" },
                join_en(&e.eyes.iter().map(pt).collect::<Vec<_>>()),
                string_word_en(&e.string),
                pt(&e.string.name)
            ));
        }
        for s in &self.eyes_lost {
            parts.push(format!(
                "{} string {} loses its private eye",
                string_word_en(s),
                pt(&s.name)
            ));
        }
        for (_, v) in grouped(&self.attribute_changes, |c| (c.from.name(), c.to.name())) {
            let (from, to) = (v[0].from, v[0].to);
            let n: Vec<String> = v.iter().map(|c| pt(&c.name)).collect();
            parts.push(format!(
                "{} flower string{} {} become{} {}",
                from.name(),
                if n.len() > 1 { "s" } else { "" },
                n.join(", "),
                if n.len() > 1 { "" } else { "s" },
                to.name()
            ));
        }
        format!("{}.", parts.join("; "))
    }

    /// Whether the record's move was replaced by a pass.
    pub fn replaced(&self) -> bool {
        matches!(self.status, Status::Replaced { .. })
    }
}

/// What a replay's summary counts: the moves played, replaced by a pass (by reason code) and
/// passed by the record, the stones removed by colour, the last move number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Whether this was a mechanical replay (else a strict one).
    pub mechanical: bool,
    /// The record's moves replayed.
    pub moves: usize,
    pub played: usize,
    pub record_passes: usize,
    /// Replaced moves by reason code.
    pub replaced: BTreeMap<&'static str, usize>,
    /// Stones removed: (black, white, flower).
    pub captured: (usize, usize, usize),
    /// The number of the last move replayed (0 if none).
    pub last: u32,
}

impl Tally {
    pub(super) fn new(mechanical: bool) -> Tally {
        Tally {
            mechanical,
            ..Tally::default()
        }
    }

    /// Counts move `number`, which ended as `status` and removed `captured` stones.
    pub(super) fn add(&mut self, number: u32, status: &Status, captured: (usize, usize, usize)) {
        self.moves += 1;
        self.last = number;
        match status {
            Status::Played => self.played += 1,
            Status::RecordPass => self.record_passes += 1,
            Status::Replaced { reason, .. } => {
                *self.replaced.entry(reason.code()).or_insert(0) += 1
            }
        }
        self.captured.0 += captured.0;
        self.captured.1 += captured.1;
        self.captured.2 += captured.2;
    }

    /// The number of moves replaced by a pass.
    pub fn replaced_count(&self) -> usize {
        self.replaced.values().sum()
    }

    /// The summary line (Chinese, then English).
    pub fn summary(&self) -> (String, String) {
        let (played, record_passes, last) = (self.played, self.record_passes, self.last);
        let replaced = self.replaced_count();
        let (b, w, f) = self.captured;
        let reasons: Vec<String> = self
            .replaced
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let (zh_kind, en_kind) = if self.mechanical {
            ("机械式排局", "mechanical replay")
        } else {
            ("打谱", "replay")
        };
        let zh = format!(
            "{zh_kind}至第{last}手：实着{played}手，虚着代替{replaced}手（{}），原谱虚着{record_passes}手；提吃黑子{b}、白子{w}、花子{f}。",
            if reasons.is_empty() { "无".into() } else { reasons.join("，") }
        );
        let en = format!(
            "{en_kind} to move {last}: {played} played, {replaced} replaced by a pass ({}), {record_passes} record passes; removed {b} black, {w} white, {f} flower stones.",
            if reasons.is_empty() { "none".into() } else { reasons.join(", ") }
        );
        (zh, en)
    }
}

impl Replay {
    /// The counts of the log.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::new(self.mechanical);
        for e in &self.entries {
            let mut c = (0, 0, 0);
            for s in &e.captured {
                match s.kind {
                    "black" => c.0 += s.points.len(),
                    "white" => c.1 += s.points.len(),
                    _ => c.2 += s.points.len(),
                }
            }
            t.add(e.number, &e.status, c);
        }
        t
    }

    /// Counts of the replaced moves by reason code.
    pub fn replaced_by_reason(&self) -> BTreeMap<&'static str, usize> {
        self.tally().replaced
    }

    /// Stones removed, by the colour of the removed stones: (black, white, flower).
    pub fn captured_counts(&self) -> (usize, usize, usize) {
        self.tally().captured
    }

    /// The summary line (Chinese, then English).
    pub fn summary(&self) -> (String, String) {
        self.tally().summary()
    }
}
