# The training panel's sentences, computed from a run's numbers (src/model/train; see
# src/model/messages/mod.rs). Numbers come as arguments, formatted by the caller; a count also
# selects a plural form ([one], *[other]). A line break only inside a placeable.

## Lists and phrases that the sentences below take as arguments.

train-list-separator = { ", " }
train-list-and = { $rest } and { $last }
train-listed-item = { $name } { $value }
train-listed-counts = { $name } { $counts } of { $tokens } tokens
train-on-every-seed = { $seeds ->
        [1] on the one seed trained
        [2] on both seeds
       *[other] on all { $seeds } seeds
    }
train-chance-name = { $task ->
        [histogram] always guessing the most likely count
       *[other] uniform guessing
    }

## The headline (the panel's takeaway once a run is done): the task's question answered in plain
## words, each sentence ending with its full stop; the numbers behind it follow under "more".

train-sentence-separator = { " " }
train-task-words = { $task ->
        [shift] copy the token { $k } places back
        [reverse] write the sequence backwards
       *[histogram] count each token's occurrences
    }
train-headline-learn = { $names } { $count ->
        [one] learns
       *[other] learn
    } to { $task } { $every }{ $more ->
        [none] { "" }
       *[some] ; { $rest }
    }.
train-headline-some-seeds = { $name } on { $solved } of { $seeds } seeds ({ $others } on the { $count ->
        [one] other
       *[other] others
    })
train-headline-partly = { $names } only partly ({ $list })
train-headline-few-tokens = almost nothing (at most { $count } of { $tokens } tokens on any seed)
train-headline-learn-none = No encoding learns to { $task } { $any ->
        [any] on any seed
       *[every] { $every }
    }; the best: { $best }.
train-headline-blind = { $names } { $count ->
        [one] stays
       *[other] stay
    } at or near the { $ceiling } that a model blind to positions can reach ({ $list }){ $why ->
        [none] : none has no position at all
        [alibi] : alibi's penalty only grows with distance, so it cannot single out the token { $k } back
        [both] : none has no position at all, and alibi's penalty only grows with distance, so it cannot single out the token { $k } back
       *[other] { "" }
    }.
train-headline-no-position-needed = Yet the task needs no position: in principle a model blind to positions can reach { $ceiling }{ $none ->
        [none] { "" }
       *[some] { " " }(none gets { $none })
    }.
train-headline-past-kept = On sequences 4× the training length ({ $four }) only { $names } still { $count ->
        [one] does
       *[other] do
    } it{ $sinusoidal ->
        [falls] ; sinusoidal falls from { $from } to { $to }
       *[kept] { "" }
    }.
train-headline-past-none = On sequences 4× the training length ({ $four }) no encoding does it: every encoding is at or below { $highest } on every seed{ $sinusoidal ->
        [falls] , and sinusoidal falls from { $from } to { $to }
       *[other] { "" }
    }.

## The verdict: at the training length, past it, and why the failures fail.

train-verdict-all-solve = At the training length ({ $length }) every encoding solves the task { $every }: { $list }.
train-verdict-some-solve = At the training length ({ $length }) { $names } { $count ->
        [one] solves
       *[other] solve
    } the task { $every } (≥ { $solved }: { $list }).
train-verdict-none-solves = At the training length ({ $length }) no encoding reaches { $solved } { $every }.
train-verdict-blind = { " " }{ $names } { $count ->
        [one] stays
       *[other] stay
    } at or near the position-blind ceiling, { $ceiling } (the best any model that cannot see positions can reach): { $list }.
train-verdict-short = { " " }Short of solving it: { $list }.
train-verdict-short-varying = { " " }Short of solving it: { $list }, { $count ->
        [one] varying
       *[other] each varying
    } with the seed.
train-verdict-no-position-needed = { " " }The task needs no position: a position-blind model can reach { $ceiling }.
train-verdict-chance = { " " }Chance is { $chance }.
train-past-still-four = Past it, { $names } still { $count ->
        [one] solves
       *[other] solve
    } it at 4× the training length ({ $length }) { $every }: { $list }.
train-past-next-best = { " " }The next best there is { $item }.
train-past-next-best-varying = { " " }The next best there is { $item }, varying with the seed.
train-past-still-twice = Past it, { $names } still { $count ->
        [one] solves
       *[other] solve
    } it at 2× ({ $twice }) { $every }, and none does at 4× ({ $four }); the best there is { $best }.
train-past-none-keeps = Past it, no encoding keeps it: at 4× the training length ({ $four }) every encoding is at or below { $highest } on every seed{ $below ->
        [yes] , below even { $chance_name } there ({ $chance })
       *[no] { "" }
    }{ $blind ->
        [ceiling] , while a position-blind model could reach { $ceiling }
       *[none] { "" }
    }.
