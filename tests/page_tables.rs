//! The page's tables (`model::panels`, `model::tables`, `model::query`) hold `index.html` to them:
//! every panel has its section and heading, every control its one element, the sliders show at the
//! first paint the defaults Rust sets (the documentation's tables: tests/docs_reference.rs).

use pe_lab::model::controls::{control_values, first_paint_attributes, global_summary};
use pe_lab::model::panels::{PanelId, LESSON, PANELS};
#[cfg(not(target_arch = "wasm32"))]
use pe_lab::model::settings::{rows::docs_table, table::SETTINGS};
use pe_lab::model::state::State;
#[cfg(not(target_arch = "wasm32"))]
use pe_lab::model::tables::{controls_with_words, WrittenControl};
use pe_lab::model::tables::{BUTTONS, FIELDS, SLIDERS};

const PAGE: &str = include_str!("../index.html");

/// Every `id="…"` of the page, in order.
fn ids() -> Vec<&'static str> {
    PAGE.split(" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect()
}

/// Where the opening tag of the element with this id starts and ends (its `>`) in index.html.
fn tag_span(id: &str) -> (usize, usize) {
    let at = PAGE
        .find(&format!(" id=\"{id}\""))
        .unwrap_or_else(|| panic!("index.html has no #{id}"));
    let start = PAGE[..at].rfind('<').expect("an opening tag");
    let end = at + PAGE[at..].find('>').expect("a closing bracket");
    (start, end)
}

/// The opening tag of the element with this id.
fn tag_of(id: &str) -> &'static str {
    let (start, end) = tag_span(id);
    &PAGE[start..=end]
}

/// The text of the element with this id up to its first child element (its opening tag may carry
/// the message catalog's markers, `data-l10n-id` and `data-l10n-name`).
fn text_of(id: &str) -> &'static str {
    let rest = &PAGE[tag_span(id).1 + 1..];
    &rest[..rest.find('<').unwrap_or(rest.len())]
}

/// Text with its tags removed and its spaces collapsed.
fn plain(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn ids_are_unique() {
    let mut all = ids();
    let count = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), count, "an id is used twice in index.html");
}

#[test]
fn every_panel_has_its_section_and_heading() {
    for spec in PANELS {
        let section = spec.section_id();
        assert!(tag_of(&section).starts_with("<section"), "{section}");
        let from = PAGE
            .find(&format!(" id=\"{section}\""))
            .unwrap_or_else(|| panic!("index.html has no section {section} for a row of PANELS"));
        let heading_start = from + PAGE[from..].find("<h2").unwrap();
        let heading_end = heading_start + PAGE[heading_start..].find("</h2>").unwrap();
        let heading = plain(&PAGE[heading_start..heading_end + 5]);
        assert!(
            heading.contains(&spec.title()),
            "the heading of {section} is “{heading}”, the table says “{}”",
            spec.title()
        );
    }
    let names: Vec<&str> = PANELS.iter().map(|p| p.name).collect();
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
}

#[test]
fn every_panel_section_of_the_page_is_a_row_of_the_table_in_page_order() {
    // The page's panel sections, in the order the page shows them.
    let sections: Vec<&str> = PAGE
        .match_indices("<section")
        .filter_map(|(at, _)| {
            let tag = PAGE[at..].split('>').next()?;
            let id = tag.split(" id=\"panel-").nth(1)?;
            id.split('"').next()
        })
        .collect();
    assert!(
        !sections.is_empty(),
        "no panel sections found in index.html"
    );
    for name in &sections {
        assert!(
            PanelId::from_name(name).is_some(),
            "index.html has a section panel-{name} that no row of PANELS names"
        );
    }
    // PanelId's order is the page's order: a preset renders the panels above its own first.
    let table: Vec<&str> = PANELS.iter().map(|spec| spec.name).collect();
    assert_eq!(
        sections, table,
        "the sections are not in the order of PANELS"
    );
}

