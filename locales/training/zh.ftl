# 训练面板根据一次运行的数值计算出的句子（见 src/model/messages/mod.rs）。术语见 ../glossary-zh.md。

## 下面句子作为参数使用的列表和短语。

train-list-separator = 、
train-list-and = { $rest } 和 { $last }
train-listed-item = { $name } { $value }
train-listed-counts = { $name } { $counts }（共 { $tokens } 个词元）
train-on-every-seed = { $seeds ->
        [1] 在训练的唯一一个种子上
        [2] 在两个种子上
       *[other] 在全部 { $seeds } 个种子上
    }
train-chance-name = { $task ->
        [histogram] 总是猜最可能的出现次数
       *[other] 均匀随机猜测
    }

## 标题（运行结束后作为面板的要点）：用平实的话回答任务的问题，每句以句号结尾；背后的数字放在“更多”下。

train-sentence-separator = { "" }
train-task-words = { $task ->
        [shift] 复制 { $k } 个位置之前的词元
        [reverse] 把序列倒过来写
       *[histogram] 数出每个词元出现的次数
    }
train-headline-learn = { $names } { $count ->
       *[other] { $every }都学会了{ $task }
    }{ $more ->
        [none] { "" }
       *[some] ；{ $rest }
    }。
train-headline-some-seeds = { $name } 在 { $seeds } 个种子中的 { $solved } 个上学会（{ $count ->
       *[other] 其余种子上为 { $others }
    }）
train-headline-partly = { $names } 只学会了一部分（{ $list }）
train-headline-few-tokens = 几乎为零（在任何种子上至多 { $count } 个词元，共 { $tokens } 个）
train-headline-learn-none = 没有任何编码{ $any ->
        [any] 在任何一个种子上
       *[every] { $every }都
    }学会{ $task }；最好的是 { $best }。
train-headline-blind = { $names } { $count ->
       *[other] 停留在看不到位置的模型所能达到的 { $ceiling } 或其附近
    }（{ $list }）{ $why ->
        [none] ：none 不含任何位置信息
        [alibi] ：alibi 的惩罚只随距离增大，所以它无法专门关注 { $k } 个位置之前的词元
        [both] ：none 不含任何位置信息，而 alibi 的惩罚只随距离增大，所以它无法专门关注 { $k } 个位置之前的词元
       *[other] { "" }
    }。
train-headline-no-position-needed = 然而该任务不需要位置：原则上，看不到位置的模型可以达到 { $ceiling }{ $none ->
        [none] { "" }
       *[some] （none 得到 { $none }）
    }。
train-headline-past-kept = 在 4 倍训练长度（{ $four }）的序列上，只有 { $names } { $count ->
       *[other] 仍能做到
    }{ $sinusoidal ->
        [falls] ；sinusoidal 从 { $from } 降到 { $to }
       *[kept] { "" }
    }。
train-headline-past-none = 在 4 倍训练长度（{ $four }）的序列上，没有任何编码能做到：每种编码在每个种子上都不超过 { $highest }{ $sinusoidal ->
        [falls] ，sinusoidal 从 { $from } 降到 { $to }
       *[other] { "" }
    }。

## 结论：在训练长度上、超出训练长度之后，以及失败的原因。

train-verdict-all-solve = 在训练长度（{ $length }）上，每种编码{ $every }都解决了该任务：{ $list }。
train-verdict-some-solve = 在训练长度（{ $length }）上，{ $names } { $count ->
       *[other] { $every }都解决了该任务
    }（≥ { $solved }：{ $list }）。
train-verdict-none-solves = 在训练长度（{ $length }）上，没有任何编码{ $every }都达到 { $solved }。
train-verdict-blind = { $names } { $count ->
       *[other] 停留在
    }不看位置时的上限 { $ceiling }（任何看不到位置的模型所能达到的最好结果）或其附近：{ $list }。
train-verdict-short = 尚未解决该任务的：{ $list }。
train-verdict-short-varying = 尚未解决该任务的：{ $list }，{ $count ->
       *[other] 随种子而变
    }。
