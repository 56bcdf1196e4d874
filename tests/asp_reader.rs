//! The fact reader and instance checks on hostile input: every truncation
//! and many mutations of real instances give a result or an error with a
//! place, never a panic; `--family` overrides the detection.

use corvus::puzzles::asp::{AspErrorKind, Family, Instance, parse_facts};
use corvus::rng::Rng;

const SEED: &str = include_str!("../problems/hanoi-seed.asp");

const SOKOBAN: &str = "player(p). stone(s). goal(s). isgoal(d). isnongoal(a). isnongoal(b). isnongoal(c).\n\
    at(p,a). at(s,b). clear(c). clear(d). step(1..5).\n\
    movedir(a,b,dir_right). movedir(b,c,dir_right). movedir(c,d,dir_right).\n\
    movedir(b,a,dir_left). movedir(c,b,dir_left). movedir(d,c,dir_left).\n";

#[test]
fn truncations_and_mutations_never_panic() {
    let replacements = [
        "",
        ".",
        ",",
        "(",
        ")",
        "%",
        "\"",
        "..",
        "-",
        "X",
        "0",
        "999999999999999999999",
        "\n",
        "a(1).",
    ];
    for text in [SEED, SOKOBAN] {
        for cut in 0..text.len() {
            if text.is_char_boundary(cut) {
                let _ = Instance::parse(&text[..cut], "cut.asp", None);
            }
        }
        // Deterministic pseudo-random edits.
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..3000 {
            let seed = rng.next_u64();
            let pos = (seed % text.len() as u64) as usize;
            let r = replacements[(seed >> 32) as usize % replacements.len()];
            let mut t = text.to_string();
            let end = (pos + 1 + (seed >> 40) as usize % 3).min(t.len());
            if t.is_char_boundary(pos) && t.is_char_boundary(end) {
                t.replace_range(pos..end, r);
                match Instance::parse(&t, "m.asp", None) {
                    Ok(_) => {}
                    Err(e) => assert!(e.to_string().starts_with("m.asp:"), "{e}"),
                }
            }
        }
    }
}

#[test]
fn syntax_errors_point_at_the_place() {
    let e = parse_facts("steps(3).\n  time(0..3) disk(1).", "x.lp").unwrap_err();
    assert_eq!(e.kind, AspErrorKind::Syntax);
    assert_eq!(e.to_string(), "x.lp:2:14: expected `.`, found `disk`");
    let e = parse_facts("p(\"open", "x.lp").unwrap_err();
    assert!(e.to_string().starts_with("x.lp:1:3:"), "{e}");
    let e = parse_facts("P(1).", "x.lp").unwrap_err();
    assert!(e.to_string().starts_with("x.lp:1:1: expected a fact"), "{e}");
}

#[test]
fn family_detection_and_override() {
    assert_eq!(Instance::parse(SEED, "s.asp", None).unwrap().family(), Family::Hanoi);
    let s = Instance::parse(SOKOBAN, "k.asp", None).unwrap();
    assert_eq!(s.family(), Family::Sokoban);
    assert_eq!(s.step_bound(), 5);
    let e = Instance::parse(SOKOBAN, "k.asp", Some(Family::Hanoi)).unwrap_err();
    assert_eq!(e.kind, AspErrorKind::Instance);
    assert!(e.to_string().contains("steps(K) is missing"), "{e}");
    let e = Instance::parse(SEED, "s.asp", Some(Family::Sokoban)).unwrap_err();
    assert!(e.to_string().contains("no player"), "{e}");
    // Unknown predicates are reported, not fatal.
    let i = Instance::parse(&format!("{SEED}\nextra(1)."), "s.asp", None).unwrap();
    assert_eq!(i.warnings.len(), 1, "{:?}", i.warnings);
}

#[test]
fn translation_keeps_names_and_maps_numbers() {
    let h = Instance::parse(SEED, "s.asp", None).unwrap();
    let p = h.problem_pddl();
    assert!(p.contains("d1 d2 d3 d4 - peg"), "{p}");
    assert!(p.contains("d5 d6 d7 d8 d9 - disc"), "{p}");
    assert!(
        p.contains("(on d9 d8)") && p.contains("(clear d9)") && p.contains("(smaller d9 d5)"),
        "{p}"
    );
    assert!(!p.contains("(smaller d5 d9)"), "{p}");
    let s = Instance::parse(
        &SOKOBAN
            .replace("stone(s)", "stone(s). stone(\"Big\")")
            .replace("at(s,b).", "at(s,b). at(\"Big\",c).")
            .replace("clear(c).", ""),
        "k.asp",
        None,
    )
    .unwrap();
    let p = s.problem_pddl();
    assert!(p.contains("(adjacent a b dir_right)") && p.contains("(at s b)"), "{p}");
    assert!(
        p.contains("(at s--22-_b_i_g-22- c)") || p.contains("s--22--42-ig-22-"),
        "{p}"
    );
    // Witness facts of a plan and back.
    let plan = corvus::plan::parse_plan(
        "(push-to-nongoal p s a b c dir_right)\n(push-to-goal p s b c d dir_right)\n",
        "plan",
    )
    .unwrap();
    let w = Instance::parse(SOKOBAN, "k.asp", None).unwrap().witness(&plan).unwrap();
    assert_eq!(
        w,
        vec![
            "pushtonongoal(p,s,a,b,c,dir_right,1).",
            "pushtogoal(p,s,b,c,d,dir_right,2)."
        ]
    );
}
