//! The analysis report's text rendering (`m3go analyze`'s default output): the three boards
//! framed by their labels, the strings with their private eyes, the upper strings, the flowers,
//! the 2016 concepts, the forbidden points, the legal moves and the score.

use super::{AnalysisReport, M2016Report};
use crate::board::coord::{Labels, Point, StringName};
use crate::game::notation::Notation;
use crate::game::text::{text, Text};
use crate::judge::eyes::VerdictCode;

/// A line of the text, with its line break.
fn push(o: &mut String, s: String) {
    o.push_str(&s);
    o.push('\n');
}

/// The text of a report ([`AnalysisReport::to_text_with`]): its heading, the three boards, the
/// strings with their regions, the upper and flower strings, the 2016 concepts, the forbidden
/// points, the moves and the score.
pub(super) fn render(report: &AnalysisReport, opts: TextOptions) -> String {
    let mut o = String::new();
    report.heading_text(&mut o);
    report.boards_text(&mut o, opts.labels);
    report.strings_text(&mut o, opts);
    report.upper_strings_text(&mut o, opts.labels);
    if let Some(m) = &report.m2016 {
        o.push_str(&report.m2016_text(m, opts));
    }
    report.forbidden_text(&mut o, opts.labels);
    report.moves_text(&mut o, opts.labels);
    o
}

impl AnalysisReport {
    /// The first line: the rules, the size, the move number and who is to play.
    fn heading_text(&self, o: &mut String) {
        push(
            o,
            format!(
                "m3go analysis — rules {}, {}x{}, move {} ({} to play: {}){}",
                self.rules.preset,
                self.size,
                self.size,
                self.move_number,
                self.to_move.symbol,
                match self.to_move.kind {
                    crate::game::order::StoneKind::Own =>
                        format!("{} stone", self.to_move.player.name()),
                    crate::game::order::StoneKind::Flower =>
                        format!("{}'s flower", self.to_move.player.name()),
                },
                if self.game_over { ", game over" } else { "" }
            ),
        );
        o.push('\n');
    }

    /// The direct, holographic and upper boards side by side, each framed by its labels.
    fn boards_text(&self, o: &mut String, labels: Labels) {
        let n = self.size;
        let boards = [
            ("direct", &self.boards.direct),
            ("holographic", &self.boards.holographic),
            ("upper", &self.boards.upper),
        ];
        let framed: Vec<Vec<String>> = boards
            .iter()
            .map(|(_, rows)| labelled_board(rows, labels))
            .collect();
        // every framed board line is 2n + 5 columns wide (CJK labels count two)
        let w = 2 * n + 5;
        push(
            o,
            format!(
                "   {:<w2$}{:<w2$}{}",
                boards[0].0,
                boards[1].0,
                boards[2].0,
                w2 = w + 3
            ),
        );
        for ((d, h), u) in framed[0].iter().zip(&framed[1]).zip(&framed[2]) {
            push(o, format!("{d}   {h}   {u}"));
        }
        push(o, "(X black, O white, # flower / neutral = off-board, x o flowers with a black / white star)".into());
        o.push('\n');
    }

