//! Checks across the panels' folders: the takeaways of P's panels, of the position families (RoPE,
//! its extensions, ALiBi, T5, Shaw, the learned table, NoPE) and of the attention panels
//! (attention, pipeline, heads, complexity, scaling, stacking) state the same numbers in Chinese
//! as in English.

use super::attention::takeaway::{attention_case, AttentionTakeaway};
use super::complexity::MeasureState;
use super::stacking::takeaway::StackingTakeaway;
use super::{
    alibi, attention, binary, complexity, curves, extension, heads, heatmap, learned, nope,
    pipeline, rope, scaling, shaw, similarity, stacking, t5,
};
use crate::math::layer::ProjectionMode;
use crate::model::sentence_checks::{numbers, tokens_of};
use crate::model::settings::SimilarityView;

/// A sentence's tokens (split at spaces).
#[test]
fn the_chinese_takeaways_state_the_same_numbers() {
    use crate::model::messages::{install_source, use_english, Computed};
    let extension_stats = extension::compute(32, 10_000.0, 4.0, 2048).unwrap();
    let alibi_stats = alibi::compute(8, 2048);
    let t5_stats = t5::compute(160).unwrap();
    let nope_stats = nope::compute(60);
    let rope_stats = rope::compute(32, 10_000.0, 1).unwrap();
    let same = extension::compute(32, 10_000.0, 1.0, 2048).unwrap();
    let short = t5::compute(8).unwrap();
    let tokens: Vec<String> = "I would like 3 oranges and 4 bananas"
        .split(' ')
        .map(str::to_string)
        .collect();
    let shaw_stats = shaw::compute(&tokens, 60, 32, 10_000.0, 4, 1, true)
        .unwrap()
        .stats;
    let fit = learned::compute(32, 60, 10_000.0, 512, 1).unwrap().stats;
    let beyond = learned::compute(32, 60, 10_000.0, 40, 1).unwrap().stats;
    let single = alibi::compute(1, 2048);
    let sentences = || {
        vec![
            extension::takeaway::takeaway(&extension_stats),
            alibi::takeaway::takeaway(&alibi_stats),
            t5::takeaway::takeaway(&t5_stats),
            nope::takeaway::takeaway(&nope_stats),
            rope::takeaway::takeaway(&rope_stats),
            extension::takeaway::takeaway(&same),
            t5::takeaway::takeaway(&short),
            shaw::takeaway::takeaway(&shaw_stats),
            learned::takeaway::takeaway(&fit),
            learned::takeaway::takeaway(&beyond),
            alibi::takeaway::takeaway(&single),
        ]
    };
    let english = sentences();
    install_source::<Computed>("zh", include_str!("../../locales/computed/zh.ftl")).unwrap();
    let chinese = sentences();
    use_english::<Computed>();
    assert_eq!(sentences(), english);
    assert!(
        chinese[0].starts_with(
            "为了用模型见过的角度读取 s·L 个位置，这些方法降低频率：在第 15 个列对（最慢的一对，在右端），三种方法都把它的频率乘以 0.2500；"
        ),
        "{}",
        chinese[0]
    );
    for (zh, en) in chinese.iter().zip(&english) {
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{zh}"
        );
        assert_eq!(numbers(zh), numbers(en), "{zh}\n{en}");
    }
}

