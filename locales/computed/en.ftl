# The sentences the page's wasm computes from its numbers (src/model; see
# src/model/messages/mod.rs). Numbers come as arguments, formatted by the caller; a count also
# selects a plural form ([one], *[other]). A line break only inside a placeable.

# Used by the catalog runtime's own test.
messages-selftest = { $count } sentences

## Lists

# "a, b or c": `rest` is the items before the last, joined with ", ".
list-or = { $rest } or { $last }
# Between the names of a list (a link's choices, the panels).
list-separator = { ", " }

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
notice-tenc-unknown-name = tenc: '{ $value }' is not one of { $choices }; left out.
notice-tenc-empty = tenc = '{ $value }' names no encoding; keeping { $kept }.
notice-preset-unknown = preset = '{ $value }' is not one of: { $choices }.
notice-compute-unknown = compute = '{ $value }' is not auto, gpu or cpu; using auto.
notice-lang-unknown = lang = '{ $value }' is not one of: { $choices }; showing English.

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

# The heatmap's question: why early positions look alike, and whether odd d works. $fastest, $slowest: periods in positions.
takeaway-heatmap-one-column = With d = 1 each row is a single sine of period { $fastest } positions, so rows whose sines are close look alike, early or late; odd d works: the one column just has no cosine.
takeaway-heatmap-one-pair = Neighbouring rows look alike everywhere, not only early: each row is a sine and its cosine, turned a fixed step per position (period { $fastest }). Odd d works too: the last column is then a sine without its cosine.
takeaway-heatmap = Neighbouring rows look alike everywhere, not only early: each column is a wave, from period { $fastest } positions (left) to { $slowest } (right), so close rows differ most on the left. Odd d works too: the last column is then a sine without its cosine.
# $last: the last column's number.
takeaway-heatmap-odd = Neighbouring rows look alike everywhere, not only early: each column is a wave, from period { $fastest } positions (left) to { $slowest } (right), so close rows differ most on the left. Odd d = { $d } works: column { $last }, the last, is a sine without its cosine.
# The similarity panel answers "why not i/n?" with the chapter's synthesis: why sine and cosine. $map: "distance" (the figure shows ‖pᵢ − pⱼ‖) or "gram" (P·Pᵀ); $spread: the largest deviation of a Gram entry from its diagonal's mean.
takeaway-similarity-one-column = Because i/n changes whenever n does, while sine and cosine give each position a fixed code; with d = 1 that code is one sine, bounded (in [−1, 1]) but with no cosine to rotate with it, so pᵢ·pᵢ₊ₖ depends on i: the diagonals of { $map ->
        [distance] the distances ‖pᵢ − pⱼ‖
       *[gram] P·Pᵀ
    } vary (Gram entries by up to { $spread }).
takeaway-similarity-odd = Because i/n changes whenever n does, while sine and cosine give each position a fixed code: bounded (in [−1, 1]), unique, and carried k places on by the same rotation in each (sin, cos) pair; with odd d = { $d } the last sine has no cosine, so pᵢ·pᵢ₊ₖ depends on i too: the diagonals of { $map ->
        [distance] the distances ‖pᵢ − pⱼ‖
       *[gram] P·Pᵀ
    } vary (Gram entries by up to { $spread }).
takeaway-similarity = Because i/n changes whenever n does, while sine and cosine give each position a fixed code: bounded (in [−1, 1]), unique, and carried k places on by the same rotation anywhere, so pᵢ·pᵢ₊ₖ depends on k only: every diagonal of { $map ->
        [distance] the distances ‖pᵢ − pⱼ‖ is constant (in P·Pᵀ to { $spread })
       *[gram] P·Pᵀ is constant (to { $spread })
    }, early positions no more alike than late ones.

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

# The curves' question: why do columns 6, 7 oscillate faster than 8, 9, and why is each cosine its sine shifted by a quarter period? $why starts the takeaway (one of the two below); $here: the chosen columns' periods (the messages after them).
takeaway-curves-why = Each column pair j is the sine and cosine of one angle, i·ω_j, with ω_j = base^(−2j/d) smaller to the right, and cos x = sin(x + π/2): a quarter period apart.
takeaway-curves-why-one-column = With d = 1 the only column is the sine of one angle, i·ω_0, with ω_0 = 1 and no cosine.
takeaway-curves = { $why } { $here }
takeaway-curves-none = Pick a column below d to see its curve.
takeaway-curves-sine-and-cosine = Here columns { $columns } repeat every { $period } positions, so a quarter period is { $quarter } positions.
# $count: how many columns are named in $columns (1 or 2).
takeaway-curves-one-pair = { $count ->
        [one] Here column { $columns } repeats
       *[other] Here columns { $columns } repeat
    } every { $period } positions.
# $more: the other columns, each takeaway-curves-more-columns (or -last-columns), joined by takeaway-curves-and.
takeaway-curves-pairs = { $count ->
        [one] Here column { $columns } repeats
       *[other] Here columns { $columns } repeat
    } every { $period } positions and { $more }.
takeaway-curves-more-columns = { $columns } every { $period }
takeaway-curves-last-columns = …, { $columns } every { $period }
takeaway-curves-and = { " and " }
# The binary panel's question: does the binary encoding's frequency correspond to P's, and why? $bits: how many bits are shown; $listed: their periods, "2, 4, 8" or "2, 4, …, 64".
takeaway-binary-one-frequency = They correspond in principle: both tell positions apart with fast and slow columns, the bits slowing by 2× per column ({ $bits ->
        [1] bit 0 repeats every 2 numbers
       *[other] bit k repeats every 2ᵏ⁺¹ numbers: { $listed }
    }); with d = { $d } P has only one frequency, period { $period } positions.
takeaway-binary = They correspond: both tell positions apart with fast columns on the left and slower ones to the right, the bits slowing by 2× per column ({ $bits ->
        [1] bit 0 repeats every 2 numbers
       *[other] bit k repeats every 2ᵏ⁺¹ numbers: { $listed }
    }), P's pairs smoothly by { $step }× (pair j every { $period } × { $step }ʲ positions).

## The panels' titles, captions (an embed's line), short names (the lesson button) and the lesson's parts (src/model/panels.rs)

lesson-part = { $part ->
    [self-attention] Self-attention
    [comparing] Comparing CNNs, RNNs and self-attention
    [positional-encoding] Positional encoding: absolute and relative
    [questions] Readers' questions
    [beyond] Beyond the chapter
    [exercise] Exercise 2: train
   *[other] { $part }
    }
panel-title = { $panel ->
    [attention] Attention weights of a sentence
    [pipeline] What exactly are Q, K and V?
    [heads] Multi-head attention and valid_lens
    [complexity] CNN vs RNN vs self-attention
    [order] Order is lost without positional encoding
    [heatmap] The positional encoding matrix P
    [curves] Columns against position
    [binary] The binary analogy
    [projection] Relative position: one rotation for every i
    [similarity] Similarity and translation invariance
    [scaling] Scale by √d, and add rather than concatenate
    [pretrained] A trained model's positions: MiniLM
    [rope] RoPE: rotate queries and keys
    [extension] Longer contexts: interpolation, NTK-aware scaling, YaRN
    [alibi] ALiBi: a linear bias instead of a vector
    [t5] T5's relative position buckets
    [shaw] Relative position embeddings (Shaw et al.)
    [learned] A learned position table
    [nope] No encoding at all: the causal mask counts
    [stacking] Stacking attention layers
    [train] Can a model learn its positions?
   *[other] { $panel }
    }
panel-caption = { $panel ->
    [attention] How much each word (a row) attends to each word (a column) in an untrained layer.
    [pipeline] One attention layer stage by stage for head 0: Z, Q, K, V, scores, weights and output.
    [heads] One attention map per head and sequence; every head of a sequence masks the same keys.
    [complexity] Operations and path lengths of a CNN, an RNN and self-attention as n grows.
    [order] Without P, permuting the tokens only permutes the outputs; with P the outputs change.
    [heatmap] Row i is what is added to the token at position i; columns slow down from left to right.
    [curves] Columns of P against position: frequencies fall along the columns, in sine–cosine pairs.
    [binary] The bits of 0 … n − 1 beside P: both slow down from left to right.
    [projection] Moving δ positions turns pair j of every position by the same angle δ·ωⱼ.
    [similarity] For even d the similarity of two positions' codes depends only on their offset.
    [scaling] Entry sizes of the embeddings, with and without × √d, and of P; adding vs concatenating.
    [pretrained] Your sentence through a trained transformer, with and without its positions.
    [rope] RoPE rotates queries and keys: the score depends on the offset only, up to rounding.
    [extension] How interpolation, NTK-aware scaling and YaRN change the frequency of each rotary pair.
    [alibi] ALiBi adds to each head's causal scores a penalty linear in the distance.
    [t5] The bucket T5 gives each relative distance, in the encoder and in the decoder.
    [shaw] The sentence's logits with a learned key vector per clipped offset (Shaw et al. 2018).
    [learned] A learned position table E as training starts: one row per position below Lmax.
    [nope] With a causal mask and no encoding, a first layer can output 1/t at position t.
    [stacking] Stacked attention layers: how fast the rows become one, and whether the position survives.
    [train] Encodings trained side by side in the browser: loss, accuracy by length, a learned table.
   *[other] { $panel }
    }
panel-short = { $panel ->
    [attention] Attention weights
    [pipeline] Q, K and V
    [heads] Multi-head
    [complexity] CNN vs RNN
    [order] Order is lost
    [heatmap] Heatmap of P
    [curves] Column curves
    [binary] Binary analogy
    [projection] Relative position
    [similarity] Similarity
    [scaling] Scale by √d
    [pretrained] Trained model
    [rope] RoPE
    [extension] Longer contexts
    [alibi] ALiBi
    [t5] T5 buckets
    [shaw] Shaw et al.
    [learned] Learned table
    [nope] No encoding
    [stacking] Stacking layers
    [train] Train encodings
   *[other] { $panel }
    }

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

## Takeaways, read-outs and figure texts of the position-family panels (src/model/takeaway_beyond.rs, rope.rs, extension.rs, alibi.rs, t5.rs, shaw.rs, learned.rs, nope.rs, stacking.rs)

