//! A mechanical replay saved with `--save` says what it is (issue 39, item 5): the Go record's
//! own result, rules and komi (RE, RU, KM) are not the three-colour game's, so they are not
//! written, and stderr says so as `convert` says what it drops; the saved file carries m3go's
//! rules and replays to the same game.

use crate::common::{output, text, ROOT};

const KE_JIE: &str = "spec/records/kejie-alphago-2017-g1.sgf";

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("m3go-replay-save-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
    d.join(name)
}

#[test]
fn a_saved_mechanical_replay_drops_the_go_result_rules_and_komi_and_says_so() {
    let source =
        std::fs::read_to_string(format!("{ROOT}/{KE_JIE}")).unwrap_or_else(|e| panic!("{e}"));
    // the source is a Go record with a Go result, rules and komi
    for p in ["RU[Chinese]", "RE[W+0.5]", "KM[7.5]"] {
        assert!(source.contains(p), "{p} not in {KE_JIE}");
    }
    for name in ["kejie.sgf", "kejie.txt"] {
        let out = tmp(name);
        let _ = std::fs::remove_file(&out);
        let o = out.to_string_lossy().into_owned();
        let (code, stdout, err) = text(output(
            &["replay", "--mechanical", "--quiet", "--save", &o, KE_JIE],
            None,
            None,
        ));
        assert_eq!(code, Some(0), "{stdout}{err}");
        assert!(
            err.contains(&format!("replay --save: dropped from {KE_JIE} (not written to {o}): the Go record's own result, rules and komi, which do not hold for the three-colour game replayed: KM[7.5], RE[W+0.5], RU[Chinese] (the rules written are m3go's)")),
            "{err}"
        );
        let saved = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{e}"));
        for gone in ["Chinese", "W+0.5", "7.5"] {
            assert!(!saved.contains(gone), "{name} keeps `{gone}`:\n{saved}");
        }
        if name.ends_with(".sgf") {
            // m3go's rules, by preset and in full; its komi; no Go result
            assert!(saved.contains("RU[m3go-2020]"), "{saved}");
            assert!(saved.contains("KM[0]"), "{saved}");
            assert!(saved.contains("TCR[{\"preset\":\"m3go-2020\""), "{saved}");
            assert!(!saved.contains("RE["), "{saved}");
        } else {
            assert!(saved.contains("\nrules: m3go-2020\n"), "{saved}");
            for key in ["result:", "original-rules:", "komi:"] {
                assert!(!saved.contains(key), "{saved}");
            }
        }
        // the rest of the game information stays
        assert!(
            saved.contains("Ke Jie") && saved.contains("2017-05-23"),
            "{saved}"
        );
        // the saved record replays strictly, under its own rules, to the same summary
        let (code, again, err) = text(output(&["replay", "--quiet", &o], None, None));
        assert_eq!(code, Some(0), "{again}{err}");
        assert!(!err.contains("dropped"), "{err}");
        let _ = std::fs::remove_file(&out);
    }
}

#[test]
fn a_strict_replay_keeps_the_record_information() {
    // a strict replay plays the record's own game: its information is the game's, and stays
    let out = tmp("strict.txt");
    let _ = std::fs::remove_file(&out);
    let o = out.to_string_lossy().into_owned();
    let (code, stdout, err) = text(output(
        &["replay", "--quiet", "--save", &o, KE_JIE],
        None,
        None,
    ));
    assert_eq!(code, Some(0), "{stdout}{err}");
    assert!(!err.contains("the Go record's own"), "{err}");
    let saved = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{e}"));
    assert!(saved.contains("result: W+0.5"), "{saved}");
    let _ = std::fs::remove_file(&out);
}