    /// The strings of the lower layer, each with its private eyes (every closed region with
    /// `verbose`, else a count of those left out).
    fn strings_text(&self, o: &mut String, opts: TextOptions) {
        let pt = |p: Point| p.format(opts.labels);
        let nm = |s: StringName| s.format(opts.labels);
        let pts = |v: &[Point]| v.iter().map(|&p| pt(p)).collect::<Vec<_>>();
        push(o, "strings (lower layer):".into());
        let mut hidden = 0;
        for s in &self.strings {
            push(
                o,
                format!(
                    "  {} {} — {} stone(s), lower liberties {}, upper string {}",
                    s.colour.name(),
                    nm(s.name),
                    s.points.len(),
                    s.lower_liberties.len(),
                    nm(s.upper_string)
                ),
            );
            hidden += if opts.verbose {
                0
            } else {
                s.regions
                    .iter()
                    .filter(|r| r.verdict != VerdictCode::PrivateEye)
                    .count()
            };
            for r in s
                .regions
                .iter()
                .filter(|r| opts.verbose || r.verdict == VerdictCode::PrivateEye)
            {
                let (points, empty) = self.region_points(r.region);
                let empties = if empty.len() > 8 {
                    format!("{} empty points", empty.len())
                } else if empty.len() < points.len() && points.len() <= 8 {
                    // M20-EYE-FIG6: the region is its empty points plus the stones inside
                    format!(
                        "{}; empty {}",
                        pts(&points).join(" "),
                        pts(&empty).join(" ")
                    )
                } else {
                    pts(&empty).join(" ")
                };
                push(
                    o,
                    format!(
                        "      region of {} point(s) [{}]: {} ({})",
                        points.len(),
                        empties,
                        verdict_text(r.verdict, r.eye_at).format(opts.labels),
                        r.clause
                    ),
                );
            }
        }
        if hidden > 0 {
            push(
                o,
                format!(
                    "  ({hidden} closed region(s) that are not private eyes: shown with --verbose)"
                ),
            );
        }
    }

    /// The upper strings with their liberties, and the flower strings with their attribute.
    fn upper_strings_text(&self, o: &mut String, labels: Labels) {
        let nm = |s: StringName| s.format(labels);
        push(o, "upper strings:".into());
        for s in &self.upper_strings {
            push(
                o,
                format!(
                    "  {} {} — {} stone(s), {} liberties",
                    s.colour.name(),
                    nm(s.name),
                    s.points.len(),
                    s.liberties.len()
                ),
            );
        }
        push(o, "flower strings:".into());
        for f in &self.flowers {
            push(
                o,
                format!(
                    "  {} — {} (Hs={} Hw={} Bs={} Bw={}; {})",
                    nm(f.name),
                    f.attribute.name(),
                    f.hs,
                    f.hw,
                    f.bs,
                    f.bw,
                    f.clause
                ),
            );
        }
    }

    /// The points forbidden to each player's flower, with their reason and clause.
    fn forbidden_text(&self, o: &mut String, labels: Labels) {
        for (who, list) in [
            ("black", &self.forbidden.black),
            ("white", &self.forbidden.white),
        ] {
            push(o, format!("forbidden to {who}'s flower:"));
            for f in list {
                let owner = f
                    .owner
                    .map(|c| format!(" of {}", c.name()))
                    .unwrap_or_default();
                push(
                    o,
                    format!(
                        "  {} {}{} ({})",
                        f.point.format(labels),
                        f.reason,
                        owner,
                        f.clause
                    ),
                );
            }
        }
    }

    /// The legal moves and the special ones (abbreviated past twelve), and the score.
    fn moves_text(&self, o: &mut String, labels: Labels) {
        let mv = |m: &Notation| m.format(labels);
        push(
            o,
            format!(
                "legal moves ({}): {}",
                self.legal_moves.len(),
                abbreviate(&self.legal_moves.iter().map(mv).collect::<Vec<_>>())
            ),
        );
        if !self.special_moves.is_empty() {
            push(
                o,
                format!(
                    "special moves ({}): {}",
                    self.special_moves.len(),
                    abbreviate(&self.special_moves.iter().map(mv).collect::<Vec<_>>())
                ),
            );
        }
        match (&self.score, &self.score_error) {
            (Some(s), _) => push(
                o,
                format!(
                    "score{}: black {} white {} neutral {} (half-points), komi {} → {}",
                    if self.game_over {
                        ""
                    } else {
                        " if the game ended now"
                    },
                    s.black,
                    s.white,
                    s.neutral,
                    s.komi_quarters.points(),
                    s.winner
                ),
            ),
            (None, Some(e)) => push(o, format!("score: {e}")),
            _ => {}
        }
    }
}

