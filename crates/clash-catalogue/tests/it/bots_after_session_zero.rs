//! A table made by form, whose players made their own characters, is played by the same bots as
//! one started from a ready-made setup: once play starts the bots read the ruleset's own game.
//! Before then there is nothing for a bot to do, and asking is refused rather than guessed at.

use clash_core::{AnyGame, Budget, Seat, SeededRandomness, Strength};
use serde_json::{Value, json};

fn ask(game: &dyn AnyGame, seat: Seat) -> Result<Option<Value>, clash_core::BotError> {
    let entry = clash_catalogue::find(game.ruleset()).expect("a catalogued ruleset");
    let bots = entry.bots.expect("every ruleset has bots");
    bots(
        game,
        seat,
        Strength::Casual,
        Budget::work(9),
        &mut SeededRandomness::new(7),
    )
}

#[test]
fn wa_2_a_bot_rolls_for_a_character_its_player_made() {
    let entry = clash_catalogue::find("wicked-age").unwrap();
    let forms = entry.forms.expect("Wicked Age tables are made by form");
    let setup = (forms.table_setup)(&json!({"players": 1})).expect("valid choices");
    let mut game = (entry.new_game)(&setup).expect("a staged game");
    let rng = &mut SeededRandomness::new(1);
    let p1 = Seat::Player(1);
    assert!(ask(&*game, p1).is_err(), "no bot plays session zero");

    // WA-2: forms rated by dice, one of each of d4, d6, d8, d10, d12 and a second d6.
    let ysolde = json!({"name": "Ysolde", "kind": "pc",
        "forms": {"covertly": 6, "directly": 4, "for_myself": 8, "for_others": 6, "with_love": 12, "with_violence": 10},
        "best_interests": ["Find the child of the river", "Make the Khan pay"]});
    let khan = json!({"name": "The Khan", "kind": "npc",
        "forms": {"action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4]}});
    for (seat, command) in [
        (p1, json!({"type": "hand_in_sheet", "sheet": ysolde})),
        (Seat::Gm, json!({"type": "ready_npc", "sheet": khan})),
        (Seat::Gm, json!({"type": "start_play"})),
        (
            Seat::Gm,
            json!({"type": "start_conflict", "participants": ["Ysolde", "The Khan"], "action": "a duel"}),
        ),
    ] {
        game.command(seat, &command, rng).expect("accepted");
    }

    let command = ask(&*game, p1)
        .expect("the bot reads the game")
        .expect("Ysolde has initiative to roll");
    let before = game.event_count();
    game.command(p1, &command, rng)
        .expect("the rules accept the bot's command");
    assert!(game.event_count() > before);
}
