# 页面的 wasm 根据数值计算出的句子（见 src/model/messages/mod.rs）。术语见 ../glossary-zh.md。

messages-selftest = { $count } 个句子

## 列表

list-or = { $rest } 或 { $last }
list-separator = { "、" }

## 提示：链接或 peLab.set 中页面无法使用的值，以及改用的值

notice-unknown-key = 未知参数“{ $key }”，已忽略。
notice-not-a-finite-number = { $key } = “{ $value }”不是有限数值；{ $key } 保持不变。
notice-not-a-whole-number = { $key } = { $value } 不是整数；改用 { $used }。
notice-integer-outside = { $key } = { $value } 超出 { $min }…{ $max }；改用 { $key } = { $used }。
notice-not-a-switch = { $key } = “{ $value }”不是 on 或 off（1 或 0）；{ $key } 保持不变。
notice-decimal-outside = { $key } = { $value } 超出 { $min }…{ $max }{ $why }；改用 { $used }。
notice-why-extension-scale = （上下文扩展为 s 倍）
notice-not-a-number = { $key } = “{ $value }”不是数值；保持 { $kept }。
notice-not-a-name = { $key } = “{ $value }”不是 { $choices }；保持 { $kept }。
notice-base-outside = base = { $value } 超出 { $min }…{ $max }；改用 { $used }。
notice-column-not-an-index = 列“{ $value }”不是列索引；已忽略。
notice-column-zero-counted-from-one = 列从 1 开始计数时不存在第 0 列；已忽略。
notice-too-many-curves = 最多绘制 { $limit } 条曲线；保留前 { $limit } 条。
notice-columns-do-not-exist = d = { $d } 时不存在第 { $columns } 列（列为 0…{ $last }）。
notice-backend-limits = 此计算后端最多支持 d = { $d_max }、n = { $n_max }；改用 d = { $d }、n = { $n }。
notice-delta-does-not-fit = δ = { $requested } 超出 n = { $n } 个位置的序列；改用 δ = { $used }。
notice-pair-does-not-exist = d = { $d } 时不存在列对 j = { $requested }；改用 j = { $used }。
notice-heads-do-not-divide = heads = { $heads } 不能整除 d = { $d }；改用 heads = { $used }。
notice-sentence-cut = 句子超过 { $limit } 个字符，已截断。
notice-sentence-too-long = 句子有 { $words } 个词；注意力面板只使用前 { $limit } 个。
notice-valid-len-too-long = valid_len = { $value } 超过了 { $tokens } 个词元；全部使用（不掩蔽）。
notice-lens-invalid = lens = “{ $value }”必须是两个有效长度，例如 3,2；保持 { $first },{ $second }。
notice-perm-invalid = perm = “{ $value }”不是 swap、none 或打乱种子（整数）；保持 { $kept }。
notice-tenc-unknown-name = tenc：“{ $value }”不是 { $choices } 之一；已略去。
notice-tenc-empty = tenc = “{ $value }”没有指定任何编码；保持 { $kept }。
notice-preset-unknown = preset = “{ $value }”不是以下之一：{ $choices }。
notice-compute-unknown = compute = “{ $value }”不是 auto、gpu 或 cpu；改用 auto。
notice-lang-unknown = lang = “{ $value }”不是以下之一：{ $choices }；显示英文。

## 计算标识与状态行

badge-webgpu = WebGPU（{ $adapter }）
badge-cpu = CPU · Rust → WebAssembly
badge-cpu-because = CPU · Rust → WebAssembly（{ $why }）
reason-compute-cpu = 由 ?compute=cpu 选定
reason-no-webgpu = 此处没有 WebGPU
reason-software-adapter = auto：唯一的 WebGPU 适配器是软件回退实现，它在 CPU 上运行，比这条路径更慢；?compute=gpu 仍会使用它
reason-software-adapter-named = auto：唯一的 WebGPU 适配器是软件回退实现（{ $adapter }），它在 CPU 上运行，比这条路径更慢；?compute=gpu 仍会使用它
status-frame-time = 上次更新 { $ms } 毫秒
notice-gpu-failed = WebGPU 停止工作（{ $reason }）；已切换到 CPU 路径。
notice-gpu-unavailable = 请求了 WebGPU（?compute=gpu），但它不可用：{ $reason }。改用 CPU 路径。
notice-listener-chain = 一个 peLab.on('change') 监听器不断调用 peLab.set：在 { $limit } 轮更改后停止（最后一次更改未应用）。

## 编码面板的要点（src/model/takeaway_encoding.rs）

# 热图的问题：为什么靠前的位置看起来相像，d 为奇数时是否仍然可用。$fastest、$slowest：以位置计的周期。
takeaway-heatmap-one-column = d = 1 时每一行只是一个周期为 { $fastest } 个位置的正弦，所以正弦值相近的行看起来相像，无论靠前还是靠后；d 为奇数也可以：这唯一的一列只是没有余弦。
takeaway-heatmap-one-pair = 相邻的行处处相像，并不只是靠前的位置：每一行是一个正弦和它的余弦，每过一个位置转过固定的一步（周期 { $fastest }）。d 为奇数也可以：那时最后一列是没有余弦的正弦。
takeaway-heatmap = 相邻的行处处相像，并不只是靠前的位置：每一列都是一条波，周期从 { $fastest } 个位置（左）到 { $slowest }（右），所以相近的行在左边差别最大。d 为奇数也可以：那时最后一列是没有余弦的正弦。
# $last：最后一列的编号。
takeaway-heatmap-odd = 相邻的行处处相像，并不只是靠前的位置：每一列都是一条波，周期从 { $fastest } 个位置（左）到 { $slowest }（右），所以相近的行在左边差别最大。d = { $d } 为奇数也可以：最后一列，第 { $last } 列，是没有余弦的正弦。
# 相似度面板用本章的总结回答“为什么不用 i/n？”：为什么用正弦和余弦。$map："distance"（图中是 ‖pᵢ − pⱼ‖）或 "gram"（P·Pᵀ）；$spread：格拉姆矩阵元素与其对角线均值的最大偏差。
takeaway-similarity-one-column = 因为 i/n 随 n 而变，而正弦和余弦给每个位置一个固定的编码；d = 1 时这个编码只有一个正弦，有界（在 [−1, 1] 内），却没有与它一起旋转的余弦，所以 pᵢ·pᵢ₊ₖ 取决于 i：{ $map ->
        [distance] 距离 ‖pᵢ − pⱼ‖
       *[gram] P·Pᵀ
    } 的对角线会变化（格拉姆矩阵的元素最多变化 { $spread }）。
takeaway-similarity-odd = 因为 i/n 随 n 而变，而正弦和余弦给每个位置一个固定的编码：有界（在 [−1, 1] 内）、唯一，并且在每个 (sin, cos) 列对中都由同一个旋转带到 k 个位置之后；d = { $d } 为奇数时最后一个正弦没有余弦，所以 pᵢ·pᵢ₊ₖ 也取决于 i：{ $map ->
        [distance] 距离 ‖pᵢ − pⱼ‖
       *[gram] P·Pᵀ
    } 的对角线会变化（格拉姆矩阵的元素最多变化 { $spread }）。
takeaway-similarity = 因为 i/n 随 n 而变，而正弦和余弦给每个位置一个固定的编码：有界（在 [−1, 1] 内）、唯一，并且在任何位置都由同一个旋转带到 k 个位置之后，所以 pᵢ·pᵢ₊ₖ 只取决于 k：{ $map ->
        [distance] 距离 ‖pᵢ − pⱼ‖ 的每条对角线都是恒定的（在 P·Pᵀ 中精确到 { $spread }）
       *[gram] P·Pᵀ 的每条对角线都是恒定的（精确到 { $spread }）
    }，靠前的位置并不比靠后的位置更相像。

## 训练面板在其模块加载之前的句子（src/model/train.rs、src/web/panels/train.rs）。

train-takeaway-press-one = 按“训练”：1 种编码在 { $seeds } 个种子上学习 { $task } 任务；结论只陈述在每个种子上都成立的结果。
train-takeaway-press-many = 按“训练”：{ $encodings } 种编码并排学习 { $task } 任务，每种都在 { $seeds } 个种子上；结论只陈述在每个种子上都成立的结果。
train-progress-not-trained = 尚未训练。
train-trainer-cpu-asked = 在 CPU 上训练，按链接的要求（trainer=cpu）：在每台机器上都得到逐位相同的结果。
train-trainer-gpu-asked = 在 GPU（WebGPU）上训练，按链接的要求（trainer=gpu）。它的求和顺序与 CPU 不同，所以它的损失与 trainer=cpu 的接近，但并非逐位相同；在同一个 GPU 和浏览器上则完全可重复。
train-trainer-page-cpu = 在 CPU 上训练：页面在 CPU 上计算（{ $why }），所以没有尝试 GPU 训练器。
train-trainer-will-measure = 按“训练”后会先为 GPU 和 CPU 训练器计时，然后在较快的那个上训练。
train-trainer-measuring = 正在用这些设置为 GPU 和 CPU 训练器计时…
train-task-description = { $task ->
        [shift] y_i = x_(i−k)：需要相对位置（哪个词元在 k 个位置之前）
        [reverse] y_i = x_(n−1−i)：需要绝对位置和序列的长度
       *[histogram] y_i = x_i 在序列中出现的次数：完全不需要位置
    }
train-chance-uniform = 随机猜测水平 { $percent }（从 { $vocab } 个词元中均匀地猜一个）
train-chance-most-likely = 随机猜测水平 { $percent }（总是猜长度 { $length } 时最可能的出现次数）
train-task-line = { $task }；{ $chance }。
train-notice = { $key } = { $requested }：{ $reason }；改用 { $key } = { $used }。
train-notice-range = { $field } 必须在 { $low } 到 { $high } 之间
train-notice-d-multiple = d 必须是 2 × heads = { $unit } 的倍数
train-notice-learning-rate = 学习率必须是 { $low } 到 { $high } 之间的数

## 曲线与二进制面板的要点（src/model/takeaway_encoding.rs）

# 曲线面板的问题：为什么第 6、7 列比第 8、9 列振荡得快，为什么每个余弦都是其正弦平移四分之一个周期？$why 是要点的开头（下面两条之一）；$here：所选各列的周期（其后的消息）。
takeaway-curves-why = 每个列对 j 是同一个角度 i·ω_j 的正弦和余弦，ω_j = base^(−2j/d) 越往右越小，而 cos x = sin(x + π/2)：两者相差四分之一个周期。
takeaway-curves-why-one-column = d = 1 时唯一的一列是一个角度 i·ω_0 的正弦，ω_0 = 1，没有余弦。
takeaway-curves = { $why }{ $here }
takeaway-curves-none = 选一个小于 d 的列，即可看到它的曲线。
takeaway-curves-sine-and-cosine = 这里第 { $columns } 列每 { $period } 个位置重复一次，所以四分之一个周期是 { $quarter } 个位置。
# 中文不区分单复数：$count 只有一个默认变体。
takeaway-curves-one-pair = { $count ->
       *[other] 这里第 { $columns } 列
    }每 { $period } 个位置重复一次。
takeaway-curves-pairs = { $count ->
       *[other] 这里第 { $columns } 列
    }每 { $period } 个位置重复一次，{ $more }。
takeaway-curves-more-columns = 第 { $columns } 列每 { $period } 个位置
takeaway-curves-last-columns = …，第 { $columns } 列每 { $period } 个位置
takeaway-curves-and = ，
# 二进制面板的问题：二进制编码的频率与 P 的频率是否对应，为什么？
takeaway-binary-one-frequency = 原则上它们是对应的：两者都用快慢不同的列来区分位置，位每向右一列慢 2 倍（{ $bits ->
        [1] 第 0 位每 2 个数重复一次
       *[other] 第 k 位每 2ᵏ⁺¹ 个数重复一次：{ $listed }
    }）；d = { $d } 时 P 只有一个频率，周期为 { $period } 个位置。
takeaway-binary = 它们是对应的：两者都用左边的快列和右边较慢的列来区分位置，位每向右一列慢 2 倍（{ $bits ->
        [1] 第 0 位每 2 个数重复一次
       *[other] 第 k 位每 2ᵏ⁺¹ 个数重复一次：{ $listed }
    }），P 的列对则平滑地每次慢 { $step } 倍（第 j 个列对每 { $period } × { $step }ʲ 个位置重复一次）。

