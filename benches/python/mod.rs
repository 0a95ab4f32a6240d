//! Running a Python reference script of the benchmarks (numpy_reference.py, gpu_reference.py,
//! train_reference.py) and taking the JSON object it prints: one piece for every bench target.

use std::process::Command;

/// The JSON object that `python3 benches/<script> <args>` prints on stdout, or why there is none
/// (python3 missing, the script failing: its last line on stderr).
pub fn python_json(script: &str, args: &[&str]) -> Result<String, String> {
    // From the working directory when it is a checkout (a bench binary copied to another machine
    // runs there from the repository root), else from the checkout it was built in.
    let relative = format!("benches/{script}");
    let path = if std::path::Path::new(&relative).exists() {
        relative
    } else {
        format!("{}/benches/{script}", env!("CARGO_MANIFEST_DIR"))
    };
    let output = Command::new("python3")
        .arg(path)
        .args(args)
        .output()
        .map_err(|e| format!("python3 did not run: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("no message");
        return Err(format!("{} ({})", output.status, last.trim()));
    }
    let json = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if json.starts_with('{') {
        Ok(json)
    } else {
        Err("no JSON object on stdout".into())
    }
}
