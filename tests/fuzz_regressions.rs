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
    let e = corvus::puzzles::asp::parse_facts("p(1..1000001).", "r.asp").expect_err("over the cap");
    assert!(
        e.to_string().starts_with("r.asp:1:1: ranges expand to more than"),
        "{e}"
    );
    let facts = corvus::puzzles::asp::parse_facts("p(1..1000,1..1000).", "r.asp").expect("exactly at the cap");
    assert_eq!(facts.len(), 1_000_000);
    let e = corvus::puzzles::asp::parse_facts("p(1..1000,1..1000).\n q(1).", "r.asp").expect_err("one past it");
    assert!(
        e.to_string()
            .starts_with("r.asp:2:2: ranges expand to more than 1000000"),
        "{e}"
    );
}

/// Found by the `asp_facts` fuzzer (a timeout): a huge range followed by an
/// empty one expands to nothing, but the expansion walked the huge range.
#[test]
fn a_huge_range_times_an_empty_one_is_read_at_once() {
    let start = std::time::Instant::now();
    let text = "ptu(0,000000,000008000..0000000200020000,000010,88000..0000000000020000,000010,8).\n\
                q(1..4000000000, a, 3..2). r(1).";
    let facts = corvus::puzzles::asp::parse_facts(text, "t.asp").expect("reads");
    assert_eq!(facts.iter().map(|f| f.to_string()).collect::<Vec<_>>(), ["r(1)."]);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

/// Found by reading the expansion code the fuzzer pointed at: one recursion
/// per argument overflowed the stack on a fact with a million arguments, and
/// the number of arguments times a range was not limited at all.
#[test]
fn facts_with_a_million_arguments_neither_recurse_nor_multiply() {
    let wide = format!("p({}).", vec!["1"; 1_000_000].join(","));
    let facts = corvus::puzzles::asp::parse_facts(&wide, "w.asp").expect("one wide fact");
    assert_eq!(facts.len(), 1);
    assert_eq!(facts[0].args.len(), 1_000_000);
    let wide_range = format!("p(1..1000,{}).", vec!["a"; 5_000].join(","));
    let e = corvus::puzzles::asp::parse_facts(&wide_range, "w.asp").expect_err("5 million arguments in all");
    assert!(e.to_string().starts_with("w.asp:1:1: the facts have more than"), "{e}");
    // The order of the expansion is clingo's: the last range varies fastest.
    let facts = corvus::puzzles::asp::parse_facts("r(1..2, b, -1..0).", "r.asp").expect("reads");
    let shown: Vec<String> = facts.iter().map(|f| f.to_string()).collect();
    assert_eq!(shown, ["r(1,b,-1).", "r(1,b,0).", "r(2,b,-1).", "r(2,b,0)."]);
}

/// `hi - lo` of the widest range overflowed i64 (a panic in debug builds).
#[test]
fn the_widest_range_is_refused_without_overflow() {
    let e = corvus::puzzles::asp::parse_facts("p(-9223372036854775808..9223372036854775807).", "o.asp")
        .expect_err("too many");
    assert!(e.to_string().contains("ranges expand to more than"), "{e}");
    let facts =
        corvus::puzzles::asp::parse_facts("p(9223372036854775806..9223372036854775807).", "o.asp").expect("two facts");
    assert_eq!(facts.len(), 2);
}

/// `asp_facts_large`, timeout: a fact list with a block comment `%*` that no
/// `*%` closes, repeated. pest tried each such comment up to the end of the
/// text before it read it as a line comment: quadratic (20,000 lines of
/// `player(p). %* x` took 150 s). It is refused now, at its place.
#[test]
fn an_unclosed_block_comment_is_refused_at_its_place() {
    let text = "player(p). %* x\n".repeat(20_000);
    let e = corvus::puzzles::asp::parse_facts(&text, "c.asp").expect_err("an unclosed block comment");
    assert_eq!(e.to_string(), "c.asp:1:12: block comment `%*` is not closed by `*%`");
    // Closed ones, and `%*` in strings and line comments, read as before.
    let facts = corvus::puzzles::asp::parse_facts("p(\"%*\"). % %*\n%* x\n *% q.", "c.asp").expect("facts");
    assert_eq!(facts.len(), 2);
}