train-verdict-no-position-needed = 该任务不需要位置：不看位置的模型可以达到 { $ceiling }。
train-verdict-chance = 随机猜测水平为 { $chance }。
train-past-still-four = 超出训练长度后，在 4 倍训练长度（{ $length }）上，{ $names } { $count ->
       *[other] { $every }仍能解决该任务
    }：{ $list }。
train-past-next-best = 在那里次好的是 { $item }。
train-past-next-best-varying = 在那里次好的是 { $item }，随种子而变。
train-past-still-twice = 超出训练长度后，{ $names } { $count ->
       *[other] { $every }在 2 倍（{ $twice }）上仍能解决该任务
    }，而在 4 倍（{ $four }）上没有一种能做到；在那里最好的是 { $best }。
train-past-none-keeps = 超出训练长度后，没有编码能保持：在 4 倍训练长度（{ $four }）上，每种编码在每个种子上都不超过 { $highest }{ $below ->
        [yes] ，甚至低于那里的{ $chance_name }（{ $chance }）
       *[no] { "" }
    }{ $blind ->
        [ceiling] ，而不看位置的模型可以达到 { $ceiling }
       *[none] { "" }
    }。
train-why-none = none 看不到位置：在双向注意力下，每个位置看到的词元都相同，所以它只能根据自身的词元和出现了哪些词元来猜（它{ $every }最终都与上限相差不到 { $margin } 个百分点）
train-why-alibi = alibi 的偏置 −m·|i − j| 在查询自身处最大，只随距离下降，所以它无法让 k = { $k } 个位置之前的键胜过更近的键；有 { $heads } 个头时它的斜率是 { $slopes }，所以在 { $length } 个位置上它最多使一个分数改变 { $span }，alibi { $every }都停留在不看位置时的上限
train-clause-separator = ；
train-reasons = { $reasons }。

## 图表下方的详细结果。

train-findings-by-length = 在 { $factor } 倍训练长度（{ $length }）上的词元准确率，{ $seeds } 个{ $seeds ->
       *[other] 种子
    }上的均值（范围）：{ $list }；不看位置时的上限 { $ceiling }，随机猜测水平（{ $chance_name }）{ $chance }。
train-findings-learned-rows = 可学习的位置嵌入表只有位置 0…{ $last } 的行：超出这些位置什么也不加，模型在那里看不到位置。
train-findings-appended = 拼接 P（concat：宽度为 { $token_width } 的词元嵌入旁边放宽度为 { $p_width } 的 P）最终的平均损失为 { $concat_loss }，在训练长度上的准确率为 { $concat_accuracy }；把 P 加到整个宽度上（sinusoidal）则为 { $added_loss } 和 { $added_accuracy }。逐个种子比较，{ $lower ->
        [all] concat { $every }最终损失都更低
        [none] sinusoidal { $every }最终损失都更低
       *[some] concat 在 { $seeds } 个种子中的 { $concat_lower } 个上最终损失更低，sinusoidal 在其余种子上更低
    }。
train-findings-learned-seed = 种子 { $seed } { $before } → { $after }
train-findings-spread = 可学习位置嵌入表的归一化格拉姆矩阵的平移离散度（translation spread；每个元素只取决于 i − j 时为 0，同样大小的正弦 P 就是如此，它的 { $sinusoidal } 是 float32 舍入误差），未训练 → 训练后：{ $each }；{ $direction ->
        [raised] 训练{ $every }都使它升高：训练后的表并没有更接近只取决于 i − j
        [lowered] 训练{ $every }都使它降低：训练后的表更接近只取决于 i − j
       *[mixed] 训练在 { $seeds } 个种子中的 { $rose } 个上使它升高，在其余种子上使它降低：没有一致的方向
    }。
train-findings-heads = 在样例上，最大权重（在最好的头中）恰好落在 k = { $k } 个位置之前的词元上的查询所占的比例：{ $list }。
train-findings-heads-none = 在样例上，最大权重（在最好的头中）恰好落在 k = { $k } 个位置之前的词元上的查询所占的比例：没有任何编码的头能单独挑出它。
train-findings-heads-noise = 对于 { $list }，没有哪个头给 k 个位置之前的键的平均权重比给其他每个偏移的都多。
train-findings-heads-noise-item = { $name }（{ $count ->
       *[other] 种子
    } { $seeds }）