#[test]
fn each_part_of_the_lesson_has_its_heading_above_its_first_section() {
    // The page's part headings and panel sections, in page order: a heading names the part of
    // every section below it, up to the next heading.
    let mut part: Option<String> = None;
    let mut seen = Vec::new();
    for (at, _) in PAGE.match_indices('<') {
        let tag = PAGE[at..].split('>').next().unwrap_or("");
        if tag.contains("class=\"part-title\"") {
            let text = PAGE[at..].split("</p>").next().unwrap_or("");
            let title = plain(text.split("<span").next().unwrap_or(""));
            part = Some(title.trim().replace('’', "'"));
        } else if let Some(name) = tag
            .strip_prefix("<section")
            .and_then(|t| t.split(" id=\"panel-").nth(1))
            .and_then(|id| id.split('"').next())
        {
            let panel = PanelId::from_name(name).expect("a panel of the table");
            assert_eq!(
                part.as_deref(),
                Some(panel.spec().part_title().as_str()),
                "the heading above panel-{name} is not its part"
            );
            seen.push(panel.spec().part_title());
        }
    }
    seen.dedup();
    assert_eq!(seen.len(), 6, "{seen:?}");
}

#[test]
fn the_head_script_shows_each_embed_the_sliders_of_the_panel_table() {
    // The script in <head> hides an embed's other sliders before the first paint: its table must
    // be the panel table's, or the embed changes height when the wasm starts.
    let table = PAGE
        .split("var globals = {")
        .nth(1)
        .and_then(|rest| rest.split('}').next())
        .expect("index.html's head script has its table of globals");
    for spec in PANELS {
        let entry = format!("{}: '{}'", spec.name, spec.globals.join(","));
        assert!(
            table.contains(&entry),
            "the head script's table lacks {entry}"
        );
    }
    assert_eq!(table.matches(": '").count(), PANELS.len());
}

/// The attributes of the input with this id at the first paint (`model::controls`).
fn first_paint(id: &str) -> Vec<(&'static str, String)> {
    first_paint_attributes()
        .into_iter()
        .find(|(input, _)| *input == id)
        .map(|(_, attributes)| attributes)
        .unwrap_or_else(|| panic!("no first-paint attributes for #{id}"))
}

#[cfg(not(target_arch = "wasm32"))]
/// `www/controls.json` as [`first_paint_attributes`] gives it: one input a line, `[id, [[name,
/// value], …]]`, after a line that says where it comes from.
fn controls_file() -> String {
    let about = "The attributes of the sliders' inputs at the first paint, from the rows and the \
                 default state (pe_lab::model::controls::first_paint_attributes), and the words of \
                 the sliders, checkboxes and menus whose markup is written from their rows, with \
                 the panel whose controls a row's control ends where no section places it \
                 (pe_lab::model::tables::controls_with_words): written by PE_LAB_WRITE_FIXTURES=1 \
                 cargo test --test page_tables, put into the page's markup by \
                 scripts/page/assemble.mjs.";
    let inputs: Vec<String> = first_paint_attributes()
        .into_iter()
        .map(|input| format!("    {}", serde_json::json!(input)))
        .collect();
    let words: Vec<String> = controls_with_words()
        .into_iter()
        .map(|(key, control, words)| {
            let mut line = match control {
                WrittenControl::Slider { range, number } => serde_json::json!({
                    "row": key,
                    "range": range,
                    "number": number,
                    "message": words.message,
                    "label": words.label,
                    "exact": words.exact,
                }),
                WrittenControl::Check(id) => serde_json::json!({
                    "row": key,
                    "check": id,
                    "message": words.message,
                    "label": words.label,
                }),
                WrittenControl::Menu(id) => serde_json::json!({
                    "row": key,
                    "menu": id,
                    "message": words.message,
                    "label": words.label,
                    "options": words.options,
                }),
            };
            if let Some(panel) = words.panel {
                line["panel"] = serde_json::json!(panel.spec().name);
            }
            format!("    {line}")
        })
        .collect();
    format!(
        "{{\n  \"about\": {},\n  \"inputs\": [\n{}\n  ],\n  \"words\": [\n{}\n  ]\n}}\n",
        serde_json::json!(about),
        inputs.join(",\n"),
        words.join(",\n")
    )
}

/// The build writes the sliders' attributes into the markup from `www/controls.json`: the file
/// must be what the rows give today.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_first_paint_attributes_file_is_the_rows() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/controls.json");
    let wanted = controls_file();
    if std::env::var_os("PE_LAB_WRITE_FIXTURES").is_some() {
        std::fs::write(path, &wanted).expect("www/controls.json written");
    }
    let file = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        file == wanted,
        "www/controls.json is not the rows' first paint: PE_LAB_WRITE_FIXTURES=1 cargo test \
         --test page_tables writes it, then node scripts/page/assemble.mjs"
    );
}

