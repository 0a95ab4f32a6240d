//! The GPU heatmap (render pass from a storage buffer) against its CPU twin
//! (`diverging_rgba` then `resample_rgba`: area-averaged down, nearest-neighbour up), on lavapipe.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab_gpu::heatmap::{Colormap, HeatmapRenderer, HeatmapView};
use pe_lab_math::colormap::{diverging_rgba, resample_rgba, sequential_rgba};
use pe_lab_math::encoding::sinusoidal;
use wgpu::util::DeviceExt;

fn device() -> Option<(wgpu::Device, wgpu::Queue)> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .ok()?;
    pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default())).ok()
}

/// Renders `values` (rows × columns) on the diverging map over [−1, 1] into an out_width ×
/// out_height RGBA8 texture and reads it back.
fn render(
    values: &[f32],
    rows: u32,
    columns: u32,
    out_width: u32,
    out_height: u32,
) -> Option<Vec<u8>> {
    render_on(
        values,
        (rows, columns),
        (out_width, out_height),
        (-1.0, 1.0, Colormap::Diverging),
    )
}

/// [`render`] on any colour map and range.
fn render_on(
    values: &[f32],
    (rows, columns): (u32, u32),
    (out_width, out_height): (u32, u32),
    (low, high, colormap): (f32, f32, Colormap),
) -> Option<Vec<u8>> {
    let Some((device, queue)) = device() else {
        assert!(
            std::env::var("PE_LAB_ALLOW_NO_GPU").is_ok(),
            "no GPU adapter (install mesa-vulkan-drivers for lavapipe, or set PE_LAB_ALLOW_NO_GPU=1)"
        );
        return None;
    };
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let renderer = HeatmapRenderer::new(&device, format);
    let cells = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("cells"),
        contents: bytemuck::cast_slice(values),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d {
            width: out_width,
            height: out_height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    renderer.draw(
        &device,
        &queue,
        &view,
        &cells,
        HeatmapView {
            rows,
            columns,
            out_width,
            out_height,
            low,
            high,
            colormap,
        },
    );
    let padded_row = (out_width * 4).div_ceil(256) * 256;
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: (padded_row * out_height) as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &readback,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded_row),
                rows_per_image: None,
            },
        },
        wgpu::Extent3d {
            width: out_width,
            height: out_height,
            depth_or_array_layers: 1,
        },
    );
    queue.submit([encoder.finish()]);
    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let mapped = readback.slice(..).get_mapped_range().expect("mapped range");
    let mut pixels = Vec::with_capacity((out_width * out_height * 4) as usize);
    for row in 0..out_height as usize {
        let start = row * padded_row as usize;
        pixels.extend_from_slice(&mapped[start..start + out_width as usize * 4]);
    }
    Some(pixels)
}

/// The CPU path: colour, average down to at most the output size, then nearest-neighbour up.
fn cpu_pixels(
    values: &[f32],
    rows: usize,
    columns: usize,
    out_width: usize,
    out_height: usize,
) -> Vec<u8> {
    cpu_pixels_of(
        &diverging_rgba(values, -1.0, 1.0),
        rows,
        columns,
        out_width,
        out_height,
    )
}

/// Average down, then nearest-neighbour up, of already coloured cells: the CPU's
/// `resample_rgba`, which the page draws with where it has no GPU.
fn cpu_pixels_of(
    coloured: &[u8],
    rows: usize,
    columns: usize,
    out_width: usize,
    out_height: usize,
) -> Vec<u8> {
    resample_rgba(coloured, (columns, rows), (out_width, out_height)).0
}

fn assert_same_image(gpu: &[u8], cpu: &[u8], what: &str) {
    assert_eq!(gpu.len(), cpu.len());
    let worst = gpu
        .iter()
        .zip(cpu)
        .map(|(a, b)| (*a as i32 - *b as i32).abs())
        .max()
        .unwrap_or(0);
    // The CPU map goes through a 1024-step lookup table and integer averages; the GPU interpolates
    // in float: a couple of levels out of 255 at most.
    assert!(
        worst <= 3,
        "{what}: GPU and CPU heatmaps differ by {worst} levels"
    );
}

#[test]
fn enlarged_encoding_matches_the_cpu_heatmap() {
    let (n, d) = (60, 32);
    let p = sinusoidal(n, d, 10000.0);
    let values = p.as_slice().unwrap();
    let Some(gpu) = render(values, n as u32, d as u32, 320, 180) else {
        return;
    };
    assert_same_image(
        &gpu,
        &cpu_pixels(values, n, d, 320, 180),
        "60×32 into 320×180",
    );
}

#[test]
fn shrunk_encoding_is_area_averaged_like_the_cpu_heatmap() {
    let (n, d) = (2048, 1024);
    let p = sinusoidal(n, d, 10000.0);
    let values = p.as_slice().unwrap();
    let Some(gpu) = render(values, n as u32, d as u32, 300, 170) else {
        return;
    };
    assert_same_image(
        &gpu,
        &cpu_pixels(values, n, d, 300, 170),
        "2048×1024 into 300×170",
    );
}

#[test]
fn odd_sizes_and_single_rows() {
    for (n, d, w, h) in [(1, 33, 200, 50), (7, 1, 40, 90), (5, 3, 5, 5)] {
        let p = sinusoidal(n, d, 250.0);
        let values = p.as_slice().unwrap();
        let Some(gpu) = render(values, n as u32, d as u32, w, h) else {
            return;
        };
        assert_same_image(
            &gpu,
            &cpu_pixels(values, n, d, w as usize, h as usize),
            &format!("{n}×{d}"),
        );
    }
}

#[test]
fn out_of_range_and_nan_values_match() {
    let values = [-3.0, -1.0, -0.5, 0.0, 0.25, 1.0, 7.0, f32::NAN];
    let Some(gpu) = render(&values, 2, 4, 4, 2) else {
        return;
    };
    assert_same_image(&gpu, &cpu_pixels(&values, 2, 4, 4, 2), "clamped and NaN");
}

#[test]
fn viridis_weights_match_the_cpu_map_enlarged_and_shrunk() {
    // Attention weights: causal rows of a softmax-like fall-off, 0 above the diagonal, in [0, 1].
    for (n, w, h) in [(12usize, 240u32, 240u32), (300, 140, 140)] {
        let values: Vec<f32> = (0..n * n)
            .map(|c| {
                let (i, j) = (c / n, c % n);
                if j > i {
                    0.0
                } else {
                    (-0.5 * (i - j) as f32).exp()
                }
            })
            .collect();
        let Some(gpu) = render_on(
            &values,
            (n as u32, n as u32),
            (w, h),
            (0.0, 1.0, Colormap::Viridis),
        ) else {
            return;
        };
        let cpu = cpu_pixels_of(
            &sequential_rgba(&values, 0.0, 1.0),
            n,
            n,
            w as usize,
            h as usize,
        );
        assert_same_image(&gpu, &cpu, &format!("viridis {n}×{n} into {w}×{h}"));
    }
}
