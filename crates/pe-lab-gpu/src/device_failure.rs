//! What a device that is not the page's (the training worker's, the pretrained module's) needs
//! to start: the browser's adapter, and the first failure the device reports outside an error
//! scope (lost, or an uncaptured error), which its loop checks after its work.

use std::sync::{Arc, Mutex};

/// The first failure a device reported outside an error scope, kept until it is read.
#[derive(Debug, Clone, Default)]
pub struct DeviceFailure(Arc<Mutex<Option<String>>>);

impl DeviceFailure {
    /// Records `device`'s failures from now on.
    pub fn watch(device: &wgpu::Device) -> Self {
        let failure = Self::default();
        let lost = failure.clone();
        device.set_device_lost_callback(move |reason, message| {
            lost.record(format!("the GPU device was lost ({reason:?}): {message}"));
        });
        let errors = failure.clone();
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            errors.record(format!("GPU error: {error}"));
        }));
        failure
    }

    fn record(&self, message: String) {
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert(message);
        }
    }

    /// The first failure reported, if any.
    pub fn check(&self) -> Result<(), String> {
        match self.0.lock().ok().and_then(|slot| slot.clone()) {
            Some(message) => Err(message),
            None => Ok(()),
        }
    }
}

/// The browser's WebGPU adapter (the high-performance one), for a module or worker that makes a
/// device of its own.
#[cfg(target_arch = "wasm32")]
pub async fn browser_adapter() -> Result<wgpu::Adapter, wgpu::RequestAdapterError> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        })
        .await
}

/// A GPU error as a reader can read it: on the web wgpu writes the browser's exception as
/// `JsValue(Name: message` followed by its stack and `)`; this keeps `Name: message`.
pub fn plain_message(text: &str) -> String {
    const WRAPPER: &str = "JsValue(";
    let Some(start) = text.find(WRAPPER) else {
        return text.to_owned();
    };
    let inner = &text[start + WRAPPER.len()..];
    let close = inner.rfind(')').unwrap_or(inner.len());
    let end = inner[..close].find('\n').unwrap_or(close);
    let after = inner.get(close + 1..).unwrap_or("");
    format!("{}{}{after}", &text[..start], inner[..end].trim_end())
}

#[cfg(test)]
mod tests {
    use super::plain_message;

    #[test]
    fn a_browser_exception_loses_its_wrapper_and_stack() {
        assert_eq!(
            plain_message(
                "the GPU device could not be created: JsValue(OperationError: no device\nundefined)"
            ),
            "the GPU device could not be created: OperationError: no device"
        );
        assert_eq!(
            plain_message("x: JsValue(TypeError: bad)."),
            "x: TypeError: bad."
        );
        assert_eq!(plain_message("no adapter"), "no adapter");
    }
}
