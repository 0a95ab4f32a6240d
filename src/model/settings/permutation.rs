//! The order panel's permutation (`perm`): the choice, the permutation it gives for a sentence,
//! and the next shuffle of the Shuffle button.

use crate::math::order::{shuffle, swap_permutation};
use crate::math::tokens::MAX_TOKENS;

/// Which permutation the order panel applies to the tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermutationChoice {
    /// Leave every token in place.
    Identity,
    /// The seeds' pair: exchange "3" and "4" ("3 oranges and 4 bananas" ↔ "4 oranges and 3
    /// bananas"); the first and last tokens when the sentence lacks either.
    Swap,
    /// A deterministic shuffle (`order::shuffle`) with this seed.
    Shuffle(u64),
}

/// The permutation the order panel uses for a sentence, and how to say what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenPermutation {
    /// Item r is the index of the token that moves to position r (`order::permute_rows`).
    pub permutation: Vec<usize>,
    pub description: String,
}

/// See [`PermutationChoice`]: the swap of "3" and "4" falls back to the first and last tokens when
/// the sentence lacks either, and fewer than two tokens leave nothing to permute.
pub fn choose_permutation<S: AsRef<str>>(
    choice: PermutationChoice,
    tokens: &[S],
) -> ChosenPermutation {
    let n = tokens.len().min(MAX_TOKENS);
    let tokens = &tokens[..n];
    let identity: Vec<usize> = (0..n).collect();
    if n < 2 {
        return ChosenPermutation {
            permutation: identity,
            description: crate::message!("order-permutation-too-few-tokens"),
        };
    }
    match choice {
        PermutationChoice::Identity => ChosenPermutation {
            permutation: identity,
            description: crate::message!("order-permutation-none"),
        },
        PermutationChoice::Swap => match swap_permutation(tokens, "3", "4") {
            Ok(permutation) => ChosenPermutation {
                permutation,
                description: crate::message!("order-permutation-swap"),
            },
            Err(_) => {
                let mut permutation = identity;
                permutation.swap(0, n - 1);
                ChosenPermutation {
                    permutation,
                    description: crate::message!(
                        "order-permutation-swap-first-and-last",
                        first = tokens[0].as_ref(),
                        last = tokens[n - 1].as_ref()
                    ),
                }
            }
        },
        PermutationChoice::Shuffle(seed) => ChosenPermutation {
            permutation: shuffle(n, seed),
            description: crate::message!("order-permutation-shuffle", seed = seed.to_string()),
        },
    }
}

/// The next shuffle seed after `seed` whose permutation of n tokens moves at least one token (any
/// seed will do for n < 2). Deterministic, so a test can predict it.
pub fn next_shuffle_seed(n: usize, seed: u64) -> u64 {
    let mut next = seed.wrapping_add(1);
    if n < 2 {
        return next;
    }
    for _ in 0..1000 {
        let permutation = shuffle(n, next);
        if permutation.iter().enumerate().any(|(i, &p)| i != p) {
            return next;
        }
        next = next.wrapping_add(1);
    }
    next
}

/// The order panel's permutation as a link writes it: `none`, `swap`, or the shuffle's seed.
pub fn permutation_text(permutation: PermutationChoice) -> String {
    match permutation {
        PermutationChoice::Identity => "none".into(),
        PermutationChoice::Swap => "swap".into(),
        PermutationChoice::Shuffle(seed) => seed.to_string(),
    }
}
