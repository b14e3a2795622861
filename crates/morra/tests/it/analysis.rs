//! Morra's analysis: the round's exact odds and equilibrium, the bots at a table (fair: they
//! answer the same whatever the other player's face-down hand), odds in play, simulations, and
//! the catalogue entry that carries them.

use clash_analysis::contests::BotKind;
use clash_analysis::exact::ratio;
use clash_analysis::matrix_game::certifies;
use clash_analysis::matrix_game::to_rational;
use clash_analysis::simulate::simulate;
use clash_core::{AnyGame, Budget, Game, RulesetEntry, Seat, SeededRandomness, Strength};
use morra::analysis::contests::MorraContest;
use morra::analysis::round::{equilibrium, hand_odds, payoffs};
use morra::analysis::seat_bots::draw;
use morra::{Command, Hand, Morra, Setup};
use serde_json::Value;

const ADA: Seat = Seat::Player(1);
const BO: Seat = Seat::Player(2);

#[test]
fn one_round_is_a_fair_symmetric_game_and_its_equilibrium_is_certified() {
    let a = payoffs();
    assert_eq!(a.len(), 9);
    for (i, row) in a.iter().enumerate() {
        for (j, x) in row.iter().enumerate() {
            assert_eq!(*x, -a[j][i], "the round is symmetric");
        }
    }
    let s = equilibrium().expect("solved");
    assert_eq!(
        s.value,
        ratio(0, 1),
        "a symmetric game is worth nothing to either side"
    );
    assert!(certifies(&to_rational(&a), s), "the equilibrium is exact");
}

#[test]
fn each_hand_scores_and_concedes_as_counted_by_hand() {
    let odds = hand_odds().expect("solved");
    let of = |fingers, call| {
        odds.iter()
            .find(|o| o.hand == Hand::new(fingers, call))
            .expect("every legal hand")
    };
    // Show 1, call 2: right only when Bo shows 1 (3 hands), and alone unless Bo calls 2 too.
    let low = of(1, 2);
    assert_eq!(low.scores.fraction, "2/9");
    // Bo alone right: Bo shows 2 calling 3, or 3 calling 4.
    assert_eq!(low.concedes.fraction, "2/9");
    // Gains 2 twice, loses 3 and 4: (4 - 7) / 9.
    assert_eq!(low.edge.fraction, "-1/3");
    // Three-finger Morra's optimal mixes all call 4 (the solver finds one of them, such as
    // showing one, two or three fingers 20, 15 and 12 times in 47).
    let share = |h: Hand| {
        odds.iter()
            .find(|o| o.hand == h)
            .and_then(|o| o.equilibrium.exact())
            .expect("every hand has a share")
    };
    for o in odds.iter().filter(|o| o.equilibrium.fraction != "0/1") {
        assert_eq!(o.hand.call, 4, "{:?} is in the mix", o.hand);
    }
    // Against a uniformly random player, calling 4 gains 1/3, 0 and -1/3 a round showing one,
    // two and three: the mix gains a third of the difference.
    let gain = odds
        .iter()
        .filter_map(|o| Some(o.equilibrium.exact()? * o.edge.exact()?))
        .fold(ratio(0, 1), |a, b| a + b);
    assert_eq!(
        gain,
        (share(Hand::new(1, 4)) - share(Hand::new(3, 4))) * ratio(1, 3)
    );
    assert!(
        gain > ratio(0, 1),
        "the equilibrium gains on a random player"
    );
}

#[test]
fn the_strong_bot_draws_only_hands_the_mix_plays() {
    let weights: Vec<f64> = equilibrium()
        .expect("solved")
        .row
        .iter()
        .map(clash_analysis::matrix_game::Scalar::to_f64)
        .collect();
    let mut rng = SeededRandomness::new(7);
    for _ in 0..200 {
        let hand = draw(&weights, &mut rng).expect("a hand");
        let i = Hand::all().iter().position(|h| *h == hand).expect("legal");
        assert!(weights[i] > 0.0, "{hand:?} has no weight in the mix");
    }
    assert_eq!(draw(&[0.0; 9], &mut rng), None);
}

