//! The files corvus writes never cost the user a file: an output that is an
//! input, or an existing file of another kind, is refused before anything is
//! touched; devices, FIFOs and symbolic links are written through; stale
//! outputs of an earlier run are gone before this run can end.

use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

#[path = "asp_common.rs"]
mod common;

use common::{code, corvus_in, data, scratch, stderr};

const BLOCKS: &str = "problems/ipc/blocks/domain.pddl";
const BLOCKS_4: &str = "problems/ipc/blocks/probBLOCKS-4-1.pddl";

/// A scratch folder with the Blocksworld domain `d.pddl` and problem `p.pddl`.
fn task_dir(name: &str) -> PathBuf {
    let dir = scratch(&format!("outputs-{name}"));
    fs::copy(data(BLOCKS), dir.join("d.pddl")).expect("copy domain");
    fs::copy(data(BLOCKS_4), dir.join("p.pddl")).expect("copy problem");
    dir
}

/// The names in a folder, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).expect("readable")
}

#[test]
fn a_plan_file_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = task_dir("input");
    let problem = read(&dir.join("p.pddl"));
    fs::write(dir.join("notes.txt"), "my notes\n").expect("write");
    std::os::unix::fs::symlink("p.pddl", dir.join("link")).expect("symlink");
    std::os::unix::fs::symlink("notes.txt", dir.join("notes-link")).expect("symlink");
    for plan in ["p.pddl", "./p.pddl", "d.pddl", "link", "notes.txt", "notes-link"] {
        let out = corvus_in(&dir, &["d.pddl", "p.pddl", plan]);
        assert_eq!(code(&out), 2, "{plan}: {}", stderr(&out));
        assert!(stderr(&out).contains(plan.trim_start_matches("./")), "{}", stderr(&out));
    }
    // The same through --plan-file and --stats-json.
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "--plan-file", "p.pddl"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "--stats-json", "p.pddl"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "--stats-json", "notes.txt"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = corvus_in(
        &dir,
        &["d.pddl", "p.pddl", "--stats-json", "x.json", "--plan-file", "x.json"],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(read(&dir.join("p.pddl")), problem);
    assert_eq!(read(&dir.join("notes.txt")), "my notes\n");
    assert!(fs::symlink_metadata(dir.join("link")).expect("link").is_symlink());
    assert_eq!(listing(&dir), ["d.pddl", "link", "notes-link", "notes.txt", "p.pddl"]);
}

#[test]
fn a_second_run_replaces_the_plan_and_leaves_nothing_else() {
    let dir = task_dir("replace");
    for _ in 0..2 {
        let out = corvus_in(&dir, &["d.pddl", "p.pddl", "-q", "--stats-json", "s.json"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    assert!(read(&dir.join("sas_plan")).ends_with("(unit cost)\n"));
    assert!(read(&dir.join("s.json")).contains("\"solved\""));
    // No temporary file is left beside them.
    assert_eq!(listing(&dir), ["d.pddl", "p.pddl", "s.json", "sas_plan"]);
}

#[test]
fn devices_fifos_and_links_are_written_through_never_replaced() {
    let dir = task_dir("through");
    // /dev/null stays the device.
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "/dev/null", "-q"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(fs::metadata("/dev/null").expect("null").file_type().is_char_device());
    // /dev/stdout is the process's standard output.
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "--plan-file", "/dev/stdout", "-q"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("(unit cost)\n"));
    // A link to a plan of an earlier run: the link stays, its target gets the plan.
    fs::write(dir.join("old.plan"), "(pick-up a)\n").expect("write");
    std::os::unix::fs::symlink("old.plan", dir.join("plan-link")).expect("symlink");
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "plan-link", "-q"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(fs::symlink_metadata(dir.join("plan-link")).expect("link").is_symlink());
    assert!(read(&dir.join("old.plan")).ends_with("(unit cost)\n"));
    // A FIFO is read by its reader and stays a FIFO.
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).expect("read fifo"))
    };
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "fifo", "-q"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(reader.join().expect("reader").ends_with("(unit cost)\n"));
    assert!(fs::symlink_metadata(&fifo).expect("fifo").file_type().is_fifo());
}