## 面板的标题、说明（嵌入时的一行）、短名称（课程按钮）与课程的各部分（src/model/panels.rs）

lesson-part = { $part ->
    [self-attention] 自注意力
    [comparing] 比较卷积神经网络、循环神经网络和自注意力
    [positional-encoding] 位置编码：绝对位置与相对位置
    [questions] 读者提问
    [beyond] 本章之外
    [exercise] 练习 2：动手训练
   *[other] { $part }
    }
panel-title = { $panel ->
    [attention] 一个句子的注意力权重
    [pipeline] Q、K 和 V 到底是什么？
    [heads] 多头注意力与 valid_lens
    [complexity] 卷积神经网络、循环神经网络与自注意力
    [order] 没有位置编码，顺序就会丢失
    [heatmap] 位置编码矩阵 P
    [curves] 各列随位置的变化
    [binary] 与二进制的类比
    [projection] 相对位置：对每个 i 都是同一个旋转
    [similarity] 相似度与平移不变性
    [scaling] 按 √d 缩放，用相加而非拼接
    [pretrained] 训练好的模型的位置：MiniLM
    [rope] RoPE：旋转查询和键
    [extension] 更长的上下文：位置插值、NTK-aware 缩放、YaRN
    [alibi] ALiBi：用线性偏置代替向量
    [t5] T5 的相对位置分桶
    [shaw] 相对位置嵌入（Shaw 等人）
    [learned] 可学习的位置嵌入表
    [nope] 完全不用位置编码：由因果掩码来计数
    [stacking] 堆叠注意力层
    [train] 模型能学会位置吗？
   *[other] { $panel }
    }
panel-caption = { $panel ->
    [attention] 在一个未训练的层中，每个词（一行）对每个词（一列）的注意力有多大。
    [pipeline] 头 0 的一个注意力层，逐步展示：Z、Q、K、V、分数、权重和输出。
    [heads] 每个头和每个序列各一张注意力图；同一序列的每个头都掩蔽相同的键。
    [complexity] 随 n 增长，卷积神经网络、循环神经网络和自注意力的运算量与路径长度。
    [order] 没有 P 时，置换词元只会置换输出；有了 P，输出就会改变。
    [heatmap] 第 i 行是加到位置 i 的词元上的向量；各列从左到右逐渐变慢。
    [curves] P 的各列随位置的变化：频率沿列降低，正弦与余弦成对出现。
    [binary] 0 … n − 1 的二进制位与 P 并列：两者都从左到右逐渐变慢。
    [projection] 移动 δ 个位置时，每个位置的第 j 个列对都转过同一个角度 δ·ωⱼ。
    [similarity] d 为偶数时，两个位置编码的相似度只取决于它们的偏移。
    [scaling] 词嵌入乘以和不乘以 √d 时的元素大小，以及 P 的元素大小；相加与拼接。
    [pretrained] 你的句子经过一个训练好的 Transformer，有位置和没有位置。
    [rope] RoPE 旋转查询和键：分数只取决于偏移（舍入误差之内）。
    [extension] 位置插值、NTK-aware 缩放和 YaRN 如何改变每个旋转列对的频率。
    [alibi] ALiBi 给每个头的因果分数加上一个与距离成线性关系的惩罚。
    [t5] T5 为每个相对距离分配的桶，分别在编码器和解码器中。
    [shaw] 句子的 logits，每个截断后的偏移有一个可学习的键向量（Shaw 等人，2018）。
    [learned] 训练开始时的可学习位置表 E：Lmax 以下的每个位置一行。
    [nope] 有因果掩码而没有位置编码时，第一层可以在位置 t 输出 1/t。
    [stacking] 堆叠的注意力层：各行多快变得相同，以及位置信息能否保留下来。
    [train] 在浏览器中并排训练各种编码：损失、各长度上的准确率、一张可学习的表。
   *[other] { $panel }
    }
panel-short = { $panel ->
    [attention] 注意力权重
    [pipeline] Q、K 和 V
    [heads] 多头注意力
    [complexity] CNN 与 RNN
    [order] 顺序丢失
    [heatmap] P 的热图
    [curves] 各列曲线
    [binary] 二进制类比
    [projection] 相对位置
    [similarity] 相似度
    [scaling] 按 √d 缩放
    [pretrained] 训练好的模型
    [rope] RoPE
    [extension] 更长的上下文
    [alibi] ALiBi
    [t5] T5 分桶
    [shaw] Shaw 等人
    [learned] 可学习的表
    [nope] 不用编码
    [stacking] 堆叠层
    [train] 训练编码
   *[other] { $panel }
    }

## 课程导航（src/web/lesson.rs）

lesson-sections = 共 { $count } 节
lesson-menu-title = 课程的各节，按本章的顺序
lesson-menu-title-at = 第 { $at } 节，共 { $count } 节：{ $title }。课程的各节，按本章的顺序
lesson-button-to = { $which ->
        [previous] 上一节
       *[next] 下一节
    }：{ $title }（{ $shortcut }）
lesson-button = 课程的{ $which ->
        [previous] 上一节
       *[next] 下一节
    }（{ $shortcut }）

## 编码面板的读数与说明（src/model/present.rs）

summary-p = P 为 { $n } × { $d }（{ $values } 个值），取值范围 [{ $min }, { $max }]；{ $frequencies ->
        [1] 1 个频率，周期为 { $shortest } 个位置
       *[other] { $frequencies } 个频率，周期从 { $shortest } 到 { $longest } 个位置
    }。
summary-p-odd = d = { $d } 是奇数：最后一列（第 { $last } 列）是没有余弦配对的正弦。
summary-p-odd-counted-from-one = d = { $d } 是奇数：最后一列（从 1 数起的第 { $d } 列）是没有余弦配对的正弦。
summary-p-julia = 行是位置 { $first }…{ $last }，列编号为 1…{ $d }，与 Julia 代码一致，其 P[c, i, 1] 是位置 i 处的第 c 列（即公式中从 0 数起的第 c − 1 列）。
summary-p-textbook = 这是教科书中的 float32 P：每个角度 i·ω_j 都以 float32 构成，正如 d2l 的 PyTorch/MXNet 代码那样。
summary-p-textbook-beside-exact = 热图是在 GPU 上计算的精确 P；曲线和投影使用在 CPU 上计算的教科书 float32 P。
summary-curves = { $count ->
       *[other] 第 { $columns } 列
    }随位置 { $first }…{ $last } 的变化。
summary-curves-julia = 这里的列和位置从 1 开始计数，与 Julia 代码及其图例一致（链接中的 cols 从 0 开始计数：{ $zero_based }）。本章的句子和公式 p[i, 2j] = sin(i·ω_j)、p[i, 2j+1] = cos(i·ω_j) 从 0 开始数列：其中的第 6 和 7 列（一个正弦及其余弦孪生列）以及第 8 和 9 列，在这里是第 7、8 列和第 9、10 列。
summary-curves-julia-figure = Julia 的图绘制的是 P[6:10, :]：第 6 列是第 2 个列对的余弦（它的正弦孪生列，第 5 列，没有画出），第 7 和 8 列是第 3 个列对，第 9 和 10 列是第 4 个列对。
summary-curves-textbook = 数值取自教科书的 float32 P。
readout-cell = 位置 { $position }，第 { $column } 列（{ $kind }，列对 j = { $pair }）：p = { $value }{ $textbook ->
        [yes] （教科书 float32）
       *[no] { "" }
    }
readout-cell-julia = 位置 { $position }，第 { $column } 列（{ $kind }，列对 j = { $pair }；Julia 的 P[{ $column }, { $position }, 1]）：p = { $value }{ $textbook ->
        [yes] （教科书 float32）
       *[no] { "" }
    }
note-projection = 列对 j = { $pair }（第 { $first } 和 { $second } 列），偏移 δ = { $delta }：同一个矩阵 M 把每个 p_i 变换到 p_(i+δ)。
note-projection-counted-from-one = 列对 j = { $pair }（从 1 数起的第 { $first } 和 { $second } 列；从 0 数起为 { $first_zero_based } 和 { $second_zero_based }），偏移 δ = { $delta }：同一个矩阵 M 把每个 p_i 变换到 p_(i+δ)。
note-projection-textbook = 下面的点和误差取自教科书的 float32 P。
note-projection-textbook-beside-exact = 下面的点和误差取自在 CPU 上计算的教科书 float32 P（上方的热图是 GPU 计算的精确 P）。
note-textbook = 教科书 float32：d2l 的 PyTorch/MXNet 代码以 float32 构成角度 i·ω_j = i / base^(2j/d)，float32 只保留 24 位有效二进制位，因此 i = { $last } 附近的数只能精确到约 i·2⁻²⁴ ≈ { $spacing }，而角度要经过这样的舍入（先求幂，再做除法）。这里角度的误差最多为 { $angle_error } rad，sin 和 cos 继承了这一误差：M·p_i 与 p_(i+δ) 最多相差 { $projection_error }。精确的 P 从不以 float32 构成角度。（Julia 版以 Float64 计算 P。）
readout-projection-angle = ω_{ $pair } = 每个位置 { $omega } rad；δ·ω_{ $pair } = { $angle } rad（{ $degrees }°）
readout-projection-angle-turned = ω_{ $pair } = 每个位置 { $omega } rad；δ·ω_{ $pair } = { $angle } rad，与 { $reduced } rad（{ $reduced_degrees }°）是同一个转角
note-projection-no-pair = d = 1 时编码只有一列正弦，因此没有可投影的列对。
figure-projection-no-pair-title = d = 1：唯一的一列是正弦。
figure-projection-no-pair-hint = 没有可旋转的 (sin, cos) 列对：请增大 d。

## 位置编码家族各面板的要点、读数和图中文字（src/model/takeaway_beyond.rs、rope.rs、extension.rs、alibi.rs、t5.rs、shaw.rs、learned.rs、nope.rs、stacking.rs）

takeaway-rope-no-pair = d = { $d } 没有可以旋转的维度对：RoPE 需要 d ≥ 2。
takeaway-rope-no-shifts = 没有测得任何平移。
takeaway-rope = { $depends_on ->
        [offset] 是的：按各自位置的角度旋转查询和键之后，分数里只剩下两个角度之差：把两者一起移动 Δ，分数在 float64 中（蓝色）至多改变 { $f64_max }
       *[position] 这里不是：把查询和键一起移动 Δ，它们的分数在 float64 中（蓝色）最多改变 { $f64_max }，超出了舍入误差
    }；float32 的舍入误差（橙色）从 Δ = { $first_shift } 处的 { $f32_first } 增长到 Δ = { $last_shift } 处的 { $f32_last }。
takeaway-extension-too-few-pairs = 旋转维度为 { $d } 时不足两个列对：这些扩展方法需要 d ≥ 4。
takeaway-extension = { $stretch ->
        [yes] 为了用模型见过的角度读取 s·L 个位置，这些方法降低频率
       *[no] s = 1 时没有什么需要拉伸
    }：在第 { $last_pair } 个列对（最慢的一对，在右端），{ $slow ->
        [all] 三种方法都把它的频率乘以 { $pi }
        [pi-ntk] PI 和 NTK-aware 把它的频率乘以 { $pi }，YaRN 乘以 { $yarn }
       *[each] PI 把它的频率乘以 { $pi }，NTK-aware 乘以 { $ntk }，YaRN 乘以 { $yarn }
    }；在第 0 个列对（最快的一对），{ $fast ->
        [kept] NTK-aware 和 YaRN 保持它不变（1），PI 同样把它乘以 { $pi }
       *[each] PI 把它乘以 { $pi }，NTK-aware 乘以 { $ntk_fast }，YaRN 乘以 { $yarn_fast }
    }。
