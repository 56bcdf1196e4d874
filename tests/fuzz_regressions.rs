//! Inputs found by the fuzzers in `fuzz/` (or by reading the code they
//! pointed at), each with the error it must give now instead of a crash.

use corvus::pddl::{self, ErrorKind};

/// A comment ended by a lone `\r`: the grammar resumes reading after it, so
/// the nesting limit must count the parentheses that follow too. It used to
/// skip them up to the next `\n`; pest then ran into its own recursion guard
/// and the error read `expected stack limit reached, found `(``, at a column
/// deep inside the nesting.
#[test]
fn nesting_after_a_comment_ended_by_carriage_return_is_refused() {
    let deep = format!(
        "(define (domain d) ; note\r{}x{}",
        "(".repeat(200_000),
        ")".repeat(200_001)
    );
    let e = pddl::parse_domain(&deep, "d.pddl").expect_err("nesting this deep is refused");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.to_string().starts_with("d.pddl:1:"), "{e}");
    assert!(e.message.contains("nested deeper than"), "{e}");
    let e = pddl::parse_problem(&deep.replace("domain d", "problem p"), "p.pddl").expect_err("refused");
    assert!(e.message.contains("nested deeper than"), "{e}");
    // A `\r\n` line end and a comment that holds parentheses still read as before.
    let text = "(define (domain d) ; (((( not code\r\n (:predicates (p)))";
    assert!(pddl::parse_domain(text, "d.pddl").is_ok());
}

/// Ranges are written out: the reader caps the expansion so that a few bytes
/// cannot claim gigabytes (5 million facts used to be accepted: 780 MB).
#[test]
fn range_expansion_is_capped_well_below_a_gigabyte() {
    let e = corvus::asp::parse_facts("p(1..1000001).", "r.asp").expect_err("over the cap");
    assert!(
        e.to_string().starts_with("r.asp:1:1: ranges expand to more than"),
        "{e}"
    );
    let facts = corvus::asp::parse_facts("p(1..1000,1..1000).", "r.asp").expect("exactly at the cap");
    assert_eq!(facts.len(), 1_000_000);
    let e = corvus::asp::parse_facts("p(1..1000,1..1000).\n q(1).", "r.asp").expect_err("one past it");
    assert!(
        e.to_string()
            .starts_with("r.asp:2:2: ranges expand to more than 1000000"),
        "{e}"
    );
}