train-why-none = none sees no position: with bidirectional attention every position sees the same tokens, so it can only guess from its own token and which tokens occur (it ends within { $margin } points of the ceiling { $every })
train-why-alibi = alibi's bias −m·|i − j| is largest on the query itself and only falls with distance, so it cannot favour the key k = { $k } back over nearer ones; with { $heads } heads its slopes are { $slopes }, so across the { $length } positions it moves a score by at most { $span }, and alibi stays at the position-blind ceiling { $every }
train-clause-separator = { "; " }
train-reasons = { $reasons }.

## The findings below the charts.

train-findings-by-length = Token accuracy at { $factor }× the training length ({ $length }), mean over { $seeds } { $seeds ->
        [one] seed
       *[other] seeds
    } (range): { $list }; position-blind ceiling { $ceiling }, chance ({ $chance_name }) { $chance }.
train-findings-learned-rows = The learned table has rows for positions 0…{ $last } only: past them nothing is added, and the model sees no position there.
train-findings-appended = Appending P (concat: a token embedding of width { $token_width } beside P of width { $p_width }) ended at mean loss { $concat_loss } and { $concat_accuracy } at the training length; adding P to the whole width (sinusoidal) at { $added_loss } and { $added_accuracy }. Seed by seed, { $lower ->
        [all] concat ended with the lower loss { $every }
        [none] sinusoidal ended with the lower loss { $every }
       *[some] concat ended with the lower loss on { $concat_lower } of { $seeds } seeds, sinusoidal on the others
    }.
train-findings-learned-seed = seed { $seed } { $before } → { $after }
train-findings-spread = Translation spread of the learned table's normalised Gram matrix (0 when every entry depends on i − j only, as for sinusoidal P of the same size, whose { $sinusoidal } is float32 rounding), untrained → trained: { $each }; { $direction ->
        [raised] training raised it { $every }: the trained table is not closer to depending on i − j only
        [lowered] training lowered it { $every }: the trained table is closer to depending on i − j only
       *[mixed] training raised it on { $rose } of { $seeds } seeds and lowered it on the others: no direction holds
    }.
train-findings-heads = On the example, the share of queries whose largest weight (in the best head) is on the token exactly k = { $k } places back: { $list }.
train-findings-heads-none = On the example, the share of queries whose largest weight (in the best head) is on the token exactly k = { $k } places back: no head of any encoding singles it out.
train-findings-heads-noise = { " " }No head gives the key k back more mean weight than every other offset for { $list }.
train-findings-heads-noise-item = { $name } on { $count ->
        [one] seed
       *[other] seeds
    } { $seeds }

## The takeaway, the progress line and the trainer's line during a run.

train-takeaway-training = Training: the verdict comes here once every seed is done, and states only what holds on every seed.
train-progress-stopped = Stopped at step { $steps } of { $total }: { $failure }.
train-progress-starting = Starting: step 0 of { $total }; the trainers are being timed.
train-progress-done = Done: { $encodings } { $encodings ->
        [one] encoding
       *[other] encodings
    } × { $seeds } { $seeds ->
        [one] seed
       *[other] seeds
    } × { $total } steps in { $seconds } s ({ $rate } steps per second, all encodings together, in { $workers } { $workers ->
        [one] worker
       *[other] workers
    } { $device ->
        [gpu] on the GPU
       *[cpu] on the CPU
    }).
train-progress-training = Training: { $seeds ->
        [0] { "" }
        [1] { "" }
       *[other] seed { $seed } ({ $index } of { $seeds }){ ", " }
    }step { $steps } of { $total }, { $rate } steps per second (all encodings together, in { $workers } { $workers ->
        [one] worker
       *[other] workers
    } { $device ->
        [gpu] on the GPU
       *[cpu] on the CPU
    }).
train-progress-measuring = Trained { $seeds ->
        [0] { "" }
        [1] { "" }
       *[other] seed { $seed } ({ $index } of { $seeds }){ ", " }
    }measuring accuracy at every length ({ $done } of { $all } lengths).
