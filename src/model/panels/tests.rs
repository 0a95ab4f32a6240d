use super::*;

#[test]
fn the_panel_table_is_in_the_order_of_its_ids() {
    for (index, spec) in PANELS.iter().enumerate() {
        assert_eq!(spec.id.index(), index, "{} is out of place", spec.name);
        assert_eq!(spec.id.spec(), spec);
        assert_eq!(PanelId::from_name(spec.name), Some(spec.id));
        assert_eq!(PanelId::from_section_id(&spec.section_id()), Some(spec.id));
    }
    assert_eq!(PanelId::from_name("nothing"), None);
    assert_eq!(PanelId::from_section_id("heatmap"), None);
    let mut names: Vec<&str> = PANELS.iter().map(|s| s.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), PANELS.len(), "two panels share a name");
}

#[test]
fn the_lesson_shows_every_panel_exactly_once() {
    for spec in PANELS {
        let stops = LESSON.iter().filter(|&&stop| stop == spec.id).count();
        assert_eq!(
            stops, 1,
            "panel {} is on the lesson path {stops} times",
            spec.name
        );
    }
    assert_eq!(LESSON.len(), PANELS.len());
}

#[test]
fn the_lesson_follows_the_chapter() {
    // The chapter's parts in its order (self-attention, the comparison of CNNs, RNNs and
    // self-attention, positional encoding), then the readers' questions, the encodings beyond it
    // and its exercise: every panel's part is one of these, and the parts come in this order.
    const CHAPTER: [&str; 6] = [
        "self-attention",
        "comparing",
        "positional-encoding",
        "questions",
        "beyond",
        "exercise",
    ];
    let part_index = |stop: &PanelId| {
        CHAPTER
            .iter()
            .position(|&part| part == stop.spec().part)
            .unwrap_or_else(|| panic!("{}'s part is not the chapter's", stop.name()))
    };
    let indices: Vec<usize> = LESSON.iter().map(part_index).collect();
    assert!(
        indices.windows(2).all(|w| w[0] <= w[1]),
        "the lesson goes back to an earlier part: {indices:?}"
    );
    // The chapter's own anchors: it starts from self-attention and shows why order is lost before
    // it builds P.
    assert_eq!(LESSON[0], PanelId::Attention);
    let at = |panel: PanelId| panel.lesson_position();
    assert!(at(PanelId::Order) < at(PanelId::Heatmap));
    // The page reads in the lesson's order: `]` never jumps back up the page.
    let page: Vec<PanelId> = PANELS.iter().map(|spec| spec.id).collect();
    assert_eq!(LESSON, page.as_slice());
    // The parts come in one block each.
    let mut parts: Vec<&str> = LESSON.iter().map(|stop| stop.spec().part).collect();
    parts.dedup();
    let mut unique = parts.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), parts.len(), "{parts:?}");
}

#[test]
fn short_names_fit_the_lesson_button() {
    for spec in PANELS {
        let length = spec.short().chars().count();
        assert!(
            (1..=17).contains(&length),
            "{}: {}",
            spec.name,
            spec.short()
        );
    }
}

#[test]
fn moves_along_the_lesson_stop_at_the_ends() {
    let first = LESSON[0];
    let last = LESSON[LESSON.len() - 1];
    assert_eq!(lesson_move(None, Go::Next), first);
    assert_eq!(lesson_move(None, Go::Previous), first);
    assert_eq!(lesson_move(Some(first), Go::Previous), first);
    assert_eq!(lesson_move(Some(first), Go::Next), LESSON[1]);
    assert_eq!(lesson_move(Some(last), Go::Next), last);
    assert_eq!(lesson_move(Some(LESSON[5]), Go::Previous), LESSON[4]);
    assert_eq!(
        lesson_move(Some(PanelId::Heads), Go::To(PanelId::Binary)),
        PanelId::Binary
    );
}

#[test]
fn every_caption_is_one_short_sentence_of_its_own() {
    for spec in PANELS {
        let caption = spec.caption();
        let length = caption.chars().count();
        assert!(
            (20..=90).contains(&length),
            "the caption of {} has {length} characters: {caption}",
            spec.name
        );
        assert!(
            caption.ends_with('.') && !caption.contains('\n') && caption.trim() == caption,
            "the caption of {} is not one sentence on one line: {caption:?}",
            spec.name
        );
        assert_ne!(
            caption,
            spec.title(),
            "the caption of {} repeats its title",
            spec.name
        );
        assert_eq!(
            PANELS
                .iter()
                .filter(|other| other.caption() == caption)
                .count(),
            1,
            "two panels share the caption of {}",
            spec.name
        );
    }
}

#[test]
fn only_p_s_figures_have_a_timing_slot() {
    let slots: Vec<(PanelId, usize)> = PANELS
        .iter()
        .filter_map(|spec| Some((spec.id, spec.id.timing_slot()?)))
        .collect();
    assert_eq!(
        slots,
        [
            (PanelId::Heatmap, 1),
            (PanelId::Curves, 2),
            (PanelId::Projection, 3)
        ]
    );
}

#[test]
fn an_embed_shows_only_global_sliders_that_exist() {
    for spec in PANELS {
        for key in spec.globals {
            assert!(
                crate::model::tables::GLOBAL_SLIDERS.contains(key),
                "{}: {key} is no global slider",
                spec.name
            );
        }
    }
    // Training reads none of them: its model has its own width and length.
    assert!(PanelId::Train.spec().globals.is_empty());
}
