//! The table of controls: every slider, field, box, menu and button of the page, its element id,
//! and the message it sends. Handles are found once at mount; a frame sets every control from
//! `model::controls` (ranges, steps and values come from Rust, none from `index.html`), leaving
//! alone the element the last change came from, so that a dragged slider or a field being typed
//! in is never overwritten.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlButtonElement, HtmlElement, HtmlInputElement, HtmlSelectElement};

use super::action::Action;
use super::dom::{self, element, listen};
use super::error::WebError;
use crate::model::controls::{
    value_from_slider, ControlValues, FieldValue, MenuValue, SliderValue,
};
use crate::model::params::NStep;
use crate::model::state::Msg;
pub use crate::model::tables::{FieldKind, Press, BUTTONS, FIELDS, GLOBAL_SLIDERS, SLIDERS};

struct Slider {
    key: &'static str,
    range: HtmlInputElement,
    number: HtmlInputElement,
}

struct Field {
    key: &'static str,
    kind: FieldKind,
    element: HtmlElement,
}

/// The options a menu was last filled with, by the menu's key.
type MenuOptions = Vec<(&'static str, Vec<(String, String)>)>;

/// Typed handles of every control, found once.
pub struct Controls {
    sliders: Vec<Slider>,
    fields: Vec<Field>,
    present: HtmlButtonElement,
    /// The options each menu was last filled with.
    menu_options: RefCell<MenuOptions>,
}

impl Controls {
    pub fn mount() -> Result<Controls, WebError> {
        let sliders = SLIDERS
            .iter()
            .map(|&(key, range, number)| {
                Ok(Slider {
                    key,
                    range: element(range)?,
                    number: element(number)?,
                })
            })
            .collect::<Result<Vec<_>, WebError>>()?;
        let fields = FIELDS
            .iter()
            .map(|&(key, id, kind)| {
                let element: HtmlElement = match kind {
                    FieldKind::Menu => element::<HtmlSelectElement>(id)?.unchecked_into(),
                    _ => element::<HtmlInputElement>(id)?.unchecked_into(),
                };
                Ok(Field { key, kind, element })
            })
            .collect::<Result<Vec<_>, WebError>>()?;
        for (id, _) in BUTTONS {
            element::<HtmlButtonElement>(id)?;
        }
        let present = BUTTONS
            .iter()
            .find(|(_, press)| *press == Press::TogglePresent)
            .map(|(id, _)| element::<HtmlButtonElement>(id))
            .ok_or_else(|| WebError::MissingElement("the projector button".into()))??;
        Ok(Controls {
            sliders,
            fields,
            present,
            menu_options: RefCell::new(Vec::new()),
        })
    }

    /// Every control sends its message; `send` is the one message path.
    pub fn wire(&self, send: fn(Action)) -> Result<(), WebError> {
        for slider in &self.sliders {
            wire_slider(slider, send)?;
        }
        let lens: Vec<HtmlInputElement> = self
            .fields
            .iter()
            .filter(|f| matches!(f.kind, FieldKind::Lens(_)))
            .filter_map(|f| f.element.dyn_ref::<HtmlInputElement>().cloned())
            .collect();
        for field in &self.fields {
            wire_field(field, &lens, send)?;
        }
        if let Some(window) = web_sys::window() {
            // Released anywhere, cancelled (a touch turned into a scroll), or the window lost
            // the pointer: the slider is no longer held.
            for event in ["pointerup", "pointercancel", "blur"] {
                listen(&window, event, move |_| send(Action::SliderHeld(false)))?;
            }
        }
        for (id, press) in BUTTONS {
            let button: HtmlButtonElement = element(id)?;
            listen(&button, "click", move |_| {
                send(press.message().map_or(Action::CopyLink, Action::State))
            })?;
        }
        Ok(())
    }

    /// The `.control` block of a global slider (the embed mode hides those not asked for).
    pub fn global_block(&self, key: &str) -> Option<Element> {
        self.sliders
            .iter()
            .find(|s| s.key == key)
            .and_then(|s| s.range.closest(".control").ok().flatten())
    }

    /// Sets every control from `values`, except the element `editing` (the source of the last
    /// change) and a text or number field that has the focus (someone may be typing in it: its
    /// value is sent on Enter or when it loses the focus). Attributes are written only when they
    /// differ.
    pub fn sync(&self, values: &ControlValues, editing: Option<&str>) -> Result<(), WebError> {
        let focused = dom::document()?.active_element();
        let typing_in = |e: &HtmlElement| {
            focused
                .as_ref()
                .is_some_and(|f| f == e.unchecked_ref::<Element>())
                && e.dyn_ref::<HtmlInputElement>()
                    .is_some_and(|input| matches!(input.type_().as_str(), "text" | "number"))
        };
        let editable = |e: &HtmlElement| editing != Some(e.id().as_str()) && !typing_in(e);
        for slider in &self.sliders {
            let Some(value) = values.sliders.iter().find(|v| v.key == slider.key) else {
                continue;
            };
            sync_slider(slider, value, &editable)?;
        }
        for field in &self.fields {
            self.sync_field(field, values, &editable)?;
        }
        for key in GLOBAL_SLIDERS {
            if let Some(block) = self.global_block(key) {
                let unused = values.unused_here.contains(&key);
                block
                    .class_list()
                    .toggle_with_force("unused-here", unused)?;
            }
        }
        self.present.set_attribute(
            "aria-pressed",
            if values.present { "true" } else { "false" },
        )?;
        Ok(())
    }

    /// Sets one field: the parameters' and the view's by their key, the panel settings' from
    /// their value in `values.fields`.
    fn sync_field(
        &self,
        field: &Field,
        values: &ControlValues,
        editable: &dyn Fn(&HtmlElement) -> bool,
    ) -> Result<(), WebError> {
        let element = &field.element;
        let Some(value) = values.field(field.key).cloned() else {
            return Ok(());
        };
        match (field.kind, value) {
            (FieldKind::Check, FieldValue::Check(checked)) => {
                if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
                    input.set_checked(checked);
                }
            }
            (FieldKind::Menu, FieldValue::Menu { menu, disabled }) => {
                if let Some(select) = element.dyn_ref::<HtmlSelectElement>() {
                    self.sync_menu(field.key, select, &menu)?;
                    select.set_disabled(disabled);
                }
            }
            (FieldKind::Lens(slot), FieldValue::Lens { lens, max }) => {
                if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
                    set_attribute(input, "min", "0")?;
                    set_attribute(input, "max", &max.to_string())?;
                    set_value(input, &lens[slot].to_string(), editable(element));
                }
            }
            (FieldKind::Text | FieldKind::LiveText, FieldValue::Text(text)) => {
                if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
                    set_value(input, &text, editable(element));
                }
            }
            // A kind and a value that do not match: the tables' tests rule it out.
            _ => {}
        }
        Ok(())
    }

    /// Fills a menu whose options changed (its options come from the state: the divisors of d,
    /// the tokens), and selects the value. Menus with options of their own in the page keep them.
    fn sync_menu(
        &self,
        key: &'static str,
        select: &HtmlSelectElement,
        menu: &MenuValue,
    ) -> Result<(), WebError> {
        if !menu.options.is_empty() {
            let mut cache = self.menu_options.borrow_mut();
            let known = cache.iter().find(|(k, _)| *k == key).map(|(_, o)| o);
            if known != Some(&menu.options) {
                fill_select(select, &menu.options)?;
                cache.retain(|(k, _)| *k != key);
                cache.push((key, menu.options.clone()));
            }
        }
        if select.value() != menu.value {
            select.set_value(&menu.value);
        }
        Ok(())
    }
}

