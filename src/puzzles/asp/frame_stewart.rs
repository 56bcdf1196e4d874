//! Hanoi instances the way the competition made them: a segment of the
//! Frame–Stewart move sequence for N discs on 4 pegs, from all discs on peg
//! 1 to all on peg 4. The state after `start` moves is `on0`, the state
//! after `start + steps` moves is `ongoal`, so `steps(K)` is optimal
//! (Frame–Stewart is optimal for 4 pegs, Bousch 2014, and a segment of a
//! shortest path is shortest).
//!
//! The split (move the top k discs aside with 4 pegs, the other N-k with 3,
//! then the k back on top) takes the smallest k of minimal length, the top k
//! go to peg "a" of `(from, to, a, b)` and come back via `(a, to, from, b)`.
//! With these choices the sequence reproduces the shared competition
//! instances that are exact segments (e.g. `0036-hanoi_tower-80-0`: 17
//! discs, moves 80..110).
//!
//! Three pegs (`pegs = 3`) is the classic puzzle with its 2^N-1 optimal
//! sequence from peg 1 to peg 3. The competition encoding treats disks 1–4
//! as pegs and only lets discs go onto declared disks, so the instance
//! simply does not declare `disk(4)`: peg 4 does not exist and cannot be
//! used, and the discs keep their numbers 5..N+4.

/// One move: disc (5..N+4) from peg or disc position `from` to peg `to`
/// (pegs 1..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub disc: u32,
    pub from: u32,
    pub to: u32,
}

/// Longest sequence prefix the generator walks; beyond that the numbers of
/// moves (2^N-1 for 3 pegs) are not useful instances anyway.
pub const MAX_MOVES: u64 = 50_000_000;
/// Most discs accepted.
pub const MAX_DISCS: u32 = 1000;

/// The optimal number of moves for `discs` discs, saturating.
pub fn optimal_length(discs: u32, pegs: u32) -> u64 {
    if pegs == 3 {
        return three_pegs(discs);
    }
    four_pegs_table(discs)[discs as usize].0
}

