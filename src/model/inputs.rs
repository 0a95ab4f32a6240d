//! What a panel's numbers and picture were computed from: a typed key. The page recomputes a
//! panel when its key differs from the one it last rendered with. Each part keeps its type, so
//! two different inputs never print to the same text (a sentence holding the separator, `1.0`
//! against `1`), and a real number is compared by its bits (a NaN equals itself: a panel is not
//! recomputed forever).

use std::cell::RefCell;

use crate::math::layer::ProjectionMode;
use crate::math::position::{Encoding, PositionScheme};
use crate::math::stacking::{PositionInjection, StackOptions};
use crate::math::t5::BucketLayout;
use crate::model::settings::{PermutationChoice, SimilarityView};

/// One part of a key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part {
    Whole(u64),
    Signed(i64),
    /// A real number's bits.
    Real(u64),
    Flag(bool),
    Text(String),
    /// An optional setting left unset.
    Unset,
}

impl From<usize> for Part {
    fn from(value: usize) -> Self {
        Part::Whole(value as u64)
    }
}

impl From<u32> for Part {
    fn from(value: u32) -> Self {
        Part::Whole(u64::from(value))
    }
}

impl From<u64> for Part {
    fn from(value: u64) -> Self {
        Part::Whole(value)
    }
}

impl From<i64> for Part {
    fn from(value: i64) -> Self {
        Part::Signed(value)
    }
}

impl From<f64> for Part {
    fn from(value: f64) -> Self {
        Part::Real(value.to_bits())
    }
}

impl From<bool> for Part {
    fn from(value: bool) -> Self {
        Part::Flag(value)
    }
}

impl From<&str> for Part {
    fn from(value: &str) -> Self {
        Part::Text(value.to_string())
    }
}

impl From<String> for Part {
    fn from(value: String) -> Self {
        Part::Text(value)
    }
}

impl<T: Into<Part>> From<Option<T>> for Part {
    fn from(value: Option<T>) -> Self {
        value.map_or(Part::Unset, Into::into)
    }
}

/// A panel's inputs, part by part, in a fixed order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Inputs(Vec<Part>);

impl Inputs {
    pub fn new() -> Self {
        Inputs::default()
    }

    /// Adds one part.
    pub fn with(mut self, part: impl Into<Part>) -> Self {
        self.0.push(part.into());
        self
    }

    /// Adds every part of another key (a key shared by several panels).
    pub fn with_all(mut self, other: Inputs) -> Self {
        self.0.extend(other.0);
        self
    }

    /// Adds a value with no part of its own (an enum of a menu, a small struct of settings) part
    /// by part ([`KeyParts`]), each part keeping its type.
    pub fn with_parts(self, value: &impl KeyParts) -> Self {
        value.add_to(self)
    }

    /// Adds a list (words, indices), each item its own part, with the list's length first.
    pub fn with_list<T: Into<Part>>(mut self, items: impl ExactSizeIterator<Item = T>) -> Self {
        self.0.push(Part::Whole(items.len() as u64));
        self.0.extend(items.map(Into::into));
        self
    }
}

/// A value that adds itself to a key part by part: an enum of a menu by its variant's index (and
/// its data), a struct of settings field by field. Written out rather than by the values' `Debug`
/// text, which carried every `Debug` implementation and its formatting into the page's first
/// load (1,242 B gzip; these parts cost 306 B of it back).
pub trait KeyParts {
    fn add_to(&self, inputs: Inputs) -> Inputs;
}

/// Fieldless enums: their variant's index.
macro_rules! variant_index_parts {
    ($($ty:ty),*) => {
        $(impl KeyParts for $ty {
            fn add_to(&self, inputs: Inputs) -> Inputs {
                inputs.with(*self as u64)
            }
        })*
    };
}
variant_index_parts!(Encoding, ProjectionMode, PositionInjection, SimilarityView);

impl KeyParts for PermutationChoice {
    fn add_to(&self, inputs: Inputs) -> Inputs {
        match *self {
            PermutationChoice::Identity => inputs.with(0_u64),
            PermutationChoice::Swap => inputs.with(1_u64),
            PermutationChoice::Shuffle(seed) => inputs.with(2_u64).with(seed),
        }
    }
}

impl KeyParts for BucketLayout {
    fn add_to(&self, inputs: Inputs) -> Inputs {
        inputs
            .with(self.bidirectional)
            .with(self.num_buckets)
            .with(self.max_distance)
    }
}

impl KeyParts for PositionScheme {
    fn add_to(&self, inputs: Inputs) -> Inputs {
        inputs
            .with_parts(&self.encoding)
            .with(self.base)
            .with(self.alibi_heads)
            .with(self.clip)
            .with(self.learned_max)
            .with_parts(&self.t5)
            .with(self.seed)
            .with(self.first_position)
    }
}

impl KeyParts for StackOptions {
    fn add_to(&self, inputs: Inputs) -> Inputs {
        inputs
            .with(self.n)
            .with(self.d)
            .with(self.layers)
            .with(self.skip)
            .with(self.layer_norm)
            .with(self.causal)
            .with_parts(&self.positions)
            .with(self.seed)
    }
}