#[test]
fn in_chinese_the_takeaways_state_the_same_numbers() {
    use crate::model::messages::{install_source, use_english, Computed};
    let sentences = || {
        vec![
            heatmap::takeaway::takeaway(32, 10_000.0, 0),
            heatmap::takeaway::takeaway(33, 10_000.0, 1),
            curves::takeaway::takeaway(&[6, 7], 32, 10_000.0, 0),
            curves::takeaway::takeaway(&[0, 2, 4, 6, 8], 32, 10_000.0, 0),
            binary::takeaway::takeaway(
                &binary::compute(60, 32, 10_000.0, "cpu").unwrap(),
                32,
                10_000.0,
            ),
            heatmap::takeaway::takeaway(1, 10_000.0, 0),
            heatmap::takeaway::takeaway(2, 10_000.0, 0),
            curves::takeaway::takeaway(&[0], 1, 10_000.0, 0),
            curves::takeaway::takeaway(&[7, 8], 32, 10_000.0, 0),
            curves::takeaway::takeaway(&[40], 32, 10_000.0, 0),
            binary::takeaway::takeaway(
                &binary::compute(1, 2, 10_000.0, "cpu").unwrap(),
                2,
                10_000.0,
            ),
            similarity::takeaway::takeaway(&similarity::takeaway::similarity_case(
                SimilarityView::Gram,
                32,
            )),
            similarity::takeaway::takeaway(&similarity::takeaway::similarity_case(
                SimilarityView::Distance,
                32,
            )),
            similarity::takeaway::takeaway(&similarity::takeaway::similarity_case(
                SimilarityView::Gram,
                33,
            )),
            similarity::takeaway::takeaway(&similarity::takeaway::similarity_case(
                SimilarityView::Distance,
                1,
            )),
        ]
    };
    let english = sentences();
    install_source::<Computed>("zh", include_str!("../../locales/computed/zh.ftl")).unwrap();
    let chinese = sentences();
    use_english::<Computed>();
    for (en, zh) in english.iter().zip(&chinese) {
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{zh}"
        );
        let (mut a, mut b) = (numbers(en), numbers(zh));
        a.sort();
        b.sort();
        assert_eq!(a, b, "{en}\n{zh}");
    }
}

#[test]
fn the_chinese_catalog_states_the_same_numbers() {
    use crate::model::messages::{install_source, use_english, Computed};
    let tokens = tokens_of("the cat sat");
    let w = vec![
        vec![0.2, 0.5, 0.3],
        vec![0.1, 0.1, 0.8],
        vec![0.3, 0.3, 0.4],
    ];
    let (pair, even) = (tokens_of("a b"), vec![vec![0.5f32; 2]; 2]);
    let sentences = || {
        vec![
            pipeline::takeaway::takeaway(8, 32, 4, 8, 8e-8),
            pipeline::takeaway::takeaway(1, 1, 1, 1, 8e-8),
            attention::takeaway::takeaway(&attention_case(&tokens, &w, Some(2))),
            attention::takeaway::takeaway(&AttentionTakeaway {
                mode: ProjectionMode::Identity,
                has_position: false,
                ..attention_case(&tokens, &w, None)
            }),
            attention::takeaway::takeaway(&AttentionTakeaway {
                mode: ProjectionMode::Offset,
                ..attention_case(&tokens, &w, None)
            }),
            attention::takeaway::takeaway(&attention_case(&pair, &even, Some(0))),
            heads::takeaway::takeaway(&[3, 2], 4, 4, 4),
            heads::takeaway::takeaway(&[0, 4], 1, 4, 0),
            complexity::takeaway::takeaway(
                &complexity::compute(60, 32, 3, "cpu", &MeasureState::default()).unwrap(),
            ),
            scaling::takeaway::takeaway(&scaling::takeaway::default_scaling(32, true)),
            scaling::takeaway::takeaway(&scaling::takeaway::default_scaling(32, false)),
            stacking::takeaway::takeaway(&StackingTakeaway {
                n: 60,
                skip: false,
                layer_norm: false,
                residuals: &[0.9, 1e-4, 2.3e-10],
            }),
            stacking::takeaway::takeaway(&StackingTakeaway {
                n: 60,
                skip: true,
                layer_norm: true,
                residuals: &[0.9, 0.85],
            }),
        ]
    };
    let english = sentences();
    install_source::<Computed>("zh", include_str!("../../locales/computed/zh.ftl")).unwrap();
    let chinese = sentences();
    use_english::<Computed>();
    assert_eq!(sentences(), english, "back in English");
    for (en, zh) in english.iter().zip(&chinese) {
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{zh}"
        );
        assert_eq!(numbers(zh), numbers(en), "{zh}\n{en}");
    }
    assert!(
        chinese[0].starts_with("Q、K 和 V 是 Z 分别乘以三个各自独立的矩阵")
            && chinese[0].contains("4 个头"),
        "{}",
        chinese[0]
    );
    assert!(
        chinese[2].contains("未训练") && chinese[2].contains("80%") && chinese[2].contains("键 2"),
        "{}",
        chinese[2]
    );
    assert!(
        chinese[6].starts_with("是 bug")
            && chinese[6].contains("序列 0 的全部 4 个头都掩蔽键 3（valid_len 3）"),
        "{}",
        chinese[6]
    );
    assert!(
        chinese[11].contains("经过 2 层") && chinese[11].contains("顺序丢失"),
        "{}",
        chinese[11]
    );
}
