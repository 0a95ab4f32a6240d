//! Browser glue tests (wasm-bindgen-test in headless Chromium): the page's own markup is put into
//! the test document, the app is mounted with a query string, and the DOM, canvases and
//! `window.peLab` are checked.
#![cfg(target_arch = "wasm32")]

use js_sys::{Function, Reflect};
use pe_lab::web::{current_params, mount};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

const PAGE: &str = include_str!("../index.html");

/// Puts the page's body into a container of the test document, replacing the previous test's copy
/// (the test runner's own output elements must stay; scripts in the markup do not run).
fn load_page_markup() {
    let start = PAGE.find("<body>").expect("index.html has a body") + "<body>".len();
    let end = PAGE.find("</body>").expect("index.html closes its body");
    let document = web_sys::window().unwrap().document().unwrap();
    if let Some(previous) = document.get_element_by_id("test-root") {
        previous.remove();
    }
    let root = document.create_element("div").unwrap();
    root.set_id("test-root");
    root.set_inner_html(&PAGE[start..end]);
    document.body().unwrap().append_child(&root).unwrap();
}

fn element<T: JsCast>(id: &str) -> T {
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .get_element_by_id(id)
        .unwrap_or_else(|| panic!("no #{id}"))
        .dyn_into::<T>()
        .unwrap()
}

fn text(id: &str) -> String {
    element::<HtmlElement>(id)
        .text_content()
        .unwrap_or_default()
}

/// Number of distinct colours on a canvas.
fn colours(id: &str) -> usize {
    let canvas: HtmlCanvasElement = element(id);
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = context
        .get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64)
        .unwrap()
        .data();
    pe_lab::math::colormap::distinct_colours(&data)
}

fn api() -> JsValue {
    Reflect::get(&web_sys::window().unwrap(), &"peLab".into()).unwrap()
}