takeaway-alibi-no-heads = 没有头：ALiBi 至少需要一个头。
takeaway-alibi-single-head = 通过分数：唯一的头加上 −m·(i − j)（m = { $m }），这条规则不需要表，在任何长度上都成立：回溯 { $back } 个键处为 { $corner }，键回溯得越远，颜色越蓝。
takeaway-alibi = 通过分数：每个头都加上 −m·(i − j)，这条规则不需要表，在任何长度上都成立：头 0（m = { $first_m }）在回溯 { $back } 个键处降到 { $first_corner }，头 { $last_head }（m = { $last_m }）只降到 { $last_corner }：它读得更远。
takeaway-t5-last-bucket-shared = 可以：T5 为每个偏移桶学习一个数，小于 { $exact } 的距离每个一个桶，更远处的桶更宽：在 δ = −{ $range } … { $range } 上，编码器用到了它 { $buckets } 个桶中的 { $used } 个；每个 ≥ { $first } 的距离都共用其方向上的最后一个桶（查询之前为 { $before }，之后为 { $after }）。
takeaway-t5-last-bucket-not-reached = 可以：T5 为每个偏移桶学习一个数，小于 { $exact } 的距离每个一个桶，更远处的桶更宽：在 δ = −{ $range } … { $range } 上，编码器用到了它 { $buckets } 个桶中的 { $used } 个；显示的距离都没有达到 { $first }，而从这个距离起，所有距离都共用其方向上的最后一个桶。
takeaway-shaw = 可以：每个偏移一个可学习的向量，加到键上：表有 2k + 1 = { $rows } 行，每个偏移 −{ $clip } … { $clip } 一行，超出 ±{ $clip } 的每个偏移都复用一端的那一行，所以任意长度都可以。
takeaway-learned-positions-beyond = 可以，但只到一定长度：{ $max_len ->
        [1] E 只有位置 0 的一行
       *[other] E 只有位置 0–{ $last } 的行
    }，所以本页 n = { $n } 个位置中有 { $beyond } 个没有行，从位置 { $max_len } 开始；正弦位置编码给每个位置都提供一行。
takeaway-learned-positions-fit = 可以，但只到一定长度：{ $max_len ->
        [1] E 只有位置 0 的一行
       *[other] E 只有位置 0–{ $last } 的行
    }，所以本页的 { $n } 个位置放得进表中，但位置 { $max_len } 没有行，而正弦位置编码在那里仍然给出 p_{ $max_len }。
learned-trained-module-failed = 无法加载 MiniLM 训练后的位置嵌入表：{ $error }。
takeaway-nope-no-positions = 没有位置：没有什么可数的。
takeaway-nope-one-position = 只有一个位置时，无论有没有因果掩码，输出都是 { $output }：没有什么需要区分的。
takeaway-nope = 原则上可以：有因果掩码时，位置 t 只能看到 t 个词元，可以数出它们，输出 1/t（从 t = 1 处的 { $first } 降到 t = { $n } 处的 { $last }）{ $distinct ->
        [yes] ，每个位置的值都不同
       *[no] { "" }
    }；没有掩码时，每个位置都得到 1/{ $n } = { $all }。
figure-rope-no-pair-rotates-pairs = RoPE 旋转的是维度对：
figure-rope-no-pair-d-at-least-two = d 必须 ≥ 2。
readout-rope-no-pair = d = { $d } 没有可以旋转的维度对。
readout-rope-residual = s({ $m }, { $n }) = ⟨R_{ $m } q, R_{ $n } k⟩ 的平移残差，取 d = { $d } 时 { $draws } 对随机 q、k 的平均：float64 在 Δ 直到 10⁵ 的每个值上至多为 { $f64_max }（只是舍入误差：精确计算时，分数只取决于 n − m）；float32 在 Δ = 10 处为 { $at_1e1 }，10³ 处为 { $at_1e3 }，10⁴ 处为 { $at_1e4 }，10⁵ 处为 { $at_1e5 }——角度 (m + Δ)·θ_j 被舍入到其自身的 2⁻²⁴，这一误差随位置增大。交错布局（GPT-J）与对半拆分布局（GPT-NeoX，rotate_half）在置换维度之后：最大分数差为 { $layout }。
readout-rope-decay = RoFormer 用 |⟨R_m q, R_n k⟩| ≤ max_j |h_(j+1) − h_j| · Σ_j |S_j| 给分数设上界，其中 r = n − m 是偏移，h_j = (q_2j + i·q_2j+1)·conj(k_2j + i·k_2j+1) 把 q 和 k 的第 j 对当作复数相乘（这里的 i 是虚数单位），S_j = Σ_(l<j) e^(i·r·θ_l)。其图 2 画的是只取决于 r 的因子 (1/(d/2))·Σ_j |S_j|：这里它从 r = 0 处的 { $relative_first } 降到 r = { $max_distance } 处的 { $relative_last }（一条无量纲曲线，不是分数）。图表把整个上界放到分数的尺度上，针对 d = { $d } 时 { $samples } 对各分量相互独立、服从 N(0, 1) 的随机 q、k：它从 { $bound_first } 降到 { $bound_last }，而同样这些对的平均 |分数| 在图中的每个距离上都保持在 { $smallest } 与 { $largest } 之间（平均为 { $typical }；对这样的 q、k，分数的方差为 d，因此其平均大小约为 √(2d/π) = { $expected }）。上界会衰减；随机对的分数不会：它们的均值与 0 相差不超过 { $mean_max }。这种衰减只是一个上界，并不是分数本身。
readout-rope-scores = S_ij = (R_i q)·(R_j k)/√d，每个位置上都是同一个 q 和同一个 k（至多 { $rows } 个位置；WebGPU 在计算着色器中计算它们，CPU 路径至多 { $cpu_rows } 个）：每条对角线 j − i = const 只有一种颜色。沿每条对角线，分数之差至多为 { $spread }（float32 舍入误差，前 { $check_rows } 行），而分数最大可达 { $max }：RoPE 的分数只取决于偏移。
readout-extension-ratios = s = { $s }，d = { $d }，底数 { $base }：位置插值把每个频率除以 s（比值 { $pi_ratio }）。NTK-aware 缩放使用底数 b' = b·s^(d/(d−2)) = { $ntk_base }：第 0 个列对保持其频率（比值 1），最后一个列对得到 { $ntk_last } = 1/s，其间的列对为 s^(−2j/(d−2))。按模型实际运行的方式（Hugging Face transformers，即参考代码的规则），YaRN 保持序号不超过 { $kept_last } 的 { $kept } 个列对不变（在 L = { $context } 内至少转 β_fast = 32 圈），把序号从 { $interpolated_first } 起的 { $interpolated } 个列对除以 s（至多转 β_slow = 1 圈），并在两者之间的 { $ramped } 个列对上按列对序号线性过渡。论文的过渡则按圈数线性变化（虚线）：两者相差至多 { $gap }（第 { $gap_pair } 个列对：实际运行为 { $gap_as_run }，论文中为 { $gap_in_paper }）。YaRN 还把 q 和 k 乘以 0.1·ln s + 1 = { $temperature }（logit 乘以它的平方，{ $temperature_squared }）。
readout-extension-wavelengths = { $pairs } 个列对中有 { $within } 个的波长短于 L = { $context }：它们在训练中至少转过一整圈，因此它们在 L 之外遇到的每个角度都已经见过。其余 { $beyond } 个在训练中从未转完一圈；超过 L 后，它们会到达模型从未见过的角度，这就是 YaRN 把其中最慢的那些完全插值的原因。
readout-extension-too-few-pairs = d = { $d } 时旋转列对不足两个：NTK-aware 缩放需要 d ≥ 4。
readout-alibi-weight-underflow = 低于 10⁻³⁰⁷（在 float64 中为 0）
readout-alibi-slopes = H = { $heads } 个头的斜率（m_h = 2^(−8(h+1)/{ $heads })，h = 0 … { $last }）：{ $slopes }。
readout-alibi-slopes-not-power-of-two = H = { $heads } 个头的斜率（H = { $heads } 不是 2 的幂；按参考代码的 get_slopes：先取 H = { $lower } 的 { $lower } 个斜率，再从 H = { $double } 的斜率中隔一个取一个，取前 { $rest } 个）：{ $slopes }。
readout-alibi-head-span = 头 { $head }（m = { $m }）把 90 % 的权重放在最后 { $spans } 个键上
readout-alibi-beyond = 超出训练长度时，仅由偏置来看（所有内容分数 q_i·k_j 都相等）：在查询位置 i = { $positions }（L = { $context }，即在上下文扩展面板中设置的训练长度），{ $first_span }；{ $last_span }。偏置只取决于 i − j，因此一旦留给第一个键的权重 e^(−m·i) 可以忽略（i 为 1/m 的若干倍），头在每个位置上回溯的距离都相同。超过 L 后，与查询相距 L 以内的键具有训练中见过的距离和偏置，而回溯超过 L 的键得到的偏置 −m·(i − j) 低于训练中见过的任何偏置；它们只会被压得更低：仅由偏置来看，在 i = { $double } 处，头 0 给它们的总权重为 { $first_weight }，头 { $last } 为 { $last_weight }。跨度超过 i 的头会分散到全部 i + 1 个键上。
readout-alibi-heatmap = 一个使用随机 q_i、k_j（宽度 { $width }）的层的头 0（m = { $m }），至多 { $rows } 个位置（WebGPU 在计算着色器中计算它们，CPU 路径至多 { $cpu_rows } 个）：每个查询的权重之和为 1（在前 { $check_rows } 行上测得 max |Σ_j w_ij − 1| = { $error }），{ $future ->
        [zero] 查询之后的键的权重恰好为 0
       *[not-zero] 查询之后的键的权重并不全为 0
    }，权重随回溯距离而衰减（viridis 配色，与注意力面板相同：0 为深紫，1 为黄）。
readout-t5 = { $buckets } 个桶，max_distance { $max_distance }，双向：查询之前的键（以及查询自己的键，桶 0）使用桶 0–{ $before_last }，之后的键使用 { $after_first }–{ $after_last }（桶 { $after_first } 从不使用：查询之后距离 1 就已经是 { $after_second }）。距离 0–{ $exact_last } 各占一个桶；从 { $exact } 到 { $log_last }，桶随距离的对数增长；一个方向上每个 ≥ { $first_in_last } 的距离都共用最后一个桶（之前为 { $before_last }，之后为 { $after_last }）。示例：δ = −1 → { $at_minus_1 }，−8 → { $at_minus_8 }，−20 → { $at_minus_20 }，−90 → { $at_minus_90 }，−91 → { $at_minus_91 }，+5 → { $at_plus_5 }，+{ $range } → { $at_range }。在 −{ $range } … { $range } 上，本页用到 { $distinct } 个不同的桶；每个头为每个桶在分数上加上它自己的一个可学习标量（注意力面板中的 enc = t5 用随机种子生成它们，未经训练）。因果解码器的布局把全部 32 个桶都用于过去：它的最后一个桶从距离 { $causal_first_in_last } 开始。
figure-shaw-no-tokens = 句子中没有词元。
figure-shaw-type-a-few-words = 请在注意力面板中输入几个词。
readout-shaw-memory = 在本页的 n = { $n } 和 d = { $d } 下相对键所占的内存：朴素形式把它们收集成一个 n × n × d 的张量，{ $naive } 个浮点数（{ $naive_bytes }）；Music Transformer 为每个距离只保存一个 d 维向量（因果），{ $skewed } 个浮点数（{ $skewed_bytes }），少 n = { $n } 倍，并把 Q·(a^K)ᵀ（n × n，与 logit 一样）“偏斜”到对应位置。
readout-shaw = k = { $clip }：a^K 和 a^V 各有 2k + 1 = { $rows } 行，每行 d = { $d }；{ $tokens } 个词元的 { $offsets } 个偏移用到其中 { $used } 行（超出 ±{ $clip } 的每个偏移都共用一端的那一行）。softmax 之前的分数 e_ij（左图；Shaw 等人称之为 logit）在内容项上加上 q_i·a^K_clip(j−i)/√d；X 上不加任何位置向量。{ $memory }
readout-learned = E 有位置 0–{ $last } 的行（L_max = { $max_len }），每行 d = { $d }，按 Hugging Face 的 BERT 和 GPT-2 初始化其表的方式（initializer_range）从 N(0, { $init_std }²) 抽取（实测：标准差 { $std }，平均行范数 { $row_norm } ≈ 0.02·√d）。本页的 n = { $n } { $beyond ->
        [0] 能放进表中
       *[other] 中有 { $beyond } 个位置没有行：使用这张表的模型无法读取它们（GPT-2 和 BERT 止于各自的 L_max）
    }。查找位置 { $max_len }：“{ $lookup }”。正弦位置编码在那里有一行：‖p_{ $max_len }‖ = { $sinusoid_norm }（d 为偶数时为 √(d/2)），之后的每个位置也都有。未经训练时，E 比 P 小 { $ratio } 倍，给每个位置一个不同的随机行，但不编码任何顺序或距离；它学到什么取决于训练，而 L_max 之后的行永远不会被训练。
