//! What kind of adapter the kernels run on, for the choices that depend on it (the page's
//! `?compute=auto`, the trainer's long sums).

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

#[cfg(test)]
mod tests {
    use super::is_software_adapter as software;

    #[test]
    fn software_adapters_are_recognised() {
        assert!(software("google swiftshader", false));
        assert!(software("Google SwiftShader Device (Subzero)", false));
        assert!(software("mesa llvmpipe (LLVM 15.0.6, 256 bits)", false));
        assert!(software("intel gen-12lp (software)", false));
        assert!(software("", true));
        assert!(!software("nvidia ampere NVIDIA GeForce RTX 3060", false));
        assert!(!software("apple metal-3", false));
        assert!(!software("", false));
    }
}