#[test]
fn stale_plans_go_and_other_files_stay() {
    let dir = scratch("outputs-stale");
    fs::copy(data("tests/data/switch-domain.pddl"), dir.join("d.pddl")).expect("copy");
    fs::copy(data("tests/data/switch-unwired.pddl"), dir.join("p.pddl")).expect("copy");
    for stale in ["sas_plan", "sas_plan.1", "sas_plan.12"] {
        fs::write(dir.join(stale), "(flip s1)\n; cost = 1 (unit cost)\n").expect("write");
    }
    fs::write(dir.join("sas_plan.txt"), "notes\n").expect("write");
    fs::create_dir(dir.join("sas_plan.2")).expect("mkdir");
    // An unsolvable task: no plan of this run, and none of the last.
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "-q"]);
    assert_eq!(code(&out), 11, "{}", stderr(&out));
    assert_eq!(listing(&dir), ["d.pddl", "p.pddl", "sas_plan.2", "sas_plan.txt"]);
    // A numbered file that is not a plan refuses the run, naming that file.
    fs::write(dir.join("sas_plan.3"), "(define (problem mine)\n").expect("write");
    fs::write(dir.join("sas_plan.4"), "(flip s1)\n").expect("write");
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "-q"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("sas_plan.3"), "{}", stderr(&out));
    assert!(dir.join("sas_plan.3").exists() && dir.join("sas_plan.4").exists());
    // A plan file that is a folder is named as such.
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "sas_plan.2", "-q"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("sas_plan.2: is a directory"), "{}", stderr(&out));
}

#[test]
fn a_killed_run_leaves_no_statistics_of_an_earlier_run() {
    let dir = task_dir("killed");
    fs::copy(data("tests/data/blocks-18-0.pddl"), dir.join("big.pddl")).expect("copy");
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "-q", "--stats-json", "s.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(read(&dir.join("s.json")).contains("\"solved\""));
    let mut child = Command::new(env!("CARGO_BIN_EXE_corvus"))
        .args(["d.pddl", "big.pddl", "-q", "--search", "astar", "--heuristic", "blind"])
        .args(["--stats-json", "s.json"])
        .current_dir(&dir)
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    std::thread::sleep(Duration::from_millis(1500));
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert!(!dir.join("s.json").exists(), "the earlier run's statistics survived");
    assert!(!dir.join("sas_plan").exists(), "the earlier run's plan survived");
}

#[test]
fn translated_and_imported_files_replace_only_their_own_kind() {
    let dir = scratch("outputs-generated");
    fs::copy(data("problems/hanoi-seed.asp"), dir.join("i.asp")).expect("copy");
    fs::copy(data("tests/data/sokoban-levels.xsb"), dir.join("l.xsb")).expect("copy");
    fs::write(dir.join("mine.pddl"), "(define (problem mine))\n").expect("write");
    let instance = read(&dir.join("i.asp"));
    let level = read(&dir.join("l.xsb"));
    for args in [
        &["asp", "translate", "i.asp", "-o", "i.asp"][..],
        &["asp", "translate", "i.asp", "-o", "mine.pddl"],
        &["asp", "translate", "i.asp", "-o", "x.pddl", "--domain-out", "x.pddl"],
        &["asp", "translate", "i.asp", "-o", "x.pddl", "--domain-out", "mine.pddl"],
        &["asp", "solve", "i.asp", "--stats-json", "i.asp"],
        &["sokoban", "import", "l.xsb", "-o", "l.xsb"],
        &["sokoban", "import", "l.xsb", "-o", "mine.pddl"],
    ] {
        let out = corvus_in(&dir, args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
    }
    assert_eq!(read(&dir.join("i.asp")), instance);
    assert_eq!(read(&dir.join("l.xsb")), level);
    assert_eq!(read(&dir.join("mine.pddl")), "(define (problem mine))\n");
    assert_eq!(listing(&dir), ["i.asp", "l.xsb", "mine.pddl"]);
    // What corvus wrote, it may write again; and it reads back.
    for _ in 0..2 {
        let out = corvus_in(
            &dir,
            &["asp", "translate", "i.asp", "-o", "p.pddl", "--domain-out", "d.pddl"],
        );
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let out = corvus_in(&dir, &["sokoban", "import", "l.xsb", "-o", "s.lp", "--asp"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    let out = corvus_in(&dir, &["d.pddl", "p.pddl", "-q"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = corvus_in(&dir, &["asp", "solve", "s.lp", "-q"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}
