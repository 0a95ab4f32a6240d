# The sentences the page's wasm computes from its numbers (src/model; see
# src/model/messages/mod.rs). Numbers come as arguments, formatted by the caller; a count also
# selects a plural form ([one], *[other]). A line break only inside a placeable.

# Used by the catalog runtime's own test.
messages-selftest = { $count } sentences