readout-nope = 没有编码，分数相等，只有一个特征：第一个词元上为 1，其他词元上为 0。有因果掩码时，位置 t 对前 t 个词元取平均：t = 1 处输出 { $at_1 }，t = 2 处为 { $at_2 }，t = { $n } 处为 { $at_n }（与 1/t 的最大差：{ $error }）{ $outputs ->
        [one-position] ，只有一个位置（n = 1）
        [distinct] ，每个位置的值都不同
       *[shared] ，但有些位置的值相同
    }——这是位置的函数，由该层算出。没有掩码时，每个位置都对全部 { $n } 个词元取平均，得到 { $all }（与 1/n 之差：{ $all_error }）：没有什么能区分它们。因此，因果解码器不用 P 也能表示位置；没有任何位置信息的双向层则不能（它是置换等变的：见顺序面板）。
readout-stacking-setting = { $skip ->
        [yes] 跳跃连接
       *[no] 无跳跃连接
    }{ $layer_norm ->
        [yes] 、层规范化
       *[no] { "" }
    }{ $causal ->
        [yes] 、因果掩码
       *[no] { "" }
    }，P { $positions ->
        [once] 只加到 X_0 上一次
        [every-layer] 在每层之后再加一次
       *[never] 从不加入
    }
readout-stacking-probe-definition = 探针的 R² 是样本外的：位置的线性读出（岭回归）在每 { $folds } 个位置中的 4 个上拟合，在留出的五分之一上评分，轮流进行（{ $folds } 折交叉验证）；1 表示留出的位置被准确读出，0 或更低表示不比猜测平均位置更好。
readout-stacking-rows-collapsed = 到 L = { $layers } 时，各行已坍缩为同一行：r_{ $layers } = { $last }（它们之间的差别不到其大小的 0.1%）。
readout-stacking-rows-closer = 到 L = { $layers } 时，各行仍然分开，但更接近了：r 从 { $first } 降到 { $last }。
readout-stacking-rows-apart = 到 L = { $layers } 时，各行保持分开：r_{ $layers } = { $last }（r_0 = { $first }）。
readout-stacking-probe-too-few-positions = 探针至少需要 3 个位置。
readout-stacking-probe-reads = 在留出位置上评分的探针能从 X_{ $layers } 中读出位置（R² = { $r2 }）。
readout-stacking-probe-guesses = 在留出位置上评分的探针不比猜测平均位置更好（R² = { $r2 }）：无法从 X_{ $layers } 中读出任何位置。
readout-stacking-probe-weak = 在留出位置上评分的探针只能微弱地读出位置（R² = { $r2 }）。
readout-stacking-cause-pure-attention-collapsed = 纯注意力对各行取平均，而 Dong、Cordonnier 和 Loukas（2021）给出的与同一共享行之间距离的上界随深度以双指数速度缩小：每个词元最终都得到同一个向量。
readout-stacking-cause-pure-attention-falling = 纯注意力对各行取平均；Dong、Cordonnier 和 Loukas（2021）给出的与同一共享行之间距离的上界随深度以双指数速度缩小，因此更多的层会让它继续下降。
readout-stacking-cause-skip-connections = Dong、Cordonnier 和 Loukas（2021）证明了没有跳跃连接的注意力会坍缩；有了跳跃连接，他们的上界就不再适用（仅经过跳跃连接的路径就能把 X 传递过去），因此跳跃连接可以阻止坍缩，但没有什么能保证这一点：这里使用随机、未经训练的 W_q、W_k、W_v{ $layer_norm ->
        [yes] 和层规范化
       *[no] { "" }
    }，经过 { $layers } 层后，各行{ $rows ->
        [collapse] 仍然坍缩
       *[apart] 保持分开
    }。
readout-stacking-reinjected = 每层之后加入的 P 会把位置放回去，无论该层对各行做了什么。
readout-stacking-verdict = { $rows }{ $position }{ $cause }{ $reinjected }
readout-stacking = n = { $n }，d = { $d }（本页的 n 和 d，至多 { $max_n }），{ $layers } 层，{ $setting }；E 的行服从 N(0, 1)，X_0 = E (+ P)，W ~ N(0, 1/d) 每层重新抽取（随机种子 { $seed }）。残差 r_L，L = 0, 1, 2, …：{ $residuals }。探针 R²（留出）：{ $probes }。{ $verdict }{ $definition }

## 网页层的图中文字、坐标轴标题、图例、按钮与状态行（src/web/panels、src/web/draw、src/web/page.rs、src/web/embed.rs、src/web/gpu_backend.rs、src/web/train_workers.rs、src/web/api.rs、src/model/plot.rs、src/model/settings/controls.rs）

# 名称被间隔标注的图下方的说明：“键：每 2 个标注一个”（一条轴），用 label-thinned-separator 连接，再放入 label-thinned。$step：每几个单元标注一个；$suffix：$step 的英文序数词尾（st、nd、rd、th），中文不用；$noun：该轴一个单元是什么（其坐标轴标题的开头，“键”“查询位置”“词元”）。
label-thinned-part = { $suffix ->
       *[other] { $noun }：每 { $step } 个标注一个
    }
label-thinned-separator = ；
# $parts：一个或多个 label-thinned-part，由 label-thinned-separator 连接。
label-thinned = { $parts }
# 流水线图中一行是什么，用于“词元：每 2 个标注一个”。
label-noun-token = 词元
label-noun-key = 键
# 滑块读出的值（aria-valuetext）。
label-slider-valid-len = valid_len = { $valid }（共 { $tokens } 个键）
label-slider-valid-len-all = valid_len = 全部 { $tokens } 个键
label-slider-kernel-size = 卷积核大小 k = { $k }
label-slider-sharpness = 锐度 κ = { $beta }
label-slider-scale-factor = 缩放因子 s = { $scale }
label-slider-training-length = 训练长度 L = { $length }
# 多个图共用的坐标轴标题。
label-axis-column-encoding-dimension = 列（编码维度）
label-axis-column-encoding-dimension-from-one = 列（编码维度，从 1 开始计数）
label-axis-row-position = 行（位置）
label-axis-row-position-from-one = 行（位置，从 1 开始）
label-axis-key-position-j = 键位置 j
label-axis-query-position-i = 查询位置 i
label-axis-key-j = 键 j
label-axis-query-i = 查询 i
label-axis-key = 键
label-axis-query = 查询
label-axis-key-position-p-alone = 键位置（仅 P）
label-axis-query-position-p-alone = 查询位置（仅 P）
label-axis-column = 列
label-axis-position-i = 位置 i
label-axis-position-j = 位置 j
label-axis-offset-k = 偏移 k
label-axis-layer-l = 层 L
label-axis-pair-j = 列对 j
# 过宽而可横向滚动的图的 aria-label。
label-figure-scrolls-sideways = 图，可横向滚动
# 传给 peLab.set 的既非数字也非文本的值，提示中这样引用它。
label-api-not-a-number-or-text = [不是数字或文本]
# 导出的 CSV 的首行：“index=1（第 r 行是……）”。
label-csv-index = { $first }（第 r 行是位置 r + { $first }；col_c 从 0 开始给列计数）
label-csv-textbook = 1（float32 角度）
# 曲线面板导出的 CSV 标题：“# pe-lab P 的列: d=…”。
label-csv-p-columns = P 的列
# 曲线的图例：$column：列号；$kind：sin 或 cos；$period：以位置计的周期。
figure-curves-legend = 第 { $column } 列：{ $kind }，周期 { $period }
figure-curves-legend-from-one = 第 { $column } 列（从 1 开始）：{ $kind }，周期 { $period }
figure-curves-y = 值 p[i, 列]
# 列从 1 开始计数时投影图的坐标轴：$f：sin 或 cos；$pair：j。
figure-projection-axis-from-one = 第 { $column } 列（从 1 开始）= { $f }(i·ω_{ $pair })
figure-alibi-biases-x = 键 j（每个头一块，头 0 在左上）
figure-alibi-weights-x = 回溯到键的距离 i − j
figure-alibi-weights-y = 权重（仅偏置）
figure-attention-no-tokens = 句子中没有词元。
figure-attention-type-words = 请在上方输入几个词。
status-attention-no-tokens = 没有词元：输入一个句子即可查看其注意力权重。
figure-binary-bits-x = 位 k（最低位在前）
figure-binary-bits-y = 数 i
figure-complexity-chart-rnn = 循环神经网络 n·d²
figure-complexity-chart-self-attention = 自注意力 n²·d
figure-complexity-chart-x = 序列长度 n（对数）
figure-complexity-chart-y = 运算量（对数）
# 路径示意图的简短说明：画出了 n 个位置中的 $drawn 个。
figure-complexity-diagram-drawn = 画出了 n = { $n } 个位置中的 { $drawn } 个。
figure-complexity-diagram-maximum-path-length = 最大路径长度
figure-complexity-diagram-longest-path = 最长路径
# 示意图的标题，各有一个用于窄画布的较短形式。
figure-complexity-diagram-rnn = 循环神经网络
figure-complexity-diagram-rnn-short = RNN
figure-complexity-diagram-self-attention = 自注意力
figure-complexity-diagram-self-attention-short = 注意力
# 同一句话的两行，画在图的位置上。
figure-extension-too-few-pairs-line-1 = 上下文扩展至少需要
figure-extension-too-few-pairs-line-2 = 两个旋转列对：d ≥ 4。
figure-extension-ratios-x = 列对 j（θ_j = base^(−2j/d)）
figure-extension-legend-yarn-as-run = YaRN（实际运行的）
figure-extension-legend-yarn-paper = YaRN（论文的）
figure-extension-wavelengths-y = 波长 2π/θ_j（对数）
figure-learned-table-y = 位置（灰色：E 中没有这一行）
figure-nope-x = 位置 t（对数）
figure-nope-y = 起始指示特征的输出（对数）
figure-nope-legend-causal = 因果：1/t
figure-nope-legend-bidirectional = 双向：1/{ $n }
status-order-no-tokens = 没有词元：请在注意力面板中输入一个句子。
figure-order-no-tokens = 没有可置换的词元。
figure-order-legend-without = 不加 P（0：float32 舍入）
# $encoding：位置编码族的名称（正弦 P、RoPE……）。
figure-order-legend-with = 使用 { $encoding }
figure-order-x = 输出行 i（πX 的第 i 个词元）
figure-order-y = 该行中的 max |Y(πX) − πY(X)|
figure-pipeline-no-tokens = 句子中没有词元。
figure-pipeline-type-words = 请在注意力面板中输入几个词。
# $legend：图的图例（figure-pipeline-legend）；$thinned：label-thinned。
figure-pipeline-legend-thinned = { $legend }词元名称：{ $thinned }。
figure-rope-residuals-x = 平移 Δ（对数）
figure-rope-residuals-y = 平移残差（对数）
figure-rope-decay-x = 相对距离 r = n − m
figure-rope-decay-y = |⟨R_m q, R_n k⟩|（对数）
figure-rope-legend-bound = |分数| 的上界
figure-rope-legend-mean = |分数| 的均值
figure-scaling-legend-this-page = x ≈ 1/√d（本页）
figure-scaling-x = 宽度 d（对数）
figure-scaling-y = 各元素的 RMS（对数）
figure-scaling-bar-added = 相加
figure-scaling-bar-concatenated = 拼接
figure-scaling-dots-y = 点积
figure-shaw-table-x = 维度
figure-shaw-table-y = 偏移 j − i（截断）
figure-similarity-raise-n = 增大 n 或减小 i。
figure-stacking-residuals-y = 秩残差 r_L（对数）
figure-stacking-probe-y = 留出数据上探针的 R²
figure-stacking-legend-probe = 探针 R²
figure-t5-x = 相对位置 δ = 键 − 查询
figure-t5-y = 桶
figure-t5-legend-encoder = 编码器
figure-t5-legend-decoder = 解码器（因果）
# 计算标识的提示框；$badge：badge-webgpu、badge-cpu 或 badge-cpu-because。
status-badge-title = 数值在哪里计算：{ $badge }
status-link-copied = 链接已复制。
status-copy-this-link = 复制此链接：{ $href }
# 每个面板的导出菜单；$panel：面板在链接中的名称（heatmap、curves……）。
button-save = 保存
button-save-title = 保存“{ $panel }”的图或数值
label-export-toolbar = 导出“{ $panel }”
button-export-png-title = 将此图保存为 PNG 图像
# “保存”菜单中各图的名称（一个面板有多张图时），按画布的 id（$canvas）选择。
figure-save-name = { $canvas ->
    [pretrained-grid] 训练好的模型的每个头
    [pretrained-head] 训练好的模型中所选的头
    [complexity-chart] 运算量随 n 的变化
    [complexity-paths] 位置之间的路径
    [binary-bits] 0 到 n − 1 的二进制位
    [binary-p] 与二进制位并列的 P
    [sim-heatmap] 相似度热图
    [sim-curve] pᵢ · pᵢ₊ₖ 随 k 的变化
    [sim-norm] 归一化位置随 k 的变化
    [scale-chart] 大小随 d 的变化
    [scale-dots] 相加与拼接
    [rope-residuals] 平移残差
    [rope-decay] RoFormer 的上界
    [rope-scores] 每个位置上的分数
    [ext-ratios] 频率比
    [ext-wavelengths] 波长
    [alibi-biases] 每个头的偏置
    [alibi-weights] 权重随距离的变化
    [alibi-heatmap] 头 0 的权重
    [shaw-table] 相对键表
    [shaw-logits] 句子的 logits
    [learned-table] 随机初始化的表 E
    [learned-trained] MiniLM 训练后的表
    [stack-residuals] 每层的秩残差
    [stack-probe] 每层的位置探针
    [train-loss] 训练损失
    [train-accuracy] 准确率随长度的变化
    [train-table] 训练得到的表 E
    [train-p] 正弦 P
    [train-gram] 表的余弦相似度
    [train-gram-p] P 的余弦相似度
    [train-attention] 一个头的权重
   *[other] { $canvas }
    }
