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