/// docs/links-and-keys.md's table of the panels' settings is written from their rows: each row's
/// doc and values, in the rows' order.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_docs_table_of_the_panel_settings_is_their_rows() {
    const START: &str = "<!-- the panels' settings: written from their rows by \
                         PE_LAB_WRITE_FIXTURES=1 cargo test --test page_tables -->\n";
    const END: &str = "<!-- end of the panels' settings -->";
    for row in &SETTINGS {
        assert!(!row.doc.is_empty(), "`{}`: its row has no doc", row.key);
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/links-and-keys.md");
    let doc = std::fs::read_to_string(path).unwrap_or_default();
    let (Some(start), Some(end)) = (doc.find(START), doc.find(END)) else {
        panic!("docs/links-and-keys.md: the marks of the panels' settings are missing");
    };
    let wanted = format!(
        "{}{START}{}{}",
        &doc[..start],
        docs_table(&SETTINGS),
        &doc[end..]
    );
    if std::env::var_os("PE_LAB_WRITE_FIXTURES").is_some() {
        std::fs::write(path, &wanted).expect("docs/links-and-keys.md written");
    }
    assert!(
        std::fs::read_to_string(path).unwrap_or_default() == wanted,
        "docs/links-and-keys.md's table of the panels' settings is not their rows: \
         PE_LAB_WRITE_FIXTURES=1 cargo test --test page_tables writes it"
    );
}