/// Waits until every requested update is drawn (`peLab.whenDrawn()`): drawing happens in the
/// next animation frame, never inside `mount` or `peLab.set`.
async fn drawn() {
    let when: Function = Reflect::get(&api(), &"whenDrawn".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    let promise: js_sys::Promise = when.call0(&api()).unwrap().dyn_into().unwrap();
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// `peLab.stats` read along a path of property names.
fn stat(path: &[&str]) -> JsValue {
    let mut value = Reflect::get(&api(), &"stats".into()).unwrap();
    for key in path {
        value = Reflect::get(&value, &(*key).into()).unwrap();
    }
    value
}

fn stat_f64(path: &[&str]) -> f64 {
    stat(path)
        .as_f64()
        .unwrap_or_else(|| panic!("stats.{} is not a number", path.join(".")))
}

#[wasm_bindgen_test]
async fn mounts_with_a_query_and_draws_every_panel() {
    load_page_markup();
    // compute=cpu: the backend is chosen at once (WebGPU starts asynchronously, and the test
    // browser has it); the first frame follows in the next animation frame.
    mount("?d=33&n=7&base=250&delta=-3&pair=5&pos=4&compute=cpu").expect("the page mounts");
    drawn().await;
    let params = current_params().unwrap();
    assert_eq!(
        (
            params.d,
            params.n,
            params.base,
            params.delta,
            params.pair,
            params.position
        ),
        (33, 7, 250.0, -3, 5, 4)
    );
    assert_eq!((stat_f64(&["rows"]), stat_f64(&["columns"])), (7.0, 33.0));
    assert!(stat_f64(&["maxProjectionError"]) < 5e-7);
    assert_eq!(stat(&["backend"]).as_string().as_deref(), Some("cpu"));
    for id in ["heatmap", "curves", "projection"] {
        assert!(colours(id) > 20, "#{id} is blank");
    }
    assert_eq!(element::<HtmlInputElement>("d-number").value(), "33");
    assert_eq!(element::<HtmlInputElement>("delta-range").min(), "-6");
    assert!(text("summary-p").contains("d = 33 is odd"));
    assert!(element::<HtmlElement>("notices").hidden());
    assert!(element::<HtmlElement>("loading").hidden());
}

#[wasm_bindgen_test]
async fn bad_queries_are_clamped_and_announced() {
    load_page_markup();
    mount("?d=0&n=-5&base=abc&delta=NaN&compute=cpu").expect("bad input never stops the page");
    drawn().await;
    let params = current_params().unwrap();
    assert_eq!(
        (params.d, params.n, params.base, params.delta),
        (1, 1, 10000.0, 0)
    );
    assert!(!element::<HtmlElement>("notices").hidden());
    assert!(text("notices-list").contains("d = 0"));
    assert!(text("projection-error").contains("no complete pair"));
    assert!(colours("heatmap") > 20);
}

#[wasm_bindgen_test]
async fn the_js_api_reads_and_sets_state() {
    load_page_markup();
    mount("?compute=cpu").unwrap();
    drawn().await;
    let api = api();
    let state = Reflect::get(&api, &"state".into()).unwrap();
    assert_eq!(
        Reflect::get(&state, &"d".into()).unwrap().as_f64(),
        Some(32.0)
    );
    assert_eq!(
        Reflect::get(&api, &"backend".into())
            .unwrap()
            .as_string()
            .as_deref(),
        Some("cpu")
    );
    let set: Function = Reflect::get(&api, &"set".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    let changes = js_sys::Object::new();
    Reflect::set(&changes, &"d".into(), &16.into()).unwrap();
    Reflect::set(
        &changes,
        &"columns".into(),
        &js_sys::Array::of2(&0.into(), &1.into()),
    )
    .unwrap();
    let returned = set.call1(&api, &changes).unwrap();
    // `set` applies at once and returns the new state; the drawing follows.
    assert_eq!(
        Reflect::get(&returned, &"d".into()).unwrap().as_f64(),
        Some(16.0)
    );
    drawn().await;
    let stats = Reflect::get(&api, &"stats".into()).unwrap();
    assert_eq!(
        Reflect::get(&stats, &"columns".into()).unwrap().as_f64(),
        Some(16.0)
    );
    let error = Reflect::get(&stats, &"maxProjectionError".into())
        .unwrap()
        .as_f64()
        .unwrap();
    assert!(error > 0.0 && error < 5e-7);
    assert_eq!(current_params().unwrap().columns, vec![0, 1]);
    assert!(
        Reflect::get(&api, &"lastFrameMs".into())
            .unwrap()
            .as_f64()
            .unwrap()
            >= 0.0
    );
    // Not an object: a thrown error, not a panic.
    assert!(set.call1(&api, &42.into()).is_err());
}

#[wasm_bindgen_test]
fn a_missing_canvas_is_reported_on_the_page() {
    load_page_markup();
    element::<HtmlElement>("curves").remove();
    let result = mount("");
    assert!(result.is_err());
    let error: HtmlElement = element("error");
    assert!(!error.hidden());
    assert!(
        error.text_content().unwrap().contains("#curves"),
        "{:?}",
        error.text_content()
    );
}

#[wasm_bindgen_test]
async fn the_attention_panels_draw_and_report_their_numbers() {
    load_page_markup();
    // The panels are far below this test page's fold, where they would wait to be scrolled to.
    pe_lab::web::set_eager_panels(true);
    mount("?compute=cpu&valid=5&heads=8&text=I%20would%20like%203%20oranges%20and%204%20bananas")
        .expect("the page mounts");
    drawn().await;
    let tokens = js_sys::Array::from(&stat(&["panels", "attention", "tokens"]));
    assert_eq!(tokens.length(), 8);
    assert_eq!(stat_f64(&["panels", "attention", "validLen"]), 5.0);
    assert_eq!(
        stat(&["panels", "attention", "maskedWeightsZero"]).as_bool(),
        Some(true)
    );
    let weights = js_sys::Array::from(&stat(&["panels", "attention", "weights"]));
    assert!(weights.iter().all(|row| js_sys::Array::from(&row)
        .iter()
        .skip(5)
        .all(|w| w.as_f64() == Some(0.0))));
    let lens = js_sys::JSON::stringify(&stat(&["panels", "heads", "perHeadValidLens"]))
        .unwrap()
        .as_string()
        .unwrap();
    assert_eq!(lens, "[[3,3,3,3,3,3,3,3],[2,2,2,2,2,2,2,2]]");
    assert!(
        stat_f64(&["panels", "order", "withoutPe"]) < 1e-5
            && stat_f64(&["panels", "order", "withPe"]) > 1e-2
    );
    assert_eq!(
        format!(
            "{:.4}",
            stat_f64(&["panels", "similarity", "forum", "p5p6"])
        ),
        "7.4852"
    );
    assert_eq!(
        format!(
            "{:.4}",
            stat_f64(&["panels", "similarity", "forum", "p5p10"])
        ),
        "6.1370"
    );
    assert_eq!(stat_f64(&["panels", "complexity", "crossoverN"]), 32.0);
    for id in [
        "attn-heatmap",
        "pipeline-canvas",
        "heads-canvas",
        "order-chart",
        "sim-heatmap",
        "sim-curve",
        "binary-bits",
        "binary-p",
        "complexity-chart",
        "complexity-paths",
        "scale-chart",
        "scale-dots",
    ] {
        assert!(colours(id) > 3, "#{id} is blank");
    }
    assert!(text("heads-readout").contains("sequence 0: heads 0–7 use valid_len 3"));
    // A panel setting through the JS API redraws the panels at once.
    let set: Function = Reflect::get(&api(), &"set".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    let changes = js_sys::Object::new();
    Reflect::set(&changes, &"text".into(), &"".into()).unwrap();
    set.call1(&api(), &changes).unwrap();
    drawn().await;
    let tokens = js_sys::Array::from(&stat(&["panels", "attention", "tokens"]));
    assert_eq!(tokens.length(), 0);
    assert!(text("attn-summary").contains("No tokens"));
    assert!(element::<HtmlElement>("error").hidden());
}

/// The page reads the training workers' reports field by field (no serde deserializer in the
/// first load): every kind of report, as the worker writes it with serde-wasm-bindgen, must read
/// back equal, with optional fields both present and absent.
#[wasm_bindgen_test]
fn worker_reports_read_back_as_written() {
    use pe_lab::web::train_workers::read_report;
    use pe_lab_train::analysis::HeadHitRate;
    use pe_lab_train::device::TrialRates;
    use pe_lab_train::encodings::Encoding;
    use pe_lab_train::protocol::{EncodingReport, Report, TrainDevice};
    use pe_lab_train::trainer::{AttentionMap, PositionTable};

    let learned = EncodingReport {
        encoding: Encoding::Learned,
        seed: 4_294_967_297,
        final_loss: 0.125,
        lengths: vec![2, 4, 8],
        accuracy_by_length: vec![1.0, 0.5, 0.25],
        accuracy_at_multiples: [0.9, 0.4, 0.1],
        parameter_count: 12_345,
        seconds: 3.5,
        train_seconds: 3.0,
        chance: 1.0 / 16.0,
        blind_ceiling_by_length: vec![0.5, 0.25, 0.125],
        blind_ceiling_error: 0.001,
        translation_spread_initial: Some(0.75),
        translation_spread_trained: Some(0.3),
        translation_spread_sinusoidal: 0.01,
        offset_hit_rate: Some(HeadHitRate {
            layer: 1,
            head: 0,
            rate: 0.875,
        }),
        example: vec![3, 1, 4, 1],
        attention: vec![AttentionMap {
            layer: 0,
            head: 1,
            length: 2,
            weights: vec![0.25, 0.75, 1.0, 0.0],
        }],
        table: Some(PositionTable {
            rows: 2,
            cols: 2,
            values: vec![0.5, -0.5, 0.25, -0.25],
        }),
    };
    let plain = EncodingReport {
        encoding: Encoding::Rope,
        translation_spread_initial: None,
        translation_spread_trained: None,
        offset_hit_rate: None,
        table: None,
        attention: Vec::new(),
        ..learned.clone()
    };
    let reports = [
        Report::Ready,
        Report::Progress {
            run: 7,
            encoding: Encoding::Shaw,
            seed: 3,
            from: 40,
            losses: vec![2.5, 2.25, 1.5],
            seconds: 0.04,
        },
        Report::Evaluating {
            run: 7,
            encoding: Encoding::Alibi,
            seed: 2,
            done: 3,
            total: 64,
        },
        Report::Done {
            run: 7,
            result: Box::new(learned),
        },
        Report::Done {
            run: 8,
            result: Box::new(plain),
        },
        Report::Failed {
            run: 9,
            message: "out of memory".into(),
        },
        Report::Trial {
            run: 10,
            device: TrainDevice::Gpu,
            reason: "Training on the GPU".into(),
            rates: TrialRates {
                encoding: Encoding::T5,
                cpu_steps_per_second: 431.5,
                gpu_steps_per_second: Some(1234.25),
                gpu_setup_seconds: Some(0.125),
                gpu_first_step_only: true,
                gpu_error: None,
            },
        },
        Report::Trial {
            run: 11,
            device: TrainDevice::Cpu,
            reason: "Training on the CPU".into(),
            rates: TrialRates {
                encoding: Encoding::None,
                cpu_steps_per_second: 300.0,
                gpu_steps_per_second: None,
                gpu_setup_seconds: None,
                gpu_first_step_only: false,
                gpu_error: Some("no WebGPU adapter".into()),
            },
        },
        Report::Fallback {
            run: 12,
            message: "the GPU device was lost".into(),
        },
    ];
    for report in reports {
        let written = serde_wasm_bindgen::to_value(&report).unwrap();
        assert_eq!(read_report(&written), Ok(report));
    }
    assert!(read_report(&JsValue::from_f64(3.0)).is_err());
}

/// In the page, decimals are read by the browser's `Number()` after the syntax check
/// (model::decimal): it must give the bits Rust's own parser gives, and refuse the same strings.
#[wasm_bindgen_test]
fn decimals_read_in_the_browser_as_rust_reads_them() {
    use pe_lab::model::decimal::{every_string_up_to, parse_decimal};
    let rust = |text: &str| text.parse::<f64>().ok().filter(|v| v.is_finite());
    let mut texts: Vec<String> = [
        "0",
        "-0",
        "+7",
        "10000",
        "0.003",
        ".5",
        "5.",
        "1e5",
        "1E-7",
        "2.5e+3",
        "-12.75",
        "0.1",
        "1.7976931348623157e308",
        "5e-324",
        "2.4703282292062327e-324",
        "123456789012345678901234567890",
        "0.30000000000000004",
        "9007199254740993",
        "1e400",
        " 1",
        "0x10",
        "Infinity",
        "inf",
        "NaN",
        "1e5x",
        "",
        "1_000",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    // Every string of up to four characters over the decimal syntax's alphabet.
    texts.extend(every_string_up_to(&['1', '0', '.', 'e', '+', '-', '9'], 4));
    for text in &texts {
        assert_eq!(
            parse_decimal(text).map(f64::to_bits),
            rust(text).map(f64::to_bits),
            "{text:?}"
        );
    }
}
