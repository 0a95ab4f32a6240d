# 页面的 wasm 根据数值计算出的句子（见 src/model/messages/mod.rs）。术语见 ../glossary-zh.md。

messages-selftest = { $count } 个句子

## 列表

list-or = { $rest }或{ $last }

## 提示：链接或 peLab.set 中页面无法使用的值，以及改用的值

notice-unknown-key = 未知参数“{ $key }”，已忽略。
notice-not-a-finite-number = { $key } = “{ $value }”不是有限数值；{ $key } 保持不变。
notice-not-a-whole-number = { $key } = { $value } 不是整数；改用 { $used }。
notice-integer-outside = { $key } = { $value } 超出 { $min }…{ $max }；改用 { $key } = { $used }。
notice-not-a-switch = { $key } = “{ $value }”既不是开也不是关（1 或 0）；{ $key } 保持不变。
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
notice-pair-does-not-exist = d = { $d } 时不存在频率对 j = { $requested }；改用 j = { $used }。
notice-heads-do-not-divide = heads = { $heads } 不能整除 d = { $d }；改用 heads = { $used }。
notice-sentence-cut = 句子超过 { $limit } 个字符，已截断。
notice-sentence-too-long = 句子有 { $words } 个词；注意力面板只使用前 { $limit } 个。
notice-valid-len-too-long = valid_len = { $value } 超过了 { $tokens } 个词元；全部使用（不掩蔽）。
notice-lens-invalid = lens = “{ $value }”必须是两个有效长度，例如 3,2；保持 { $first },{ $second }。
notice-perm-invalid = perm = “{ $value }”不是 swap、none 或打乱种子（整数）；保持 { $kept }。
notice-task-unknown = task = “{ $value }”不是 shift、reverse 或 histogram；保持 { $kept }。
notice-trainer-unknown = trainer = “{ $value }”不是 auto、cpu 或 gpu；保持 { $kept }。
notice-tenc-unknown-name = tenc：“{ $value }”不是 { $choices } 之一；已略去。
notice-tenc-empty = tenc = “{ $value }”没有指定任何编码；保持 { $kept }。
notice-preset-unknown = preset = “{ $value }”不是以下之一：{ $choices }。
notice-compute-unknown = compute = “{ $value }”不是 auto、gpu 或 cpu；改用 auto。
notice-lang-unknown = lang = “{ $value }”不是以下之一：{ $choices }；显示英文。
notice-theme-unknown = theme = “{ $value }”不是 auto、light 或 dark；跟随系统设置。

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

takeaway-heatmap-one-column = 第 i 行加到位置 i 的词元上；d = 1 时它唯一的一列是周期为 { $fastest } 个位置的正弦，没有余弦。
takeaway-heatmap-one-pair = 第 i 行加到位置 i 的词元上：它的 2 列，一个正弦及其余弦，都每 { $fastest } 个位置重复一次。
takeaway-heatmap = 第 i 行加到位置 i 的词元上：它的 { $d } 列从周期 { $fastest }（左）逐渐变慢到 { $slowest } 个位置（右）。
takeaway-heatmap-odd = 第 i 行加到位置 i 的词元上：它的 { $d } 列从周期 { $fastest }（左）逐渐变慢到 { $slowest } 个位置（右）；最后一列，第 { $last } 列，是单独的正弦（d 为奇数）。
takeaway-similarity-odd = d = { $d } 为奇数时，{ $map ->
        [distance] 距离 ‖pᵢ − pⱼ‖
       *[gram] P·Pᵀ
    } 的对角线并不完全恒定（格拉姆矩阵的元素与其对角线均值最多相差 { $spread }）：未配对的正弦使 pᵢ·pᵢ₊ₖ 稍微依赖于 i。
takeaway-similarity = { $map ->
        [distance] 距离 ‖pᵢ − pⱼ‖
       *[gram] P·Pᵀ
    } 的每条对角线都是恒定的（精确到 { $spread }）：pᵢ·pᵢ₊ₖ 只依赖于偏移 k，在每个位置 i 都相同，而随 n 变化的 i/n 做不到这一点。

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
train-chance-uniform = 偶然水平 { $percent }（从 { $vocab } 个词元中均匀地猜一个）
train-chance-most-likely = 偶然水平 { $percent }（总是猜长度 { $length } 时最可能的出现次数）
train-task-line = { $task }；{ $chance }。
train-notice = { $key } = { $requested }：{ $reason }；改用 { $key } = { $used }。
train-notice-range = { $field } 必须在 { $low } 到 { $high } 之间
train-notice-d-multiple = d 必须是 2 × heads = { $unit } 的倍数
train-notice-learning-rate = 学习率必须是 { $low } 到 { $high } 之间的数

## 曲线与二进制面板的要点（src/model/takeaway_encoding.rs）

