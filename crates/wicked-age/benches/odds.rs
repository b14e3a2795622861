//! Exact whole-conflict probability (spec P10) and single exchanges. Target: < 10 ms per
//! whole conflict.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use wicked_age::odds::{self, Pool};

fn whole_conflict(c: &mut Criterion) {
    let x = Pool::new([12, 8]);
    let y = Pool::new([10, 6]);
    c.bench_function("conflict d12+d8 vs d10+d6 (P10)", |b| {
        b.iter(|| odds::conflict(black_box(&x), black_box(&y)))
    });
    let big_x = Pool::new([12, 10]).with_bonus([10, 6]);
    let big_y = Pool::new([12, 12]).with_bonus([8, 6]);
    c.bench_function("conflict d12+d10+d10+d6 vs d12+d12+d8+d6", |b| {
        b.iter(|| odds::conflict(black_box(&big_x), black_box(&big_y)))
    });
    c.bench_function("exchange d10+d6 vs d12+d8 (P1)", |b| {
        b.iter(|| odds::exchange(black_box(&y), black_box(&x)))
    });
}

criterion_group!(benches, whole_conflict);
criterion_main!(benches);