button-export-csv-title = 将精确数值（float32）保存为 CSV
button-export-svg-title = 将此图保存为 SVG 矢量图
# 嵌入的面板中显示其文字的按钮。
button-embed-about = 关于此图
# $value：链接要求的值；$panels、$choices：它可取的名称。
notice-embed-unknown = embed = “{ $value }”不是面板；面板有：{ $panels }。
notice-controls-unknown = controls：“{ $value }”不是 { $choices } 之一。
# 不使用 WebGPU 的原因（notice-gpu-unavailable 或 notice-gpu-failed 的 $reason）；$error、$message：浏览器给出的原文。
status-gpu-no-webgpu = 此浏览器没有 WebGPU（navigator.gpu 不存在）
status-gpu-no-adapter = 没有 WebGPU 适配器：{ $error }
status-gpu-no-canvas-format = WebGPU 画布不提供任何格式
status-gpu-device-lost = 设备丢失（{ $reason }）：{ $message }
status-gpu-error = GPU 错误：{ $error }
# 一次训练失败的原因；$error：浏览器或解析器给出的原文。
status-train-worker-report-unreadable = 无法读取一个 worker 的报告：{ $error }
status-train-worker-not-started = 无法启动训练 worker：{ $error }
status-train-worker-failed-to-load = 训练 worker 加载失败
## 注意力、流水线、多头、复杂度、缩放和堆叠面板的要点（src/model/takeaway_attention.rs）

# 拼入注意力和流水线面板的要点；$error 是测得的误差（1.2e-3）。
takeaway-attention-rows-sum-to-one = 每一行的和都为 1
takeaway-attention-rows-do-not-sum = 各行之和并非都为 1（误差 { $error }）
# 回答“Q、K 和 V 到底是什么？”，作为注意力要点的开头（下面的 $idea）。$input：只用 P（偏移头）时为 "positions"，否则为 "words"。
takeaway-attention-idea = { $input ->
        [positions] 每个位置的输出是值 V 的平均，按它的查询 Q 与每个键 K 的匹配程度加权
       *[words] 每个词的输出是值 V 的平均，按它的查询 Q 与每个键 K 的匹配程度加权
    }
takeaway-attention-no-tokens = { $idea }：输入一个句子即可看到权重。
takeaway-attention-one-token = { $idea }：只有一个词元“{ $token }”，它只能关注自己（权重 { $weight }）。
# $weights = n × n，$n 是词元数。
takeaway-attention-all-masked = { $idea }；每个键都被掩蔽时，每个分数都是 −10⁶，所以每一行都是均匀的：全部 { $weights } 个权重都是 1/{ $n }。
takeaway-attention-no-weights = 没有可读取的权重。
# 接在下面要点中的“每一行的和都为 1”之后（$mask）。
takeaway-attention-mask-one-key = ；键 { $key } 被掩蔽为恰好 0
takeaway-attention-mask-keys = ；键 { $first }–{ $last } 被掩蔽为恰好 0
# $sign 是 + 或 −，$delta 是偏移的大小，$percent 是整数；$rows 和 $mask 是上面的分句。
takeaway-attention-offset = { $idea }（{ $rows }{ $mask }）：只用 P、没有词时，偏移头让键 i { $sign } { $delta } 成为有该键的查询中 { $percent }% 的最强键（最强权重 { $weight }）。
takeaway-attention-offset-no-target = { $idea }（{ $rows }{ $mask }）：在 { $n } 个位置中，没有哪个查询在 δ = { $delta } 处有键，所以偏移头找不到目标。
# $pair 指出最强的单元格（下面两条消息）；$percent：它的权重，以百分数表示（53、99.6）。
takeaway-attention-pair-self = “{ $query }”有 { $percent }% 来自它自己（已圈出）
takeaway-attention-pair = “{ $query }”有 { $percent }% 来自“{ $key }”（已圈出）
# 回答“为什么没有保留词的顺序？”（下面的 $order）；$aside：有按位置截断键的掩码时为 takeaway-attention-mask-aside，否则为空。
takeaway-attention-order-none = 没有 P 时（这里就是如此），权重不理会词序{ $aside }。
takeaway-attention-order-some = 没有 P 时，权重将不理会词序{ $aside }。
takeaway-attention-mask-aside = （掩码除外）
# $checks：括号中的各行之和与掩码（takeaway-attention-checks）；每一行的和都为 1 且没有掩码时为空。
takeaway-attention-checks = （{ $rows }{ $mask }）
takeaway-attention-strongest = { $idea }{ $checks }：{ $pair }。{ $order }
takeaway-attention-strongest-untrained = { $idea }{ $checks }：在这个未训练的层中，{ $pair }。{ $order }
# $diagonal：一个词对自身的平均权重，以百分数表示。
takeaway-attention-strongest-identity = { $idea }{ $checks }：在 Q = K = V = Z 时，每个词的输出平均有 { $diagonal }% 来自它自己，而{ $pair }。{ $order }
# 回答“Q、K 和 V 到底是什么？”，作为 pipeline 要点的开头（$idea）。
takeaway-pipeline-idea = Q、K 和 V 是 Z 分别乘以三个各自独立的矩阵：一个词要找的东西、它被找到的依据、它传递出去的内容
takeaway-pipeline-no-tokens = { $idea }。在注意力面板中输入一个句子，即可跟随它走过这一层。
takeaway-pipeline-one-head = { $idea }。这里一个头使用完整的 Q、K、V（d = { $d }）。
takeaway-pipeline-heads = { $idea }。这里 { $heads } 个头（第 { $step } 步）各用 { $d } 列中的 { $head_dim } 列。
# 只在测得 softmax 的各行之和不为 1 时才说；$rows 说明差多少。
takeaway-pipeline-rows-fail = { $takeaway }注意：{ $rows }。
# 一个序列的有效长度掩蔽哪些键（下面的 $keys，连同动词）。
takeaway-heads-every-key = 掩蔽每个键
takeaway-heads-no-key = 不掩蔽任何键
takeaway-heads-key = 掩蔽键 { $key }
takeaway-heads-keys = 掩蔽键 { $first }–{ $last }
takeaway-heads-uniform = ：权重均匀
# 每个序列一个分句：第一个分句说出头，后面的分句省去重复的词。
takeaway-heads-first-one-head = 序列 { $sequence } 的唯一一个头{ $keys }（valid_len { $valid_len }{ $uniform }）
takeaway-heads-next-one-head = 序列 { $sequence } 的头{ $keys }（valid_len { $valid_len }{ $uniform }）
takeaway-heads-first = 序列 { $sequence } 的全部 { $heads } 个头都{ $keys }（valid_len { $valid_len }{ $uniform }）
takeaway-heads-next = 序列 { $sequence } 的全部 { $heads } 个头都{ $keys }（valid_len { $valid_len }{ $uniform }）
# 各序列分句之间。
takeaway-heads-clause-separator = ，
takeaway-heads-tile-changes-nothing = np.tile 在这里不会改变任何东西
takeaway-heads-tile-wrong = np.tile 会让 { $maps } 张图中的 { $wrong } 张得到错误的长度
# 回答“np.tile 给出 (1 2 1 2) 而不是 (1 1 2 2)：这是 bug 吗？”；$sequences：上面的分句；$tile：上面两条消息之一。
takeaway-heads = 是 bug：在批量中，一个序列的各个头排在一起，都必须使用该序列的 valid_len，所以应当重复（repeat），而不是平铺（tile）。这里{ $sequences }；{ $tile }。
# 回答“为什么自注意力对很长的序列慢得难以承受？”和“卷积神经网络的复杂度是怎么推导的？”，与图表一致：$attention、$rnn、$cnn：这个 n、d、k 下的三个运算量；$kd = k·d。
takeaway-complexity = 长序列之所以慢，是因为自注意力要给每一对位置打分：n = { $n }、d = { $d } 时 n²·d = { $attention } 次运算，n 翻一倍就变为 4 倍；而循环神经网络的 n·d² = { $rnn } 和卷积神经网络的 k·n·d² = { $cnn }（k = { $k } 个邻居，各乘 d × d 的权重）只翻一倍：n 超过 d = { $d } 后它比循环神经网络开销大，超过 k·d = { $kd } 后比卷积神经网络开销大。
takeaway-scaling-no-tokens = 没有词元：没有可测量的嵌入。
# 缩放面板的要点：为什么乘以 √d（$unscaled、$scaled：嵌入的 RMS 是 P 的多少倍，0.2478），然后为什么相加而不是追加（takeaway-scaling-add），由 takeaway-scaling 连接。
takeaway-scaling-empty = × √d 使 P 不至于淹没词，相加则保持宽度 d 不变：在注意力面板中输入几个词，即可测量这两点。
takeaway-scaling-d-one = 在 d = 1 时 √d = 1，什么也不改变：无论乘不乘，词的大小都是 P 的 { $scaled }×（RMS）。
takeaway-scaling-position-outweighs = × √d 使 P 不至于淹没词：词嵌入的大小从 P 的 { $unscaled }× 变为 { $scaled }×（RMS）。
takeaway-scaling-words-outweigh = × √d 本意是使 P 不至于淹没词；在 d = { $d } 时，即使不乘，词也是 P 的 { $unscaled }×（RMS），乘上后为 { $scaled }×。
# 柱状图中两个词元的点积：$xx、$pp、$cross（x·p + p·x）、$added、$concatenated；$columns = 2d；$bars：嵌入乘以 √d 时为 "scaled"。
takeaway-scaling-add = 相加保持 d = { $d } 列（追加则为 { $columns } 列），代价是 x·p + p·x = { $cross }：对“{ $token_i }”·“{ $token_j }”，柱状图{ $bars ->
        [scaled] { "" }
       *[unscaled] （不乘 √d）
    }显示 x·x = { $xx }、p·p = { $pp }，相加为 { $added }。
takeaway-scaling = { $magnitudes }{ $add }
takeaway-stacking-no-layers = 没有可测量的层。
takeaway-stacking-one-position = 只有一个位置时只有一行：没有什么可以坍缩，也无法拟合探针（它至少需要 3 个位置）。
takeaway-stacking-setting = { $setting ->
        [plain] 没有跳跃连接
        [norm] 有层规范化（LayerNorm）但没有跳跃连接
        [skip] 有跳跃连接
       *[skip-norm] 有跳跃连接和层规范化（LayerNorm）
    }
# $r 是残差 r_L（2.30e-10）；$setting 是上面的消息。
takeaway-stacking-before-coincide = 在任何层之前，各行就已经重合（r_0 = { $r }）
takeaway-stacking-before-apart = 在任何层之前，各行彼此分开（r_0 = { $r }）
takeaway-stacking-collapsed = 经过 { $layers } 层（{ $setting }）之后，各行坍缩成了一行（r_{ $layers } = { $r }）
takeaway-stacking-closer = 经过 { $layers } 层（{ $setting }）之后，各行彼此靠近（r 从 { $first } 降到 { $r }）
takeaway-stacking-apart = 经过 { $layers } 层（{ $setting }）之后，各行仍然分开（r_{ $layers } = { $r }）
# $rows 是上面五个分句之一；每句都先说出风险。
takeaway-stacking-order-gone = 风险在于：注意力对各行求平均，所以堆叠的层可能把各行拉到一起。{ $rows }：每个位置都输出同一行，所以顺序丢失了。
takeaway-stacking-rows-differ = 风险在于：注意力对各行求平均，所以堆叠的层可能把各行拉到一起。{ $rows }：各位置的行仍然不同。

