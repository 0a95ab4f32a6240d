//! Checks across the panels' folders: the position families' takeaways (RoPE, its extensions,
//! ALiBi, T5, Shaw, the learned table, NoPE) state the same numbers in Chinese as in English.

use super::{alibi, binary, curves, extension, heatmap, learned, nope, rope, shaw, similarity, t5};
use crate::model::sentence_checks::numbers;
use crate::model::settings::SimilarityView;
#[test]
fn the_chinese_takeaways_state_the_same_numbers() {
    use crate::model::messages::{install_source, use_english, Computed};
    use crate::model::sentence_checks::numbers;
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
