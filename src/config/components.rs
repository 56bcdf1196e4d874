//! The components a spec names: searches and heuristics, each with named,
//! typed, defaulted parameters, in corvus's spelling and in Fast
//! Downward's for the components corvus has. A name or parameter corvus
//! lacks is refused by name, with what exists.
//!
//! Spellings that differ from corvus's own follow Fast Downward's defaults:
//! `lazy_greedy` and `eager_greedy` use no preferred operators unless
//! `preferred=` names them, where corvus's `lazy` and `gbfs` use those of
//! every heuristic that has them; `lazy_greedy` pushes successors in
//! operator order unless `preferred_successors_first=true`.

use super::spec::{Arg, Expr, ExprKind, SpecError};
use super::{Config, Evaluator};
use crate::heuristic::cost_type::CostType;
use crate::heuristic::{self, HeuristicKind};
use crate::search::{self, Exploration, LazyOptions, SearchKind, Strategy, SuccessorOrder, WalkOptions};

/// Names bound by `let(name, value, body)`, innermost last.
type Env = Vec<(String, Expr)>;

/// Names are compared with `-` and `_` as one, so `lazy-wastar` and
/// Fast Downward's `lazy_wastar` are one component.
fn norm(name: &str) -> String {
    name.replace('-', "_")
}

/// Fast Downward's names for corvus's searches whose defaults differ from
/// corvus's names: (FD's name, corvus's search, its parameters for `--help`).
const FD_SEARCHES: &[(&str, &str, &str)] = &[
    (
        "eager_greedy",
        "gbfs",
        "eager_greedy([eval], preferred=[], boost=1000, cost_type=...)",
    ),
    ("eager_wastar", "wastar", "eager_wastar([eval], w=1, boost=1000)"),
    (
        "lazy_greedy",
        "lazy",
        "lazy_greedy([evals], preferred=[], reopen_closed=false, boost=1000, randomize_successors=false, \
preferred_successors_first=false, cost_type=...)",
    ),
];

/// What parameters a registered search takes, read off its entry: a weight
/// when its strategy depends on one, preferred operators when it uses them,
/// a successor order when it is lazy, a probe when it is optimal.
struct Shape {
    /// Takes heuristics (every search but the symbolic one).
    evaluated: bool,
    weighted: bool,
    lazy: bool,
    preferred: bool,
    probe: bool,
    /// The random-walk search's sampling parameters.
    walks: bool,
}

/// The random-walk search's own parameters, each a whole number of at
/// least 1, with the field it sets.
type WalkField = fn(&mut WalkOptions) -> &mut u64;
const WALK_PARAMETERS: [(&str, WalkField); 4] = [
    ("batch", |o| &mut o.walks),
    ("length", |o| &mut o.length),
    ("restart", |o| &mut o.restart_after),
    ("seed", |o| &mut o.seed),
];

impl Shape {
    fn of(kind: &SearchKind) -> Shape {
        let symbolic = (kind.strategy)(2.0).is_symbolic();
        Shape {
            evaluated: !symbolic,
            weighted: (kind.strategy)(1.0) != (kind.strategy)(2.0),
            lazy: (kind.strategy)(2.0).is_lazy(),
            preferred: kind.preferred_operators,
            // A probe is a short A* run with pattern databases.
            probe: kind.optimal && !symbolic,
            walks: matches!((kind.strategy)(2.0), Strategy::Walks(_)),
        }
    }

    /// `name(eval, w=2, ...)`, for `--help`.
    fn signature(&self, name: &str) -> String {
        let mut params = Vec::new();
        if self.evaluated {
            params.push(if self.lazy { "[evals]" } else { "eval" }.to_string());
        }
        if self.weighted {
            params.push("w=2".into());
        }
        if self.preferred {
            params.push("preferred=<those it has>".into());
        }
        if self.lazy {
            params.push(format!("order={}", SuccessorOrder::NAMES.join("|")));
            params.push(format!("explore={}", Exploration::NAMES.join("|")));
        }
        if self.probe {
            params.push("probe=false".into());
        }
        if self.walks {
            let defaults = &mut WalkOptions::default();
            params.extend(WALK_PARAMETERS.map(|(p, field)| format!("{p}={}", field(defaults))));
        }
        format!("{name}({})", params.join(", "))
    }
}

