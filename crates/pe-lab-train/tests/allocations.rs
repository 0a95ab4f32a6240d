//! A training step allocates nothing once the workspace has grown to the longest batch.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use pe_lab_train::{Encoding, TrainConfig, Trainer};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's guarantees for `layout` are passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

#[test]
fn steps_do_not_allocate() {
    for encoding in Encoding::ALL {
        let config = TrainConfig {
            encoding,
            mlp: true,
            batch: 4,
            train_length: 6,
            ..TrainConfig::default()
        };
        let mut trainer = Trainer::new(config).expect("valid");
        // The longest batch (length 6) fixes the workspace's size.
        while trainer.model().tables.length() < 6 {
            trainer.step();
        }
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for _ in 0..20 {
            trainer.step();
        }
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert_eq!(after - before, 0, "{encoding:?}");
    }
}