#[test]
fn every_control_has_one_element_and_the_sliders_their_defaults() {
    for (key, range, number) in SLIDERS {
        let range_tag = tag_of(range);
        let number_tag = tag_of(number);
        assert!(range_tag.contains("type=\"range\""), "{key}: {range_tag}");
        assert!(
            number_tag.contains("type=\"number\""),
            "{key}: {number_tag}"
        );
        let (range_attributes, number_attributes) = (first_paint(range), first_paint(number));
        let wanted = |attributes: &[(&str, String)]| {
            attributes
                .iter()
                .map(|(name, value)| format!("{name}=\"{value}\""))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (tag, attributes) in [
            (range_tag, &range_attributes[..]),
            (number_tag, &number_attributes[..]),
        ] {
            for (name, value) in attributes {
                assert!(
                    tag.contains(&format!(" {name}=\"{value}\"")),
                    "{key}: the page's first paint needs {}: {tag}",
                    wanted(attributes)
                );
            }
        }
    }
    // The phone's folded parameters name their values from the first paint.
    let summary = global_summary(&control_values(&State::default()));
    assert_eq!(
        text_of("controls-summary"),
        summary,
        "#controls-summary should read {summary}"
    );
    // The other fields carry no value at the first paint, except the training panel's numeric
    // fields, which carry their rows' (their spinners' range and the default run).
    let first_paint = first_paint_attributes();
    for (key, id, _) in FIELDS {
        let tag = tag_of(id);
        match first_paint.iter().find(|(input, _)| *input == id) {
            Some((_, attributes)) => {
                for (name, value) in attributes {
                    let attribute = format!(" {name}=\"{value}\"");
                    assert!(tag.contains(&attribute), "{key}: {tag} lacks{attribute}");
                }
            }
            None => {
                for attribute in [" value=", " checked", " maxlength=", " min=", " max="] {
                    assert!(!tag.contains(attribute), "{key}: {tag}");
                }
            }
        }
    }
    for (id, _) in BUTTONS {
        assert!(tag_of(id).starts_with("<button"), "#{id}");
    }
    let ids = ids();
    let table_ids = SLIDERS
        .iter()
        .flat_map(|(_, r, n)| [*r, *n])
        .chain(FIELDS.iter().map(|(_, id, _)| *id))
        .chain(BUTTONS.iter().map(|(id, _)| *id));
    for id in table_ids {
        assert_eq!(ids.iter().filter(|i| **i == id).count(), 1, "#{id}");
    }
}

#[test]
fn every_panel_has_a_main_figure_and_the_lesson_its_navigation() {
    for spec in PANELS {
        let section = spec.section_id();
        let from = PAGE
            .find(&format!(" id=\"{section}\""))
            .unwrap_or_else(|| panic!("index.html has no section {section} for a row of PANELS"));
        let to = from + PAGE[from..].find("</section>").unwrap();
        let body = &PAGE[from..to];
        assert!(
            body.contains("<div class=\"panel-text\">")
                && body.contains("<div class=\"panel-body\">"),
            "{section} has no text and body"
        );
        // A class attribute that lists figure-main among its classes.
        let main_figure = body.split("class=\"").skip(1).any(|rest| {
            rest.split('"')
                .next()
                .is_some_and(|classes| classes.split_whitespace().any(|c| c == "figure-main"))
        });
        assert!(main_figure, "{section} marks no canvas as its main figure");
    }
    // One navigation, labelled, with its buttons and the list the page fills from LESSON.
    assert_eq!(PAGE.matches("aria-label=\"Lesson\"").count(), 1);
    assert!(tag_of("lesson").starts_with("<nav"));
    assert!(tag_of("lesson-list").starts_with("<ol"));
    for id in [
        "lesson-prev",
        "lesson-next",
        "lesson-menu",
        "controls-toggle",
    ] {
        assert!(tag_of(id).starts_with("<button"), "#{id}");
    }
    assert!(tag_of("lesson-menu").contains("aria-expanded=\"false\""));
    assert!(tag_of("controls-toggle").contains("aria-controls=\"controls\""));
    assert!(tag_of("controls").starts_with("<section class=\"controls\""));
    assert_eq!(LESSON.len(), PANELS.len());
    assert!(PAGE.contains("rel=\"inline\" href=\"www/layout.css\""));
    // What the menu says before the wasm has started is what it says after (web/lesson.rs).
    assert_eq!(
        text_of("lesson-current"),
        format!("{} sections", LESSON.len()),
        "the lesson menu's text in index.html gives another number of sections than LESSON"
    );
}

#[test]
fn every_preset_has_its_button_in_the_page_and_no_other() {
    // In the HTML, not added at start-up: the header keeps its height from the first paint.
    for preset in pe_lab::model::presets::PRESETS {
        let id = format!("preset-{}", preset.name);
        let tag = tag_of(&id);
        assert!(tag.starts_with("<button type=\"button\""), "{tag}");
        assert!(
            tag.contains(&format!("title=\"{}\"", preset.label)),
            "{tag}"
        );
        let at = PAGE.find(tag).unwrap() + tag.len();
        let label = &PAGE[at..at + PAGE[at..].find("</button>").unwrap()];
        assert_eq!(label, preset.label, "#{id}");
    }
    assert_eq!(
        PAGE.matches(" id=\"preset-").count(),
        pe_lab::model::presets::PRESETS.len(),
        "a preset button that the table does not know"
    );
}

#[test]
fn every_canvas_states_its_aspect_in_the_markup() {
    // The first paint lays figures out at their final height (no shift when the wasm starts): each
    // canvas's style gives `--aspect: width / height`, equal to its width and height attributes.
    let mut seen = 0;
    let mut posters = 0;
    for (at, _) in PAGE.match_indices("<canvas ") {
        let tag = &PAGE[at..at + PAGE[at..].find('>').expect("a closed tag")];
        let attribute = |name: &str| -> usize {
            let key = format!(" {name}=\"");
            let start = tag.find(&key).unwrap_or_else(|| panic!("{tag}: no {name}")) + key.len();
            tag[start..start + tag[start..].find('"').expect("a quoted value")]
                .parse()
                .expect("a number")
        };
        let (width, height) = (attribute("width"), attribute("height"));
        // A main figure names its first pictures (the head script shows one while the wasm
        // starts), and they are in www/posters/.
        if tag.contains("class=\"figure-main") {
            for shade in ["light", "dark"] {
                let key = format!("--poster-{shade}: url(");
                let start = tag.find(&key).unwrap_or_else(|| panic!("{tag}: no {key}")) + key.len();
                let file = &tag[start..start + tag[start..].find(')').expect("a closed url")];
                assert!(
                    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("www")
                        .join(file)
                        .is_file(),
                    "{file}: no such poster (PE_LAB_WRITE_FIXTURES=1 node --test tests/e2e/lesson.test.mjs writes them)"
                );
                posters += 1;
            }
        }
        // A canvas whose proportions follow its numbers (the bits of 0…n−1: one column per bit)
        // states the default view's; its width and height are its design size.
        if tag.contains(" data-live-aspect") {
            assert!(tag.contains("style=\"--aspect: "), "{tag}: no --aspect");
            seen += 1;
            continue;
        }
        assert!(
            tag.contains(&format!("style=\"--aspect: {width} / {height}\""))
                || tag.contains(&format!("style=\"--aspect: {width} / {height};")),
            "{tag}: --aspect differs from {width} × {height}"
        );
        seen += 1;
    }
    assert!(seen >= PANELS.len(), "{seen} canvases");
    assert!(posters >= 2 * PANELS.len(), "{posters} posters");
}

/// `PanelId::reads_encoding` names exactly the panels whose code reads P's frame: on the CPU, P
/// is computed only when one of them is on screen or rendered, so a panel that read it unlisted
/// would draw a P of an earlier state. Each file of a panel's folder (`src/panels/<name>/`) is its
/// panel's, and so is each file of `src/web/panels/` (a name before `_`); a shared file (mod.rs,
/// reading.rs, family_charts.rs) must not read it.
#[test]
fn the_panels_that_read_p_are_the_ones_listed() {
    const READS_P: [&str; 5] = [
        "ctx.frame",
        "ctx.encoding",
        "heatmap_rect",
        "encoding_canvas",
        "frame_id",
    ];
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut reading = std::collections::BTreeSet::new();
    // The views still in `src/web/panels/` (the panel's name before `_`), and every Rust file of
    // a panel's folder (`src/panels/<name>/`).
    let mut sources: Vec<(String, std::path::PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(format!("{root}/web/panels")).expect("src/web/panels") {
        let path = entry.expect("an entry").path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let name = stem.split('_').next().unwrap_or_default().to_string();
        sources.push((name, path));
    }
    for folder in std::fs::read_dir(format!("{root}/panels")).expect("src/panels") {
        let folder = folder.expect("an entry").path();
        if !folder.is_dir() {
            continue;
        }
        let name = folder
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        for entry in std::fs::read_dir(&folder).expect("a panel's folder") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                sources.push((name.clone(), path));
            }
        }
    }
    for (name, path) in sources {
        let source = std::fs::read_to_string(&path).expect("a panel's source");
        if !READS_P.iter().any(|needle| source.contains(needle)) {
            continue;
        }
        let panel = PANELS.iter().find(|spec| spec.name == name);
        assert!(
            panel.is_some(),
            "{} reads P's frame but is no panel's own file",
            path.display()
        );
        reading.insert(name);
    }
    let listed: std::collections::BTreeSet<String> = PANELS
        .iter()
        .filter(|spec| spec.id.reads_encoding())
        .map(|spec| spec.name.to_string())
        .collect();
    assert_eq!(listed, reading);
}

