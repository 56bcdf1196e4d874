//! `corvus show` and `corvus sokoban` through the binary: pictures against
//! expected text, `--step`, XSB import -> solve -> LURD -> replay, and the
//! errors with their places and exit codes.

#[path = "asp_common.rs"]
mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::*;

const LEVELS: &str = "tests/data/sokoban-levels.xsb";
const TINY_ASP: &str = "tests/data/sokoban-tiny.asp";
const TINY_WITNESS: &str = "tests/data/sokoban-tiny.witness";
const HANOI_SEED: &str = "problems/hanoi-seed.asp";
const HANOI_WITNESS: &str = "problems/hanoi-seed.witness";
const SOKOBAN_DOMAIN: &str = "domains/sokoban.pddl";

fn code(o: &std::process::Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(crate_dir().join("tests/data").join(name)).expect("expected output file")
}

/// The picture of a `--step` output: without its heading and blank line.
fn picture(show_output: &str) -> String {
    let mut lines: Vec<&str> = show_output.lines().skip(1).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n") + "\n"
}

#[test]
fn hanoi_seed_pictures_match_the_expected_text() {
    let out = corvus(&["show", HANOI_SEED, HANOI_WITNESS]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), expected("show-hanoi-seed.txt"));
    // --step 2 is the third picture of the full sequence.
    let out = corvus(&["show", HANOI_SEED, HANOI_WITNESS, "--step", "2"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let full = expected("show-hanoi-seed.txt");
    let third = full.split("\n\n").nth(2).expect("three pictures");
    assert_eq!(stdout(&out), format!("{third}\n\n"));
    assert!(third.starts_with("step 2: (move d8 d7 d2)"), "{third}");
    // Not a terminal: --animate falls back to the plain sequence.
    let out = corvus(&["show", HANOI_SEED, HANOI_WITNESS, "--animate", "--delay", "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), full);
    let out = corvus(&["show", HANOI_SEED, HANOI_WITNESS, "--step", "4"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("has 3 steps"), "{}", stderr(&out));
}

#[test]
fn sokoban_pictures_match_the_expected_text() {
    let out = corvus(&["show", TINY_ASP, TINY_WITNESS]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), expected("show-sokoban-tiny.txt"));
    // The initial picture is the XSB level itself.
    let out = corvus(&["show", TINY_ASP, TINY_WITNESS, "--step", "0"]);
    let level = std::fs::read_to_string(crate_dir().join(LEVELS)).expect("levels");
    let first: String = level.lines().skip(4).take(6).map(|l| format!("{l}\n")).collect();
    assert_eq!(picture(&stdout(&out)), first);
    let out = corvus(&["show", TINY_ASP, TINY_WITNESS, "--step", "8"]);
    assert_eq!(
        stdout(&out),
        "step 8: (push-to-goal player_01 stone_01 pos_5_4 pos_4_4 pos_3_4 dir_left)\n\
         \x20 ####\n###  #\n#    #\n# *@ #\n#    #\n######\n\n"
    );
}

#[test]
fn an_invalid_step_is_drawn_up_to_and_reported() {
    let dir = scratch("show-invalid");
    // Step 5 pushes the stone into the wall above it.
    let witness = std::fs::read_to_string(crate_dir().join(TINY_WITNESS)).expect("witness");
    let bad: String = witness
        .lines()
        .map(|l| {
            if l.starts_with("pushtonongoal") {
                "pushtonongoal(player_01,stone_01,pos_4_4,pos_4_3,pos_4_2,dir_up,5).".to_string()
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect();
    let path = dir.join("bad.witness");
    std::fs::write(&path, bad).expect("write");
    let out = corvus(&["show", TINY_ASP, &path.display().to_string()]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stdout(&out).contains("step 4: ") && !stdout(&out).contains("step 5: "));
    assert!(
        stderr(&out).contains("plan invalid: step 5 pushtonongoal") || stderr(&out).contains("step 5 push-to-nongoal"),
        "{}",
        stderr(&out)
    );
    let out = corvus(&["show", TINY_ASP, &path.display().to_string(), "--step", "7"]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).starts_with("step 4: "), "{}", stdout(&out));
}

#[test]
fn other_domains_are_refused() {
    let out = corvus(&[
        "show",
        "tests/data/switch-domain.pddl",
        "tests/data/switch-one.pddl",
        "tests/data/switch-bad-plan.txt",
    ]);
    assert_eq!(code(&out), 34, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("Tower of Hanoi") && stderr(&out).contains("Sokoban"),
        "{}",
        stderr(&out)
    );
}

/// Objects and initial facts of a problem file, as sets of strings.
fn problem_facts(path: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let text = std::fs::read_to_string(path).expect("problem");
    let p = corvus::pddl::parse_problem(&text, &path.display().to_string()).expect("parses");
    let objects = p
        .objects
        .iter()
        .map(|o| format!("{} - {}", o.name, o.types.join(" ")))
        .collect();
    let init = p.init.iter().map(|a| a.to_string()).collect();
    (objects, init)
}

#[test]
fn xsb_levels_solve_and_their_lurd_replays() {
    let dir = scratch("show-xsb");
    for level in ["1", "2", "3"] {
        let problem = dir.join(format!("l{level}.pddl"));
        let plan = dir.join(format!("l{level}.plan"));
        let (p, pl) = (problem.display().to_string(), plan.display().to_string());
        let out = corvus(&["sokoban", "import", LEVELS, "--level", level, "-o", &p]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let out = corvus(&["solve", SOKOBAN_DOMAIN, &p, "--plan-file", &pl, "-q"]);
        assert_eq!(code(&out), 0, "level {level}: {}", stderr(&out));
        let out = corvus(&["validate", SOKOBAN_DOMAIN, &p, &pl]);
        assert_eq!(code(&out), 0, "{}", stdout(&out));
        let out = corvus(&["sokoban", "lurd", SOKOBAN_DOMAIN, &p, &pl]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let lurd = stdout(&out).trim().to_string();
        let steps = std::fs::read_to_string(&plan)
            .expect("plan")
            .lines()
            .filter(|l| l.starts_with('('))
            .count();
        assert_eq!(lurd.len(), steps, "{lurd}");
        assert!(lurd.chars().all(|c| "lurdLURD".contains(c)), "{lurd}");
        let out = corvus(&["sokoban", "replay", LEVELS, &lurd, "--level", level]);
        assert_eq!(code(&out), 0, "level {level}, {lurd}: {}", stderr(&out));
        assert!(!stdout(&out).contains('$'), "{}", stdout(&out));
        // The last picture of `show` is the replayed end state.
        let out_show = corvus(&["show", SOKOBAN_DOMAIN, &p, &pl, "--step", &steps.to_string()]);
        assert_eq!(code(&out_show), 0, "{}", stderr(&out_show));
        assert_eq!(picture(&stdout(&out_show)), stdout(&out));
        // A LURD string that stops early leaves the level unsolved.
        let out = corvus(&["sokoban", "replay", LEVELS, &lurd[..lurd.len() - 1], "--level", level]);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
    }
    // Known solution of level 1; a walk into the stone is no push.
    let out = corvus(&["sokoban", "replay", LEVELS, "ruulDrdL"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = corvus(&["sokoban", "replay", LEVELS, "ruuldrdl"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("move 5 (`d`)"), "{}", stderr(&out));
}

#[test]
fn xsb_import_as_asp_agrees_with_the_pddl_import() {
    let dir = scratch("show-xsb-asp");
    for level in ["1", "2", "3"] {
        let pddl = dir.join(format!("l{level}.pddl"));
        let asp = dir.join(format!("l{level}.asp"));
        let translated = dir.join(format!("l{level}-t.pddl"));
        let out = corvus(&[
            "sokoban",
            "import",
            LEVELS,
            "--level",
            level,
            "-o",
            &pddl.display().to_string(),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let out = corvus(&["sokoban", "import", LEVELS, "--level", level, "--asp", "--steps", "30"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let facts = stdout(&out);
        assert!(facts.contains("step(30).") && !facts.contains("step(31)."));
        std::fs::write(&asp, &facts).expect("write");
        let out = corvus(&[
            "asp",
            "translate",
            &asp.display().to_string(),
            "-o",
            &translated.display().to_string(),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert_eq!(problem_facts(&pddl), problem_facts(&translated), "level {level}");
    }
    // Without --steps the documented default bound.
    let out = corvus(&["sokoban", "import", LEVELS, "--asp"]);
    assert!(stdout(&out).contains("step(200).") && !stdout(&out).contains("step(201)."));
}

#[test]
fn imported_asp_instances_are_the_competitions() {
    let Some(encoding) = encoding("sokoban") else {
        return;
    };
    if !clingo_available() {
        return;
    }
    let dir = scratch("show-clingo");
    // Level 1 needs 8 actions: corvus and clingo agree at bounds 8 and 7.
    for (steps, solvable) in [("8", true), ("7", false)] {
        let instance = dir.join(format!("l1-{steps}.asp"));
        let i = instance.display().to_string();
        let out = corvus(&["sokoban", "import", LEVELS, "--asp", "--steps", steps, "-o", &i]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let out = corvus(&["asp", "solve", &i, "-q"]);
        if solvable {
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            let witness = dir.join("l1.witness");
            std::fs::write(&witness, stdout(&out)).expect("write");
            assert_eq!(clingo(&encoding, &instance, Some(&witness)), Verdict::Sat);
        } else {
            assert_eq!(code(&out), 11, "{}", stderr(&out));
            assert_eq!(clingo(&encoding, &instance, None), Verdict::Unsat);
        }
    }
}

#[test]
fn malformed_levels_name_line_and_column() {
    let dir = scratch("show-bad-xsb");
    let cases = [
        (
            "unknown.xsb",
            "Title: x\n#####\n#@$.#\n# x #\n#####\n",
            ":4:3:",
            "unknown character `x`",
        ),
        ("noplayer.xsb", "; c\n\n#####\n# $.#\n#####\n", ":3:1:", "no player"),
        (
            "count.xsb",
            "#####\n#@$ #\n#$. #\n#####\n",
            ":1:1:",
            "2 stones but 1 goal",
        ),
        ("open.xsb", "#####\n#@$. \n#####\n", ":2:5:", "not closed"),
        ("empty.xsb", "just text\n", ":1:1:", "no level"),
    ];
    for (name, text, place, message) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        let p = path.display().to_string();
        let out = corvus(&["sokoban", "import", &p]);
        assert_eq!(code(&out), 31, "{name}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!("{p}{place}")) && err.contains(message),
            "{name}: {err}"
        );
    }
    let out = corvus(&["sokoban", "import", LEVELS, "--level", "4"]);
    assert_eq!(code(&out), 31);
    assert!(
        stderr(&out).contains("no level 4: the file has 3 levels"),
        "{}",
        stderr(&out)
    );
}

/// A solvable shared competition instance: solved by `asp solve`, drawn
/// with `show --step`, its LURD replayed on the drawn initial board.
#[test]
fn shared_sokoban_instance_is_drawn_and_its_lurd_replays() {
    let Some(shared) = shared_asp() else {
        return;
    };
    let instance = shared.join("sokoban/0516-sokoban-200-1.asp");
    if !instance.is_file() {
        eprintln!("NOTE: {} missing; skipped", instance.display());
        return;
    }
    let dir = scratch("show-shared");
    let i = instance.display().to_string();
    let out = corvus(&["asp", "solve", &i, "-q", "--time-limit", "60"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let witness = dir.join("0516.witness");
    std::fs::write(&witness, stdout(&out)).expect("write");
    let w = witness.display().to_string();
    let steps = stdout(&out).lines().count().to_string();
    let start = corvus(&["show", &i, &w, "--step", "0"]);
    let end = corvus(&["show", &i, &w, "--step", &steps]);
    assert_eq!(code(&end), 0, "{}", stderr(&end));
    let (start, end) = (picture(&stdout(&start)), picture(&stdout(&end)));
    assert_eq!(start.matches('$').count(), 4, "{start}");
    assert_eq!(end.matches('*').count(), 4, "{end}");
    let board = dir.join("0516.xsb");
    std::fs::write(&board, &start).expect("write");
    let lurd = corvus(&["sokoban", "lurd", &i, &w]);
    assert_eq!(code(&lurd), 0, "{}", stderr(&lurd));
    let b = board.display().to_string();
    let replayed = corvus(&["sokoban", "replay", &b, stdout(&lurd).trim()]);
    assert_eq!(code(&replayed), 0, "{}", stderr(&replayed));
    assert_eq!(stdout(&replayed), end);
}

/// An IPC Sokoban problem (not written by corvus): the plan corvus finds,
/// written as LURD from the PDDL geometry, solves the XSB level that the
/// problem file carries in its leading comment.
#[test]
fn ipc_sokoban_lurd_solves_the_level_in_its_comment() {
    let dir = scratch("show-ipc");
    let domain = "problems/ipc/sokoban-sat08-strips/domain.pddl";
    let problem = "problems/ipc/sokoban-sat08-strips/p01.pddl";
    let plan = dir.join("p01.plan");
    let pl = plan.display().to_string();
    let out = corvus(&["solve", domain, problem, "--plan-file", &pl, "-q"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = std::fs::read_to_string(crate_dir().join(problem)).expect("problem");
    let level: String = text
        .lines()
        .filter_map(|l| l.strip_prefix(";; "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(level.contains('@'), "{level}");
    let xsb = dir.join("p01.xsb");
    std::fs::write(&xsb, &level).expect("write");
    let lurd = corvus(&["sokoban", "lurd", domain, problem, &pl]);
    assert_eq!(code(&lurd), 0, "{}", stderr(&lurd));
    let replayed = corvus(&["sokoban", "replay", &xsb.display().to_string(), stdout(&lurd).trim()]);
    assert_eq!(code(&replayed), 0, "{}: {}", stdout(&lurd), stderr(&replayed));
    // The drawn start and end states hold the same stones and goals.
    let steps = stdout(&lurd).trim().len().to_string();
    let end = corvus(&["show", domain, problem, &pl, "--step", &steps]);
    assert_eq!(code(&end), 0, "{}", stderr(&end));
    let drawn = picture(&stdout(&end));
    assert_eq!(drawn.matches('*').count(), level.matches('$').count(), "{drawn}");
    assert_eq!(drawn.matches('$').count(), 0, "{drawn}");
}

/// The data a `show --html` page carries: the JSON in its `film` script.
fn page_data(page: &str) -> serde_json::Value {
    let start = page
        .find(r#"<script type="application/json" id="film">"#)
        .expect("a film script")
        + r#"<script type="application/json" id="film">"#.len();
    let end = start + page[start..].find("</script>").expect("closed");
    serde_json::from_str(&page[start..end]).expect("the film is JSON")
}

/// What a page could fetch: every way HTML, CSS or a script names a resource.
fn fetches(page: &str) -> Vec<&str> {
    let svg_namespace = "http://www.w3.org/2000/svg";
    [
        "src=",
        "href=",
        "url(",
        "@import",
        "<link",
        "fetch(",
        "XMLHttpRequest",
        "http://",
        "https://",
        "//cdn",
    ]
    .into_iter()
    .filter(|needle| page.replace(svg_namespace, "").contains(needle))
    .collect()
}

#[test]
fn html_page_is_self_contained_and_holds_every_state() {
    let dir = scratch("show-html");
    let page_path = dir.join("plan.html");
    let page_arg = page_path.display().to_string();
    let out = corvus(&["show", HANOI_SEED, HANOI_WITNESS, "--html", &page_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "the page goes to its file: {}", stdout(&out));
    assert!(
        stderr(&out).contains("4 states of a 3-step plan written to"),
        "{}",
        stderr(&out)
    );
    let page = std::fs::read_to_string(&page_path).expect("page written");
    assert!(
        page.starts_with("<!-- written by corvus show problems/hanoi-seed.asp"),
        "{}",
        &page[..100]
    );
    assert!(page.contains("<!DOCTYPE html>") && page.contains("<title>hanoi-seed.asp with hanoi-seed.witness</title>"));
    assert_eq!(fetches(&page), Vec::<&str>::new(), "the page must need no network");
    let data = page_data(&page);
    assert_eq!(data["plan_length"], 3);
    assert!(data["error"].is_null(), "{}", data["error"]);
    let frames = data["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[2]["action"], "(move d8 d7 d2)");
    // Every state has every disc on some peg, and one step moves one disc.
    let stacks = |i: usize| -> Vec<Vec<String>> {
        serde_json::from_value(frames[i]["scene"]["towers"].clone()).expect("stacks of disc names")
    };
    let discs = data["setting"]["towers"]["sizes"].as_object().expect("sizes").len();
    assert!(discs > 0);
    for i in 0..frames.len() {
        assert_eq!(stacks(i).iter().map(Vec::len).sum::<usize>(), discs, "state {i}");
    }
    for i in 1..frames.len() {
        let (before, after) = (stacks(i - 1), stacks(i));
        let changed = before.iter().zip(&after).filter(|(b, a)| b != a).count();
        assert_eq!(changed, 2, "step {i} takes a disc from one peg to another");
    }
    // A second run replaces its own page.
    let again = corvus(&["show", HANOI_SEED, HANOI_WITNESS, "--html", &page_arg]);
    assert_eq!(code(&again), 0, "{}", stderr(&again));

    // The Sokoban board: rows of XSB characters, floor as `-`.
    let out = corvus(&["show", TINY_ASP, TINY_WITNESS, "--html", &page_arg]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let data = page_data(&std::fs::read_to_string(&page_path).expect("page"));
    let frames = data["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 9);
    let board = |i: usize| frames[i]["scene"]["board"].as_array().expect("rows").clone();
    let count = |i: usize, c: char| -> usize {
        board(i)
            .iter()
            .map(|r| r.as_str().unwrap_or("").matches(c).count())
            .sum()
    };
    assert_eq!(count(0, '@') + count(0, '+'), 1, "one player");
    assert_eq!(count(8, '*'), 1, "the stone ends on its goal");
    assert_eq!(
        board(0).len(),
        data["setting"]["board"]["height"].as_u64().expect("height") as usize
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn html_page_of_a_failing_plan_shows_where_it_fails_and_respects_other_files() {
    let dir = scratch("show-html-fails");
    let witness = dir.join("short.witness");
    // The first two moves of the seed's three: the goal does not hold.
    let seed = std::fs::read_to_string(crate_dir().join(HANOI_WITNESS)).expect("witness");
    std::fs::write(&witness, seed.lines().take(2).collect::<Vec<_>>().join("\n")).expect("write");
    let page_path = dir.join("plan.html");
    let page_arg = page_path.display().to_string();
    let out = corvus(&["show", HANOI_SEED, &witness.display().to_string(), "--html", &page_arg]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let data = page_data(&std::fs::read_to_string(&page_path).expect("page written"));
    assert!(
        data["error"].as_str().is_some_and(|e| e.contains("goal")),
        "{}",
        data["error"]
    );
    assert_eq!(data["frames"].as_array().map(Vec::len), Some(3));

    // A file of the user's is not replaced, and an input is not written over.
    let notes = dir.join("notes.html");
    std::fs::write(&notes, "<p>my notes</p>\n").expect("write");
    let out = corvus(&[
        "show",
        HANOI_SEED,
        HANOI_WITNESS,
        "--html",
        &notes.display().to_string(),
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("notes.html"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&notes).expect("kept"), "<p>my notes</p>\n");
    let out = corvus(&[
        "show",
        HANOI_SEED,
        &witness.display().to_string(),
        "--html",
        &witness.display().to_string(),
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(std::fs::read_to_string(&witness).expect("kept").starts_with("put("));
    // --html draws no text pictures, so it does not go with --step.
    let out = corvus(&["show", HANOI_SEED, HANOI_WITNESS, "--html", &page_arg, "--step", "1"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
