//! Writing plans in the IPC format, as the planner hands them out.

use super::Plan;

/// Writes a plan in the IPC format, ending with `; cost = N (unit cost)` or
/// `; cost = N (general cost)`.
pub fn format_plan(plan: &Plan, cost: u64, unit_cost: bool) -> String {
    let mut out = String::new();
    for s in &plan.steps {
        out.push('(');
        out.push_str(&s.action);
        for a in &s.args {
            out.push(' ');
            out.push_str(a);
        }
        out.push_str(")\n");
    }
    out.push_str(&format!(
        "; cost = {cost} ({})\n",
        if unit_cost { "unit cost" } else { "general cost" }
    ));
    out
}