/// A slider sends its value while it is dragged, and its numeric field when it changes.
fn wire_slider(slider: &Slider, send: fn(Action)) -> Result<(), WebError> {
    let (key, range) = (slider.key, slider.range.clone());
    // `input`, not only `change`: the panels follow a slider while it is dragged.
    listen(&slider.range, "input", move |_| {
        let value = value_from_slider(key, range.value_as_number(), &range.value());
        send(Action::FromControl(range.id(), Msg::set(key, value)));
    })?;
    // While a slider is held, more frames may follow at any moment: off-screen panels
    // wait for its release (model::schedule).
    listen(&slider.range, "pointerdown", move |_| {
        send(Action::SliderHeld(true))
    })?;
    if key == "n" {
        // The log-scale slider's own arrow steps would leave a small n unchanged for
        // several presses: the keys step n itself, and the slider follows.
        listen(&slider.range, "keydown", move |event| {
            let Some(press) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            if press.alt_key() || press.ctrl_key() || press.meta_key() {
                return;
            }
            // The step is made from the state's n, not from the slider's position, which follows
            // the state only at the next frame: a second key before it would step from the old n.
            if let Some(step) = NStep::of_key(&press.key()) {
                event.prevent_default();
                send(Action::State(Msg::StepN(step)));
            }
        })?;
    }
    let number = slider.number.clone();
    listen(&slider.number, "change", move |_| {
        send(Action::FromControl(
            number.id(),
            Msg::set(key, number.value()),
        ));
    })?;
    listen(&slider.number, "blur", move |_| send(Action::FieldLeft))?;
    Ok(())
}