fn ask(entry: &RulesetEntry, game: &dyn AnyGame, seat: Seat, strength: Strength) -> Option<Value> {
    let bots = entry.bots.expect("Morra has bots");
    bots(
        game,
        seat,
        strength,
        Budget::work(1),
        &mut SeededRandomness::new(3),
    )
    .expect("the seat plays here")
}

#[test]
fn bots_at_the_table_play_legal_hands_without_seeing_the_other() {
    let entry = morra::entry();
    for strength in Strength::ALL {
        let mut answers = Vec::new();
        for ada in [
            Command::Show {
                fingers: 1,
                call: 2,
            },
            Command::Show {
                fingers: 3,
                call: 6,
            },
        ] {
            let mut game = Game::<Morra>::new(Setup::default()).expect("setup");
            game.command(ADA, &ada, &mut SeededRandomness::new(1))
                .expect("legal");
            let answer = ask(&entry, &game, BO, strength).expect("Bo's bot plays");
            let mut twin = game.boxed_clone();
            twin.command(BO, &answer, &mut SeededRandomness::new(1))
                .expect("the bot's hand is legal");
            // Ada's bot has nothing to do: her hand is in.
            assert_eq!(ask(&entry, &game, ADA, strength), None);
            answers.push(answer);
        }
        assert_eq!(answers[0], answers[1], "the {strength} bot saw Ada's hand");
    }
}

#[test]
fn odds_in_play_come_from_the_seats_own_view() {
    let entry = morra::entry();
    let odds = entry.odds.expect("Morra has odds in play");
    let mut game = Game::<Morra>::new(Setup::default()).expect("setup");
    let before = odds(&game, BO).expect("Bo has a hand to choose");
    assert_eq!(before["hands"].as_array().map(Vec::len), Some(9));
    game.command(
        ADA,
        &Command::Show {
            fingers: 2,
            call: 5,
        },
        &mut SeededRandomness::new(1),
    )
    .expect("legal");
    assert_eq!(odds(&game, ADA), None, "Ada's hand is in");
    assert_eq!(
        odds(&game, BO),
        Some(before),
        "Ada's hand changes nothing Bo is shown"
    );
    assert_eq!(odds(&game, Seat::Gm), None);
}

#[test]
fn simulations_are_reproducible_and_every_game_ends() {
    let contest = MorraContest {
        setup: Setup::default(),
        bots: [BotKind::Smart, BotKind::Random],
    };
    let a = simulate(&contest, 60, 5, Some(1), &|| {});
    let b = simulate(&contest, 60, 5, Some(2), &|| {});
    assert_eq!(a.rates, b.rates, "the same seed gives the same games");
    assert_eq!(a.games, 60);
    assert!(a.length_min >= 1 && a.length_max <= 30);
    assert_eq!(a.cut_off, 0, "every game ends by the rules");
    assert_eq!(a.rates[0].contestant, "Ada");
    assert_eq!(a.rates[0].wins + a.rates[1].wins + a.no_winner, 60);
}

#[test]
fn the_catalogue_entry_is_an_example_with_everything_a_game_offers() {
    let entry = morra::entry();
    assert_eq!(entry.id, "morra");
    assert!(
        entry.example,
        "kept out of the lobby unless examples are enabled"
    );
    assert!(entry.panel.is_some() && entry.panel.script.contains("register('morra'"));
    assert!(entry.bots.is_some() && entry.odds.is_some());
    assert!(entry.commands.odds.is_some() && entry.commands.simulate.is_some());
    let odds = entry.commands.odds.expect("odds");
    let m = (odds.command)()
        .try_get_matches_from(["morra", "hands"])
        .expect("clash odds morra hands parses");
    assert_eq!(m.subcommand_name(), Some("hands"));
    let simulate = entry.commands.simulate.expect("simulate");
    let bad = (simulate.command)().try_get_matches_from(["morra", "--target", "0"]);
    assert!(bad.is_err(), "a target of 0 breaks MO-2");
    for preset in entry.presets {
        let setup: Value = serde_json::from_str(preset.setup).expect("JSON");
        (entry.new_game)(&setup).unwrap_or_else(|e| panic!("{}: {e}", preset.name));
    }
}
