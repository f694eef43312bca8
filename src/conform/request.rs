//! The request a case becomes (spec/README.md "The protocol"): built from the case, the
//! checks it makes and the protocol's messages. Written here, above `case`, `check` and
//! `protocol`, so that none of them imports another in a circle.

use crate::conform::case::Case;
use crate::conform::check::checks_of;
use crate::conform::protocol::{ReplayRequest, PROTOCOL};
use m3go_engine::rules::RulesField;
use m3go_engine::Setup;
use serde_json::{json, Value};

impl Case {
    /// The protocol request for this case (`m3go-conform/2`, naming every check of the case).
    pub fn request(&self) -> Value {
        self.request_in(PROTOCOL, None)
    }

    /// The request in `protocol`: under `m3go-conform/2` with `checks`, the checks named (all
    /// the case's when `None`); under `m3go-conform/1` without them.
    pub fn request_in(&self, protocol: &str, checks: Option<&[&str]>) -> Value {
        let mut r = json!({
            "protocol": protocol,
            "id": self.id,
            "position": smallest_rules(&self.position),
            "moves": self.moves,
            "probes": self.probes(),
        });
        if protocol == PROTOCOL {
            r["checks"] = match checks {
                Some(c) => json!(c),
                None => json!(checks_of(self)),
            };
        }
        if let Some(start) = &self.start {
            r["replay"] = json!(ReplayRequest {
                mode: start.replay,
                moves: self.replay_moves.clone(),
            });
        }
        r
    }
}

/// The case's position with its rules in their smallest form (the preset and the options that
/// differ from it, [`m3go_engine::Rules::to_spec`]): an option a case file writes at its
/// preset's value is not sent, so a program that refuses keys it does not know is sent none it
/// need not know. A preset name, or rules that do not resolve (refused when the case is read),
/// are sent as written.
fn smallest_rules(position: &Setup) -> std::borrow::Cow<'_, Setup> {
    match &position.rules {
        RulesField::Spec(spec) => match spec.resolve() {
            Ok(rules) => std::borrow::Cow::Owned(Setup {
                rules: RulesField::Spec(rules.to_spec()),
                ..position.clone()
            }),
            Err(_) => std::borrow::Cow::Borrowed(position),
        },
        RulesField::Name(_) => std::borrow::Cow::Borrowed(position),
    }
}