/// Every component, one per line, for `--help`.
pub fn describe_components() -> String {
    let mut lines = vec!["Searches:".to_string()];
    lines.extend(
        search::KINDS
            .iter()
            .map(|k| format!("  {}: {}", Shape::of(k).signature(k.name), k.help)),
    );
    lines.extend(FD_SEARCHES.iter().map(|(_, _, s)| format!("  Fast Downward's {s}")));
    lines.push(
        "Heuristics (every one takes cost=normal|one|plusone; Fast Downward's transform=adapt_costs(...) too):".into(),
    );
    for k in heuristic::KINDS {
        let also = match k.also_named.is_empty() {
            true => String::new(),
            false => format!(" (also {})", k.also_named.join(", ")),
        };
        lines.push(format!("  {}(){also}: {}", k.name, k.describe()));
    }
    lines.push("  perimeter(eval): exact goal distances near the goal around eval".into());
    lines.push("let(name, value, body) names a value for use in body (twice, say).".into());
    lines.join("\n")
}

/// The arguments of one call, taken one by one; what is left over is an error.
struct Call<'a> {
    name: String,
    at: usize,
    args: &'a [Arg],
    taken: Vec<bool>,
}

impl<'a> Call<'a> {
    fn new(name: &str, at: usize, args: &'a [Arg]) -> Self {
        Call {
            name: name.to_string(),
            at,
            args,
            taken: vec![false; args.len()],
        }
    }

    /// The `index`-th positional argument, or the one named one of `names`.
    fn get(&mut self, index: Option<usize>, names: &[&str]) -> Option<&'a Expr> {
        let named = self
            .args
            .iter()
            .position(|a| a.name.as_deref().is_some_and(|n| names.contains(&norm(n).as_str())));
        let positional = index.and_then(|i| {
            self.args
                .iter()
                .enumerate()
                .filter(|(_, a)| a.name.is_none())
                .nth(i)
                .map(|(j, _)| j)
        });
        let j = named.or(positional)?;
        self.taken[j] = true;
        Some(&self.args[j].value)
    }

    /// Refuses arguments no `get` took, naming the parameters that exist.
    fn finish(self, parameters: &[&str]) -> Result<(), SpecError> {
        let Some(j) = self.taken.iter().position(|t| !t) else {
            return Ok(());
        };
        let arg = &self.args[j];
        let what = match &arg.name {
            Some(n) => format!("`{}` has no parameter `{n}`", self.name),
            None => format!("`{}` takes no more arguments", self.name),
        };
        let list = match parameters.is_empty() {
            true => "none".to_string(),
            false => parameters.join(", "),
        };
        Err(SpecError::new(arg.value.at, format!("{what} (its parameters: {list})")))
    }
}

/// A name bound by `let` stands for its value.
fn resolve<'e>(expr: &'e Expr, env: &'e Env) -> &'e Expr {
    if let ExprKind::Call {
        name,
        args,
        parens: false,
    } = &expr.kind
        && args.is_empty()
        && let Some((_, value)) = env.iter().rev().find(|(n, _)| n == name)
    {
        return value;
    }
    expr
}