## 运行期间的要点、进度行和训练器说明。

train-takeaway-training = 训练中：每个种子都完成后，结论会显示在这里，并且只陈述在每个种子上都成立的结果。
train-progress-stopped = 在第 { $steps } 步（共 { $total } 步）停止：{ $failure }。
train-progress-starting = 开始：第 0 步（共 { $total } 步）；正在为训练器计时。
train-progress-done = 完成：{ $encodings } 种编码 × { $seeds } 个种子 × { $total } 步，用时 { $seconds } 秒（每秒 { $rate } 步，所有编码合计，在 { $device ->
        [gpu] GPU
       *[cpu] CPU
    } 上的 { $workers } 个 Web Worker 中）。
train-progress-training = 训练中：{ $seeds ->
        [0] { "" }
        [1] { "" }
       *[other] 种子 { $seed }（第 { $index } 个，共 { $seeds } 个），
    }第 { $steps } 步（共 { $total } 步），每秒 { $rate } 步（所有编码合计，在 { $device ->
        [gpu] GPU
       *[cpu] CPU
    } 上的 { $workers } 个 Web Worker 中）。
train-progress-measuring = 已训练{ $seeds ->
        [0] { "" }
        [1] { "" }
       *[other] 种子 { $seed }（第 { $index } 个，共 { $seeds } 个）
    }，正在测量每个长度上的准确率（{ $all } 个长度中的 { $done } 个）。
train-progress-paused = 已暂停。
train-progress-settings-changed = 此后设置已更改：按“训练”来运行新的设置。
train-failure-stopped = 在结束前停止
train-trainer-trial-gpu = 在 GPU（WebGPU）上训练：在 { $encoding } 上经过一个预热步后计时（各 { $trial_seconds } 秒），它每秒 { $gpu } 步，而 CPU 为 { $cpu } 步（{ $ratio }×）。它的求和顺序与 CPU 不同，所以它的损失与 trainer=cpu 的接近，但并非逐位相同；在同一个 GPU 和浏览器上则完全可重复。
train-trainer-trial-first-step = 在 CPU 上训练：它在 { $encoding } 上每秒 { $cpu } 步；GPU 准备用了 { $setup } 秒，第一步用了 { $first_step } 秒，超过了试验的 { $limit } 秒，所以没有继续计时。
train-trainer-trial-cpu = 在 CPU 上训练：在 { $encoding } 上经过一个预热步后计时（各 { $trial_seconds } 秒），它每秒 { $cpu } 步，而 GPU 为 { $gpu } 步；只有 GPU 达到 CPU 速度的 { $margin }× 或以上时才选用 GPU。
train-trainer-trial-no-gpu = 在 CPU 上训练：GPU 训练器无法在这里运行（{ $error }）。
train-trainer-no-reason = 未给出原因
train-trainer-fallback = 在 CPU 上训练：GPU 训练器失败了（{ $error }），所以它的编码在 CPU 上从第 0 步重新开始。

## 运行的按钮。

train-button-train = 训练
train-button-train-again = 再次训练
train-button-start-over = 重新开始
train-button-pause = 暂停
train-button-resume = 继续

## 图表：代替图表显示的提示（每条两行）、坐标轴标题、图例和读数。

