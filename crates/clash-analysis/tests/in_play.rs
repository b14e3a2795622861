//! Odds in play, read from a seat's view exactly as a table page receives it, agree with the
//! engines' own knowledge and with the exact reports of the rest of the analysis crate.

use clash_analysis::in_play;
use clash_core::{Game, Ruleset, Seat, SeededRandomness, Viewer};
use nd_tourists::probability::Knowledge;
use serde_json::{Value, json};

fn seat(s: &str) -> Seat {
    s.parse().unwrap()
}

/// A game of `R` from `setup`, with `commands` played in order.
fn play<R: Ruleset>(setup: Value, commands: &[(&str, Value)]) -> Game<R> {
    let mut game = Game::<R>::new(serde_json::from_value(setup).unwrap()).unwrap();
    let mut rng = SeededRandomness::new(7);
    for (who, c) in commands {
        let command: R::Command = serde_json::from_value(c.clone()).unwrap();
        game.command(seat(who), &command, &mut rng)
            .unwrap_or_else(|e| panic!("{c} refused: {e}"));
    }
    game
}

fn view<R: Ruleset>(game: &Game<R>, who: &str) -> Value {
    serde_json::to_value(R::view(game.state(), Viewer::Seat(seat(who)))).unwrap()
}

// ND-3, ND-20: the view holds just what the party knows, no more and no less.
#[test]
fn tourists_odds_match_what_the_engine_says_the_bidding_party_knows() {
    let preset = clash_catalogue_setup("nd-tourists");
    let mut game = play::<nd_tourists::NdTourists>(preset, &[("gm", json!({ "type": "start" }))]);
    let mut rng = SeededRandomness::new(11);
    let mut checked = 0;
    for _ in 0..12 {
        let v = view(&game, "gm");
        let round = &v["round"];
        if v["phase"] != "bidding" {
            break;
        }
        if round["window"].is_null() {
            let turn = round["turn"].as_u64().unwrap() as usize;
            let party = &v["parties"][turn];
            let who = party["seat"].as_str().unwrap().to_string();
            let mine = view(&game, &who);
            let odds = in_play::nd_tourists(&mine, seat(&who)).expect("the bidder's odds");
            let known = Knowledge::of_party(game.state(), turn as u8);
            for b in odds["beats"].as_array().unwrap() {
                let card = b["card"].as_str().unwrap().parse().unwrap();
                let exact = known.next_draw_beats(card).unwrap().to_string();
                assert_eq!(b["chance"]["fraction"], exact, "{card}");
                checked += 1;
            }
            // Nobody else is about to bid.
            for other in ["gm", "p1", "p2", "p3"].iter().filter(|s| **s != who) {
                assert_eq!(in_play::nd_tourists(&view(&game, other), seat(other)), None);
            }
            let c = json!({ "type": "bid", "party": party["name"] });
            game.command(seat(&who), &serde_json::from_value(c).unwrap(), &mut rng)
                .unwrap();
        } else {
            // Whoever is asked to react lets the card stand.
            let (who, stand) = ["gm", "p1", "p2", "p3"]
                .iter()
                .find_map(|s| {
                    let legal = nd_tourists::NdTourists::legal_commands(game.state(), seat(s));
                    let stand = legal.into_iter().find(|c| {
                        serde_json::to_value(c).is_ok_and(|v| v["type"] == "let_it_stand")
                    })?;
                    Some((*s, stand))
                })
                .expect("someone is asked to react");
            game.command(seat(who), &stand, &mut rng).unwrap();
        }
    }
    assert!(
        checked > 0,
        "some bid was weighed against a card on the table"
    );
}

fn clash_catalogue_setup(id: &str) -> Value {
    let path = format!("{}/../{id}/presets", env!("CARGO_MANIFEST_DIR"));
    let first = std::fs::read_dir(&path)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .min()
        .unwrap();
    serde_json::from_str(&std::fs::read_to_string(first).unwrap()).unwrap()
}