## 注意力面板的读数（src/model/attention.rs）

readout-attention-projection-random = 未训练的投影：W_q、W_k、W_v 从 Glorot（Xavier）均匀分布中抽取（Flux 的 Dense 的默认做法），随机种子 { $seed }
readout-attention-projection-identity = 没有投影：Q = K = V = Z
readout-attention-projection-offset = 偏移头：W_q 把每个 (sin, cos) 列对旋转 δ·ω_j，δ = { $delta }，再乘以锐度 κ = { $beta }；W_k = W_v = I；仅在 P 上绘制
readout-attention-position-sinusoidal = 位置：把正弦 P 加到 X 上
readout-attention-position-learned = 位置：把一张可学习的表 E（L_max = { $max }，按种子从 N(0, 0.02²) 初始化，未训练）加到 X 上；位置 ≥ L_max 没有对应的行，不加任何东西
# $base 是本页的底数（10000）。
readout-attention-position-rope = 位置：RoPE，每个头的 q 和 k 逐个列对旋转 i·θ_j，θ_j = { $base }^(−2j/d_h)
# $heads：ALiBi 的斜率按多少个头计算；$slope：头 0 的斜率。
readout-attention-position-alibi = 位置：ALiBi，头 h 加上 m_h·(j − i)，斜率取自一个有 { $heads } 个头的模型（头 0：m = { $slope }），并带有它定义时所用的因果掩码（查询之后的键权重为 0）
readout-attention-position-t5 = 位置：T5 相对桶（{ $buckets } 个桶，max_distance { $max_distance }），每个桶和每个头一个按种子生成、未训练的偏置，加到按 1/√d 缩放后的分数上（T5 本身不缩放）
readout-attention-position-shaw = 位置：Shaw 等人的相对嵌入 a^K、a^V，在 k = { $clip } 处截断（按种子生成，未训练）
readout-attention-position-none = 没有位置（该层无法分辨顺序）
readout-attention-identity-one-token = 只有一个词元时，没有别的可以关注。
# $lead：经过 1/√d 缩放后，词元自身在分数上领先多少。
readout-attention-identity-reason = 没有投影时，每个词元的查询就是它自己的键：q_i·k_i = ‖z_i‖² 的平均值为 { $self_dot }，而与另一个词元的最大 q_i·k_j 平均为 { $other_dot }（不是 0：各行共享 P 的慢速列，P 中相邻的行也很相似）；经过 1/√d 缩放后，词元自身在分数上平均领先 { $lead }。
readout-attention-identity-masked = { $n } 行中有 { $masked } 行自己的键被掩蔽（valid_len），无法关注自身。
readout-attention-identity-close = 该图接近单位矩阵，对句子几乎说明不了什么
readout-attention-identity-dominates = 对角线在图中占主导
readout-attention-identity-far = 该图远非单位矩阵
# $reason 和 $masked 是上面的消息，$verdict 是三个结论之一。
readout-attention-identity = { $reason }{ $masked }在 d = { $d } 时，一个词元对自身的平均权重是 { $weight }：{ $verdict }。训练过的层有自己的 W_q、W_k、W_v。
readout-attention-mask-none = valid_len = 全部键（无掩码）。
readout-attention-mask-all = valid_len = 0：每个键都被掩蔽。d2l 的 masked_softmax 把每个被掩蔽的分数设为 −10⁶，因此一行的全部 { $n } 个分数都相等，每个权重都是 1/{ $n }：这是均匀的一行，而不是零（图中只有一种颜色；没有单元格画斜线）。
# $weights：被掩蔽的权重个数；$zero：全部为 0 时是 "exactly"。
readout-attention-mask-some = valid_len = { $valid_len }：键 { $valid_len }–{ $last } 得到分数 −10⁶（d2l 的 masked_softmax），因此它们的 { $weights } 个权重{ $zero ->
        [exactly] 恰好为 0
       *[not] 并非都为 0
    }（灰色斜线，这种颜色不在色图上）。
# $error：最大的 |行和 − 1|（8.0e-8）。
readout-attention-rows-sum-to-one = 每一行的和都为 1（最大误差 { $error }）。
readout-attention-rows-do-not-sum = 各行之和并非都为 1（最大误差 { $error }）。
readout-attention-offset-no-target = 偏移头，δ = { $delta }：这个句子中没有哪个查询在 δ 处有键；请减小 δ 或加长句子。
readout-attention-offset-queries = { $count } 个具有键 i + δ 的查询
# $x 是 X 或 X·√d；$percent 以 % 结尾；$queries 是上面的消息。
readout-attention-offset-with-tokens = 在句子的 { $x } + P 上，同一个头在 i + δ 上的平均权重为 { $weight }，在词元自身上为 { $self_weight }；在 { $queries }中，i + δ 是其中 { $percent } 的最强键。
readout-attention-offset-content-wins = 内容为何胜出：位置项使键 i + δ 相对于查询自身位置的优势在分数上平均只有 κ·(‖p‖² − p_(i+δ)·p_i)/√d = { $margin }（p_(i+δ)·p_i = { $neighbour_dot } 接近 ‖p‖² = { $norm }：P 中相邻的行很相似），而词元自身的内容项 x̃_i·W_q·x̃_i/√d（x̃ = { $x }）平均为 { $content }：W_q 几乎不转动慢速列对（那里 δ·ω_j ≈ 0），所以在这些列对上它近似于 κ 倍的单位矩阵，会奖励每个词元与自身匹配。把 [x, p] 拼接起来的层可以让内容和位置彼此分开。
readout-attention-offset-positions-win = 这里位置项（在分数上 i + δ 相对于查询自身位置的优势为 { $margin }）压过了词元自身的内容项（{ $content }）。
# $with_tokens 和 $why 是上面的消息。
readout-attention-offset = 偏移头，δ = { $delta }，κ = { $sharpness }。图中显示的是它仅作用于 P（只有位置，没有词元）的情况：q_i = κ·p_(i+δ)，而 p_(i+δ)·p_j 在 j = i + δ 处最大，所以在 { $queries }中，i + δ 是其中 { $percent } 的最强键，那里的平均权重为 { $weight }（没有该键的查询会关注别处）。{ $with_tokens }{ $why }
# 注意力图的一个单元格：$names 是下面两条消息之一。
readout-attention-cell-positions = 查询位置 { $query } → 键位置 { $key }（仅 P）
readout-attention-cell-tokens = 查询“{ $query_token }”（第 { $query } 行）→ 键“{ $key_token }”（第 { $key } 列）
readout-attention-cell-masked = { $names }：被掩蔽（键 { $key } ≥ valid_len { $valid_len }），权重恰好为 0
readout-attention-cell-all-masked = { $names }：每个键都被掩蔽（valid_len 0），均匀权重 { $weight }
readout-attention-cell = { $names }：权重 { $weight }
readout-attention-summary-tie = 每个权重都相等：没有哪个词元突出。
readout-attention-summary-strongest = 对另一个词元的最强注意力：“{ $query }”→“{ $key }”，{ $weight }（随机的嵌入和权重：与词义无关）。
# $encoding 和 $projection 是上面的位置和投影消息；$strongest 是上面两条之一或为空；$rows 和 $mask 是行和与掩码的句子。
readout-attention-summary = { $tokens } 个词元，d = { $d }，{ $encoding }，嵌入{ $scaled ->
        [scaled] 乘以 √d
       *[unscaled] 未缩放
    }；{ $projection }。一个词元对自身的平均权重：{ $diagonal }。{ $strongest }{ $rows }{ $mask }

## 流水线面板：标签、图例、提示、追踪和摘要（src/model/pipeline.rs）

readout-pipeline-no-tokens = 没有词元：输入一个句子（在上方的注意力面板中），即可跟随它经过 Q、K 和 V。
readout-pipeline-trace-hint = 鼠标悬停在某个单元格上，可以追踪它的查询行（以及一个键）经过的每个阶段。
# 图中各阶段的标题（其他的是公式）。
figure-pipeline-stage-masked = 掩蔽
figure-pipeline-stage-mixed = 权重·V
figure-pipeline-stage-output = 拼接各头 ·W_o
# 被掩蔽分数的色标：索引 ≥ valid_len 的键得到 −10⁶。
figure-pipeline-scale-masked = 键 ≥ { $valid } → −10⁶
figure-pipeline-scale-no-mask = 无掩码
# 阶段的第二行标签：形状的数字（$rows×$columns）和符号（n×d），以及色标。
figure-pipeline-stage-shape = { $rows }×{ $columns }（{ $symbols }），{ $scale }
figure-pipeline-stage-size = { $rows }×{ $columns }（{ $symbols }）
# $sqrt_d_step：讲解 Z 中 √d 的课程步骤（0：Z 不含 √d）。
figure-pipeline-legend = h = { $heads } 个头中的头 0（d_h = { $head_dim }）。蓝–白–红：每个有符号矩阵各用自己的 ±max|value| 色标；viridis：权重 0…1；灰色斜线：被掩蔽的键。{ $sqrt_d_step ->
        [0] { "" }
       *[other] Z 为何把 X 乘以 √d：见第 { $sqrt_d_step } 步。
    }
# 提示和追踪中各阶段的名称（$stage）。
readout-pipeline-stage-score = 分数
readout-pipeline-stage-masked-score = 掩蔽后的分数
readout-pipeline-stage-mixed = （权重·V）
readout-pipeline-stage-output = 输出
readout-pipeline-cell-pair = “{ $query }”→“{ $key }”：{ $stage } { $value }
readout-pipeline-cell = { $stage }[{ $row }, { $column }]（“{ $token }”）= { $value }
readout-pipeline-trace-output = 输出第 { $row } 行 = Σ_j w_{ $row }j · v_j（头 0；{ $heads } 个头拼接后再乘 ·W_o）
readout-pipeline-trace-cell = { $stage }[{ $row }, { $column }] = { $value }。
readout-pipeline-trace-masked-yes = 是（键 { $key } ≥ valid_len { $valid }：分数 → −10⁶）
readout-pipeline-trace-masked-no = 否
readout-pipeline-trace-uniform = （每个键都被掩蔽，所以这一行是均匀的，1/n）
# $masked 是上面两个回答之一；$output 和 $cell 是上面的消息。
readout-pipeline-trace-pair = 查询“{ $query }”（第 { $row } 行）· 键“{ $key }”（第 { $key_row } 行）：分数 { $score }，被掩蔽？{ $masked }，权重 { $weight }{ $uniform }；{ $output }。{ $cell }
readout-pipeline-trace-strongest = 头 0 在第 { $row } 行中最大的权重落在键“{ $key }”（第 { $key_row } 行）上：{ $weight }。
readout-pipeline-trace-query = 查询“{ $query }”（第 { $row } 行）：{ $cell }{ $strongest }{ $output }。
readout-pipeline-projection-random = 投影：未训练的 Glorot 均匀分布 W_q、W_k、W_v、W_o（各为 d × d），随机种子 { $seed }。
readout-pipeline-projection-identity = 投影：单位矩阵，Q = K = V = Z（且 W_o = I）。
readout-pipeline-projection-offset = 投影：偏移头，W_q 把每个列对 j 旋转 δ·ω_j（δ = { $delta }），再乘以锐度 κ = { $beta }；W_k = W_v = W_o = I。本面板把它作用于句子的 Z（包括词元）；上方的注意力面板则仅在 P 上绘制它。
# $z 是 Z 的公式（Z = X·√d + P）。
readout-pipeline-shapes = { $z } 为 { $n } × { $d }。h = { $heads } 个头，每个头 d_h = { $head_dim } 列；图中跟随头 0：Q、K 和 V 是它的 { $n } × { $head_dim } 切片，分数 QKᵀ/√{ $head_dim } 和权重为 { $n } × { $n }，权重·V 为 { $n } × { $head_dim }；输出把 { $heads } 个头拼接起来（{ $n } × { $d }），再乘以 W_o。
readout-pipeline-mask-none = 无掩码：每个键都有效。
readout-pipeline-mask-all = valid_len = 0：每个键的分数都被设为 −10⁶，因此一行的分数全都相等，其权重是均匀的（1/{ $n }）。
readout-pipeline-mask-one = valid_len = { $valid }：键 { $valid } 得到分数 −10⁶（与 d2l 的 masked_softmax 一样），因此它的权重为 0。
readout-pipeline-mask-keys = valid_len = { $valid }：键 { $valid }…{ $last } 得到分数 −10⁶（与 d2l 的 masked_softmax 一样），因此它们的权重为 0。
# $error：测得的最大 |Σ_j w_ij − 1|（8.0e-8）。
readout-pipeline-rows-sum = 权重的各行之和为 1（在全部 { $heads } 个头上测得的最大 |Σ_j w_ij − 1|：{ $error }）。
readout-pipeline-rows-do-not-sum = 权重的各行之和并不为 1（在全部 { $heads } 个头上测得的最大 |Σ_j w_ij − 1|：{ $error }）。
readout-pipeline-position-rope = RoPE：分数使用按位置逐行旋转后的 Q 和 K（图中画的 Q、K 是旋转之前的）。
readout-pipeline-position-alibi = ALiBi：分数包含头 0 的偏置 m·(j − i)，查询之后的键得到 −10⁶（因果）。
readout-pipeline-position-t5 = T5：分数包含 j − i 所在每个桶的一个偏置（按种子生成，未训练）。
readout-pipeline-position-shaw = Shaw：分数包含 q_i·a^K_clip(j−i)/√d_h，输出加上 Σ_j w_ij a^V_clip(j−i)。
# $projection、$shapes、$position、$mask 和 $rows 是上面的消息。
readout-pipeline-summary = { $projection }{ $shapes }{ $position }{ $mask }{ $rows }颜色：每个有符号矩阵各用自己的蓝–白–红色标，从 −max 到 +max |value|（见其标签）；权重用 viridis，从 0 到 1。