train-figure-not-trained-loss-first = 尚未训练：请按“训练”。
train-figure-not-trained-loss-second = 设置在这张图的下方。
train-figure-not-trained-first = 尚未训练。
train-figure-not-trained-second = 请按损失图上方的“训练”。
train-figure-loss-starting = 训练即将开始…
train-figure-accuracy-later-first = 每个种子都训练完后，
train-figure-accuracy-later-second = 才会测量准确率随长度的变化。
train-figure-learned-missing-first = 勾选 learned 后训练，
train-figure-learned-missing-second = 即可看到它的表。
train-figure-attention-later-first = 训练结束后
train-figure-attention-later-second = 才会绘制注意力图。
train-figure-no-attention-map = 没有注意力图。
train-axis-step = 训练步数
train-axis-step-seeds = 训练步数（线：到目前为止各种子的均值；阴影：其范围）
train-axis-loss = 训练损失（对数刻度）
train-axis-length = 序列长度（竖线：训练长度，{ $length }）
train-axis-length-seeds = 序列长度（竖线：训练长度 { $length }；阴影：各种子间的范围）
train-axis-accuracy = 词元准确率（%）
train-legend-ceiling = 不看位置时的上限
train-legend-training-length = 训练长度（{ $length }）
train-legend-chance = 随机猜测水平（{ $chance_name }）
train-axis-column = 列
train-axis-position = 位置
train-axis-position-j = 位置 j
train-axis-position-i = 位置 i
train-axis-key-position = 键位置 j
train-axis-query-position = 查询位置 i
train-figure-spread = 平移离散度（对 i < j，G[i, j] 减去其对角线 j − i 上均值的均方根；每个元素只取决于 j − i 时为 0）：未训练的表 { $untrained }，训练后 { $trained }，正弦 P { $sinusoidal }。
train-attention-readout = { $encoding }，第 { $layer } 层，第 { $head } 个头，种子 { $seed }，在一条长度为 { $length } 的序列上（词元 { $tokens }）。{ $hit }
train-attention-hit = 它的最大权重落在 k = { $k } 个位置之前的键上（j = i − { $k }），这在有该键的查询中占 { $share }；它在那里的平均权重是 { $weight }，比任何其他偏移都大。
train-attention-noise = 它在 k = { $k } 个位置之前的键上的平均权重是 { $weight }，不比某个其他偏移上的大（均匀时为 { $uniform }）：它的最大权重落在哪里只是噪声，而不是学到的偏移。

## 预训练面板（all-MiniLM-L6-v2）：由模型的注意力权重算出的偏移、要点和读数。

pretrained-offset = { $direction ->
        [back] { $count ->
            [1] 前一个词元
           *[other] 往前第 { $count } 个词元
        }
        [ahead] { $count ->
            [1] 后一个词元
           *[other] 往后第 { $count } 个词元
        }
       *[self] 自己
    }