takeaway-rope-no-pair = d = { $d } has no pair of dimensions to rotate: RoPE needs d ≥ 2.
takeaway-rope-no-shifts = No shifts measured.
# $depends_on: "offset" (float64's residual is rounding only) or "position". $first_shift, $last_shift: shifts Δ as the chart's axis writes them (1, 10, 100, 1e3 …). The spaces around "=" after Δ do not break.
takeaway-rope = { $depends_on ->
        [offset] Yes: rotating query and key by their positions' angles leaves only the angles' difference in the score: moving both by Δ changes it by at most { $f64_max } in float64 (blue)
       *[position] Not here: moving query and key together by Δ changes their score by up to { $f64_max } in float64 (blue), more than rounding
    }; float32 rounding (orange) grows from { $f32_first } at Δ = { $first_shift } to { $f32_last } at Δ = { $last_shift }.
takeaway-extension-too-few-pairs = A rotary dimension of { $d } has fewer than two pairs: the extension methods need d ≥ 4.
# The ratios θ'/θ of the slowest pair, number $last_pair ($pi, $ntk, $yarn), and of pair 0 ($pi, $ntk_fast, $yarn_fast). $stretch: "yes" when s > 1. $slow: "all" (the three methods agree), "pi-ntk" (PI and NTK-aware agree) or "each"; $fast: "kept" (NTK-aware and YaRN keep pair 0's frequency) or "each".
takeaway-extension = { $stretch ->
        [yes] To read s·L positions with angles the model has seen, the methods lower frequencies
       *[no] With s = 1 there is nothing to stretch
    }: at pair { $last_pair }, the slowest (right), { $slow ->
        [all] all three multiply its frequency by { $pi }
        [pi-ntk] PI and NTK-aware multiply its frequency by { $pi }, YaRN by { $yarn }
       *[each] PI multiplies its frequency by { $pi }, NTK-aware by { $ntk }, YaRN by { $yarn }
    }; at pair 0, the fastest, { $fast ->
        [kept] NTK-aware and YaRN keep it (1), PI multiplies it by { $pi } too
       *[each] PI multiplies it by { $pi }, NTK-aware by { $ntk_fast }, YaRN by { $yarn_fast }
    }.
takeaway-alibi-no-heads = No heads: ALiBi needs at least one.
# $corner: the head's bias −m·$back at the key $back positions back (−5.500). The spaces around "−" in (i − j) do not break.
takeaway-alibi-single-head = Through the scores: the single head adds −m·(i − j) (m = { $m }), a rule with no table that holds at any length: { $corner } at { $back } keys back, bluer the farther back the key.
takeaway-alibi = Through the scores: each head adds −m·(i − j), a rule with no table that holds at any length: head 0 (m = { $first_m }) falls to { $first_corner } at { $back } keys back, head { $last_head } (m = { $last_m }) only to { $last_corner }: it reads farther.
# $used of the $buckets buckets appear over δ = −$range … $range; $exact: distances below it have a bucket each; $first: the first distance in a direction's last bucket; $before, $after: the last bucket before and after the query.
takeaway-t5-last-bucket-shared = Yes: T5 learns one number per offset bucket, one per distance below { $exact }, wider buckets farther out: over δ = −{ $range } … { $range } the encoder uses { $used } of its { $buckets } buckets; every distance ≥ { $first } shares its direction's last bucket ({ $before } before the query, { $after } after).
takeaway-t5-last-bucket-not-reached = Yes: T5 learns one number per offset bucket, one per distance below { $exact }, wider buckets farther out: over δ = −{ $range } … { $range } the encoder uses { $used } of its { $buckets } buckets; no distance shown reaches { $first }, from where all share their direction's last bucket.
takeaway-shaw = Yes: one learned vector per offset, added to the keys: the table has 2k + 1 = { $rows } rows, one per offset −{ $clip } … { $clip }, and every offset beyond ±{ $clip } reuses an end row, so any length works.
# $max_len: L_max, the table's rows (positions 0 … $last); $n: the page's positions, $beyond of which have no row.
takeaway-learned-positions-beyond = Yes, up to a length: { $max_len ->
        [1] E has a row for position 0 only
       *[other] E has rows for positions 0–{ $last } only
    }, so of the page's n = { $n } positions { $beyond } have none, from position { $max_len } on; the sinusoid gives every position a row.
takeaway-learned-positions-fit = Yes, up to a length: { $max_len ->
        [1] E has a row for position 0 only
       *[other] E has rows for positions 0–{ $last } only
    }, so the page's { $n } { $n ->
        [one] position fits
       *[other] positions fit
    } but position { $max_len } has none, where the sinusoid still gives p_{ $max_len }.
learned-trained-module-failed = MiniLM's trained table could not be loaded: { $error }.
takeaway-nope-no-positions = No positions: nothing to count.
takeaway-nope-one-position = With one position the output is { $output } with or without the causal mask: nothing to tell apart.
# $distinct: "yes" when every position's output differs from the others', else "no".
takeaway-nope = Yes, in principle: with the causal mask position t sees only t tokens and can count them, outputting 1/t ({ $first } at t = 1 down to { $last } at t = { $n }){ $distinct ->
        [yes] , a different value at each
       *[no] { "" }
    }; without the mask every position gets 1/{ $n } = { $all }.
figure-rope-no-pair-rotates-pairs = RoPE rotates pairs of dimensions:
figure-rope-no-pair-d-at-least-two = d must be ≥ 2.
readout-rope-no-pair = d = { $d } has no pair of dimensions to rotate.
# s($m, $n): the score of q at position $m and k at position $n; $at_1e1 … $at_1e5: float32's mean residual at Δ = 10, 10³, 10⁴, 10⁵; $layout: the largest score difference between the two layouts.
readout-rope-residual = Shift residual of s({ $m }, { $n }) = ⟨R_{ $m } q, R_{ $n } k⟩, mean of { $draws } random pairs q, k at d = { $d }: float64 at most { $f64_max } for every Δ up to 10⁵ (rounding only: exactly, the score depends on n − m only); float32 { $at_1e1 } at Δ = 10, { $at_1e3 } at 10³, { $at_1e4 } at 10⁴, { $at_1e5 } at 10⁵ — the angle (m + Δ)·θ_j is rounded to 2⁻²⁴ of itself, an error that grows with the position. Interleaved (GPT-J) and half-split (GPT-NeoX, rotate_half) layouts, after permuting the dimensions: largest score difference { $layout }.
# $relative_first, $relative_last: RoFormer's relative curve at r = 0 and r = $max_distance; $bound_first, $bound_last: the whole bound there; $smallest, $largest, $typical: the mean |score| of $samples random pairs; $expected: √(2d/π); $mean_max: the largest |mean score|.
readout-rope-decay = RoFormer bounds a score by |⟨R_m q, R_n k⟩| ≤ max_j |h_(j+1) − h_j| · Σ_j |S_j|, where r = n − m is the offset, h_j = (q_2j + i·q_2j+1)·conj(k_2j + i·k_2j+1) multiplies the j-th pairs of q and k as complex numbers (i the imaginary unit here) and S_j = Σ_(l<j) e^(i·r·θ_l). Its Figure 2 plots the factor that depends on r alone, (1/(d/2))·Σ_j |S_j|: here it falls from { $relative_first } at r = 0 to { $relative_last } at r = { $max_distance } (a dimensionless curve, not a score). The chart puts the whole bound on the score's scale, for { $samples } random pairs q, k with independent N(0, 1) entries at d = { $d }: it falls from { $bound_first } to { $bound_last }, while the mean |score| of the same pairs stays between { $smallest } and { $largest } at every distance shown (on average { $typical }; for such q, k the score has variance d, so its mean size is about √(2d/π) = { $expected }). The bound decays; the scores of random pairs do not: their mean stays within { $mean_max } of 0. The decay is an upper bound, not what a score is.
# $rows: the heatmap's positions; $spread: the largest spread along a diagonal over the first $check_rows rows; $max: the largest |S|.
readout-rope-scores = S_ij = (R_i q)·(R_j k)/√d with one q and one k at every position (up to { $rows } positions; WebGPU computes them in a compute shader, the CPU path at most { $cpu_rows }): every diagonal j − i = const has one colour. Along each diagonal the scores differ by at most { $spread } (float32 rounding, first { $check_rows } rows), against scores up to { $max }: RoPE's score depends on the offset only.
# $s: the scale s; YaRN keeps the $kept pairs 0 … $kept_last and divides the $interpolated pairs from $interpolated_first on; $gap_pair: the pair where the two conventions differ most ($gap), $gap_as_run and $gap_in_paper its ratios.
readout-extension-ratios = s = { $s }, d = { $d }, base { $base }: position interpolation divides every frequency by s (ratio { $pi_ratio }). NTK-aware scaling uses base b' = b·s^(d/(d−2)) = { $ntk_base }: pair 0 keeps its frequency (ratio 1), the last pair gets { $ntk_last } = 1/s, the ones between s^(−2j/(d−2)). YaRN as models run it (Hugging Face transformers, the rule of the reference code): it keeps the { $kept } pairs up to index { $kept_last } (at least β_fast = 32 turns within L = { $context }), divides by s the { $interpolated } pairs from index { $interpolated_first } on (at most β_slow = 1 turn), and ramps the { $ramped } between linearly in the pair index. The paper's ramp is linear in the number of turns instead (dashed): the two differ by up to { $gap } (pair { $gap_pair }: { $gap_as_run } as run, { $gap_in_paper } in the paper). YaRN also multiplies q and k by 0.1·ln s + 1 = { $temperature } (the logits by its square, { $temperature_squared }).
# $within of the $pairs pairs turn at least once within L = $context; $beyond do not.
readout-extension-wavelengths = { $within } of { $pairs } pairs have a wavelength shorter than L = { $context }: they made at least one full turn in training, so every angle they meet beyond L was already seen. The other { $beyond } never completed a turn in training; past L they reach angles the model never saw, which is why YaRN interpolates the slowest of them fully.
readout-extension-too-few-pairs = d = { $d } has fewer than two rotary pairs: NTK-aware scaling needs d ≥ 4.
# A weight that underflowed to 0 in float64.
readout-alibi-weight-underflow = below 10⁻³⁰⁷ (0 in float64)
# $slopes: the heads' slopes, listed with ", ".
readout-alibi-slopes = Slopes of H = { $heads } heads (m_h = 2^(−8(h+1)/{ $heads }), h = 0 … { $last }): { $slopes }.
# $lower: the largest power of two below H; $double = 2·$lower; $rest = H − $lower.
readout-alibi-slopes-not-power-of-two = Slopes of H = { $heads } heads (H = { $heads } is not a power of two; as the reference code's get_slopes: the { $lower } slopes of H = { $lower }, then the first { $rest } of every other slope of H = { $double }): { $slopes }.
# One head's spans: $spans lists, for each query position, how many of the last keys hold 90 % of its weight.
readout-alibi-head-span = head { $head } (m = { $m }) puts 90 % of its weight on the last { $spans } keys
# $positions: the query positions i, listed with ", "; $first_span, $last_span: readout-alibi-head-span of head 0 and of head $last; $double = 2L; $first_weight, $last_weight: a number or readout-alibi-weight-underflow.
readout-alibi-beyond = Beyond the training length, from the bias alone (every content score q_i·k_j equal): at query positions i = { $positions } (L = { $context }, the training length set in the context-extension panel), { $first_span }; { $last_span }. The bias depends on i − j only, so a head looks equally far back at every position once the weight left for the first key, e^(−m·i), is negligible (i several times 1/m). Past L, the keys within L of the query have the distances and biases seen in training, but keys more than L back get biases −m·(i − j) below any seen in training; they are only pushed further down: from the bias alone, at i = { $double } head 0 gives them a total weight of { $first_weight } and head { $last } { $last_weight }. A head whose span exceeds i spreads over all i + 1 keys.
# $width: the width of q and k; $rows: the heatmap's positions; $error: the measured row-sum error on the first $check_rows rows; $future: "zero" when every key after its query weighs exactly 0, else "not-zero".
readout-alibi-heatmap = Head 0 (m = { $m }) of a layer with random q_i, k_j (width { $width }) over up to { $rows } positions (WebGPU computes them in a compute shader, the CPU path at most { $cpu_rows }): each query's weights sum to 1 (measured max |Σ_j w_ij − 1| = { $error } on the first { $check_rows } rows), { $future ->
        [zero] keys after the query weigh exactly 0
       *[not-zero] keys after the query do NOT all weigh 0
    }, and the weight fades with the distance back (viridis, as in the attention panels: 0 dark purple, 1 yellow).