train-progress-paused = { " " }Paused.
train-progress-settings-changed = { " " }The settings have changed since: press Train to run them.
train-failure-stopped = stopped before the end
train-trainer-trial-gpu = Training on the GPU (WebGPU): timed on { $encoding } after a warm-up step ({ $trial_seconds } s each), it took { $gpu } steps a second against the CPU's { $cpu } ({ $ratio }×). Its sums run in another order than the CPU's, so its losses are close to trainer=cpu's but not the same bits; they repeat exactly on the same GPU and browser.
train-trainer-trial-first-step = Training on the CPU: it took { $cpu } steps a second on { $encoding }; the GPU took { $setup } s to set up and { $first_step } s for its first step, past the trial's { $limit } s, so it was timed no further.
train-trainer-trial-cpu = Training on the CPU: timed on { $encoding } after a warm-up step ({ $trial_seconds } s each), it took { $cpu } steps a second against the GPU's { $gpu }; the GPU is taken only at { $margin }× the CPU's rate or more.
train-trainer-trial-no-gpu = Training on the CPU: the GPU trainer could not run here ({ $error }).
train-trainer-no-reason = no reason given
train-trainer-fallback = Training on the CPU: the GPU trainer failed ({ $error }), so its encodings started again on the CPU from step 0.

## The run's buttons.

train-button-train = Train
train-button-train-again = Train again
train-button-start-over = Start over
train-button-pause = Pause
train-button-resume = Resume

## The figures: messages in place of a chart (two lines each), axis titles, legends, read-outs.

train-figure-not-trained-loss-first = Not trained yet: press Train.
train-figure-not-trained-loss-second = The settings are below this chart.
train-figure-not-trained-first = Not trained yet.
train-figure-not-trained-second = Press Train above the loss chart.
train-figure-loss-starting = Training is starting…
train-figure-accuracy-later-first = Accuracy against length is measured
train-figure-accuracy-later-second = once every seed is trained.
train-figure-learned-missing-first = Train with learned ticked
train-figure-learned-missing-second = to see its table.
train-figure-attention-later-first = The attention maps are drawn
train-figure-attention-later-second = once training ends.
train-figure-no-attention-map = No attention map.
train-axis-step = Training step
train-axis-step-seeds = Training step (lines: mean over the seeds so far; shaded: their range)
train-axis-loss = Training loss (log scale)
train-axis-length = Sequence length (vertical line: the training length, { $length })
train-axis-length-seeds = Sequence length (vertical line: training length { $length }; shaded: range over seeds)
train-axis-accuracy = Token accuracy (%)
train-legend-ceiling = position-blind ceiling
train-legend-training-length = training length ({ $length })
train-legend-chance = chance ({ $chance_name })
train-axis-column = Column
train-axis-position = Position
train-axis-position-j = Position j
train-axis-position-i = Position i
train-axis-key-position = Key position j
train-axis-query-position = Query position i
train-figure-spread = Translation spread (the RMS, over i < j, of G[i, j] minus the mean of its diagonal j − i; 0 when every entry depends on j − i only): untrained table { $untrained }, trained { $trained }, sinusoidal P { $sinusoidal }.
train-attention-readout = { $encoding }, layer { $layer }, head { $head }, seed { $seed }, on one sequence of length { $length } (tokens { $tokens }).{ $hit }
train-attention-hit = { " " }Its largest weight is on the key k = { $k } places back (j = i − { $k }) for { $share } of the queries that have one; its mean weight there is { $weight }, more than at any other offset.
train-attention-noise = { " " }Its mean weight on the key k = { $k } places back is { $weight }, no more than at some other offset (uniform would be { $uniform }): where its largest weight falls is noise, not a learned offset.

## The pretrained panel (all-MiniLM-L6-v2): its offsets, takeaway and read-outs, computed from
## the model's attention weights (src/panels/pretrained); fetched with that panel's module.

pretrained-offset = { $direction ->
        [back] { $count ->
            [1] the previous token
           *[other] { $count } tokens back
        }
        [ahead] { $count ->
            [1] the next token
           *[other] { $count } tokens ahead
        }
       *[self] itself
    }
pretrained-head = layer { $layer }, head { $head } ({ $offset }: { $with } with the table, { $without } without)
pretrained-opening-table = Learning the encoding does not remove the need for it: this model learned its position table, and depends on it.
pretrained-opening-zeroed = Without its position table this trained model no longer sees word order.
pretrained-too-short = A sentence of { $tokens } tokens is too short to tell which heads attend by position: try one of at least { $least } tokens.
pretrained-no-position-heads = In this sentence no head puts most of its weight at one offset from each token; try a longer sentence.
pretrained-heads-lost = Here { $heads } of its { $total } heads { $heads ->
        [one] attends
       *[other] attend
    } by position, and { $lost } of them { $lost ->
        [one] loses
       *[other] lose
    } that pattern without the table: { $example }.
pretrained-heads-kept = Here { $heads } of its { $total } heads { $heads ->
        [one] attends
       *[other] attend
    } by position, and none of them loses that pattern without the table ({ $example }).
