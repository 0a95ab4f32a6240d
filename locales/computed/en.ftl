# The sentences the page's wasm computes from its numbers (src/model; see
# src/model/messages/mod.rs). Numbers come as arguments, formatted by the caller; a count also
# selects a plural form ([one], *[other]). A line break only inside a placeable.

# Used by the catalog runtime's own test.
messages-selftest = { $count } sentences

## Lists

# "a, b or c": `rest` is the items before the last, joined with ", ".
list-or = { $rest } or { $last }

## Notices: a link's or peLab.set's value that the page could not use, and what it used instead

notice-unknown-key = Unknown parameter '{ $key }' ignored.
notice-not-a-finite-number = { $key } = '{ $value }' is not a finite number; keeping { $key } unchanged.
notice-not-a-whole-number = { $key } = { $value } is not a whole number; using { $used }.
notice-integer-outside = { $key } = { $value } is outside { $min }…{ $max }; using { $key } = { $used }.
notice-not-a-switch = { $key } = '{ $value }' is not on or off (1 or 0); keeping { $key } unchanged.
notice-decimal-outside = { $key } = { $value } is outside { $min }…{ $max }{ $why }; using { $used }.
notice-why-extension-scale = { " " }(the context is extended s times)
notice-not-a-number = { $key } = '{ $value }' is not a number; keeping { $kept }.
notice-not-a-name = { $key } = '{ $value }' is not { $choices }; keeping { $kept }.
notice-base-outside = base = { $value } is outside { $min }…{ $max }; using { $used }.
notice-column-not-an-index = Column '{ $value }' is not a column index; ignored.
notice-column-zero-counted-from-one = Column 0 does not exist when columns are counted from 1; ignored.
notice-too-many-curves = At most { $limit } curves are drawn; keeping the first { $limit }.
notice-columns-do-not-exist = Column(s) { $columns } do not exist for d = { $d } (columns are 0…{ $last }).
notice-backend-limits = This compute backend handles up to d = { $d_max }, n = { $n_max }; using d = { $d }, n = { $n }.
notice-delta-does-not-fit = δ = { $requested } does not fit in a sequence of n = { $n } positions; using δ = { $used }.
notice-pair-does-not-exist = Frequency pair j = { $requested } does not exist for d = { $d }; using j = { $used }.
notice-heads-do-not-divide = heads = { $heads } does not divide d = { $d }; using heads = { $used }.
notice-sentence-cut = The sentence is longer than { $limit } characters; it was cut.
notice-sentence-too-long = The sentence has { $words } words; the attention panels use the first { $limit }.
notice-valid-len-too-long = valid_len = { $value } is more than the { $tokens } tokens; using all of them (no mask).
notice-lens-invalid = lens = '{ $value }' must be two valid lengths such as 3,2; keeping { $first },{ $second }.
notice-perm-invalid = perm = '{ $value }' is not swap, none or a shuffle seed (a whole number); keeping { $kept }.
notice-task-unknown = task = '{ $value }' is not shift, reverse or histogram; keeping { $kept }.
notice-trainer-unknown = trainer = '{ $value }' is not auto, cpu or gpu; keeping { $kept }.
notice-tenc-unknown-name = tenc: '{ $value }' is not one of { $choices }; left out.
notice-tenc-empty = tenc = '{ $value }' names no encoding; keeping { $kept }.
notice-preset-unknown = preset = '{ $value }' is not one of: { $choices }.
notice-compute-unknown = compute = '{ $value }' is not auto, gpu or cpu; using auto.
notice-lang-unknown = lang = '{ $value }' is not one of: { $choices }; showing English.
notice-theme-unknown = theme = '{ $value }' is not auto, light or dark; following the system.

## The compute badge and status line

badge-webgpu = WebGPU ({ $adapter })
badge-cpu = CPU · Rust → WebAssembly
badge-cpu-because = CPU · Rust → WebAssembly ({ $why })
reason-compute-cpu = chosen by ?compute=cpu
reason-no-webgpu = no WebGPU here
reason-software-adapter = auto: the only WebGPU adapter is a software fallback, which runs on the CPU and is slower than this path; ?compute=gpu uses it anyway
reason-software-adapter-named = auto: the only WebGPU adapter is a software fallback, { $adapter }, which runs on the CPU and is slower than this path; ?compute=gpu uses it anyway
status-frame-time = last update { $ms } ms
notice-gpu-failed = WebGPU stopped working ({ $reason }); switched to the CPU path.
notice-gpu-unavailable = WebGPU was asked for (?compute=gpu) but is not available: { $reason }. Using the CPU path.
notice-listener-chain = A peLab.on('change') listener kept calling peLab.set: stopped after { $limit } rounds of changes (the last change was not applied).
