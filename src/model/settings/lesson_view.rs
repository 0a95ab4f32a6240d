//! `peLab.lesson`: the panel settings after clamping, one field per view field of the settings'
//! rows ([`SETTINGS`]).

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::row::Shown;
use super::table::SETTINGS;
use super::PanelSettings;
use crate::model::params::Params;

/// `peLab.lesson`: the panel settings after clamping (the global ones are `peLab.state`), one
/// field per view field of [`SETTINGS`], in its order.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonView {
    pub fields: Vec<(&'static str, Shown)>,
}

impl LessonView {
    pub fn new(settings: &PanelSettings, params: &Params) -> LessonView {
        LessonView {
            fields: SETTINGS
                .iter()
                .flat_map(|row| row.view_fields(settings, params))
                .collect(),
        }
    }

    /// The names of its fields, in order.
    pub fn names() -> Vec<&'static str> {
        SETTINGS
            .iter()
            .flat_map(|row| row.view.iter().map(|field| field.name))
            .collect()
    }
}

/// A plain object, as the derived struct it replaces was.
impl Serialize for LessonView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("LessonView", self.fields.len())?;
        for (name, value) in &self.fields {
            object.serialize_field(name, value)?;
        }
        object.end()
    }
}
