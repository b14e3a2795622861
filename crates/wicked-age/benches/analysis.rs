//! Criterion benchmark of In A Wicked Age's odds reports: the spec's P1 exchange (d10+d6
//! answering d12+d8).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use wicked_age::analysis::reports;

fn odds(c: &mut Criterion) {
    let a = reports::parse_roll("d10+d6").unwrap();
    let ch = reports::parse_roll("d12+d8").unwrap();
    c.bench_function("wicked-age P1 exchange", |b| {
        b.iter(|| {
            reports::exchange(
                black_box(&a),
                black_box(&ch),
                1,
                reports::ChallengeKind::Fresh,
            )
        })
    });
}

criterion_group!(benches, odds);
criterion_main!(benches);