## 多头面板：读数、说明、标题和单元格（src/model/heads.rs）

readout-heads-head-zero = 头 0
readout-heads-head-range = 头 0–{ $last }
# $heads 是“头 0”或“头 0–3”（上面）；$tiled 是 np.tile 会给出的长度，“3, 2”。
readout-heads-sequence = 序列 { $sequence }：{ $heads } 使用 valid_len { $valid_len }（np.tile 会给出 { $tiled }）
# 各序列的分句之间。
readout-heads-sequence-separator = ；
# $sequences：上面的分句；$change：权重的最大变化；$zero：每个被掩蔽的权重都为 0 时是 "exactly"。
readout-heads = { $sequences }。用 tile 时，{ $maps } 张图中会有 { $wrong } 张得到另一个序列的长度（权重的最大变化 { $change }）；{ $zero ->
        [exactly] 这里每个被掩蔽的权重都恰好为 0
       *[not] 这里被掩蔽的权重并不全为 0
    }。
readout-heads-note-drawn = （绘出：{ $heads } 个头中的头 0–{ $last }）
# $pad 是填充词元 <pad>。
readout-heads-note-padded = 句子较短，所以用“{ $pad }”填充序列：用 valid_lens 把它掩蔽掉。
readout-heads-note = d = { $d } 被拆分为 { $heads } 个头，每个头 { $head_dim } 列{ $drawn }。{ $padded }
figure-heads-row-title-tile = np.tile（有 bug），序列 { $sequence }：{ $shown } 张图中有 { $wrong } 张出错
# $tokens：序列的词元，各带引号。
figure-heads-row-title = 序列 { $sequence }（valid_len = { $valid_len }）：{ $tokens }
# 每张小图上方：头的编号 · 有效长度。
figure-heads-map-caption-short = h{ $head } · { $valid_len }
figure-heads-map-caption = 头 { $head } · { $valid_len }
# 单元格属于哪张图：$used 是该图使用的有效长度，$right 是序列自己的有效长度。
readout-heads-cell-map-tile-wrong = np.tile（有 bug），序列 { $sequence }，头 { $head }（valid_len { $used }，应为 { $right }）
readout-heads-cell-map-tile = np.tile（有 bug），序列 { $sequence }，头 { $head }（valid_len { $used }）
readout-heads-cell-map = 序列 { $sequence }，头 { $head }（valid_len { $used }）
readout-heads-cell = { $map }：查询“{ $query_token }”（第 { $query } 行）→ 键“{ $key_token }”（第 { $key } 列）
readout-heads-cell-all-masked = { $names }：每个键都被掩蔽，均匀权重 { $weight }

## 复杂度面板：表格单元格、读数、计时和图标签（src/model/complexity.rs）

readout-complexity-cnn-path-never = 永远不能（卷积核为 1；d2l：O(n/k)）
readout-complexity-cnn-path-one = 1 层（n = 1）
# 表中卷积神经网络的路径长度：$layers = ⌈$span/$step⌉，即 ⌈(n − 1)/(k − 1)⌉。
readout-complexity-cnn-path = { $layers } 层 = ⌈{ $span }/{ $step }⌉（d2l：O(n/k)）
readout-complexity-attention-cheaper = 这里 n = { $n } < d：自注意力所需的操作比循环神经网络少
readout-complexity-same-cost = 这里 n = d = { $n }：两者开销相同
readout-complexity-rnn-cheaper = 这里 n = { $n } > d：循环神经网络所需的操作更少，但顺序步骤是 { $n } 比 1
# $cheaper 是上面三个分句之一；$paths 是下面关于路径长度的句子。
readout-complexity-crossover = 自注意力的 n²·d 在 n = d = { $cross } 处超过循环神经网络的 n·d²（{ $cheaper }）；在 n = k·d = { $cross_cnn } 处超过卷积神经网络的 k·n·d²。{ $paths }
# $last = n − 1；$layers 是堆叠的层数，$dilated 是空洞卷积的层数；$k_squared = k²。
readout-complexity-paths = 卷积神经网络的最大路径长度，有三个量：卷积核大小为 { $k } 的堆叠层，要到 ⌈(n − 1)/(k − 1)⌉ = { $layers } 层之后，才第一次让一个单元同时看到位置 0 和位置 { $last }（这是表中的数字；下方的图画出了这些层）；d2l 把它记作 O(n/k)；空洞卷积层（扩张率 1、{ $k }、{ $k_squared }、…）需要 ⌈log_k n⌉ = { $dilated } 层，即 O(log_k n)。循环神经网络从第一个输入到最后一个隐状态的路径有 n = { $n } 条边；自注意力在 1 层内连接每一对位置。
readout-complexity-paths-single = 只有一个位置（n = 1）时没有什么需要连接：每种层的路径都是 1 条边。
readout-complexity-paths-kernel-one = 卷积核为 1 的卷积神经网络，无论堆叠还是空洞，都永远不能连接两个位置（d2l 的 O(n/k) 在 k = 1 时不适用）；循环神经网络从第一个输入到最后一个隐状态的路径有 n 条边；自注意力在 1 层内连接每一对位置。
# 计时的对象（下面的 $code）。
readout-complexity-timed-webgpu = WebGPU 注意力内核（一个头，无掩码；墙钟时间从提交到读回一个权重，取 3 次中最快的一次）
readout-complexity-timed-cpu = 本页的 CPU 注意力代码（Rust，编译为 WebAssembly；一个头，无掩码）
readout-complexity-timed-cpu-runs = 本页的 CPU 注意力代码（Rust，编译为 WebAssembly；一个头，无掩码；{ $runs } 次运行的平均值）
readout-complexity-measuring = 正在测量 n = { $n }、d = { $d } 时的注意力内核…
# $why：为什么没有测得时间（来自计时代码的原因）。
readout-complexity-refused = n = { $n }、d = { $d } 时没有测得时间：{ $why }
# $duration 是带单位的时间（1.23 ms）；$code 是上面三条消息之一。
readout-complexity-time = { $code }在 n = { $n }、d = { $d } 时用时 { $duration }
readout-complexity-measured = 已测量：{ $time }。
# “测量注意力内核”是按钮的标签。
readout-complexity-last-measured = 上次测量：{ $time }。按“测量注意力内核”可测量 n = { $n }、d = { $d }。
readout-complexity-too-large = n²·d = { $work } 对于这个规模的 CPU 路径来说太大了（上限 { $limit }）。
readout-complexity-press-measure = 按“测量注意力内核”，为 n = { $n }、d = { $d } 时的{ $code }计时。
# 图表中卷积神经网络曲线的标签。
figure-complexity-cnn-curve = 卷积神经网络 k·n·d²（k = { $k }）
# 连通性示意图的说明。
figure-complexity-paths-capped = 按 { $drawn } 个位置绘制，而不是 n = { $n }（太多，画不下）；表中为 n = { $n }。
figure-complexity-paths = { $n } 个位置，与表中相同。
figure-complexity-cnn-title = 卷积神经网络，卷积核 k = { $k }
figure-complexity-cnn-path-never = 永远不能（k = 1 什么也连不上）
figure-complexity-cnn-path = { $layers } 层
# 循环神经网络的路径：$m 条边，1 条向上，$along 条沿链。
figure-complexity-rnn-path = { $m }（1 条向上，{ $along } 条沿链）

## 顺序面板：平移测试、带掩码的层和要点（src/model/order.rs）

# 平移句子中的一种位置方案（$family 是它在链接中的名字）。
label-order-family = { $family ->
        [sinusoidal] 相加的 P
        [learned] 可学习的表
        [rope] RoPE
        [alibi] ALiBi
        [t5] T5 的桶
        [shaw] Shaw 的相对嵌入
       *[none] 没有位置
    }
# 同一列表中各方案之间。
label-order-list-separator = 、
# $families：上面的方案，有差距时各自后接其差距（“RoPE 3.00e-7”）。
readout-order-shift-exact = 对 { $families }，恰好为 0
readout-order-shift-rounding = 对 { $families }，为 float32 舍入误差（其分数只取决于 j − i；其旋转经过舍入）
readout-order-shift-relative-changed = 对 { $families }，不为 0（超过舍入误差：这些权重变了）
readout-order-shift-absolute-changed = 对 { $families }，不为 0（绝对位置：权重取决于句子从哪里开始；数值小说明权重已经接近 0 或 1）
# 上面四个分句之间。
readout-order-shift-separator = ；
readout-order-shift = 把整个句子平移 s = { $shift } 个位置（相同的词元，相同的层，d = { $d }，除方案自身的掩码外没有掩码）：任何注意力权重的最大变化为：{ $parts }。
readout-order-masked-not-equivariant = 带掩码（键 ≥ { $valid_len } 被掩蔽）且没有 P 时，差距为 { $gap }：查询能看到哪些键是由位置决定的，所以带掩码的层不具有等变性。
readout-order-masked-cannot-show = 带掩码（键 ≥ { $valid_len } 被掩蔽）且没有 P 时，这个置换的差距为 { $gap }：它没有把任何词元移过掩码的边界，所以无法表明带掩码的层不具有等变性；移过边界的置换才能表明。
readout-order-masked-alibi = ALiBi 自己的掩码除外：ALiBi 定义时就带有因果掩码，上面它的差距包含了这个掩码；仅因果掩码本身，即使完全没有位置，就已经破坏了等变性（查询 i 只能看到键 0…i），所以那个数字并不只是 ALiBi 的偏置造成的。下面的平移测试把两者分开。
# $measured：上面两个句子之一；$alibi：ALiBi 的说明或为空。
readout-order-masked = { $measured }这就是本面板不使用掩码进行计算的原因。{ $alibi }
# “使用 P 时”那些差距所属的方案（$family 是它在链接中的名字）。
label-order-family-with = { $family ->
        [rope] RoPE
        [alibi] ALiBi（因果）
        [t5] T5 桶
        [shaw] Shaw 的相对嵌入
        [learned] 可学习的表 E
       *[sinusoidal] P
    }