/// `let(name, value, body)`: the body with the name bound.
fn bind(call: &mut Call, env: &Env) -> Result<(Env, Expr), SpecError> {
    let at = call.at;
    let name = call.get(Some(0), &["name"]);
    let value = call.get(Some(1), &["value"]);
    let body = call.get(Some(2), &["body"]);
    let (Some(name), Some(value), Some(body)) = (name, value, body) else {
        return Err(SpecError::new(
            at,
            "let takes a name, a value and a body: let(h, ff(), lazy_greedy([h]))",
        ));
    };
    let ExprKind::Call {
        name: bound,
        args,
        parens: false,
    } = &name.kind
    else {
        return Err(SpecError::new(name.at, "the first argument of let is a name"));
    };
    if !args.is_empty() {
        return Err(SpecError::new(name.at, "the first argument of let is a name"));
    }
    let mut env = env.clone();
    // The value is read where it is defined: its names are the outer ones.
    env.push((bound.clone(), resolve(value, &env).clone()));
    Ok((env, body.clone()))
}

fn call_of(expr: &Expr) -> Option<(&str, &[Arg])> {
    match &expr.kind {
        ExprKind::Call { name, args, .. } => Some((name, args)),
        _ => None,
    }
}

fn boolean(expr: &Expr) -> Result<bool, SpecError> {
    match call_of(expr) {
        Some(("true", [])) => Ok(true),
        Some(("false", [])) => Ok(false),
        _ => Err(SpecError::new(
            expr.at,
            format!("expected true or false, found `{expr}`"),
        )),
    }
}

/// A whole number of at least 1.
fn count(expr: &Expr, what: &str) -> Result<u64, SpecError> {
    let n = number(expr, what)?;
    if n.fract() != 0.0 || n < 1.0 || n > u64::MAX as f64 {
        return Err(SpecError::new(
            expr.at,
            format!("{what} must be a whole number, at least 1"),
        ));
    }
    Ok(n as u64)
}

fn number(expr: &Expr, what: &str) -> Result<f64, SpecError> {
    match &expr.kind {
        ExprKind::Number(n) => match n.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(SpecError::new(
                expr.at,
                format!("{what} must be a finite number, at least 0"),
            )),
        },
        _ => Err(SpecError::new(
            expr.at,
            format!("{what} must be a number, found `{expr}`"),
        )),
    }
}

/// A cost type by corvus's or Fast Downward's name (`one`, `ONE`, `plus_one`).
fn cost_type(expr: &Expr) -> Result<CostType, SpecError> {
    let name = call_of(expr).map(|(n, _)| n.to_ascii_lowercase().replace('_', ""));
    name.as_deref().and_then(CostType::from_name).ok_or_else(|| {
        SpecError::new(
            expr.at,
            format!("expected a cost type (normal, one, plusone), found `{expr}`"),
        )
    })
}

/// Fast Downward's `transform=`: `adapt_costs(one)`, `adapt_costs(cost_type=one)`, `no_transform()`.
fn transform(expr: &Expr) -> Result<CostType, SpecError> {
    match call_of(expr) {
        Some(("no_transform", [])) => Ok(CostType::Normal),
        Some(("adapt_costs", args)) => {
            let mut call = Call::new("adapt_costs", expr.at, args);
            let c = match call.get(Some(0), &["cost_type"]) {
                Some(c) => cost_type(c)?,
                None => CostType::Normal,
            };
            call.finish(&["cost_type"])?;
            Ok(c)
        }
        _ => Err(SpecError::new(
            expr.at,
            format!("expected adapt_costs(...) or no_transform(), found `{expr}`"),
        )),
    }
}

/// A value that must be the one corvus implements: anything else is refused with `why`.
fn only(expr: Option<&Expr>, allowed: impl Fn(&Expr) -> Result<bool, SpecError>, why: &str) -> Result<(), SpecError> {
    match expr {
        Some(e) if !allowed(e)? => Err(SpecError::new(e.at, why.to_string())),
        _ => Ok(()),
    }
}

