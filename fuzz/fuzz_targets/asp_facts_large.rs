//! The ASP fact reader and the instance checks at sizes up to 10^5 facts,
//! where a reader that is quadratic in the number of facts (pest's
//! `line_col` per fact took 42 s for 5·10^4) turns into a timeout.
//!
//! The first byte chooses the number of copies of the rest of the input: 1
//! to 64; or, for one input in 128 (by a hash of the whole input, so that
//! a corpus of large inputs cannot make every run slow), 1,000 to about
//! 10^5, as the first byte says. In each copy, `#` (which no fact
//! contains) becomes the copy's number, so `step(#).` gives distinct facts.
//! The text is at most 4 MB.
#![no_main]

use libfuzzer_sys::fuzz_target;

const MAX_TEXT: usize = 4 << 20;

fuzz_target!(|data: &[u8]| {
    let [count, rest @ ..] = data else {
        return;
    };
    let Ok(template) = std::str::from_utf8(rest) else {
        return;
    };
    // FNV-1a.
    let hash = data
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let copies = if hash % 128 == 0 {
        1000 + usize::from(*count) * 388
    } else {
        usize::from(count % 64) + 1
    };
    let copies = copies.min(MAX_TEXT / template.len().max(1)).max(1);
    let mut text = String::with_capacity(copies * (template.len() + 8));
    for i in 0..copies {
        text.push_str(&template.replace('#', &i.to_string()));
        text.push('\n');
    }
    let _ = corvus::puzzles::asp::facts::parse_facts(&text, "fuzz.asp");
    let _ = corvus::puzzles::asp::Instance::parse(&text, "fuzz.asp", None);
});