takeaway-curves-none = 没有选中小于 d 的列：选一列即可看到它的曲线。
takeaway-curves-sine-and-cosine = 第 { $columns } 列每 { $period } 个位置重复一次：余弦就是把正弦平移四分之一个周期（{ $quarter } 个位置）{ $slower ->
        [yes] ；更靠右的列重复得更慢
       *[no] { "" }
    }。
# 中文不区分单复数：$count 只有一个默认变体。
takeaway-curves-one-pair = { $count ->
       *[other] 第 { $columns } 列
    }每 { $period } 个位置重复一次{ $slower ->
        [yes] ；更靠右的列重复得更慢
       *[no] { "" }
    }。
takeaway-curves-pairs = { $count ->
       *[other] 第 { $columns } 列
    }每 { $period } 个位置重复一次，{ $more }：频率沿着列逐渐降低{ $twins ->
        [yes] ，并且每个余弦都是其正弦平移四分之一个周期
       *[no] { "" }
    }。
takeaway-curves-more-columns = 第 { $columns } 列每 { $period } 个位置
takeaway-curves-last-columns = …，第 { $columns } 列每 { $period } 个位置
takeaway-curves-and = ，
takeaway-binary-one-frequency = { $bits ->
        [1] 第 0 位每 2 个数重复一次
       *[other] 第 k 位每 2ᵏ⁺¹ 个数重复一次（{ $listed }）
    }；d = { $d } 时 P 只有一个频率，周期为 { $period } 个位置：除了这些位，没有什么在变慢。
takeaway-binary = { $bits ->
        [1] 第 0 位每 2 个数重复一次
       *[other] 第 k 位每 2ᵏ⁺¹ 个数重复一次（{ $listed }）
    }，P 的第 j 对每 { $period } × { $step }ʲ 个位置重复一次：两者都向右变慢，位每次慢 2 倍，频率对平滑地每次慢 { $step } 倍。

## 面板的标题、说明（嵌入时的一行）、短名称（课程按钮）与课程的各部分（src/model/panels.rs）

lesson-part-self-attention = 自注意力
lesson-part-comparing = 比较卷积神经网络、循环神经网络和自注意力
lesson-part-positional-encoding = 位置编码：绝对位置与相对位置
lesson-part-questions = 读者提问
lesson-part-beyond = 本章之外
lesson-part-exercise = 练习 2：动手训练
panel-attention-title = 一个句子的注意力权重
panel-attention-caption = 在一个未训练的层中，每个词（一行）对每个词（一列）的注意力有多大。
panel-attention-short = 注意力权重
panel-pipeline-title = Q、K 和 V 到底是什么？
panel-pipeline-caption = 头 0 的一个注意力层，逐步展示：Z、Q、K、V、分数、权重和输出。
panel-pipeline-short = Q、K 和 V
panel-heads-title = 多头注意力与 valid_lens
panel-heads-caption = 每个头和每个序列各一张注意力图；同一序列的每个头都掩蔽相同的键。
panel-heads-short = 多头注意力
panel-complexity-title = 卷积神经网络、循环神经网络与自注意力
panel-complexity-caption = 随 n 增长，卷积神经网络、循环神经网络和自注意力的运算量与路径长度。
panel-complexity-short = CNN 与 RNN
panel-order-title = 没有位置编码，顺序就会丢失
panel-order-caption = 没有 P 时，打乱词元只会打乱输出；有了 P，输出就会改变。
panel-order-short = 顺序丢失
panel-heatmap-title = 位置编码矩阵 P
panel-heatmap-caption = 第 i 行是加到位置 i 的词元上的向量；各列从左到右逐渐变慢。
panel-heatmap-short = P 的热图
panel-curves-title = 各列随位置的变化
panel-curves-caption = P 的各列随位置的变化：频率沿列降低，正弦与余弦成对出现。
panel-curves-short = 各列曲线
panel-binary-title = 与二进制的类比
panel-binary-caption = 0 … n − 1 的二进制位与 P 并列：两者都从左到右逐渐变慢。
panel-binary-short = 二进制类比
panel-projection-title = 相对位置：对每个 i 都是同一个旋转
panel-projection-caption = 移动 δ 个位置时，每个位置的第 j 对都转过同一个角度 δ·ωⱼ。
panel-projection-short = 相对位置
panel-similarity-title = 相似度与平移不变性
panel-similarity-caption = d 为偶数时，两个位置编码的相似度只取决于它们的偏移。
panel-similarity-short = 相似度
panel-scaling-title = 按 √d 缩放，用相加而非拼接
panel-scaling-caption = 词嵌入乘以和不乘以 √d 时的元素大小，以及 P 的元素大小；相加与拼接。
panel-scaling-short = 按 √d 缩放
panel-rope-title = RoPE：旋转查询和键
panel-rope-caption = RoPE 旋转查询和键：分数只取决于偏移（舍入误差之内）。
panel-rope-short = RoPE
panel-extension-title = 更长的上下文：位置插值、NTK-aware 缩放、YaRN
panel-extension-caption = 位置插值、NTK-aware 缩放和 YaRN 如何改变每个旋转对的频率。
panel-extension-short = 更长的上下文
panel-alibi-title = ALiBi：用线性偏置代替向量
panel-alibi-caption = ALiBi 给每个头的因果分数加上一个与距离成线性关系的惩罚。
panel-alibi-short = ALiBi
panel-t5-title = T5 的相对位置分桶
panel-t5-caption = T5 为每个相对距离分配的桶，分别在编码器和解码器中。
panel-t5-short = T5 分桶
panel-shaw-title = 相对位置嵌入（Shaw 等人）
panel-shaw-caption = 句子的 logits，每个截断后的偏移有一个可学习的键向量（Shaw 等人，2018）。
panel-shaw-short = Shaw 等人
panel-learned-title = 可学习的位置嵌入表
panel-learned-caption = 训练开始时的可学习位置表 E：Lmax 以下的每个位置一行。
panel-learned-short = 可学习的表
panel-nope-title = 完全不用位置编码：由因果掩码来计数
panel-nope-caption = 有因果掩码而没有位置编码时，第一层可以在位置 t 输出 1/t。
panel-nope-short = 不用编码
panel-stacking-title = 堆叠注意力层
panel-stacking-caption = 堆叠的注意力层：各行多快变得相同，以及位置信息能否保留下来。
panel-stacking-short = 堆叠层
panel-train-title = 模型能学会位置吗？
panel-train-caption = 在浏览器中并排训练各种编码：损失、各长度上的准确率、一张可学习的表。
panel-train-short = 训练编码

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
summary-curves-julia-figure = Julia 的图绘制的是 P[6:10, :]：第 6 列是第 2 对的余弦（它的正弦孪生列，第 5 列，没有画出），第 7 和 8 列是第 3 对，第 9 和 10 列是第 4 对。
summary-curves-textbook = 数值取自教科书的 float32 P。
readout-cell = 位置 { $position }，第 { $column } 列（{ $kind }，频率对 j = { $pair }）：p = { $value }{ $textbook ->
        [yes] （教科书 float32）
       *[no] { "" }
    }
