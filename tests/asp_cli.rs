//! The `corvus asp` subcommands through the binary: exit codes, witnesses,
//! error places, translate / witness / generate.

#[path = "asp_common.rs"]
mod common;

use common::*;

#[test]
fn seed_example_gives_the_published_witness_on_every_run() {
    let o = corvus(&["asp", "solve", "problems/hanoi-seed.asp", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A* returns the competition page's own witness (problems/hanoi-seed.witness
    // holds the other valid one, which the `show` tests draw).
    assert_eq!(stdout(&o), "put(0,4,9).\nput(1,2,8).\nput(2,8,9).\n");
    let again = corvus(&["asp", "solve", "problems/hanoi-seed.asp", "--quiet"]);
    assert_eq!(stdout(&again), stdout(&o));
    if !clingo_available() {
        return;
    }
    let Some(enc) = encoding("hanoi") else { return };
    let witness = scratch("seed-solve").join("witness.lp");
    std::fs::write(&witness, stdout(&o)).unwrap();
    let instance = crate_dir().join("problems/hanoi-seed.asp");
    assert_eq!(clingo(&enc, &instance, Some(&witness)), Verdict::Sat);
}

/// With two moves of slack (`steps(5)` where 3 suffice) the peg model's
/// optimal plan is too short: the exact-length model finds 5 moves with no
/// disc moved twice in a row.
#[test]
fn hanoi_with_slack_gets_a_witness_of_exactly_k_moves() {
    let seed = std::fs::read_to_string(crate_dir().join("problems/hanoi-seed.asp")).unwrap();
    let slack = seed
        .replace("steps(3).", "steps(5).")
        .replace("time(3).", "time(3). time(4). time(5).");
    let dir = scratch("hanoi-slack");
    let instance = dir.join("slack.asp");
    std::fs::write(&instance, slack).unwrap();
    let o = corvus(&["asp", "solve", instance.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("search: pegs: ") && stderr(&o).contains(", exact-length: "),
        "{}",
        stderr(&o)
    );
    let witness = stdout(&o);
    assert_eq!(witness.lines().count(), 5, "{witness}");
    if !clingo_available() {
        return;
    }
    let Some(enc) = encoding("hanoi") else { return };
    let file = dir.join("witness.lp");
    std::fs::write(&file, &witness).unwrap();
    assert_eq!(clingo(&enc, &instance, Some(&file)), Verdict::Sat);
}

#[test]
fn seed_witness_is_valid_for_clingo_and_the_published_one_too() {
    if !clingo_available() {
        return;
    }
    let Some(enc) = encoding("hanoi") else { return };
    let dir = scratch("seed-clingo");
    let instance = crate_dir().join("problems/hanoi-seed.asp");
    let ours = crate_dir().join("problems/hanoi-seed.witness");
    assert_eq!(clingo(&enc, &instance, Some(&ours)), Verdict::Sat);
    // The competition page's own witness, and a corrupted copy of it.
    let published = dir.join("published.lp");
    std::fs::write(&published, "put(0,4,9). put(1,2,8). put(2,8,9).").unwrap();
    assert_eq!(clingo(&enc, &instance, Some(&published)), Verdict::Sat);
    let swapped = dir.join("swapped.lp");
    std::fs::write(&swapped, "put(0,2,8). put(1,4,9). put(2,8,9).").unwrap();
    assert_eq!(clingo(&enc, &instance, Some(&swapped)), Verdict::Unsat);
}

#[test]
fn plan_file_to_witness_and_translate() {
    let dir = scratch("translate");
    let problem = dir.join("p.pddl");
    let domain = dir.join("d.pddl");
    let o = corvus(&[
        "asp",
        "translate",
        "problems/hanoi-seed.asp",
        "-o",
        problem.to_str().unwrap(),
        "--domain-out",
        domain.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The translation is an ordinary PDDL task: solve it with `corvus solve`.
    let plan_file = dir.join("plan");
    let o = corvus(&[
        "solve",
        domain.to_str().unwrap(),
        problem.to_str().unwrap(),
        "--search",
        "astar",
        "--plan-file",
        plan_file.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan = std::fs::read_to_string(&plan_file).unwrap();
    assert_eq!(plan.lines().filter(|l| l.starts_with('(')).count(), 3);
    // A hand-written plan file (the published witness) back to facts.
    let hand = dir.join("hand.plan");
    std::fs::write(&hand, "(move d9 d8 d4)\n(move d8 d7 d2)\n(move d9 d4 d8)\n").unwrap();
    let o = corvus(&["asp", "witness", "problems/hanoi-seed.asp", hand.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "put(0,4,9).\nput(1,2,8).\nput(2,8,9).\n");
    // An invalid plan is rejected (disc 8 is not clear at first).
    std::fs::write(&hand, "(move d8 d7 d2)\n(move d9 d8 d4)\n(move d9 d4 d8)\n").unwrap();
    let o = corvus(&["asp", "witness", "problems/hanoi-seed.asp", hand.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// A corridor a-b-c-d: the player at a, a stone at b that must reach the
/// goal d, which takes two pushes.
fn corridor(steps: u32) -> String {
    format!(
        "player(p). stone(s). goal(s). isgoal(d). isnongoal(a). isnongoal(b). isnongoal(c).\n\
         at(p,a). at(s,b). clear(c). clear(d). step(1..{steps}).\n\
         movedir(a,b,dir_right). movedir(b,c,dir_right). movedir(c,d,dir_right).\n\
         movedir(b,a,dir_left). movedir(c,b,dir_left). movedir(d,c,dir_left).\n"
    )
}

#[test]
fn solve_exit_codes() {
    let dir = scratch("exit");
    let too_short = write(&dir, "short.asp", &corridor(1));
    let o = corvus(&["asp", "solve", &too_short]);
    assert_eq!(o.status.code(), Some(11), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("no witness"), "{}", stderr(&o));

    let enough = write(&dir, "enough.asp", &corridor(5));
    let o = corvus(&["asp", "solve", &enough, "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "pushtonongoal(p,s,a,b,c,dir_right,1).\npushtogoal(p,s,b,c,d,dir_right,2).\n"
    );

    // Hanoi with k above the optimum: 4 moves are impossible for the seed
    // (parity), 5 are possible; one disc cannot take 2 moves (same disc twice).
    let seed = std::fs::read_to_string(crate_dir().join("problems/hanoi-seed.asp")).unwrap();
    let with_k = |k: u32| {
        seed.replace(
            "steps(3). time(0). time(1). time(2). time(3).",
            &format!("steps({k}). time(0..{k})."),
        )
    };
    let four = write(&dir, "four.asp", &with_k(4));
    let o = corvus(&["asp", "solve", &four]);
    assert_eq!(o.status.code(), Some(11), "{}", stderr(&o));
    assert!(stderr(&o).contains("exactly 4 moves"), "{}", stderr(&o));
    let five = write(&dir, "five.asp", &with_k(5));
    let o = corvus(&["asp", "solve", &five, "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5);
    for (t, l) in lines.iter().enumerate() {
        assert!(l.starts_with(&format!("put({t},")), "{l}");
    }
    let one = write(
        &dir,
        "one.asp",
        "steps(2). time(0..2). disk(1..5). on0(5,1). ongoal(5,2).",
    );
    let o = corvus(&["asp", "solve", &one]);
    assert_eq!(o.status.code(), Some(11), "{}", stderr(&o));
    if clingo_available()
        && let Some(enc) = encoding("hanoi")
    {
        let w = write(&dir, "five.lp", &stdout(&corvus(&["asp", "solve", &five, "--quiet"])));
        assert_eq!(
            clingo(&enc, std::path::Path::new(&five), Some(std::path::Path::new(&w))),
            Verdict::Sat
        );
        assert_eq!(clingo(&enc, std::path::Path::new(&four), None), Verdict::Unsat);
        assert_eq!(clingo(&enc, std::path::Path::new(&one), None), Verdict::Unsat);
    }

    // A time limit that cannot be met: exit 23, never a "no".
    let big = String::from_utf8(
        corvus(&[
            "asp", "generate", "hanoi", "--discs", "16", "--start", "40", "--steps", "60",
        ])
        .stdout,
    )
    .unwrap();
    let big = write(&dir, "big.asp", &big);
    let o = corvus(&["asp", "solve", &big, "--time-limit", "0.3"]);
    assert_eq!(o.status.code(), Some(23), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}

#[test]
fn malformed_and_inconsistent_input() {
    let dir = scratch("errors");
    let cases: &[(&str, &str, &[&str])] = &[
        ("steps(3).\ntime(0..3)\ndisk(1).\n", "3:1", &["expected `.`"]),
        (
            "steps(3). time(0..3).\n  disk(1). disk(X).",
            "2:17",
            &["expected an integer"],
        ),
        (
            "% comment\nsteps(1). time(0..1). disk(1..6).\non0(5,1). on0(6,1).\nongoal(5,1). ongoal(6,5).",
            "3:11",
            &["on0(6,1)", "second disc on 1"],
        ),
        (
            "steps(1). time(0..1). disk(1..6).\non0(5,1). on0(6,5).\nongoal(6,1). ongoal(5,6).",
            "3:14",
            &["`ongoal(5,6)`", "smaller disc"],
        ),
        (
            "steps(1). time(0..1). disk(1..6).\non0(5,1). on0(6,6).",
            "2:11",
            &["on0(6,6)", "itself"],
        ),
        (
            "steps(1). time(0..1). disk(1..6).\non0(5,1). on0(6,5). ongoal(5,1). ongoal(6,9).",
            "2:34",
            &["not a disk"],
        ),
        (
            "time(0..1). disk(1..5). on0(5,1). ongoal(5,1).",
            "",
            &["steps(K) is missing"],
        ),
        (&corridor(3).replace("player(p).", ""), "", &["no player"]),
        (
            &corridor(3).replace("at(s,b).", "at(s,w). at(q,b). clear(b)."),
            "",
            &["at(s,w)", "not a cell"],
        ),
        (
            &corridor(3).replace("goal(s).", "goal(t)."),
            "1:22",
            &["`goal(t)`", "not a stone"],
        ),
        (&corridor(3).replace("step(1..3).", ""), "", &["steps are missing"]),
        ("hello(world).", "", &["neither"]),
    ];
    for (i, (text, place, needles)) in cases.iter().enumerate() {
        let f = write(&dir, &format!("case{i}.asp"), text);
        let o = corvus(&["asp", "solve", &f]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(31), "case {i}: {err}");
        assert!(stdout(&o).is_empty());
        assert!(
            err.contains(&format!("{f}:{place}")),
            "case {i}: expected place {place}: {err}"
        );
        for n in *needles {
            assert!(err.contains(n), "case {i}: expected `{n}` in: {err}");
        }
    }
}

#[test]
fn generated_instances_round_trip() {
    let dir = scratch("generate");
    let check_clingo = clingo_available();
    for (discs, pegs, start, steps) in [
        (8u32, 4u32, 10u64, 12u64),
        (10, 4, 0, 17),
        (12, 4, 30, 20),
        (5, 3, 3, 9),
        (7, 3, 40, 14),
    ] {
        let o = corvus(&[
            "asp",
            "generate",
            "hanoi",
            "--discs",
            &discs.to_string(),
            "--pegs",
            &pegs.to_string(),
            "--start",
            &start.to_string(),
            "--steps",
            &steps.to_string(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.starts_with(&format!("steps({steps}).\ntime(0).\n")));
        assert_eq!(text.contains("disk(4)."), pegs == 4);
        let f = write(&dir, &format!("g{discs}-{pegs}-{start}.asp"), &text);
        let o = corvus(&["asp", "solve", &f, "--quiet", "--time-limit", "60"]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", stderr(&o));
        let witness = stdout(&o);
        assert_eq!(witness.lines().count() as u64, steps, "{f}");
        if check_clingo && let Some(enc) = encoding("hanoi") {
            let w = write(&dir, &format!("g{discs}-{pegs}-{start}.lp"), &witness);
            assert_eq!(
                clingo(&enc, std::path::Path::new(&f), Some(std::path::Path::new(&w))),
                Verdict::Sat,
                "{f}"
            );
        }
    }
    let o = corvus(&[
        "asp", "generate", "hanoi", "--discs", "3", "--start", "4", "--steps", "3",
    ]);
    assert_eq!(o.status.code(), Some(31));
}
