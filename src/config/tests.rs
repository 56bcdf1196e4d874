use super::*;
use crate::heuristic::{blind, goalcount, lmcount, lmcut, pdb};
use crate::search::{LazyOptions, NoveltyUse, SuccessorOrder, WalkOptions};

fn on(kind: &'static HeuristicKind, cost_type: CostType) -> Evaluator {
    Evaluator {
        cost_type,
        ..Evaluator::new(kind)
    }
}

fn lama_first() -> Config {
    Config {
        search: Strategy::Lazy(LazyOptions::default()),
        evaluators: vec![on(&relax::HFF, CostType::One), on(&lmcount::LM_COUNT, CostType::One)],
        probe: false,
        explicit_heuristic: true,
    }
}

fn parsed(spec: &str) -> Config {
    Config::parse(spec).unwrap_or_else(|e| panic!("{}", e.show(spec)))
}

/// The printed spec parses back to the same configuration.
#[test]
fn printed_specs_read_back_as_the_same_configuration() {
    let mut perimeter = Config::new(Strategy::Greedy, &relax::HADD);
    perimeter.evaluators[0].perimeter = true;
    let mut mixed = lama_first();
    mixed.evaluators[1].cost_type = CostType::PlusOne;
    mixed.evaluators[1].preferred = false;
    let configs = [
        lama_first(),
        mixed,
        perimeter,
        Config::new(Strategy::Astar, &lmcut::LM_CUT),
        Config {
            probe: true,
            ..Config::new(Strategy::Astar, &pdb::PDB)
        },
        Config::new(Strategy::WeightedAstar(1.5), &relax::HFF),
        Config::new(
            Strategy::Lazy(LazyOptions {
                weight: Some(5.0),
                order: SuccessorOrder::Natural,
                ..LazyOptions::default()
            }),
            &goalcount::GOAL_COUNT,
        ),
        Config::new(
            Strategy::Lazy(LazyOptions {
                novelty: NoveltyUse::FirstKey,
                ..LazyOptions::default()
            }),
            &relax::HFF,
        ),
        Config::new(
            Strategy::Lazy(LazyOptions {
                novelty: NoveltyUse::OwnList,
                ..LazyOptions::default()
            }),
            &relax::HFF,
        ),
        Config::new(
            Strategy::Walks(WalkOptions {
                walks: 30,
                seed: 12,
                ..WalkOptions::default()
            }),
            &lmcount::LM_COUNT,
        )
        .without_preferred_operators(),
    ];
    for config in configs {
        let text = config.to_string();
        let back = parsed(&text);
        assert_eq!(
            Config {
                explicit_heuristic: config.explicit_heuristic,
                ..back.clone()
            },
            config,
            "{text}"
        );
        assert_eq!(back.to_string(), text);
    }
}