readout-cell-julia = 位置 { $position }，第 { $column } 列（{ $kind }，频率对 j = { $pair }；Julia 的 P[{ $column }, { $position }, 1]）：p = { $value }{ $textbook ->
        [yes] （教科书 float32）
       *[no] { "" }
    }
note-projection = 频率对 j = { $pair }（第 { $first } 和 { $second } 列），偏移 δ = { $delta }：同一个矩阵 M 把每个 p_i 变换到 p_(i+δ)。
note-projection-counted-from-one = 频率对 j = { $pair }（从 1 数起的第 { $first } 和 { $second } 列；从 0 数起为 { $first_zero_based } 和 { $second_zero_based }），偏移 δ = { $delta }：同一个矩阵 M 把每个 p_i 变换到 p_(i+δ)。
note-projection-textbook = 下面的点和误差取自教科书的 float32 P。
note-projection-textbook-beside-exact = 下面的点和误差取自在 CPU 上计算的教科书 float32 P（上方的热图是 GPU 计算的精确 P）。
note-textbook = 教科书 float32：d2l 的 PyTorch/MXNet 代码以 float32 构成角度 i·ω_j = i / base^(2j/d)，float32 只保留 24 位有效二进制位，因此 i = { $last } 附近的数只能精确到约 i·2⁻²⁴ ≈ { $spacing }，而角度要经过这样的舍入（先求幂，再做除法）。这里角度的误差最多为 { $angle_error } rad，sin 和 cos 继承了这一误差：M·p_i 与 p_(i+δ) 最多相差 { $projection_error }。精确的 P 从不以 float32 构成角度。（Julia 版以 Float64 计算 P。）
readout-projection-angle = ω_{ $pair } = 每个位置 { $omega } rad；δ·ω_{ $pair } = { $angle } rad（{ $degrees }°）
readout-projection-angle-turned = ω_{ $pair } = 每个位置 { $omega } rad；δ·ω_{ $pair } = { $angle } rad，与 { $reduced } rad（{ $reduced_degrees }°）是同一个转角
note-projection-no-pair = d = 1 时编码只有一列正弦，因此没有可投影的频率对。
figure-projection-no-pair-title = d = 1：唯一的一列是正弦。
figure-projection-no-pair-hint = 没有可旋转的 (sin, cos) 对：请增大 d。