# The bucket layout: $before_last, the last bucket before the query; $after_first … $after_last, the buckets after it; $at_minus_1 … $at_range: the bucket of each example distance ("—" where none).
readout-t5 = { $buckets } buckets, max_distance { $max_distance }, bidirectional: keys before the query (and the query's own key, bucket 0) use buckets 0–{ $before_last }, keys after it { $after_first }–{ $after_last } (bucket { $after_first } is never used: distance 1 after the query is already { $after_second }). Distances 0–{ $exact_last } get a bucket each; from { $exact } to { $log_last } the bucket grows with the logarithm of the distance; every distance ≥ { $first_in_last } in one direction shares the last bucket ({ $before_last } before, { $after_last } after). Examples: δ = −1 → { $at_minus_1 }, −8 → { $at_minus_8 }, −20 → { $at_minus_20 }, −90 → { $at_minus_90 }, −91 → { $at_minus_91 }, +5 → { $at_plus_5 }, +{ $range } → { $at_range }. Over −{ $range } … { $range } the page uses { $distinct } different buckets; each head adds its own learned scalar per bucket to the scores (enc = t5 in the attention panels draws them seeded, untrained). The causal decoder layout puts all 32 on the past: its last bucket starts at distance { $causal_first_in_last }.
figure-shaw-no-tokens = The sentence has no tokens.
figure-shaw-type-a-few-words = Type a few words in the attention panel.
# $naive, $skewed: counts of float32 numbers; $naive_bytes, $skewed_bytes: the same as bytes (2.147 GB).
readout-shaw-memory = Memory of the relative keys at this page's n = { $n } and d = { $d }: the naive form gathers an n × n × d tensor of them, { $naive } floats ({ $naive_bytes }); the Music Transformer keeps one d-vector per distance (causal), { $skewed } floats ({ $skewed_bytes }), n = { $n } times less, and skews Q·(a^K)ᵀ (n × n, like the logits) into place.
# $tokens: the sentence's tokens, whose $offsets offsets use $used of the table's rows; $memory: readout-shaw-memory.
readout-shaw = k = { $clip }: a^K and a^V have 2k + 1 = { $rows } rows of d = { $d }; the { $offsets } offsets of { $tokens } { $tokens ->
        [one] token
       *[other] tokens
    } use { $used } of them (every offset beyond ±{ $clip } shares the end row). The scores e_ij before the softmax (left; Shaw et al. call them logits) add q_i·a^K_clip(j−i)/√d to the content term; no position vector is added to X. { $memory }
# $last = L_max − 1; $init_std: 0.02; $beyond: the page's positions with no row; $lookup: the error the table gives for position $max_len (in English); $ratio: ‖p‖ over E's mean row norm.
readout-learned = E has rows for positions 0–{ $last } (L_max = { $max_len }) of d = { $d }, drawn N(0, { $init_std }²) as Hugging Face's BERT and GPT-2 initialise theirs (initializer_range) (measured: std { $std }, mean row norm { $row_norm } ≈ 0.02·√d). The page's n = { $n } { $beyond ->
        [0] fits in the table
       *[other] has { $beyond } positions with no row: a model with this table cannot read them (GPT-2 and BERT stop at their L_max)
    }. Looking up position { $max_len }: “{ $lookup }”. The sinusoid has a row there: ‖p_{ $max_len }‖ = { $sinusoid_norm } (√(d/2) for even d), and for every later position. Untrained, E is { $ratio }× smaller than P and gives each position a distinct random row, but encodes no order or distance; what it learns depends on training, and rows past L_max are never trained.
# $at_1, $at_2, $at_n: the causal output at t = 1, 2 and n ("—" where there is none); $outputs: "one-position" (n = 1), "distinct" (every position its own value) or "shared".
readout-nope = No encoding, equal scores, one feature: 1 on the first token, 0 elsewhere. With the causal mask, position t averages the first t tokens: output { $at_1 } at t = 1, { $at_2 } at t = 2, { $at_n } at t = { $n } (largest difference from 1/t: { $error }){ $outputs ->
        [one-position] , one position only (n = 1)
        [distinct] , every position a different value
       *[shared] , but some positions share a value
    } — a function of the position, computed by the layer. Without the mask every position averages all { $n } tokens and gets { $all } (difference from 1/n: { $all_error }): nothing tells them apart. So a causal decoder can represent positions without P; a bidirectional layer without any position cannot (it is permutation-equivariant: see the order panel).
# The stack's setting: $skip, $layer_norm, $causal: "yes" or "no"; $positions: "once", "every-layer" or "never".
readout-stacking-setting = { $skip ->
        [yes] skip connections
       *[no] no skip
    }{ $layer_norm ->
        [yes] , LayerNorm
       *[no] { "" }
    }{ $causal ->
        [yes] , causal mask
       *[no] { "" }
    }, P { $positions ->
        [once] added once to X_0
        [every-layer] added again after every layer
       *[never] never added
    }
# $folds: the folds of the cross-validation (5).
readout-stacking-probe-definition = The probe's R² is out of sample: a linear read-out of the position (ridge regression) is fitted on 4 of every { $folds } positions and scored on the held-out fifth, in turn ({ $folds }-fold cross-validation); 1 means held-out positions are read exactly, 0 or below means no better than guessing the mean position.
# $layers: the last layer L; $first, $last: the rank residuals r_0 and r_L.
readout-stacking-rows-collapsed = At L = { $layers } the rows have collapsed onto one row: r_{ $layers } = { $last } (they differ by less than 0.1% of their size).
readout-stacking-rows-closer = At L = { $layers } the rows are still apart but closer: r falls from { $first } to { $last }.
readout-stacking-rows-apart = At L = { $layers } the rows stay apart: r_{ $layers } = { $last } (r_0 = { $first }).
readout-stacking-probe-too-few-positions = The probe needs at least 3 positions.
readout-stacking-probe-reads = The held-out probe reads the position from X_{ $layers } (R² = { $r2 }).
readout-stacking-probe-guesses = The held-out probe does no better than guessing the mean position (R² = { $r2 }): no position can be read from X_{ $layers }.
readout-stacking-probe-weak = The held-out probe reads the position only weakly (R² = { $r2 }).
readout-stacking-cause-pure-attention-collapsed = Pure attention averages rows, and Dong, Cordonnier & Loukas (2021) bound the distance to one shared row doubly exponentially in depth: every token ends up with the same vector.
readout-stacking-cause-pure-attention-falling = Pure attention averages rows; Dong, Cordonnier & Loukas (2021) bound the distance to one shared row doubly exponentially in depth, so more layers continue the fall.
# $layer_norm: "yes" or "no"; $rows: "collapse" (the rows still collapse) or "apart".
readout-stacking-cause-skip-connections = Dong, Cordonnier & Loukas (2021) prove the collapse for attention without skip connections; with them their bound no longer applies (a path through the skips alone carries X through), so skip connections can prevent the collapse, but nothing guarantees it: here, with random untrained W_q, W_k, W_v{ $layer_norm ->
        [yes] { " " }and LayerNorm
       *[no] { "" }
    }, the rows { $rows ->
        [collapse] still collapse
       *[apart] stay apart
    } after { $layers } layers.
# Closes the verdict when P is added after every layer (in English after a space).
readout-stacking-reinjected = { " " }P added after every layer puts the position back whatever the layer did to the rows.
# The verdict: the sentences readout-stacking-rows-…, readout-stacking-probe-…, readout-stacking-cause-… and readout-stacking-reinjected (or nothing), in this order.
readout-stacking-verdict = { $rows } { $position } { $cause }{ $reinjected }
# $setting: readout-stacking-setting; $residuals, $probes: the first six values, listed with ", " (then "…"); $verdict: readout-stacking-verdict; $definition: readout-stacking-probe-definition.
readout-stacking = n = { $n }, d = { $d } (the page's n and d, at most { $max_n }), { $layers } layers, { $setting }; E = N(0, 1) rows, X_0 = E (+ P), W ~ N(0, 1/d) drawn anew per layer (seed { $seed }). Residual r_L for L = 0, 1, 2, …: { $residuals }. Probe R² (held out): { $probes }. { $verdict } { $definition }
## Takeaways of the attention, pipeline, heads, complexity, scaling and stacking panels (src/model/takeaway_attention.rs)

# Joined into the attention and pipeline takeaways; $error is the measured error (1.2e-3).
takeaway-attention-rows-sum-to-one = every row sums to 1
takeaway-attention-rows-do-not-sum = the rows do NOT all sum to 1 (error { $error })
# The answer to "What exactly are Q, K and V?" that starts the attention takeaways ($idea below). $input: "positions" on P alone (the offset head), else "words".
takeaway-attention-idea = { $input ->
        [positions] Each position's output averages the values V, weighted by how well its query Q matches each key K
       *[words] Each word's output averages the values V, weighted by how well its query Q matches each key K
    }
takeaway-attention-no-tokens = { $idea }: type a sentence to see the weights.
takeaway-attention-one-token = { $idea }: one token, “{ $token }”, can attend only to itself (weight { $weight }).
# $weights = n × n, $n the number of tokens.
takeaway-attention-all-masked = { $idea }; with every key masked every score is −10⁶, so each row is uniform: all { $weights } weights are 1/{ $n }.
takeaway-attention-no-weights = No weights to read.
# Appended to "every row sums to 1" in the takeaways below ($mask).
takeaway-attention-mask-one-key = ; key { $key } is masked to exactly 0
takeaway-attention-mask-keys = ; keys { $first }–{ $last } are masked to exactly 0
# $sign is + or −, $delta the offset's size, $percent a whole number; $rows and $mask are the clauses above.
takeaway-attention-offset = { $idea } ({ $rows }{ $mask }): on P alone, with no words, the offset head makes key i { $sign } { $delta } the strongest for { $percent }% of the queries that have one (strongest weight { $weight }).
takeaway-attention-offset-no-target = { $idea } ({ $rows }{ $mask }): no query has a key δ = { $delta } away in { $n } positions, so the offset head finds no target.
# $pair names the strongest cell (the two messages below); $percent: its weight in percent (53, 99.6).
takeaway-attention-pair-self = “{ $query }” takes { $percent }% from itself (ringed)
takeaway-attention-pair = “{ $query }” takes { $percent }% from “{ $key }” (ringed)
# The answer to "Why is the word order not preserved?" ($order below); $aside: takeaway-attention-mask-aside where a mask cuts keys by their place, else empty.
takeaway-attention-order-none = Without P, as here, the weights ignore word order{ $aside }.
takeaway-attention-order-some = Without P they would ignore word order{ $aside }.
takeaway-attention-mask-aside = { " " }(the mask aside)
# $checks: the rows' sums and the mask in brackets (takeaway-attention-checks), or empty where every row sums to 1 and nothing is masked.
takeaway-attention-checks = { " " }({ $rows }{ $mask })
takeaway-attention-strongest = { $idea }{ $checks }: { $pair }. { $order }
takeaway-attention-strongest-untrained = { $idea }{ $checks }: in this untrained layer { $pair }. { $order }
# $diagonal: a word's mean weight on itself, in percent.
takeaway-attention-strongest-identity = { $idea }{ $checks }: with Q = K = V = Z each word takes on average { $diagonal }% of its output from itself, and { $pair }. { $order }
# The answer to "What exactly are Q, K and V?" that starts the pipeline takeaways ($idea).
takeaway-pipeline-idea = Q, K and V are Z times three separate matrices: what a word looks for, is found by, and passes on
takeaway-pipeline-no-tokens = { $idea }. Type a sentence in the attention panel to follow one through the layer.
takeaway-pipeline-one-head = { $idea }. Here one head uses Q, K and V whole (d = { $d }).
takeaway-pipeline-heads = { $idea }. Here { $heads } heads (step { $step }) use { $head_dim } of the { $d } columns each.
# Said only where the softmax's rows were measured not to sum to 1; $rows says by how much.
takeaway-pipeline-rows-fail = { $takeaway } Beware: { $rows }.
# Which keys a sequence's valid length masks ($keys below).
takeaway-heads-every-key = every key
takeaway-heads-no-key = no key
takeaway-heads-key = key { $key }
takeaway-heads-keys = keys { $first }–{ $last }
takeaway-heads-uniform = : uniform weights
# One clause per sequence: the first names the heads, the next ones leave out the repeated words.
takeaway-heads-first-one-head = sequence { $sequence }'s one head masks { $keys } (valid_len { $valid_len }{ $uniform })
takeaway-heads-next-one-head = sequence { $sequence }'s { $keys } (valid_len { $valid_len }{ $uniform })
takeaway-heads-first = all { $heads } heads of sequence { $sequence } mask { $keys } (valid_len { $valid_len }{ $uniform })
takeaway-heads-next = all { $heads } of sequence { $sequence } { $keys } (valid_len { $valid_len }{ $uniform })
# Between the clauses of the sequences.
takeaway-heads-clause-separator = { ", " }
takeaway-heads-tile-changes-nothing = np.tile would change nothing here
takeaway-heads-tile-wrong = np.tile would give { $wrong } of { $maps } maps the wrong length
# The answer to "np.tile gives (1 2 1 2), not (1 1 2 2): is that a bug?"; $sequences: the clauses above; $tile: one of the two messages above.
takeaway-heads = Yes, a bug: a sequence's heads sit side by side in the batch and must all use its valid_len, so repeat, not tile. Here { $sequences }; { $tile }.
# The answer to "why is self-attention slow for very long sequences?" and "how is the CNN's complexity derived?", as the chart shows: $attention, $rnn, $cnn: the three operation counts at this n, d and k; $kd = k·d.
takeaway-complexity = Long sequences are slow because self-attention scores every pair of positions: n²·d = { $attention } operations at n = { $n }, d = { $d }, 4× more when n doubles, while the RNN's n·d² = { $rnn } and the CNN's k·n·d² = { $cnn } (k = { $k } neighbours, d × d weights each) only double: it costs more than the RNN past n = d = { $d }, than the CNN past n = k·d = { $kd }.
takeaway-scaling-no-tokens = No tokens: no embeddings to measure.
# The scaling panel's takeaway: why × √d ($unscaled, $scaled: the embeddings' RMS as a multiple of P's, 0.2478), then why add rather than append (takeaway-scaling-add), joined by takeaway-scaling.
takeaway-scaling-empty = × √d keeps P from drowning the words, and adding keeps the width d: type a few words in the attention panel to measure both.
takeaway-scaling-d-one = At d = 1, √d = 1 changes nothing: the words are { $scaled }× P's size (RMS) either way.
takeaway-scaling-position-outweighs = × √d keeps P from drowning the words: their embeddings go from { $unscaled }× to { $scaled }× P's size (RMS).
takeaway-scaling-words-outweigh = × √d is meant to keep P from drowning the words; at d = { $d } they are { $unscaled }× P's size (RMS) even without it, { $scaled }× with it.
# The two tokens' dot product as the bars show it: $xx, $pp, $cross (x·p + p·x), $added; $columns = 2d; $bars: "scaled" when the embeddings are × √d.
takeaway-scaling-add = Adding keeps d = { $d } columns (appending: { $columns }) at the cost of x·p + p·x = { $cross }: for “{ $token_i }” · “{ $token_j }” the bars{ $bars ->
        [scaled] { "" }
       *[unscaled] { " " }(without × √d)
    } show x·x = { $xx }, p·p = { $pp }, added { $added }.
takeaway-scaling = { $magnitudes } { $add }
takeaway-stacking-no-layers = No layers to measure.
takeaway-stacking-one-position = With one position there is one row: nothing can collapse, and no probe can be fitted (it needs at least 3 positions).
takeaway-stacking-setting = { $setting ->
        [plain] without skip connections
        [norm] with LayerNorm but no skip connections
        [skip] with skip connections
       *[skip-norm] with skip connections and LayerNorm
    }
# $r is the residual r_L (2.30e-10); $setting the message above.
takeaway-stacking-before-coincide = Before any layer the rows already coincide (r_0 = { $r })
takeaway-stacking-before-apart = Before any layer the rows are apart (r_0 = { $r })
takeaway-stacking-collapsed = After { $layers } { $layers ->
        [one] layer
       *[other] layers
    } { $setting } the rows have collapsed to one (r_{ $layers } = { $r })
takeaway-stacking-closer = After { $layers } { $layers ->
        [one] layer
       *[other] layers
    } { $setting } the rows move closer (r falls from { $first } to { $r })
takeaway-stacking-apart = After { $layers } { $layers ->
        [one] layer
       *[other] layers
    } { $setting } the rows stay apart (r_{ $layers } = { $r })
# $rows is one of the five clauses above; each starts with the risk.
takeaway-stacking-order-gone = The risk: attention averages rows, so stacked layers can pull them together. { $rows }: every position outputs the same row, so the order is gone.
takeaway-stacking-rows-differ = The risk: attention averages rows, so stacked layers can pull them together. { $rows }: the positions' rows still differ.

## The attention panel's read-outs (src/model/attention.rs)

readout-attention-projection-random = untrained projections: W_q, W_k, W_v drawn from Glorot (Xavier) uniform, Flux's Dense default, seed { $seed }
readout-attention-projection-identity = no projections: Q = K = V = Z
readout-attention-projection-offset = the offset head: W_q rotates each (sin, cos) pair by δ·ω_j with δ = { $delta }, times the sharpness κ = { $beta }; W_k = W_v = I; drawn on P alone
readout-attention-position-sinusoidal = position: sinusoidal P added to X
readout-attention-position-learned = position: a learned table E (L_max = { $max }, seeded N(0, 0.02²), untrained) added to X; positions ≥ L_max have no row and get nothing added
# $base is the page's base (10000).
readout-attention-position-rope = position: RoPE, each head's q and k rotated pair by pair by i·θ_j, θ_j = { $base }^(−2j/d_h)
# $heads: how many heads ALiBi's slopes are for; $slope: head 0's slope.
readout-attention-position-alibi = position: ALiBi, head h adds m_h·(j − i) with the slopes of a { $heads }-head model (head 0: m = { $slope }) and the causal mask it was defined with (keys after the query get weight 0)
readout-attention-position-t5 = position: T5 relative buckets ({ $buckets } buckets, max_distance { $max_distance }), one seeded untrained bias per bucket and head, added to the 1/√d-scaled scores (T5 itself does not scale)
readout-attention-position-shaw = position: Shaw et al. relative embeddings a^K, a^V clipped at k = { $clip } (seeded, untrained)
readout-attention-position-none = no position (the layer cannot tell the order)
readout-attention-identity-one-token = With one token there is nothing else to attend to.
# $lead: how much the token itself leads in the score after the 1/√d scale.
readout-attention-identity-reason = Without projections every token's query is its own key: q_i·k_i = ‖z_i‖² averages { $self_dot }, while the largest q_i·k_j of another token averages { $other_dot } (not 0: the rows share P's slow columns and neighbouring rows of P are alike); after the 1/√d scale the token itself leads by { $lead } in the score on average.
readout-attention-identity-masked = { " " }{ $masked } of the { $n } rows have their own key masked (valid_len) and cannot attend to themselves.
readout-attention-identity-close = the map is close to the identity, and it says little about the sentence
readout-attention-identity-dominates = the diagonal dominates the map
readout-attention-identity-far = the map is far from the identity
# $reason and $masked are the messages above, $verdict one of the three verdicts.
readout-attention-identity = { $reason }{ $masked } At d = { $d } the mean weight of a token on itself is { $weight }: { $verdict }. A trained layer has its own W_q, W_k, W_v.
readout-attention-mask-none = valid_len = all keys (no mask).
readout-attention-mask-all = valid_len = 0: every key is masked. d2l's masked_softmax gives every masked score −10⁶, so all { $n } scores of a row are equal and each weight is 1/{ $n }: a uniform row, not zeros (the map shows one colour; no cell is hatched).
# $weights: how many weights are masked; $zero: "exactly" when all of them came out 0.
readout-attention-mask-some = valid_len = { $valid_len }: keys { $valid_len }–{ $last } get the score −10⁶ (d2l's masked_softmax), so their { $weights } { $weights ->
        [one] weight
       *[other] weights
    } are { $zero ->
        [exactly] exactly 0
       *[not] NOT all 0
    } (hatched grey, a colour not on the map).
# $error: the largest |row sum − 1| (8.0e-8).
readout-attention-rows-sum-to-one = Every row sums to 1 (largest error { $error }).
readout-attention-rows-do-not-sum = The rows do NOT all sum to 1 (largest error { $error }).
readout-attention-offset-no-target = Offset head, δ = { $delta }: no query has a key δ away in this sentence; make δ smaller or the sentence longer.
readout-attention-offset-queries = { $count ->
        [one] the 1 query that has a key i + δ
       *[other] the { $count } queries that have a key i + δ
    }
# $x is X or X·√d; $percent ends in %; $queries the message above.
readout-attention-offset-with-tokens = On the sentence's { $x } + P the same head puts a mean weight of { $weight } on i + δ and { $self_weight } on the token itself; i + δ is the strongest key for { $percent } of { $queries }.
readout-attention-offset-content-wins = { " " }Why the content wins: the positional terms favour key i + δ over the query's own position by only κ·(‖p‖² − p_(i+δ)·p_i)/√d = { $margin } in the score on average (p_(i+δ)·p_i = { $neighbour_dot } is close to ‖p‖² = { $norm }: neighbouring rows of P are alike), while the token's own content term x̃_i·W_q·x̃_i/√d (x̃ = { $x }) averages { $content }: W_q barely turns the slow pairs (δ·ω_j ≈ 0 there), so on them it is nearly κ times the identity and rewards each token for matching itself. A layer that concatenated [x, p] could keep content and position apart.
readout-attention-offset-positions-win = { " " }Here the positional terms (a margin of { $margin } in the score for i + δ over the query's own position) outweigh the token's own content term ({ $content }).
# $with_tokens and $why are the messages above.
readout-attention-offset = Offset head, δ = { $delta }, κ = { $sharpness }. The map shows it on P alone (the positions, no tokens): q_i = κ·p_(i+δ), and p_(i+δ)·p_j is largest at j = i + δ, so i + δ is the strongest key for { $percent } of { $queries }, with a mean weight of { $weight } there (a query without that key attends elsewhere). { $with_tokens }{ $why }
# A cell of the attention map: $names is one of the next two messages.
readout-attention-cell-positions = query position { $query } → key position { $key } (P alone)
readout-attention-cell-tokens = query “{ $query_token }” (row { $query }) → key “{ $key_token }” (column { $key })
readout-attention-cell-masked = { $names }: masked (key { $key } ≥ valid_len { $valid_len }), weight exactly 0
readout-attention-cell-all-masked = { $names }: every key masked (valid_len 0), uniform weight { $weight }
readout-attention-cell = { $names }: weight { $weight }
readout-attention-summary-tie = { " " }Every weight is equal: no token stands out.
readout-attention-summary-strongest = { " " }Strongest attention to another token: “{ $query }” → “{ $key }”, { $weight } (random embeddings and weights: no meaning in the words).
# $encoding and $projection are the position and projection messages above; $strongest one of the two above or empty; $rows and $mask the row-sum and mask sentences.
readout-attention-summary = { $tokens } { $tokens ->
        [one] token
       *[other] tokens
    }, d = { $d }, { $encoding }, embeddings { $scaled ->
        [scaled] × √d
       *[unscaled] not scaled
    }; { $projection }. Mean weight of a token on itself: { $diagonal }.{ $strongest } { $rows } { $mask }

## The pipeline panel: labels, legend, tooltip, trace and summary (src/model/pipeline.rs)

readout-pipeline-no-tokens = No tokens: type a sentence (in the attention panel above) to follow it through Q, K and V.
readout-pipeline-trace-hint = Hover a cell to trace its query row (and a key) through every stage.
# Titles of the figure's stages (the others are formulas).
figure-pipeline-stage-masked = masked
figure-pipeline-stage-mixed = weights·V
figure-pipeline-stage-output = concat heads ·W_o
# The colour scale of the masked scores: keys at or beyond valid_len get −10⁶.
figure-pipeline-scale-masked = keys ≥ { $valid } → −10⁶
figure-pipeline-scale-no-mask = no mask
# A stage's second label line: its shape, in numbers ($rows×$columns) and symbols (n×d), and its colour scale.
figure-pipeline-stage-shape = { $rows }×{ $columns } ({ $symbols }), { $scale }
figure-pipeline-stage-size = { $rows }×{ $columns } ({ $symbols })
# $sqrt_d_step: the lesson step that teaches Z's √d (0: Z has none).
figure-pipeline-legend = Head 0 of h = { $heads } (d_h = { $head_dim }). Blue–white–red: each signed matrix on its own ±max|value| scale; viridis: weights 0…1; hatched grey: masked key.{ $sqrt_d_step ->
        [0] { "" }
       *[other] { " " }Why Z scales X by √d: step { $sqrt_d_step }.
    }
# The names of stages in the tooltip and the trace ($stage).
readout-pipeline-stage-score = score
readout-pipeline-stage-masked-score = masked score
readout-pipeline-stage-mixed = (weights·V)
readout-pipeline-stage-output = output
readout-pipeline-cell-pair = “{ $query }” → “{ $key }”: { $stage } { $value }
readout-pipeline-cell = { $stage }[{ $row }, { $column }] (“{ $token }”) = { $value }
readout-pipeline-trace-output = output row { $row } = Σ_j w_{ $row }j · v_j (head 0; the { $heads } heads are concatenated, then ·W_o)
readout-pipeline-trace-cell = { " " }{ $stage }[{ $row }, { $column }] = { $value }.
readout-pipeline-trace-masked-yes = yes (key { $key } ≥ valid_len { $valid }: score → −10⁶)
readout-pipeline-trace-masked-no = no
readout-pipeline-trace-uniform = { " " }(every key is masked, so the row is uniform, 1/n)
# $masked is one of the two answers above; $output and $cell the messages above.
readout-pipeline-trace-pair = query “{ $query }” (row { $row }) · key “{ $key }” (row { $key_row }): score { $score }, masked? { $masked }, weight { $weight }{ $uniform }; { $output }.{ $cell }
readout-pipeline-trace-strongest = { " " }Head 0's largest weight in row { $row } is on key “{ $key }” (row { $key_row }): { $weight }.
readout-pipeline-trace-query = query “{ $query }” (row { $row }):{ $cell }{ $strongest } { $output }.
readout-pipeline-projection-random = Projections: untrained, Glorot-uniform W_q, W_k, W_v, W_o (each d × d), seed { $seed }.
readout-pipeline-projection-identity = Projections: identity, Q = K = V = Z (and W_o = I).
readout-pipeline-projection-offset = Projections: the offset head, W_q rotates each pair j by δ·ω_j (δ = { $delta }), times the sharpness κ = { $beta }; W_k = W_v = W_o = I. This panel applies it to the sentence's Z, tokens included; the attention panel above draws it on P alone.
# $z is the formula of Z (Z = X·√d + P).
readout-pipeline-shapes = { $z } is { $n } × { $d }. h = { $heads } heads of d_h = { $head_dim } columns; the figure follows head 0: Q, K and V are its { $n } × { $head_dim } slices, the scores QKᵀ/√{ $head_dim } and the weights are { $n } × { $n }, weights·V is { $n } × { $head_dim }; the output concatenates the { $heads } heads ({ $n } × { $d }) and multiplies by W_o.
readout-pipeline-mask-none = No mask: every key is valid.
readout-pipeline-mask-all = valid_len = 0: every key's score is set to −10⁶, so a row's scores are all equal and its weights are uniform (1/{ $n }).
readout-pipeline-mask-one = valid_len = { $valid }: key { $valid } gets score −10⁶ (as in d2l's masked_softmax), so its weight is 0.
readout-pipeline-mask-keys = valid_len = { $valid }: keys { $valid }…{ $last } get score −10⁶ (as in d2l's masked_softmax), so their weights are 0.
# $error: the measured max |Σ_j w_ij − 1| (8.0e-8).
readout-pipeline-rows-sum = Rows of the weights sum to 1 (measured max |Σ_j w_ij − 1| over all { $heads } heads: { $error }).
readout-pipeline-rows-do-not-sum = Rows of the weights do NOT sum to 1 (measured max |Σ_j w_ij − 1| over all { $heads } heads: { $error }).
readout-pipeline-position-rope = { " " }RoPE: the scores use Q and K rotated row by row by their positions (Q, K as drawn are before the rotation).
readout-pipeline-position-alibi = { " " }ALiBi: the scores include head 0's bias m·(j − i), and keys after the query get −10⁶ (causal).
readout-pipeline-position-t5 = { " " }T5: the scores include a bias per bucket of j − i (seeded, untrained).
readout-pipeline-position-shaw = { " " }Shaw: the scores include q_i·a^K_clip(j−i)/√d_h, and the output adds Σ_j w_ij a^V_clip(j−i).
# $projection, $shapes, $position, $mask and $rows are the messages above.
readout-pipeline-summary = { $projection } { $shapes }{ $position } { $mask } { $rows } Colours: each signed matrix on its own blue–white–red scale from −max to +max |value| (in its label); weights on viridis from 0 to 1.

## The multi-head panel: read-out, note, titles and cells (src/model/heads.rs)

readout-heads-head-zero = head 0
readout-heads-head-range = heads 0–{ $last }
# $heads is "head 0" or "heads 0–3" (above); $tiled the lengths np.tile would give, "3, 2".
readout-heads-sequence = sequence { $sequence }: { $heads } use valid_len { $valid_len } (np.tile would have given { $tiled })
# Between the sequences' clauses.
readout-heads-sequence-separator = { "; " }
# $sequences: the clauses above; $change: the largest weight change; $zero: "exactly" when every masked weight is 0.
readout-heads = { $sequences }. With tile, { $wrong } of { $maps } maps would get the other sequence's length (largest weight change { $change }); { $zero ->
        [exactly] every masked weight here is exactly 0
       *[not] the masked weights here are NOT all 0
    }.
readout-heads-note-drawn = { " " }(drawn: heads 0–{ $last } of { $heads })
# $pad is the padding token, <pad>.
readout-heads-note-padded = { " " }The sentence is short, so “{ $pad }” fills the sequences: mask it with valid_lens.
readout-heads-note = d = { $d } split into { $heads } { $heads ->
        [one] head
       *[other] heads
    } of { $head_dim } columns each{ $drawn }.{ $padded }
figure-heads-row-title-tile = np.tile (buggy), sequence { $sequence }: { $wrong } of { $shown } maps wrong
# $tokens: the sequence's tokens, each in quotes.
figure-heads-row-title = Sequence { $sequence } (valid_len = { $valid_len }): { $tokens }
# Over one small map: head number · valid length.
figure-heads-map-caption-short = h{ $head } · { $valid_len }
figure-heads-map-caption = head { $head } · { $valid_len }
# Which map a cell belongs to: $used is the valid length the map used, $right the sequence's own.
readout-heads-cell-map-tile-wrong = np.tile (buggy), sequence { $sequence }, head { $head } (valid_len { $used }, should be { $right })
readout-heads-cell-map-tile = np.tile (buggy), sequence { $sequence }, head { $head } (valid_len { $used })
readout-heads-cell-map = sequence { $sequence }, head { $head } (valid_len { $used })
readout-heads-cell = { $map }: query “{ $query_token }” (row { $query }) → key “{ $key_token }” (column { $key })
readout-heads-cell-all-masked = { $names }: every key masked, uniform weight { $weight }

## The complexity panel: table cells, read-outs, timing and figure labels (src/model/complexity.rs)

readout-complexity-cnn-path-never = never (kernel 1; d2l: O(n/k))
readout-complexity-cnn-path-one = 1 layer (n = 1)
# The CNN's path length in the table: $layers = ⌈$span/$step⌉, i.e. ⌈(n − 1)/(k − 1)⌉.
readout-complexity-cnn-path = { $layers } { $layers ->
        [one] layer
       *[other] layers
    } = ⌈{ $span }/{ $step }⌉ (d2l: O(n/k))
readout-complexity-attention-cheaper = here n = { $n } < d: self-attention needs fewer operations than the RNN
readout-complexity-same-cost = here n = d = { $n }: the two cost the same
readout-complexity-rnn-cheaper = here n = { $n } > d: the RNN needs fewer operations, but { $n } sequential steps against 1
# $cheaper is one of the three clauses above; $paths the path-length sentence below.
readout-complexity-crossover = Self-attention's n²·d overtakes the RNN's n·d² at n = d = { $cross } ({ $cheaper }); the CNN's k·n·d² at n = k·d = { $cross_cnn }. { $paths }
# $last = n − 1; $layers the stacked layers, $dilated the dilated ones; $k_squared = k².
readout-complexity-paths = Maximum path length of the CNN, three quantities: stacked layers of kernel { $k } first let one unit see both position 0 and position { $last } after ⌈(n − 1)/(k − 1)⌉ = { $layers } { $layers ->
        [one] layer
       *[other] layers
    } (the table's number; the figure below draws these layers); d2l writes this O(n/k); dilated layers (dilations 1, { $k }, { $k_squared }, …) would need ⌈log_k n⌉ = { $dilated } { $dilated ->
        [one] layer
       *[other] layers
    }, O(log_k n). The RNN's path from the first input to the last hidden state has n = { $n } edges; self-attention connects every pair in 1 layer.
readout-complexity-paths-single = With a single position (n = 1) there is nothing to connect: every layer's path is 1 edge.
readout-complexity-paths-kernel-one = A CNN of kernel 1, stacked or dilated, never connects two positions (d2l's O(n/k) does not apply at k = 1); the RNN's path from the first input to the last hidden state has n edges; self-attention connects every pair in 1 layer.
# What was timed ($code below).
readout-complexity-timed-webgpu = the WebGPU attention kernel (one head, no mask; wall clock from submit to the read-back of one weight, fastest of 3)
readout-complexity-timed-cpu = the page's CPU attention code (Rust, compiled to WebAssembly; one head, no mask)
readout-complexity-timed-cpu-runs = the page's CPU attention code (Rust, compiled to WebAssembly; one head, no mask; mean of { $runs } { $runs ->
        [one] run
       *[other] runs
    })
readout-complexity-measuring = Measuring the attention kernel at n = { $n }, d = { $d }…
# $why: why no time was measured (a reason from the timing code).
readout-complexity-refused = No time at n = { $n }, d = { $d }: { $why }
# $duration is a time with its unit (1.23 ms); $code one of the three messages above.
readout-complexity-time = { $duration } for { $code } at n = { $n }, d = { $d }
readout-complexity-measured = Measured: { $time }.
# "Measure" is the button's label.
readout-complexity-last-measured = Last measured: { $time }. Press Measure for n = { $n }, d = { $d }.
readout-complexity-too-large = n²·d = { $work } is too large for the CPU path at this size (limit { $limit }).
readout-complexity-press-measure = Press Measure to time { $code } at n = { $n }, d = { $d }.
# The chart's label of the CNN's curve.
figure-complexity-cnn-curve = CNN k·n·d² (k = { $k })
# The connectivity figure's caption.
figure-complexity-paths-capped = Drawn for { $drawn } positions, not n = { $n } (too many to draw); the table has n = { $n }.
figure-complexity-paths = { $n } { $n ->
        [one] position
       *[other] positions
    }, as in the table.
figure-complexity-cnn-title = CNN, kernel k = { $k }
figure-complexity-cnn-path-never = never (k = 1 connects nothing)
figure-complexity-cnn-path = { $layers } { $layers ->
        [one] layer
       *[other] layers
    }
# The RNN's path: $m edges, 1 up and $along along the chain.
figure-complexity-rnn-path = { $m } (1 up, { $along } along)

## The order panel: the shift test, the masked layer and the takeaway (src/model/order.rs)

# A position family in the shift sentence ($family is its name in links).
label-order-family = { $family ->
        [sinusoidal] added P
        [learned] a learned table
        [rope] RoPE
        [alibi] ALiBi
        [t5] T5's buckets
        [shaw] Shaw's relative embeddings
       *[none] no position
    }
# Between the families of one list.
label-order-list-separator = { ", " }
# $families: the families above, each followed by its gap where it has one ("RoPE 3.00e-7").
readout-order-shift-exact = exactly 0 for { $families }
readout-order-shift-rounding = float32 rounding for { $families } (its scores depend on j − i only; its rotations are rounded)
readout-order-shift-relative-changed = not 0 for { $families } (more than rounding: these weights moved)
readout-order-shift-absolute-changed = not 0 for { $families } (absolute positions: the weights depend on where the sentence starts; a small number means weights already near 0 or 1)
# Between the four clauses above.
readout-order-shift-separator = { "; " }
readout-order-shift = Shift the whole sentence by s = { $shift } positions (same tokens, same layer, d = { $d }, no mask beyond the family's own): the largest change of any attention weight is { $parts }.
readout-order-masked-not-equivariant = With a mask (keys ≥ { $valid_len } masked) and no P the gap is { $gap }: which keys a query may see is decided by position, so the masked layer is not equivariant.
readout-order-masked-cannot-show = With a mask (keys ≥ { $valid_len } masked) and no P the gap is { $gap } for this permutation: it moves no token across the mask's boundary, so it cannot show that the masked layer is not equivariant; a permutation that does would.
readout-order-masked-alibi = { " " }Except ALiBi's own: ALiBi is defined with a causal mask and its gap above includes it; the causal mask alone, with no position at all, already breaks equivariance (query i sees keys 0…i only), so that number is not ALiBi's bias alone. The shift test below separates them.
# $measured: one of the two sentences above; $alibi: the ALiBi note or empty.
readout-order-masked = { $measured } That is why this panel computes without a mask.{ $alibi }
# The family of the "with P" gaps ($family is its name in links).
label-order-family-with = { $family ->
        [rope] RoPE
        [alibi] ALiBi (causal)
        [t5] T5 buckets
        [shaw] Shaw's relative embeddings
        [learned] a learned table E
       *[sinusoidal] P
    }
# The order panel's question: the rows are still in order, so why is word order not preserved?
takeaway-order-no-tokens = The rows are in order only because the input is; type a sentence in the attention panel to test the layer.
# "Swap" and "Shuffle" are the panel's buttons.
takeaway-order-nothing-moved = The rows are in order only because the input is: without P, shuffling the words just shuffles the rows. Nothing is moved yet: press Swap or Shuffle.
# $bound: the float32 rounding bound (4.8e-6); $gap: the largest gap.
takeaway-order-without-rounding = The rows are in order only because the input is: without P, shuffling the words just shuffles the output rows, Y(πX) = πY(X) up to rounding ({ $bound }), so the layer cannot see the order
takeaway-order-without-differs = Without P, shuffling the words should just shuffle the output rows, yet Y(πX) and πY(X) differ by up to { $gap }, more than rounding ({ $bound })
# $family: the family's name (label-order-family-with).
takeaway-order-with-rounding = with { $family } the gap is within rounding too
takeaway-order-with-differs = with { $family } the rows differ by up to { $gap }: it sees the order
takeaway-order = { $without }; { $with }.
label-order-no-tokens = (no tokens)
readout-order-permutation-nothing-moved = { " " }— nothing moved, so both numbers are 0
# $description: what the permutation does (from the permutation's code).
readout-order-permutation = Permutation: { $description }{ $nothing }
readout-order-gap-exactly-zero = 0 (exactly)

## The scale-and-add panel's read-outs (src/model/scaling.rs)

# The two lines on both canvases when the sentence has no tokens.
figure-scaling-no-tokens = The sentence has no tokens.
figure-scaling-type-words = Type a few words in the attention panel.
# The RMS values at the page's d: $encoding is P's, $embedding the page's embeddings', $scaled theirs × √d, the ratios are to P's RMS; $normal, $normal_scaled: embeddings drawn N(0, 1); $sqrt_d = √d.
readout-scaling-magnitudes = At d = { $d }, P's entries lie in [−1, 1] with RMS { $encoding }. This page's embeddings, drawn with entries of size ≈ 1/√d like the original Transformer's, have RMS { $embedding }, and { $scaled } after × √d: without √d the content is { $unscaled_ratio }× the position's size (it fades as d grows), with it { $scaled_ratio }×. The same words drawn N(0, 1) instead (PyTorch's nn.Embedding, Flux's Embedding by default) have RMS { $normal }, and × √d makes it { $normal_scaled } (≈ √d = { $sqrt_d }): { $normal_ratio }× P's RMS instead of { $scaled_ratio }×.
# Two tokens' dot product, added and concatenated: $xx, $cross, $pp are its terms; $columns = 2d; $cross_size = |x·p + p·x|, $relative its share of $bound; $cosine = 1/√d.
readout-scaling-dots = “{ $token_i }” (position { $i }) · “{ $token_j }” (position { $j }), embeddings { $scaled ->
        [scaled] × √d
       *[unscaled] not scaled
    }: added (x+p)·(x+p) = { $added } = x·x { $xx } + cross terms x·p + p·x { $cross } + p·p { $pp }; concatenated [x; p]·[x; p] = { $concatenated } = x·x + p·p, no cross terms, but 2d = { $columns } columns. Relative to the norms the cross terms are small: |x·p + p·x| = { $cross_size } is { $relative } of ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖ = { $bound }, the most it could be (random directions in d = { $d } dimensions have cosines of order 1/√d ≈ { $cosine }); next to x·x or p·p they need not be.

## The similarity panel's read-outs and labels (src/model/similarity.rs)

# What the heatmap shows ($what below).
readout-similarity-gram = Gram matrix G = P·Pᵀ (diverging map, ±⌈d/2⌉)
readout-similarity-distances = distances ‖p_i − p_j‖ (viridis, 0 = dark)
readout-similarity-on-webgpu = computed on WebGPU (Gram kernel, drawn by the render pass)
readout-similarity-on-cpu = computed on the CPU
# Which rows the heatmap covers ($extent below); $budget is the multiply-adds per redraw (1.7e7).
readout-similarity-extent-capped = positions 0–{ $last } only (of n = { $n }: r²·d ≤ { $budget } multiply-adds per redraw keeps the page live)
readout-similarity-extent-one = position 0 (all of n = { $n })
readout-similarity-extent = positions 0–{ $last } (all of n = { $n })
# $error: the GPU's error message.
readout-similarity-gpu-failed = { " " }The GPU path failed ({ $error }); the CPU drew it.
# $spread: the largest deviation (1.0e-6) over the first $rows rows; $fallback: the message above or empty.
readout-similarity-heatmap-odd = The { $what } of { $extent }, { $source }. With odd d the diagonals G[i, i+k] are not exactly constant: largest deviation from a diagonal's mean { $spread } over the first { $rows } { $rows ->
        [one] row
       *[other] rows
    } (the unpaired last sine column).{ $fallback }
readout-similarity-heatmap = The { $what } of { $extent }, { $source }. Every diagonal G[i, i+k] is constant: largest deviation from its mean { $spread } over the first { $rows } { $rows ->
        [one] row
       *[other] rows
    } (float32 rounding).{ $fallback }
readout-similarity-live = At d = { $d }, base { $base }: p₅·p₆ = { $p5p6 }, p₁₀₅·p₁₀₆ = { $p105p106 }, p₅·p₁₀ = { $p5p10 }
readout-similarity-forum = The Q&A's worked numbers, recomputed (d = 16, base 10000): p₅·p₆ = { $p5p6 }, p₁₀₅·p₁₀₆ = { $p105p106 }, p₅·p₁₀ = { $p5p10 }
# The curves p_i·p_(i+k) from i = $i and from i = $shifted; $difference: their largest difference.
readout-similarity-curve = From i = { $i } and from i = { $shifted }: largest difference between the two curves { $difference } — the similarity depends on the offset k only.
readout-similarity-curve-odd = From i = { $i } and from i = { $shifted }: largest difference between the two curves { $difference } — with odd d = { $d } the unpaired last sine column makes it depend on i a little.
# $si, $sj: the positions i and i + 1 as subscripts (₃, ₄); $double = 2n.
readout-similarity-normalized = Neighbours { $i } and { $next }: (i/n)·((i+1)/n) = { $short } at n = { $n } but { $long } at n = { $double } — the same two tokens, a different similarity. p{ $si }·p{ $sj } = { $dot } at every n.
readout-similarity-no-neighbour = Position i = { $i } has no neighbour inside a sequence of n = { $n }: raise n or lower i (p{ $si }·p{ $sj } = { $dot } needs no n).
readout-similarity-distance-single = ‖p₀ − p₁‖ = { $near }, ‖p₄₀ − p₄₁‖ = { $later }; with d = { $d } there is a single frequency, so there are no slow columns.
# $equal below.
readout-similarity-distance-equal = : neighbours are equally far apart at every position (the distance depends on the offset only).
readout-similarity-distance-almost = { " " }(odd d: almost, not exactly, equal).
readout-similarity-slow-columns-still = Over a few positions these columns barely move, wherever the positions are, so neighbours differ mostly in the fast columns on the left.
readout-similarity-slow-columns-move = At base { $base } these columns are not slow enough to stay still: neighbours differ in them too.
# The slow columns are $first–$last; $max01, $max4041: their largest change; $share01, $share4041: percent of the squared distance; $verdict: one of the two sentences above.
readout-similarity-distance = ‖p₀ − p₁‖ = { $near } and ‖p₄₀ − p₄₁‖ = { $later }{ $equal } Early rows are not special, neighbours are as alike at position 40 as at position 0: the slow columns { $first }–{ $last } change by at most { $max01 } between p₀ and p₁ ({ $share01 }% of the squared distance) and by at most { $max4041 } between p₄₀ and p₄₁ ({ $share4041 }%). { $verdict }
# Legend labels of the two curves and of the normalised positions.
figure-similarity-curve-from = from i = { $i }
figure-similarity-normalized = normalised, n = { $n }
figure-similarity-no-neighbour = Position i = { $i } has no neighbour in n = { $n }
# A heatmap cell: $value is its formula and number (G[5, 6] = p₅·p₆ = 1.5403).
readout-similarity-cell = position i = { $i } (row), position j = { $j } (column), offset k = { $offset }: { $value }

## The binary-analogy panel's read-out (src/model/binary.rs)

# The slowest bit k = $bit (period $bit_period numbers) and the pair j = $pair of the closest period.
readout-binary-slowest = { " " }The slowest bit here (k = { $bit }, period { $bit_period }) is closest to pair j = { $pair } (period { $pair_period }).
readout-binary-index-one = { " " }With index=1 the rows of P are positions 1…n: row r of P sits beside the number r − 1.
# $bits bits number 0…$last; $fastest: the fastest pair's period (6.28); $step: how many times slower each next pair is (or —); $slowest, $index: the messages above or empty.
readout-binary-summary = { $bits } { $bits ->
        [one] bit
       *[other] bits
    } number 0…{ $last }: bit k repeats every 2^(k+1) numbers (2, 4, 8, …). The encoding's pairs slow down the same way, but smoothly: the fastest pair repeats every 2π ≈ { $fastest } positions (no column alternates like the lowest bit), and each next pair is { $step } times slower (base^(2/d)), not 2 times.{ $slowest }{ $index }
# Under the period table: $more pairs not listed, the last of period $period.
readout-binary-more-pairs = … { $more } more pairs, up to period { $period }

## The projection panel's takeaway (src/model/projection_figure.rs)

takeaway-projection-no-pair = With d = 1 the encoding has one sine column and no (sin, cos) pair to turn: raise d.
takeaway-projection-one-position = With n = 1 there is one position and no offset to turn it by: raise n to see every point turn by the same angle.
takeaway-projection-no-offset = With δ = 0, M is the identity: every p_i is its own p_(i+δ), so nothing turns; move δ to see every point turn by the same angle.
# The angle δ·ω_j in radians and degrees; past half a turn, the turn M makes ($degrees, reduced).
takeaway-projection-turn = { $radians } rad ({ $degrees }°)
takeaway-projection-turn-wrapped = { $radians } rad, a turn of { $degrees }°
takeaway-projection-why-textbook = { " " }(the textbook float32 angles)
takeaway-projection-why-rounding = { " " }(float32 rounding)
takeaway-projection-positions = { $count ->
        [one] the 1 position i
       *[other] all { $count } positions i
    }
# $pair: the pair j; $turn: one of the two turns above; $positions: the message above; $error: the largest miss (5.96e-8); $why: a reason above or empty.
takeaway-projection = Yes: every arrow turns by the same δ·ω_{ $pair } = { $turn }, so one matrix M carries p_i to p_(i+δ) for { $positions }, missing by at most { $error }{ $why }.

## The web layer's figure texts, axis titles, legends, buttons and status lines (src/web/panels, src/web/draw, src/web/page.rs, src/web/embed.rs, src/web/gpu_backend.rs, src/web/train_workers.rs, src/web/api.rs, src/model/plot.rs, src/model/settings/controls.rs)

# Under a figure whose cell names are thinned: "every 2nd key" (one axis), joined by label-thinned-separator, then label-thinned. $step: every how many cells one is named; $suffix: the English ordinal ending of $step (st, nd, rd or th); $noun: what one cell of the axis is (its axis title's first words, "key", "query position", "token").
label-thinned-part = every { $step }{ $suffix ->
        [st] st
        [nd] nd
        [rd] rd
       *[th] th
    } { $noun }
label-thinned-separator = { ", " }
# $parts: one or more label-thinned-part joined by label-thinned-separator.
label-thinned = { $parts } labelled
# What one row of the pipeline figure is, in "every 2nd token labelled".
label-noun-token = token
label-noun-key = key
# A slider's spoken value (aria-valuetext).
label-slider-valid-len = valid_len = { $valid } of { $tokens } keys
label-slider-valid-len-all = valid_len = all { $tokens } keys
label-slider-kernel-size = kernel size k = { $k }
label-slider-sharpness = sharpness κ = { $beta }
label-slider-scale-factor = scale factor s = { $scale }
label-slider-training-length = training length L = { $length }
# Axis titles shared by several figures.
label-axis-column-encoding-dimension = Column (encoding dimension)
label-axis-column-encoding-dimension-from-one = Column (encoding dimension, counted from 1)
label-axis-row-position = Row (position)
label-axis-row-position-from-one = Row (position, from 1)
label-axis-key-position-j = Key position j
label-axis-query-position-i = Query position i
label-axis-key-j = Key j
label-axis-query-i = Query i
label-axis-key = Key
label-axis-query = Query
label-axis-key-position-p-alone = Key position (P alone)
label-axis-query-position-p-alone = Query position (P alone)
label-axis-column = Column
label-axis-position-i = Position i
label-axis-position-j = Position j
label-axis-offset-k = Offset k
label-axis-layer-l = Layer L
label-axis-pair-j = Pair j
# The aria-label of a figure too wide for the page, which scrolls sideways.
label-figure-scrolls-sideways = Figure, scrolls sideways
# A value given to peLab.set that is neither a number nor text, as a notice quotes it.
label-api-not-a-number-or-text = [not a number or text]
# The exported CSV's header line: "index=1 (row r is …)".
label-csv-index = { $first } (row r is position r + { $first }; col_c counts columns from 0)
label-csv-textbook = 1 (float32 angles)
# The CSV title of the curves panel's export: "# pe-lab P columns: d=…".
label-csv-p-columns = P columns
# The curves' legend: $column: the column's number; $kind: sin or cos; $period: its period in positions.
figure-curves-legend = col { $column }: { $kind }, period { $period }
figure-curves-legend-from-one = col { $column } (1-based): { $kind }, period { $period }
figure-curves-y = Value p[i, column]
# The projection's axis with columns counted from 1: $f: sin or cos; $pair: j.
figure-projection-axis-from-one = column { $column } (1-based) = { $f }(i·ω_{ $pair })
figure-alibi-biases-x = Key j (one block per head, head 0 top left)
figure-alibi-weights-x = Distance i − j back to the key
figure-alibi-weights-y = Weight (bias alone)
figure-attention-no-tokens = The sentence has no tokens.
figure-attention-type-words = Type a few words above.
status-attention-no-tokens = No tokens: type a sentence to see its attention weights.
figure-binary-bits-x = Bit k (lowest first)
figure-binary-bits-y = Number i
figure-complexity-chart-rnn = RNN n·d²
figure-complexity-chart-self-attention = self-attention n²·d
figure-complexity-chart-x = Sequence length n (log)
figure-complexity-chart-y = Operations (log)
# The path diagrams' short caption: $drawn of n positions are drawn.
figure-complexity-diagram-drawn = { $drawn } of n = { $n } positions drawn.
figure-complexity-diagram-maximum-path-length = maximum path length
figure-complexity-diagram-longest-path = longest path
# The diagrams' titles, each with a shorter form for a narrow canvas.
figure-complexity-diagram-rnn = RNN
figure-complexity-diagram-rnn-short = RNN
figure-complexity-diagram-self-attention = Self-attention
figure-complexity-diagram-self-attention-short = Attention
# Two lines of one sentence, drawn where the figures would be.
figure-extension-too-few-pairs-line-1 = Context extension needs at least
figure-extension-too-few-pairs-line-2 = two rotary pairs: d ≥ 4.
figure-extension-ratios-x = Pair j (θ_j = base^(−2j/d))
figure-extension-legend-yarn-as-run = YaRN (as run)
figure-extension-legend-yarn-paper = YaRN (paper)
figure-extension-wavelengths-y = Wavelength 2π/θ_j (log)
figure-learned-table-y = Position (grey: no row in E)
figure-nope-x = Position t (log)
figure-nope-y = Output of the start indicator (log)
figure-nope-legend-causal = causal: 1/t
figure-nope-legend-bidirectional = bidirectional: 1/{ $n }
status-order-no-tokens = No tokens: type a sentence in the attention panel.
figure-order-no-tokens = No tokens to permute.
figure-order-legend-without = without P (0: float32 rounding)
# $encoding: the position family's name (sinusoidal P, RoPE, …).
figure-order-legend-with = with { $encoding }
figure-order-x = Output row i (the i-th token of πX)
figure-order-y = max |Y(πX) − πY(X)| in the row
figure-pipeline-no-tokens = The sentence has no tokens.
figure-pipeline-type-words = Type a few words in the attention panel.
# $legend: the figure's legend (figure-pipeline-legend); $thinned: label-thinned.
figure-pipeline-legend-thinned = { $legend } Token names: { $thinned }.
figure-rope-residuals-x = Shift Δ (log)
figure-rope-residuals-y = Shift residual (log)
figure-rope-decay-x = Relative distance r = n − m
figure-rope-decay-y = |⟨R_m q, R_n k⟩| (log)
figure-rope-legend-bound = bound on |score|
figure-rope-legend-mean = mean |score|
figure-scaling-legend-this-page = x ≈ 1/√d (this page)
figure-scaling-x = Width d (log)
figure-scaling-y = RMS of the entries (log)
figure-scaling-bar-added = added
figure-scaling-bar-concatenated = concat.
figure-scaling-dots-y = Dot product
figure-shaw-table-x = Dimension
figure-shaw-table-y = Offset j − i (clipped)
figure-similarity-raise-n = Raise n or lower i.
figure-stacking-residuals-y = Rank residual r_L (log)
figure-stacking-probe-y = Held-out probe R²
figure-stacking-legend-probe = probe R²
figure-t5-x = Relative position δ = key − query
figure-t5-y = Bucket
figure-t5-legend-encoder = encoder
figure-t5-legend-decoder = decoder (causal)
# The compute badge's tooltip; $badge: badge-webgpu, badge-cpu or badge-cpu-because.
status-badge-title = Where the numbers are computed: { $badge }
status-link-copied = Link copied.
status-copy-this-link = Copy this link: { $href }
# Each panel's export menu; $panel: the panel's name in links (heatmap, curves, …).
button-save = Save
button-save-title = Save the figures or numbers of “{ $panel }”
label-export-toolbar = Export “{ $panel }”
button-export-png-title = Save this figure as a PNG image
# The Save menu's name of each figure of a panel with several (“PNG: operations against n”),
# by the canvas's id ($canvas).
figure-save-name = { $canvas ->
    [pretrained-grid] every head of the trained model
    [pretrained-head] the chosen head of the trained model
    [complexity-chart] operations against n
    [complexity-paths] paths between positions
    [binary-bits] bits of 0 to n − 1
    [binary-p] P beside the bits
    [sim-heatmap] similarity map
    [sim-curve] pᵢ · pᵢ₊ₖ against k
    [sim-norm] normalised positions against k
    [scale-chart] sizes against d
    [scale-dots] add versus concatenate
    [rope-residuals] shift residuals
    [rope-decay] RoFormer's bound
    [rope-scores] scores at every position
    [ext-ratios] frequency ratios
    [ext-wavelengths] wavelengths
    [alibi-biases] bias of every head
    [alibi-weights] weights against distance
    [alibi-heatmap] head 0's weights
    [shaw-table] relative key table
    [shaw-logits] the sentence's logits
    [learned-table] seeded table E
    [learned-trained] MiniLM's trained table
    [stack-residuals] rank residual per layer
    [stack-probe] position probe per layer
    [train-loss] training loss
    [train-accuracy] accuracy against length
    [train-table] trained table E
    [train-p] sinusoidal P
    [train-gram] the table's cosines
    [train-gram-p] P's cosines
    [train-attention] one head's weights
   *[other] { $canvas }
    }
button-export-csv-title = Save the exact numbers (float32) as CSV
button-export-svg-title = Save the figure as an SVG drawing
# An embedded panel's button that shows its text.
button-embed-about = About this figure
# $value: what the link asked for; $panels, $choices: the names it may take.
notice-embed-unknown = embed = '{ $value }' is not a panel; the panels are: { $panels }.
notice-controls-unknown = controls: '{ $value }' is not one of { $choices }.
# Why WebGPU is not used (notice-gpu-unavailable's or notice-gpu-failed's $reason); $error, $message: the browser's words.
status-gpu-no-webgpu = this browser has no WebGPU (navigator.gpu is missing)
status-gpu-no-adapter = no WebGPU adapter: { $error }
status-gpu-no-canvas-format = the WebGPU canvas offers no format
status-gpu-device-lost = device lost ({ $reason }): { $message }
status-gpu-error = GPU error: { $error }
# Why a training run failed; $error: the browser's or the parser's words.
status-train-worker-report-unreadable = a worker's report could not be read: { $error }
status-train-worker-not-started = the training worker could not be started: { $error }
status-train-worker-failed-to-load = the training worker failed to load

## The order panel's permutation (src/model/settings/permutation.rs) and the sliders' spoken values (src/model/settings/table.rs)

order-permutation-too-few-tokens = fewer than two tokens: nothing to permute
order-permutation-none = no permutation (every token in place)
order-permutation-swap = the seeds' swap: "3" ↔ "4"
# $first, $last: the sentence's first and last tokens.
order-permutation-swap-first-and-last = "3" and "4" are not both in the sentence: swapping the first and last tokens ("{ $first }" ↔ "{ $last }")
order-permutation-shuffle = shuffle #{ $seed }
label-slider-position-i = position i = { $value }
label-slider-largest-offset = largest offset k = { $value }
label-slider-alibi-heads = ALiBi heads H = { $value }
label-slider-clipping-distance = clipping distance k = { $value }
label-slider-table-length = table length L_max = { $value }
label-slider-layers = { $value } layers
label-slider-relative-distances = relative distances ±{ $value }
