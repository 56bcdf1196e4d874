use super::*;
use crate::pddl::{parse_domain, parse_problem};
use crate::plan::parse_plan;
use crate::puzzles::xsb::parse_level;

const SOKOBAN: &str = include_str!("../../../domains/sokoban.pddl");

/// Hanoi in the other common convention: untyped, `(smaller ?x ?y)` for
/// "?y is smaller than ?x".
const HANOI_LARGER_FIRST: &str = "(define (domain towers)
  (:requirements :strips)
  (:predicates (clear ?x) (on ?x ?y) (smaller ?x ?y))
  (:action move
    :parameters (?disc ?from ?to)
    :precondition (and (smaller ?to ?disc) (on ?disc ?from) (clear ?disc) (clear ?to))
    :effect (and (clear ?from) (on ?disc ?to) (not (on ?disc ?from)) (not (clear ?to)))))";

const THREE_DISCS: &str = "(define (problem three) (:domain towers)
  (:objects pa pb pc s1 s2 s3)
  (:init (smaller pa s1) (smaller pa s2) (smaller pa s3) (smaller pb s1) (smaller pb s2) (smaller pb s3)
         (smaller pc s1) (smaller pc s2) (smaller pc s3) (smaller s2 s1) (smaller s3 s1) (smaller s3 s2)
         (on s3 pa) (on s2 s3) (on s1 s2) (clear s1) (clear pb) (clear pc))
  (:goal (and (on s3 pc) (on s2 s3) (on s1 s2))))";

const CLASSIC: &str = "  ####\n###  #\n#  $ #\n# .@ #\n#    #\n######\n";

fn sokoban_task(problem: &str) -> (Domain, Problem) {
    let d = parse_domain(SOKOBAN, "sokoban.pddl").expect("domain");
    let p = parse_problem(problem, "p.pddl").expect("problem");
    crate::pddl::check(&d, &p, "p.pddl").expect("checks");
    (d, p)
}

#[test]
fn hanoi_in_either_smaller_convention() {
    let d = parse_domain(HANOI_LARGER_FIRST, "d").expect("domain");
    let p = parse_problem(THREE_DISCS, "p").expect("problem");
    let plan = parse_plan("(move s1 s2 pc)\n(move s2 s3 pb)\n", "plan").expect("plan");
    let shown = film(&d, &p, &plan).expect("drawable");
    assert_eq!(shown.frames.len(), 3);
    // s3 is the largest disc, s1 the smallest.
    let expected =
        "= s1    |       |\n== s2   |       |\n=== s3  |       |\n------  ------  ------\npa      pb      pc";
    assert_eq!(shown.frames[0].picture, expected);
    let after =
        "|       |       |\n|       |       |\n=== s3  == s2   = s1\n------  ------  ------\npa      pb      pc";
    assert_eq!(shown.frames[2].picture, after);
    assert_eq!(shown.frames[2].heading(), "step 2: (move s2 s3 pb)");
    assert!(
        matches!(shown.error, Some(InvalidPlan::Goal { .. })),
        "{:?}",
        shown.error
    );
}

#[test]
fn sokoban_drawn_from_names_matches_the_level() {
    let level = parse_level(CLASSIC, "c.xsb", 1).expect("level");
    let (d, p) = sokoban_task(&level.to_pddl("c"));
    let plan = parse_plan("", "empty").expect("plan");
    let shown = film(&d, &p, &plan).expect("drawable");
    assert_eq!(format!("{}\n", shown.frames[0].picture), CLASSIC);
}

/// Renames every location to a name without digits, so the layout has to
/// come from walking the adjacency facts.
fn without_coordinates(pddl: &str) -> String {
    let mut out = String::new();
    for token in pddl.split_inclusive(|c: char| c.is_whitespace() || c == '(' || c == ')') {
        let (word, rest) = token.split_at(token.trim_end_matches([' ', '\n', '(', ')']).len());
        if let Some(cell) = word.strip_prefix("pos_") {
            let letters: String = cell
                .chars()
                .map(|c| {
                    if c == '_' {
                        'x'
                    } else {
                        (b'a' + c.to_digit(10).unwrap_or(0) as u8) as char
                    }
                })
                .collect();
            out.push_str(&format!("cell{letters}"));
        } else {
            out.push_str(word);
        }
        out.push_str(rest);
    }
    out
}

#[test]
fn sokoban_layout_from_adjacency_alone() {
    let level = parse_level(CLASSIC, "c.xsb", 1).expect("level");
    let renamed = without_coordinates(&level.to_pddl("c"));
    assert!(!renamed.contains("pos_") && renamed.contains("cellexe"), "{renamed}");
    let (d, p) = sokoban_task(&renamed);
    let plan = parse_plan("(move player_01 cellexe cellexf dir_down)", "plan").expect("plan");
    let shown = film(&d, &p, &plan).expect("drawable");
    assert_eq!(format!("{}\n", shown.frames[0].picture), CLASSIC);
    assert_eq!(
        shown.frames[1].picture,
        "  ####\n###  #\n#  $ #\n# .  #\n#  @ #\n######"
    );

    // Directions without telling names: pairs of opposites become the axes,
    // so the board may come out turned, but with the same cells.
    let blind = renamed
        .replace("dir_left", "ka")
        .replace("dir_right", "kb")
        .replace("dir_up", "kc")
        .replace("dir_down", "kd");
    let (d, p) = sokoban_task(&blind);
    let picture = film(&d, &p, &parse_plan("", "e").expect("plan"))
        .expect("drawable")
        .frames[0]
        .picture
        .clone();
    for ch in ['$', '.', '@'] {
        assert_eq!(picture.matches(ch).count(), 1, "{picture}");
    }
    assert_eq!(picture.lines().count(), CLASSIC.lines().count(), "{picture}");
    assert_eq!(picture.matches('#').count(), CLASSIC.matches('#').count(), "{picture}");
}