# 顺序面板的问题：输出的各行仍然有顺序，为什么说没有保留词的顺序？
takeaway-order-no-tokens = 各行之所以有顺序，只是因为输入有顺序；在注意力面板中输入一个句子来检验这个层。
# “交换”和“随机打乱”是面板上的按钮。
takeaway-order-nothing-moved = 各行之所以有顺序，只是因为输入有顺序：没有 P 时，打乱词只会打乱各行。还没有移动任何词元：请按“交换”或“随机打乱”。
# $bound：float32 舍入误差界（4.8e-6）；$gap：最大差距。
takeaway-order-without-rounding = 各行之所以有顺序，只是因为输入有顺序：没有 P 时，打乱词只会打乱输出的各行，Y(πX) = πY(X) 在舍入误差（{ $bound }）之内成立，所以该层看不到顺序
takeaway-order-without-differs = 没有 P 时，打乱词本应只打乱输出的各行，但 Y(πX) 和 πY(X) 最多相差 { $gap }，超过了舍入误差（{ $bound }）
# $family：方案的名字（label-order-family-with）。
takeaway-order-with-rounding = 使用 { $family } 时，差距也在舍入误差之内
takeaway-order-with-differs = 使用 { $family } 时，各行最多相差 { $gap }：它看得到顺序
takeaway-order = { $without }；{ $with }。
label-order-no-tokens = （没有词元）
readout-order-permutation-nothing-moved = ——没有任何移动，所以两个数都是 0
# $description：置换做了什么（来自置换的代码）。
readout-order-permutation = 置换：{ $description }{ $nothing }
readout-order-gap-exactly-zero = 0（精确）

## 缩放与相加面板的读数（src/model/scaling.rs）

# 句子没有词元时两块画布上的两行字。
figure-scaling-no-tokens = 句子没有词元。
figure-scaling-type-words = 在注意力面板中输入几个词。
# 本页 d 时的 RMS 值：$encoding 是 P 的，$embedding 是本页嵌入的，$scaled 是乘以 √d 后的，各比值都相对于 P 的 RMS；$normal、$normal_scaled：按 N(0, 1) 抽取的嵌入；$sqrt_d = √d。
readout-scaling-magnitudes = 在 d = { $d } 时，P 的元素位于 [−1, 1] 内，RMS 为 { $encoding }。本页的嵌入像原始 Transformer 那样，以约 1/√d 大小的元素抽取，RMS 为 { $embedding }，× √d 后为 { $scaled }：不乘 √d 时，内容是位置大小的 { $unscaled_ratio }×（随着 d 增大而减弱），乘上后为 { $scaled_ratio }×。同样的词若改为按 N(0, 1) 抽取（PyTorch 的 nn.Embedding、Flux 的 Embedding 的默认做法），RMS 为 { $normal }，× √d 后变为 { $normal_scaled }（≈ √d = { $sqrt_d }）：是 P 的 RMS 的 { $normal_ratio }×，而不是 { $scaled_ratio }×。
# 两个词元的点积，相加与拼接：$xx、$cross、$pp 是它的各项；$columns = 2d；$cross_size = |x·p + p·x|，$relative 是它占 $bound 的比例；$cosine = 1/√d。
readout-scaling-dots = “{ $token_i }”（位置 { $i }）·“{ $token_j }”（位置 { $j }），嵌入{ $scaled ->
        [scaled] 乘以 √d
       *[unscaled] 未缩放
    }：相加 (x+p)·(x+p) = { $added } = x·x { $xx } + 交叉项 x·p + p·x { $cross } + p·p { $pp }；拼接 [x; p]·[x; p] = { $concatenated } = x·x + p·p，没有交叉项，但有 2d = { $columns } 列。相对于范数，交叉项很小：|x·p + p·x| = { $cross_size } 是 ‖x_i‖‖p_j‖ + ‖p_i‖‖x_j‖ = { $bound }（它可能的最大值）的 { $relative }（d = { $d } 维中的随机方向，其余弦为 1/√d ≈ { $cosine } 量级）；与 x·x 或 p·p 相比，它们则不一定小。

## 相似度面板的读数和标签（src/model/similarity.rs）

# 热图显示的内容（下面的 $what）。
readout-similarity-gram = 格拉姆矩阵 G = P·Pᵀ（发散色图，±⌈d/2⌉）
readout-similarity-distances = 距离 ‖p_i − p_j‖（viridis，0 = 深色）
readout-similarity-on-webgpu = 在 WebGPU 上计算（Gram 内核，由渲染通道绘制）
readout-similarity-on-cpu = 在 CPU 上计算
# 热图覆盖哪些行（下面的 $extent）；$budget 是每次重绘的乘加次数（1.7e7）。
readout-similarity-extent-capped = 仅位置 0–{ $last }（共 n = { $n }：每次重绘 r²·d ≤ { $budget } 次乘加，以保持页面流畅）
readout-similarity-extent-one = 位置 0（即全部 n = { $n }）
readout-similarity-extent = 位置 0–{ $last }（即全部 n = { $n }）
# $error：GPU 的错误信息。
readout-similarity-gpu-failed = GPU 路径失败（{ $error }）；改由 CPU 绘制。
# $spread：在前 $rows 行上的最大偏差（1.0e-6）；$fallback：上面的消息或为空。
readout-similarity-heatmap-odd = { $extent }的{ $what }，{ $source }。d 为奇数时，对角线 G[i, i+k] 并不完全恒定：在前 { $rows } 行上与对角线均值的最大偏差为 { $spread }（未配对的最后一个正弦列）。{ $fallback }
readout-similarity-heatmap = { $extent }的{ $what }，{ $source }。每条对角线 G[i, i+k] 都是恒定的：在前 { $rows } 行上与其均值的最大偏差为 { $spread }（float32 舍入误差）。{ $fallback }
readout-similarity-live = 在 d = { $d }、底数 { $base } 时：p₅·p₆ = { $p5p6 }，p₁₀₅·p₁₀₆ = { $p105p106 }，p₅·p₁₀ = { $p5p10 }
readout-similarity-forum = 问答中算出的数字，重新计算（d = 16，底数 10000）：p₅·p₆ = { $p5p6 }，p₁₀₅·p₁₀₆ = { $p105p106 }，p₅·p₁₀ = { $p5p10 }
# 从 i = $i 和 i = $shifted 出发的曲线 p_i·p_(i+k)；$difference：两者的最大差别。
readout-similarity-curve = 从 i = { $i } 和从 i = { $shifted } 出发：两条曲线的最大差别为 { $difference }——相似度只取决于偏移 k。
readout-similarity-curve-odd = 从 i = { $i } 和从 i = { $shifted } 出发：两条曲线的最大差别为 { $difference }——d = { $d } 为奇数时，未配对的最后一个正弦列使它稍微依赖于 i。
# $si、$sj：位置 i 和 i + 1 的下标形式（₃、₄）；$double = 2n。
readout-similarity-normalized = 相邻位置 { $i } 和 { $next }：(i/n)·((i+1)/n) 在 n = { $n } 时为 { $short }，在 n = { $double } 时却为 { $long }——同样两个词元，相似度却不同。p{ $si }·p{ $sj } = { $dot }，对每个 n 都一样。
readout-similarity-no-neighbour = 在长度为 n = { $n } 的序列中，位置 i = { $i } 没有相邻位置：请增大 n 或减小 i（p{ $si }·p{ $sj } = { $dot } 不需要 n）。
readout-similarity-distance-single = ‖p₀ − p₁‖ = { $near }，‖p₄₀ − p₄₁‖ = { $later }；d = { $d } 时只有一个频率，所以没有慢速列。
# 下面的 $equal。
readout-similarity-distance-equal = ：在每个位置，相邻位置之间的距离都相等（距离只取决于偏移）。
readout-similarity-distance-almost = （d 为奇数：几乎相等，但不完全相等）。
readout-similarity-slow-columns-still = 在几个位置的范围内，无论位置在哪里，这些列几乎不动，所以相邻位置主要在左侧的快速列上有差别。
readout-similarity-slow-columns-move = 在底数 { $base } 时，这些列还不够慢，无法保持不动：相邻位置在这些列上也有差别。
# 慢速列为 $first–$last；$max01、$max4041：它们的最大变化；$share01、$share4041：占平方距离的百分比；$verdict：上面两个句子之一。
readout-similarity-distance = ‖p₀ − p₁‖ = { $near }，‖p₄₀ − p₄₁‖ = { $later }{ $equal }靠前的行并不特殊，相邻位置在位置 40 处与在位置 0 处一样相似：慢速列 { $first }–{ $last } 在 p₀ 与 p₁ 之间最多变化 { $max01 }（占平方距离的 { $share01 }%），在 p₄₀ 与 p₄₁ 之间最多变化 { $max4041 }（{ $share4041 }%）。{ $verdict }
# 两条曲线和归一化位置的图例标签。
figure-similarity-curve-from = 从 i = { $i } 出发
figure-similarity-normalized = 归一化，n = { $n }
figure-similarity-no-neighbour = 在 n = { $n } 中，位置 i = { $i } 没有相邻位置
# 热图的一个单元格：$value 是它的公式和数值（G[5, 6] = p₅·p₆ = 1.5403）。
readout-similarity-cell = 位置 i = { $i }（行），位置 j = { $j }（列），偏移 k = { $offset }：{ $value }

## 二进制类比面板的读数（src/model/binary.rs）

# 最慢的位 k = $bit（周期为 $bit_period 个数）以及周期最接近的列对 j = $pair。
readout-binary-slowest = 这里最慢的位（k = { $bit }，周期 { $bit_period }）最接近列对 j = { $pair }（周期 { $pair_period }）。
readout-binary-index-one = 当 index=1 时，P 的行是位置 1…n：P 的第 r 行与数 r − 1 并排。
# $bits 位表示数 0…$last；$fastest：最快列对的周期（6.28）；$step：每下一个列对慢多少倍（或 —）；$slowest、$index：上面的消息或为空。
readout-binary-summary = { $bits } 位表示数 0…{ $last }：第 k 位每 2^(k+1) 个数重复一次（2、4、8、…）。编码的列对也以同样的方式变慢，但是平滑的：最快的列对每 2π ≈ { $fastest } 个位置重复一次（没有哪一列像最低位那样交替），每下一个列对慢 { $step } 倍（base^(2/d)），而不是 2 倍。{ $slowest }{ $index }
# 周期表下方：还有 $more 个列对未列出，最后一个的周期为 $period。
readout-binary-more-pairs = …… 还有 { $more } 个列对，周期最长到 { $period }

## 投影面板的要点（src/model/projection_figure.rs）

takeaway-projection-no-pair = d = 1 时，编码只有一个正弦列，没有可以转动的 (sin, cos) 列对：请增大 d。
takeaway-projection-one-position = n = 1 时只有一个位置，没有可以转动它的偏移：增大 n，就能看到每个点都转过同一个角度。
takeaway-projection-no-offset = δ = 0 时，M 是单位矩阵：每个 p_i 就是它自己的 p_(i+δ)，所以什么也不转动；移动 δ，就能看到每个点都转过同一个角度。
# 角度 δ·ω_j，以弧度和度表示；超过半圈时给出 M 实际转过的角度（$degrees，已化简）。
takeaway-projection-turn = { $radians } rad（{ $degrees }°）
takeaway-projection-turn-wrapped = { $radians } rad，即转动 { $degrees }°
takeaway-projection-why-textbook = （教科书中的 float32 角度）
takeaway-projection-why-rounding = （float32 舍入误差）
takeaway-projection-positions = { $count ->
        [1] 那 1 个位置 i
       *[other] 全部 { $count } 个位置 i
    }
# $pair：列对 j；$turn：上面两种转动之一；$positions：上面的消息；$error：最大偏差（5.96e-8）；$why：上面的原因之一或为空。
takeaway-projection = 是的：每个箭头都转过同一个 δ·ω_{ $pair } = { $turn }，所以一个矩阵 M 把 p_i 变为 p_(i+δ)，对{ $positions } 都成立，偏差至多 { $error }{ $why }。

## 顺序面板的置换（src/model/settings/permutation.rs）与滑块的朗读值（src/model/settings/table.rs）

order-permutation-too-few-tokens = 词元少于两个：没有可置换的
order-permutation-none = 不置换（每个词元都在原位）
order-permutation-swap = 读者提问中的交换："3" ↔ "4"
order-permutation-swap-first-and-last = 句子中没有同时出现 "3" 和 "4"：交换第一个和最后一个词元（"{ $first }" ↔ "{ $last }"）
order-permutation-shuffle = 打乱 #{ $seed }
label-slider-position-i = 位置 i = { $value }
label-slider-largest-offset = 最大偏移 k = { $value }
label-slider-alibi-heads = ALiBi 头数 H = { $value }
label-slider-clipping-distance = 截断距离 k = { $value }
label-slider-table-length = 表长 L_max = { $value }
label-slider-layers = { $value } 层
label-slider-relative-distances = 相对距离 ±{ $value }