/// The last value computed and the inputs it was computed from: a cache of one entry, owned by
/// whoever owns the page's state (the app), so that no value outlives the app or hides in a
/// global. Interior mutability lets a panel fill it while it reads the rest of its context.
#[derive(Debug)]
pub struct Memo<T: Clone> {
    last: RefCell<Option<(Inputs, T)>>,
}

impl<T: Clone> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            last: RefCell::new(None),
        }
    }
}

impl<T: Clone> Memo<T> {
    /// The value for `inputs`: the cached one if it was computed from the same inputs, else
    /// `compute()`'s, which is kept (a failure keeps nothing).
    pub fn get_or_try<E>(
        &self,
        inputs: Inputs,
        compute: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        if let Some((done, value)) = self.last.borrow().as_ref() {
            if *done == inputs {
                return Ok(value.clone());
            }
        }
        let value = compute()?;
        *self.last.borrow_mut() = Some((inputs, value.clone()));
        Ok(value)
    }

    /// [`Memo::get_or_try`] for a computation that cannot fail.
    pub fn get_or(&self, inputs: Inputs, compute: impl FnOnce() -> T) -> T {
        match self.get_or_try(inputs, || Ok::<T, std::convert::Infallible>(compute())) {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_added_part_by_part_tell_every_field_apart() {
        let key = |value: &dyn Fn(Inputs) -> Inputs| value(Inputs::new());
        let scheme = PositionScheme::absolute();
        let base = key(&|i| i.with_parts(&scheme));
        for changed in [
            PositionScheme {
                clip: scheme.clip + 1,
                ..scheme
            },
            PositionScheme {
                encoding: Encoding::Rope,
                ..scheme
            },
            PositionScheme {
                t5: BucketLayout {
                    bidirectional: !scheme.t5.bidirectional,
                    ..scheme.t5
                },
                ..scheme
            },
            PositionScheme {
                first_position: 1,
                ..scheme
            },
        ] {
            assert_ne!(key(&|i| i.with_parts(&changed)), base, "{changed:?}");
        }
        assert_eq!(key(&|i| i.with_parts(&scheme)), base);
        let shuffles = [1, 2].map(|seed| key(&|i| i.with_parts(&PermutationChoice::Shuffle(seed))));
        assert_ne!(shuffles[0], shuffles[1]);
        assert_ne!(
            key(&|i| i.with_parts(&PermutationChoice::Swap)),
            key(&|i| i.with_parts(&PermutationChoice::Identity))
        );
        let options = StackOptions::default();
        assert_ne!(
            key(&|i| i.with_parts(&options)),
            key(&|i| i.with_parts(&StackOptions {
                positions: PositionInjection::EveryLayer,
                ..options
            }))
        );
    }

    #[test]
    fn a_memo_computes_once_per_inputs_and_keeps_no_failure() {
        let memo = Memo::<u32>::default();
        let mut runs = 0;
        let mut get = |key: usize, fail: bool| {
            memo.get_or_try(Inputs::new().with(key), || {
                runs += 1;
                if fail {
                    Err("failed")
                } else {
                    Ok(key as u32 * 10)
                }
            })
        };
        assert_eq!(get(1, false), Ok(10));
        assert_eq!(get(1, true), Ok(10), "the same inputs: no recompute");
        assert_eq!(get(2, true), Err("failed"));
        assert_eq!(get(1, false), Ok(10), "a failure replaced nothing");
        assert_eq!(get(2, false), Ok(20));
        assert_eq!(runs, 3);
        assert_eq!(memo.get_or(Inputs::new().with(2usize), || 0), 20);
    }

    #[test]
    fn text_that_prints_alike_stays_apart() {
        // As one formatted string both would read "a|b|c".
        let one = Inputs::new().with_list(["a|b", "c"].into_iter());
        let two = Inputs::new().with_list(["a", "b|c"].into_iter());
        assert_ne!(one, two);
        let three = Inputs::new().with_list(["a", "b"].into_iter()).with("c");
        let four = Inputs::new().with_list(["a", "b", "c"].into_iter());
        assert_ne!(
            three, four,
            "the length keeps the words apart from what follows"
        );
    }

    #[test]
    fn numbers_keep_their_type() {
        assert_ne!(Inputs::new().with(1usize), Inputs::new().with(1.0));
        assert_ne!(Inputs::new().with(1i64), Inputs::new().with(1usize));
        assert_ne!(
            Inputs::new().with(None::<usize>),
            Inputs::new().with(0usize)
        );
        assert_eq!(Inputs::new().with(Some(3usize)), Inputs::new().with(3usize));
    }

    #[test]
    fn a_nan_equals_itself_and_signed_zeros_differ() {
        assert_eq!(Inputs::new().with(f64::NAN), Inputs::new().with(f64::NAN));
        assert_ne!(Inputs::new().with(0.0), Inputs::new().with(-0.0));
        assert_eq!(Inputs::new().with(10000.0), Inputs::new().with(1e4));
    }

    #[test]
    fn shared_parts_join_in_order() {
        let shared = Inputs::new().with(2usize).with(true);
        assert_eq!(
            Inputs::new().with("x").with_all(shared.clone()),
            Inputs::new().with("x").with(2usize).with(true)
        );
        assert_ne!(
            Inputs::new().with_all(shared).with("x"),
            Inputs::new().with("x").with(2usize).with(true)
        );
    }
}