impl AnalysisReport {
    /// The text of the 2016 concepts: every eye, true or false; the chains with their
    /// long-living sub-chains; the groups; the long-living, seki and dead strings; the
    /// conditions a–d of the closed regions (those meeting b; every one with `verbose`).
    fn m2016_text(&self, m: &M2016Report, opts: TextOptions) -> String {
        let pts = |v: &[Point]| points_text(v, opts.labels);
        let mut o = String::from("2016 concepts (000):\n");
        o.push_str("  eyes (M16-TRUE-EYE, M16-FALSE-EYE):\n");
        for e in &m.eyes {
            let kind = match e.kind {
                crate::judge::concepts2016::EyeKind::Private => "private",
                crate::judge::concepts2016::EyeKind::Common => "common",
            };
            let empty = if e.empty.len() > 8 {
                format!("{} empty points", e.empty.len())
            } else {
                pts(&e.empty)
            };
            o.push_str(&format!(
                "    {kind} {} eye of {} [{empty}] ({})\n",
                if e.true_eye { "true" } else { "false" },
                names_text(&e.owners, opts.labels),
                e.clause
            ));
        }
        o.push_str("  strings (upper layer): true eyes; long-living (M16-LIFE-3), seki (M16-LIFE-5), dead:\n");
        for s in &m.strings {
            let mut verdicts = Vec::new();
            for (on, word) in [
                (s.long_living, "long-living"),
                (s.seki, "seki"),
                (s.dead, "dead"),
            ] {
                if on {
                    verdicts.push(word);
                }
            }
            o.push_str(&format!(
                "    {} {} — {} true eye(s){}\n",
                s.colour.name(),
                s.name.format(opts.labels),
                s.true_eyes,
                if verdicts.is_empty() {
                    String::new()
                } else {
                    format!(", {}", verdicts.join(", "))
                }
            ));
        }
        m2016_chains_text(&mut o, m, opts.labels);
        self.m2016_conditions_text(&mut o, m, opts);
        o
    }

    /// The conditions a–d of the closed regions under the 2016 eye rule: those meeting b, every
    /// one with `verbose` (else a count of those left out).
    fn m2016_conditions_text(&self, o: &mut String, m: &M2016Report, opts: TextOptions) {
        let yn = |b: bool| if b { "yes" } else { "no" };
        o.push_str("  closed regions, conditions a (inner liberty), b, capture, c, d (M16-EYE-A … M16-EYE-D):\n");
        let mut hidden = 0;
        for k in &m.conditions {
            if !(opts.verbose || k.b) {
                hidden += 1;
                continue;
            }
            let (points, empty) = self.region_points(k.region);
            let empty = if empty.len() > 8 {
                format!("{} empty points", empty.len())
            } else {
                points_text(&empty, opts.labels)
            };
            o.push_str(&format!(
                "    {}, region of {} point(s) [{empty}]: a {}, b {}, capture {}, c {}, d {}\n",
                k.string.format(opts.labels),
                points.len(),
                yn(k.a),
                yn(k.b),
                k.capture.map_or("-", yn),
                yn(k.c),
                yn(k.d)
            ));
        }
        if hidden > 0 {
            o.push_str(&format!(
                "    ({hidden} region(s) holding another string of the same colour (b fails): shown with --verbose)\n"
            ));
        }
    }
}

/// Points in `labels`, separated by spaces.
fn points_text(v: &[Point], labels: Labels) -> String {
    v.iter()
        .map(|&p| p.format(labels))
        .collect::<Vec<_>>()
        .join(" ")
}

