//! The WGSL sources as the page's wasm carries them: each file once, without its comments (they are
//! about half of the sources' bytes, and the sources are part of the page's first load), each
//! line's indentation with them, every line kept, so that the line numbers of a shader error still
//! match the files joined in order. A line whose comment is a composition marker of [`super::tile`]
//! (`// @if`, `// @end`, `// @accumulate`, ...: any comment that starts
//! with `@`) is kept whole.
//!
//! WGSL has no imports: a kernel that uses a shared piece (`shared/*.wgsl`: the tree reductions,
//! the softmaxes, sin and cos, the square score kernels' scores pass, the RoPE kernel's uniforms,
//! the training kernels' bindings) lists it before its own file in its
//! [`WgslSource`], as rerun's re_renderer does with `#import`. naga_oil would compose at run time
//! from naga's IR: it would put naga's parser into the page's wasm (the WebGPU backend hands WGSL
//! text to the browser and carries no naga), where joining stripped `include_str!`s does it for a
//! few lines.

/// One WGSL file as the wasm carries it: its name (relative to the module that included it) and
/// its text without comments.
#[derive(Debug, Clone, Copy)]
pub struct WgslFile {
    pub name: &'static str,
    pub text: &'static str,
}

/// A WGSL module: the files it is joined from, in order. Kept as files, joined when the shader
/// module is created, so that a shared piece is stored once in the wasm however many kernels use
/// it. `tests/wgsl_validate.rs` validates every module the crate builds
/// ([`crate::shaders::every_module`]).
#[derive(Debug, Clone, Copy)]
pub struct WgslSource(pub &'static [WgslFile]);

impl WgslSource {
    /// The files' texts joined by line breaks.
    pub fn text(self) -> String {
        let texts: Vec<&str> = self.0.iter().map(|file| file.text).collect();
        texts.join("\n")
    }

    /// The files' names, in order.
    pub fn files(self) -> Vec<&'static str> {
        self.0.iter().map(|file| file.name).collect()
    }
}

/// `include_str!` of a WGSL file beside the calling module, without its comments (a [`WgslFile`],
/// usable in constants).
macro_rules! wgsl {
    ($file:literal) => {{
        const FILE: &str = include_str!($file);
        const LEN: usize = $crate::wgsl::stripped_len(FILE);
        const BYTES: [u8; LEN] = $crate::wgsl::strip::<LEN>(FILE);
        $crate::wgsl::WgslFile {
            name: $file,
            text: $crate::wgsl::as_str(&BYTES),
        }
    }};
}
pub(crate) use wgsl;

/// Tree reductions over a workgroup (the forward softmax, the trainer's long sums).
pub(crate) const REDUCE: WgslFile = wgsl!("shared/reduce.wgsl");
/// The forward kernels' softmax of a row, one workgroup per row (needs [`REDUCE`]).
pub(crate) const SOFTMAX: WgslFile = wgsl!("shared/softmax.wgsl");
/// sin and cos of a quadrant and a remainder (the encoding and the RoPE rotation).
pub(crate) const SIN_COS: WgslFile = wgsl!("shared/sin_cos.wgsl");
/// The scores pass of the square score kernels (ALiBi and RoPE), on the tile core.
pub(crate) const SQUARE_SCORES: WgslFile = wgsl!("shared/square_scores.wgsl");
/// The training kernels' bind group and invocation index.
pub(crate) const TRAIN_BINDINGS: WgslFile = wgsl!("shared/train_bindings.wgsl");
/// The training kernels' softmax of a row, one invocation per row.
pub(crate) const TRAIN_ROW_SOFTMAX: WgslFile = wgsl!("shared/train_row_softmax.wgsl");

/// The length of `source` without its comments.
pub const fn stripped_len(source: &str) -> usize {
    walk::<0>(source.as_bytes(), false).1
}

/// `source` without its comments; `N` is [`stripped_len`].
pub const fn strip<const N: usize>(source: &str) -> [u8; N] {
    let (out, len) = walk::<N>(source.as_bytes(), true);
    assert!(len == N, "strip: N is not stripped_len(source)");
    out
}

/// Stripping keeps whole UTF-8 sequences (it only cuts at ASCII bytes), so this cannot fail.
pub const fn as_str(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("stripped WGSL is not UTF-8"),
    }
}

/// Copies (when `write`) what is kept of `src` into the returned array and counts it.
const fn walk<const N: usize>(src: &[u8], write: bool) -> ([u8; N], usize) {
    let mut out = [0u8; N];
    let mut n = 0;
    let mut i = 0;
    while i < src.len() {
        let mut end = i;
        while end < src.len() && src[end] != b'\n' {
            end += 1;
        }
        let mut start = i;
        while start < end && (src[start] == b' ' || src[start] == b'\t') {
            start += 1;
        }
        let marker = start + 3 < end
            && src[start] == b'/'
            && src[start + 1] == b'/'
            && src[start + 2] == b' '
            && src[start + 3] == b'@';
        let (from, mut to) = if marker { (i, end) } else { (start, end) };
        if !marker {
            let mut k = start;
            while k + 1 < end && !(src[k] == b'/' && src[k + 1] == b'/') {
                k += 1;
            }
            if k + 1 < end {
                to = k;
            }
            while to > from && (src[to - 1] == b' ' || src[to - 1] == b'\t' || src[to - 1] == b'\r')
            {
                to -= 1;
            }
        }
        let mut k = from;
        while k < to {
            if write {
                out[n] = src[k];
            }
            n += 1;
            k += 1;
        }
        if end < src.len() {
            if write {
                out[n] = b'\n';
            }
            n += 1;
        }
        i = end + 1;
    }
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stripped(source: &str) -> String {
        String::from_utf8(walk::<4096>(source.as_bytes(), true).0[..stripped_len(source)].to_vec())
            .unwrap()
    }

    #[test]
    fn comments_and_indentation_go_lines_and_markers_stay() {
        let source = "// header\n  let a = 1; // why\n\n    // @if vec4\n\tx = a/b;  \n// @end\ny";
        assert_eq!(
            stripped(source),
            "\nlet a = 1;\n\n    // @if vec4\nx = a/b;\n// @end\ny"
        );
        assert_eq!(stripped("").len(), 0);
        assert_eq!(stripped("a\n"), "a\n");
        assert_eq!(stripped("// é ü\nq = 1; // ∑"), "\nq = 1;");
    }

    #[test]
    fn every_source_keeps_its_lines() {
        let sources: [(&str, String); 3] = [
            (
                include_str!("tile_core.wgsl"),
                super::super::tile::CORE_SOURCE.text.to_owned(),
            ),
            (include_str!("gram.wgsl"), super::super::gram::SOURCE.text()),
            (
                concat!(
                    include_str!("shared/reduce.wgsl"),
                    "\n",
                    include_str!("shared/softmax.wgsl"),
                    "\n",
                    include_str!("attention.wgsl")
                ),
                super::super::attention::SOURCE.text(),
            ),
        ];
        for (file, kept) in sources {
            assert_eq!(file.lines().count(), kept.lines().count());
            assert!(kept.len() < file.len());
            assert!(!kept
                .lines()
                .any(|l| l.contains("//") && !l.trim_start().starts_with("// @")));
        }
    }
}