#[test]
fn lurd_of_a_plan_and_invalid_steps() {
    let level = parse_level(CLASSIC, "c.xsb", 1).expect("level");
    let (d, p) = sokoban_task(&level.to_pddl("c"));
    let plan = parse_plan(
        "(move player_01 pos_4_4 pos_5_4 dir_right)
         (push-to-nongoal player_01 stone_01 pos_5_4 pos_5_3 pos_5_2 dir_up)",
        "plan",
    );
    // pos_4_4 is the player's cell in 1-based column/row names.
    let plan = plan.expect("plan");
    let shown = film(&d, &p, &plan).expect("drawable");
    assert_eq!(shown.frames.len(), 2, "the push has no stone to push");
    assert!(
        matches!(&shown.error, Some(InvalidPlan::Precondition { step: 2, .. })),
        "{:?}",
        shown.error
    );
    assert!(matches!(lurd(&d, &p, &plan), Err(ShowError::Invalid(_))));

    let solution = parse_plan(
        "(move player_01 pos_4_4 pos_5_4 dir_right)
         (move player_01 pos_5_4 pos_5_3 dir_up)
         (move player_01 pos_5_3 pos_5_2 dir_up)
         (move player_01 pos_5_2 pos_4_2 dir_left)
         (push-to-nongoal player_01 stone_01 pos_4_2 pos_4_3 pos_4_4 dir_down)
         (move player_01 pos_4_3 pos_5_3 dir_right)
         (move player_01 pos_5_3 pos_5_4 dir_down)
         (push-to-goal player_01 stone_01 pos_5_4 pos_4_4 pos_3_4 dir_left)",
        "plan",
    )
    .expect("plan");
    let text = lurd(&d, &p, &solution).expect("valid plan");
    assert_eq!(text, "ruulDrdL");
    assert!(level.replay_lurd(&text).expect("replays").solved());
}

#[test]
fn other_domains_are_refused_by_name() {
    let d = parse_domain(
        "(define (domain switch) (:predicates (lit ?x)) (:action on :parameters (?x) :effect (lit ?x)))",
        "d",
    )
    .expect("domain");
    let p = parse_problem(
        "(define (problem s) (:domain switch) (:objects a) (:init) (:goal (lit a)))",
        "p",
    )
    .expect("problem");
    let e = film(&d, &p, &Plan::default()).expect_err("not drawable");
    assert_eq!(e.exit_code(), exit::UNSUPPORTED);
    assert!(
        e.to_string().contains("`switch`") && e.to_string().contains("smaller/2"),
        "{e}"
    );
}

#[test]
fn animation_clears_the_screen_before_each_picture() {
    let frames: Vec<Frame> = (0..3)
        .map(|i| Frame {
            step: i,
            action: (i > 0).then(|| format!("(a{i})")),
            picture: format!("picture {i}"),
            scene: Scene::Board(vec![format!("picture {i}")]),
        })
        .collect();
    let mut out = Vec::new();
    animate(&frames, Duration::from_millis(0), &mut out).expect("writes");
    let text = String::from_utf8(out).expect("utf-8");
    assert_eq!(text.matches("\x1b[H\x1b[2J").count(), 3);
    assert!(text.ends_with("\x1b[H\x1b[2Jstep 2: (a2)\npicture 2\n\n"), "{text:?}");
}

#[test]
fn names_that_contradict_the_adjacency_are_not_trusted() {
    let level = parse_level(CLASSIC, "c.xsb", 1).expect("level");
    // Swap the names of two cells: their numbers now lie about the geometry.
    let swapped = level
        .to_pddl("c")
        .replace("pos_4_4", "tmp")
        .replace("pos_2_5", "pos_4_4")
        .replace("tmp", "pos_2_5");
    let (d, p) = sokoban_task(&swapped);
    let shown = film(&d, &p, &Plan::default()).expect("drawable");
    assert_eq!(format!("{}\n", shown.frames[0].picture), CLASSIC);
}

#[test]
fn a_separate_floor_area_is_drawn_beside_the_players() {
    let level = parse_level(CLASSIC, "c.xsb", 1).expect("level");
    let renamed = without_coordinates(&level.to_pddl("c"));
    let with_island = renamed
        .replace(" - location", " islanda islandb - location")
        .replace(
            "  (:init\n",
            "  (:init\n    (adjacent islanda islandb dir_right) (adjacent islandb islanda dir_left)\n    (nongoal-cell islanda) (nongoal-cell islandb) (clear islanda) (clear islandb)\n",
        );
    let (d, p) = sokoban_task(&with_island);
    let shown = film(&d, &p, &Plan::default()).expect("drawable");
    // Each area is laid out from its first cell; the island starts on the
    // player's row, one wall column to the right.
    let expected = "  ####\n###  #\n#  $ ####\n# .@ #  #\n#    ####\n######";
    assert_eq!(shown.frames[0].picture, expected);
}
