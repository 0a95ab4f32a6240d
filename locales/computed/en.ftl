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

## Takeaways of the encoding panels (src/model/takeaway_encoding.rs)

takeaway-heatmap-one-column = Row i is added to the token at position i; with d = 1 its only column is a sine of period { $fastest } positions, with no cosine.
takeaway-heatmap-one-pair = Row i is added to the token at position i: its 2 columns, a sine and its cosine, both repeat every { $fastest } positions.
takeaway-heatmap = Row i is added to the token at position i: its { $d } columns slow from period { $fastest } (left) to { $slowest } positions (right).
takeaway-heatmap-odd = Row i is added to the token at position i: its { $d } columns slow from period { $fastest } (left) to { $slowest } positions (right); column { $last }, the last, is a lone sine (odd d).
# $map: "distance" (the figure shows ‖pᵢ − pⱼ‖) or "gram" (P·Pᵀ).
takeaway-similarity-odd = With odd d = { $d }, the diagonals of { $map ->
        [distance] the distances ‖pᵢ − pⱼ‖
       *[gram] P·Pᵀ
    } are not quite constant (Gram entries off their diagonal's mean by up to { $spread }): the unpaired sine makes pᵢ·pᵢ₊ₖ depend on i a little.
takeaway-similarity = Every diagonal of { $map ->
        [distance] the distances ‖pᵢ − pⱼ‖
       *[gram] P·Pᵀ
    } is constant (to { $spread }): pᵢ·pᵢ₊ₖ depends on the offset k only, the same at every position i, which i/n, changing with n, cannot give.

## The training panel before its module is loaded (src/model/train.rs, src/web/panels/train.rs).

train-takeaway-press-one = Press Train: 1 encoding learns the { $task } task on { $seeds } { $seeds ->
        [one] seed
       *[other] seeds
    }; the verdict states only what holds on every seed.
train-takeaway-press-many = Press Train: { $encodings } encodings learn the { $task } task side by side, each on { $seeds } { $seeds ->
        [one] seed
       *[other] seeds
    }; the verdict states only what holds on every seed.
train-progress-not-trained = Not trained yet.
train-trainer-cpu-asked = Training on the CPU, as the link asks (trainer=cpu): the same bits on every machine.
train-trainer-gpu-asked = Training on the GPU (WebGPU), as the link asks (trainer=gpu). Its sums run in another order than the CPU's, so its losses are close to trainer=cpu's but not the same bits; they repeat exactly on the same GPU and browser.
train-trainer-page-cpu = Training on the CPU: the page computes on the CPU ({ $why }), so the GPU trainer was not tried.
train-trainer-will-measure = Train first times the GPU and the CPU trainer, then trains on the faster.
train-trainer-measuring = Timing the GPU and the CPU trainer on these settings…
train-task-description = { $task ->
        [shift] y_i = x_(i−k): needs relative position (which token is k places back)
        [reverse] y_i = x_(n−1−i): needs absolute position and the length of the sequence
       *[histogram] y_i = how often x_i occurs in the sequence: needs no position at all
    }
train-chance-uniform = chance { $percent } (one token of { $vocab } guessed uniformly)
train-chance-most-likely = chance { $percent } (always guessing the most likely count at length { $length })
train-task-line = { $task }; { $chance }.
train-notice = { $key } = { $requested }: { $reason }; using { $key } = { $used }.
train-notice-range = { $field } must be between { $low } and { $high }
train-notice-d-multiple = d must be a multiple of 2 × heads = { $unit }
train-notice-learning-rate = the learning rate must be a number between { $low } and { $high }

## Takeaways of the curves and binary panels (src/model/takeaway_encoding.rs)

takeaway-curves-none = No column below d is chosen: pick one to see its curve.
# $slower: "yes" where columns to the right of these exist.
takeaway-curves-sine-and-cosine = Columns { $columns } repeat every { $period } positions: the cosine is the sine shifted by a quarter period ({ $quarter } positions){ $slower ->
        [yes] ; columns further right repeat more slowly
       *[no] { "" }
    }.
# $count: how many columns are named in $columns (1 or 2).
takeaway-curves-one-pair = { $count ->
        [one] Column { $columns } repeats
       *[other] Columns { $columns } repeat
    } every { $period } positions{ $slower ->
        [yes] ; columns further right repeat more slowly
       *[no] { "" }
    }.
# $more: the other columns, each takeaway-curves-more-columns (or -last-columns), joined by takeaway-curves-and.
takeaway-curves-pairs = { $count ->
        [one] Column { $columns } repeats
       *[other] Columns { $columns } repeat
    } every { $period } positions and { $more }: the frequency falls along the columns{ $twins ->
        [yes] , and each cosine is its sine shifted by a quarter period
       *[no] { "" }
    }.
takeaway-curves-more-columns = { $columns } every { $period }
takeaway-curves-last-columns = …, { $columns } every { $period }
takeaway-curves-and = { " and " }
# $bits: how many bits are shown; $listed: their periods, "2, 4, 8" or "2, 4, …, 64".
takeaway-binary-one-frequency = { $bits ->
        [1] Bit 0 repeats every 2 numbers
       *[other] Bit k repeats every 2ᵏ⁺¹ numbers ({ $listed })
    }; with d = { $d } P has one frequency, period { $period } positions: nothing slows down beside the bits.
takeaway-binary = { $bits ->
        [1] Bit 0 repeats every 2 numbers
       *[other] Bit k repeats every 2ᵏ⁺¹ numbers ({ $listed })
    }, pair j of P every { $period } × { $step }ʲ positions: both slow down to the right, bits by 2×, pairs smoothly by { $step }×.

## The panels' titles, captions (an embed's line), short names (the lesson button) and the lesson's parts (src/model/panels.rs)

lesson-part-self-attention = Self-attention
lesson-part-comparing = Comparing CNNs, RNNs and self-attention
lesson-part-positional-encoding = Positional encoding: absolute and relative
lesson-part-questions = Readers' questions
lesson-part-beyond = Beyond the chapter
lesson-part-exercise = Exercise 2: train
panel-attention-title = Attention weights of a sentence
panel-attention-caption = How much each word (a row) attends to each word (a column) in an untrained layer.
panel-attention-short = Attention weights
panel-pipeline-title = What exactly are Q, K and V?
panel-pipeline-caption = One attention layer stage by stage for head 0: Z, Q, K, V, scores, weights and output.
panel-pipeline-short = Q, K and V
panel-heads-title = Multi-head attention and valid_lens
panel-heads-caption = One attention map per head and sequence; every head of a sequence masks the same keys.
panel-heads-short = Multi-head
panel-complexity-title = CNN vs RNN vs self-attention
panel-complexity-caption = Operations and path lengths of a CNN, an RNN and self-attention as n grows.
panel-complexity-short = CNN vs RNN
panel-order-title = Order is lost without positional encoding
panel-order-caption = Without P, permuting the tokens only permutes the outputs; with P the outputs change.
panel-order-short = Order is lost
panel-heatmap-title = The positional encoding matrix P
panel-heatmap-caption = Row i is what is added to the token at position i; columns slow down from left to right.
panel-heatmap-short = Heatmap of P
panel-curves-title = Columns against position
panel-curves-caption = Columns of P against position: frequencies fall along the columns, in sine–cosine pairs.
panel-curves-short = Column curves
panel-binary-title = The binary analogy
panel-binary-caption = The bits of 0 … n − 1 beside P: both slow down from left to right.
panel-binary-short = Binary analogy
panel-projection-title = Relative position: one rotation for every i
panel-projection-caption = Moving δ positions turns pair j of every position by the same angle δ·ωⱼ.
panel-projection-short = Relative position
panel-similarity-title = Similarity and translation invariance
panel-similarity-caption = For even d the similarity of two positions' codes depends only on their offset.
panel-similarity-short = Similarity
panel-scaling-title = Scale by √d, and add rather than concatenate
panel-scaling-caption = Entry sizes of the embeddings, with and without × √d, and of P; adding vs concatenating.
panel-scaling-short = Scale by √d
panel-rope-title = RoPE: rotate queries and keys
panel-rope-caption = RoPE rotates queries and keys: the score depends on the offset only, up to rounding.
panel-rope-short = RoPE
panel-extension-title = Longer contexts: interpolation, NTK-aware scaling, YaRN
panel-extension-caption = How interpolation, NTK-aware scaling and YaRN change the frequency of each rotary pair.
panel-extension-short = Longer contexts
panel-alibi-title = ALiBi: a linear bias instead of a vector
panel-alibi-caption = ALiBi adds to each head's causal scores a penalty linear in the distance.
panel-alibi-short = ALiBi
panel-t5-title = T5's relative position buckets
panel-t5-caption = The bucket T5 gives each relative distance, in the encoder and in the decoder.
panel-t5-short = T5 buckets
panel-shaw-title = Relative position embeddings (Shaw et al.)
panel-shaw-caption = The sentence's logits with a learned key vector per clipped offset (Shaw et al. 2018).
panel-shaw-short = Shaw et al.
panel-learned-title = A learned position table
panel-learned-caption = A learned position table E as training starts: one row per position below Lmax.
panel-learned-short = Learned table
panel-nope-title = No encoding at all: the causal mask counts
panel-nope-caption = With a causal mask and no encoding, a first layer can output 1/t at position t.
panel-nope-short = No encoding
panel-stacking-title = Stacking attention layers
panel-stacking-caption = Stacked attention layers: how fast the rows become one, and whether the position survives.
panel-stacking-short = Stacking layers
panel-train-title = Can a model learn its positions?
panel-train-caption = Encodings trained side by side in the browser: loss, accuracy by length, a learned table.
panel-train-short = Train encodings

## The lesson's navigation (src/web/lesson.rs)

lesson-sections = { $count } sections
lesson-menu-title = The lesson's sections, in the chapter's order
lesson-menu-title-at = Section { $at } of { $count }: { $title }. The lesson's sections, in the chapter's order
# $which: "previous" or "next"; $shortcut: its key.
lesson-button-to = { $which ->
        [previous] Previous
       *[next] Next
    }: { $title } ({ $shortcut })
lesson-button = { $which ->
        [previous] Previous
       *[next] Next
    } section of the lesson ({ $shortcut })

## Read-outs and notes of the encoding panels (src/model/present.rs)

# $frequencies: how many frequencies P has; $shortest, $longest: periods in positions.
summary-p = P is { $n } × { $d } ({ $values } values) in [{ $min }, { $max }]; { $frequencies ->
        [1] 1 frequency, period { $shortest } positions
       *[other] { $frequencies } frequencies, periods from { $shortest } to { $longest } positions
    }.
summary-p-odd = { " " }d = { $d } is odd: the last column ({ $last }) is a sine with no cosine partner.
summary-p-odd-counted-from-one = { " " }d = { $d } is odd: the last column ({ $d } counted from 1) is a sine with no cosine partner.
summary-p-julia = { " " }Rows are positions { $first }…{ $last } and columns are numbered 1…{ $d }, as in the Julia code, whose P[c, i, 1] is column c at position i (the formulas' 0-based column c − 1).
summary-p-textbook = { " " }This is the textbook float32 P: every angle i·ω_j formed in float32, as d2l's PyTorch/MXNet code does.
summary-p-textbook-beside-exact = { " " }The heatmap is the exact P computed on the GPU; the curves and the projection use the textbook float32 P, computed on the CPU.
# $columns: "6 (sin), 7 (cos)".
summary-curves = { $count ->
        [one] Column
       *[other] Columns
    } { $columns } against position { $first }…{ $last }.
summary-curves-julia = { " " }Columns and positions are counted from 1 here, as in the Julia code and its figure's legend (the link's cols counts from 0: { $zero_based }). The chapter's sentence and the formula p[i, 2j] = sin(i·ω_j), p[i, 2j+1] = cos(i·ω_j) count columns from 0: its columns 6 and 7 (a sine and its cosine twin) and 8 and 9 are columns 7, 8 and 9, 10 here.
summary-curves-julia-figure = { " " }The Julia figure plots P[6:10, :]: column 6 is the cosine of pair 2 (its sine twin, column 5, is not drawn), 7 and 8 are pair 3, 9 and 10 pair 4.
summary-curves-textbook = { " " }Values of the textbook float32 P.
# $kind: sin or cos; $textbook: "yes" when the value is of the textbook float32 P.
readout-cell = position { $position }, column { $column } ({ $kind }, pair j = { $pair }): p = { $value }{ $textbook ->
        [yes] { " " }(textbook float32)
       *[no] { "" }
    }
readout-cell-julia = position { $position }, column { $column } ({ $kind }, pair j = { $pair }; Julia's P[{ $column }, { $position }, 1]): p = { $value }{ $textbook ->
        [yes] { " " }(textbook float32)
       *[no] { "" }
    }
note-projection = Pair j = { $pair } (columns { $first } and { $second }), offset δ = { $delta }: the same matrix M carries every p_i to p_(i+δ).
note-projection-counted-from-one = Pair j = { $pair } (columns { $first } and { $second } counted from 1; 0-based { $first_zero_based } and { $second_zero_based }), offset δ = { $delta }: the same matrix M carries every p_i to p_(i+δ).
note-projection-textbook = { " " }The points and the error below are of the textbook float32 P.
note-projection-textbook-beside-exact = { " " }The points and the error below are of the textbook float32 P, computed on the CPU (the heatmap above is the GPU's exact P).
note-textbook = Textbook float32: d2l's PyTorch/MXNet code forms the angle i·ω_j = i / base^(2j/d) in float32, which keeps 24 significant bits, so a number near i = { $last } is stored only to within about i·2⁻²⁴ ≈ { $spacing }, and the angle goes through such roundings (the power, then the division). Here the angles are off by up to { $angle_error } rad, and sin and cos inherit that error: M·p_i misses p_(i+δ) by up to { $projection_error }. The exact P never forms the angle in float32. (The Julia edition computes P in Float64.)
readout-projection-angle = ω_{ $pair } = { $omega } rad per position; δ·ω_{ $pair } = { $angle } rad ({ $degrees }°)
readout-projection-angle-turned = ω_{ $pair } = { $omega } rad per position; δ·ω_{ $pair } = { $angle } rad, the same turn as { $reduced } rad ({ $reduced_degrees }°)
note-projection-no-pair = With d = 1 the encoding has a single sine column, so there is no pair to project.
figure-projection-no-pair-title = d = 1: the only column is a sine.
figure-projection-no-pair-hint = There is no (sin, cos) pair to rotate: raise d.
