# The training panel's sentences, computed from a run's numbers (src/model/train; see
# src/model/messages/mod.rs). Numbers come as arguments, formatted by the caller; a count also
# selects a plural form ([one], *[other]). A line break only inside a placeable.
