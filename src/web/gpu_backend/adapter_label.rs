//! The adapter's name as the browser reports it (`GPUAdapter.info`): `GpuBackend::adapter_name`
//! prefers it to wgpu's own, which stays empty on WebGPU.

use wasm_bindgen::JsCast;

use crate::web::dom;
/// "vendor architecture description (software)" from `GPUAdapter.info`, which browsers fill in
/// even where wgpu's `AdapterInfo::name` stays empty.
pub(super) async fn browser_adapter_label() -> Option<String> {
    use js_sys::{Function, Promise, Reflect};
    let navigator = dom::window().ok()?.navigator();
    let gpu = Reflect::get(&navigator, &"gpu".into()).ok()?;
    let request: Function = Reflect::get(&gpu, &"requestAdapter".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: Promise = request.call0(&gpu).ok()?.dyn_into().ok()?;
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let info = Reflect::get(&adapter, &"info".into()).ok()?;
    let field = |name: &str| {
        Reflect::get(&info, &name.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let mut parts: Vec<String> = ["vendor", "architecture", "description"]
        .iter()
        .map(|name| field(name))
        .filter(|s| !s.is_empty())
        .collect();
    parts.dedup();
    let software = Reflect::get(&info, &"isFallbackAdapter".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if software {
        parts.push("(software)".into());
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}