/// A heuristic expression as an evaluator.
fn evaluator(expr: &Expr, env: &Env) -> Result<Evaluator, SpecError> {
    let expr = resolve(expr, env);
    let Some((name, args)) = call_of(expr) else {
        return Err(SpecError::new(expr.at, format!("expected a heuristic, found `{expr}`")));
    };
    let name = norm(name);
    let mut call = Call::new(&name, expr.at, args);
    if name == "perimeter" {
        let Some(inner) = call.get(Some(0), &["eval"]) else {
            return Err(SpecError::new(expr.at, "perimeter wraps a heuristic: perimeter(hff())"));
        };
        let mut e = evaluator(inner, env)?;
        call.finish(&["eval"])?;
        if e.perimeter {
            return Err(SpecError::new(inner.at, "a perimeter around a perimeter"));
        }
        e.perimeter = true;
        return Ok(e);
    }
    let Some(kind) = heuristic::named(&name) else {
        let known: Vec<&str> = heuristic::KINDS.iter().map(|k| k.name).collect();
        let hint = if search_kind(&name).is_some() {
            " (that is a search; heuristics go inside it)"
        } else if ["alt", "single", "tiebreaking", "pareto", "type_based"].contains(&name.as_str()) {
            " (corvus builds its open lists from the heuristics: lazy([hff, lmcount]))"
        } else {
            ""
        };
        return Err(SpecError::new(
            expr.at,
            format!(
                "unknown heuristic `{name}`{hint} (heuristics: {}, perimeter)",
                known.join(", ")
            ),
        ));
    };
    let mut e = Evaluator::new(kind);
    let mut params = vec!["cost", "transform", "cache_estimates", "verbosity", "description"];
    if let Some(c) = call.get(None, &["cost"]) {
        e.cost_type = cost_type(c)?;
    }
    if let Some(t) = call.get(None, &["transform"]) {
        e.cost_type = transform(t)?;
    }
    // They change how a run logs or caches, not what it finds.
    for p in ["cache_estimates", "verbosity", "description"] {
        let _ = call.get(None, &[p]);
    }
    if kind.name == "lmcount" {
        params.extend(["lm_factory", "pref", "admissible", "optimal"]);
        // `pref` is `offers_preferred`, which every heuristic has; only
        // Fast Downward's landmark count names it.
        only(
            call.get(Some(0), &["lm_factory"]),
            |f| Ok(is_rhw_factory(f)),
            "corvus builds one landmark graph, Fast Downward's lm_rhw() (also through \
             lm_reasonable_orders_hps(lm_rhw())); other landmark factories are not implemented",
        )?;
        if let Some(p) = call.get(None, &["pref"]) {
            e.offers_preferred = boolean(p)?;
        }
        for p in ["admissible", "optimal"] {
            only(
                call.get(None, &[p]),
                |v| boolean(v).map(|b| !b),
                "corvus's lmcount is the inadmissible landmark count (admissible=true is not implemented)",
            )?;
        }
    }
    call.finish(&params)?;
    Ok(e)
}

fn is_rhw_factory(expr: &Expr) -> bool {
    match call_of(expr) {
        Some(("lm_rhw", [])) => true,
        Some(("lm_reasonable_orders_hps", [arg])) => arg.name.is_none() && is_rhw_factory(&arg.value),
        _ => false,
    }
}

/// The evaluators of a search: one heuristic or a list.
fn evaluators(expr: &Expr, env: &Env) -> Result<Vec<Evaluator>, SpecError> {
    let expr = resolve(expr, env);
    match &expr.kind {
        ExprKind::List(items) if items.is_empty() => Err(SpecError::new(expr.at, "a search needs a heuristic")),
        ExprKind::List(items) => items.iter().map(|i| evaluator(i, env)).collect(),
        _ => Ok(vec![evaluator(expr, env)?]),
    }
}