pretrained-order-blind = Without its position table this trained model no longer sees word order: reversing the words only reverses its attention (largest difference { $without }, float32 rounding).
pretrained-order-gap = Without its position table, reversing the words still changes this model's attention by up to { $without } (with the table: { $with }).
pretrained-layer-label = layer { $layer }
pretrained-head-title = Layer { $layer }, head { $head }: { $offset }, mean weight { $weight }
# Under the grid of maps: what its outlines mean.
# Under the pretrained panel's "More", written with the model's module: what its takeaway's words mean.
pretrained-definition = The sentence is the attention panels' (edit it in the first panel), split into tokens exactly as Hugging Face's BERT tokenizer does it, with [CLS] first and [SEP] last. The layers are stored in float16 and the word rows in float32: every attention weight is within 0.002 of PyTorch's float32 run (at most 0.0011 on 50 test sentences). A head attends by position when most of each token's weight (at least 0.5 on average) sits at one offset other than the token itself: the previous token, the next one. It loses that pattern when its weight there falls below half without the table. Offsets that fewer than half the tokens have are not counted. The switch sets every row of the table to zero: the model then sees a bag of tokens, and reversing the words only reverses its attention, as the order panel shows for one layer.
pretrained-legend-position = attends by position (with the table)
pretrained-legend-chosen = enlarged below (click a map to choose)
pretrained-status-loading = Loading the model: { $loaded } of { $total } MB, from this site (the browser keeps it for the next visit).
pretrained-takeaway-before = Learning the encoding does not remove the need for it: the heads of this trained model that read neighbouring tokens lose that pattern when its position table is zeroed. The numbers for your sentence appear once the model has loaded.
pretrained-status-ready = all-MiniLM-L6-v2, { $tokens } tokens: four runs in { $ms } ms on this computer's CPU ({ $loaded } MB fetched).
pretrained-status-failed = The model could not be loaded: { $error }. The rest of the page works without it.
pretrained-status-ready-gpu = all-MiniLM-L6-v2, { $tokens } tokens: four runs in { $ms } ms on WebGPU (the page's compute setting; { $loaded } MB fetched).
pretrained-status-computing = Running the model on WebGPU…
pretrained-gpu-failed = WebGPU could not run the model ({ $error }), so the CPU did.
pretrained-truncated = (cut to the model's first { $limit } tokens)
pretrained-heads-list = { $count ->
        [0] No head attends by position in this sentence.
       *[other] Heads that attend by position: { $heads }.
    } Reversing the words changes the attention by { $without } without the table and by { $with } with it.

## The learned panel's trained table (all-MiniLM-L6-v2's 512 × 384 position table beside the
## sinusoid): its takeaway, status and figure labels, computed from the table
## (src/panels/learned/trained.rs); fetched with the pretrained panel's module, which draws it.
## $near: the trained table's mean cosine similarity at offset 1; $far: over every pair $offset or more apart,
## $low … $high: the lowest and highest mean over those offsets;
## $sinusoid_near, $sinusoid_far: the sinusoid's at width $d.

learned-trained-takeaway-band = Trained, MiniLM's table learned a band like the sinusoid's: neighbours' rows are alike (mean cosine { $near }; the sinusoid's { $sinusoid_near }). Far apart the two differ: { $offset } or more positions apart, MiniLM's similarity swings between { $low } and { $high } with the offset, where the sinusoid's rows stay alike ({ $sinusoid_far } on average).
learned-trained-takeaway-wide = Trained, MiniLM's table learned a band like the sinusoid's, only wider: neighbours' rows are alike (mean cosine { $near }; the sinusoid's { $sinusoid_near }), and rows { $offset } or more positions apart stay alike too ({ $far } on average; the sinusoid's { $sinusoid_far }).
learned-trained-takeaway-no-band = Trained, MiniLM's table did not learn a band like the sinusoid's: neighbours' rows are not alike (mean cosine { $near }; the sinusoid's { $sinusoid_near }).
learned-trained-status-loading = Loading MiniLM's trained position table: { $loaded } KB, from this site.
learned-trained-status-failed = MiniLM's trained position table could not be loaded: { $error }. The seeded table above works without it.
learned-trained-map-trained = MiniLM, trained: cos(E_i, E_j)
learned-trained-map-sinusoid = Sinusoid, d = { $d }: cos(p_i, p_j)
learned-trained-axis-i = position i
learned-trained-axis-j = position j
learned-trained-axis-offset = offset k = j − i
learned-trained-axis-mean = mean cosine
learned-trained-curve-trained = MiniLM's table (trained)
learned-trained-curve-sinusoid = sinusoid, d = { $d }