/// A field sends its value (a box as 1 or 0, the two lengths together) when it changes, a live
/// text field at every keystroke.
fn wire_field(field: &Field, lens: &[HtmlInputElement], send: fn(Action)) -> Result<(), WebError> {
    let (key, kind, element) = (field.key, field.kind, field.element.clone());
    let event = if kind == FieldKind::LiveText {
        "input"
    } else {
        "change"
    };
    if matches!(kind, FieldKind::Text | FieldKind::Lens(_)) {
        // A value typed here may have been clamped: once the reader leaves the field, it shows
        // the value in use (while it has the focus the frames leave it alone).
        listen(&field.element, "blur", move |_| send(Action::FieldLeft))?;
    }
    let lens = lens.to_vec();
    listen(&field.element, event, move |_| {
        let value = match kind {
            FieldKind::Check => {
                let checked = element
                    .dyn_ref::<HtmlInputElement>()
                    .is_some_and(|input| input.checked());
                (if checked { "1" } else { "0" }).to_string()
            }
            FieldKind::Menu => element
                .dyn_ref::<HtmlSelectElement>()
                .map(|select| select.value())
                .unwrap_or_default(),
            FieldKind::Lens(_) => lens
                .iter()
                .map(|input| input.value())
                .collect::<Vec<_>>()
                .join(","),
            FieldKind::Text | FieldKind::LiveText => element
                .dyn_ref::<HtmlInputElement>()
                .map(|input| input.value())
                .unwrap_or_default(),
        };
        let msg = if key == "cols" {
            Msg::ColumnsField(value)
        } else {
            Msg::set(key, value)
        };
        send(Action::FromControl(element.id(), msg));
    })?;
    Ok(())
}

/// A menu whose options the page lists itself: only its value comes from the state.
fn sync_slider(
    slider: &Slider,
    value: &SliderValue,
    editable: &dyn Fn(&HtmlElement) -> bool,
) -> Result<(), WebError> {
    let (range, number) = (&slider.range, &slider.number);
    set_attribute(range, "min", &value.min.to_string())?;
    set_attribute(range, "max", &value.max.to_string())?;
    set_attribute(range, "step", &value.step.to_string())?;
    set_attribute(number, "min", &value.number_min.to_string())?;
    set_attribute(number, "max", &value.number_max.to_string())?;
    set_attribute(number, "step", value.number_step())?;
    if editable(range) && range.value_as_number() != value.position {
        range.set_value_as_number(value.position);
    }
    set_attribute(range, "aria-valuetext", &value.valuetext)?;
    set_value(number, &value.text, editable(number));
    let disabled = value.disabled();
    range.set_disabled(disabled);
    number.set_disabled(disabled);
    Ok(())
}

fn set_value(input: &HtmlInputElement, value: &str, editable: bool) {
    if editable && input.value() != value {
        input.set_value(value);
    }
}

fn set_attribute(element: &Element, name: &str, value: &str) -> Result<(), WebError> {
    if element.get_attribute(name).as_deref() != Some(value) {
        element.set_attribute(name, value)?;
    }
    Ok(())
}

/// Replaces the options of a `<select>` with `(value, label)` pairs.
fn fill_select(select: &HtmlSelectElement, options: &[(String, String)]) -> Result<(), WebError> {
    select.set_inner_html("");
    let document = dom::document()?;
    for (value, label) in options {
        let option = document.create_element("option")?;
        option.set_attribute("value", value)?;
        option.set_text_content(Some(label));
        select.append_child(&option)?;
    }
    Ok(())
}
