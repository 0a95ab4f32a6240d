//! What the page says about itself: the compute badge (which backend and why), the reasons and
//! notices when WebGPU is missing, software-only or fails, and the frame time of the status line.

/// A GPU error message can be long (a whole validation report): a notice keeps its first line.
pub fn shorten_reason(reason: &str) -> String {
    let first = reason.lines().next().unwrap_or(reason);
    if first.chars().count() > 160 {
        format!("{}…", first.chars().take(160).collect::<String>())
    } else {
        first.to_string()
    }
}

/// The compute badge: the backend, and the adapter (WebGPU) or why the CPU is in use.
pub fn backend_badge(webgpu_adapter: Option<&str>, why_cpu: &str) -> String {
    match webgpu_adapter {
        // The adapter in brackets: read by screen readers and in the badge's title, not shown on a
        // student's first screen.
        Some(adapter) => format!("WebGPU ({adapter})"),
        None if why_cpu.is_empty() => "CPU · Rust → WebAssembly".to_string(),
        None => format!("CPU · Rust → WebAssembly ({why_cpu})"),
    }
}

/// Whether a WebGPU adapter is a software rasteriser running on the CPU (the browser's fallback
/// adapter, SwiftShader, llvmpipe/lavapipe, Microsoft Basic Render Driver): `label` is the browser's adapter
/// description (with "(software)" where it says `isFallbackAdapter`), `cpu_device` whether wgpu
/// reports a CPU device type. Such an adapter emulates a GPU on the same cores the page's CPU path
/// uses directly, with the emulation's overhead on top, so `?compute=auto` does not pick it.
pub fn is_software_adapter(label: &str, cpu_device: bool) -> bool {
    // The names looked for are ASCII: ASCII case folding finds them, without the Unicode case
    // tables (7 KB of the page).
    let label = label.to_ascii_lowercase();
    cpu_device
        || [
            "(software)",
            "swiftshader",
            "llvmpipe",
            "lavapipe",
            "softpipe",
            "basic render",
        ]
        .iter()
        .any(|name| label.contains(name))
}

/// Why `?compute=auto` chose the CPU over a software WebGPU adapter (the badge's reason).
pub fn software_adapter_reason(label: &str) -> String {
    let named = if label.is_empty() {
        String::new()
    } else {
        format!(", {label}")
    };
    format!(
        "auto: the only WebGPU adapter is a software fallback{named}, which runs on the CPU and is slower than this path; ?compute=gpu uses it anyway"
    )
}

/// The notice when WebGPU fails in use.
pub fn gpu_failure_notice(reason: &str) -> String {
    format!(
        "WebGPU stopped working ({}); switched to the CPU path.",
        shorten_reason(reason)
    )
}

/// The notice when `?compute=gpu` cannot be honoured.
pub fn gpu_unavailable_notice(error: &str) -> String {
    format!(
        "WebGPU was asked for (?compute=gpu) but is not available: {}. Using the CPU path.",
        shorten_reason(error)
    )
}

/// The frame-time read-out.
pub fn frame_time(ms: f64) -> String {
    format!("last update {ms:.1} ms")
}

/// The notice when course-page listeners keep changing the state from `change` events.
pub fn listener_chain_notice(limit: u32) -> String {
    format!(
        "A peLab.on('change') listener kept calling peLab.set: stopped after {limit} rounds of changes (the last change was not applied)."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn software_adapters_are_recognised() {
        use is_software_adapter as software;
        assert!(software("google swiftshader", false));
        assert!(software("Google SwiftShader Device (Subzero)", false));
        assert!(software("mesa llvmpipe (LLVM 15.0.6, 256 bits)", false));
        assert!(software("intel gen-12lp (software)", false));
        assert!(software("", true));
        assert!(!software("nvidia ampere NVIDIA GeForce RTX 3060", false));
        assert!(!software("apple metal-3", false));
        assert!(!software("", false));
        assert!(software_adapter_reason("google swiftshader").contains("?compute=gpu"));
    }

    #[test]
    fn badge_and_reasons() {
        assert_eq!(backend_badge(Some("gpu x"), ""), "WebGPU (gpu x)");
        assert_eq!(
            backend_badge(None, "no WebGPU here"),
            "CPU · Rust → WebAssembly (no WebGPU here)"
        );
        let long = "x".repeat(300) + "\nsecond line";
        let short = shorten_reason(&long);
        assert_eq!(short.chars().count(), 161);
        assert!(!short.contains("second"));
        assert!(gpu_failure_notice("lost\nmore").contains("(lost)"));
        assert_eq!(frame_time(12.345), "last update 12.3 ms");
    }
}
