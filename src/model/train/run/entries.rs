//! [`Entries`]: named values in their order, serialised as a map (the stats' per-encoding and
//! per-length tables).

use std::borrow::Borrow;
use std::ops::Index;

use serde::{Serialize, Serializer};

/// Named values in the order they were added, written out as a map (the page's serializer writes
/// maps as plain objects). Each list here is built once in its order, so it needs neither a
/// `BTreeMap`'s ordering nor its code in the page's wasm.
#[derive(Debug, Clone, PartialEq)]
pub struct Entries<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<K: Borrow<str>, V> Entries<K, V> {
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0
            .iter()
            .find(|(k, _)| k.borrow() == key)
            .map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: Borrow<str>, V> Index<&str> for Entries<K, V> {
    type Output = V;

    fn index(&self, key: &str) -> &V {
        self.get(key)
            .unwrap_or_else(|| panic!("no entry named {key:?}"))
    }
}

impl<K: Serialize, V: Serialize> Serialize for Entries<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}
