//! A plan as one self-contained web page: the film's frames as data and a
//! small script that draws them (pegs and discs, or the Sokoban board) with
//! controls to step and play. Everything is inline, so the page opens from
//! a file with no network.

use serde::Serialize;

use super::{Film, Frame, Setting};

/// The page around the data; `__TITLE__` and `__FILM__` are filled in.
const TEMPLATE: &str = include_str!("page.html");

/// What the page's script reads.
#[derive(Serialize)]
struct Data<'a> {
    family: &'static str,
    setting: &'a Setting,
    frames: Vec<FrameData<'a>>,
    plan_length: usize,
    error: Option<String>,
    rejected: Option<&'a str>,
}

#[derive(Serialize)]
struct FrameData<'a> {
    step: usize,
    action: Option<&'a str>,
    scene: &'a super::Scene,
}

impl<'a> From<&'a Frame> for FrameData<'a> {
    fn from(f: &'a Frame) -> Self {
        FrameData {
            step: f.step,
            action: f.action.as_deref(),
            scene: &f.scene,
        }
    }
}

/// Text for HTML element content.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// JSON that may stand inside a `<script>` element: `<`, `>` and `&` occur
/// only inside JSON strings, where their `\u` escapes mean the same, and
/// without them no name in the data can close the element.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// The page that steps through `film`, headed `title`.
pub fn page(film: &Film, title: &str) -> String {
    let data = Data {
        family: match film.setting {
            Setting::Towers { .. } => "Tower of Hanoi",
            Setting::Board { .. } => "Sokoban",
        },
        setting: &film.setting,
        frames: film.frames.iter().map(FrameData::from).collect(),
        plan_length: film.plan_length,
        error: film.error.as_ref().map(|e| e.to_string()),
        rejected: film.rejected.as_deref(),
    };
    // Serialising plain strings, numbers and maps cannot fail.
    let json = serde_json::to_string(&data).unwrap_or_else(|_| "null".to_string());
    let (head, tail) = TEMPLATE.split_once("__FILM__").unwrap_or((TEMPLATE, ""));
    let mut out = head.replace("__TITLE__", &escape_html(title));
    out.push_str(&script_safe(&json));
    out.push_str(tail);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_close_the_script_or_inject_markup() {
        assert_eq!(escape_html("a<b>&\"c"), "a&lt;b&gt;&amp;&quot;c");
        let json = serde_json::to_string(&["</script><b>&"]).expect("json");
        let safe = script_safe(&json);
        assert!(
            !safe.contains('<') && !safe.contains('>') && !safe.contains('&'),
            "{safe}"
        );
        let back: Vec<String> = serde_json::from_str(&safe).expect("still JSON");
        assert_eq!(back, ["</script><b>&"]);
    }
}