#[test]
fn every_figure_of_a_panel_with_several_has_a_name_in_its_save_menu() {
    // The Save menu (web/page.rs) lists each canvas of a panel with several as "PNG: <name>": a
    // name a reader uses, not the canvas's id.
    let mut named = 0;
    for spec in PANELS {
        let start = PAGE
            .find(&format!("id=\"{}\"", spec.section_id()))
            .expect("the panel's section");
        let end = start + PAGE[start..].find("</section>").expect("the section's end");
        let canvases: Vec<&str> = PAGE[start..end]
            .match_indices("<canvas")
            .filter_map(|(at, _)| {
                let tag = PAGE[start + at..end].split('>').next()?;
                tag.split(" id=\"").nth(1)?.split('"').next()
            })
            .collect();
        if canvases.len() < 2 {
            continue;
        }
        for id in canvases {
            let name = pe_lab::model::export::figure_name(id);
            assert!(
                !name.contains(id),
                "{id}: no variant of figure-save-name ({name})"
            );
            named += 1;
        }
    }
    assert!(named >= 20, "only {named} figures in panels with several");
}

/// A menu written from its row offers exactly the values its row reads, in the row's order.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_written_menu_offers_its_rows_names() {
    use pe_lab::model::query::view_keys::VIEW_ROWS;
    use pe_lab::model::query::{params_keys::PARAM_ROWS, train_keys::TRAIN_ROWS};
    use pe_lab::model::settings::row::{Setting, Value};
    fn check<S>(rows: &[Setting<S>]) -> usize {
        let mut menus = 0;
        for row in rows {
            let Some(words) = row.words.filter(|words| !words.options.is_empty()) else {
                continue;
            };
            let Value::Name { names, .. } = &row.value else {
                panic!("`{}`: a menu's words on a row that is not a name", row.key);
            };
            let values: Vec<&str> = words.options.iter().map(|(value, ..)| *value).collect();
            assert_eq!(values, names.to_vec(), "`{}`: its menu's options", row.key);
            menus += 1;
        }
        menus
    }
    let menus = check(&pe_lab::model::settings::table::SETTINGS)
        + check(&PARAM_ROWS)
        + check(&TRAIN_ROWS)
        + check(&VIEW_ROWS);
    assert!(menus >= 5, "{menus} menus written from their rows");
}