/// Marks the evaluators whose preferred operators `preferred` names; each
/// must be one of the open lists' heuristics and have them.
fn set_preferred(evals: &mut [Evaluator], preferred: &Expr, env: &Env) -> Result<(), SpecError> {
    for e in evals.iter_mut() {
        e.preferred = false;
    }
    let resolved = resolve(preferred, env);
    let items = match &resolved.kind {
        ExprKind::List(items) => items.clone(),
        _ => vec![preferred.clone()],
    };
    for item in &items {
        let wanted = evaluator(item, env)?;
        // The same heuristic as an open list's, or its bare name when only one list has it.
        let same: Vec<usize> = (0..evals.len())
            .filter(|&i| {
                let e = evals[i];
                e.kind == wanted.kind && e.cost_type == wanted.cost_type && e.perimeter == wanted.perimeter
            })
            .collect();
        let by_name: Vec<usize> = (0..evals.len()).filter(|&i| evals[i].kind == wanted.kind).collect();
        let bare = matches!(&resolve(item, env).kind, ExprKind::Call { parens: false, .. });
        let index = match (same.as_slice(), by_name.as_slice()) {
            ([i, ..], _) => *i,
            (_, [i]) if bare => *i,
            _ => {
                return Err(SpecError::new(
                    item.at,
                    format!(
                        "preferred operators come from the heuristics of the open lists; `{item}` is not one of them"
                    ),
                ));
            }
        };
        if !evals[index].kind.preferred_operators {
            return Err(SpecError::new(
                item.at,
                format!("{} has no preferred operators", evals[index].kind.name),
            ));
        }
        evals[index].preferred = true;
    }
    Ok(())
}

/// Builds the configuration of a search spec.
pub fn build(expr: &Expr) -> Result<Config, SpecError> {
    search_of(expr, &Vec::new())
}