/// Expected configurations of specs, in corvus's spelling and in Fast
/// Downward's, and their canonical print.
#[test]
fn specs_mean_what_they_say() {
    let table: &[(&str, &str)] = &[
        ("astar(lmcut())", "astar(lmcut())"),
        ("astar(lmcut)", "astar(lmcut())"),
        ("astar()", "astar(lmcut())"),
        ("astar(eval=blind())", "astar(blind())"),
        ("gbfs(hff)", "gbfs(hff())"),
        ("gbfs(hff, preferred=[])", "gbfs(hff(), preferred=[])"),
        ("eager_greedy([ff()])", "gbfs(hff(), preferred=[])"),
        ("eager_greedy([ff()], preferred=[ff()])", "gbfs(hff())"),
        ("wastar(hff(cost=plusone), w=5)", "wastar(hff(cost=plusone), w=5)"),
        ("eager_wastar([add()], w=3)", "wastar(hadd(), w=3)"),
        ("eager_wastar([add()])", "wastar(hadd(), w=1)"),
        (
            "lazy_wastar([ff(), lmcount(lm_rhw())], w=5, preferred=[ff])",
            "lazy-wastar([hff(), lmcount()], w=5, preferred=[hff])",
        ),
        (
            "lazy([hff, goalcount], order=natural)",
            "lazy([hff(), goalcount()], order=natural)",
        ),
        ("lazy_greedy([ff()], preferred=[ff()])", "lazy([hff()], order=natural)"),
        (
            "lazy_greedy([ff()], preferred=[ff()], preferred_successors_first=true)",
            "lazy([hff()])",
        ),
        (
            "lazy_greedy([ff()], randomize_successors=true)",
            "lazy([hff()], preferred=[], order=shuffled)",
        ),
        (
            "lazy([hff(transform=adapt_costs(one)), hff])",
            "lazy([hff(cost=one), hff()])",
        ),
        (
            "lazy([hff(cost=one), hff], preferred=[hff()])",
            "lazy([hff(cost=one), hff()], preferred=[hff()])",
        ),
        ("gbfs(perimeter(hff()))", "gbfs(perimeter(hff()))"),
        (
            "let(h, ff(), lazy_greedy([h], preferred=[h]))",
            "lazy([hff()], order=natural)",
        ),
        ("bfws([hff])", "bfws([hff()])"),
        ("lazy-width(hff)", "lazy-width([hff()])"),
        ("astar(pdb(), probe=true)", "astar(pdb(), probe=true)"),
        (
            "lazy([hff(), lmcount(pref=false, cost=one)])",
            "lazy([hff(), lmcount(cost=one, pref=false)])",
        ),
        ("lazy([landmark_sum(pref=true)])", "lazy([lmcount()])"),
        (
            "lazy([hff, lmcount], explore=types, order=natural)",
            "lazy([hff(), lmcount()], order=natural, explore=types)",
        ),
        ("lazy-wastar([hff], explore=none)", "lazy-wastar([hff()], w=2)"),
        ("walks()", "walks(hff())"),
        (
            "walks(hff(cost=one), preferred=[])",
            "walks(hff(cost=one), preferred=[])",
        ),
        (
            "walks(goalcount, seed=7, batch=2000, length=10, restart=3)",
            "walks(goalcount(), batch=2000, restart=3, seed=7)",
        ),
    ];
    for (spec, canonical) in table {
        assert_eq!(parsed(spec).to_string(), *canonical, "{spec}");
    }
}

/// Fast Downward's spelling of LAMA's first iteration is corvus's
/// lama-first; without `preferred_successors_first` it pushes successors in
/// operator order, as Fast Downward's default does.
#[test]
fn fast_downwards_lama_first_is_corvus_lama_first() {
    let fd = "let(hlm, lmcount(lm_factory=lm_reasonable_orders_hps(lm_rhw()), transform=adapt_costs(one)), \
              let(hff, ff(transform=adapt_costs(one)), \
              lazy_greedy([hff, hlm], preferred=[hff, hlm], cost_type=one, reopen_closed=false, \
              preferred_successors_first=true)))";
    assert_eq!(parsed(fd), lama_first());
    let as_written = fd.replace(", \n              preferred_successors_first=true", "");
    let as_written = as_written.replace(
        ", reopen_closed=false, preferred_successors_first=true",
        ", reopen_closed=false",
    );
    let mut natural = lama_first();
    if let Strategy::Lazy(o) = &mut natural.search {
        o.order = SuccessorOrder::Natural;
    }
    assert_eq!(parsed(&as_written), natural);
    // Fast Downward's alias gives the landmark count no preferred operators
    // of its own (pref=false): its preferred list holds h_FF's.
    let with_pref_false = as_written.replace(
        "transform=adapt_costs(one)), let",
        "transform=adapt_costs(one), pref=false), let",
    );
    assert_ne!(with_pref_false, as_written);
    natural.evaluators[1].offers_preferred = false;
    assert_eq!(parsed(&with_pref_false), natural);
    assert_eq!(
        natural.to_string(),
        "lazy([hff(cost=one), lmcount(cost=one, pref=false)], order=natural)"
    );
    assert_eq!(parsed("astar(lmcut())"), parsed("astar(eval=lmcut())"));
    assert_eq!(parsed("astar(blind())").heuristic(), &blind::BLIND);
}

