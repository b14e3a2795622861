//! Issue 19: what one request costs on the largest table the limits allow, beside a small one.
//! `view`, `legal_commands` (every seat), `status` and `position` must stay cheap and grow
//! linearly with the table: compare the two groups in one run.

use clash_core::{Ruleset, Seat, SeededRandomness, Viewer, execute};
use criterion::{Criterion, criterion_group, criterion_main};
use nd_tourists::limits::{MAX_CHARACTERS, MAX_PARTIES, MAX_TRAITS};
use nd_tourists::{Card, CardSet, Command, NdTourists, State};
use serde_json::{Value, json};

/// `parties` parties of `characters` characters, each with `traits` Aspects and Weaknesses;
/// 46 cards dealt round the characters as Reserves.
fn table(parties: usize, characters: usize, traits: usize) -> State {
    // Twenty cards stay in the deck for bidding.
    let mut cards = CardSet::full_deck(false)
        .iter()
        .filter(|c| !c.is_excuse())
        .take(46);
    let mut deal = |n: usize| -> Vec<Value> {
        (0..n)
            .filter_map(|_| cards.next())
            .map(|c: Card| json!(c.name()))
            .collect()
    };
    let names = |what: &str, n: usize| -> Vec<String> {
        (0..n).map(|i| format!("{what} number {i:>60}")).collect()
    };
    let party_list: Vec<Value> = (0..parties)
        .map(|p| {
            let seat = if p == 0 { "gm".to_string() } else { format!("p{p}") };
            let chars: Vec<Value> = (0..characters)
                .map(|k| {
                    json!({"name": format!("Character {k} of side {p}"),
                        "attribute": {"name": "Might", "value": if p == 0 { 9 } else { 5 }},
                        "aspects": names("Aspect", traits), "weaknesses": names("Weakness", traits),
                        "reserve": deal(1)})
                })
                .collect();
            json!({"name": format!("Side {p}"), "seat": seat, "reserve_draws": (p == 0).then_some(0),
                "characters": chars})
        })
        .collect();
    let setup = serde_json::from_value(json!({"parties": party_list})).expect("setup");
    let mut st = NdTourists::setup(&setup).expect("valid");
    let mut rng = SeededRandomness::new(7);
    execute::<NdTourists>(&mut st, Seat::Gm, &Command::Start {}, &mut rng).expect("start");
    // The first Contender bids: a card now awaits reactions from every side.
    let first = st
        .round
        .turn
        .map(|t| st.table.parties[t as usize].seat)
        .expect("a turn");
    let bid = Command::Bid {
        party: None,
        character: None,
    };
    execute::<NdTourists>(&mut st, first, &bid, &mut rng).expect("bid");
    st
}

fn requests(c: &mut Criterion, name: &str, st: &State) {
    let seats = NdTourists::seats(st);
    let mut g = c.benchmark_group(name);
    g.bench_function("view (GM)", |b| {
        b.iter(|| NdTourists::view(st, Viewer::Seat(Seat::Gm)))
    });
    g.bench_function("legal commands (every seat)", |b| {
        b.iter(|| {
            seats
                .iter()
                .map(|s| NdTourists::legal_commands(st, *s).len())
                .sum::<usize>()
        })
    });
    g.bench_function("status", |b| b.iter(|| NdTourists::status(st)));
    g.bench_function("render (spectator)", |b| {
        b.iter(|| NdTourists::render(st, Viewer::Spectator))
    });
    g.bench_function("position (GM)", |b| {
        b.iter(|| NdTourists::position(st, Viewer::Seat(Seat::Gm)))
    });
    g.finish();
}

fn tables(c: &mut Criterion) {
    let small = table(3, 1, 1);
    let large = table(MAX_PARTIES, MAX_CHARACTERS, MAX_TRAITS);
    assert!(
        large.round.window.is_some(),
        "the large table has a card awaiting reactions"
    );
    requests(c, "small table (3 sides, 1 character)", &small);
    requests(
        c,
        "largest table (16 sides, 16 characters, 16 traits)",
        &large,
    );
}

criterion_group!(benches, tables);
criterion_main!(benches);