fn search_of(expr: &Expr, env: &Env) -> Result<Config, SpecError> {
    let expr = resolve(expr, env);
    let Some((raw_name, args)) = call_of(expr) else {
        return Err(SpecError::new(
            expr.at,
            format!("expected a search such as astar(lmcut()), found `{expr}`"),
        ));
    };
    let name = norm(raw_name);
    let mut call = Call::new(&name, expr.at, args);
    if name == "let" {
        let (env, body) = bind(&mut call, env)?;
        call.finish(&["name", "value", "body"])?;
        return search_of(&body, &env);
    }
    let Some((kind, fd_spelling)) = search_kind(&name) else {
        let corvus: Vec<&str> = search::KINDS.iter().map(|k| k.name).collect();
        let hint = if heuristic::named(&name).is_some() {
            format!(" (`{name}` is a heuristic; a spec is a search around it: astar({name}()))")
        } else {
            String::new()
        };
        return Err(SpecError::new(
            expr.at,
            format!("unknown search `{raw_name}`{hint} (searches: {})", corvus.join(", ")),
        ));
    };
    let shape = Shape::of(kind);
    let mut params = Vec::new();
    let (mut evals, explicit) = match shape.evaluated {
        true => {
            params.extend(["eval", "evals"]);
            match call.get(Some(0), &["eval", "evals"]) {
                Some(e) => (evaluators(e, env)?, true),
                None => (vec![Evaluator::new(kind.default_heuristic)], false),
            }
        }
        // Its entry's default stands in the configuration and is never built.
        false => (vec![Evaluator::new(kind.default_heuristic)], false),
    };
    let weight = if shape.weighted {
        params.push("w");
        match call.get(None, &["w"]) {
            Some(w) => number(w, "w")?,
            // Fast Downward's weighted searches default to w=1.
            None if fd_spelling => 1.0,
            None => 2.0,
        }
    } else {
        0.0
    };
    let mut strategy = (kind.strategy)(weight);
    // Preferred operators: the searches that use them.
    if shape.preferred {
        params.push("preferred");
        match call.get(None, &["preferred"]) {
            Some(p) => set_preferred(&mut evals, p, env)?,
            None if fd_spelling => evals.iter_mut().for_each(|e| e.preferred = false),
            None => {}
        }
    }
    if fd_spelling && !shape.preferred {
        params.push("preferred");
        only(
            call.get(None, &["preferred"]),
            |p| Ok(matches!(&resolve(p, env).kind, ExprKind::List(l) if l.is_empty())),
            "corvus's weighted A* uses no preferred operators",
        )?;
    }
    if fd_spelling || shape.preferred {
        params.push("boost");
        only(
            call.get(None, &["boost"]),
            |b| Ok(number(b, "boost")? == 1000.0),
            "corvus boosts preferred open lists by 1000 after progress (other boosts are not implemented)",
        )?;
    }
    // The search's own cost type orders nothing in a greedy search (g is no key).
    params.push("cost_type");
    let greedy = !(shape.weighted || kind.optimal);
    only(
        call.get(None, &["cost_type"]),
        |c| cost_type(c).map(|t| greedy || t == CostType::Normal),
        "corvus's searches count the task's costs; give the heuristics another with cost=... or transform=...",
    )?;
    if let Strategy::Lazy(options) = &mut strategy {
        if fd_spelling {
            params.extend(["reopen_closed", "randomize_successors", "preferred_successors_first"]);
            only(
                call.get(None, &["reopen_closed"]),
                |r| boolean(r).map(|b| !b),
                "corvus's lazy greedy search reopens no closed state (reopen_closed=true is not implemented)",
            )?;
            let random = call.get(None, &["randomize_successors"]).map(boolean).transpose()?;
            let first = call
                .get(None, &["preferred_successors_first"])
                .map(boolean)
                .transpose()?;
            options.order = match (random, first) {
                (Some(true), _) => SuccessorOrder::Shuffled,
                (_, Some(true)) => SuccessorOrder::PreferredFirst,
                _ => SuccessorOrder::Natural,
            };
        } else {
            params.push("explore");
            if let Some(e) = call.get(None, &["explore"]) {
                let text = call_of(e).map(|(n, _)| n).unwrap_or_default();
                options.exploration = Exploration::parse(text).ok_or_else(|| {
                    SpecError::new(
                        e.at,
                        format!(
                            "unknown exploration `{e}` (explorations: {})",
                            Exploration::NAMES.join(", ")
                        ),
                    )
                })?;
            }
            params.push("order");
            if let Some(o) = call.get(None, &["order"]) {
                let text = call_of(o).map(|(n, _)| n.replace('_', "-")).unwrap_or_default();
                options.order = SuccessorOrder::parse(&text).ok_or_else(|| {
                    SpecError::new(
                        o.at,
                        format!("unknown order `{o}` (orders: {})", SuccessorOrder::NAMES.join(", ")),
                    )
                })?;
            }
        }
    }
    if let Strategy::Walks(options) = &mut strategy {
        for (p, field) in WALK_PARAMETERS {
            params.push(p);
            if let Some(value) = call.get(None, &[p]) {
                *field(options) = count(value, p)?;
            }
        }
    }
    let mut probe = false;
    if shape.probe {
        params.push("probe");
        if let Some(p) = call.get(None, &["probe"]) {
            probe = boolean(p)?;
        }
    }
    call.finish(&params)?;
    let config = Config {
        search: strategy,
        evaluators: evals,
        probe,
        explicit_heuristic: explicit,
    };
    config.check().map_err(|message| SpecError::new(expr.at, message))?;
    Ok(config)
}

/// The registered search of a name in corvus's or Fast Downward's spelling,
/// and whether it was Fast Downward's.
fn search_kind(name: &str) -> Option<(&'static SearchKind, bool)> {
    if let Some(kind) = search::KINDS.iter().copied().find(|k| norm(k.name) == name) {
        return Some((kind, false));
    }
    let (_, corvus, _) = FD_SEARCHES.iter().find(|(fd, _, _)| *fd == name)?;
    search::kind(corvus).map(|k| (k, true))
}

