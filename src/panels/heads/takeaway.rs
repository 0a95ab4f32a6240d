//! The heads panel's takeaway: yes, `np.tile` is a bug, then the keys each sequence's heads mask
//! and how many maps `np.tile` would get wrong. The sentences are messages of `locales/computed`
//! (`takeaway-heads-…`). Tested natively; the view writes it above its "More".

/// Which keys of a 4-token sequence a valid length masks, in words.
fn masked_keys(valid_len: usize, tokens: usize) -> String {
    match valid_len {
        0 => crate::message!("takeaway-heads-every-key"),
        v if v >= tokens => crate::message!("takeaway-heads-no-key"),
        v if v + 1 == tokens => crate::message!("takeaway-heads-key", key = v),
        v => crate::message!("takeaway-heads-keys", first = v, last = tokens - 1),
    }
}

/// The heads panel's takeaway: yes, `np.tile` is a bug (a sequence's heads sit side by side in
/// the batch), then every head of a sequence masking the same keys (its own `valid_len`), and
/// how many maps `np.tile` would get wrong.
pub fn takeaway(
    valid_lens: &[usize],
    heads: usize,
    tokens: usize,
    wrong_with_tile: usize,
) -> String {
    // The second sequence's clause drops the repeated subject and verb ("all 4 of sequence 1
    // keys 2–3"), so the sentence stays short.
    let sequences: Vec<String> = valid_lens
        .iter()
        .enumerate()
        .map(|(b, &v)| {
            // d2l's masked_softmax on a fully masked row: equal scores, uniform weights.
            let uniform = if v == 0 {
                crate::message!("takeaway-heads-uniform")
            } else {
                String::new()
            };
            let keys = masked_keys(v, tokens);
            match (heads == 1, b == 0) {
                (true, true) => crate::message!(
                    "takeaway-heads-first-one-head",
                    sequence = b,
                    keys = keys,
                    valid_len = v,
                    uniform = uniform
                ),
                (true, false) => crate::message!(
                    "takeaway-heads-next-one-head",
                    sequence = b,
                    keys = keys,
                    valid_len = v,
                    uniform = uniform
                ),
                (false, true) => crate::message!(
                    "takeaway-heads-first",
                    heads = heads,
                    sequence = b,
                    keys = keys,
                    valid_len = v,
                    uniform = uniform
                ),
                (false, false) => crate::message!(
                    "takeaway-heads-next",
                    heads = heads,
                    sequence = b,
                    keys = keys,
                    valid_len = v,
                    uniform = uniform
                ),
            }
        })
        .collect();
    let sequences = sequences.join(&crate::message!("takeaway-heads-clause-separator"));
    let tile = if wrong_with_tile == 0 {
        crate::message!("takeaway-heads-tile-changes-nothing")
    } else {
        crate::message!(
            "takeaway-heads-tile-wrong",
            wrong = wrong_with_tile,
            maps = valid_lens.len() * heads
        )
    };
    crate::message!("takeaway-heads", sequences = sequences, tile = tile)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::heads::{repeat_valid_lens, tile_valid_lens};

    /// How many of the batch·heads maps np.tile gives another length than repeat.
    fn wrong_maps(valid_lens: &[usize], heads: usize) -> usize {
        let right = repeat_valid_lens(valid_lens, heads).unwrap();
        let tiled = tile_valid_lens(valid_lens, heads).unwrap();
        right.iter().zip(&tiled).filter(|(a, b)| a != b).count()
    }

    #[test]
    fn heads_answer_the_tile_question_and_count_the_wrong_maps() {
        // "the heads of one sequence sit side by side in the batch": repeat's layout, b·heads + h.
        assert_eq!(repeat_valid_lens(&[1, 2], 2).unwrap(), [1, 1, 2, 2]);
        assert_eq!(tile_valid_lens(&[1, 2], 2).unwrap(), [1, 2, 1, 2]);
        assert_eq!(wrong_maps(&[3, 2], 4), 4);
        assert_eq!(
            takeaway(&[3, 2], 4, 4, wrong_maps(&[3, 2], 4)),
            "Yes, a bug: a sequence's heads sit side by side in the batch and must all use its valid_len, so repeat, not tile. Here all 4 heads of sequence 0 mask key 3 (valid_len 3), all 4 of sequence 1 keys 2–3 (valid_len 2); np.tile would give 4 of 8 maps the wrong length."
        );
        // One head: tile and repeat agree, and the sentence says so.
        assert_eq!(wrong_maps(&[0, 4], 1), 0);
        let text = takeaway(&[0, 4], 1, 4, 0);
        assert!(
            text.contains(
                "Here sequence 0's one head masks every key (valid_len 0: uniform weights), sequence 1's no key (valid_len 4); np.tile would change nothing here."
            ),
            "{text}"
        );
    }
}
