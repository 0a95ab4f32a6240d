# A comment.
-model = the model
plain = Chance is { $chance }.
braces = { "{" }x{ "}" } and { "a \"quoted\" word" }
term = { -model } learns.
solves = { $names } { $count ->
        [one] solves
       *[other] solve
    } the task { $count ->
        [0] on no seed
        [one] on the one seed
       *[other] on all { $count } seeds
    }.
named = { $task ->
        [histogram] counts
       *[other] positions
    }