/// The registered name of a search (`astar`, `lazy-wastar`): the entry
/// whose strategy it is, whatever its weight and successor order.
pub fn search_name(search: Strategy) -> &'static str {
    let (weight, plain) = match search {
        Strategy::WeightedAstar(w) => (w, search),
        Strategy::Lazy(o) => (
            o.weight.unwrap_or(2.0),
            Strategy::Lazy(LazyOptions {
                order: SuccessorOrder::default(),
                exploration: Exploration::None,
                ..o
            }),
        ),
        Strategy::Walks(_) => (2.0, Strategy::Walks(WalkOptions::default())),
        other => (2.0, other),
    };
    search::KINDS
        .iter()
        .find(|k| (k.strategy)(weight) == plain)
        .map_or("unknown-search", |k| k.name)
}

/// The spec of a configuration in corvus's spelling.
pub fn print(config: &Config) -> String {
    let evaluator = |e: &Evaluator| {
        let mut params = Vec::new();
        if e.cost_type != CostType::Normal {
            params.push(format!("cost={}", e.cost_type.name()));
        }
        if !e.offers_preferred {
            params.push("pref=false".to_string());
        }
        let h = format!("{}({})", e.kind.name, params.join(", "));
        if e.perimeter { format!("perimeter({h})") } else { h }
    };
    let evals: Vec<String> = config.evaluators.iter().map(evaluator).collect();
    let mut args = Vec::new();
    let name = search_name(config.search);
    let lazy = match config.search {
        Strategy::Lazy(o) => Some(o),
        _ => None,
    };
    match lazy {
        _ if config.search.is_symbolic() => {}
        Some(_) => args.push(format!("[{}]", evals.join(", "))),
        None => args.push(evals.join(", ")),
    }
    match config.search {
        Strategy::WeightedAstar(w) => args.push(format!("w={w}")),
        Strategy::Lazy(LazyOptions { weight: Some(w), .. }) => args.push(format!("w={w}")),
        _ => {}
    }
    let greedy_or_lazy = matches!(config.search, Strategy::Greedy | Strategy::Lazy(_) | Strategy::Walks(_));
    let default_preferred = config
        .evaluators
        .iter()
        .all(|e| e.preferred == e.kind.preferred_operators);
    if greedy_or_lazy && !default_preferred {
        let named: Vec<String> = config
            .evaluators
            .iter()
            .filter(|e| e.preferred)
            .map(|e| {
                let unique = config.evaluators.iter().filter(|o| o.kind == e.kind).count() == 1;
                if unique { e.kind.name.to_string() } else { evaluator(e) }
            })
            .collect();
        args.push(format!("preferred=[{}]", named.join(", ")));
    }
    if let Some(o) = lazy
        && o.order != SuccessorOrder::PreferredFirst
    {
        args.push(format!("order={}", o.order.name()));
    }
    if let Some(o) = lazy
        && o.exploration != Exploration::None
    {
        args.push(format!("explore={}", o.exploration.name()));
    }
    if let Strategy::Walks(mut options) = config.search {
        let defaults = &mut WalkOptions::default();
        for (p, field) in WALK_PARAMETERS {
            let value = *field(&mut options);
            if value != *field(defaults) {
                args.push(format!("{p}={value}"));
            }
        }
    }
    if config.probe {
        args.push("probe=true".to_string());
    }
    format!("{name}({})", args.join(", "))
}

/// The old command-line form `--search NAME --heuristic H1,H2` as a spec
/// (`--weight` W for the weighted searches).
pub fn shorthand(search: &str, heuristics: &[&HeuristicKind], weight: f64) -> String {
    let evals: Vec<String> = heuristics.iter().map(|h| format!("{}()", h.name)).collect();
    let lazy = search::kind(search).is_some_and(|k| (k.strategy)(weight).is_lazy());
    let mut args = Vec::new();
    if !evals.is_empty() {
        // Several in a list: an eager search then says it takes one.
        args.push(match lazy || evals.len() > 1 {
            true => format!("[{}]", evals.join(", ")),
            false => evals.join(", "),
        });
    }
    if matches!(search, "wastar" | "lazy-wastar") {
        args.push(format!("w={weight}"));
    }
    format!("{search}({})", args.join(", "))
}