/// Mistakes name the place and what exists there.
#[test]
fn errors_name_the_place_and_the_alternatives() {
    let cases: &[(&str, usize, &str)] = &[
        ("astar(hf())", 6, "unknown heuristic `hf`"),
        ("astar(hf())", 6, "lmcut"),
        ("astr(lmcut())", 0, "unknown search `astr`"),
        ("astr(lmcut())", 0, "searches: astar, gbfs"),
        (
            "lmcut()",
            0,
            "is a heuristic; a spec is a search around it: astar(lmcut())",
        ),
        (
            "astar(lmcut(), w=2)",
            17,
            "`astar` has no parameter `w` (its parameters: eval, evals, cost_type, probe)",
        ),
        (
            "astar([lmcut(), hmax()])",
            0,
            "astar takes one heuristic; several need a lazy search",
        ),
        ("lazy([hff], preferred=[hadd])", 23, "`hadd` is not one of them"),
        (
            "lazy([hff, lmcut], preferred=[lmcut])",
            30,
            "lmcut has no preferred operators",
        ),
        ("wastar(hff, w=-1)", 14, "w must be a finite number"),
        (
            "lazy([hff], order=sideways)",
            18,
            "unknown order `sideways` (orders: preferred-first, natural, shuffled)",
        ),
        ("lazy_greedy([ff()], boost=10)", 26, "boost"),
        (
            "lazy_greedy([ff()], reopen_closed=true)",
            34,
            "reopen_closed=true is not implemented",
        ),
        (
            "lazy([lmcount(lm_zg())])",
            14,
            "other landmark factories are not implemented",
        ),
        ("astar(lmcut(), cost_type=one)", 25, "count the task's costs"),
        (
            "lazy(alt([single(hff)]))",
            5,
            "corvus builds its open lists from the heuristics",
        ),
        ("astar(cg())", 6, "unknown heuristic `cg`"),
        ("let(h, ff())", 0, "let takes a name, a value and a body"),
        ("lazy([hff(cost=two)])", 15, "expected a cost type"),
        ("walks(hff, batch=0)", 17, "batch must be a whole number, at least 1"),
        ("walks(hff, seed=1.5)", 16, "seed must be a whole number"),
        ("walks([hff, lmcount])", 0, "walks takes one heuristic"),
        ("walks(hff, w=2)", 13, "`walks` has no parameter `w`"),
    ];
    for (spec, at, message) in cases {
        let e = Config::parse(spec).expect_err(spec);
        assert!(e.message.contains(message), "{spec}: {}", e.message);
        assert_eq!(e.at, *at, "{spec}: {}", e.show(spec));
    }
}

/// A spec names its heuristics: they are the user's choice.
#[test]
fn named_heuristics_are_explicit_and_defaults_are_not() {
    assert!(parsed("astar(lmcut())").explicit_heuristic);
    assert!(!parsed("astar()").explicit_heuristic);
}

/// Every registered search prints under its registry name.
#[test]
fn searches_print_under_their_registry_names() {
    for kind in crate::search::KINDS {
        let config = Config::new((kind.strategy)(2.0), kind.default_heuristic);
        assert_eq!(components::search_name(config.search), kind.name);
        assert!(config.to_string().starts_with(&format!("{}(", kind.name)), "{config}");
    }
}

/// The symbolic search takes no heuristic: its spec is `symbolic()`, and
/// a heuristic or a cost type other than the task's is refused.
#[test]
fn the_symbolic_search_takes_no_heuristic() {
    let config = parsed("symbolic()");
    assert_eq!(config.search, Strategy::Symbolic);
    assert!(!config.explicit_heuristic);
    assert_eq!(config.to_string(), "symbolic()");
    assert_eq!(parsed(&config.to_string()), config);
    for (spec, message) in [
        ("symbolic(lmcut())", "`symbolic` takes no more arguments"),
        ("symbolic(cost_type=one)", "corvus's searches count the task's costs"),
        ("symbolic(probe=true)", "`symbolic` has no parameter `probe`"),
    ] {
        let error = Config::parse(spec).expect_err(spec);
        assert!(error.show(spec).contains(message), "{}", error.show(spec));
    }
}