/// String names in `labels`, separated by spaces.
fn names_text(v: &[StringName], labels: Labels) -> String {
    v.iter()
        .map(|s| s.format(labels))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The chains of the 2016 concepts with their long-living sub-chains, the groups, and the
/// strings in seki and dead.
fn m2016_chains_text(o: &mut String, m: &M2016Report, labels: Labels) {
    let nms = |v: &[StringName]| names_text(v, labels);
    o.push_str("  chains (M16-CHAIN; sub-chain M16-SUBCHAIN, M16-LIFE-4-SPLIT):\n");
    for c in &m.chains {
        let eyes: Vec<String> = c
            .common_eyes
            .iter()
            .filter_map(|&k| m.eyes.get(k))
            .map(|e| format!("[{}]", points_text(&e.empty, labels)))
            .collect();
        let status = if c.split_off.is_empty() {
            "every string has two true eyes: long-living".to_string()
        } else if c.sub_chain.is_empty() {
            "no sub-chain with two true eyes: dying (将死), every string to be captured".into()
        } else {
            format!(
                "long-living sub-chain {}; split off {}",
                nms(&c.sub_chain),
                nms(&c.split_off)
            )
        };
        o.push_str(&format!(
            "    {} through {} — {status}\n",
            nms(&c.strings),
            eyes.join(" ")
        ));
    }
    let groups: Vec<String> = m.groups.iter().map(|g| format!("{{{}}}", nms(g))).collect();
    o.push_str(&format!("  groups (M16-GROUP): {}\n", groups.join(" ")));
    o.push_str(&format!("  seki (M16-LIFE-5): {}\n", nms(&m.seki)));
    // the chains are disjoint: each string split off once; a long-living one is not dying
    let alive = |n: &StringName| m.strings.iter().any(|s| s.name == *n && s.long_living);
    let dying: Vec<StringName> = m
        .chains
        .iter()
        .flat_map(|c| c.split_off.iter().cloned())
        .filter(|n| !alive(n))
        .collect();
    o.push_str(&format!(
        "  dying by their chain (M16-LIFE-4-SPLIT): {}\n",
        nms(&dying)
    ));
    o.push_str(&format!(
        "  dead by the local reading (死棋状态, M16-EX-UL-3): {}\n",
        nms(&m.dead)
    ));
}

/// How the text report is written: the label system of its points, and whether every closed
/// region is listed or only the private eyes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextOptions {
    pub labels: Labels,
    /// List the closed regions that are not private eyes too.
    pub verbose: bool,
}

/// A board diagram (rows of one-character tokens separated by spaces, top row first) framed by
/// its coordinate labels on all four edges, in `labels`: every line is 2·size + 5 columns wide
/// on a terminal (a CJK label counts two columns, an ASCII one is followed by a space).
fn labelled_board(rows: &[String], labels: Labels) -> Vec<String> {
    let (_, row_labels) = labels.edges(rows.len());
    let header = format!("   {}  ", labels.header(rows.len()));
    let mut out = vec![header.clone()];
    for (row, y) in rows.iter().zip(row_labels) {
        let y = Labels::cell(y);
        out.push(format!("{y} {row} {y}"));
    }
    out.push(header);
    out
}

fn abbreviate(v: &[String]) -> String {
    if v.len() <= 12 {
        v.join(" ")
    } else {
        format!("{} … {}", v[..10].join(" "), v[v.len() - 1])
    }
}

/// A verdict in words, naming the point `eye_at` where the verdict names one.
pub(crate) fn verdict_text(code: VerdictCode, eye_at: Option<Point>) -> Text {
    let at = || eye_at.map_or_else(|| Text::from("?"), |p| text!(p));
    match code {
        VerdictCode::PrivateEye => "private eye".into(),
        VerdictCode::SameColourInside => {
            "not a private eye: another string of the same colour is inside".into()
        }
        VerdictCode::NoAdjacentEmptyString => {
            "not a private eye: no empty string inside touches this string without touching another string of its colour".into()
        }
        VerdictCode::OpponentCanMakeEye => text!(
            "not a private eye: the opponent can make a one-liberty eye inside (at ",
            at(),
            ")"
        ),
        VerdictCode::NoInnerLiberty => "not a private eye (2016): no empty point inside touches the string".into(),
        VerdictCode::OpponentUncapturable => text!(
            "not a private eye (2016): the opponent string at ",
            at(),
            " cannot be captured by filling inside"
        ),
        VerdictCode::NestedPrivateEye => text!(
            "not a private eye (2016): the opponent string at ",
            at(),
            " has a private eye inside"
        ),
        VerdictCode::MutualPrivateEye => text!(
            "not a private eye (2016): the opponent string inside claims a region around this string (at ",
            at(),
            ") as this string claims one around it; neither keeps it"
        ),
        VerdictCode::OpponentLongLiving => text!(
            "not a private eye (2016): the opponent string at ",
            at(),
            " is long-living"
        ),
    }
}
