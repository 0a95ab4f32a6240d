//! The kinds of control the page shows, as values: a slider with its numeric field, a menu, a
//! panel setting's field. The settings' rows (`settings`) build them, the controls' table
//! (`controls`) fills them from the state, the browser layer writes them into elements.

/// A slider and its exact numeric field (`<key>-range`, `<key>-number`).
#[derive(Debug, Clone, PartialEq)]
pub struct SliderValue {
    pub key: &'static str,
    /// The slider's range (for `base`: log10 of the base).
    pub min: f64,
    pub max: f64,
    pub step: f64,
    /// The slider's position.
    pub position: f64,
    /// The numeric field's range (for `base`: the base itself).
    pub number_min: f64,
    pub number_max: f64,
    /// The exact value, as the numeric field shows it.
    pub text: String,
    /// What a screen reader says.
    pub valuetext: String,
}

impl SliderValue {
    /// The numeric field's step: any base (its slider steps log10 of it), whole numbers
    /// otherwise.
    pub fn number_step(&self) -> &'static str {
        if self.key == "base" {
            "any"
        } else {
            "1"
        }
    }

    /// A slider with one value (min = max) cannot be moved.
    pub fn disabled(&self) -> bool {
        self.min == self.max
    }
}

/// A `<select>`'s options (value, label) and the chosen value.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuValue {
    pub options: Vec<(String, String)>,
    pub value: String,
}

/// What a field of a panel setting shows (its kind is its row's control).
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    Check(bool),
    /// A menu; `disabled` when its options come from the state and there are none.
    Menu {
        menu: MenuValue,
        disabled: bool,
    },
    Text(String),
    /// The batch example's two valid_lens, each 0 … `max`.
    Lens {
        lens: [usize; 2],
        max: usize,
    },
}

/// A slider with one step per whole number of `min`…`max`.
pub(crate) fn integer_slider(
    key: &'static str,
    min: usize,
    max: usize,
    value: usize,
    spoken: String,
) -> SliderValue {
    SliderValue {
        key,
        min: min as f64,
        max: max as f64,
        step: 1.0,
        position: value as f64,
        number_min: min as f64,
        number_max: max as f64,
        text: value.to_string(),
        valuetext: spoken,
    }
}