pretrained-head = 第 { $layer } 层第 { $head } 个头（{ $offset }：有位置表时 { $with }，没有时 { $without }）
pretrained-opening-table = 学习位置编码并不能省掉它：这个模型学了自己的位置表，并且依赖它。
pretrained-opening-zeroed = 没有位置表，这个训练好的模型就看不到词序了。
pretrained-too-short = 只有 { $tokens } 个词元的句子太短，看不出哪些头按位置注意：请试一个至少 { $least } 个词元的句子。
pretrained-no-position-heads = 在这个句子里，没有哪个头把每个词元的大部分权重放在同一个偏移上；请试一个更长的句子。
pretrained-heads-lost = 在这里，它的 { $total } 个头中有 { $heads } 个按位置注意，其中 { $lost } 个在没有位置表时失去了这一模式：{ $example }。
pretrained-heads-kept = 在这里，它的 { $total } 个头中有 { $heads } 个按位置注意，没有位置表时它们都没有失去这一模式（{ $example }）。
pretrained-order-blind = 没有位置表，这个训练好的模型就看不到词序了：把词序倒过来只会把它的注意力倒过来（最大差 { $without }，float32 舍入）。
pretrained-order-gap = 没有位置表时，把词序倒过来仍会使这个模型的注意力最多变化 { $without }（有位置表时：{ $with }）。
pretrained-layer-label = 第 { $layer } 层
pretrained-head-title = 第 { $layer } 层第 { $head } 个头：{ $offset }，平均权重 { $weight }
# 网格下方：两种边框的含义。
# “更多”下的说明，随模型的模块写入：要点中的词的含义。
pretrained-definition = 句子是注意力面板的句子（在第一个面板中编辑），按 Hugging Face 的 BERT 分词器完全相同的方式切分为词元，首尾加 [CLS] 和 [SEP]。各层权重以 float16 存储，词向量以 float32 存储：每个注意力权重与 PyTorch 的 float32 结果相差不超过 0.002（在 50 个测试句子上最多 0.0011）。如果一个头把每个词元的大部分权重（平均至少 0.5）放在同一个偏移上（不是词元自己）——前一个词元、后一个词元——我们就说它按位置注意。没有位置表时，如果它在该偏移上的权重降到原来的一半以下，它就失去了这一模式。少于一半词元才有的偏移不计入。开关把表的每一行设为零：模型看到的只是一袋词元，把词序倒过来只会把它的注意力倒过来，正如顺序面板对一层所展示的。
pretrained-legend-position = 按位置注意（有位置表时）
pretrained-legend-chosen = 在下方放大（点击小图选择）
pretrained-status-loading = 正在加载模型：{ $loaded } / { $total } MB，来自本站（浏览器会保存它，下次访问直接使用）。
pretrained-takeaway-before = 学习位置编码并不能省掉它：这个训练好的模型中读取相邻词元的头，在位置表被置零时会失去这一模式。模型加载后，这里会给出你的句子的数字。
pretrained-status-ready = all-MiniLM-L6-v2，{ $tokens } 个词元：在本机 CPU 上运行四次用时 { $ms } ms（已获取 { $loaded } MB）。
pretrained-status-failed = 无法加载模型：{ $error }。页面的其余部分不受影响。
pretrained-status-ready-gpu = all-MiniLM-L6-v2，{ $tokens } 个词元：在 WebGPU 上运行四次用时 { $ms } ms（页面的计算设置；已获取 { $loaded } MB）。
pretrained-status-computing = 正在 WebGPU 上运行模型……
pretrained-gpu-failed = WebGPU 无法运行模型（{ $error }），因此改由 CPU 运行。
pretrained-truncated = （截取为模型的前 { $limit } 个词元）
pretrained-heads-list = { $count ->
        [0] 这个句子里没有按位置注意的头。
       *[other] 按位置注意的头：{ $heads }。
    }把词序倒过来，注意力在没有位置表时变化 { $without }，有位置表时变化 { $with }。

## 可学习位置嵌入表面板中的训练后的表（all-MiniLM-L6-v2 的 512 × 384 位置嵌入表与正弦位置编码对照）

learned-trained-takeaway-band = 训练之后，MiniLM 的表学出了一条和正弦位置编码相似的带：相邻位置的行相似（平均余弦相似度 { $near }；正弦位置编码 { $sinusoid_near }）。相距远时两者不同：相距 { $offset } 个位置及以上时，MiniLM 的相似度随偏移在 { $low } 与 { $high } 之间摆动，而正弦位置编码的行仍然相似（平均 { $sinusoid_far }）。
learned-trained-takeaway-wide = 训练之后，MiniLM 的表学出了一条和正弦位置编码相似、但更宽的带：相邻位置的行相似（平均余弦相似度 { $near }；正弦位置编码 { $sinusoid_near }），相距 { $offset } 个位置及以上的行也仍然相似（平均 { $far }；正弦位置编码 { $sinusoid_far }）。
learned-trained-takeaway-no-band = 训练之后，MiniLM 的表没有学出和正弦位置编码相似的带：相邻位置的行并不相似（平均余弦相似度 { $near }；正弦位置编码 { $sinusoid_near }）。
learned-trained-status-loading = 正在加载 MiniLM 训练后的位置嵌入表：{ $loaded } KB，来自本站。
learned-trained-status-failed = 无法加载 MiniLM 训练后的位置嵌入表：{ $error }。上面用随机种子初始化的表不受影响。
learned-trained-map-trained = MiniLM，训练后：cos(E_i, E_j)
learned-trained-map-sinusoid = 正弦位置编码，d = { $d }：cos(p_i, p_j)
learned-trained-axis-i = 位置 i
learned-trained-axis-j = 位置 j
learned-trained-axis-offset = 偏移 k = j − i
learned-trained-axis-mean = 平均余弦
learned-trained-curve-trained = MiniLM 的表（训练后）
learned-trained-curve-sinusoid = 正弦位置编码，d = { $d }