fn three_pegs(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// For every n up to `discs`: (moves, the split k).
fn four_pegs_table(discs: u32) -> Vec<(u64, u32)> {
    let mut table = vec![(0u64, 0u32); discs as usize + 1];
    for n in 1..=discs as usize {
        let mut best = (u64::MAX, 0u32);
        for (k, &(moves_k, _)) in table[..n].iter().enumerate() {
            let cost = moves_k.saturating_mul(2).saturating_add(three_pegs((n - k) as u32));
            if cost < best.0 {
                best = (cost, k as u32);
            }
        }
        table[n] = best;
    }
    table
}

/// Collects moves until `limit` are known.
struct Sequence {
    moves: Vec<Move>,
    limit: usize,
    split: Vec<(u64, u32)>,
}

impl Sequence {
    fn full(&self) -> bool {
        self.moves.len() >= self.limit
    }

    fn push(&mut self, disc: u32, from: u32, to: u32) {
        if !self.full() {
            self.moves.push(Move { disc, from, to });
        }
    }

    /// The discs `first..=last` (largest first) from `from` to `to` via `via`.
    fn three(&mut self, first: u32, last: u32, from: u32, to: u32, via: u32) {
        if first > last || self.full() {
            return;
        }
        self.three(first + 1, last, from, via, to);
        self.push(first, from, to);
        self.three(first + 1, last, via, to, from);
    }

    fn four(&mut self, first: u32, last: u32, from: u32, to: u32, a: u32, b: u32) {
        if first > last || self.full() {
            return;
        }
        let n = last - first + 1;
        if n == 1 {
            self.push(first, from, to);
            return;
        }
        let k = self.split[n as usize].1;
        let top = last + 1 - k;
        self.four(top, last, from, a, b, to);
        self.three(first, top - 1, from, to, b);
        self.four(top, last, a, to, from, b);
    }
}

/// The first `limit` moves of the optimal sequence (discs numbered 5..).
pub fn moves(discs: u32, pegs: u32, limit: usize) -> Vec<Move> {
    let mut seq = Sequence {
        moves: Vec::new(),
        limit,
        split: if pegs == 4 { four_pegs_table(discs) } else { Vec::new() },
    };
    if discs > 0 {
        let (first, last) = (5, discs + 4);
        if pegs == 4 {
            seq.four(first, last, 1, 4, 2, 3);
        } else {
            seq.three(first, last, 1, 3, 2);
        }
    }
    seq.moves
}

/// Writes `on0`-style facts for peg stacks, each peg bottom to top.
fn placement(pred: &str, stacks: &[Vec<u32>], out: &mut String) {
    for (peg, stack) in stacks.iter().enumerate() {
        let mut below = peg as u32 + 1;
        for &d in stack {
            out.push_str(&format!("{pred}({d},{below}).\n"));
            below = d;
        }
    }
}

/// The instance text for moves `start .. start+steps` of the sequence, in
/// the competition's layout (one fact per line: steps, time, disk, on0,
/// ongoal).
pub fn generate(discs: u32, pegs: u32, start: u64, steps: u64) -> Result<String, String> {
    if pegs != 3 && pegs != 4 {
        return Err(format!("--pegs must be 3 or 4, not {pegs}"));
    }
    if discs > MAX_DISCS {
        return Err(format!("at most {MAX_DISCS} discs"));
    }
    let total = optimal_length(discs, pegs);
    let end = start.checked_add(steps).ok_or("--start + --steps overflows")?;
    if end > total {
        return Err(format!(
            "the {pegs}-peg sequence for {discs} discs has {total} moves; moves {start}..{end} do not fit"
        ));
    }
    if end > MAX_MOVES {
        return Err(format!(
            "the segment ends after move {end}; at most {MAX_MOVES} moves are generated"
        ));
    }
    let sequence = moves(discs, pegs, end as usize);
    let mut stacks: Vec<Vec<u32>> = vec![Vec::new(); pegs as usize];
    stacks[0] = (5..discs + 5).collect();
    let apply = |m: &Move, stacks: &mut Vec<Vec<u32>>| -> Result<(), String> {
        let from = m.from as usize - 1;
        if stacks[from].pop() != Some(m.disc) {
            return Err(format!(
                "internal error: move of disc {} from peg {} is not legal",
                m.disc, m.from
            ));
        }
        stacks[m.to as usize - 1].push(m.disc);
        Ok(())
    };
    for m in &sequence[..start as usize] {
        apply(m, &mut stacks)?;
    }
    let mut out = format!("steps({steps}).\n");
    for t in 0..=steps {
        out.push_str(&format!("time({t}).\n"));
    }
    for d in (1..=pegs).chain(5..discs + 5) {
        out.push_str(&format!("disk({d}).\n"));
    }
    placement("on0", &stacks, &mut out);
    for m in &sequence[start as usize..] {
        apply(m, &mut stacks)?;
    }
    placement("ongoal", &stacks, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_lengths() {
        // Frame–Stewart numbers for 4 pegs (OEIS A007664).
        let expected = [
            0, 1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81, 97, 113, 129, 161, 193, 225,
        ];
        for (n, &e) in expected.iter().enumerate() {
            assert_eq!(optimal_length(n as u32, 4), e, "n = {n}");
            assert_eq!(moves(n as u32, 4, usize::MAX).len() as u64, e);
        }
        assert_eq!(moves(10, 3, usize::MAX).len(), 1023);
    }

    /// Every generated sequence is legal (checked by replay, larger discs
    /// have lower numbers) and ends with all discs on the last peg.
    #[test]
    fn sequences_are_legal() {
        for pegs in [3, 4] {
            for n in 0..12u32 {
                let mut stacks: Vec<Vec<u32>> = vec![Vec::new(); pegs as usize];
                stacks[0] = (5..n + 5).collect();
                for m in moves(n, pegs, usize::MAX) {
                    assert_eq!(stacks[m.from as usize - 1].pop(), Some(m.disc));
                    let to = &mut stacks[m.to as usize - 1];
                    assert!(to.last().is_none_or(|&top| top < m.disc));
                    to.push(m.disc);
                }
                assert_eq!(stacks[pegs as usize - 1], (5..n + 5).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn rejects_segments_outside_the_sequence() {
        assert!(generate(3, 4, 4, 2).is_err());
        assert!(generate(3, 5, 0, 1).is_err());
        assert!(generate(3, 4, 0, 5).is_ok());
    }
}
