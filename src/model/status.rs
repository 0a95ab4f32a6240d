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
        Some(adapter) => crate::message!("badge-webgpu", adapter = adapter),
        None if why_cpu.is_empty() => crate::message!("badge-cpu"),
        None => crate::message!("badge-cpu-because", why = why_cpu),
    }
}

pub use pe_lab_gpu::adapter::is_software_adapter;

/// Why `?compute=auto` chose the CPU over a software WebGPU adapter (the badge's reason).
pub fn software_adapter_reason(label: &str) -> String {
    if label.is_empty() {
        crate::message!("reason-software-adapter")
    } else {
        crate::message!("reason-software-adapter-named", adapter = label)
    }
}

/// The notice when WebGPU fails in use.
pub fn gpu_failure_notice(reason: &str) -> String {
    crate::message!("notice-gpu-failed", reason = shorten_reason(reason))
}

/// The notice when `?compute=gpu` cannot be honoured.
pub fn gpu_unavailable_notice(error: &str) -> String {
    crate::message!("notice-gpu-unavailable", reason = shorten_reason(error))
}

/// The frame-time read-out.
pub fn frame_time(ms: f64) -> String {
    crate::message!("status-frame-time", ms = format!("{ms:.1}"))
}

/// The notice when course-page listeners keep changing the state from `change` events.
pub fn listener_chain_notice(limit: u32) -> String {
    crate::message!("notice-listener-chain", limit = limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_software_adapters_reason_names_the_way_out() {
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
